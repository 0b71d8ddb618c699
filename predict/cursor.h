/* cursor: small helpers around libclang's cursors, shared by the files of
 * the front end (cfront.c, chunks.c, nests.c, trips.c).  Internal to
 * predict/. */
#ifndef EPI_CURSOR_H
#define EPI_CURSOR_H

#include <clang-c/Index.h>

#include "model/util.h"
#include <stdlib.h>
#include <string.h>

typedef struct kids {
	int n, cap;
	CXCursor *c;
} kids;

static inline enum CXChildVisitResult kid_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	kids *k = d;
	ALLOC_GROW(k->c, k->n + 1, k->cap);
	k->c[k->n++] = c;
	return CXChildVisit_Continue;
}

static inline void kids_of(CXCursor c, kids *k)
{
	k->n = 0;
	clang_visitChildren(c, kid_visit, k);
}

static inline void kids_free(kids *k) { free(k->c); }

static inline enum CXCursorKind kind(CXCursor c) { return clang_getCursorKind(c); }

/* A node's only expression child, as strip() looks for it: the visit stops
 * at a second one. */
typedef struct only_expr {
	CXCursor c;
	int n;
} only_expr;

static inline enum CXChildVisitResult only_expr_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	only_expr *o = d;
	if (!clang_isExpression(kind(c)))
		return CXChildVisit_Continue;
	o->c = c;
	return ++o->n > 1 ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether C has exactly one expression child (then in *OUT). */
static inline int only_child(CXCursor c, CXCursor *out)
{
	only_expr o = {.n = 0};
	clang_visitChildren(c, only_expr_visit, &o);
	if (o.n != 1)
		return 0;
	*out = o.c;
	return 1;
}

/* C under implicit casts and parentheses. */
static inline CXCursor unparen(CXCursor c)
{
	while ((kind(c) == CXCursor_ParenExpr || kind(c) == CXCursor_UnexposedExpr) && only_child(c, &c))
		;
	return c;
}

/* Whether C is `!!E` (E then in *IN). */
static inline int not_not(CXCursor c, CXCursor *in)
{
	for (int i = 0; i < 2; i++) {
		c = unparen(c);
		if (kind(c) != CXCursor_UnaryOperator || clang_getCursorUnaryOperatorKind(c) != CXUnaryOperator_LNot ||
		    !only_child(c, &c))
			return 0;
	}
	*in = unparen(c);
	return 1;
}

/* E of `__builtin_expect(E, V)` (a likely() or unlikely() macro: a hint
 * to the compiler, E's value, no code of its own), `!!` around E dropped;
 * else C. */
static inline CXCursor expected(CXCursor c)
{
	if (kind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) < 2)
		return c;
	CXString s = clang_getCursorSpelling(c);
	const char *name = clang_getCString(s);
	int hint = name && (!strcmp(name, "__builtin_expect") || !strcmp(name, "__builtin_expect_with_probability"));
	clang_disposeString(s);
	if (!hint)
		return c;
	CXCursor e = clang_Cursor_getArgument(c, 0), in;
	return not_not(e, &in) ? in : e;
}

/* A node's last expression child (a cast's operand: a typeof() in the
 * type it names comes first, and is not evaluated). */
static inline enum CXChildVisitResult last_expr_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	only_expr *o = d;
	if (clang_isExpression(kind(c))) {
		o->c = c;
		o->n++;
	}
	return CXChildVisit_Continue;
}

/* The expression under implicit casts, parentheses and explicit casts (and
 * a __builtin_expect hint). */
static inline CXCursor strip(CXCursor c)
{
	for (;;) {
		enum CXCursorKind ck = kind(c);
		if (ck == CXCursor_CallExpr) {
			CXCursor e = expected(c);
			if (clang_equalCursors(e, c))
				break;
			c = e;
			continue;
		}
		if (ck == CXCursor_CStyleCastExpr) {
			only_expr o = {.n = 0};
			clang_visitChildren(c, last_expr_visit, &o);
			if (o.n < 1)
				break;
			c = o.c;
			continue;
		}
		if ((ck != CXCursor_UnexposedExpr && ck != CXCursor_ParenExpr) || !only_child(c, &c))
			break;
	}
	return c;
}

static inline int line_of(CXCursor c)
{
	unsigned line;
	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
	return (int)line;
}

/* 1 when the condition C always holds (a null one too), -1 when it never
 * does, else 0. */
