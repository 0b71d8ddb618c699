/* cmdline: the values main() gives its variables from a run's command line
 * (see cmdline.h). */
#include "predict/cmdline.h"
#include "predict/cursor.h"
#include "model/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int epi_cmdline_split(const char *command, char ***argv)
{
	int n = 0;
	*argv = NULL;
	for (const char *p = command; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		const char *start = p, *end;
		if (*p == '\'') { /* quoted: to the quote before a space or the end */
			start = ++p;
			while (*p && !(p[0] == '\'' && (p[1] == ' ' || p[1] == 0)))
				p++;
			end = p;
			if (*p)
				p++;
		} else {
			while (*p && *p != ' ')
				p++;
			end = p;
		}
		*argv = xrealloc(*argv, (size_t)(n + 2) * sizeof **argv);
		(*argv)[n++] = xstrndup(start, (size_t)(end - start));
		(*argv)[n] = NULL;
	}
	return n;
}

void epi_cmdline_free(char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

/* A variable followed: a local of main() or a variable of the file. */
typedef struct var {
	CXCursor decl;
	long long v;
	int known;
} var;

typedef struct run {
	CXCursor argc, argv;
	int nargs;
	char *const *args;
	var *v;
	int nv, cap;
	int stop; /* a statement that cannot be followed was met */
} run;

static var *var_of(run *r, CXCursor decl, int add)
{
	for (int i = 0; i < r->nv; i++)
		if (clang_equalCursors(r->v[i].decl, decl))
			return &r->v[i];
	if (!add)
		return NULL;
	ALLOC_GROW_FROM(r->v, r->nv + 1, r->cap, 16);
	r->v[r->nv] = (var){.decl = decl};
	return &r->v[r->nv++];
}

/* The variable expression E names (through parentheses and casts), or a
 * null cursor. */
static CXCursor named(CXCursor e)
{
	e = strip(e);
	if (kind(e) != CXCursor_DeclRefExpr)
		return clang_getNullCursor();
	CXCursor d = clang_getCursorReferenced(e);
	return kind(d) == CXCursor_VarDecl || kind(d) == CXCursor_ParmDecl ? d : clang_getNullCursor();
}

static int eval(run *r, CXCursor e, long long *out);

/* The word of the command line that E reads (argv[K]), or NULL. */
static const char *word(run *r, CXCursor e)
{
	e = strip(e);
	if (kind(e) != CXCursor_ArraySubscriptExpr)
		return NULL;
	kids k = {0};
	kids_of(e, &k);
	long long i;
	const char *w = NULL;
	if (k.n == 2 && clang_equalCursors(named(k.c[0]), r->argv) && eval(r, k.c[1], &i) == 0 && i >= 0 &&
	    i < r->nargs)
		w = r->args[i];
	kids_free(&k);
	return w;
}

/* A sscanf format that converts one integer and nothing else ("%d",
 * "%ld", "%zu", ...), and whether its value is unsigned. */
static int one_integer(const char *f, int *is_unsigned)
{
	const char *pc = strchr(f, '%');
	if (!pc || strchr(pc + 1, '%'))
		return 0;
	size_t m = strspn(pc + 1, "hlzjt");
	char c = pc[1 + m];
	*is_unsigned = c == 'u';
	return (c == 'd' || c == 'i' || c == 'u') && pc[2 + m] == 0;
}

/* The string literal E is (through casts), one without escapes or
 * concatenation, into BUF (N bytes): 0, or -1. */
static int literal(CXCursor e, char *buf, size_t n)
{
	e = strip(e);
	if (kind(e) != CXCursor_StringLiteral)
		return -1;
	char *sp = spelling(e);
	size_t len = strlen(sp);
	int ok = len >= 2 && sp[0] == '"' && sp[len - 1] == '"' && !memchr(sp + 1, '"', len - 2) &&
		 !strchr(sp, '\\') && len - 2 < n;
	if (ok)
		snprintf(buf, n, "%.*s", (int)(len - 2), sp + 1);
	free(sp);
	return ok ? 0 : -1;
}

/* A call of the C library's string-to-integer functions on a word. */
static int eval_call(run *r, CXCursor e, long long *out)
{
	char *name = spelling(e);
	kids k = {0};
	kids_of(e, &k);
	/* the callee's reference first, then the arguments */
	int ret = -1, nargs = k.n - 1;
	const char *w = nargs >= 1 ? word(r, k.c[1]) : NULL;
	long long base = 10;
	if (w && nargs == 1 && (!strcmp(name, "atoi") || !strcmp(name, "atol") || !strcmp(name, "atoll"))) {
		*out = strtoll(w, NULL, 10);
		if (!strcmp(name, "atoi"))
			*out = (int)*out;
		ret = 0;
	} else if (w && nargs == 3 && eval(r, k.c[3], &base) == 0 && base >= 0 && base <= 36 && base != 1 &&
		   (!strcmp(name, "strtol") || !strcmp(name, "strtoll") || !strcmp(name, "strtoul") ||
		    !strcmp(name, "strtoull"))) {
		*out = name[4] == 'u' ? (long long)strtoull(w, NULL, (int)base) : strtoll(w, NULL, (int)base);
		ret = 0;
	}
	kids_free(&k);
	free(name);
	return ret;
}

static int eval(run *r, CXCursor e, long long *out)
{
	e = strip(e);
	enum CXCursorKind k = kind(e);
	CXCursor d = named(e);
	if (!clang_Cursor_isNull(d)) {
		if (clang_equalCursors(d, r->argc)) {
			*out = r->nargs;
			return 0;
		}
		var *x = var_of(r, d, 0);
		if (x) {
			*out = x->v;
			return x->known ? 0 : -1;
		}
	}
	if (k == CXCursor_CallExpr)
		return eval_call(r, e, out);
	kids c = {0};
	kids_of(e, &c);
	long long a, b;
	int ret = -1;
	if (k == CXCursor_UnaryOperator && c.n == 1 && eval(r, c.c[0], &a) == 0) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
		ret = 0;
		if (op == CXUnaryOperator_Minus)
			*out = -a;
		else if (op == CXUnaryOperator_Plus)
			*out = a;
		else if (op == CXUnaryOperator_LNot)
			*out = !a;
		else if (op == CXUnaryOperator_Not)
			*out = ~a;
		else
			ret = -1;
	} else if (k == CXCursor_BinaryOperator && c.n == 2) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
		int ka = eval(r, c.c[0], &a) == 0;
		/* && and || as C takes them: the right side only when needed */
		if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
			if (ka && (op == CXBinaryOperator_LAnd ? !a : a)) {
				*out = op == CXBinaryOperator_LOr;
				ret = 0;
			} else if (ka && eval(r, c.c[1], &b) == 0) {
				*out = b != 0;
				ret = 0;
			}
		} else if (ka && eval(r, c.c[1], &b) == 0) {
			ret = 0;
			switch (op) {
			case CXBinaryOperator_Add: *out = a + b; break;
			case CXBinaryOperator_Sub: *out = a - b; break;
			case CXBinaryOperator_Mul: *out = a * b; break;
			case CXBinaryOperator_Div: ret = b ? (*out = a / b, 0) : -1; break;
			case CXBinaryOperator_Rem: ret = b ? (*out = a % b, 0) : -1; break;
			case CXBinaryOperator_Shl: ret = b >= 0 && b < 63 ? (*out = a << b, 0) : -1; break;
			case CXBinaryOperator_Shr: ret = b >= 0 && b < 63 ? (*out = a >> b, 0) : -1; break;
			case CXBinaryOperator_LT: *out = a < b; break;
			case CXBinaryOperator_GT: *out = a > b; break;
			case CXBinaryOperator_LE: *out = a <= b; break;
			case CXBinaryOperator_GE: *out = a >= b; break;
			case CXBinaryOperator_EQ: *out = a == b; break;
			case CXBinaryOperator_NE: *out = a != b; break;
			case CXBinaryOperator_And: *out = a & b; break;
			case CXBinaryOperator_Or: *out = a | b; break;
			case CXBinaryOperator_Xor: *out = a ^ b; break;
			default: ret = -1; break;
			}
		}
	} else if (k == CXCursor_ConditionalOperator && c.n == 3 && eval(r, c.c[0], &a) == 0) {
		ret = eval(r, c.c[a ? 1 : 2], out);
	} else {
		/* a constant: a literal, a macro's, sizeof, an enumerator */
		CXEvalResult x = clang_Cursor_Evaluate(e);
		if (x && clang_EvalResult_getKind(x) == CXEval_Int) {
			*out = clang_EvalResult_getAsLongLong(x);
			ret = 0;
		}
		if (x)
			clang_EvalResult_dispose(x);
	}
	kids_free(&c);
	return ret;
}

