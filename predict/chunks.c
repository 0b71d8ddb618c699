/* chunks: epi_analyze(), the file in chunks of functions on every core,
 * merged into one analysis (see the comment below), and the total. */
#include "predict/cfront-internal.h"
#include "model/util.h"

#include <ctype.h>
#include <flint/flint.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses FILE into *TU (disposed by the caller, also on failure), with
 * TEXT (LEN bytes) as its contents; returns 0, or -1 with ERR giving
 * clang's first error. */
static int parse_file(CXIndex idx, const char *file, const char *text, size_t len, const char *const *args,
		      int nargs, unsigned flags, CXTranslationUnit *tu, char *err)
{
	*tu = NULL;
	struct CXUnsavedFile u = {.Filename = file, .Contents = text, .Length = len};
	enum CXErrorCode ec = clang_parseTranslationUnit2(idx, file, args, nargs, &u, 1, flags, tu);
	if (ec != CXError_Success || !*tu)
		return epi_error(err, "cannot parse '%s' (libclang error %d)", file, (int)ec);
	int ret = 0;
	unsigned nd = clang_getNumDiagnostics(*tu);
	for (unsigned i = 0; i < nd && ret == 0; i++) {
		CXDiagnostic d = clang_getDiagnostic(*tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			CXString msg = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
			ret = epi_error(err, "cannot parse '%s': %s", file, clang_getCString(msg));
			clang_disposeString(msg);
		}
		clang_disposeDiagnostic(d);
	}
	return ret;
}

/* The functions a program's header defines: in a file that is neither
 * the main one nor a system header. */
static int in_program_header(CXCursor c)
{
	CXSourceLocation l = clang_getCursorLocation(c);
	return !clang_Location_isInSystemHeader(l) && !in_main_file(c);
}

static void add_fn(fn **fns, int *n, CXCursor c)
{
	*fns = xrealloc(*fns, (*n + 1) * sizeof **fns);
	fn *f = &(*fns)[(*n)++];
	memset(f, 0, sizeof *f);
	f->name = spelling(c);
	f->cur = c;
	f->line = line_of(c);
	unsigned end;
	clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), NULL, &end, NULL, NULL);
	f->end_line = (int)end;
	counts_init(&f->counts);
	int np = clang_Cursor_getNumArguments(c);
	f->nparams = np > 0 ? np : 0;
	f->params = xcalloc(f->nparams + 1, sizeof *f->params);
	for (int j = 0; j < f->nparams; j++)
		f->params[j] = spelling(clang_Cursor_getArgument(c, j));
}

/* The functions defined in TU's main file, in source order (*N of them),
 * then those its program's headers define (*NALL in all), which are
 * counted where the main file calls them. */
