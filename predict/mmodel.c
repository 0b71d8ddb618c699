/* mmodel: the compiled-code model (see mmodel.h). */
#include "predict/mmodel.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/util.h"
#include "predict/counts.h"
#include "predict/sizes.h"
#include "predict/cursor.h"
#include "predict/mflow.h"

#ifndef EPI_CLANG
#define EPI_CLANG "clang"
#endif

extern char **environ;

int epi_build_object(const char *source, const char *const *flags, int nflags, char *out, size_t n, char *err)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(out, n, "%s/epi-build-XXXXXX.o", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemps(out, 2);
	if (fd < 0)
		return epi_error(err, "cannot create a temporary object '%s': %s", out, strerror(errno));
	close(fd);
	char log[] = "/tmp/epi-build-XXXXXX.log";
	int lfd = mkstemps(log, 4);
	const char *cc = getenv("EPI_CC");
	cc = cc && *cc ? cc : EPI_CLANG;
	/* the project's clang builds what its parse accepted */
	int nlenient = 0;
	const char *const *lenient = strcmp(cc, EPI_CLANG) == 0 ? gcc_lenient(&nlenient) : NULL;
	const char **argv = xcalloc((size_t)nflags + (size_t)nlenient + 10, sizeof *argv);
	int k = 0;
	argv[k++] = cc;
	argv[k++] = "-g";
	argv[k++] = "-c";
	for (int i = 0; i < nlenient; i++)
		argv[k++] = lenient[i];
	for (int i = 0; i < nflags; i++)
		argv[k++] = flags[i];
	if (needs_x_c(source, flags, nflags)) { /* C, as the parse took it */
		argv[k++] = "-x";
		argv[k++] = "c";
	}
	argv[k++] = source;
	argv[k++] = "-o";
	argv[k++] = out;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	if (lfd >= 0) {
		posix_spawn_file_actions_adddup2(&fa, lfd, 2);
		posix_spawn_file_actions_adddup2(&fa, lfd, 1);
	}
	pid_t pid;
	int st = 0, rc = posix_spawnp(&pid, cc, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	if (rc == 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	char first[240] = "";
	if (lfd >= 0) {
		FILE *f = fdopen(lfd, "r");
		if (f) {
			rewind(f);
			char line[240];
			while (!first[0] && fgets(line, sizeof line, f))
				if (strstr(line, "error"))
					snprintf(first, sizeof first, "%.*s", (int)strcspn(line, "\n"), line);
			fclose(f);
		} else {
			close(lfd);
		}
		unlink(log);
	}
	if (rc != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		unlink(out);
		if (rc != 0)
			return epi_error(err, "cannot run the compiler '%s' to build '%s': %s", cc, source, strerror(rc));
		return epi_error(err, "the compiler '%s' could not build '%s'%s%s", cc, source, first[0] ? ": " : "",
				 first);
	}
	return 0;
}

static int by_line(const void *a, const void *b)
{
	const epi_mnest_loop *x = a, *y = b;
	return x->line != y->line ? (x->line > y->line) - (x->line < y->line) : (x->loop > y->loop) - (x->loop < y->loop);
}

int epi_mmodel_read(epi_mmodel *m, const char *binary, const char *source, const epi_front_opts *fo, char *err)
{
	memset(m, 0, sizeof *m);
	if (epi_object_read(&m->obj, binary, source, fmpq_get_d(fo->branch_prob), err) < 0)
		return -1;
#if defined(__x86_64__)
	const int host = EM_X86_64;
#elif defined(__aarch64__)
	const int host = EM_AARCH64;
#else
	const int host = 0;
#endif
	if (m->obj.machine != host)
		return epi_error(err, "'%s' is %s machine code and this machine is %s: a cost table of this machine "
				      "cannot price it", binary, epi_machine_name(m->obj.machine), epi_machine_name(host));
	return 0;
}

/* M's nest_at: per line of the source up to nest_maxl, the top-level
 * nest spanning it (an index into M's loops), -1. */
static void nest_lines(epi_mmodel *m)
{
	int maxl = 0;
	for (int s = 0; s < m->nloops; s++)
		maxl = m->loops[s].end_line > maxl ? m->loops[s].end_line : maxl;
	int *at = xmalloc(((size_t)maxl + 2) * sizeof *at);
	for (int k = 0; k <= maxl + 1; k++)
		at[k] = -1;
	for (int s = 0; s < m->nloops; s++)
		for (int k = m->loops[s].line; m->loops[s].parent < 0 && k <= m->loops[s].end_line; k++)
			at[k] = s;
	m->nest_at = at;
	m->nest_maxl = maxl;
}

/* The top-level nest of M whose lines hold LINE, -1. */
static int nest_at(const epi_mmodel *m, int line)
{
	return line > 0 && line <= m->nest_maxl ? m->nest_at[line] : -1;
}

/* M's machine loops' instructions on the lines of other top-level nests
 * than their own, or of none: M's cross and insn_cross. */
static void cross_nests(epi_mmodel *m)
{
	const epi_object *o = &m->obj;
	int cap = 0;
	for (int l = 0; l < o->nloop; l++) {
		int own = m->nest_line[l] ? nest_at(m, m->nest_line[l]) : -1;
		for (int i = o->loop[l].first; own >= 0 && i <= o->loop[l].last; i++) {
			if (o->loop_of[i] != l)
				continue;
			/* line 0: compiler-made code (clang's), or another file's:
			 * kept with the loop */
			int t = o->line[i] <= 0 ? own : nest_at(m, o->line[i]);
			if (t == own)
				continue;
			if (!m->insn_cross) {
				m->insn_cross = xmalloc(((size_t)o->nin + 1) * sizeof *m->insn_cross);
				for (int k = 0; k < o->nin; k++)
					m->insn_cross[k] = -1;
			}
			m->insn_cross[i] = t < 0 ? -2 : t; /* -2: on no nest's lines */
			if (t < 0)
				continue;
			int seen = 0;
			for (int k = m->ncross - 1; k >= 0 && m->cross[k].loop == l && !seen; k--)
				seen = m->cross[k].line == m->loops[t].line;
			if (!seen) {
				ALLOC_GROW(m->cross, m->ncross + 1, cap);
				m->cross[m->ncross++] = (epi_mnest_loop){m->loops[t].line, l};
			}
		}
	}
	if (m->ncross > 1)
		qsort(m->cross, (size_t)m->ncross, sizeof *m->cross, by_line);
}

static int by_xline(const void *a, const void *b)
{
	const epi_mxstraight *x = a, *y = b;
	return x->line != y->line ? (x->line > y->line) - (x->line < y->line) : (x->fn > y->fn) - (x->fn < y->fn);
}

/* The first of M's xstraight at LINE or after it. */
static int first_x(const epi_mmodel *m, int line)
{
	int lo = 0, hi = m->nxstraight;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (m->xstraight[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The code of M's nests inlined into other functions and in no machine
 * loop (M's insn_nest marks its own nests' already): M's xstraight. */
static void inlined_straight(epi_mmodel *m)
{
	const epi_object *o = &m->obj;
	int cap = 0;
	free(m->xstraight);
	m->xstraight = NULL;
	m->nxstraight = 0;
	for (int f = 0; f < o->nfn; f++)
		for (int i = o->fn[f].first; i < o->fn[f].first + o->fn[f].n; i++) {
			int t = o->loop_of[i] < 0 && m->insn_nest[i] < 0 ? nest_at(m, o->line[i]) : -1;
			if (t < 0)
				continue;
			m->insn_nest[i] = t;
			int k = m->nxstraight - 1;
			while (k >= 0 && m->xstraight[k].fn == f && m->xstraight[k].nest != t)
				k--;
			if (k < 0 || m->xstraight[k].fn != f) {
				ALLOC_GROW(m->xstraight, m->nxstraight + 1, cap);
				k = m->nxstraight++;
				m->xstraight[k] = (epi_mxstraight){.line = m->loops[t].line, .fn = f, .nest = t};
			}
			epi_mix_insn(&m->xstraight[k].mix, &o->in[i], o->weight[i], o->frame[i]);
		}
	if (m->nxstraight > 1)
		qsort(m->xstraight, (size_t)m->nxstraight, sizeof *m->xstraight, by_xline);
}

/* What M's machine loops' sources give: each one's nest, the index by
 * nest, the nests by line, the loops on other nests' lines. */
static void link_nests(epi_mmodel *m)
{
	free(m->nest_line);
	free(m->by_nest);
	free(m->nest_at);
	free(m->cross);
	free(m->insn_cross);
	m->by_nest = NULL;
	m->cross = NULL;
	m->insn_cross = NULL;
	m->nby_nest = m->ncross = 0;
	m->nest_line = xcalloc((size_t)m->obj.nloop + 1, sizeof *m->nest_line);
	for (int l = 0; l < m->obj.nloop; l++) {
		int s = m->obj.loop[l].src;
		while (s >= 0 && m->loops[s].parent >= 0)
			s = m->loops[s].parent;
		m->nest_line[l] = s >= 0 ? m->loops[s].line : 0;
	}
	m->by_nest = xcalloc((size_t)m->obj.nloop + 1, sizeof *m->by_nest);
	for (int l = 0; l < m->obj.nloop; l++)
		if (m->nest_line[l])
			m->by_nest[m->nby_nest++] = (epi_mnest_loop){m->nest_line[l], l};
	qsort(m->by_nest, (size_t)m->nby_nest, sizeof *m->by_nest, by_line);
	nest_lines(m);
	cross_nests(m);
}

void epi_mmodel_link(epi_mmodel *m, epi_nest *loops, int nloops)
{
	m->loops = loops;
	m->nloops = m->nfile = nloops;
	m->nmatched = epi_object_match(&m->obj, m->loops, m->nloops);
	link_nests(m);
}

/* The loop of a header's function K (in A's hloops) that the call on LINE
 * of the source runs, listed in M's loops with its line as A's counts tag
 * it (after the source's), and its loops around it first: its index there. */
static int call_loop(epi_mmodel *m, const epi_analysis *a, int first, int k, int line, int *cap)
{
	int tag = a->syn_base + line * EPI_SYN_LOOPS + (k - first);
	for (int s = m->nfile; s < m->nloops; s++)
		if (m->loops[s].line == tag)
			return s;
	int parent = -1;
	if (a->hloops[k].parent >= first)
		parent = call_loop(m, a, first, a->hloops[k].parent, line, cap);
	else /* the file's innermost loop around the call */
		parent = epi_nest_around(m->loops, m->nfile, line);
	/* its function: the file's function that makes the call (the last to
	 * start on or before its line) */
	const char *in = parent >= 0 ? m->loops[parent].function : NULL;
	for (int r = 0, at = 0; parent < 0 && r < a->nregions; r++)
		if (a->regions[r].scope == EPI_SCOPE_FUNCTION && a->regions[r].line <= line && a->regions[r].line >= at) {
			at = a->regions[r].line;
			in = a->regions[r].function;
		}
	ALLOC_GROW(m->loops, m->nloops + 1, *cap);
	epi_nest *x = &m->loops[m->nloops];
	memset(x, 0, sizeof *x);
	x->file = xstrdup(m->loops[0].file ? m->loops[0].file : "");
	x->function = xstrdup(in ? in : a->hloops[k].function);
	x->line = x->end_line = x->tag = tag;
	x->parent = parent;
	x->depth = parent >= 0 ? m->loops[parent].depth + 1 : 0;
	return m->nloops++;
}

static int by_tag(const void *x, const void *y)
{
	const epi_nest *a = x, *b = y;
	return (a->line > b->line) - (a->line < b->line);
}

/* The machine loops of a header's function inlined by a call of the file,
 * which match no loop of the file: each matched to the loop of that call
 * (its function's loop whose lines hold most of its instructions'), which
 * the analysis A counts with the call's runs (epi_analysis' syn_base).
 * Those loops are listed after the file's, by their tags; a second count
 * starts from the file's loops again. */
static void link_header_loops(epi_mmodel *m, const epi_analysis *a)
{
	epi_object *o = &m->obj;
	for (int l = 0; l < o->nloop; l++)
		if (o->loop[l].src >= m->nfile) {
			o->loop[l].src = -1;
			m->nmatched--;
		}
	for (int s = m->nfile; s < m->nloops; s++) {
		free(m->loops[s].file);
		free(m->loops[s].function);
	}
	int had = m->nloops, cap = m->nloops;
	m->nloops = m->nfile;
	if (!a->syn_base || !a->nhloops || !m->nfile) {
		if (had != m->nloops)
			link_nests(m);
		return;
	}
	/* how many levels of loops each machine loop and each header's loop
	 * holds: a machine loop with loops inside is a loop with as many */
	int *tag = xmalloc(((size_t)o->nloop + 1) * sizeof *tag), *mh = xcalloc((size_t)o->nloop + 1, sizeof *mh),
	    *hh = xcalloc((size_t)a->nhloops + 1, sizeof *hh);
	for (int l = 0; l < o->nloop; l++)
		for (int p = o->loop[l].parent, d = 1; p >= 0; p = o->loop[p].parent, d++)
			mh[p] = mh[p] > d ? mh[p] : d;
	for (int k = 0; k < a->nhloops; k++)
		for (int p = a->hloops[k].parent, d = 1; p >= 0 && p < a->nhloops; p = a->hloops[p].parent, d++)
			hh[p] = hh[p] > d ? hh[p] : d;
	for (int l = 0; l < o->nloop; l++) {
		tag[l] = -1;
		const char *callee = NULL;
		int line = o->loop[l].src < 0 ? epi_object_inlined_at(o, o->in[o->loop[l].head].addr, &callee) : 0;
		if (line <= 0 || line > (INT_MAX - a->syn_base) / EPI_SYN_LOOPS - 1)
			continue;
		int first = 0;
		while (first < a->nhloops && strcmp(a->hloops[first].function, callee) != 0)
			first++;
		/* the callee's innermost loop holding each instruction's line */
		int best = -1, votes = 0;
		int *n = xcalloc(EPI_SYN_LOOPS + 1, sizeof *n);
		for (int i = o->loop[l].first; i <= o->loop[l].last && first < a->nhloops; i++) {
			if (o->loop_of[i] != l || !o->xline[i])
				continue;
			int in = -1;
			for (int k = first; k < a->nhloops && k - first < EPI_SYN_LOOPS &&
					    !strcmp(a->hloops[k].function, callee);
			     k++)
				if (a->hloops[k].line <= o->xline[i] && o->xline[i] <= a->hloops[k].end_line &&
				    hh[k] >= mh[l] && (in < 0 || a->hloops[k].depth > a->hloops[in].depth))
					in = k;
			if (in >= 0 && ++n[in - first] > votes) {
				votes = n[in - first];
				best = in;
			}
		}
		free(n);
		if (best >= 0)
			tag[l] = call_loop(m, a, first, best, line, &cap);
	}
	/* in the order of their tags (each after the loops around it) */
	int nh = m->nloops - m->nfile;
	if (nh > 0) {
		int *old = xmalloc(((size_t)nh + 1) * sizeof *old), *pos = xmalloc(((size_t)nh + 1) * sizeof *pos);
		for (int s = 0; s < nh; s++)
			old[s] = m->loops[m->nfile + s].line;
		qsort(m->loops + m->nfile, (size_t)nh, sizeof *m->loops, by_tag);
		for (int s = 0; s < nh; s++)
			for (int t = 0; t < nh; t++)
				if (m->loops[m->nfile + t].line == old[s])
					pos[s] = m->nfile + t;
		for (int s = m->nfile; s < m->nloops; s++)
			if (m->loops[s].parent >= m->nfile)
				m->loops[s].parent = pos[m->loops[s].parent - m->nfile];
		for (int l = 0; l < o->nloop; l++)
			if (tag[l] >= 0) {
				o->loop[l].src = pos[tag[l] - m->nfile];
				m->nmatched++;
			}
		free(old);
		free(pos);
	}
	free(tag);
	free(mh);
	free(hh);
	if (nh > 0 || had != m->nloops)
		link_nests(m);
}

/* M's machine loops matched to the loops of a parse of SOURCE: 0, or -1
 * with ERR. */
static int link_parsed(epi_mmodel *m, const char *source, const epi_front_opts *fo, char *err)
{
	epi_nest *loops;
	int n;
	if (epi_find_loops(source, fo, &loops, &n, err) < 0)
		return -1;
	epi_mmodel_link(m, loops, n);
	return 0;
}

int epi_mmodel_open(epi_mmodel *m, const char *binary, const char *source, const epi_front_opts *fo, char *err)
{
	if (epi_mmodel_read(m, binary, source, fo, err) < 0)
		return -1;
	return link_parsed(m, source, fo, err);
}

/* An error about the object built from SOURCE names the build rather than
 * its temporary file (BUILT), which the user never saw. */
static void name_build(char *err, const char *built, const char *source)
{
	char quoted[80];
	snprintf(quoted, sizeof quoted, "'%s'", built);
	char *at = strstr(err, quoted);
	if (!at)
		return;
	char rest[EPI_ERRLEN];
	snprintf(rest, sizeof rest, "%s", at + strlen(quoted));
	snprintf(at, EPI_ERRLEN - (size_t)(at - err), "the build of '%s'%s", source, rest);
}

static void *job_run(void *arg)
{
	epi_mmodel_job *j = arg;
	const char *prog = j->binary;
	j->built[0] = 0;
	if (!prog) {
		j->ret = epi_build_object(j->source, j->fo->clang_args, j->fo->nclang_args, j->built,
					  sizeof j->built, j->err);
		if (j->ret < 0)
			return NULL;
		prog = j->built;
	}
	j->ret = epi_mmodel_read(j->m, prog, j->source, j->fo, j->err);
	if (j->built[0]) {
		unlink(j->built); /* read whole: nothing is left behind */
		if (j->ret < 0)
			name_build(j->err, j->built, j->source);
	}
	return NULL;
}

void epi_mmodel_start(epi_mmodel_job *j)
{
	j->threaded = pthread_create(&j->th, NULL, job_run, j) == 0;
	if (!j->threaded)
		job_run(j);
}

/* A note of M's for the analysis, kept for one made afresh. */
static void mmodel_note(epi_mmodel *m, epi_analysis *a, const char *note)
{
	epi_analysis_note(a, note);
	m->notes = xrealloc(m->notes, ((size_t)m->nnotes + 1) * sizeof *m->notes);
	m->notes[m->nnotes++] = xstrdup(note);
}

/* A's note when the program was built with other array sizes than the
 * parse gives (not when built here, with the parse's own flags), and the
 * -D flags that give the program's sizes when some do (M's defs). */
static void sizes_note(const epi_mmodel_job *j, epi_analysis *a)
{
	char first[400];
	int k = j->built[0] ? 0 : epi_object_sizes_differ(&j->m->obj, a->sized, a->nsized, first, sizeof first);
	if (k == 0)
		return;
	char more[48] = "";
	if (k > 1)
		snprintf(more, sizeof more, ", and %d more array%s", k - 1, k > 2 ? "s" : "");
	epi_mmodel *m = j->m;
	char kept[300], note[EPI_ERRLEN];
	int left;
	m->ndefs = epi_sizes_infer(j->source, j->fo, &m->obj, &m->defs, kept, sizeof kept, &left);
	if (m->ndefs == 0) {
		snprintf(note, sizeof note,
			 "'%s' was built with other array sizes than '%s' has as parsed: %s%s. Give the build's -D "
			 "flags after -- : until then the counts and the memory of the loops over them follow the "
			 "source's sizes",
			 m->obj.path, j->source, first, more);
		mmodel_note(m, a, note);
		return;
	}
	char flags[600];
	size_t at = 0;
	flags[0] = 0;
	for (int i = 0; i < m->ndefs && at < sizeof flags; i++)
		at += (size_t)snprintf(flags + at, sizeof flags - at, "%s%s", i ? " " : "", m->defs[i]);
	char also[400] = "";
	if (kept[0])
		snprintf(also, sizeof also, " (%s as the source has %s: no array's size or variable's value tells)",
			 kept, strchr(kept, ',') ? "them" : "it");
	char but[64] = "";
	if (left)
		snprintf(but, sizeof but, " but for %d array%s or variable%s", left, left > 1 ? "s" : "",
			 left > 1 ? "s" : "");
	snprintf(note, sizeof note,
		 "'%s' was built with other array sizes than '%s' has as parsed: %s%s. The source is counted as "
		 "built with %s, which give the sizes and values the program was built with%s%s; the build's own -D "
		 "flags after -- choose",
		 m->obj.path, j->source, first, more, flags, but, also);
	mmodel_note(m, a, note);
}

/* A's notes of the functions the compiler folded into others. */
static void folds_note(const epi_mmodel_job *j, epi_analysis *a)
{
	const epi_object *o = &j->m->obj;
	for (int i = 0; i < o->nfold; i++) {
		char note[600];
		snprintf(note, sizeof note,
			 "the compiler folded %s() into %s(), whose machine code is the same (gcc's -fipa-icf): "
			 "%s() runs %s()'s code, on its lines, where a profile finds the time of both",
			 o->fold_from[i], o->fold_into[i], o->fold_from[i], o->fold_into[i]);
		mmodel_note(j->m, a, note);
	}
}

int epi_mmodel_finish(epi_mmodel_job *j, epi_analysis *a)
{
	if (j->threaded)
		pthread_join(j->th, NULL);
	j->threaded = 0;
	if (j->ret < 0)
		return -1;
	/* the source's loops: the analysis's (taken from it), else a parse */
	if (a) {
		sizes_note(j, a);
		folds_note(j, a);
		epi_mmodel_link(j->m, a->loops, a->nloops);
		a->loops = NULL;
		a->nloops = 0;
	} else if ((j->ret = link_parsed(j->m, j->source, j->fo, j->err)) < 0) {
		return -1;
	}
	return 0;
}

static void runs_free(epi_mmodel *m)
{
	for (int i = 0; i < m->nruns; i++) {
		free(m->runs[i].loop);
		free(m->runs[i].fn);
		free(m->runs[i].touch);
	}
	free(m->runs);
	m->runs = NULL;
	m->nruns = 0;
}

void epi_mmodel_free(epi_mmodel *m)
{
	runs_free(m);
	free(m->straight_fn);
	free(m->straight_mix);
	free(m->nest_entries);
	free(m->insn_nest);
	free(m->straight_by);
	epi_object_free(&m->obj);
	epi_nests_free(m->loops, m->nloops);
	epi_mcount_free(&m->cnt);
	free(m->nest_line);
	free(m->by_nest);
	free(m->cross);
	free(m->insn_cross);
	free(m->nest_at);
	free(m->xstraight);
	free(m->touch_by);
	epi_strv_free(m->defs, m->ndefs);
	epi_strv_free(m->notes, m->nnotes);
	memset(m, 0, sizeof *m);
}

/* The first entry of V (N of them, by line) at LINE or after it. */
static int first_at(const epi_mnest_loop *v, int n, int line)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (v[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A function of the object in the index by name. */
typedef struct named_fn {
	const char *name;
	int f;
} named_fn;

static int by_name(const void *a, const void *b)
{
	return strcmp(((const named_fn *)a)->name, ((const named_fn *)b)->name);
}

/* Indexes for runs_of: the source loops by line, the machine loops by
 * source loop (FIRST[s], then NEXT), the object's functions by name. */
typedef struct run_index {
	epi_mnest_loop *src_by_line;
	int *first, *next;
	named_fn *fn_by_name;
} run_index;

/* The function named NAME (LEN bytes) in V (N of them, by name), -1 none. */
static int fn_named(const named_fn *v, int n, const char *name, size_t len)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		int c = strncmp(v[mid].name, name, len);
		if (c == 0 && v[mid].name[len])
			c = 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strncmp(v[lo].name, name, len) == 0 && !v[lo].name[len] ? v[lo].f : -1;
}

static void add_run(epi_mrun **v, int *n, int at, double runs)
{
	*v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
	(*v)[(*n)++] = (epi_mrun){at, runs};
}

/* The bytes of fresh memory nest S writes first, its calls' (memset,
 * memcpy) included; 0 before the counts. */
static double fresh_bytes(const epi_mmodel *m, int s)
{
	return m->cnt.touch ? m->cnt.touch[s] + m->cnt.touch_call[s] : 0;
}

/* The runs of M's machine code in one run of region R (its loops' own
 * counts evaluated in VALS). */
static void runs_of(const epi_mmodel *m, const run_index *x, const epi_region *r, const double *vals, epi_mruns *out)
{
	const epi_object *o = &m->obj;
	memset(out, 0, sizeof *out);
	out->straight.at = -1;
	out->inlined = r->scope == EPI_SCOPE_FUNCTION && fn_named(x->fn_by_name, o->nfn, r->function, strlen(r->function)) < 0;
	for (int k = 0; out->inlined && k < o->nempty; k++)
		if (strcmp(o->empty[k], r->function) == 0)
			out->inlined = 2;
	if (r->scope == EPI_SCOPE_LOOP) { /* the nest's code in no machine loop, once per entry */
		char ek[32];
		snprintf(ek, sizeof ek, "%%%d/entry", r->line);
		int ei = counts_find(&r->counts, ek);
		for (int j = first_at(x->src_by_line, m->nloops, r->line); ei >= 0 && j < m->nloops &&
									       x->src_by_line[j].line == r->line;
		     j++) {
			int s = x->src_by_line[j].loop;
			if (m->loops[s].parent < 0 && m->straight_fn[s] >= 0 &&
			    strcmp(m->loops[s].function, r->function) == 0)
				out->straight = (epi_mrun){s, vals[ei]};
		}
	}
	for (int k = 0; k < r->counts.n; k++) {
		const char *key = r->counts.key[k], *slash = strchr(key, '/');
		if (key[0] != '%' || !slash || strcmp(slash, "/entry") != 0)
			continue;
		if (slash > key + 2 && slash[-1] == ')' && slash[-2] == '(') { /* a function's calls */
			size_t len = (size_t)(slash - 2 - (key + 1));
			int f = fn_named(x->fn_by_name, o->nfn, key + 1, len);
			/* a callee's own code for the calls made as calls, as the
			 * total counts it (epi_mcount_run): an inlined call runs
			 * the copy in the caller's code, counted there. A
			 * function's own region is one call of its own code */
			int self = r->scope == EPI_SCOPE_FUNCTION && strlen(r->function) == len &&
				   !strncmp(r->function, key + 1, len);
			double made = f >= 0 && !self && m->cnt.share && !isnan(m->cnt.share[f]) ? m->cnt.share[f] : 1;
			if (f >= 0 && vals[k] * made != 0)
				add_run(&out->fn, &out->nfn, f, vals[k] * made);
			continue;
		}
		if (!isdigit((unsigned char)key[1]))
			continue;
		int line = atoi(key + 1); /* the tag (EPI_TAG_NEST) */
		char ik[32];
		snprintf(ik, sizeof ik, "%%%d/iter", line);
		int ii = counts_find(&r->counts, ik);
		double iters = ii < 0 ? 0 : vals[ii], entries = vals[k];
		for (int j = first_at(x->src_by_line, m->nloops, line); j < m->nloops && x->src_by_line[j].line == line;
		     j++) {
			int s = x->src_by_line[j].loop;
			for (int l = x->first[s]; l >= 0; l = x->next[l]) {
				/* each copy of the loop's code for its part of the runs */
				double part = m->cnt.l[l].part;
				double n = epi_mcount_iters(&m->cnt, l, iters * part, entries * part);
				if (n == 0)
					continue;
				add_run(&out->loop, &out->nloop, l, n);
				out->unpriced |= isnan(m->cnt.l[l].iters);
			}
			/* a nest's first writes of fresh memory, its calls' included,
			 * by its share of the entries */
			double all = m->nest_entries[s], fresh = fresh_bytes(m, s);
			if (m->loops[s].parent < 0 && fresh > 0 && all > 0)
				add_run(&out->touch, &out->ntouch, s, fresh * entries / all);
		}
	}
}

/* Whether the analysis A has a header's function NAME (its counts' key
 * "%hdr:NAME/..."): the note below names those apart. */
static int header_fn(const epi_analysis *a, const char *name)
{
	const epi_region *tr = &a->regions[a->nregions - 1];
	size_t n = strlen(name);
	for (int i = 0; i < tr->counts.n; i++)
		if (!strncmp(tr->counts.key[i], "%hdr:", 5) && !strncmp(tr->counts.key[i] + 5, name, n) &&
		    tr->counts.key[i][5 + n] == '/')
			return 1;
	return 0;
}

/* Call sites by callee, then line. */
static int by_callee(const void *x, const void *y)
{
	const epi_call_site *a = *(const epi_call_site *const *)x, *b = *(const epi_call_site *const *)y;
	int c = strcmp(a->callee, b->callee);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* Call sites of one array by their place in it (the object's calls out
 * are in order of line, then callee). */
static int by_place(const void *x, const void *y)
{
	const epi_call_site *a = *(const epi_call_site *const *)x, *b = *(const epi_call_site *const *)y;
	return (a > b) - (a < b);
}

/* A's note of the calls that M's code makes inside the source's loop
 * nests to functions whose code the object does not have (a library's:
 * memcpy, sqrt, printf): the compiled-code model prices the call, not
 * what the callee does. Each callee once, at its first line in a nest. */
static void ext_note(const epi_mmodel *m, epi_analysis *a)
{
	const epi_object *o = &m->obj;
	const epi_call_site **in = xmalloc(((size_t)o->next + 1) * sizeof *in);
	int n = 0, u = 0;
	for (int k = 0; k < o->next; k++)
		if (nest_at(m, o->ext[k].line) >= 0)
			in[n++] = &o->ext[k];
	qsort(in, (size_t)n, sizeof *in, by_callee);
	for (int k = 0; k < n; k++)
		if ((k == 0 || strcmp(in[k - 1]->callee, in[k]->callee)) && !header_fn(a, in[k]->callee))
			in[u++] = in[k];
	qsort(in, (size_t)u, sizeof *in, by_place);
	char list[400];
	int at = 0, shown = 0;
	list[0] = 0;
	for (; shown < u && shown < 4 && at < (int)sizeof list - 80; shown++)
		at += snprintf(list + at, sizeof list - (size_t)at, "%s%s() (line %d)", shown ? ", " : "",
			       in[shown]->callee, in[shown]->line);
	free(in);
	if (!shown)
		return;
	char text[700], tail[48] = "";
	if (u > shown)
		snprintf(tail, sizeof tail, " and %d more", u - shown);
	snprintf(text, sizeof text,
		 "in loop nests the compiled code calls %s%s, whose code is not in '%s' (a library's, or another "
		 "file's): the model prices each call, not the callee's work (the source-level model, --model "
		 "source, prices memcpy, memset, malloc and printf)",
		 list, tail, o->path);
	epi_analysis_note(a, text);
}

/* Notes on the code the model does not price: for each function of the
 * code with machine loops matched to no loop of the source (their runs
 * come from no count of the source: a header's function's loop inlined
 * into the file's, a loop the compiler made), and for each function of
 * the program's headers that the code calls rather than inlines (the
 * object's reading takes the file's functions only). Each note once. */
static void note_unpriced(const epi_mmodel *m, epi_analysis *a)
{
	const epi_object *o = &m->obj;
	int *per_fn = xcalloc((size_t)o->nfn + 1, sizeof *per_fn);
	for (int l = 0; l < o->nloop; l++)
		if (o->loop[l].src < 0 && o->loop[l].fn >= 0 && o->loop[l].fn < o->nfn)
			per_fn[o->loop[l].fn]++;
	const char *base = strrchr(a->file, '/');
	for (int f = 0; f < o->nfn; f++) {
		if (!per_fn[f])
			continue;
		char text[600];
		snprintf(text, sizeof text,
			 "the compiled code of %s() has %d machine loop%s that match%s no loop of %s (a loop of "
			 "another file inlined there, such as a header's function's, or one the compiler made): "
			 "%s not priced",
			 o->fn[f].name, per_fn[f], per_fn[f] == 1 ? "" : "s", per_fn[f] == 1 ? "es" : "",
			 base ? base + 1 : a->file,
			 per_fn[f] == 1 ? "it is" : "they are");
		epi_analysis_note(a, text);
	}
	free(per_fn);
	ext_note(m, a);
	/* calls the code makes (not inlined) to functions that a header of
	 * the program defines, which the source's counts have and the
	 * object's reading leaves out as another file's */
	const epi_region *tr = &a->regions[a->nregions - 1];
	for (int i = 0; i < tr->counts.n; i++) {
		const char *key = tr->counts.key[i], *slash = strrchr(key, '/');
		if (strncmp(key, "%hdr:", 5) != 0 || !slash)
			continue;
		char name[160];
		snprintf(name, sizeof name, "%.*s", (int)(slash - key - 5), key + 5);
		/* a call of it seen (an object file names its callees), or no
		 * copy of it inlined (a program's calls of its own functions
		 * are not named) */
		int called = 0, inlined = 0;
		for (int k = 0; k < o->ncalls; k++)
			if (o->calls[k].callee && !strcmp(o->calls[k].callee, name)) {
				called |= !o->calls[k].inlined;
				inlined |= o->calls[k].inlined;
			}
		if (!called && inlined)
			continue;
		char text[400];
		snprintf(text, sizeof text,
			 "the compiled code calls %s(), a function that a header of the program defines: its code is "
			 "not priced (the source-level counts have its work)",
			 name);
		epi_analysis_note(a, text);
	}
}

void epi_mmodel_count(epi_mmodel *m, epi_analysis *a, const sym_env *env, double *const *vals_in)
{
	link_header_loops(m, a);
	note_unpriced(m, a);
	double **own = vals_in ? NULL : epi_mcount_all_values(a, env);
	double *const *vals = vals_in ? vals_in : own;
	epi_mcount_free(&m->cnt);
	/* the blocks that go with an inner loop's runs as read, then at the
	 * counts (a second count starts from the same object) */
	epi_mcount_gates(NULL, &m->obj);
	epi_mcount_run(&m->cnt, &m->obj, m->loops, m->nloops, a, vals[a->nregions - 1], env);
	epi_mcount_gates(&m->cnt, &m->obj);
	free(m->touch_by);
	m->touch_by = xcalloc((size_t)m->nloops + 1, sizeof *m->touch_by);
	m->ntouch_by = 0;
	for (int s = 0; s < m->nloops && m->cnt.touch; s++)
		if (m->loops[s].parent < 0 && m->cnt.touch[s] > 0)
			m->touch_by[m->ntouch_by++] = (epi_mnest_loop){m->loops[s].line, s};
	qsort(m->touch_by, (size_t)m->ntouch_by, sizeof *m->touch_by, by_line);
	/* each nest's and function's runs of the machine code, from its own
	 * counts of the loops' runs, before those are dropped */
	const epi_object *o = &m->obj;
	run_index x = {.src_by_line = xcalloc((size_t)m->nloops + 1, sizeof *x.src_by_line),
		       .first = xmalloc(((size_t)m->nloops + 1) * sizeof *x.first),
		       .next = xmalloc(((size_t)o->nloop + 1) * sizeof *x.next),
		       .fn_by_name = xmalloc(((size_t)o->nfn + 1) * sizeof *x.fn_by_name)};
	for (int s = 0; s < m->nloops; s++) {
		x.src_by_line[s] = (epi_mnest_loop){m->loops[s].tag, s}; /* by tag: a loop's line where alone on it */
		x.first[s] = -1;
	}
	qsort(x.src_by_line, (size_t)m->nloops, sizeof *x.src_by_line, by_line);
	for (int l = o->nloop - 1; l >= 0; l--) {
		int s = o->loop[l].src;
		x.next[l] = s >= 0 ? x.first[s] : -1;
		if (s >= 0)
			x.first[s] = l;
	}
	for (int f = 0; f < o->nfn; f++)
		x.fn_by_name[f] = (named_fn){o->fn[f].name, f};
	qsort(x.fn_by_name, (size_t)o->nfn, sizeof *x.fn_by_name, by_name);
	/* each top-level nest's code in no machine loop: its set-up, or all of
	 * it when the compiler unrolled it into straight code */
	free(m->straight_fn);
	free(m->straight_mix);
	free(m->nest_entries);
	free(m->insn_nest);
	m->straight_fn = xmalloc(((size_t)m->nloops + 1) * sizeof *m->straight_fn);
	m->straight_mix = xcalloc((size_t)m->nloops + 1, sizeof *m->straight_mix);
	m->nest_entries = xmalloc(((size_t)m->nloops + 1) * sizeof *m->nest_entries);
	m->insn_nest = xmalloc(((size_t)o->nin + 1) * sizeof *m->insn_nest);
	for (int i = 0; i < o->nin; i++)
		m->insn_nest[i] = -1;
	const epi_region *tr = &a->regions[a->nregions - 1];
	/* one pass over each function with top-level nests: an instruction
	 * goes to the nest whose lines it is on, if that nest is the function's */
	char *walk = xcalloc((size_t)o->nfn + 1, 1);
	for (int s = 0; s < m->nloops; s++) {
		int f = m->loops[s].parent < 0 ? fn_named(x.fn_by_name, o->nfn, m->loops[s].function,
							   strlen(m->loops[s].function))
						: -1;
		m->straight_fn[s] = f; /* until its code is found */
		if (f >= 0)
			walk[f] = 1;
	}
	for (int f = 0; f < o->nfn; f++)
		for (int i = o->fn[f].first; walk[f] && i < o->fn[f].first + o->fn[f].n; i++) {
			int s = o->loop_of[i] < 0 ? nest_at(m, o->line[i]) : -1;
			if (s >= 0 && m->straight_fn[s] == f) {
				epi_mix_insn(&m->straight_mix[s], &o->in[i], o->weight[i], o->frame[i]);
				m->insn_nest[i] = s;
			}
		}
	free(walk);
	for (int s = 0; s < m->nloops; s++) {
		if (!(m->straight_mix[s].n > 0))
			m->straight_fn[s] = -1;
		char ek[32];
		snprintf(ek, sizeof ek, "%%%d/entry", m->loops[s].tag);
		int ei = counts_find(&tr->counts, ek);
		m->nest_entries[s] = ei < 0 ? 0 : vals[a->nregions - 1][ei];
	}
	free(m->straight_by);
	m->straight_by = xcalloc((size_t)m->nloops + 1, sizeof *m->straight_by);
	m->nstraight_by = 0;
	for (int s = 0; s < m->nloops; s++)
		if (m->straight_fn[s] >= 0)
			m->straight_by[m->nstraight_by++] = (epi_mnest_loop){m->loops[s].line, s};
	qsort(m->straight_by, (size_t)m->nstraight_by, sizeof *m->straight_by, by_line);
	inlined_straight(m);
	runs_free(m);
	m->regions = a->regions;
	m->nruns = a->nregions;
	m->runs = xcalloc((size_t)a->nregions + 1, sizeof *m->runs);
	for (int i = 0; i < a->nregions; i++) {
		const epi_region *r = &a->regions[i];
		if (r->scope != EPI_SCOPE_LOOP && r->scope != EPI_SCOPE_FUNCTION)
			continue;
		runs_of(m, &x, r, vals[i], &m->runs[i]);
	}
	free(x.src_by_line);
	free(x.first);
	free(x.next);
	free(x.fn_by_name);
	epi_mcount_values_free(own, a->nregions);
	for (int i = 0; i < a->nregions; i++)
		epi_region_drop(&a->sym, &a->regions[i], "%");
}

/* Adds TIMES runs of a stretch priced P (per run) with mix MIX to OUT. */
static void add_runs(epi_mcost *out, const epi_mloop_price *p, const epi_mix *mix, double times, const epi_mcosts *c)
{
	if (!(times > 0))
		return;
	double t = times * p->t, idle_w = c->idle_w;
	out->p.t += t;
	out->p.e += c->energy ? times * p->e_dyn + (isnan(idle_w) ? 0 : idle_w * t) : NAN;
	if (!isnan(idle_w))
		out->p.e_idle = (isnan(out->p.e_idle) ? 0 : out->p.e_idle) + idle_w * t;
	out->bound_t[p->bound] += t;
	for (int b = 0; b < EPI_BOUND_N; b++)
		out->alone_t[b] += times * p->bound_t[b];
	epi_mix_add(&out->mix, mix, times);
}

/* add_runs, a run count not known (NAN: it needs an unbound parameter)
 * making OUT's time and energy unknown: whether TIMES was known. */
static int add_counted_runs(epi_mcost *out, const epi_mloop_price *p, const epi_mix *mix, double times,
			    const epi_mcosts *c)
{
	if (isnan(times)) {
		out->p.t = out->p.e = NAN;
		return 0;
	}
	add_runs(out, p, mix, times, c);
	return 1;
}

struct epi_mprices {
	epi_mcosts c;
	int interpolated;
	epi_mloop_price *loop; /* per machine loop of a nest whose runs are counted */
	epi_mloop_price *fn;   /* per function: its instructions in no loop */
	epi_mloop_price *straight; /* per top-level source loop: its code in no machine loop */
	epi_mloop_price *fn_out;   /* per function: its instructions in no loop nor nest */
	/* of a machine loop's time, the share of its own nest (per machine
	 * loop) and of each other nest on whose lines it has instructions (per
	 * entry of the model's cross), by those instructions' costs */
	double *own_share, *cross_share;
	double *fn_share; /* per machine loop: the share on the lines of no nest, its function's */
	epi_mloop_price *xstraight; /* per entry of the model's xstraight */
};

/* What instruction I (run W times an iteration) weighs in its loop's time,
 * for dividing the time among the nests whose lines it holds: the longer
 * of its throughput and its latency. */
static double insn_weight(const epi_object *o, int i, const epi_mcosts *c)
{
	double tp = epi_mcosts_tp(c, &o->in[i]), lat = epi_mcosts_lat(c, &o->in[i]);
	return o->weight[i] * (tp > lat ? tp : lat);
}

/* The share of machine loop L's time, by its instructions' costs at C,
 * on the lines of the nest on LINE (0: on no nest's lines). */
static double lines_share(const epi_mmodel *m, int l, int line, const epi_mcosts *c)
{
	const epi_object *o = &m->obj;
	double all = 0, mine = 0;
	for (int i = o->loop[l].first; i <= o->loop[l].last; i++) {
		if (o->loop_of[i] != l)
			continue;
		double w = insn_weight(o, i, c);
		int x = m->insn_cross[i];
		all += w;
		if (line ? x >= 0 && m->loops[x].line == line : x == -2)
			mine += w;
	}
	return all > 0 ? mine / all : 0;
}

/* P's own_share, cross_share and fn_share for M's cross. */
static void cross_shares(const epi_mmodel *m, epi_mprices *p)
{
	const epi_object *o = &m->obj;
	p->own_share = xmalloc(((size_t)o->nloop + 1) * sizeof *p->own_share);
	p->cross_share = xcalloc((size_t)m->ncross + 1, sizeof *p->cross_share);
	p->fn_share = xcalloc((size_t)o->nloop + 1, sizeof *p->fn_share);
	for (int l = 0; l < o->nloop; l++) {
		p->fn_share[l] = m->insn_cross && m->nest_line[l] ? lines_share(m, l, 0, &p->c) : 0;
		p->own_share[l] = 1 - p->fn_share[l];
	}
	for (int k = 0; k < m->ncross; k++) {
		p->cross_share[k] = lines_share(m, m->cross[k].loop, m->cross[k].line, &p->c);
		p->own_share[m->cross[k].loop] -= p->cross_share[k];
	}
}

typedef struct price_work {
	const epi_mmodel *m;
	epi_mprices *p;
	const double *round;
} price_work;

/* Prices machine loops LO..HI-1 (each writes only its own price). */
static void price_loops(int lo, int hi, void *ctx)
{
	const price_work *w = ctx;
	const epi_mmodel *m = w->m;
	const epi_object *o = &m->obj;
	for (int l = lo; l < hi; l++) {
		if (!m->nest_line[l] || isnan(m->cnt.l[l].iters))
			continue;
		int up = o->loop[l].parent, src = o->loop[l].src;
		const epi_nest *sl = src >= 0 && src < m->nloops ? &m->loops[src] : NULL;
		epi_msweep sw = {.trip = m->cnt.l[l].trip,
				 .outer_trip = up >= 0 ? m->cnt.l[up].trip : NAN,
				 .round = up >= 0 ? w->round[up] : NAN,
				 .spread = m->cnt.l[l].spread,
				 .outer_spread = up >= 0 ? m->cnt.l[up].spread : 0,
				 .refs = sl ? sl->refs : 0,
				 .arrays = sl ? sl->arrays : 0};
		epi_mprice_loop(o, l, &sw, &w->p->c, &w->p->loop[l]);
	}
	epi_mflow_release();
}

void epi_mmodel_machine(epi_mmodel *m, const epi_table *t)
{
	memcpy(m->cache, t->cache, sizeof m->cache);
	m->l3_serves = t->l3_serves;
	m->tlb_pages = t->tlb_pages;
}

epi_mprices *epi_mmodel_prices(const epi_mmodel *m, const epi_fcol *col)
{
	const epi_object *o = &m->obj;
	epi_mprices *p = xcalloc(1, sizeof *p);
	epi_mcosts_from(&p->c, col, m->cache, m->l3_serves, m->tlb_pages);
	p->interpolated = col->interpolated;
	p->loop = xcalloc((size_t)o->nloop + 1, sizeof *p->loop);
	p->fn = xcalloc((size_t)o->nfn + 1, sizeof *p->fn);
	for (int f = 0; f < o->nfn; f++)
		epi_mprice_fn(o, f, &p->c, &p->fn[f]);
	cross_shares(m, p);
	p->straight = xcalloc((size_t)m->nloops + 1, sizeof *p->straight);
	p->fn_out = xcalloc((size_t)o->nfn + 1, sizeof *p->fn_out);
	for (int s = 0; m->straight_fn && s < m->nloops; s++)
		if (m->straight_fn[s] >= 0)
			epi_mprice_sel(o, m->straight_fn[s], m->insn_nest, s, &p->c, &p->straight[s]);
	p->xstraight = xcalloc((size_t)m->nxstraight + 1, sizeof *p->xstraight);
	for (int k = 0; k < m->nxstraight; k++)
		epi_mprice_sel(o, m->xstraight[k].fn, m->insn_nest, m->xstraight[k].nest, &p->c, &p->xstraight[k]);
	for (int f = 0; f < o->nfn; f++)
		if (m->insn_nest)
			epi_mprice_sel(o, f, m->insn_nest, -1, &p->c, &p->fn_out[f]);
		else
			p->fn_out[f] = p->fn[f];
	if (!m->cnt.l)
		return p;
	/* per loop: the bytes one of its iterations touches through the
	 * loops directly inside it */
	double *round = xcalloc((size_t)o->nloop + 1, sizeof *round);
	double *trip = xcalloc((size_t)o->nloop + 1, sizeof *trip);
	for (int l = 0; l < o->nloop; l++)
		if (o->loop[l].parent >= 0 && m->nest_line[l] && m->cnt.l[l].trip > 0)
			trip[l] = m->cnt.l[l].trip;
	epi_mround_bytes(o, trip, round);
	free(trip);
	epi_in_blocks(o->nloop, 16, price_loops, &(price_work){m, p, round});
	free(round);
	return p;
}

void epi_mprices_free(epi_mprices *p)
{
	if (!p)
		return;
	free(p->loop);
	free(p->fn);
	free(p->straight);
	free(p->fn_out);
	free(p->own_share);
	free(p->cross_share);
	free(p->fn_share);
	free(p->xstraight);
	free(p);
}

static void cost_init(epi_mcost *out, const epi_mprices *p)
{
	memset(out, 0, sizeof *out);
	out->p.e_idle = NAN;
	out->p.e_sd = out->p.t_sd = NAN;
	out->p.interpolated = p->interpolated;
}

/* Adds the machine loops of the nest on LINE (0: all) over their runs;
 * NAN when a run count needs an unbound parameter. A nest's share of a
 * machine loop is what its lines hold of it: the loop's own nest's less
 * what is on another nest's lines, which that nest takes. */
static void add_loops(const epi_mmodel *m, const epi_mprices *p, int line, epi_mcost *out)
{
	if (!m->cnt.l)
		return;
	for (int k = line ? first_at(m->by_nest, m->nby_nest, line) : 0; k < m->nby_nest && (!line || m->by_nest[k].line == line); k++) {
		int l = m->by_nest[k].loop;
		double it = m->cnt.l[l].iters;
		if (isnan(it)) {
			out->p.t = out->p.e = NAN;
			continue;
		}
		add_runs(out, &p->loop[l], &m->obj.loop[l].own, line ? it * p->own_share[l] : it, &p->c);
		out->nloops += it > 0;
	}
	for (int k = line ? first_at(m->cross, m->ncross, line) : m->ncross; k < m->ncross && m->cross[k].line == line; k++) {
		int l = m->cross[k].loop;
		if (!add_counted_runs(out, &p->loop[l], &m->obj.loop[l].own, m->cnt.l[l].iters * p->cross_share[k], &p->c))
			continue;
	}
}

/* Adds the first writes of BYTES of fresh memory to OUT. */
static void add_touch_of(double bytes, const epi_mcosts *c, epi_mcost *out)
{
	double t = bytes * c->touch;
	out->p.t += t;
	if (!isnan(c->idle_w) && c->energy)
		out->p.e += c->idle_w * t;
	out->bound_t[EPI_BOUND_PAGES] += t;
	out->alone_t[EPI_BOUND_PAGES] += t;
}

/* The first writes of fresh memory by the nest on LINE, its own code's
 * (what a profile samples on its lines); 0: every nest's, their calls'
 * (memset, memcpy) included. */
static void add_touch(const epi_mmodel *m, int line, const epi_mcosts *c, epi_mcost *out)
{
	if (!line) {
		for (int s = 0; s < m->nloops; s++)
			if (m->loops[s].parent < 0 && fresh_bytes(m, s) > 0)
				add_touch_of(fresh_bytes(m, s), c, out);
		return;
	}
	for (int k = first_at(m->touch_by, m->ntouch_by, line); k < m->ntouch_by && m->touch_by[k].line == line; k++)
		add_touch_of(m->cnt.touch[m->touch_by[k].loop], c, out);
}

void epi_mmodel_nest(const epi_mmodel *m, const epi_mprices *p, int line, epi_mcost *out)
{
	cost_init(out, p);
	add_loops(m, p, line, out);
	add_touch(m, line, &p->c, out);
	for (int k = first_at(m->straight_by, m->nstraight_by, line); k < m->nstraight_by && m->straight_by[k].line == line;
	     k++) {
		int s = m->straight_by[k].loop;
		add_counted_runs(out, &p->straight[s], &m->straight_mix[s], m->nest_entries[s], &p->c);
	}
	for (int k = first_x(m, line); k < m->nxstraight && m->xstraight[k].line == line && m->cnt.calls; k++)
		add_counted_runs(out, &p->xstraight[k], &m->xstraight[k].mix, m->cnt.calls[m->xstraight[k].fn], &p->c);
}

void epi_mmodel_region(const epi_mmodel *m, const epi_mprices *p, const epi_region *r, epi_mcost *out)
{
	long i = r - m->regions;
	if (!m->regions || i < 0 || i >= m->nruns || (r->scope != EPI_SCOPE_LOOP && r->scope != EPI_SCOPE_FUNCTION)) {
		epi_mmodel_total(m, p, out);
		return;
	}
	const epi_mruns *x = &m->runs[i];
	cost_init(out, p);
	for (int k = 0; k < x->nloop; k++) {
		int l = x->loop[k].at;
		out->nloops += add_counted_runs(out, &p->loop[l], &m->obj.loop[l].own, x->loop[k].n, &p->c);
	}
	for (int k = 0; k < x->nfn; k++)
		add_counted_runs(out, &p->fn[x->fn[k].at], &m->obj.fn[x->fn[k].at].own, x->fn[k].n, &p->c);
	for (int k = 0; k < x->ntouch; k++)
		add_touch_of(x->touch[k].n, &p->c, out);
	if (x->straight.at >= 0)
		add_counted_runs(out, &p->straight[x->straight.at], &m->straight_mix[x->straight.at], x->straight.n,
				 &p->c);
	if (x->unpriced || x->inlined)
		out->p.t = out->p.e = NAN;
	out->inlined = x->inlined;
}

void epi_mmodel_function(const epi_mmodel *m, const epi_mprices *p, const char *function, epi_mcost *out)
{
	cost_init(out, p);
	for (int f = 0; f < m->obj.nfn; f++)
		if (m->cnt.calls && strcmp(m->obj.fn[f].name, function) == 0)
			add_runs(out, &p->fn_out[f], &m->obj.fn[f].own, m->cnt.calls[f], &p->c);
	/* what its machine loops hold on the lines of no nest */
	for (int l = 0; l < m->obj.nloop && m->cnt.l; l++)
		if (p->fn_share[l] > 0 && strcmp(m->obj.fn[m->obj.loop[l].fn].name, function) == 0)
			add_counted_runs(out, &p->loop[l], &m->obj.loop[l].own, m->cnt.l[l].iters * p->fn_share[l], &p->c);
}

double epi_mmodel_self_instructions(const epi_mmodel *m, const char *function)
{
	const epi_object *o = &m->obj;
	double n = 0;
	for (int f = 0; f < o->nfn && m->cnt.calls; f++)
		if (strcmp(o->fn[f].name, function) == 0)
			n += m->cnt.calls[f] * o->fn[f].own.n;
	for (int l = 0; l < o->nloop && m->cnt.l; l++)
		if (m->nest_line[l] && strcmp(o->fn[o->loop[l].fn].name, function) == 0)
			n += m->cnt.l[l].iters * o->loop[l].own.n;
	return n;
}

void epi_mmodel_total(const epi_mmodel *m, const epi_mprices *p, epi_mcost *out)
{
	cost_init(out, p);
	add_loops(m, p, 0, out);
	add_touch(m, 0, &p->c, out);
	for (int f = 0; f < m->obj.nfn && m->cnt.calls; f++)
		add_counted_runs(out, &p->fn[f], &m->obj.fn[f].own, m->cnt.calls[f], &p->c);
}

void epi_mcost_add(epi_mcost *dst, const epi_mcost *src)
{
	dst->p.t += src->p.t;
	dst->p.e += src->p.e;
	if (!isnan(src->p.e_idle))
		dst->p.e_idle = (isnan(dst->p.e_idle) ? 0 : dst->p.e_idle) + src->p.e_idle;
	for (int b = 0; b < EPI_BOUND_N; b++) {
		dst->bound_t[b] += src->bound_t[b];
		dst->alone_t[b] += src->alone_t[b];
	}
	epi_mix_add(&dst->mix, &src->mix, 1);
	dst->nloops += src->nloops;
}

enum epi_bound epi_mcost_bound(const epi_mcost *c)
{
	int b = 0;
	for (int i = 1; i < EPI_BOUND_N; i++)
		if (c->bound_t[i] > c->bound_t[b])
			b = i;
	return b;
}

void epi_mmodel_describe(const epi_mmodel *m, char *out, size_t n)
{
	int k = snprintf(out, n, "compiled code of %s (%s, %d machine loop%s, %d matched to the source", m->obj.path,
			 epi_machine_name(m->obj.machine), m->obj.nloop, m->obj.nloop == 1 ? "" : "s", m->nmatched);
	if (m->obj.nother && k > 0 && (size_t)k < n)
		k += snprintf(out + k, n - (size_t)k, "; %d instruction%s the decoder does not know, counted as other",
			      m->obj.nother, m->obj.nother == 1 ? "" : "s");
	if (k > 0 && (size_t)k < n)
		snprintf(out + k, n - (size_t)k, ")");
}

static int site_cmp(const void *a, const void *b)
{
	const epi_call_site *x = a, *y = b;
	return x->line != y->line ? (x->line > y->line) - (x->line < y->line) : strcmp(x->callee, y->callee);
}


/* The call sites that A's counts list ("%call:LINE:CALLEE/site", in its
 * functions and its total), each once, into *N. */
static epi_call_site *call_sites(const epi_analysis *a, int *n)
{
	epi_call_site *v = NULL;
	int cap = 0;
	*n = 0;
	for (int r = 0; r < a->nregions; r++) {
		const epi_counts *c = &a->regions[r].counts;
		if (a->regions[r].scope == EPI_SCOPE_LOOP)
			continue;
		for (int k = 0; k < c->n; k++) {
			int line;
			const char *name;
			size_t len;
			if (!epi_call_site_key(c->key[k], &line, &name, &len))
				continue;
			ALLOC_GROW(v, *n + 1, cap);
			v[(*n)++] = (epi_call_site){line, xstrndup(name, len), 0, -1, 0};
		}
	}
	if (*n > 1)
		qsort(v, (size_t)*n, sizeof *v, site_cmp);
	int k = 0;
	for (int i = 0; i < *n; i++)
		if (k && site_cmp(&v[k - 1], &v[i]) == 0)
			free(v[i].callee);
		else
			v[k++] = v[i];
	*n = k;
	return v;
}

/* Whether FUNCTION's calls are made in code the object does not show as
 * its: it was merged with an identical function (at one address), or has
 * neither code of its own nor a copy inlined anywhere (its code compiled
 * as another's, or never run). */
static int merged(const epi_mmodel *m, const char *function)
{
	const epi_object *o = &m->obj;
	int seen = 0;
	for (int f = 0; f < o->nfn; f++)
		if (strcmp(o->fn[f].name, function) == 0) {
			if (o->fn[f].alias >= 0)
				return 1;
			seen = 1;
		}
	return !seen && !epi_object_inlined(o, function);
}

/* The call sites in G's own code (not in the functions it calls) that
 * DEAD marks among SITES (N, by site_cmp): unmarked, *NDEAD less. */
static void keep_own_sites(const epi_analysis *a, const epi_region *g, const epi_call_site *sites, int n, char *dead,
			   int *ndead)
{
	for (int k = 0; k < g->counts.n; k++) {
		epi_call_site key;
		const char *callee;
		size_t len;
		char name[256];
		if (!epi_call_site_key(g->counts.key[k], &key.line, &callee, &len))
			continue;
		snprintf(name, sizeof name, "%.*s", (int)len, callee);
		key.callee = name;
		const epi_call_site *at = bsearch(&key, sites, (size_t)n, sizeof *sites, site_cmp);
		if (!at || !dead[at - sites])
			continue;
		/* a site of a function G calls is in that function's region too */
		int own = 1;
		for (int j = 0; j < g->counts.n && own; j++) {
			int line;
			const char *c2;
			size_t l2;
			if (!epi_call_site_key(g->counts.key[j], &line, &c2, &l2) || (l2 == strlen(g->function) &&
									   !strncmp(c2, g->function, l2)))
				continue;
			for (int r = 0; r < a->nregions && own; r++) {
				const epi_region *h = &a->regions[r];
				own = !(h->scope == EPI_SCOPE_FUNCTION && strlen(h->function) == l2 &&
					!strncmp(h->function, c2, l2) && counts_find(&h->counts, g->counts.key[k]) >= 0);
			}
		}
		if (own) {
			dead[at - sites] = 0;
			--*ndead;
		}
	}
}

/* For call site SITE of the source (ONLY: its callee's only site): the
 * line of the outermost loop around it that the compiled code moved the
 * call out of (every call of its callee on its line outside that loop's
 * machine loops, which exist), or 0 when it was not (or an inlined copy
 * or a call in an unmatched loop leaves it unknown). */
static int hoisted_out_of(const epi_mmodel *m, const epi_call_site *site, int only)
{
	const epi_object *o = &m->obj;
	/* the innermost source loop around the site */
	int s = epi_nest_around(m->loops, m->nloops, site->line);
	if (s < 0)
		return 0;
	int machine = 0;
	for (int l = 0; l < o->nloop && !machine; l++)
		machine = o->loop[l].src >= 0 && epi_nest_within(m->loops, o->loop[l].src, s);
	/* its callee's calls on its line; when there are none and it is the
	 * callee's only site, all the callee's calls (a compiler may give a
	 * call it moved the line of the code it moved it to) */
	int line = site->line;
	if (only && !epi_object_calls_on(o, site->callee, line, 1))
		line = INT_MIN;
	int calls = 0, around = -1, first = 1; /* the innermost source loop holding a call */
	for (int k = epi_object_first_call(o, site->callee, line);
	     k < o->ncalls && o->calls[k].callee && !strcmp(o->calls[k].callee, site->callee) &&
	     (line == INT_MIN || o->calls[k].line == line);
	     k++) {
		if (o->calls[k].inlined)
			return 0;
		int l = o->loop_of[o->calls[k].at], t = l >= 0 ? o->loop[l].src : -1;
		if ((l >= 0 && t < 0) || (t >= 0 && epi_nest_within(m->loops, t, s)) || (t >= 0 && !epi_nest_within(m->loops, s, t)))
			return 0; /* in no matched loop, in the site's loop, or beside it */
		if (first || (t >= 0 && (around < 0 || m->loops[t].depth > m->loops[around].depth)))
			around = t;
		first = 0;
		calls++;
	}
	/* no machine loop of the site's: unrolled, its calls repeated in
	 * straight code; unless its callee is called once, on its line and in
	 * no loop: the call moved out and the loop gone (a pure function's
	 * result multiplied by the trip count) */
	if (!calls || (!machine && (line != site->line || calls != 1 || around >= 0)))
		return 0;
	int h = s;
	while (m->loops[h].parent != around)
		h = m->loops[h].parent;
	return m->loops[h].line;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether NAME is once among NAMES (N, in order). */
static int only_one(const char **names, int n, const char *name)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(names[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(names[lo], name) && (lo + 1 == n || strcmp(names[lo + 1], name) != 0);
}

int epi_mmodel_reanalyze(const epi_mmodel *m, epi_analysis *a, const char *source, const epi_front_opts *fo,
			 const char *const *params, int nparams, sym_env *env, int *redone, char *err)
{
	int n, nd;
	epi_call_site *sites = call_sites(a, &n);
	char *dead = xmalloc((size_t)n + 1);
	int *ndead = &nd;
	nd = epi_object_dead_calls(&m->obj, sites, n, dead);
	/* a function merged into an identical one makes its calls in that
	 * one's code, on its lines, and one with no code to show (merged
	 * where the debug information does not say, or never run) makes
	 * them where it cannot be seen: none of its own calls is taken for
	 * removed */
	for (int r = 0; r < a->nregions && *ndead; r++) {
		const epi_region *g = &a->regions[r];
		if (g->scope == EPI_SCOPE_FUNCTION && merged(m, g->function))
			keep_own_sites(a, g, sites, n, dead, ndead);
	}
	/* the removed calls, and the calls moved out of loops (copies that
	 * share SITES' names) */
	epi_call_site *removed = xmalloc(((size_t)n + 1) * sizeof *removed),
		      *hoisted = xmalloc(((size_t)n + 1) * sizeof *hoisted);
	int nr = 0, nh = 0;
	/* the callees by name: whether a site is its callee's only one */
	const char **names = xmalloc(((size_t)n + 1) * sizeof *names);
	for (int i = 0; i < n; i++)
		names[i] = sites[i].callee;
	qsort(names, (size_t)n, sizeof *names, name_cmp);
	for (int i = 0; i < n; i++) {
		if (dead[i])
			removed[nr++] = sites[i];
		else if ((sites[i].out_of = hoisted_out_of(m, &sites[i], only_one(names, n, sites[i].callee))) > 0)
			hoisted[nh++] = sites[i];
	}
	int code = 0;
	*redone = nr || nh || m->ndefs;
	if (*redone) {
		epi_front_opts again = *fo;
		again.dead_calls = removed;
		again.ndead_calls = nr;
		again.hoisted_calls = hoisted;
		again.nhoisted_calls = nh;
		const char **args = epi_strv_join(fo->clang_args, fo->nclang_args, m->defs, m->ndefs);
		again.clang_args = args;
		again.nclang_args = fo->nclang_args + m->ndefs;
		epi_analysis_free(a);
		sym_env_clear(env);
		code = epi_analyze_bind(a, source, &again, params, nparams, env, err);
		free(args);
		epi_nests_free(a->loops, a->nloops);
		a->loops = NULL;
		a->nloops = 0;
		for (int i = 0; i < m->nnotes; i++)
			epi_analysis_note(a, m->notes[i]);
	}
	for (int i = 0; i < n; i++)
		free(sites[i].callee);
	free(sites);
	free(names);
	free(removed);
	free(hoisted);
	free(dead);
	return code;
}
