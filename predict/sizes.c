/* sizes: the -D values a program was built with, read back from the sizes
 * of its arrays (see sizes.h). */
#include "predict/sizes.h"
#include "predict/cfront-internal.h"
#include "predict/cursor.h"
#include "model/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An object-like macro whose value is a whole number. */
typedef struct macro {
	char *name, *file; /* FILE NULL: defined by the flags */
	unsigned long long v;
	int bad; /* defined twice apart, or asked for two sizes */
	int set; /* to be given TO */
	unsigned long long to;
} macro;

/* A declaration of an array of constant sizes, or (SCALAR) of an integer
 * variable with a constant initial value (dims[0]). */
typedef struct decl {
	epi_sized x;
	CXCursor c;
	int scalar;
} decl;

/* A macro's use in the main file: the offsets of its name and of the end
 * of its arguments. */
typedef struct use {
	unsigned from, to;
} use;

typedef struct scan {
	macro *m;
	int nm, capm;
	use *u;
	int nu, capu;
	decl *d;
	int nd, capd;
	char *function;
} scan;

static void scan_free(scan *s)
{
	for (int i = 0; i < s->nm; i++) {
		free(s->m[i].name);
		free(s->m[i].file);
	}
	for (int i = 0; i < s->nd; i++) {
		free(s->d[i].x.function);
		free(s->d[i].x.name);
	}
	free(s->m);
	free(s->u);
	free(s->d);
	memset(s, 0, sizeof *s);
}

static void add_decl(scan *s, CXCursor c, const char *function)
{
	decl d = {.c = c};
	if (cf_sized_of(c, &d.x) == 0)
		return;
	d.x.function = xstrdup(function);
	d.x.name = spelling(c);
	d.x.line = line_of(c);
	ALLOC_GROW_FROM(s->d, s->nd + 1, s->capd, 16);
	s->d[s->nd++] = d;
}

/* Variable C of FUNCTION, when an integer whose initial value is a
 * constant. */
static void add_value(scan *s, CXCursor c, const char *function)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	if (t.kind < CXType_Char_U || t.kind > CXType_Int128)
		return;
	CXEvalResult e = clang_Cursor_Evaluate(c);
	if (!e)
		return;
	long long v = clang_EvalResult_getKind(e) == CXEval_Int ? clang_EvalResult_getAsLongLong(e) : 0;
	clang_EvalResult_dispose(e);
	if (v <= 0)
		return;
	decl d = {.c = c, .scalar = 1, .x = {.ndims = 1, .dims = {(unsigned long long)v}}};
	d.x.function = xstrdup(function);
	d.x.name = spelling(c);
	d.x.line = line_of(c);
	ALLOC_GROW_FROM(s->d, s->nd + 1, s->capd, 16);
	s->d[s->nd++] = d;
}

static enum CXChildVisitResult decl_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	scan *s = data;
	if (kind(c) == CXCursor_ParmDecl || kind(c) == CXCursor_VarDecl)
		add_decl(s, c, s->function);
	if (kind(c) == CXCursor_VarDecl)
		add_value(s, c, s->function);
	return CXChildVisit_Recurse;
}

/* A token's text as a whole number ("4000", "0x100", "64UL"), 0 when it
 * is not one. */
static int whole(const char *t, unsigned long long *v)
{
	if (!t || *t < '0' || *t > '9')
		return 0;
	char *end;
	*v = strtoull(t, &end, 0);
	return end[strspn(end, "uUlL")] == 0;
}

static macro *find_macro(scan *s, const char *name)
{
	for (int i = 0; i < s->nm; i++)
		if (!strcmp(s->m[i].name, name))
			return &s->m[i];
	return NULL;
}

/* Macro definition C, when its value is a whole number (or one in
 * parentheses). */
static void add_macro(scan *s, CXTranslationUnit tu, CXCursor c)
{
	if (clang_Cursor_isMacroBuiltin(c) || clang_Cursor_isMacroFunctionLike(c))
		return;
	CXToken *t;
	unsigned n;
	clang_tokenize(tu, clang_getCursorExtent(c), &t, &n);
	const char *sp[4] = {0};
	CXString str[4];
	for (unsigned i = 0; i < n && i < 4; i++) {
		str[i] = clang_getTokenSpelling(tu, t[i]);
		sp[i] = clang_getCString(str[i]);
	}
	unsigned long long v;
	int ok = (n == 2 && whole(sp[1], &v)) ||
		 (n == 4 && !strcmp(sp[1], "(") && whole(sp[2], &v) && !strcmp(sp[3], ")"));
	char *name = spelling(c);
	macro *m = ok ? find_macro(s, name) : NULL;
	if (m) {
		m->bad |= m->v != v;
	} else if (ok) {
		CXFile f = NULL;
		clang_getSpellingLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
		char *file = NULL;
		if (f) {
			CXString fn = clang_getFileName(f);
			const char *p = clang_getCString(fn);
			if (p && *p && *p != '<')
				file = xstrdup(p);
			clang_disposeString(fn);
		}
		ALLOC_GROW_FROM(s->m, s->nm + 1, s->capm, 64);
		s->m[s->nm++] = (macro){.name = name, .file = file, .v = v};
		name = NULL;
	}
	free(name);
	for (unsigned i = 0; i < n && i < 4; i++)
		clang_disposeString(str[i]);
	clang_disposeTokens(tu, t, n);
}

