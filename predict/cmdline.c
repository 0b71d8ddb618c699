/* cmdline: the values main() gives its variables from a run's command line
 * (see cmdline.h). */
#include "predict/cmdline.h"
#include "predict/cursor.h"
#include "model/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A variable followed: a local of main() or a variable of the file; an
 * integer, or (STR) a pointer to chars that holds S, a word or a literal. */
typedef struct var {
	CXCursor decl;
	long long v;
	int known;
	int str;
	const char *s;
} var;

typedef struct run {
	CXCursor argc, argv;
	int nargs;
	char **args; /* the words, as the program's getopt leaves them (it may reorder them) */
	var *v;
	int nv, cap;
	int stop; /* a return or a jump was met */
	/* running a loop of main() as the program did (its option parsing):
	 * increments and assignments in expressions done, getopt called on
	 * the words; what it cannot run abandons the loop */
	int concrete;
	long steps;
	const char *optarg_s;
	int optind_v;
	int scanning; /* getopt has been called: its scan goes on */
	int *loop_line; /* the loops of main() run as the program ran them, */
	long *loop_iters; /* each entered once: their lines and iterations */
	int nloops;
	char **lits; /* string literals read */
	int nlits;
} run;

/* The statements a loop may run before it is abandoned. */
#define CMDLINE_STEPS 20000

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

/* Whether declaration D is the C library's variable NAME (optarg,
 * optind): one of no file of the program's. */
static int libc_var(CXCursor d, const char *name)
{
	if (kind(d) != CXCursor_VarDecl || in_main_file(d))
		return 0;
	char *n = spelling(d);
	int is = !strcmp(n, name);
	free(n);
	return is;
}

static int literal(CXCursor e, char *buf, size_t n);

/* The string E is: a word of the command line (argv[K]), getopt's
 * optarg, or a literal; NULL when not known. */
static const char *text(run *r, CXCursor e)
{
	e = strip(e);
	if (kind(e) == CXCursor_StringLiteral) {
		char b[256];
		if (literal(e, b, sizeof b) < 0)
			return NULL;
		r->lits = xrealloc(r->lits, ((size_t)r->nlits + 1) * sizeof *r->lits);
		return r->lits[r->nlits++] = xstrdup(b);
	}
	if (kind(e) == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(e);
		var *x = var_of(r, d, 0);
		if (x && x->str)
			return x->known ? x->s : NULL;
		return r->concrete && libc_var(d, "optarg") ? r->optarg_s : NULL;
	}
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
	const char *w = nargs >= 1 ? text(r, k.c[1]) : NULL;
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
	} else if (nargs >= 2 && (!strcmp(name, "strcmp") || !strcmp(name, "strncmp"))) {
		const char *x = w, *y = text(r, k.c[2]);
		long long len = 0;
		if (x && y && nargs == 2 && !strcmp(name, "strcmp")) {
			*out = strcmp(x, y);
			ret = 0;
		} else if (x && y && nargs == 3 && eval(r, k.c[3], &len) == 0 && len >= 0) {
			*out = strncmp(x, y, (size_t)len);
			ret = 0;
		}
	} else if (r->concrete && nargs == 3 && !strcmp(name, "getopt") && clang_equalCursors(named(k.c[1]), r->argc) &&
		   clang_equalCursors(named(k.c[2]), r->argv)) {
		/* the C library's own, on the words as the program had them */
		const char *opts = text(r, k.c[3]);
		if (opts) {
			char copy[256];
			snprintf(copy, sizeof copy, "%s", opts);
			opterr = 0;
			/* the first call starts a scan afresh (glibc: optind 0) */
			optind = r->scanning ? r->optind_v : 0;
			r->scanning = 1;
			*out = getopt(r->nargs, r->args, copy);
			r->optind_v = optind;
			r->optarg_s = optarg;
			ret = 0;
		}
	}
	kids_free(&k);
	free(name);
	return ret;
}

/* In a loop run as the program ran it: the variable E names, when it is
 * one followed (an int of main() or of the file), else NULL. */
static var *target(run *r, CXCursor e)
{
	CXCursor d = named(e);
	return clang_Cursor_isNull(d) || clang_equalCursors(d, r->argc) ? NULL : var_of(r, d, 0);
}

/* The side effects of E, in a loop run as the program ran it: an
 * assignment (plain or compound), an increment or a decrement of a
 * variable followed; 1 when E is one (its value into *OUT, -1 returned
 * when it cannot be run), 0 when not. */