static fn *list_fns(CXTranslationUnit tu, int *n, int *nall)
{
	fn *fns = NULL, *hdr = NULL;
	int nh = 0;
	*n = 0;
	kids top = {0};
	kids_of(clang_getTranslationUnitCursor(tu), &top);
	for (int i = 0; i < top.n; i++) {
		CXCursor c = top.c[i];
		if (kind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
			continue;
		if (in_main_file(c)) {
			add_fn(&fns, n, c);
		} else if (in_program_header(c)) {
			add_fn(&hdr, &nh, c);
			CXFile file;
			clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
			CXString name = clang_getFileName(file);
			hdr[nh - 1].header = xstrdup(clang_getCString(name) ? clang_getCString(name) : "a header");
			clang_disposeString(name);
		}
	}
	kids_free(&top);
	if (nh) {
		fns = xrealloc(fns, (*n + nh) * sizeof *fns);
		memcpy(fns + *n, hdr, nh * sizeof *hdr);
		free(hdr);
	}
	*nall = *n + nh;
	return fns;
}

static void free_fns(fn *fns, int n)
{
	for (int i = 0; i < n; i++) {
		free(fns[i].name);
		for (int j = 0; j < fns[i].nparams; j++)
			free(fns[i].params[j]);
		free(fns[i].params);
		free(fns[i].header);
		free(fns[i].uncounted);
		epi_nests_free(fns[i].hl, fns[i].nhl);
		free(fns[i].hcall);
		cf_fn_index_free(&fns[i]);
	}
	free(fns);
}

/* ---- the file in chunks, on every core ---------------------------------
 *
 * A file is analysed in chunks of consecutive function definitions of
 * about CHUNK_LINES lines, each chunk in a symbol table of its own (one
 * thread per CHUNK_LINES lines of the file at most): one translation unit
 * per thread, as libclang cannot share one between threads.  A chunk counts
 * itself the callees its functions need, but records regions only for the
 * functions it owns.  The chunks are then merged in order into the
 * analysis's symbol table.  Where the chunks end depends on the file alone,
 * so the result is the same whatever the number of threads.
 *
 * Parsing is the work each thread would repeat in full.  So a quick parse
 * that skips function bodies first finds the definitions and their bodies;
 * the chunks are dealt to the threads in turn, and each thread parses a
 * copy of the file where the bodies it will not walk are blanked (spaces,
 * newlines kept: every location stays the same).  A thread walks its
 * chunks' functions and those their bodies name, transitively.  A body with
 * a '#' is never blanked (a directive in it may define what later code
 * uses).  A thread whose copy does not parse cleanly, or whose walk reaches
 * a blanked body (a call hidden behind a macro), parses the whole file
 * instead: blanking changes the time taken, never the result. */
#define CHUNK_LINES 256
#define FRONT_MAXTHREADS 16

/* A chunk's way: counted, then (in file order) its symbols mapped into the
 * analysis's table, then its regions imported by any thread free. */
enum { CH_WAITING, CH_COUNTED, CH_MAPPED, CH_IMPORTING, CH_IMPORTED };

typedef struct chunk {
	int lo, hi;        /* the functions it owns, fns[lo, hi) */
	epi_analysis part; /* its regions, notes and errors (unless A is the analysis itself) */
	epi_analysis *a;   /* &part, or the analysis for chunk 0 when no body is blanked */
	int started, state;
	int recursive;     /* its walk cut a recursive call */
	int missing;       /* its walk reached a body its thread's copy blanked */
	char *called;      /* the functions its walk saw called */
	int ret;
	int full;          /* it failed for want of symbols */
	char err[EPI_ERRLEN];
	int *map;          /* its symbols' indices in the analysis's table */
	sym_ctx *snap;     /* the analysis's table when they were mapped */
	epi_region *regions; /* imported */
	int nregions;
	epi_nest *loops;   /* with tag_loops: the loops of the functions it owns */
	int nloops, caploops;
	epi_sized *sized;  /* with tag_loops: the arrays they declare (chunk 0: and the file scope) */
	int nsized, capsized;
} chunk;

typedef struct front {
	epi_analysis *a;
	const epi_front_opts *o;
	const char **args;
	int nargs;
	pragma *pragmas;
	int npragmas;
	unsigned char *trip_hit; /* per --trip: a loop took it */
	CXIndex *idx;        /* one per thread */
	pthread_mutex_t mu;  /* over what follows, until the plan is made */
	int failed;          /* the file did not parse (ERR says why) */
	char err[EPI_ERRLEN];
	int nfns;            /* the plan: made before the threads start when */
	int *fn_line;        /* bodies are blanked, else by the first thread */
	int *fn_end;         /* done parsing */
	char **fn_name;
	chunk *chunks;
	int nchunks;
	atomic_int next;     /* the next chunk to take */
	int merged;          /* chunks mapped into the analysis's table, in order (mu) */
	int merging;         /* a thread is mapping (mu) */
	int imported;        /* chunks before it are imported or being imported (mu) */
	int active;          /* threads still counting (mu) */
	pthread_cond_t cv;   /* a chunk mapped, or a thread done counting */
	int chunk_lines;     /* CHUNK_LINES, or INT_MAX for the file in one chunk */
	int recursive;       /* a merged chunk cut a recursive call */
	int ret;             /* the merge so far: 0, or -1 with MERR (the merging thread's) */
	int full;            /* that -1 is a chunk's want of symbols */
	int symcap;          /* the symbol tables' size at first */
	char merr[EPI_ERRLEN];
	char *called;        /* the functions any merged chunk saw called */
	/* blanked bodies: thread T takes chunks T, T + NSPLIT, ... (NSPLIT 0:
	 * every thread parses the whole file and takes the next chunk free) */
	int nsplit;
	const char *text;    /* the file as read once: what every thread parses */
	size_t len;
	char **copy;         /* per thread, TEXT with the bodies it does not walk blanked */
	char **blank;        /* per thread, which functions its copy blanks */
	int badplan;         /* a whole parse listed other functions than the quick one */
	int pf_chunk, pf_region; /* the next imported region to format (mu) */
} front;

typedef struct front_worker {
	front *F;
	int id;
} front_worker;

/* Whether a chunk of CHUNK_LINES lines ends with function I of FNS (N),
 * *LINES the lines of the chunk so far. */
static int cut_after(int chunk_lines, const fn *fns, int n, int i, int *lines)
{
	*lines += fns[i].end_line - fns[i].line + 1;
	if (*lines < chunk_lines && i < n - 1)
		return 0;
	*lines = 0;
	return 1;
}

/* Cuts FNS into chunks (F->mu held, or before the threads start). */
static void plan_chunks(front *F, const fn *fns, int n)
{
	F->nfns = n;
	F->fn_line = xmalloc((n + 1) * sizeof *F->fn_line);
	F->fn_end = xmalloc((n + 1) * sizeof *F->fn_end);
	F->fn_name = xmalloc((n + 1) * sizeof *F->fn_name);
	F->called = xcalloc(n + 1, 1);
	/* a chunk holds a symbol table of its own (some 30 KB): as many as
	 * the cuts make, not one a function */
	int lo = 0, lines = 0, nchunks = 0;
	for (int i = 0; i < n; i++)
		nchunks += cut_after(F->chunk_lines, fns, n, i, &lines);
	F->chunks = xcalloc(nchunks + 1, sizeof *F->chunks);
	for (int i = 0; i < n; i++) {
		F->fn_line[i] = fns[i].line;
		F->fn_end[i] = fns[i].end_line;
		F->fn_name[i] = xstrdup(fns[i].name);
		if (cut_after(F->chunk_lines, fns, n, i, &lines)) {
			chunk *c = &F->chunks[F->nchunks];
			c->lo = lo;
			c->hi = i + 1;
			c->a = F->nchunks ? &c->part : F->a;
			F->nchunks++;
			lo = i + 1;
		}
	}
}

static void plan_free(front *F)
{
	for (int i = 0; i < F->nfns; i++)
		free(F->fn_name[i]);
	free(F->fn_name);
	free(F->fn_line);
	free(F->fn_end);
	free(F->chunks);
	free(F->called);
	F->fn_name = NULL;
	F->fn_line = F->fn_end = NULL;
	F->chunks = NULL;
	F->called = NULL;
	F->nfns = F->nchunks = 0;
}

/* Whether FNS are the functions the plan was made from (the file did not
 * change between two parses, or the quick parse found them all). */
static int same_fns(const front *F, const fn *fns, int n)
{
	if (n != F->nfns)
		return 0;
	for (int i = 0; i < n; i++)
		if (fns[i].line != F->fn_line[i] || fns[i].end_line != F->fn_end[i] ||
		    strcmp(fns[i].name, F->fn_name[i]) != 0)
			return 0;
	return 1;
}

/* A function definition's body, as the quick parse found it. */
typedef struct body {
	unsigned open, close; /* offsets of its braces */
	unsigned tok_lo, tok_hi; /* its braces' tokens in the quick parse */
	int keep;             /* never blanked */
	int *callees, ncallees; /* the definitions whose names it has */
} body;

static int name_cmp(const void *a, const void *b)
{
	const fn *x = *(fn *const *)a, *y = *(fn *const *)b;
	return strcmp(x->name, y->name);
}

/* The definition named by the LEN bytes at ID among BYNAME (N, sorted), or NULL. */
static const fn *fn_named(fn *const *byname, int n, const char *id, size_t len)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		int c = strncmp(byname[mid]->name, id, len);
		if (c == 0 && byname[mid]->name[len])
			c = 1;
		if (c == 0)
			return byname[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* What a token is to the quick parse: a brace, ';', ',', an identifier
 * ('i') or anything else ('.'); digraph braces are braces. */
static char tok_class(CXTokenKind k, const char *at)
{
	if (k == CXToken_Identifier)
		return 'i';
	if (k != CXToken_Punctuation)
		return '.';
	if (*at == '{' || (at[0] == '<' && at[1] == '%'))
		return '{';
	if (*at == '}' || (at[0] == '%' && at[1] == '>'))
		return '}';
	return *at == ';' || *at == ',' ? *at : '.';
}

/* The quick parse: the definitions (into *FNS, *N, for the plan) and their
 * bodies (into *BODIES), from F->text.  Returns 0, or -1 when the file is
 * better parsed whole by every thread (it does not parse cleanly, or a
 * definition's body is not where its declarator ends). */
static int quick_parse(front *F, CXIndex idx, fn **fns, int *n, body **bodies)
{
	*fns = NULL;
	*bodies = NULL;
	*n = 0;
	char err[EPI_ERRLEN];
	CXTranslationUnit tu;
	if (parse_file(idx, F->a->file, F->text, F->len, F->args, F->nargs, CXTranslationUnit_SkipFunctionBodies, &tu,
		       err) < 0) {
		if (tu)
			clang_disposeTranslationUnit(tu);
		return -1;
	}
	CXFile file = clang_getFile(tu, F->a->file);
	CXToken *toks = NULL;
	unsigned ntok = 0;
	if (file)
		clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, file, 0),
						  clang_getLocationForOffset(tu, file, (unsigned)F->len)),
			       &toks, &ntok);
	unsigned *off = xmalloc((ntok + 1) * sizeof *off);
	char *cls = xmalloc(ntok + 1);
	for (unsigned i = 0; i < ntok; i++) {
		clang_getFileLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &off[i]);
		cls[i] = off[i] < F->len ? tok_class(clang_getTokenKind(toks[i]), F->text + off[i]) : '.';
	}
	int ret = file ? 0 : -1;
	kids top = {0};
	kids_of(clang_getTranslationUnitCursor(tu), &top);
	for (int i = 0; i < top.n && ret == 0; i++) {
		CXCursor c = top.c[i];
		if (kind(c) != CXCursor_FunctionDecl || !in_main_file(c))
			continue;
		/* the first token after the declarator: '{' opens a body */
		unsigned e = offset_of(clang_getRangeEnd(clang_getCursorExtent(c)));
		unsigned lo = 0, hi = ntok;
		while (lo < hi) {
			unsigned mid = (lo + hi) / 2;
			if (off[mid] < e)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == ntok || cls[lo] == ';' || cls[lo] == ',')
			continue; /* a declaration */
		if (cls[lo] != '{') {
			ret = -1; /* an old-style definition, or a declarator from a macro */
			break;
		}
		unsigned j = lo;
		for (int depth = 0; j < ntok; j++) {
			depth += cls[j] == '{';
			depth -= cls[j] == '}';
			if (depth == 0)
				break;
		}
		if (j == ntok) {
			ret = -1;
			break;
		}
		*fns = xrealloc(*fns, (*n + 1) * sizeof **fns);
		*bodies = xrealloc(*bodies, (*n + 1) * sizeof **bodies);
		fn *f = &(*fns)[*n];
		body *b = &(*bodies)[(*n)++];
		memset(f, 0, sizeof *f);
		f->name = spelling(c);
		f->line = line_of(c);
		unsigned end;
		clang_getFileLocation(clang_getTokenLocation(tu, toks[j]), NULL, &end, NULL, NULL);
		f->end_line = (int)end;
		b->open = off[lo];
		b->close = off[j];
		b->keep = memchr(F->text + b->open, '#', b->close - b->open) != NULL;
		b->tok_lo = lo;
		b->tok_hi = j;
		b->callees = NULL;
		b->ncallees = 0;
	}
	kids_free(&top);
	if (ret == 0 && *n > 0) {
		fn **byname = xmalloc(*n * sizeof *byname);
		for (int i = 0; i < *n; i++)
			byname[i] = &(*fns)[i];
		qsort(byname, *n, sizeof *byname, name_cmp);
		for (int i = 0; i < *n; i++) {
			fn *f = &(*fns)[i];
			body *b = &(*bodies)[i];
			for (unsigned t = b->tok_lo + 1; t < b->tok_hi; t++) {
				if (cls[t] != 'i')
					continue;
				const char *id = F->text + off[t];
				size_t len = 0;
				while (off[t] + len < F->len && (isalnum((unsigned char)id[len]) || id[len] == '_' || id[len] == '$'))
					len++;
				const fn *g = fn_named(byname, *n, id, len);
				if (g && g != f) {
					b->callees = xrealloc(b->callees, (b->ncallees + 1) * sizeof *b->callees);
					b->callees[b->ncallees++] = (int)(g - *fns);
				}
				/* what a body may change for the code after it */
				if ((len == 7 && !memcmp(id, "_Pragma", 7)) || (len == 11 && !memcmp(id, "__COUNTER__", 11)))
					b->keep = 1;
			}
		}
		free(byname);
	}
	free(off);
	free(cls);
	if (toks)
		clang_disposeTokens(tu, toks, ntok);
	clang_disposeTranslationUnit(tu);
	return ret;
}