/* Sets X to what E gives (unknown when it cannot be followed). */
static void set(run *r, CXCursor decl, CXCursor e)
{
	var *x = var_of(r, decl, 1);
	x->known = eval(r, e, &x->v) == 0;
}

/* Every variable the code of C may change (assigned, stepped, or its
 * address taken) made unknown. */
static enum CXChildVisitResult forget_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	run *r = data;
	CXCursor target = clang_getNullCursor();
	if (kind(c) == CXCursor_BinaryOperator || kind(c) == CXCursor_CompoundAssignOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		if (kind(c) == CXCursor_CompoundAssignOperator || op == CXBinaryOperator_Assign) {
			kids k = {0};
			kids_of(c, &k);
			if (k.n)
				target = named(k.c[0]);
			kids_free(&k);
		}
	} else if (kind(c) == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
		    op == CXUnaryOperator_PreDec || op == CXUnaryOperator_AddrOf) {
			kids k = {0};
			kids_of(c, &k);
			if (k.n)
				target = named(k.c[0]);
			kids_free(&k);
		}
	}
	if (!clang_Cursor_isNull(target)) {
		var *x = var_of(r, target, 1);
		x->known = 0;
	}
	return CXChildVisit_Recurse;
}

static void forget(run *r, CXCursor c)
{
	forget_visit(c, clang_getNullCursor(), r);
	clang_visitChildren(c, forget_visit, r);
}