static int effect(run *r, CXCursor e, long long *out, int *ret)
{
	enum CXCursorKind k = kind(e);
	kids c = {0};
	int is = 0;
	*ret = -1;
	if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
		if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
		    op == CXUnaryOperator_PreDec) {
			is = 1;
			kids_of(e, &c);
			var *x = c.n == 1 ? target(r, c.c[0]) : NULL;
			if (x && x->known) {
				long long old = x->v;
				x->v += op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ? 1 : -1;
				*out = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ? old : x->v;
				*ret = 0;
			}
		}
	} else if (k == CXCursor_CompoundAssignOperator ||
		   (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_Assign)) {
		is = 1;
		kids_of(e, &c);
		var *x = c.n == 2 ? target(r, c.c[0]) : NULL;
		long long v, a = 0;
		if (x && x->str) {
			x->s = k == CXCursor_BinaryOperator ? text(r, c.c[1]) : NULL;
			x->known = x->s != NULL;
			*ret = x->known ? 0 : -1;
			*out = 0;
		} else if (x && eval(r, c.c[1], &v) == 0 && (k == CXCursor_BinaryOperator || (x->known && (a = x->v, 1)))) {
			*ret = 0;
			switch (k == CXCursor_BinaryOperator ? CXBinaryOperator_Assign : clang_getCursorBinaryOperatorKind(e)) {
			case CXBinaryOperator_Assign: break;
			case CXBinaryOperator_AddAssign: v = a + v; break;
			case CXBinaryOperator_SubAssign: v = a - v; break;
			case CXBinaryOperator_MulAssign: v = a * v; break;
			case CXBinaryOperator_DivAssign: *ret = v ? (v = a / v, 0) : -1; break;
			default: *ret = -1; break;
			}
			if (*ret == 0) {
				x->v = *out = v;
				x->known = 1;
			}
		}
	}
	kids_free(&c);
	return is;
}