/* Deals the chunks to NT threads and makes each thread's copy of the file;
 * returns 0, or -1 when no body would be blanked. */
static int split_work(front *F, int nt, const body *bodies)
{
	int n = F->nfns, blanked = 0;
	F->copy = xcalloc(nt, sizeof *F->copy);
	F->blank = xcalloc(nt, sizeof *F->blank);
	char *need = xmalloc(n + 1);
	int *stack = xmalloc((n + 1) * sizeof *stack);
	for (int t = 0; t < nt; t++) {
		memset(need, 0, n + 1);
		int sp = 0;
		for (int c = t; c < F->nchunks; c += nt)
			for (int i = F->chunks[c].lo; i < F->chunks[c].hi; i++) {
				need[i] = 1;
				stack[sp++] = i;
			}
		while (sp > 0) {
			const body *b = &bodies[stack[--sp]];
			for (int k = 0; k < b->ncallees; k++)
				if (!need[b->callees[k]]) {
					need[b->callees[k]] = 1;
					stack[sp++] = b->callees[k];
				}
		}
		F->copy[t] = xmalloc(F->len + 1);
		memcpy(F->copy[t], F->text, F->len);
		F->blank[t] = xcalloc(n + 1, 1);
		for (int i = 0; i < n; i++) {
			if (need[i] || bodies[i].keep)
				continue;
			F->blank[t][i] = 1;
			blanked = 1;
			char *p = F->copy[t];
			unsigned from = bodies[i].open + (p[bodies[i].open] == '<' ? 2 : 1); /* past '{' or '<%' */
			for (unsigned o = from; o < bodies[i].close; o++)
				if (p[o] != '\n' && p[o] != '\r')
					p[o] = ' ';
		}
	}
	free(stack);
	free(need);
	return blanked ? 0 : -1;
}

static void split_free(front *F, int nt)
{
	for (int t = 0; t < nt && F->copy; t++) {
		free(F->copy[t]);
		free(F->blank[t]);
	}
	free(F->copy);
	free(F->blank);
	F->copy = F->blank = NULL;
	F->nsplit = 0;
}

static void analyze_chunk(front *F, chunk *ch, CXTranslationUnit tu, fn *fns, int nfns, int nall)
{
	epi_analysis *a = ch->a;
	if (a != F->a) {
		memset(a, 0, sizeof *a);
		sym_init(&a->sym);
		sym_grow(&a->sym, F->symcap);
	}
	ch->started = 1;
	W w = {.a = a, .o = F->o, .s = &a->sym, .tu = tu, .filename = F->a->file, .text = F->text, .len = F->len,
	       .err = ch->err,
	       .fns = fns, .nfns = nall, .own_lo = ch->lo, .own_hi = ch->hi,
	       .pragmas = F->pragmas, .npragmas = F->npragmas, .trip_hit = F->trip_hit};
	/* past the file's last function, the lines that tag a header's loops */
	for (int i = 0; i < nfns; i++)
		if (fns[i].end_line + 1 > w.syn_base)
			w.syn_base = fns[i].end_line + 1;
	if (ch->lo == 0 && F->o->tag_loops) {
		epi_nests_free(F->a->hloops, F->a->nhloops);
		F->a->hloops = NULL;
		F->a->nhloops = 0;
		int cap = 0;
		for (int i = nfns; i < nall; i++) {
			cf_header_loops(fns, nall, &fns[i]);
			ALLOC_GROW(F->a->hloops, F->a->nhloops + fns[i].nhl, cap);
			for (int k = 0; k < fns[i].nhl; k++) {
				epi_nest *x = &F->a->hloops[F->a->nhloops + k];
				*x = fns[i].hl[k];
				x->file = xstrdup(x->file);
				x->function = xstrdup(x->function);
				if (x->parent >= 0)
					x->parent += F->a->nhloops;
			}
			F->a->nhloops += fns[i].nhl;
		}
		F->a->syn_base = w.syn_base;
	}
	for (int i = 0; i < nall; i++) {
		fns[i].state = 0;
		fns[i].called = 0;
		free(fns[i].uncounted);
		fns[i].uncounted = NULL;
	}
	int ret = 0;
	poly_take_overflow(); /* what came before is not this chunk's */
	for (int i = ch->lo; i < ch->hi && ret == 0; i++)
		if (fns[i].state == 0) {
			cf_collect_symbols(&w, NULL);
			ret = cf_analyze_fn(&w, &fns[i]);
			if (ret == 0 && poly_take_overflow())
				ret = epi_error(ch->err, "%s:%d: a count of %s() has a term in more than %d symbols (a nest "
						"deeper than that, each level bounded by its own parameter), beyond what epi "
						"represents", F->a->file, fns[i].line, fns[i].name, POLY_MONO_MAX);
		}
	ch->ret = ret;
	ch->full = ret != 0 && w.s->full;
	free(w.byname);
	ch->recursive = w.recursive;
	ch->missing = w.missing;
	ch->called = xmalloc(nfns + 1);
	for (int i = 0; i < nfns; i++)
		ch->called[i] = (char)fns[i].called;
	for (int i = 0; i < nall; i++) {
		counts_clear(w.s, &fns[i].counts);
		cf_fn_specs_free(w.s, &fns[i]);
	}
	/* the loops of its functions, for the compiled-code model's matching:
	 * from this walk's tree rather than a parse of their own */
	epi_nests_free(ch->loops, ch->nloops);
	ch->loops = NULL;
	ch->nloops = ch->caploops = 0;
	epi_sized_free(ch->sized, ch->nsized);
	ch->sized = NULL;
	ch->nsized = ch->capsized = 0;
	if (ch->lo == 0 && F->o->tag_loops && ret == 0) {
		kids top = {0};
		kids_of(clang_getTranslationUnitCursor(tu), &top);
		for (int i = 0; i < top.n; i++)
			if (kind(top.c[i]) == CXCursor_VarDecl && in_main_file(top.c[i]))
				cf_sized_add(top.c[i], "", &ch->sized, &ch->nsized, &ch->capsized);
		kids_free(&top);
	}
	for (int i = ch->lo; i < ch->hi && F->o->tag_loops && ret == 0; i++)
		cf_list_loops(fns[i].cur, F->a->file, fns[i].name, &ch->loops, &ch->nloops, &ch->caploops, &ch->sized,
			      &ch->nsized, &ch->capsized);
}