static inline int const_truth(CXCursor c)
{
	if (clang_Cursor_isNull(c))
		return 1;
	CXEvalResult r = clang_Cursor_Evaluate(c);
	int v = 0;
	if (r && clang_EvalResult_getKind(r) == CXEval_Int)
		v = clang_EvalResult_getAsLongLong(r) ? 1 : -1;
	if (r)
		clang_EvalResult_dispose(r);
	return v;
}

/* The statement that attributed statement C carries (a loop under
 * `#pragma GCC unroll` or `#pragma clang loop`, which libclang shows as an
 * unexposed statement around it), else C. */
static inline CXCursor attributed(CXCursor c)
{
	while (kind(c) == CXCursor_UnexposedStmt) {
		kids kk = {0};
		kids_of(c, &kk);
		int one = kk.n == 1 && clang_isStatement(kind(kk.c[0]));
		CXCursor in = one ? kk.c[0] : c;
		kids_free(&kk);
		if (!one)
			break;
		c = in;
	}
	return c;
}

/* `do { ... } while (0)`, the macro idiom: its body runs once, no loop. */
static inline int is_once(CXCursor c)
{
	if (kind(c) != CXCursor_DoStmt)
		return 0;
	kids kk = {0};
	kids_of(c, &kk);
	int once = kk.n == 2 && const_truth(kk.c[1]) < 0;
	kids_free(&kk);
	return once;
}

/* Whether C is a loop statement (not a do-while(0)). */
static inline int is_loop_stmt(CXCursor c)
{
	enum CXCursorKind k = kind(c);
	return (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) && !is_once(c);
}

/* Whether C's text comes from a macro's expansion. */
static inline int from_macro(CXCursor c)
{
	CXSourceLocation l = clang_getCursorLocation(c);
	CXFile fs, fe;
	unsigned os, oe;
	clang_getSpellingLocation(l, &fs, NULL, NULL, &os);
	clang_getExpansionLocation(l, &fe, NULL, NULL, &oe);
	return os != oe || !clang_File_isEqual(fs, fe);
}

/* Whether statements A and B are one: at the same place of the same
 * expansion (cursors reached by different walks need not compare equal). */
static inline int same_place(CXCursor a, CXCursor b)
{
	if (kind(a) != kind(b))
		return 0;
	CXSourceLocation la = clang_getCursorLocation(a), lb = clang_getCursorLocation(b);
	unsigned ea, eb, sa, sb;
	clang_getExpansionLocation(la, NULL, NULL, NULL, &ea);
	clang_getExpansionLocation(lb, NULL, NULL, NULL, &eb);
	clang_getSpellingLocation(la, NULL, NULL, NULL, &sa);
	clang_getSpellingLocation(lb, NULL, NULL, NULL, &sb);
	return ea == eb && sa == sb;
}

/* Whether only blanks come before C on its line, C written there (not
 * expanded from a macro): then no other statement starts before it there. */
static inline int starts_line(CXCursor c)
{
	if (from_macro(c))
		return 0;
	CXFile f = NULL;
	unsigned off;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
	size_t size = 0;
	const char *text = f ? clang_getFileContents(clang_Cursor_getTranslationUnit(c), f, &size) : NULL;
	if (!text || off > size)
		return 0;
	while (off > 0 && (text[off - 1] == ' ' || text[off - 1] == '\t'))
		off--;
	return off == 0 || text[off - 1] == '\n';
}

typedef struct nth_scan {
	int line, n, found;
	CXCursor at;
} nth_scan;

static inline enum CXChildVisitResult nth_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	nth_scan *ns = d;
	if (line_of(c) == ns->line && is_loop_stmt(c)) {
		ns->n++;
		if (same_place(c, ns->at)) {
			ns->found = ns->n;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* Which of function FN's loops on its line loop AT is: 1, 2, ... in
 * source order (loops side by side or one in another on one line, or
 * several that a macro expands there). */
static inline int loop_nth(CXCursor fn, CXCursor at)
{
	if (starts_line(at))
		return 1;
	nth_scan ns = {.line = line_of(at), .at = at};
	clang_visitChildren(fn, nth_visit, &ns);
	return ns.found ? ns.found : 1;
}

typedef struct before_scan {
	int line, n;
	unsigned off;
} before_scan;

static inline enum CXChildVisitResult before_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	before_scan *bs = d;
	unsigned line, off;
	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, &off);
	if ((int)line == bs->line && off < bs->off && is_loop_stmt(c))
		bs->n++;
	return CXChildVisit_Recurse;
}

