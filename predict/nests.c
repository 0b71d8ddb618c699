/* nests: a file's loop nests, without counting them: the top-level ones
 * for attributing a profile's samples to nests (epi-profile, epi-validate),
 * every loop for matching the machine code's loops to the source's. */
#include "predict/cfront-internal.h"
#include "predict/cursor.h"
#include "model/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A subscript or dereference in a loop's body: hashes of its text, of
 * the array it names (0: none the source tells), and of the first
 * variables its address names. */
#define REF_VARS 8
typedef struct ref {
	unsigned text, array;
	unsigned var[REF_VARS];
	int nvar;
} ref;

typedef struct nest_walk {
	epi_nest *v;
	int n, cap;
	const char *file, *function;
	CXCursor fn; /* the function walked */
	int all;    /* every loop, not only the top-level ones */
	int parent; /* the loop being walked, -1 at the function's level */
	/* with ALL: the references of the loops being walked (each loop's
	 * own after those of the loops around it), the one whose address is
	 * being walked, the variables the function's loops assign (in
	 * order), and whether the loop being walked makes a call */
	ref *refs;
	int nrefs, caprefs, from; /* FROM: the first of the loop being walked */
	ref *at;
	unsigned *mod;
	int nmod, capmod;
	int calls;
	/* with SZ: the arrays of constant size the function declares */
	epi_sized **sz;
	int *nsz, *capsz;
} nest_walk;

static enum CXChildVisitResult nest_visit(CXCursor c, CXCursor parent, CXClientData data);

/* The hash of C's text, spaces left out; 0 when it cannot be read. */
static unsigned text_hash(CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f = NULL;
	unsigned lo, hi;
	clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &lo);
	clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &hi);
	size_t size = 0;
	const char *buf = f ? clang_getFileContents(clang_Cursor_getTranslationUnit(c), f, &size) : NULL;
	if (!buf || hi <= lo || hi > size)
		return 0;
	unsigned h = 2166136261u; /* FNV-1a */
	for (unsigned i = lo; i < hi; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n')
			h = (h ^ (unsigned char)buf[i]) * 16777619u;
	return h ? h : 1;
}

/* The array C names, hashed: a variable's declaration, or a member's
 * text with the object it is a member of (p->x and q->x apart); 0 none. */
static unsigned decl_of(CXCursor c)
{
	c = strip(c);
	enum CXCursorKind k = kind(c);
	if (k == CXCursor_DeclRefExpr)
		return clang_hashCursor(clang_getCursorReferenced(c));
	return k == CXCursor_MemberRefExpr ? text_hash(c) : 0;
}

/* Walks C (an address's part) for the variables it names, into the
 * reference being walked. */
static void walk_address(nest_walk *nw, ref *r, CXCursor c)
{
	ref *outer = nw->at;
	nw->at = r;
	clang_visitChildren(c, nest_visit, nw);
	if (kind(c) == CXCursor_DeclRefExpr && r->nvar < REF_VARS)
		r->var[r->nvar++] = clang_hashCursor(clang_getCursorReferenced(c));
	nw->at = outer;
}

/* A reference C of the loop being walked: an outermost subscript
 * (data[k][i], not data[k]), its array the declaration its base names
 * through subscripts and casts; or a dereference, its array the pointer
 * its operand names (*p, *(p + i)). */