/* The ordered part of merging chunk K, the next in file order: the first
 * failure stops the merge, as it would stop a walk of the whole file; the
 * chunk's notes and errors are added, and its symbols given indices in the
 * analysis's table in the order the import meets them, so that the table
 * is the one a single walk would make.  Returns whether its regions are
 * left to import. */
static int map_step(front *F, int k)
{
	chunk *ch = &F->chunks[k];
	epi_analysis *a = F->a, *p = &ch->part;
	if (F->ret == 0 && ch->ret != 0) {
		F->ret = -1;
		F->full = ch->full;
		memcpy(F->merr, ch->err, sizeof ch->err);
	}
	int import = 0;
	if (ch->a != a) {
		if (F->ret == 0) {
			ch->map = xmalloc(SYM_MAXVARS * sizeof *ch->map);
			for (int j = 0; j < SYM_MAXVARS; j++)
				ch->map[j] = -1;
			for (int i = 0; i < p->nregions && F->ret == 0; i++)
				if (counts_map(&a->sym, &p->sym, &p->regions[i].counts, ch->map) < 0)
					F->ret = epi_error(F->merr, "%s", a->sym.err);
			import = F->ret == 0;
		}
		if (import) {
			ch->snap = xmalloc(sizeof *ch->snap);
			*ch->snap = a->sym; /* read only by the import: none of it changes */
		}
		for (int i = 0; i < p->nnotes; i++)
			cf_add_unique(&a->notes, &a->nnotes, p->notes[i]);
		for (int i = 0; i < p->nerrors; i++)
			cf_add_unique(&a->errors, &a->nerrors, p->errors[i]);
		p->nnotes = p->nerrors = 0;
		if (!import)
			epi_analysis_free(p);
	}
	for (int i = 0; i < F->nfns; i++)
		F->called[i] |= ch->called[i];
	F->recursive |= ch->recursive;
	free(ch->called);
	ch->called = NULL;
	return import;
}

/* Moves chunk CH's regions (their counts into the analysis's table, through
 * the copy of it taken when the chunk was mapped) into CH->regions. */
static void import_chunk(chunk *ch)
{
	epi_analysis *p = &ch->part;
	ch->regions = xmalloc((p->nregions + 1) * sizeof *ch->regions);
	sym_moved moved = {0};
	for (int i = 0; i < p->nregions; i++) {
		epi_region *r = &ch->regions[ch->nregions++], *q = &p->regions[i];
		*r = *q;
		q->file = q->function = NULL;
		counts_init(&r->counts);
		counts_adopt(ch->snap, &r->counts, &q->counts, ch->map, &moved);
	}
	sym_moved_free(&moved);
	epi_analysis_free(p);
	free(ch->snap);
	free(ch->map);
	ch->snap = NULL;
	ch->map = NULL;
}

/* Marks chunk K counted, and maps the chunks counted since the last one
 * mapped (unless another thread is at it), while the others go on counting. */
static void chunk_done(front *F, int k)
{
	pthread_mutex_lock(&F->mu);
	F->chunks[k].state = CH_COUNTED;
	if (!F->merging) {
		F->merging = 1;
		while (F->merged < F->nchunks && F->chunks[F->merged].state == CH_COUNTED) {
			int m = F->merged;
			pthread_mutex_unlock(&F->mu);
			int import = map_step(F, m);
			pthread_mutex_lock(&F->mu);
			F->chunks[m].state = import ? CH_MAPPED : CH_IMPORTED;
			F->merged++;
			pthread_cond_broadcast(&F->cv);
		}
		F->merging = 0;
		pthread_cond_broadcast(&F->cv); /* the table may be viewed again */
	}
	pthread_mutex_unlock(&F->mu);
}

/* The next imported region to format for epi_front_opts' preformat, and
 * in *C its chunk; NULL when none is (yet) (F->mu held). */
static epi_region *next_to_format(front *F, int *c)
{
	while (F->pf_chunk < F->nchunks) {
		chunk *ch = &F->chunks[F->pf_chunk];
		if (ch->state != CH_IMPORTED)
			return NULL;
		if (F->pf_region < ch->nregions) {
			*c = F->pf_chunk;
			return &ch->regions[F->pf_region++];
		}
		F->pf_chunk++;
		F->pf_region = 0;
	}
	return NULL;
}

static void preformat(sym_ctx *s, epi_region *r)
{
	r->formula = xcalloc(r->counts.n + 1, sizeof *r->formula);
	r->cond = xcalloc(r->counts.n + 1, sizeof *r->cond);
	for (int i = 0; i < r->counts.n; i++)
		if (r->counts.key[i][0] != '%') /* the loops' own counts: read, never reported */
			sym_pw_format(s, &r->counts.v[i].exp, &r->formula[i], &r->cond[i]);
}

typedef struct format_work {
	epi_analysis *a;
	atomic_int next;
} format_work;

static void *format_run(void *arg)
{
	format_work *w = arg;
	sym_ctx view;
	sym_view(&view, &w->a->sym);
	for (int i; (i = atomic_fetch_add(&w->next, 1)) < w->a->nregions;)
		if (!w->a->regions[i].formula)
			preformat(&view, &w->a->regions[i]);
	sym_view_free(&view);
	flint_cleanup(); /* this thread's cache of GMP integers, which a thread's end would leak */
	return NULL;
}

void epi_analysis_format(epi_analysis *a, int jobs)
{
	format_work w = {.a = a};
	atomic_init(&w.next, 0);
	pthread_t th[8];
	int started = epi_start_threads(th, epi_threads(jobs) - 1, format_run, &w);
	format_run(&w);
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
}