/* sscanf(argv[K], "%d", &x): X from the word; 0, or -1 when not such a call. */
static int scan_call(run *r, CXCursor c)
{
	char *name = spelling(c);
	kids k = {0};
	kids_of(c, &k);
	int ret = -1;
	char fmt[64];
	const char *w;
	int uns;
	if (!strcmp(name, "sscanf") && k.n == 4 && (w = word(r, k.c[1])) && literal(k.c[2], fmt, sizeof fmt) == 0 &&
	    one_integer(fmt, &uns)) {
		CXCursor a = strip(k.c[3]);
		kids ak = {0};
		kids_of(a, &ak);
		CXCursor d = kind(a) == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(a) == CXUnaryOperator_AddrOf &&
				     ak.n == 1
			     ? named(ak.c[0])
			     : clang_getNullCursor();
		kids_free(&ak);
		if (!clang_Cursor_isNull(d)) {
			/* the conversion as sscanf makes it, of a whole number */
			const char *pc = strchr(fmt, '%');
			char one[8];
			snprintf(one, sizeof one, "%%ll%c", uns ? 'u' : 'd');
			char pre[64];
			snprintf(pre, sizeof pre, "%.*s%s", (int)(pc - fmt), fmt, one);
			long long v;
			var *x = var_of(r, d, 1);
			x->known = sscanf(w, pre, &v) == 1;
			x->v = v;
			ret = 0;
		}
	}
	kids_free(&k);
	free(name);
	return ret;
}

static void exec(run *r, CXCursor s);

static void exec_all(run *r, CXCursor s)
{
	kids k = {0};
	kids_of(s, &k);
	for (int i = 0; i < k.n; i++) {
		if (r->stop)
			forget(r, k.c[i]);
		else
			exec(r, k.c[i]);
	}
	kids_free(&k);
}

/* Follows statement S of main(). What it cannot follow it forgets (every
 * variable it may change unknown, the rest as they were), and goes on;
 * after a return or a jump it only forgets. */
