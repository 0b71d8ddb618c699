/* mcount: how often each machine loop runs (see mcount.h). */
#include "predict/mcount.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ops.h"
#include "model/util.h"
#include "predict/counts.h"

/* The counts of a region that the machine counts read: the loops' and
 * functions' entries and the loops' iterations; the total's also its
 * loops' work sums and the bytes allocated. */
static int read_key(const char *key, int total)
{
	if (key[0] != '%')
		return total && strcmp(key, "malloc") == 0;
	const char *sum = strrchr(key, '/');
	return total || (sum && (strcmp(sum, "/entry") == 0 || strcmp(sum, "/iter") == 0));
}

/* The values of R's counts that the machine counts read, by their index
 * in R (NAN for the others, and where a parameter is unbound); TOTAL: R is
 * the program's total, or a region whose loops' work sums are read as
 * the total's are. */
static double *values_of(epi_analysis *a, const epi_region *r, const sym_env *env, int total)
{
	double *v = xmalloc(((size_t)r->counts.n + 1) * sizeof *v);
	fmpq_t q;
	fmpq_init(q);
	for (int i = 0; i < r->counts.n; i++) {
		int missing;
		v[i] = !read_key(r->counts.key[i], total)				 ? NAN
		       : sym_pw_eval(&a->sym, &r->counts.v[i].exp, env, q, &missing) < 0 ? NAN
										   : fmpq_get_d(q);
	}
	fmpq_clear(q);
	return v;
}

double **epi_mcount_all_values(epi_analysis *a, const sym_env *env)
{
	double **v = xcalloc((size_t)a->nregions + 1, sizeof *v);
	for (int i = 0; i < a->nregions; i++)
		v[i] = values_of(a, &a->regions[i], env, i == a->nregions - 1);
	return v;
}