/* A thread done counting (LEAVING) imports mapped chunks until no thread
 * is counting and none is left to import; in between, with
 * epi_front_opts' preformat, it formats the regions imported, through a
 * view of the analysis's table taken while no chunk is being mapped into
 * it (and taken again for the regions of chunks mapped since). */
static void front_help(front *F, int leaving)
{
	int can_format = F->o->preformat && F->nchunks && F->chunks[0].a != F->a;
	sym_ctx view;
	int viewed = -1; /* the chunks mapped when the view was taken, -1: none */
	pthread_mutex_lock(&F->mu);
	F->active -= leaving;
	pthread_cond_broadcast(&F->cv);
	for (;;) {
		while (F->imported < F->merged && F->chunks[F->imported].state != CH_MAPPED)
			F->imported++;
		if (F->imported < F->merged) {
			chunk *ch = &F->chunks[F->imported++];
			ch->state = CH_IMPORTING;
			pthread_mutex_unlock(&F->mu);
			import_chunk(ch);
			pthread_mutex_lock(&F->mu);
			ch->state = CH_IMPORTED;
			continue;
		}
		if (F->active <= 0)
			break;
		int c;
		epi_region *r = can_format ? next_to_format(F, &c) : NULL;
		if (r && c >= viewed) {
			if (F->merging) { /* back to it once the table is still */
				F->pf_region--;
				r = NULL;
			} else {
				if (viewed < 0)
					sym_view(&view, &F->a->sym);
				else
					sym_view_update(&view, &F->a->sym);
				viewed = F->merged;
			}
		}
		if (r) {
			pthread_mutex_unlock(&F->mu);
			preformat(&view, r);
			pthread_mutex_lock(&F->mu);
			continue;
		}
		pthread_cond_wait(&F->cv, &F->mu);
	}
	pthread_mutex_unlock(&F->mu);
	if (viewed >= 0)
		sym_view_free(&view);
}

/* Parses thread ID's copy of the file, or the whole file when *WHOLE or
 * when nothing is blanked (setting *WHOLE when the copy does not do);
 * returns the translation unit and sets *FNS, *NFNS and *NALL (list_fns),
 * or returns NULL after recording in F why the file cannot be analysed. */
static CXTranslationUnit front_parse(front *F, int id, int *whole, fn **fns, int *nfns, int *nall)
{
	char err[EPI_ERRLEN];
	CXTranslationUnit tu;
	int split = F->nsplit && !*whole;
	int ok = parse_file(F->idx[id], F->a->file, split ? F->copy[id] : F->text, F->len, F->args, F->nargs,
			    CXTranslationUnit_None, &tu, err) == 0;
	*nfns = *nall = 0;
	*fns = ok ? list_fns(tu, nfns, nall) : NULL;
	if (split) {
		if (ok && same_fns(F, *fns, *nfns)) {
			for (int i = 0; i < *nfns; i++)
				(*fns)[i].blank = F->blank[id][i];
			return tu;
		}
		/* an error, maybe in the whole file: the whole file says */
		free_fns(*fns, *nall);
		if (tu)
			clang_disposeTranslationUnit(tu);
		*whole = 1;
		return front_parse(F, id, whole, fns, nfns, nall);
	}
	pthread_mutex_lock(&F->mu);
	if (ok && !F->chunks)
		plan_chunks(F, *fns, *nfns);
	if (ok && !same_fns(F, *fns, *nfns)) {
		ok = 0;
		F->badplan = F->nsplit > 0;
		epi_error(err, "'%s' parsed differently in two threads", F->a->file);
	}
	if (!ok && !F->failed) {
		F->failed = 1;
		memcpy(F->err, err, sizeof err);
	}
	pthread_mutex_unlock(&F->mu);
	if (ok)
		return tu;
	free_fns(*fns, *nall);
	*fns = NULL;
	*nfns = *nall = 0;
	if (tu)
		clang_disposeTranslationUnit(tu);
	return NULL;
}

/* Analyses chunk C in TU, and when its walk reaches a body TU blanked,
 * again in the whole file (the thread's TU from then on). */
static void front_chunk(front *F, int id, int c, CXTranslationUnit *tu, int *whole, fn **fns, int *nfns,
			int *nall)
{
	chunk *ch = &F->chunks[c];
	analyze_chunk(F, ch, *tu, *fns, *nfns, *nall);
	if (ch->missing && !*whole) {
		epi_analysis_free(&ch->part);
		free(ch->called);
		ch->called = NULL;
		ch->started = 0; /* its walk dropped */
		free_fns(*fns, *nall);
		clang_disposeTranslationUnit(*tu);
		*whole = 1;
		*tu = front_parse(F, id, whole, fns, nfns, nall);
		if (!*tu)
			return; /* the chunk is not done, and the failure recorded */
		analyze_chunk(F, ch, *tu, *fns, *nfns, *nall);
	}
	chunk_done(F, c);
}

static void *front_run(void *arg)
{
	front_worker *k = arg;
	front *F = k->F;
	int whole = 0, nfns, nall;
	fn *fns;
	CXTranslationUnit tu = front_parse(F, k->id, &whole, &fns, &nfns, &nall);
	for (int mine = k->id; tu; mine += F->nsplit) {
		int c = F->nsplit ? mine : atomic_fetch_add(&F->next, 1);
		if (c >= F->nchunks)
			break;
		front_chunk(F, k->id, c, &tu, &whole, &fns, &nfns, &nall);
	}
	free_fns(fns, nall);
	if (tu)
		clang_disposeTranslationUnit(tu);
	front_help(F, 1);
	flint_cleanup(); /* this thread's cache of GMP integers, which a thread's end would leak */
	return NULL;
}

/* The chunks dealt to threads that could not start: on the whole file. */
static void front_rest(front *F)
{
	int whole = 1, nfns = 0, nall = 0;
	fn *fns = NULL;
	CXTranslationUnit tu = NULL;
	for (int c = 0; c < F->nchunks && !F->failed; c++) {
		if (F->chunks[c].started)
			continue;
		if (!tu && !(tu = front_parse(F, 0, &whole, &fns, &nfns, &nall)))
			break;
		front_chunk(F, 0, c, &tu, &whole, &fns, &nfns, &nall);
	}
	free_fns(fns, nall);
	if (tu)
		clang_disposeTranslationUnit(tu);
}

/* The index of the function region of function I of the plan, or -1
 * (A's regions in source order). */
static int fn_region(const epi_analysis *a, const front *F, int i)
{
	int lo = 0, hi = a->nregions; /* the first region not before the function's line */
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (a->regions[mid].line < F->fn_line[i])
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int j = lo; j < a->nregions && a->regions[j].line == F->fn_line[i]; j++)
		if (a->regions[j].scope == EPI_SCOPE_FUNCTION && strcmp(a->regions[j].function, F->fn_name[i]) == 0)
			return j;
	return -1;
}

/* The lines a file's chunks of CHUNK_LINES lines would walk besides their
 * own functions': each chunk counts the callees it needs itself, so the
 * functions its own call, directly or not, in other chunks (FNS, N, and
 * BODIES' callees, from the quick parse). */