/* FILE parsed with ARGS (N), its arrays (and with MACROS its macros) into
 * S; returns the translation unit (NULL: none) and its errors in *ERRORS. */
static CXTranslationUnit scan_file(CXIndex idx, const char *file, const char *const *args, int n, int macros, scan *s,
				   int *errors)
{
	int nargs;
	const char **a = parse_args(file, NULL, args, n, &nargs);
	CXTranslationUnit tu = NULL;
	unsigned opts = macros ? CXTranslationUnit_DetailedPreprocessingRecord : CXTranslationUnit_None;
	if (clang_parseTranslationUnit2(idx, file, a, nargs, NULL, 0, opts, &tu) != CXError_Success)
		tu = NULL;
	free(a);
	*errors = 0;
	if (!tu)
		return NULL;
	for (unsigned i = 0, nd = clang_getNumDiagnostics(tu); i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		*errors += clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
		clang_disposeDiagnostic(d);
	}
	kids top = {0};
	kids_of(clang_getTranslationUnitCursor(tu), &top);
	for (int i = 0; i < top.n; i++) {
		CXCursor c = top.c[i];
		if (kind(c) == CXCursor_MacroDefinition) {
			if (macros)
				add_macro(s, tu, c);
		} else if (kind(c) == CXCursor_MacroExpansion) {
			CXSourceRange r = clang_getCursorExtent(c);
			if (clang_Location_isFromMainFile(clang_getRangeStart(r))) {
				ALLOC_GROW_FROM(s->u, s->nu + 1, s->capu, 64);
				s->u[s->nu++] = (use){offset_of(clang_getRangeStart(r)), offset_of(clang_getRangeEnd(r))};
			}
		} else if (!in_main_file(c)) {
			continue;
		} else if (kind(c) == CXCursor_VarDecl) {
			add_decl(s, c, "");
		} else if (kind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
			s->function = spelling(c);
			clang_visitChildren(c, decl_visit, s);
			free(s->function);
			s->function = NULL;
		}
	}
	kids_free(&top);
	return tu;
}

static int differs(const epi_sized *x, const epi_sized *y)
{
	return y && !(y->ndims == x->ndims && !memcmp(y->dims, x->dims, (size_t)x->ndims * sizeof *x->dims));
}

/* The program's array, or value, declared as D is. */
static const epi_sized *in_prog(const epi_object *prog, const decl *d)
{
	return d->scalar ? epi_object_value(prog, &d->x) : epi_object_sized(prog, &d->x);
}

static int count_differ(const scan *s, const epi_object *prog)
{
	int n = 0;
	for (int i = 0; i < s->nd; i++)
		n += differs(&s->d[i].x, in_prog(prog, &s->d[i]));
	return n;
}

/* Gives macro M the size TO (less what the declaration adds to M's value
 * to make FROM), unless the flags define it or it has another already;
 * WEAK: only when it has none, and never taking another for a conflict. */
static void ask(macro *m, unsigned long long from, unsigned long long to, int weak)
{
	if (!m || !m->file || (weak && (m->set || m->bad)))
		return;
	long long add = (long long)(from - m->v);
	long long want = (long long)to - add;
	if (want <= 0 || (m->set && m->to != (unsigned long long)want)) {
		m->bad = 1;
		return;
	}
	m->set = 1;
	m->to = (unsigned long long)want;
}

/* The sizes of declaration D that differ from Y's, asked of its macros;
 * a variable's value only of a macro whose value it is, after the arrays
 * (a value made otherwise, n = 2 * N, tells less than a size). */