static void exec(run *r, CXCursor s)
{
	enum CXCursorKind k = kind(s);
	kids c = {0};
	kids_of(s, &c);
	long long cond;
	if (k == CXCursor_CompoundStmt) {
		exec_all(r, s);
	} else if (k == CXCursor_DeclStmt) {
		for (int i = 0; i < c.n; i++) {
			if (kind(c.c[i]) != CXCursor_VarDecl)
				continue;
			kids v = {0};
			kids_of(c.c[i], &v);
			/* its initial value: the last child that is an expression */
			CXCursor init = clang_getNullCursor();
			for (int j = 0; j < v.n; j++)
				if (clang_isExpression(kind(v.c[j])))
					init = v.c[j];
			kids_free(&v);
			if (!clang_Cursor_isNull(init))
				forget(r, init);
			var *x = var_of(r, c.c[i], 1);
			x->known = !clang_Cursor_isNull(init) && eval(r, init, &x->v) == 0;
		}
	} else if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(s) == CXBinaryOperator_Assign &&
		   c.n == 2 && !clang_Cursor_isNull(named(c.c[0]))) {
		forget(r, c.c[1]);
		set(r, named(c.c[0]), c.c[1]);
	} else if (k == CXCursor_IfStmt && c.n >= 2 && eval(r, c.c[0], &cond) == 0) {
		if (cond)
			exec(r, c.c[1]);
		else if (c.n == 3)
			exec(r, c.c[2]);
	} else if (k == CXCursor_CallExpr && scan_call(r, s) == 0) {
		/* followed */
	} else {
		forget(r, s);
		r->stop = k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt ||
			  k == CXCursor_LabelStmt;
	}
	kids_free(&c);
}

int epi_cmdline_values(const char *file, const epi_front_opts *fo, int argc, char *const *argv,
		       const char *const *names, int n, long long *vals, int *got)
{
	memset(got, 0, (size_t)n * sizeof *got);
	CXIndex idx = clang_createIndex(0, 0);
	int nargs;
	const char **a = parse_args(NULL, fo->clang_args, fo->nclang_args, &nargs);
	CXTranslationUnit tu = NULL;
	if (clang_parseTranslationUnit2(idx, file, a, nargs, NULL, 0, CXTranslationUnit_None, &tu) != CXError_Success)
		tu = NULL;
	free(a);
	int found = 0;
	run r = {.nargs = argc, .args = argv};
	kids top = {0};
	if (tu)
		kids_of(clang_getTranslationUnitCursor(tu), &top);
	CXCursor main_fn = clang_getNullCursor();
	for (int i = 0; i < top.n; i++) {
		CXCursor c = top.c[i];
		if (kind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) && in_main_file(c)) {
			char *name = spelling(c);
			if (!strcmp(name, "main"))
				main_fn = c;
			free(name);
		}
	}
	kids k = {0};
	if (!clang_Cursor_isNull(main_fn))
		kids_of(main_fn, &k);
	CXCursor body = clang_getNullCursor();
	int np = 0;
	for (int i = 0; i < k.n; i++) {
		if (kind(k.c[i]) == CXCursor_ParmDecl) {
			if (np == 0)
				r.argc = k.c[i];
			else if (np == 1)
				r.argv = k.c[i];
			np++;
		} else if (kind(k.c[i]) == CXCursor_CompoundStmt) {
			body = k.c[i];
		}
	}
	if (np >= 2 && !clang_Cursor_isNull(body)) {
		/* the file's variables start at their constant initial values */
		for (int i = 0; i < top.n; i++) {
			CXCursor c = top.c[i];
			CXType t = clang_getCanonicalType(clang_getCursorType(c));
			if (kind(c) != CXCursor_VarDecl || !in_main_file(c) || t.kind < CXType_Char_U ||
			    t.kind > CXType_Int128)
				continue;
			CXEvalResult x = clang_Cursor_Evaluate(c);
			var *v = var_of(&r, c, 1);
			v->known = x && clang_EvalResult_getKind(x) == CXEval_Int;
			v->v = v->known ? clang_EvalResult_getAsLongLong(x) : 0;
			if (x)
				clang_EvalResult_dispose(x);
		}
		exec_all(&r, body);
		/* a variable of the file is its value only where no other
		 * function can change it */
		for (int i = 0; i < top.n; i++) {
			CXCursor c = top.c[i];
			if (kind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) && !clang_equalCursors(c, main_fn)) {
				run other = {.v = r.v, .nv = r.nv, .cap = r.cap};
				clang_visitChildren(c, forget_visit, &other);
				r.v = other.v;
				r.nv = other.nv;
				r.cap = other.cap;
			}
		}
		for (int i = 0; i < n; i++)
			for (int j = 0; j < r.nv && !got[i]; j++) {
				char *name = spelling(r.v[j].decl);
				if (r.v[j].known && !strcmp(name, names[i])) {
					vals[i] = r.v[j].v;
					got[i] = 1;
					found++;
				}
				free(name);
			}
	}
	kids_free(&k);
	kids_free(&top);
	free(r.v);
	if (tu)
		clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
	return found;
}
