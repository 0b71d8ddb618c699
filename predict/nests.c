/* nests: a file's loop nests, without counting them: the top-level ones
 * for attributing a profile's samples to nests (epi-profile, epi-validate),
 * every loop for matching the machine code's loops to the source's. */
#include "predict/cfront.h"
#include "predict/cursor.h"
#include "model/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nest_walk {
	epi_nest *v;
	int n, cap;
	const char *file, *function;
	int all;    /* every loop, not only the top-level ones */
	int parent; /* the loop being walked, -1 at the function's level */
} nest_walk;

static enum CXChildVisitResult nest_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	nest_walk *nw = data;
	enum CXCursorKind k = kind(c);
	if (k != CXCursor_ForStmt && k != CXCursor_WhileStmt && k != CXCursor_DoStmt)
		return CXChildVisit_Recurse;
	if (is_once(c))
		return CXChildVisit_Recurse; /* a do-while(0) is no nest; loops in it are */
	ALLOC_GROW_FROM(nw->v, nw->n + 1, nw->cap, 16);
	epi_nest *x = &nw->v[nw->n++];
	x->file = xstrdup(nw->file);
	x->function = xstrdup(nw->function);
	x->line = line_of(c);
	unsigned end;
	clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), NULL, &end, NULL, NULL);
	x->end_line = (int)end;
	x->parent = nw->parent;
	x->depth = nw->parent < 0 ? 0 : nw->v[nw->parent].depth + 1;
	if (nw->all) {
		int outer = nw->parent;
		nw->parent = nw->n - 1;
		clang_visitChildren(c, nest_visit, nw);
		nw->parent = outer;
	}
	return CXChildVisit_Continue; /* loops inside belong to this nest */
}

/* Adds NW's loops (or nests) of function FN, named FUNCTION. */
static void walk_fn(nest_walk *nw, CXCursor fn, const char *function)
{
	nw->function = function;
	clang_visitChildren(fn, nest_visit, nw);
}

void cf_list_loops(CXCursor fn, const char *file, const char *function, epi_nest **v, int *n, int *cap)
{
	nest_walk nw = {.v = *v, .n = *n, .cap = *cap, .file = file, .all = 1, .parent = -1};
	walk_fn(&nw, fn, function);
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
	const char **args = xmalloc(((size_t)(o ? o->nclang_args : 0) + 1) * sizeof *args);
	for (int i = 0; o && i < o->nclang_args; i++)
		args[i] = o->clang_args[i];
	CXTranslationUnit tu = NULL;
	/* errors in the file (a missing header) leave the loops that parse: enough here */
	enum CXErrorCode ec = clang_parseTranslationUnit2(idx, file, args, o ? o->nclang_args : 0, NULL, 0,
							  CXTranslationUnit_None, &tu);
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

void epi_nests_free(epi_nest *v, int n)
{
	for (int i = 0; i < n; i++) {
		free(v[i].file);
		free(v[i].function);
	}
	free(v);
}