static void ask_decl(scan *s, CXTranslationUnit tu, const decl *d, const epi_sized *y)
{
	/* the declaration as written: what the macros it uses expand from
	 * (their names and arguments) in its place */
	CXSourceRange r = clang_getCursorExtent(d->c);
	CXFile f = NULL;
	unsigned lo, hi;
	clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &lo);
	clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &hi);
	for (int i = 0; i < s->nu; i++)
		if (s->u[i].from >= lo && s->u[i].from <= hi && s->u[i].to > hi)
			hi = s->u[i].to;
	CXToken *t = NULL;
	unsigned n = 0;
	if (f)
		clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, f, lo), clang_getLocationForOffset(tu, f, hi)),
			       &t, &n);
	macro **in = xmalloc(((size_t)n + 1) * sizeof *in);
	int nin = 0;
	for (unsigned i = 0; i < n; i++) {
		if (clang_getTokenKind(t[i]) != CXToken_Identifier)
			continue;
		CXString str = clang_getTokenSpelling(tu, t[i]);
		macro *m = find_macro(s, clang_getCString(str));
		clang_disposeString(str);
		int seen = 0;
		for (int k = 0; k < nin && !seen; k++)
			seen = in[k] == m;
		if (m && !m->bad && !seen)
			in[nin++] = m;
	}
	clang_disposeTokens(tu, t, n);
	for (int k = 0; k < d->x.ndims; k++) {
		unsigned long long from = d->x.dims[k], to = y->dims[k];
		if (from == to)
			continue;
		/* the one macro whose value the size is */
		macro *m = NULL;
		int nv = 0;
		for (int i = 0; i < nin; i++)
			if (in[i]->v == from) {
				m = in[i];
				nv++;
			}
		if (nv != 1)
			m = NULL;
		if (d->scalar) {
			ask(m, from, to, 1);
			continue;
		}
		if (nin == d->x.ndims)
			m = in[k];
		else if (!m && nin == 1)
			m = in[0];
		ask(m, from, to, 0);
	}
	free(in);
}

static char *define(const char *name, unsigned long long v)
{
	size_t n = strlen(name) + 32;
	char *d = xmalloc(n);
	snprintf(d, n, "-D%s=%llu", name, v);
	return d;
}

int epi_sizes_infer(const char *file, const epi_front_opts *fo, const epi_object *prog, char ***defs, char *kept,
		    size_t len, int *left)
{
	*defs = NULL;
	*left = 0;
	if (len)
		kept[0] = 0;
	CXIndex idx = clang_createIndex(0, 0);
	scan s = {0};
	int errors, ndefs = 0;
	CXTranslationUnit tu = scan_file(idx, file, fo->clang_args, fo->nclang_args, 1, &s, &errors);
	int before = tu ? count_differ(&s, prog) : 0;
	for (int scalars = 0; scalars < 2; scalars++)
		for (int i = 0; i < s.nd && before; i++) {
			const epi_sized *y = in_prog(prog, &s.d[i]);
			if (s.d[i].scalar == scalars && differs(&s.d[i].x, y) && y->ndims == s.d[i].x.ndims)
				ask_decl(&s, tu, &s.d[i], y);
		}
	/* the macros asked for, then the others of their files as parsed */
	char **v = xmalloc(((size_t)s.nm + 1) * sizeof *v);
	for (int i = 0; i < s.nm; i++)
		if (s.m[i].set && !s.m[i].bad)
			v[ndefs++] = define(s.m[i].name, s.m[i].to);
	int nset = ndefs;
	size_t at = 0;
	for (int i = 0; i < s.nm && nset; i++) {
		const macro *m = &s.m[i];
		int beside = 0;
		for (int k = 0; k < s.nm && !beside && m->file && !m->set; k++)
			beside = s.m[k].set && !s.m[k].bad && !strcmp(s.m[k].file, m->file);
		if (!beside)
			continue;
		v[ndefs++] = define(m->name, m->v);
		if (at < len)
			at += (size_t)snprintf(kept + at, len - at, "%s%s=%llu", at ? ", " : "", m->name, m->v);
	}
	if (tu)
		clang_disposeTranslationUnit(tu);
	scan_free(&s);
	/* accepted when the program's sizes come out of a parse with them */
	if (ndefs > 0) {
		const char **args = epi_strv_join(fo->clang_args, fo->nclang_args, v, ndefs);
		int errors2;
		CXTranslationUnit tu2 = scan_file(idx, file, args, fo->nclang_args + ndefs, 0, &s, &errors2);
		int after = tu2 ? count_differ(&s, prog) : before;
		*left = after;
		if (tu2)
			clang_disposeTranslationUnit(tu2);
		scan_free(&s);
		free(args);
		if (!(after < before && errors2 <= errors)) {
			*left = 0;
			for (int i = 0; i < ndefs; i++)
				free(v[i]);
			ndefs = 0;
			if (len)
				kept[0] = 0;
		}
	}
	clang_disposeIndex(idx);
	if (ndefs == 0) {
		free(v);
		v = NULL;
	}
	*defs = v;
	return ndefs;
}