/* How many loops of function FN start on loop AT's line before it (where
 * a macro expands there, before the macro's name): 0 for those that a
 * macro expands at one place. */
static inline int loops_before(CXCursor fn, CXCursor at)
{
	if (starts_line(at))
		return 0;
	unsigned line, off;
	clang_getExpansionLocation(clang_getCursorLocation(at), NULL, &line, NULL, &off);
	before_scan bs = {.line = (int)line, .off = off};
	clang_visitChildren(fn, before_visit, &bs);
	return bs.n;
}

/* Whether C is in the main file, code expanded from a macro being where
 * the macro is used (a function whose name a macro makes, `int NAME(f)()`). */
static inline int in_main_file(CXCursor c)
{
	CXSourceLocation l = clang_getCursorLocation(c);
	if (clang_Location_isFromMainFile(l))
		return 1;
	CXFile f = NULL;
	unsigned line, col;
	clang_getExpansionLocation(l, &f, &line, &col, NULL);
	return f && clang_Location_isFromMainFile(clang_getLocation(clang_Cursor_getTranslationUnit(c), f, line, col));
}

static inline unsigned offset_of(CXSourceLocation l)
{
	unsigned off;
	clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
	return off;
}

static inline char *spelling(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* What gcc accepts with a warning and clang 16 and later reject (older C:
 * implicit int, functions called undeclared, integers taken as pointers,
 * function pointers of another type, a bare `return;` in a function that
 * returns a value): warnings here too, as the C that users build with
 * gcc. Passed before the user's flags, which can make them errors again
 * (-Werror=implicit-int). */
static inline const char *const *gcc_lenient(int *n)
{
	static const char *const flags[] = {"-Wno-error=implicit-int", "-Wno-error=implicit-function-declaration",
					    "-Wno-error=int-conversion", "-Wno-error=incompatible-function-pointer-types",
					    "-Wno-error=return-mismatch"};
	*n = (int)(sizeof flags / sizeof *flags);
	return flags;
}

/* Whether FILE, given with the flags USER (NUSER), is to be parsed as C
 * by saying so: its name ends in none of the suffixes clang takes for a
 * source or header (kernel.inc, a generated file, /dev/null, which clang
 * would take for a linker's input or a precompiled AST), and the flags
 * name no language (-x). */
static inline int needs_x_c(const char *file, const char *const *user, int nuser)
{
	static const char *const known[] = {"c", "h", "i", "cc", "cp", "cpp", "cxx", "c++", "C", "CC", "CPP",
					    "hh", "hpp", "hxx", "h++", "H", "ii", "m", "mm", "M", "mi", "cu", "cl",
					    "cuh", "hip", "inl"};
	for (int i = 0; i < nuser; i++)
		if (strncmp(user[i], "-x", 2) == 0)
			return 0;
	const char *base = strrchr(file, '/'), *dot = strrchr(base ? base + 1 : file, '.');
	if (dot)
		for (size_t i = 0; i < sizeof known / sizeof *known; i++)
			if (strcmp(dot + 1, known[i]) == 0)
				return 0;
	return 1;
}

/* The flags of a front-end parse of FILE, in a new array of *N: FIRST
 * (unless NULL), gcc_lenient's, the user's (USER, NUSER), -x c where
 * needs_x_c() says, then -fno-openmp and -fno-openmp-simd. OpenMP's
 * directives hide their loops from libclang's cursors (a captured
 * statement shows only what it captures), so the front end parses without
 * OpenMP, its simd mode too, whatever the user's flags: the directives
 * are plain C. */
static inline const char **parse_args(const char *file, const char *first, const char *const *user, int nuser,
				      int *n)
{
	static const char *const no_openmp[] = {"-fno-openmp", "-fno-openmp-simd"};
	int nlenient, nomp = (int)(sizeof no_openmp / sizeof *no_openmp);
	const char *const *lenient = gcc_lenient(&nlenient);
	const char **args = xmalloc(((size_t)nuser + (size_t)nlenient + (size_t)nomp + 3) * sizeof *args);
	*n = 0;
	if (first)
		args[(*n)++] = first;
	if (needs_x_c(file, user, nuser)) {
		args[(*n)++] = "-x";
		args[(*n)++] = "c";
	}
	for (int i = 0; i < nlenient; i++)
		args[(*n)++] = lenient[i];
	for (int i = 0; i < nuser; i++)
		args[(*n)++] = user[i];
	for (int i = 0; i < nomp; i++)
		args[(*n)++] = no_openmp[i];
	return args;
}

#endif
