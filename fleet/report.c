/* report: a folder of per-node cost tables compared across the nodes of
 * each CPU model (fleet.h): mean, spread and outliers (GSL). */
#include "fleet/fleet.h"
#include "model/util.h"

#include <dirent.h>
#include <errno.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b)
{
	return strcmp(((const epi_fleet_node *)a)->name, ((const epi_fleet_node *)b)->name);
}

int epi_fleet_load(epi_fleet *f, const char *dir, char *err)
{
	memset(f, 0, sizeof *f);
	DIR *d = opendir(dir);
	if (!d)
		return epi_error(err, "cannot read the table folder '%s': %s", dir, strerror(errno));
	struct dirent *e;
	int cap = 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.' || l <= 4 || strcmp(e->d_name + l - 4, ".xml") != 0)
			continue;
		char path[4096], lerr[EPI_ERRLEN];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (f->n == cap) {
			cap = cap ? 2 * cap : 16;
			f->node = xrealloc(f->node, (size_t)cap * sizeof *f->node);
		}
		epi_fleet_node *n = &f->node[f->n];
		if (epi_table_load(&n->t, path, lerr) < 0) {
			f->warn = xrealloc(f->warn, (size_t)(f->nwarn + 1) * sizeof *f->warn);
			size_t wl = strlen(lerr) + 32;
			f->warn[f->nwarn] = xmalloc(wl);
			snprintf(f->warn[f->nwarn++], wl, "%s; left out", lerr);
			continue;
		}
		n->name = xmalloc(l - 3);
		snprintf(n->name, l - 3, "%s", e->d_name);
		n->path = xstrdup(path);
		f->n++;
	}
	closedir(d);
	if (f->n == 0) {
		epi_fleet_free(f);
		return epi_error(err, "'%s' holds no cost table (NODE.xml, as `epi fleet calibrate` writes them)", dir);
	}
	qsort(f->node, (size_t)f->n, sizeof *f->node, by_name);
	return 0;
}

void epi_fleet_free(epi_fleet *f)
{
	for (int i = 0; i < f->n; i++) {
		free(f->node[i].name);
		free(f->node[i].path);
		epi_table_free(&f->node[i].t);
	}
	for (int i = 0; i < f->nwarn; i++)
		free(f->warn[i]);
	free(f->node);
	free(f->warn);
	memset(f, 0, sizeof *f);
}

int epi_fleet_find(const epi_fleet *f, const char *name)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->node[i].name, name) == 0)
			return i;
	return -1;
}

static const char *model_of(const epi_fleet_node *n)
{
	return n->t.cpu && *n->t.cpu ? n->t.cpu : "unknown";
}

int epi_fleet_model_nodes(const epi_fleet *f, const char *model)
{
	int n = 0;
	for (int k = 0; k < f->n; k++)
		n += strcmp(model_of(&f->node[k]), model) == 0;
	return n;
}

/* Column I's frequency for comparing nodes: 0 ("current") for a table of
 * one column calibrated at whatever clock the node ran (its kHz is the
 * measured clock, which differs from node to node), else its own. */
static long key_of(const epi_table *t, int i)
{
	return t->nf == 1 && !t->f[0].pinned ? 0 : t->f[i].khz;
}

static const epi_fcol *column(const epi_table *t, long khz)
{
	for (int i = 0; i < t->nf; i++)
		if (key_of(t, i) == khz)
			return &t->f[i];
	return NULL;
}