static long extra_lines(int chunk_lines, const fn *fns, int n, const body *bodies)
{
	int *chunk = xmalloc(((size_t)n + 1) * sizeof *chunk), *seen = xcalloc((size_t)n + 1, sizeof *seen);
	int *stack = xmalloc(((size_t)n + 1) * sizeof *stack), lines = 0, nc = 0;
	for (int i = 0; i < n; i++) {
		chunk[i] = nc;
		nc += cut_after(chunk_lines, fns, n, i, &lines);
	}
	long extra = 0;
	for (int c = 0, lo = 0; lo < n; c++) {
		int sp = 0, hi = lo;
		for (; hi < n && chunk[hi] == c; hi++) {
			seen[hi] = c + 1;
			stack[sp++] = hi;
		}
		while (sp > 0) {
			const body *b = &bodies[stack[--sp]];
			for (int k = 0; k < b->ncallees; k++) {
				int g = b->callees[k];
				if (seen[g] == c + 1)
					continue;
				seen[g] = c + 1;
				extra += fns[g].end_line - fns[g].line + 1;
				stack[sp++] = g;
			}
		}
		lo = hi;
	}
	free(chunk);
	free(seen);
	free(stack);
	return extra;
}

/* Plans the chunks from a quick parse of the file and deals them to NT
 * threads with copies of the file blanked for each; leaves F as it was when
 * every thread is better off parsing the whole file. */
static void plan_split(front *F, int nt)
{
	fn *fns;
	body *bodies;
	int n;
	if (quick_parse(F, F->idx[0], &fns, &n, &bodies) == 0 && n > 0) {
		/* chunks dealt in turn: as many for each thread, of as many lines */
		long lines = 0;
		for (int i = 0; i < n; i++)
			lines += fns[i].end_line - fns[i].line + 1;
		long nc = (lines + F->chunk_lines - 1) / F->chunk_lines;
		nc = (nc + nt - 1) / nt * nt;
		F->chunk_lines = (int)((lines + nc - 1) / nc);
		/* fewer, longer chunks where they would walk again more than
		 * the file's own lines (a chain of calls through the file) */
		while (nc > nt && extra_lines(F->chunk_lines, fns, n, bodies) > lines) {
			nc = (nc / 2 + nt - 1) / nt * nt;
			F->chunk_lines = (int)((lines + nc - 1) / nc);
		}
		plan_chunks(F, fns, n);
		if (F->nchunks > 1 && split_work(F, nt, bodies) == 0) {
			F->nsplit = nt;
			F->chunks[0].a = &F->chunks[0].part; /* merged, as it may be walked twice */
		} else {
			split_free(F, nt);
			plan_free(F);
		}
	}
	for (int i = 0; i < n; i++)
		free(bodies[i].callees);
	free(bodies);
	free_fns(fns, n);
}

/* The total's counts, the sum of the roots', key by key on threads that
 * each have a view of the table, and with epi_front_opts' preformat each
 * key's expectation formatted too: the sum of a long file's functions and
 * its formulas are the longest of all. */
typedef struct total_work {
	epi_analysis *a;
	epi_region *r;
	counts_where where;
	int format;
	atomic_int next; /* the next key to sum */
} total_work;

static void *total_run(void *arg)
{
	total_work *w = arg;
	sym_ctx v;
	sym_view(&v, &w->a->sym);
	epi_counts *t = &w->r->counts;
	for (int d; (d = atomic_fetch_add(&w->next, 1)) < t->n;) {
		counts_add_all_key(&v, t, d, &w->where);
		if (w->format && t->key[d][0] != '%') /* the loops' own counts: read, never reported */
			sym_pw_format(&v, &t->v[d].exp, &w->r->formula[d], &w->r->cond[d]);
	}
	sym_view_free(&v);
	flint_cleanup(); /* this thread's cache of GMP integers */
	return NULL;
}

static void add_total(epi_analysis *a, epi_region *r, const epi_counts *const *roots, int nroots,
		      const epi_front_opts *o, int nt)
{
	total_work w = {.a = a, .r = r, .format = o->preformat};
	counts_init(&r->counts);
	counts_add_all_keys(&a->sym, &r->counts, roots, nroots, &w.where);
	if (o->preformat) {
		r->formula = xcalloc(r->counts.n + 1, sizeof *r->formula);
		r->cond = xcalloc(r->counts.n + 1, sizeof *r->cond);
	}
	atomic_init(&w.next, 0);
	if (nt > r->counts.n)
		nt = r->counts.n;
	pthread_t th[FRONT_MAXTHREADS];
	int started = 1; /* this thread is the first */
	while (started < nt && pthread_create(&th[started], NULL, total_run, &w) == 0)
		started++;
	total_run(&w);
	for (int t = 1; t < started; t++)
		pthread_join(th[t], NULL);
	counts_where_free(&w.where);
}

enum { AGAIN_NO, AGAIN_ONE_CHUNK, AGAIN_UNSPLIT, AGAIN_WIDER };

/* The --calls of function NAME, or NULL. */
static const epi_calls *calls_of(const epi_front_opts *o, const char *name)
{
	for (int i = 0; i < o->ncalls; i++)
		if (!strcmp(o->calls[i].function, name))
			return &o->calls[i];
	for (int i = 0; i < o->ncalls; i++)
		if (!strcmp(o->calls[i].function, "*"))
			return &o->calls[i];
	return NULL;
}

/* Every --calls must name a function the total counts from outside the
 * file, or through pointers: one the file defines that no code of the
 * file calls (CALLED), or main(). */
static int check_calls(const front *F, const char *called, char *err)
{
	const char *file = F->a->file;
	int m = -1;
	for (int i = 0; i < F->nfns && m < 0; i++)
		if (!strcmp(F->fn_name[i], "main"))
			m = i;
	for (int c = 0; c < F->o->ncalls; c++) {
		const epi_calls *k = &F->o->calls[c];
		if (!strcmp(k->function, "*")) { /* beside main(), some function no code calls */
			int any = m < 0;
			for (int i = 0; i < F->nfns && !any; i++)
				any = i != m && !(called && called[i]);
			if (!any)
				return epi_error(err, "--calls '*=%lld': the code of %s calls every function it defines "
						 "but main()", k->n, file);
			continue;
		}
		int i = 0;
		while (i < F->nfns && strcmp(F->fn_name[i], k->function))
			i++;
		if (i == F->nfns)
			return epi_error(err, "--calls '%s=%lld': %s defines no function '%s'", k->function, k->n, file,
					 k->function);
		if (m >= 0 && i != m && called && called[i])
			return epi_error(err, "--calls '%s=%lld': %s defines main(), whose run is the total: %s() runs "
					 "as often as main's code calls it", k->function, k->n, file, k->function);
		if (m < 0 && called && called[i])
			return epi_error(err, "--calls '%s=%lld': the code of %s calls %s(): --calls counts the calls "
					 "from other files, of functions that no code of %s calls", k->function, k->n, file,
					 k->function, file);
	}
	return 0;
}

/* Every --trip and `#pragma epi trip` must name a loop of the file:
 * returns 0, or -1 with ERR naming the first that does not. */