static void add_ref(nest_walk *nw, CXCursor c)
{
	ref r = {0};
	CXCursor at = c;
	if (kind(c) == CXCursor_ArraySubscriptExpr) {
		for (;;) {
			kids kk = {0};
			kids_of(at, &kk);
			if (kk.n != 2) {
				kids_free(&kk);
				break;
			}
			CXCursor base = strip(kk.c[0]), idx = kk.c[1];
			kids_free(&kk);
			walk_address(nw, &r, idx);
			if (kind(base) == CXCursor_ArraySubscriptExpr) {
				at = base;
				continue;
			}
			r.array = decl_of(base);
			walk_address(nw, &r, base);
			break;
		}
	} else {
		kids kk = {0};
		kids_of(c, &kk);
		if (kk.n == 1) {
			CXCursor p = strip(kk.c[0]);
			r.array = decl_of(p);
			/* p + i, i + p: the pointer's side */
			if (!r.array && kind(p) == CXCursor_BinaryOperator) {
				kids pk = {0};
				kids_of(p, &pk);
				for (int i = 0; i < pk.n && !r.array; i++)
					if (clang_getCanonicalType(clang_getCursorType(pk.c[i])).kind == CXType_Pointer)
						r.array = decl_of(pk.c[i]);
				kids_free(&pk);
			}
			walk_address(nw, &r, p);
		}
		kids_free(&kk);
	}
	r.text = text_hash(c);
	/* a reference in another's address moves it too (a[idx[i]]) */
	for (int i = 0; nw->at && i < r.nvar && nw->at->nvar < REF_VARS; i++)
		nw->at->var[nw->at->nvar++] = r.var[i];
	for (int i = nw->from; i < nw->nrefs; i++)
		if (r.text && nw->refs[i].text == r.text && nw->refs[i].array == r.array)
			return;
	ALLOC_GROW_FROM(nw->refs, nw->nrefs + 1, nw->caprefs, 8);
	nw->refs[nw->nrefs++] = r;
}

/* The variable an assignment or increment C changes, hashed; 0 none. */
static unsigned target(CXCursor c)
{
	kids kk = {0};
	kids_of(c, &kk);
	unsigned t = kk.n >= 1 && kind(strip(kk.c[0])) == CXCursor_DeclRefExpr ? decl_of(kk.c[0]) : 0;
	kids_free(&kk);
	return t;
}

/* Notes what C does to the variables, and whether it calls. */
static void note(nest_walk *nw, CXCursor c, enum CXCursorKind k)
{
	unsigned t = 0;
	if (k == CXCursor_CompoundAssignOperator ||
	    (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign))
		t = target(c);
	else if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
		    op == CXUnaryOperator_PreDec)
			t = target(c);
	} else if (k == CXCursor_CallExpr) {
		/* one that passes memory (sqrt(x) passes none) */
		for (int i = 0; i < clang_Cursor_getNumArguments(c) && !nw->calls; i++) {
			enum CXTypeKind tk =
			    clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)i))).kind;
			nw->calls = tk == CXType_Pointer || tk == CXType_ConstantArray || tk == CXType_IncompleteArray;
		}
	}
	if (t) {
		ALLOC_GROW_FROM(nw->mod, nw->nmod + 1, nw->capmod, 16);
		nw->mod[nw->nmod++] = t;
	}
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* Whether reference R names a variable of MOD[0..N) (sorted). */
static int moves(const ref *r, const unsigned *mod, int n)
{
	for (int i = 0; i < r->nvar; i++)
		if (bsearch(&r->var[i], mod, (size_t)n, sizeof *mod, cmp_unsigned))
			return 1;
	return 0;
}

/* Loop X's own references (REFS[FROM..TO)) that move with the variables
 * MOD[0..N) its iterations assign, and their arrays, into X. */
static void count_refs(epi_nest *x, const ref *refs, int from, int to, const unsigned *mod, int n, int calls)
{
	x->refs = x->arrays = 0;
	if (calls || to <= from)
		return;
	unsigned *m = xmalloc(((size_t)n + 1) * sizeof *m), *arr = xmalloc((size_t)(to - from) * sizeof *arr);
	if (n > 0)
		memcpy(m, mod, (size_t)n * sizeof *m);
	qsort(m, (size_t)n, sizeof *m, cmp_unsigned);
	int nr = 0, told = 1;
	for (int i = from; i < to && told; i++) {
		if (!moves(&refs[i], m, n))
			continue;
		told = refs[i].array != 0; /* one the source does not tell: none */
		arr[nr++] = refs[i].array;
	}
	if (told && nr > 0) {
		qsort(arr, (size_t)nr, sizeof *arr, cmp_unsigned);
		int na = 1;
		for (int i = 1; i < nr; i++)
			na += arr[i] != arr[i - 1];
		x->refs = nr;
		x->arrays = na;
	}
	free(arr);
	free(m);
}