void epi_mcount_values_free(double **v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* The count KEY of region R in VALS (its values_of): 0 when it has none. */
static double tag_value(const epi_region *total, const double *vals, const char *key)
{
	int i = counts_find(&total->counts, key);
	return i < 0 ? 0 : vals[i];
}

/* Source work per iteration of loop L that the machine code of L's own
 * machine loops does: L's own floating-point operations and stores, with
 * those of loops inside L that no machine loop was matched to (unrolled
 * into L's body), per iteration of L. */
typedef struct per_iter {
	double flops, store_bytes, load_bytes;
} per_iter;

/* Each loop's own work over the run (its %TAG/ counts), by tag: one pass
 * over the total's counts. */
typedef struct by_tag {
	int *tag; /* ascending */
	per_iter *w;
	int n;
} by_tag;

static int int_cmp(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	return (a > b) - (a < b);
}

/* The index of TAG in B, or -1. */
static int tag_at(const by_tag *b, int tag)
{
	const int *at = bsearch(&tag, b->tag, (size_t)b->n, sizeof *b->tag, int_cmp);
	return at ? (int)(at - b->tag) : -1;
}

static void own_work(by_tag *b, const epi_region *total, const double *vals)
{
	b->n = 0;
	b->tag = xmalloc(((size_t)total->counts.n + 1) * sizeof *b->tag);
	for (int i = 0; i < total->counts.n; i++)
		if (total->counts.key[i][0] == '%' && isdigit((unsigned char)total->counts.key[i][1]))
			b->tag[b->n++] = atoi(total->counts.key[i] + 1);
	qsort(b->tag, (size_t)b->n, sizeof *b->tag, int_cmp);
	int n = 0;
	for (int i = 0; i < b->n; i++)
		if (n == 0 || b->tag[i] != b->tag[n - 1])
			b->tag[n++] = b->tag[i];
	b->n = n;
	b->w = xcalloc((size_t)n + 1, sizeof *b->w);
	for (int i = 0; i < total->counts.n; i++) {
		const char *key = total->counts.key[i], *sum = strchr(key, '/');
		if (key[0] != '%' || !isdigit((unsigned char)key[1]) || !sum)
			continue;
		per_iter *p = &b->w[tag_at(b, atoi(key + 1))];
		double *to = strcmp(sum, "/store_bytes") == 0 ? &p->store_bytes
			     : strcmp(sum, "/load_bytes") == 0	 ? &p->load_bytes
			     : strcmp(sum, "/flops") == 0	 ? &p->flops
								 : NULL;
		double v = to ? vals[i] : NAN;
		if (!isnan(v))
			*to += v;
	}
}

/* P += the own work of the loop tagged TAG. */
static void add_own(per_iter *p, const by_tag *b, int tag)
{
	int k = tag_at(b, tag);
	if (k < 0)
		return;
	const per_iter *x = &b->w[k];
	p->flops += x->flops;
	p->store_bytes += x->store_bytes;
	p->load_bytes += x->load_bytes;
}

/* Source iterations per machine iteration of a machine loop of source
 * loop L whose own work an iteration is OWN: the ratio of that work to the
 * work of one source iteration, for the first kind of work both have (the
 * bytes stored, which a compiler neither adds nor hoists out of the loop
 * unless it moves the store out altogether; then floating point
 * operations, which compilers keep without -ffast-math but may hoist when
 * invariant; then loads), the next that gives a whole ratio where it does
 * not; with none of these (work in registers only), the source loop's
 * trip count TRIP per entry over the machine loop's MTRIP, when both are
 * constants; else 1. When both are constants and one divides the other
 * within 1 of the work's ratio, the quotient. */
static double ratio(const epi_mix *own, const per_iter *src, double trip, int64_t mtrip)
{
	double by[3] = {src->store_bytes > 0 && own->store_bytes > 0 ? own->store_bytes / src->store_bytes : 0,
			src->flops > 0 && own->flops > 0 ? own->flops / src->flops : 0,
			src->load_bytes > 0 && own->load_bytes > 0 ? own->load_bytes / src->load_bytes : 0};
	double r = by[0] > 0 ? by[0] : by[1] > 0 ? by[1] : by[2];
	/* a factor is whole: where the first kind's ratio is not (a store
	 * the compiler moved out of the loop into a call of memset), the
	 * next kind whose ratio is */
	for (int k = 1; k < 3 && r >= 1.5 && fabs(r - floor(r + 0.5)) > 0.2; k++)
		if (by[k] >= 1 && fabs(by[k] - floor(by[k] + 0.5)) < 0.05)
			r = by[k];
	if (!(r > 0) && mtrip > 0 && trip > 0)
		r = floor(trip / (double)mtrip + 1e-9); /* register work only: by the trip counts */
	/* both trip counts constants that divide exactly, near the work's
	 * ratio: theirs is exact (the work's can count a float induction
	 * variable's adds, which the source does not have). Or where the
	 * work's ratio is under one: a machine iteration doing less than a
	 * source iteration's work is the source's work shared (a value the
	 * source reads three times, loaded once), or not whole (a store the
	 * compiler found needless, of a zero to memory that holds zeros) */
	double exact = mtrip > 0 && trip > 0 ? trip / (double)mtrip : 0;
	if (exact >= 1 && fabs(exact - floor(exact + 0.5)) < 1e-9 &&
	    (fabs(exact - r) <= 1 || (r > 0 && r < 1) || fabs(r - floor(r + 0.5)) > 0.2))
		return floor(exact + 0.5);
	return r < 1.5 ? 1 : floor(r + 0.5);
}

/* The work of machine loop L's own instructions that is source loop S's
 * own: less what is on the lines of a loop inside S that has machine
 * loops of its own (HAS), which a compiler leaves in L's body when it
 * peels that loop's first or last iterations (a vector loop's remainder
 * as straight code): their work is the inner loop's. */
static epi_mix own_work_of(const epi_object *o, int l, const epi_nest *loops, int nloops, int s, const int *has)
{
	epi_mix m = {0};
	for (int i = o->loop[l].first; i <= o->loop[l].last; i++) {
		if (o->loop_of[i] != l)
			continue;
		int inner = 0;
		for (int c = s + 1; c < nloops && loops[c].line <= loops[s].end_line && !inner; c++)
			inner = has[c] && o->line[i] >= loops[c].line && o->line[i] <= loops[c].end_line &&
				epi_nest_within(loops, c, s);
		if (!inner && !o->dispatch[i]) /* a jump table's entry is no source work */
			epi_mix_insn(&m, &o->in[i], o->weight[i], o->frame[i]);
	}
	return m;
}

/* The top-level source loop of machine loop L, or -1. */
static int nest_of(const epi_object *o, const epi_nest *loops, int l)
{
	int s = o->loop[l].src;
	while (s >= 0 && loops[s].parent >= 0)
		s = loops[s].parent;
	return s;
}

/* The order in which the program first runs its top-level nests: main's
 * code in address order, a call to a function of the program followed
 * into it the first time, a nest at its first machine loop, or at its
 * first instruction (AT: the top-level nest of each instruction's line)
 * where it has none (HAS: a loop the compiler made a call to memset, or
 * straight code). */
static void first_runs(const epi_object *o, const epi_nest *loops, const int *head, const int *at, const int *has,
		       int f, char *fseen, char *nseen, int *order, int *n)
{
	fseen[f] = 1;
	const epi_mfn *fn = &o->fn[f];
	for (int i = fn->first; i < fn->first + fn->n; i++) {
		int s = head[i] >= 0 ? nest_of(o, loops, head[i]) : at[i] >= 0 && !has[at[i]] ? at[i] : -1;
		if (s >= 0 && !nseen[s]) {
			nseen[s] = 1;
			order[(*n)++] = s;
		}
		const epi_insn *in = &o->in[i];
		if (in->klass != EPI_IC_CALL || !in->direct)
			continue;
		for (int g = 0; g < o->nfn; g++)
			if (!fseen[g] && o->in[o->fn[g].first].addr == in->target)
				first_runs(o, loops, head, at, has, g, fseen, nseen, order, n);
	}
}

/* The bytes the stores of each top-level nest's machine loops write, into
 * BYTES (per source loop; NAN for a nest none of whose machine loops is
 * counted), a place written again counted once where the strides tell: a
 * store that stays in place over its loop's iterations (x[i] -= ... in a
 * loop over j) or over the loop around it (y[j] += ... in a loop over j
 * inside one over i) writes its loop's trip count, or the outer one's,
 * times fewer bytes. Stack slots are not counted, nor stores of what the
 * iteration read there (a[i] -= x: memory written before). */
static void written_bytes(const epi_mcount *m, const epi_object *o, const epi_nest *loops, int nloops, double *bytes)
{
	for (int s = 0; s < nloops; s++)
		bytes[s] = NAN;
	for (int l = 0; l < o->nloop; l++) {
		const epi_mloop_count *c = &m->l[l];
		int s = nest_of(o, loops, l);
		if (s < 0 || isnan(c->iters))
			continue;
		if (isnan(bytes[s]))
			bytes[s] = 0;
		if (!(c->iters > 0))
			continue;
		int up = o->loop[l].parent;
		double trip = c->trip, outer = up >= 0 ? m->l[up].trip : NAN;
		for (int i = o->loop[l].first; i <= o->loop[l].last; i++) {
			const epi_insn *in = &o->in[i];
			if (o->loop_of[i] != l || !in->stores || o->frame[i] || o->rmw[i])
				continue;
			double n = c->iters * o->weight[i];
			if (o->stride[i] == 0 && trip > 1)
				n /= trip;
			if (o->outer_stride[i] == 0 && outer > 1)
				n /= outer;
			bytes[s] += n * in->mem_bytes;
		}
	}
}

static int call_key(const char *key, const char *suffix, int *line, const char **name, size_t *len);

/* Of the bytes a nest (its top loop tagged TAG) stores, the share its
 * first iteration writes, where every iteration writes the same places
 * (the front end's "%TAG/same": a time loop around a sweep): one
 * iteration's bytes of each entry; else 1. */
static double first_iteration_share(const epi_region *total, const double *vals, int tag)
{
	char key[48];
	snprintf(key, sizeof key, "%%%d/same", tag);
	if (!(tag_value(total, vals, key) > 0))
		return 1;
	snprintf(key, sizeof key, "%%%d/iter", tag);
	double it = tag_value(total, vals, key);
	snprintf(key, sizeof key, "%%%d/entry", tag);
	double en = tag_value(total, vals, key);
	return it > en && en > 0 ? en / it : 1;
}

/* The total's call-site counts (its "%call:" keys, a few among many),
 * gathered once for new_places_share(): their indices. */
static int *call_keys(const epi_region *total, int *n)
{
	int *v = xmalloc(((size_t)total->counts.n + 1) * sizeof *v);
	*n = 0;
	for (int k = 0; k < total->counts.n; k++)
		if (strncmp(total->counts.key[k], "%call:", 6) == 0)
			v[(*n)++] = k;
	return v;
}

/* The share of the calls of FUNCTION over the run (the total's counts at
 * VALS, its call-site keys the N of CK) whose callee's loops write places
 * no call before wrote: where some call sites pass the same arguments at
 * every iteration of the loops around them (a kernel called at each
 * step: "%call:LINE:F/same"), such a site's calls write its first call's
 * places again, the others' each their own. 1 where no site repeats. */
static double new_places_share(const epi_region *total, const double *vals, const int *ck, int n,
			       const char *function)
{
	double calls = 0, same = 0, sites = 0;
	size_t fl = strlen(function);
	for (int i = 0; i < n; i++) {
		int k = ck[i], line;
		const char *name;
		size_t len;
		const char *key = total->counts.key[k];
		if (call_key(key, "/site", &line, &name, &len) && len == fl && !strncmp(name, function, fl)) {
			calls += vals[k];
		} else if (call_key(key, "/same", &line, &name, &len) && len == fl && !strncmp(name, function, fl) &&
			   vals[k] > 0) {
			same += vals[k];
			sites++;
		}
	}
	if (!(same > 0) || !(calls >= same))
		return 1;
	return (calls - same + sites) / calls;
}

/* The memory the program allocates, and its zero-initialised static data,
 * is written first by the nests that run first: each takes the bytes its
 * stores write over the run (the source's count, or fewer when the
 * machine code shows places written again, when its function's calls
 * repeat their arguments, or when its iterations write the same places),
 * until the fresh memory is used up. */
static void first_touch(epi_mcount *m, const epi_object *o, const epi_nest *loops, int nloops, const int *has,
			const epi_region *total, const double *vals, const by_tag *b)
{
	m->touch = xcalloc((size_t)nloops + 1, sizeof *m->touch);
	m->touch_call = xcalloc((size_t)nloops + 1, sizeof *m->touch_call);
	double left = tag_value(total, vals, "malloc");
	left = (left > 0 ? left : 0) + o->bss;
	if (!(left > 0))
		return;
	char *fseen = xcalloc((size_t)o->nfn + 1, 1), *nseen = xcalloc((size_t)nloops + 1, 1);
	int *order = xmalloc(((size_t)nloops + 1) * sizeof *order), n = 0;
	int *head = xmalloc(((size_t)o->nin + 1) * sizeof *head); /* the loop an instruction heads, -1 */
	for (int i = 0; i < o->nin; i++)
		head[i] = -1;
	for (int l = 0; l < o->nloop; l++)
		head[o->loop[l].head] = l;
	/* the top-level nest each instruction's line is in (wherever its code
	 * was inlined), from a list sorted by first line (top-level nests do
	 * not overlap) */
	int *at = xmalloc(((size_t)o->nin + 1) * sizeof *at), nt = 0;
	epi_ipair *tl = xmalloc(((size_t)nloops + 1) * sizeof *tl);
	for (int s = 0; s < nloops; s++)
		if (loops[s].parent < 0)
			tl[nt++] = (epi_ipair){loops[s].line, s};
	qsort(tl, (size_t)nt, sizeof *tl, epi_ipair_cmp);
	for (int i = 0; i < o->nin; i++) {
		int lo = 0, hi = nt; /* the last nest starting on or before the line */
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (tl[mid].a <= o->line[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		int s = lo > 0 ? tl[lo - 1].b : -1;
		at[i] = o->line[i] > 0 && s >= 0 && o->line[i] <= loops[s].end_line ? s : -1;
	}
	free(tl);
	for (int f = 0; f < o->nfn; f++)
		if (strcmp(o->fn[f].name, "main") == 0)
			first_runs(o, loops, head, at, has, f, fseen, nseen, order, &n);
	for (int f = 0; f < o->nfn; f++) /* no main: the functions in order */
		if (!fseen[f])
			first_runs(o, loops, head, at, has, f, fseen, nseen, order, &n);
	free(head);
	double *mine = xmalloc(((size_t)nloops + 1) * sizeof *mine);
	written_bytes(m, o, loops, nloops, mine);
	/* a nest that runs x86's rep stos or rep movs, or calls memset or
	 * memcpy (a loop the compiler made one), writes what its source
	 * stores, not only its loops' stores; what a call writes is the
	 * callee's (CALLED: those nests) */
	char *called = xcalloc((size_t)nloops + 1, 1), *rep = xcalloc((size_t)nloops + 1, 1);
	for (int i = 0; i < o->nin; i++) {
		const char *mn = o->in[i].mnem;
		if (at[i] < 0)
			continue;
		if (mn && !strncmp(mn, "rep", 3) && (strstr(mn, "stos") || strstr(mn, "movs")))
			rep[at[i]] = 1;
		else if (o->ret_arg && o->ret_arg[i])
			called[at[i]] = 1;
	}
	free(at);
	int nck, *ck = call_keys(total, &nck);
	for (int k = 0; k < n && left > 0; k++) {
		int s = order[k];
		per_iter p = {0};
		for (int c = s; c < nloops && loops[c].line <= loops[s].end_line; c++) /* S and the loops inside */
			if (epi_nest_within(loops, c, s))
				add_own(&p, b, loops[c].tag);
		/* the machine code's count sees places written again in the
		 * loop around a store, not over calls nor a whole nest */
		double share = new_places_share(total, vals, ck, nck, loops[s].function);
		double w = p.store_bytes * share * first_iteration_share(total, vals, loops[s].tag), own = mine[s] * share;
		if (!rep[s] && !called[s] && own < w)
			w = own;
		if (w > left)
			w = left;
		/* what its calls write first: beyond what its loops store */
		double by_call = !called[s] || rep[s] ? 0 : isnan(own) ? w : own < w ? w - own : 0;
		m->touch[s] = w - by_call;
		m->touch_call[s] = by_call;
		left -= w;
	}
	free(mine);
	free(called);
	free(rep);
	free(fseen);
	free(nseen);
	free(order);
	free(ck);
}

/* KEY as "%call:LINE:NAME" and SUFFIX: 1, its line and name; else 0. */
static int call_key(const char *key, const char *suffix, int *line, const char **name, size_t *len)
{
	int at = 0;
	if (strncmp(key, "%call:", 6) != 0 || sscanf(key + 6, "%d:%n", line, &at) != 1 || !at)
		return 0;
	const char *end = strrchr(key + 6 + at, '/');
	if (!end || strcmp(end, suffix) != 0)
		return 0;
	*name = key + 6 + at;
	*len = (size_t)(end - *name);
	return 1;
}

int epi_call_site_key(const char *key, int *line, const char **name, size_t *len)
{
	return call_key(key, "/site", line, name, len);
}

/* A call site of the source and its calls over the run. */
typedef struct site_n {
	const char *name; /* the callee, up to the '/' of its key */
	size_t len;
	int line;
	double n;
} site_n;

static int site_n_cmp(const void *a, const void *b)
{
	const site_n *x = a, *y = b;
	size_t l = x->len < y->len ? x->len : y->len;
	int c = strncmp(x->name, y->name, l);
	return c ? c : x->len != y->len ? (x->len > y->len) - (x->len < y->len) : (x->line > y->line) - (x->line < y->line);
}

/* Per function of O, into SHARE: the share of its calls over the run that
 * reach its own code rather than a copy of it inlined into a caller. Of
 * the calls made by its sites in the source (their "%call:LINE:F/site"
 * counts in the total), those of the sites that O's code calls it from
 * (a call, or a call of unknown callee, on the site's line), the others
 * having a copy inlined there. NAN when it has no site counted, a count
 * is unknown, a site has neither on its line, or a call of it is on a
 * line that none of its sites is on (which site a call stands for is
 * then not known). */
static void own_share(const epi_object *o, const epi_region *total, const double *vals, double *share)
{
	site_n *v = xmalloc(((size_t)total->counts.n + 1) * sizeof *v);
	int n = 0;
	for (int k = 0; k < total->counts.n; k++) {
		int line;
		const char *name;
		size_t len;
		if (epi_call_site_key(total->counts.key[k], &line, &name, &len))
			v[n++] = (site_n){name, len, line, vals[k]};
	}
	qsort(v, (size_t)n, sizeof *v, site_n_cmp);
	int *lines = xmalloc(((size_t)n + 1) * sizeof *lines);
	for (int f = 0; f < o->nfn; f++) {
		share[f] = NAN;
		site_n key = {o->fn[f].name, strlen(o->fn[f].name), INT_MIN, 0};
		int lo = 0, hi = n;
		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;
			if (site_n_cmp(&v[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		double all = 0, called = 0;
		int sure = 1, s;
		for (s = lo; s < n && v[s].len == key.len && strncmp(v[s].name, key.name, key.len) == 0; s++) {
			lines[s - lo] = v[s].line;
			int made = epi_object_calls_on(o, key.name, v[s].line, 0);
			/* a site neither called nor inlined on its line calls it
			 * where it cannot be seen (identical functions merged) */
			sure &= !isnan(v[s].n) && (made || epi_object_calls_on(o, key.name, v[s].line, 1));
			all += v[s].n;
			called += made ? v[s].n : 0;
		}
		if (s > lo && sure && all > 0 && !epi_object_calls_off(o, key.name, lines, s - lo, 0))
			share[f] = called / all;
	}
	free(lines);
	free(v);
}

/* What a copy of a function inlined into function G weighs among the
 * copies: the share of G's own calls that run G's own code (1 when not
 * known), a copy inside a G inlined everywhere running none. */
static double inlined_weight(const double *share, int g)
{
	return isnan(share[g]) ? 1 : share[g];
}

/* The line of the call that inlined the copy of FUNCTION holding machine
 * loop L of O (the innermost such copy), 0 when L is in no inlined copy
 * of it: two calls inlined into one function are two copies. */
static int call_line_of(const epi_object *o, int l, const char *function)
{
	uint64_t a = o->in[o->loop[l].head].addr;
	int best = -1;
	for (int k = 0; k < o->ninl; k++)
		if (a >= o->inl[k].lo && a < o->inl[k].hi && o->inl[k].callee && strcmp(o->inl[k].callee, function) == 0 &&
		    (best < 0 || o->inl[k].depth > o->inl[best].depth))
			best = k;
	return best < 0 ? 0 : o->inl[best].line;
}

/* The copies of a source loop of FUNCTION in O's code, its machine loops
 * from FIRST on (NEXT links them): a copy is a function's machine loops
 * of it from one call inlined there (or its own code), and runs a part
 * of the source loop's entries, into each machine loop's part (and, for
 * now, its main: the copy's first machine loop). A
 * copy in the function's own code runs for its calls not inlined (SHARE,
 * per function, when known), those inlined into other functions for the
 * rest, each as much as its function's own code runs (inlined_weight);
 * with the share not known, one copy, the first, runs all. */
static void copy_parts(const epi_object *o, const char *function, int first, const int *next, const double *share,
		       epi_mloop_count *l)
{
	double sh = NAN;
	int known = 1;
	for (int f = 0; f < o->nfn && known; f++)
		if (strcmp(o->fn[f].name, function) == 0) {
			known = !isnan(share[f]);
			sh = isnan(sh) ? share[f] : sh;
		}
	if (isnan(sh))
		sh = 0; /* no code of its own: every call inlined */
	int nown = 0;
	double inl = 0; /* the inlined copies' weights */
	for (int i = first; i >= 0; i = next[i]) {
		int g = -1; /* the copy's first machine loop */
		for (int j = first; j != i && g < 0; j = next[j])
			if (o->loop[j].fn == o->loop[i].fn && call_line_of(o, j, function) == call_line_of(o, i, function))
				g = j;
		l[i].main = g < 0 ? i : g;
		if (g < 0 && strcmp(o->fn[o->loop[i].fn].name, function) == 0)
			nown++;
		else if (g < 0)
			inl += inlined_weight(share, o->loop[i].fn);
	}
	for (int i = first; i >= 0; i = next[i]) {
		int own = strcmp(o->fn[o->loop[i].fn].name, function) == 0;
		if (!known)
			l[i].part = 1; /* the copies pooled: one main among them all */
		else if (own)
			l[i].part = sh / nown;
		else
			l[i].part = inl > 0 ? (1 - sh) * inlined_weight(share, o->loop[i].fn) / inl : 0;
		if (!known)
			l[i].main = first;
	}
}

double epi_mcount_iters(const epi_mcount *m, int l, double iters, double entries)
{
	const epi_mloop_count *c = &m->l[l];
	if (c->role == EPI_MR_NONE || c->role == EPI_MR_VERSION)
		return 0;
	/* per entry, the remainder loop runs what the main loop leaves: when
	 * every entry runs the same trip count, exactly; else on average */
	/* an entry of the machine loop runs OUTER of the source's */
	double k = m->l[c->main].k, outer = m->l[c->main].outer > 1 ? m->l[c->main].outer : 1, kin = k / outer, left = 0;
	if (kin > 1 && entries > 0) { /* left to a remainder loop, or to straight code */
		double per = iters / entries, en = entries / outer;
		left = fabs(per - floor(per + 0.5)) < 1e-9 ? en * fmod(floor(per + 0.5), kin) : en * (kin - 1) / 2;
	}
	if (left > iters)
		left = iters;
	return c->role == EPI_MR_MAIN ? (iters - left) / k : left / c->k;
}

/* The region of function NAME in A, or -1. */
static int function_region(const epi_analysis *a, const char *name)
{
	for (int r = 0; r < a->nregions; r++)
		if (a->regions[r].scope == EPI_SCOPE_FUNCTION && strcmp(a->regions[r].function, name) == 0)
			return r;
	return -1;
}

/* The source iterations of the parent of source loop S that an iteration
 * of machine loop I's parent covers, when that parent is the source
 * parent's with a factor over 1 and I the one machine loop of S in it (a
 * vectorised or unroll-and-jammed outer loop, the inner loop run once per
 * machine iteration for all of them); else 1. */
static double outer_factor(const epi_object *o, const epi_mcount *m, int i, const epi_nest *loops, int s,
			   const int *has, const int *next)
{
	int p = o->loop[i].parent;
	if (p < 0 || loops[s].parent < 0 || o->loop[p].src != loops[s].parent || !(m->l[p].k > 1))
		return 1;
	for (int j = has[s] - 1; j >= 0; j = next[j])
		if (j != i && o->loop[j].parent == p)
			return 1;
	return m->l[p].k;
}

void epi_mcount_run(epi_mcount *m, const epi_object *o, const epi_nest *loops, int nloops, epi_analysis *a,
		    const double *vals, const sym_env *env)
{
	m->l = xcalloc((size_t)o->nloop + 1, sizeof *m->l);
	m->calls = xcalloc((size_t)o->nfn + 1, sizeof *m->calls);
	m->nunmatched = 0;
	const epi_region *total = &a->regions[a->nregions - 1];
	by_tag b;
	own_work(&b, total, vals);
	char key[300];
	/* a function's own code runs for the calls not inlined */
	double *share = m->share = xmalloc(((size_t)o->nfn + 1) * sizeof *share);
	own_share(o, total, vals, share);
	for (int i = 0; i < o->nfn; i++) {
		snprintf(key, sizeof key, "%%%s()/entry", o->fn[i].name);
		m->calls[i] = tag_value(total, vals, key) * (isnan(share[i]) ? 1 : share[i]);
	}
	/* which source loops have machine loops, and which they are: a list
	 * per source loop, in the machine loops' order */
	int *has = xcalloc((size_t)nloops + 1, sizeof *has);
	int *next = xmalloc(((size_t)o->nloop + 1) * sizeof *next), *last = xcalloc((size_t)nloops + 1, sizeof *last);
	for (int i = 0; i < o->nloop; i++) {
		int s = o->loop[i].src;
		next[i] = -1;
		if (s < 0)
			continue;
		if (has[s])
			next[last[s]] = i;
		else
			has[s] = i + 1; /* the first, plus one */
		last[s] = i;
	}
	/* per source loop the total does not run: its iterations and
	 * entries in one call of its function, for its trip count; the
	 * values and work of the last such function (CALL_FR) */
	double *call_it = xcalloc((size_t)nloops + 1, sizeof *call_it);
	double *call_en = xcalloc((size_t)nloops + 1, sizeof *call_en);
	int call_fr = -1;
	double *call_v = NULL;
	by_tag call_b = {0};
	for (int s = 0; s < nloops; s++) {
		if (!has[s])
			continue;
		snprintf(key, sizeof key, "%%%d/iter", loops[s].tag);
		double iters = tag_value(total, vals, key);
		snprintf(key, sizeof key, "%%%d/entry", loops[s].tag);
		double entries = tag_value(total, vals, key);
		copy_parts(o, loops[s].function, has[s] - 1, next, share, m->l);
		/* what an iteration does, from the total, or for a loop the
		 * total does not run (its function reached through pointers
		 * only) from one call of its function */
		const epi_region *from = total;
		const double *fv = vals;
		by_tag *bt = &b;
		double it = iters, en = entries;
		int fr = entries > 0 ? -1 : function_region(a, loops[s].function);
		if (fr >= 0) {
			/* its function's counts evaluated once, for all its loops */
			if (fr != call_fr) {
				free(call_v);
				free(call_b.w);
				free(call_b.tag);
				call_v = values_of(a, &a->regions[fr], env, 1);
				own_work(&call_b, &a->regions[fr], call_v);
				call_fr = fr;
			}
			from = &a->regions[fr];
			fv = call_v;
			bt = &call_b;
			snprintf(key, sizeof key, "%%%d/iter", loops[s].tag);
			it = tag_value(from, fv, key);
			snprintf(key, sizeof key, "%%%d/entry", loops[s].tag);
			en = tag_value(from, fv, key);
			call_it[s] = it;
			call_en[s] = en;
		}
		/* the trip count's spread over the entries, from the sum of its
		 * squares */
		snprintf(key, sizeof key, "%%%d/iter2", loops[s].tag);
		double sq = tag_value(from, fv, key), spread = 0;
		if (en > 0 && it > 0 && sq > 0) {
			double mean = it / en, var = sq / en - mean * mean;
			spread = var > 0 ? sqrt(var) / mean : 0;
		}
		per_iter p = {0};
		add_own(&p, bt, loops[s].tag);
		/* loops inside with no machine loop of their own: those listed
		 * after S up to its end */
		for (int c = s + 1; c < nloops && loops[c].line <= loops[s].end_line; c++)
			if (!has[c] && epi_nest_within(loops, c, s))
				add_own(&p, bt, loops[c].tag);
		if (it > 0) {
			p.flops /= it;
			p.store_bytes /= it;
			p.load_bytes /= it;
		}
		/* the source loop's trip count per entry, when the same for all */
		double per = en > 0 ? it / en : 0;
		if (fabs(per - floor(per + 0.5)) > 1e-9)
			per = 0;
		for (int i = has[s] - 1; i >= 0; i = next[i]) {
			epi_mix own = own_work_of(o, i, loops, nloops, s, has);
			/* inside a machine loop that covers several of the source
			 * parent's iterations (a vectorised outer loop), each
			 * machine iteration does the work of as many source ones */
			double kp = outer_factor(o, m, i, loops, s, has, next);
			own.flops /= kp;
			own.store_bytes /= kp;
			own.load_bytes /= kp;
			m->l[i].outer = kp;
			m->l[i].k = kp * ratio(&own, &p, per, epi_mloop_const_trip(o, i));
		}
		/* in each copy of S's code (a function's machine loops of it):
		 * the widest machine loop is the main one, the first narrower
		 * one its remainder, the others versions */
		for (int g = has[s] - 1; g >= 0; g = next[g]) {
			int main = -1, rem = -1, grp = m->l[g].main;
			if (grp != g)
				continue; /* a copy is counted from its first machine loop */
			for (int i = g; i >= 0; i = next[i])
				if (m->l[i].main == grp && (main < 0 || m->l[i].k > m->l[main].k))
					main = i;
			for (int i = g; i >= 0; i = next[i])
				if (m->l[i].main == grp && i != main && m->l[i].k < m->l[main].k && rem < 0)
					rem = i;
			for (int i = g; i >= 0; i = next[i]) {
				if (m->l[i].main != grp)
					continue;
				epi_mloop_count *c = &m->l[i];
				c->trip = NAN;
				c->role = i == main ? EPI_MR_MAIN : i == rem ? EPI_MR_REMAINDER : EPI_MR_VERSION;
				c->spread = c->role == EPI_MR_MAIN ? spread : 0;
			}
			for (int i = g; i >= 0; i = next[i])
				if (m->l[i].main == grp)
					m->l[i].main = main;
		}
		for (int i = has[s] - 1; i >= 0; i = next[i])
			m->l[i].iters = epi_mcount_iters(m, i, iters * m->l[i].part, entries * m->l[i].part);
	}
	for (int i = 0; i < o->nloop; i++) {
		m->nunmatched += o->loop[i].src < 0;
		int s = o->loop[i].src;
		if (s < 0 || m->l[i].role == EPI_MR_VERSION)
			continue;
		snprintf(key, sizeof key, "%%%d/entry", loops[s].tag);
		double e = tag_value(total, vals, key) * m->l[i].part, ce = call_en[s] * m->l[i].part;
		if (e > 0) /* per entry of the machine loop */
			m->l[i].trip = m->l[i].iters * (m->l[i].outer > 1 ? m->l[i].outer : 1) / e;
		else /* its trip count in one call, for the level its accesses come from */
			m->l[i].trip = ce > 0 ? epi_mcount_iters(m, i, call_it[s] * m->l[i].part, ce) / ce : NAN;
	}
	free(call_it);
	free(call_en);
	free(call_v);
	free(call_b.w);
	free(call_b.tag);
	first_touch(m, o, loops, nloops, has, total, vals, &b);
	free(b.w);
	free(b.tag);
	free(has);
	free(next);
	free(last);
}

void epi_mcount_gates(const epi_mcount *m, epi_object *o)
{
	char *redo = xcalloc((size_t)o->nloop + 1, 1);
	for (int i = 0; i < o->nin; i++) {
		int g = o->gate[i], p = o->loop_of[i], least = g <= -2;
		if (least)
			g = -2 - g;
		if (g < 0 || p < 0)
			continue;
		double w = o->branch_prob;
		if (m && o->loop[p].src >= 0 && o->loop[g].src >= 0) {
			double it = m->l[p].iters, gi = m->l[g].iters, gt = m->l[g].trip;
			/* the inner loop's entries: its source loop's (its
			 * iterations over its trip count), at most one per
			 * iteration it runs (none for a version that does not) */
			double e = gt > 0 && isfinite(gt) ? gi / gt : 0;
			if (e > gi)
				e = gi;
			if (it > 0 && isfinite(it) && gi >= 0 && isfinite(gi)) {
				double share = e < it ? e / it : 1;
				/* a test before the loop: its share is a floor */
				w = !least || share >= 1 || share > w ? share : w;
			}
		}
		if (o->weight[i] != (float)w) {
			o->weight[i] = (float)w;
			redo[p] = 1;
		}
	}
	for (int l = 0; l < o->nloop; l++) {
		if (!redo[l])
			continue;
		memset(&o->loop[l].own, 0, sizeof o->loop[l].own);
		for (int i = o->loop[l].first; i <= o->loop[l].last; i++)
			if (o->loop_of[i] == l)
				epi_mix_insn(&o->loop[l].own, &o->in[i], o->weight[i], o->frame[i]);
	}
	free(redo);
}

void epi_mcount_free(epi_mcount *m)
{
	free(m->l);
	free(m->calls);
	free(m->share);
	free(m->touch);
	free(m->touch_call);
	*m = (epi_mcount){0};
}