static int check_given(const front *F, char *err)
{
	const char *file = F->a->file;
	for (int i = 0; i < F->o->ntrips; i++) {
		const epi_trip *t = &F->o->trips[i];
		if (t->measured || F->trip_hit[i])
			continue;
		char label[48];
		cf_loop_label(label, sizeof label, t->line, t->nth);
		if (t->file && !epi_trip_file_matches(t->file, file))
			return epi_error(err, "--trip '%s:%s=%s' names another file than '%s' (--trip counts its own "
					 "loops; a function of an included file is counted where its loops can be, else "
					 "its calls are listed, not counted)",
					 t->file, label, t->expr, file);
		if (t->nth > 1)
			return epi_error(err, "--trip '%s%s%s=%s': %s has no loop %d on line %d", t->file ? t->file : "",
					 t->file ? ":" : "", label, t->expr, file, t->nth, t->line);
		return epi_error(err, "--trip '%s%s%s=%s': %s has no loop on line %d", t->file ? t->file : "",
				 t->file ? ":" : "", label, t->expr, file, t->line);
	}
	for (int i = 0; i < F->npragmas; i++) {
		const pragma *p = &F->pragmas[i];
		if (!p->expr || p->hit)
			continue;
		if (p->line < 0)
			return epi_error(err, "%s:%d: '#pragma epi trip(%s)' is followed by no loop", file, p->at, p->expr);
		return epi_error(err, "%s:%d: '#pragma epi trip(%s)' is followed by no loop (line %d has none)", file,
				 p->at, p->expr, p->line);
	}
	return 0;
}

/* A thread beyond the first pays for parsing the file's headers again and
 * for the quick parse that deals the bodies out; it saves half of what
 * counting the loops costs. So the default number of threads is one per
 * LOOPS_PER_THREAD loops of the file (its `for` and `while` words, a
 * scan of the text: comments and strings may add some), which keeps a few
 * thousand lines of simple loops under heavy headers on one thread. */
#define LOOPS_PER_THREAD 500

static int loop_words(const char *text, size_t len)
{
	int n = 0;
	for (size_t i = 0; i + 3 <= len; i++) {
		if (i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_'))
			continue;
		size_t w = !strncmp(text + i, "for", 3) ? 3 : i + 5 <= len && !strncmp(text + i, "while", 5) ? 5 : 0;
		if (w && (i + w == len || !(isalnum((unsigned char)text[i + w]) || text[i + w] == '_')))
			n++;
	}
	return n;
}

/* epi_analyze() with chunks of CHUNK_LINES lines, bodies blanked in each
 * thread's copy of the file when SPLIT, symbol tables of SYMCAP symbols at
 * first; sets *AGAIN when the analysis is to be done again in one chunk (a
 * chunk cut a recursive call), without blanking (the quick parse missed a
 * definition) or in wider tables (it failed for want of symbols). */
static int analyze_chunks(epi_analysis *a, const char *file, const epi_front_opts *o, int chunk_lines, int split,
			  int symcap, int *again, char *err)
{
	*again = AGAIN_NO;
	memset(a, 0, sizeof *a);
	sym_init(&a->sym);
	sym_grow(&a->sym, symcap);
	a->file = xstrdup(file);
	size_t len;
	char *text = epi_read_file(file, &len, err);
	if (!text)
		return -1;
	W pw = {.filename = a->file};
	if (cf_scan_pragmas(&pw, text, err) < 0) {
		for (int i = 0; i < pw.npragmas; i++)
			free(pw.pragmas[i].expr);
		free(pw.pragmas);
		free(text);
		return -1;
	}
	int lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	front F = {.a = a, .o = o, .pragmas = pw.pragmas, .npragmas = pw.npragmas, .chunk_lines = chunk_lines,
		   .symcap = symcap, .text = text, .len = len, .trip_hit = xcalloc(o->ntrips + 1, 1)};
	pthread_mutex_init(&F.mu, NULL);
	pthread_cond_init(&F.cv, NULL);
	atomic_init(&F.next, 0);
	F.args = parse_args(file, "-ferror-limit=1", o->clang_args, o->nclang_args, &F.nargs);
	/* threads: as many as asked, but no more than the file has chunks;
	 * by default no more than its loops keep busy either */
	int nt = epi_threads(o->jobs);
	if (nt > lines / chunk_lines)
		nt = lines / chunk_lines;
	int busy = 1 + loop_words(text, len) / LOOPS_PER_THREAD;
	if (o->jobs <= 0 && nt > busy)
		nt = busy;
	if (nt > FRONT_MAXTHREADS)
		nt = FRONT_MAXTHREADS;
	if (nt < 1)
		nt = 1;
	F.idx = xmalloc(nt * sizeof *F.idx);
	for (int t = 0; t < nt; t++)
		F.idx[t] = clang_createIndex(0, 0);
	if (split && nt > 1)
		plan_split(&F, nt);
	front_worker k[FRONT_MAXTHREADS];
	pthread_t th[FRONT_MAXTHREADS];
	pthread_attr_t attr; /* a walker's stack: see EPI_WALK_STACK */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, EPI_WALK_STACK);
	/* every worker on a thread of its own, worker 0 on this one only when
	 * its thread cannot start */
	int started = 0, here = 0;
	F.active = nt;
	for (int t = 0; t < nt; t++) {
		k[t] = (front_worker){.F = &F, .id = t};
		if (pthread_create(&th[t], &attr, front_run, &k[t]) == 0) {
			started = t + 1;
		} else if (t == 0) {
			here = started = 1;
		} else {
			pthread_mutex_lock(&F.mu); /* the threads running share the work */
			F.active -= nt - t;
			pthread_mutex_unlock(&F.mu);
			break;
		}
	}
	pthread_attr_destroy(&attr);
	if (here)
		front_run(&k[0]);
	for (int t = here; t < started; t++)
		pthread_join(th[t], NULL);
	if (F.nsplit && started < nt) {
		front_rest(&F);
		front_help(&F, 0);
	}
	for (int t = 0; t < nt; t++)
		clang_disposeIndex(F.idx[t]);
	free(F.idx);
	free(F.args);
	split_free(&F, nt);
	free(text);
	pthread_mutex_destroy(&F.mu);
	pthread_cond_destroy(&F.cv);
	if (F.badplan)
		*again = AGAIN_UNSPLIT;
	int ret = 0;
	if (F.failed)
		ret = epi_error(err, "%s", F.err);
	else if (F.ret)
		ret = epi_error(err, "%s", F.merr);
	/* the imported regions after chunk 0's, in order (those of the chunks
	 * before a failure, as a walk of the whole file would have left them);
	 * the parts of chunks left unmerged (the file did not parse) freed */
	for (int c = 0; c < F.nchunks; c++) {
		chunk *ch = &F.chunks[c];
		if (ch->state != CH_IMPORTED && ch->a != a && ch->started)
			epi_analysis_free(&ch->part);
		if (ch->nregions) {
			a->regions = xrealloc(a->regions, (a->nregions + ch->nregions) * sizeof *a->regions);
			memcpy(a->regions + a->nregions, ch->regions, ch->nregions * sizeof *ch->regions);
			a->nregions += ch->nregions;
		}
		free(ch->regions);
		free(ch->map);
		free(ch->snap);
		free(ch->called);
		/* the loops in chunk order, which is the file's; a parent's
		 * index moved on by the loops before the chunk's */
		a->loops = xrealloc(a->loops, ((size_t)a->nloops + ch->nloops + 1) * sizeof *a->loops);
		for (int i = 0; i < ch->nloops; i++) {
			epi_nest *x = &a->loops[a->nloops + i];
			*x = ch->loops[i];
			if (x->parent >= 0)
				x->parent += a->nloops;
		}
		a->nloops += ch->nloops;
		free(ch->loops);
		a->sized = xrealloc(a->sized, ((size_t)a->nsized + ch->nsized + 1) * sizeof *a->sized);
		if (ch->nsized)
			memcpy(a->sized + a->nsized, ch->sized, (size_t)ch->nsized * sizeof *ch->sized);
		a->nsized += ch->nsized;
		free(ch->sized);
	}
	char *called = F.called;
	if (F.recursive && F.nchunks > 1)
		*again = AGAIN_ONE_CHUNK;
	if (*again == AGAIN_NO && F.ret && F.full && symcap < SYM_MAXVARS)
		*again = AGAIN_WIDER;
	if (ret == 0)
		ret = check_given(&F, err);
	if (ret == 0)
		ret = check_calls(&F, F.called, err);
	free(F.trip_hit);
	if (ret == 0 && a->nerrors) {
		if (a->nerrors == 1)
			epi_error(err, "%s", a->errors[0]);
		else
			epi_error(err, "%s (and %d more loop%s)", a->errors[0], a->nerrors - 1, a->nerrors > 2 ? "s" : "");
		ret = -1;
	}
	if (ret == 0) {
		/* regions in source order; the total: main if defined, else the functions nobody calls */
		for (int i = 1; i < a->nregions; i++)
			for (int j = i; j > 0; j--) {
				epi_region *x = &a->regions[j - 1], *y = &a->regions[j];
				int before = y->line < x->line || (y->line == x->line && y->scope > x->scope);
				if (!before)
					break;
				epi_region t = *x;
				*x = *y;
				*y = t;
			}
		if (pw.omp_line) {
			char msg[EPI_ERRLEN];
			snprintf(msg, sizeof msg, "%s:%d: OpenMP directives are read as plain C (the file is parsed "
				 "without -fopenmp): a loop counts all its iterations, whichever threads run them; code "
				 "of a parallel region outside its loops runs on every thread and is counted once",
				 file, pw.omp_line);
			cf_add_unique(&a->notes, &a->nnotes, xstrdup(msg));
		}
		if (F.nfns == 0) {
			char msg[EPI_ERRLEN];
			snprintf(msg, sizeof msg, "%s: defines no function, so there is nothing to count (functions of the "
				 "files it includes are not counted)", file);
			cf_add_unique(&a->notes, &a->nnotes, xstrdup(msg));
		}
		int m = -1;
		for (int i = 0; i < F.nfns && m < 0; i++)
			if (strcmp(F.fn_name[i], "main") == 0)
				m = i;
		a->regions = xrealloc(a->regions, (a->nregions + 1) * sizeof *a->regions); /* room for the total */
		const epi_counts **roots = xmalloc(((size_t)F.nfns + 1) * sizeof *roots);
		epi_counts *times = xcalloc((size_t)o->ncalls + 1, sizeof *times); /* roots run --calls times */
		int nroots = 0, ntimes = 0;
		a->roots = xcalloc((size_t)F.nfns + 1, sizeof *a->roots);
		a->root_calls = xcalloc((size_t)F.nfns + 1, sizeof *a->root_calls);
		/* main, or the functions no code of the file calls; beside
		 * main, those of them that --calls names (called through
		 * pointers, or from other files) */
		char names[300] = "";
		size_t len = 0;
		int nout = 0;
		for (int i = 0; i < F.nfns; i++) {
			int root = m >= 0 ? i == m || (!called[i] && calls_of(o, F.fn_name[i])) : !called[i];
			/* a call the compiled code does not make is noted apart */
			int removed = 0;
			for (int k = 0; k < o->ndead_calls && !removed; k++)
				removed = !strcmp(o->dead_calls[k].callee, F.fn_name[i]);
			if (m >= 0 && !root && !called[i] && !removed && nout++ < 4 && len < sizeof names)
				len += (size_t)snprintf(names + len, sizeof names - len, "%s%s()", len ? ", " : "",
							F.fn_name[i]);
			int r = root ? fn_region(a, &F, i) : -1;
			if (r < 0)
				continue;
			const epi_calls *k = calls_of(o, F.fn_name[i]);
			roots[nroots] = &a->regions[r].counts;
			if (k && k->n != 1) {
				epi_counts *t = &times[ntimes++];
				counts_init(t);
				counts_set(&a->sym, t, roots[nroots]);
				poly_t p;
				poly_init(p, a->sym.ctx);
				poly_set_si(p, (long)k->n, a->sym.ctx);
				counts_mul_poly(&a->sym, t, p);
				poly_clear(p, a->sym.ctx);
				roots[nroots] = t;
			}
			a->roots[nroots] = xstrdup(F.fn_name[i]);
			a->root_calls[nroots++] = k ? k->n : 1;
		}
		a->nroots = nroots;
		if (nout) {
			char msg[EPI_ERRLEN];
			snprintf(msg, sizeof msg,
				 "%s: no code of the file calls %s%s (called through pointers, or not at all): %s not "
				 "in main()'s total, and %s loops are predicted for no call of the run; --calls "
				 "FUNCTION=N (or '*=N', every such function) counts the run's calls",
				 file, names, nout > 4 ? " and more" : "", nout > 1 ? "their work is" : "its work is",
				 nout > 1 ? "their" : "its");
			cf_add_unique(&a->notes, &a->nnotes, xstrdup(msg));
		}
		epi_region *r = &a->regions[a->nregions];
		r->scope = EPI_SCOPE_TOTAL;
		r->file = xstrdup(file);
		r->line = 0;
		r->function = xstrdup(m >= 0 ? "main" : "");
		r->formula = r->cond = NULL;
		add_total(a, r, roots, nroots, o, nt);
		a->nregions++;
		free(roots);
		for (int i = 0; i < ntimes; i++)
			counts_clear(&a->sym, &times[i]);
		free(times);
	}
	plan_free(&F);
	for (int i = 0; i < F.npragmas; i++)
		free(F.pragmas[i].expr);
	free(F.pragmas);
	return ret;
}