static enum CXChildVisitResult nest_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	nest_walk *nw = data;
	enum CXCursorKind k = kind(c);
	if (nw->sz && (k == CXCursor_ParmDecl || k == CXCursor_VarDecl))
		cf_sized_add(c, nw->function, nw->sz, nw->nsz, nw->capsz);
	if (nw->all && nw->parent >= 0) {
		if (nw->at && k == CXCursor_DeclRefExpr && nw->at->nvar < REF_VARS)
			nw->at->var[nw->at->nvar++] = clang_hashCursor(clang_getCursorReferenced(c));
		if (k == CXCursor_ArraySubscriptExpr ||
		    (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref)) {
			add_ref(nw, c);
			return CXChildVisit_Continue;
		}
		note(nw, c, k);
	}
	if (k != CXCursor_ForStmt && k != CXCursor_WhileStmt && k != CXCursor_DoStmt)
		return CXChildVisit_Recurse;
	if (is_once(c))
		return CXChildVisit_Recurse; /* a do-while(0) is no nest; loops in it are */
	ALLOC_GROW_FROM(nw->v, nw->n + 1, nw->cap, 16);
	epi_nest *x = &nw->v[nw->n++];
	x->file = xstrdup(nw->file);
	x->function = xstrdup(nw->function);
	unsigned line, col, end, end_col;
	CXSourceRange ext = clang_getCursorExtent(c);
	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, &col, NULL);
	clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, &end, &end_col, NULL);
	x->line = (int)line;
	x->col = (int)col;
	x->end_line = (int)end;
	x->end_col = (int)end_col;
	x->parent = nw->parent;
	x->depth = nw->parent < 0 ? 0 : nw->v[nw->parent].depth + 1;
	x->tag = epi_loop_tag(x->line, loops_before(nw->fn, c), nw->parent >= 0 ? nw->v[nw->parent].tag : 0);
	x->refs = x->arrays = 0;
	if (nw->all) {
		int outer = nw->parent, at = nw->n - 1, from = nw->nrefs, mods = nw->nmod, calls = nw->calls;
		int outer_from = nw->from;
		nw->parent = at;
		nw->from = from;
		nw->calls = 0;
		clang_visitChildren(c, nest_visit, nw);
		nw->parent = outer;
		/* a loop inside took its own references away */
		count_refs(&nw->v[at], nw->refs, from, nw->nrefs, nw->mod + mods, nw->nmod - mods, nw->calls);
		nw->nrefs = from;
		nw->from = outer_from;
		nw->calls = calls;
	}
	return CXChildVisit_Continue; /* loops inside belong to this nest */
}

/* Adds NW's loops (or nests) of function FN, named FUNCTION. */
static void walk_fn(nest_walk *nw, CXCursor fn, const char *function)
{
	nw->function = function;
	nw->fn = fn;
	nw->nmod = 0;
	clang_visitChildren(fn, nest_visit, nw);
}

int cf_sized_of(CXCursor c, epi_sized *x)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	/* a parameter declared an array is a pointer to its element */
	if (kind(c) == CXCursor_ParmDecl &&
	    (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray || t.kind == CXType_VariableArray))
		t = clang_getCanonicalType(clang_getArrayElementType(t));
	while (t.kind == CXType_Pointer)
		t = clang_getCanonicalType(clang_getPointeeType(t));
	x->ndims = 0;
	for (; t.kind == CXType_ConstantArray && x->ndims < EPI_SIZED_DIMS;
	     t = clang_getCanonicalType(clang_getArrayElementType(t))) {
		long long k = clang_getArraySize(t);
		if (k < 0)
			return x->ndims = 0;
		x->dims[x->ndims++] = (unsigned long long)k;
	}
	return x->ndims;
}