static int eval(run *r, CXCursor e, long long *out)
{
	e = strip(e);
	enum CXCursorKind k = kind(e);
	CXCursor d = named(e);
	int ret;
	if (r->concrete && effect(r, e, out, &ret))
		return ret;
	if (!clang_Cursor_isNull(d)) {
		if (clang_equalCursors(d, r->argc)) {
			*out = r->nargs;
			return 0;
		}
		if (r->concrete && libc_var(d, "optind")) {
			*out = r->optind_v;
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
	ret = -1;
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

static int init_var(run *r, CXCursor d, CXCursor init);

/* Sets X to what E gives (unknown when it cannot be followed). */
static void set(run *r, CXCursor decl, CXCursor e)
{
	init_var(r, decl, e);
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
	if (!strcmp(name, "sscanf") && k.n == 4 && (w = text(r, k.c[1])) && literal(k.c[2], fmt, sizeof fmt) == 0 &&
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
			long long v = 0;
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

/* What declaration D declares: 1 an integer, 2 a pointer to chars, 0
 * neither. */
static int decl_type(CXCursor d)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(d));
	if (t.kind >= CXType_Char_U && t.kind <= CXType_Int128)
		return 1;
	if (t.kind != CXType_Pointer)
		return 0;
	CXType p = clang_getCanonicalType(clang_getPointeeType(t));
	return p.kind == CXType_Char_S || p.kind == CXType_Char_U || p.kind == CXType_SChar || p.kind == CXType_UChar
		       ? 2
		       : 0;
}

/* Variable D's value from its initial value INIT (none: unknown); 0, or
 * -1 when INIT cannot be followed. */
static int init_var(run *r, CXCursor d, CXCursor init)
{
	int type = decl_type(d);
	var *x = var_of(r, d, 1);
	x->str = type == 2;
	x->known = 0;
	if (clang_Cursor_isNull(init))
		return 0;
	if (x->str)
		x->known = (x->s = text(r, init)) != NULL;
	else
		x->known = type == 1 && eval(r, init, &x->v) == 0;
	return x->known ? 0 : -1;
}

/* The initial value of declaration D (its last child that is an
 * expression), or a null cursor. */
static CXCursor initial(CXCursor d)
{
	kids v = {0};
	kids_of(d, &v);
	CXCursor init = clang_getNullCursor();
	for (int j = 0; j < v.n; j++)
		if (clang_isExpression(kind(v.c[j])))
			init = v.c[j];
	kids_free(&v);
	return init;
}

/* A loop run as the program ran it: how a statement ends. */
enum { GO, BROKE, CONTINUED, CANNOT };

static int run_loop(run *r, CXCursor s, long *iters);

/* A call that changes nothing followed: output. */
static int quiet_call(CXCursor e)
{
	static const char *const out[] = {"printf", "fprintf", "puts", "fputs", "putchar", "fputc", "fflush"};
	e = strip(e);
	if (kind(e) != CXCursor_CallExpr)
		return 0;
	char *name = spelling(e);
	int q = 0;
	for (size_t i = 0; i < sizeof out / sizeof *out && !q; i++)
		q = !strcmp(name, out[i]);
	free(name);
	return q;
}

/* The statements of switch S's body from the case that VALUE selects. */
static int run_switch(run *r, CXCursor s, long long value);

/* Runs statement S as the program ran it (r->concrete). */
static int step(run *r, CXCursor s)
{
	if (++r->steps > CMDLINE_STEPS)
		return CANNOT;
	enum CXCursorKind k = kind(s);
	kids c = {0};
	kids_of(s, &c);
	int st = GO;
	long long v;
	if (k == CXCursor_CompoundStmt) {
		for (int i = 0; i < c.n && st == GO; i++)
			st = step(r, c.c[i]);
	} else if (k == CXCursor_NullStmt) {
	} else if (k == CXCursor_DeclStmt) {
		for (int i = 0; i < c.n && st == GO; i++) {
			if (kind(c.c[i]) != CXCursor_VarDecl || !decl_type(c.c[i]) ||
			    init_var(r, c.c[i], initial(c.c[i])) < 0)
				st = CANNOT;
		}
	} else if (k == CXCursor_IfStmt && c.n >= 2) {
		if (eval(r, c.c[0], &v) != 0)
			st = CANNOT;
		else if (v)
			st = step(r, c.c[1]);
		else if (c.n == 3)
			st = step(r, c.c[2]);
	} else if (k == CXCursor_SwitchStmt && c.n == 2) {
		st = eval(r, c.c[0], &v) == 0 ? run_switch(r, c.c[1], v) : CANNOT;
	} else if (k == CXCursor_BreakStmt) {
		st = BROKE;
	} else if (k == CXCursor_ContinueStmt) {
		st = CONTINUED;
	} else if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) {
		long n;
		st = run_loop(r, s, &n);
	} else if (k == CXCursor_CallExpr && scan_call(r, s) == 0) {
		/* sscanf(optarg, "%d", &n) */
	} else if (clang_isExpression(k)) {
		if (eval(r, s, &v) != 0 && !quiet_call(s))
			st = CANNOT;
	} else {
		st = CANNOT; /* a return, a jump, a label */
	}
	kids_free(&c);
	return st;
}

/* The case and default labels in C's code, those of the switches inside
 * it left out. */
static enum CXChildVisitResult label_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (kind(c) == CXCursor_SwitchStmt)
		return CXChildVisit_Continue;
	*(int *)data += kind(c) == CXCursor_CaseStmt || kind(c) == CXCursor_DefaultStmt;
	return CXChildVisit_Recurse;
}

static int run_switch(run *r, CXCursor body, long long value)
{
	if (kind(body) != CXCursor_CompoundStmt)
		return CANNOT;
	kids c = {0};
	kids_of(body, &c);
	/* each statement of the body under its labels (case 'a': case 'b': x);
	 * a label deeper in the body (Duff's device), or one not known,
	 * cannot be run */
	int from = -1, dflt = -1, labels = 0, all = 0, known = 1;
	CXCursor *st = xmalloc(((size_t)c.n + 1) * sizeof *st);
	for (int i = 0; i < c.n; i++) {
		CXCursor x = c.c[i];
		while (kind(x) == CXCursor_CaseStmt || kind(x) == CXCursor_DefaultStmt) {
			kids l = {0};
			kids_of(x, &l);
			long long lo, hi;
			labels++;
			/* case V:, or GNU's case LO ... HI: */
			if (kind(x) == CXCursor_DefaultStmt) {
				if (dflt < 0)
					dflt = i;
			} else if ((l.n != 2 && l.n != 3) || eval(r, l.c[0], &lo) != 0 ||
				   (l.n == 3 ? eval(r, l.c[1], &hi) : (hi = lo, 0)) != 0) {
				known = 0;
			} else if (lo <= value && value <= hi && from < 0) {
				from = i;
			}
			x = l.n ? l.c[l.n - 1] : clang_getNullCursor();
			kids_free(&l);
		}
		st[i] = x;
	}
	clang_visitChildren(body, label_visit, &all);
	if (from < 0)
		from = dflt;
	int ret = known && all == labels ? GO : CANNOT;
	for (int i = from < 0 ? c.n : from; i < c.n && ret == GO; i++)
		if (!clang_Cursor_isNull(st[i]))
			ret = step(r, st[i]);
	free(st);
	kids_free(&c);
	return ret == BROKE ? GO : ret;
}

/* Loop S run (r->concrete); its body's runs into *ITERS. */
static int run_loop(run *r, CXCursor s, long *iters)
{
	kids c = {0};
	kids_of(s, &c);
	CXCursor init = clang_getNullCursor(), cond = init, inc = init, body = init;
	int ret = GO;
	/* a for with its three parts, a while, a do (the cursors do not say
	 * which of a for's parts are missing) */
	if (kind(s) == CXCursor_ForStmt && c.n == 4) {
		init = c.c[0];
		cond = c.c[1];
		inc = c.c[2];
		body = c.c[3];
	} else if (kind(s) == CXCursor_WhileStmt && c.n == 2) {
		cond = c.c[0];
		body = c.c[1];
	} else if (kind(s) == CXCursor_DoStmt && c.n == 2) {
		body = c.c[0];
		cond = c.c[1];
	} else {
		ret = CANNOT;
	}
	long long v;
	*iters = 0;
	if (ret == GO && !clang_Cursor_isNull(init))
		ret = step(r, init);
	for (int first = 1; ret == GO; first = 0) {
		if (!(first && kind(s) == CXCursor_DoStmt)) {
			if (eval(r, cond, &v) != 0 || ++r->steps > CMDLINE_STEPS) {
				ret = CANNOT;
				break;
			}
			if (!v)
				break;
		}
		int st = step(r, body);
		++*iters;
		if (st == CANNOT || st == BROKE) {
			ret = st == CANNOT ? CANNOT : GO;
			break;
		}
		if (!clang_Cursor_isNull(inc) && eval(r, inc, &v) != 0)
			ret = CANNOT;
	}
	kids_free(&c);
	return ret;
}

/* Loop S run as the program ran it, when it can be (an option parser);
 * 0, or -1 with every variable as it was before. */
static int run_whole_loop(run *r, CXCursor s)
{
	var *saved = xmalloc(((size_t)r->nv + 1) * sizeof *saved);
	memcpy(saved, r->v, (size_t)r->nv * sizeof *saved);
	int nv = r->nv, optind_v = r->optind_v, scanning = r->scanning;
	const char *optarg_s = r->optarg_s;
	r->concrete = 1;
	r->steps = 0;
	long iters;
	int st = run_loop(r, s, &iters);
	r->concrete = 0;
	if (st != CANNOT) {
		r->loop_line = xrealloc(r->loop_line, ((size_t)r->nloops + 1) * sizeof *r->loop_line);
		r->loop_iters = xrealloc(r->loop_iters, ((size_t)r->nloops + 1) * sizeof *r->loop_iters);
		r->loop_line[r->nloops] = line_of(s);
		r->loop_iters[r->nloops++] = iters;
	}
	if (st == CANNOT) {
		memcpy(r->v, saved, (size_t)nv * sizeof *saved);
		r->nv = nv;
		r->optind_v = optind_v;
		r->optarg_s = optarg_s;
		r->scanning = scanning;
	}
	free(saved);
	return st == CANNOT ? -1 : 0;
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
			CXCursor init = initial(c.c[i]);
			if (!clang_Cursor_isNull(init))
				forget(r, init);
			init_var(r, c.c[i], init);
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
	} else if ((k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) &&
		   run_whole_loop(r, s) == 0) {
		/* run as the program ran it */
	} else {
		forget(r, s);
		r->stop = k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt ||
			  k == CXCursor_LabelStmt;
	}
	kids_free(&c);
}