int epi_analyze(epi_analysis *a, const char *file, const epi_front_opts *o, char *err)
{
	int lines = CHUNK_LINES, split = 1, symcap = SYM_INITVARS;
	for (;;) {
		int again, ret = analyze_chunks(a, file, o, lines, split, symcap, &again, err);
		if (again == AGAIN_NO || (again == AGAIN_ONE_CHUNK && lines == INT_MAX))
			return ret;
		epi_analysis_free(a);
		if (again == AGAIN_UNSPLIT) {
			split = 0;
		} else if (again == AGAIN_ONE_CHUNK) {
			/* Where a recursive call is cut depends on which function
			 * the walk starts from, and chunks start from their own: so
			 * that every count agrees with every other, the file is
			 * walked again in one piece. */
			lines = INT_MAX;
			split = 0;
		} else {
			/* a statement that ran out of symbols where the table could
			 * not widen (a callee counted inside it): all of it in
			 * tables as wide as they go */
			symcap = SYM_MAXVARS;
		}
	}
}

void epi_analysis_free(epi_analysis *a)
{
	for (int i = 0; i < a->nregions; i++)
		cf_region_free(&a->sym, &a->regions[i]);
	free(a->regions);
	epi_strv_free(a->notes, a->nnotes);
	epi_strv_free(a->errors, a->nerrors);
	free(a->file);
	epi_nests_free(a->loops, a->nloops);
	epi_nests_free(a->hloops, a->nhloops);
	epi_sized_free(a->sized, a->nsized);
	for (int i = 0; i < a->nroots; i++)
		free(a->roots[i]);
	free(a->roots);
	free(a->root_calls);
	sym_free(&a->sym);
	memset(a, 0, sizeof *a);
}