void cf_sized_add(CXCursor c, const char *function, epi_sized **v, int *n, int *cap)
{
	epi_sized x;
	if (cf_sized_of(c, &x) == 0)
		return;
	x.function = xstrdup(function);
	x.name = spelling(c);
	x.line = line_of(c);
	ALLOC_GROW_FROM(*v, *n + 1, *cap, 16);
	(*v)[(*n)++] = x;
}

void epi_sized_free(epi_sized *v, int n)
{
	for (int i = 0; i < n; i++) {
		free(v[i].function);
		free(v[i].name);
	}
	free(v);
}

void cf_list_loops(CXCursor fn, const char *file, const char *function, epi_nest **v, int *n, int *cap,
		   epi_sized **sz, int *nsz, int *capsz)
{
	nest_walk nw = {.v = *v, .n = *n, .cap = *cap, .file = file, .all = 1, .parent = -1,
			.sz = sz, .nsz = nsz, .capsz = capsz};
	walk_fn(&nw, fn, function);
	free(nw.refs);
	free(nw.mod);
	*v = nw.v;
	*n = nw.n;
	*cap = nw.cap;
}

static int find_loops(const char *file, const epi_front_opts *o, int all, epi_nest **out, int *nout, char *err)
{
	*out = NULL;
	*nout = 0;
	if (err)
		err[0] = 0;
	FILE *probe = fopen(file, "r");
	if (!probe)
		return epi_error(err, "cannot open '%s': %s", file, strerror(errno));
	fclose(probe);
	CXIndex idx = clang_createIndex(0, 0);
	int nargs;
	const char **args = parse_args(file, NULL, o ? o->clang_args : NULL, o ? o->nclang_args : 0, &nargs);
	CXTranslationUnit tu = NULL;
	/* errors in the file (a missing header) leave the loops that parse: enough here */
	enum CXErrorCode ec =
		clang_parseTranslationUnit2(idx, file, args, nargs, NULL, 0, CXTranslationUnit_None, &tu);
	free(args);
	if (ec != CXError_Success || !tu) {
		clang_disposeIndex(idx);
		return epi_error(err, "cannot parse '%s' (libclang error %d)", file, (int)ec);
	}
	/* the first error, for the caller to tell (the loops it hid are missing) */
	unsigned nd = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < nd && err && !err[0]; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			CXString msg = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
			epi_error(err, "%s", clang_getCString(msg));
			clang_disposeString(msg);
		}
		clang_disposeDiagnostic(d);
	}
	nest_walk nw = {.file = file, .all = all, .parent = -1};
	kids top = {0};
	kids_of(clang_getTranslationUnitCursor(tu), &top);
	for (int i = 0; i < top.n; i++) {
		CXCursor c = top.c[i];
		if (kind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
		    !in_main_file(c))
			continue;
		char *name = spelling(c);
		walk_fn(&nw, c, name);
		free(name);
	}
	kids_free(&top);
	free(nw.refs);
	free(nw.mod);
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
	*out = nw.v;
	*nout = nw.n;
	return 0;
}

int epi_find_nests(const char *file, const epi_front_opts *o, epi_nest **out, int *n, char *err)
{
	return find_loops(file, o, 0, out, n, err);
}

int epi_find_loops(const char *file, const epi_front_opts *o, epi_nest **out, int *n, char *err)
{
	return find_loops(file, o, 1, out, n, err);
}

int epi_nest_within(const epi_nest *v, int a, int b)
{
	for (; a >= 0; a = v[a].parent)
		if (a == b)
			return 1;
	return 0;
}

int epi_nest_around(const epi_nest *v, int n, int line)
{
	int in = -1;
	for (int k = 0; k < n; k++)
		if (v[k].line <= line && line <= v[k].end_line && (in < 0 || v[k].depth > v[in].depth))
			in = k;
	return in;
}

void epi_nests_free(epi_nest *v, int n)
{
	for (int i = 0; i < n; i++) {
		free(v[i].file);
		free(v[i].function);
	}
	free(v);
}