int epi_cmdline_values(const char *file, const epi_front_opts *fo, int argc, char *const *argv,
		       const char *const *names, const int *lines, int n, long long *vals, int *got)
{
	memset(got, 0, (size_t)n * sizeof *got);
	CXIndex idx = clang_createIndex(0, 0);
	int nargs;
	const char **a = parse_args(file, NULL, fo->clang_args, fo->nclang_args, &nargs);
	CXTranslationUnit tu = NULL;
	if (clang_parseTranslationUnit2(idx, file, a, nargs, NULL, 0, CXTranslationUnit_None, &tu) != CXError_Success)
		tu = NULL;
	free(a);
	int found = 0;
	/* the words, for getopt to reorder as it did the program's */
	char **words = xmalloc(((size_t)argc + 1) * sizeof *words);
	for (int i = 0; i < argc; i++)
		words[i] = xstrdup(argv[i]);
	words[argc] = NULL;
	run r = {.nargs = argc, .args = words, .optind_v = 1};
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
		/* a loop's trip count: of one run as the program ran it */
		for (int i = 0; i < n; i++)
			for (int j = 0; lines[i] > 0 && j < r.nloops && !got[i]; j++)
				if (r.loop_line[j] == lines[i]) {
					vals[i] = r.loop_iters[j];
					got[i] = 1;
					found++;
				}
		for (int i = 0; i < n; i++)
			for (int j = 0; !lines[i] && j < r.nv && !got[i]; j++) {
				char *name = spelling(r.v[j].decl);
				if (r.v[j].known && !r.v[j].str && !strcmp(name, names[i])) {
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
	free(r.loop_line);
	free(r.loop_iters);
	epi_strv_free(r.lits, r.nlits);
	epi_strv_free(words, argc);
	if (tu)
		clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
	return found;
}