/* KEY's measured entry at C (not a class entry repeating a kernel's). */
static const epi_cost *exact(const epi_fcol *c, const char *key)
{
	const epi_cost *e = c ? epi_fcol_find(c, key) : NULL;
	return e && !e->kernel ? e : NULL;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The statistics of ROW's values. */
static void stats(epi_fleet_row *r)
{
	double *s = xmalloc((size_t)r->n * sizeof *s), *work = xmalloc((size_t)r->n * sizeof *work);
	memcpy(s, r->v, (size_t)r->n * sizeof *s);
	r->mean = gsl_stats_mean(s, 1, (size_t)r->n);
	r->sd = r->n > 1 ? gsl_stats_sd_m(s, 1, (size_t)r->n, r->mean) : 0;
	r->cv = r->mean != 0 ? r->sd / r->mean : NAN;
	gsl_stats_minmax(&r->min, &r->max, s, 1, (size_t)r->n);
	r->median = gsl_stats_median(s, 1, (size_t)r->n);
	memcpy(s, r->v, (size_t)r->n * sizeof *s);
	r->mad = gsl_stats_mad(s, 1, (size_t)r->n, work);
	r->out = xmalloc((size_t)r->n * sizeof *r->out);
	r->nout = 0;
	for (int i = 0; r->n >= 3 && i < r->n; i++) {
		double d = fabs(r->v[i] - r->median);
		if (r->mad > 0 ? d > EPI_FLEET_OUTLIER_MADS * r->mad : d > 1e-9 * fabs(r->median))
			r->out[r->nout++] = i;
	}
	free(s);
	free(work);
}

int epi_fleet_rows(const epi_fleet *f, epi_fleet_row **rows)
{
	int nr = 0, cap = 0;
	*rows = NULL;
	int *members = xmalloc((size_t)f->n * sizeof *members);
	char *done = xcalloc((size_t)f->n, 1);
	for (int first = 0; first < f->n; first++) {
		if (done[first])
			continue;
		const char *model = model_of(&f->node[first]);
		int nm = 0;
		for (int i = first; i < f->n; i++)
			if (!done[i] && strcmp(model_of(&f->node[i]), model) == 0) {
				members[nm++] = i;
				done[i] = 1;
			}
		/* every frequency a node of the model calibrated */
		int nk = 0;
		long *khz = NULL;
		for (int m = 0; m < nm; m++) {
			const epi_table *t = &f->node[members[m]].t;
			khz = xrealloc(khz, (size_t)(nk + t->nf) * sizeof *khz);
			for (int i = 0; i < t->nf; i++) {
				int seen = 0;
				for (int k = 0; k < nk; k++)
					seen |= khz[k] == key_of(t, i);
				if (!seen)
					khz[nk++] = key_of(t, i);
			}
		}
		qsort(khz, (size_t)nk, sizeof *khz, cmp_long);
		for (int k = 0; k < nk; k++) {
			/* the operations, in the order the first tables list them */
			int nops = 0, opcap = 0;
			const char **ops = NULL;
			for (int m = 0; m < nm; m++) {
				const epi_fcol *c = column(&f->node[members[m]].t, khz[k]);
				for (int i = 0; c && i < c->n; i++) {
					if (c->op[i].kernel)
						continue;
					int seen = 0;
					for (int j = 0; j < nops && !seen; j++)
						seen = strcmp(ops[j], c->op[i].key) == 0;
					if (seen)
						continue;
					if (nops == opcap) {
						opcap = opcap ? 2 * opcap : 64;
						ops = xrealloc(ops, (size_t)opcap * sizeof *ops);
					}
					ops[nops++] = c->op[i].key;
				}
			}
			for (int o = 0; o < nops; o++)
				for (int q = 0; q < 2; q++) {
					epi_fleet_row r = {.model = model, .khz = khz[k], .op = ops[o], .quantity = q};
					r.nodes = xmalloc((size_t)nm * sizeof *r.nodes);
					r.v = xmalloc((size_t)nm * sizeof *r.v);
					for (int m = 0; m < nm; m++) {
						const epi_cost *e = exact(column(&f->node[members[m]].t, khz[k]), ops[o]);
						double v = !e ? NAN : q ? e->e : e->t;
						if (!isfinite(v))
							continue;
						r.nodes[r.n] = members[m];
						r.v[r.n++] = v;
					}
					if (r.n == 0) {
						free(r.nodes);
						free(r.v);
						continue;
					}
					stats(&r);
					if (nr == cap) {
						cap = cap ? 2 * cap : 256;
						*rows = xrealloc(*rows, (size_t)cap * sizeof **rows);
					}
					(*rows)[nr++] = r;
				}
			free(ops);
		}
		free(khz);
	}
	free(members);
	free(done);
	return nr;
}

void epi_fleet_rows_free(epi_fleet_row *rows, int n)
{
	for (int i = 0; i < n; i++) {
		free(rows[i].nodes);
		free(rows[i].v);
		free(rows[i].out);
	}
	free(rows);
}

int epi_fleet_median_node(const epi_fleet *f, const char *model)
{
	epi_fleet_row *rows;
	int nr = epi_fleet_rows(f, &rows), best = -1;
	double best_d = INFINITY;
	double *d = xmalloc((size_t)(nr > 0 ? nr : 1) * sizeof *d);
	for (int i = 0; i < f->n; i++) {
		if (strcmp(model_of(&f->node[i]), model) != 0)
			continue;
		int nd = 0;
		for (int r = 0; r < nr; r++) {
			if (rows[r].quantity != 0 || strcmp(rows[r].model, model) != 0 || !(rows[r].median > 0))
				continue;
			for (int j = 0; j < rows[r].n; j++)
				if (rows[r].nodes[j] == i && rows[r].v[j] > 0)
					d[nd++] = fabs(log(rows[r].v[j] / rows[r].median));
		}
		double m = nd ? gsl_stats_median(d, 1, (size_t)nd) : INFINITY;
		if (best < 0 || m < best_d) {
			best = i;
			best_d = m;
		}
	}
	free(d);
	epi_fleet_rows_free(rows, nr);
	return best;
}

/* "n1, n2, n3" or the distinct models, into OUT. */
static void list(const epi_fleet *f, int models, char *out, size_t n)
{
	size_t len = 0;
	out[0] = 0;
	for (int i = 0; i < f->n && len + 4 < n; i++) {
		const char *s = models ? model_of(&f->node[i]) : f->node[i].name;
		int seen = 0;
		for (int j = 0; models && j < i && !seen; j++)
			seen = strcmp(model_of(&f->node[j]), s) == 0;
		if (!seen)
			len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", s);
	}
}

int epi_fleet_pick(const epi_fleet *f, const char *node, const char *host, const char *model, char *why, size_t n,
		   char *err)
{
	char names[2048];
	if (node) {
		int i = epi_fleet_find(f, node);
		if (i < 0) {
			list(f, 0, names, sizeof names);
			return epi_error(err, "no table for node '%s' in the folder (nodes: %s)", node, names);
		}
		snprintf(why, n, "node %s, as asked", node);
		return i;
	}
	int i = host ? epi_fleet_find(f, host) : -1;
	if (i >= 0) {
		snprintf(why, n, "node %s: this host", host);
		return i;
	}
	int one = 1;
	for (int k = 1; k < f->n; k++)
		one &= strcmp(model_of(&f->node[k]), model_of(&f->node[0])) == 0;
	int known = 0;
	for (int k = 0; model && k < f->n; k++)
		known |= strcmp(model_of(&f->node[k]), model) == 0;
	if (!known && !one) {
		list(f, 1, names, sizeof names);
		return epi_error(err, "no table for this host '%s', and its CPU '%s' is none of the folder's models (%s): "
				 "choose one with --node", host ? host : "?", model ? model : "unknown", names);
	}
	const char *m = known ? model : model_of(&f->node[0]);
	i = epi_fleet_median_node(f, m);
	int count = epi_fleet_model_nodes(f, m);
	snprintf(why, n, "node %s, the median of the %d node%s of %s: this host (%s) has no table%s", f->node[i].name,
		 count, count == 1 ? "" : "s", m, host ? host : "?", known ? "" : " and its CPU is not among them");
	return i;
}
