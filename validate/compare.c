/* compare: predictions against traces and measurements (see compare.h). */
#include "validate/compare.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/freq.h"
#include "model/util.h"
#include "predict/mmodel.h"

void epi_cmp_finish(epi_cmp *c)
{
	for (int q = 0; q < EPI_NQ; q++) {
		double p = c->pred[q];
		epi_est m = c->meas[q];
		c->err[q] = isnan(p) || isnan(m.v) || m.v == 0 ? NAN : (p - m.v) / m.v;
		c->inside[q] = isnan(p) || isnan(m.lo) || isnan(m.hi) ? -1 : p >= m.lo && p <= m.hi;
	}
}

void epi_validation_sum(epi_validation *v)
{
	for (int q = 0; q < EPI_NQ; q++) {
		double s = 0;
		v->nerr[q] = v->nci[q] = v->nin[q] = 0;
		for (int i = 0; i < v->n; i++) {
			const epi_cmp *c = &v->rows[i];
			if (c->kind != EPI_CMP_LOOP && c->kind != EPI_CMP_MEASUREMENT)
				continue;
			if (!isnan(c->err[q])) {
				s += fabs(c->err[q]);
				v->nerr[q]++;
			}
			if (c->inside[q] >= 0) {
				v->nci[q]++;
				v->nin[q] += c->inside[q];
			}
		}
		v->mare[q] = v->nerr[q] ? s / v->nerr[q] : NAN;
	}
}

void epi_validation_free(epi_validation *v)
{
	for (int i = 0; i < v->n; i++) {
		free(v->rows[i].label);
		free(v->rows[i].function);
	}
	free(v->rows);
	memset(v, 0, sizeof *v);
}

static epi_cmp *new_row(epi_validation *v)
{
	v->rows = xrealloc(v->rows, (size_t)(v->n + 1) * sizeof *v->rows);
	epi_cmp *c = &v->rows[v->n++];
	memset(c, 0, sizeof *c);
	c->bound = -1;
	for (int q = 0; q < EPI_NQ; q++) {
		c->pred[q] = c->pred_sd[q] = c->err[q] = NAN;
		c->meas[q] = (epi_est){NAN, NAN, NAN};
		c->inside[q] = -1;
	}
	return c;
}

/* The compiled-code model's bound and instructions of C's region */
static void set_machine(epi_cmp *c, const epi_mcost *mc)
{
	c->bound = epi_mcost_priced_bound(mc, NULL);
	c->machine = !isnan(mc->p.t);
	c->mix = mc->mix;
	memcpy(c->alone_t, mc->alone_t, sizeof c->alone_t);
}

static void set_pred(epi_cmp *c, const epi_price *pr)
{
	/* ops without a table entry are priced at 0, as epi-predict does */
	c->pred[EPI_Q_TIME] = pr->t;
	c->pred_sd[EPI_Q_TIME] = pr->t_sd;
	c->pred[EPI_Q_ENERGY] = pr->e;
	c->pred_sd[EPI_Q_ENERGY] = pr->e_sd;
}

/* Whether the binary was built from A's source: every function the binary
 * declares in that file sits on the line the source has it on. */
int epi_validate_check_source(epi_analysis *a, epi_profile_sum *p, char *err)
{
	int found = 0, nfn = 0;
	const char *exe = p->info.exe[0] ? p->info.exe : "the program";
	for (int i = 0; i < a->nregions; i++) {
		const epi_region *r = &a->regions[i];
		if (r->scope != EPI_SCOPE_FUNCTION)
			continue;
		nfn++;
		int d = epi_attrib_decl_line(p->attrib, r->file, r->function);
		if (d < 0)
			return epi_error(err, "'%s' has no debug information to check '%s' against: build it with -g",
					 exe, r->file);
		if (d == 0)
			continue;
		found++;
		if (d != r->line)
			return epi_error(err, "'%s' does not match the binary '%s': %s is on line %d in the source, "
					 "line %d in the binary (rebuild it, or give the source it was built from)",
					 r->file, exe, r->function, r->line, d);
	}
	if (nfn && !found)
		return epi_error(err, "'%s' is not a source of '%s' (none of its functions is in its debug information)",
				 a->file, exe);
	return 0;
}

static const epi_region *total_of(const epi_analysis *a)
{
	for (int i = 0; i < a->nregions; i++)
		if (a->regions[i].scope == EPI_SCOPE_TOTAL)
			return &a->regions[i];
	return NULL;
}

/* The price of the total's counts tagged PREFIX: a block's own work. */
static void price_tagged(epi_analysis *a, const epi_region *total, const char *prefix, const epi_fcol *col,
			 const sym_env *env, epi_price *pr)
{
	epi_region r = *total;
	r.formula = r.cond = NULL; /* of the total's counts, not these */
	counts_init(&r.counts);
	counts_select(&a->sym, &r.counts, &total->counts, prefix);
	epi_price_region(&a->sym, &r, col, env, pr);
	counts_clear(&a->sym, &r.counts);
}

int epi_validate_trace(epi_analysis *a, const epi_fcol *col, const sym_env *env, epi_profile_sum *p,
		       const epi_mmodel *mm, epi_validation *v, char *err)
{
	memset(v, 0, sizeof *v);
	const epi_region *total = total_of(a);
	int tagged = 0;
	for (int i = 0; total && i < total->counts.n; i++)
		tagged |= total->counts.key[i][0] == '@';
	if (!total || (total->counts.n && !tagged))
		return epi_error(err, "the analysis of '%s' has no per-block counts (tag_blocks)", a->file);
	if (epi_validate_check_source(a, p, err) < 0)
		return -1;
	int nb;
	epi_block *blocks = epi_attrib_blocks(p->attrib, &nb);
	double watts = p->t_mean > 0 ? p->j_mean / p->t_mean : NAN;
	epi_mprices *mp = mm ? epi_mmodel_prices(mm, col) : NULL;
	v->compiled = mm != NULL;
	for (int i = 0; i < a->nregions; i++) {
		const epi_region *r = &a->regions[i];
		epi_cmp *c = new_row(v);
		c->khz = col->khz;
		epi_price pr;
		if (r->scope == EPI_SCOPE_TOTAL) {
			epi_mcost mc;
			if (mm)
				epi_mmodel_total(mm, mp, &mc), pr = mc.p, set_machine(c, &mc);
			else
				epi_price_region(&a->sym, r, col, env, &pr);
			set_pred(c, &pr);
			c->kind = EPI_CMP_PROGRAM;
			c->label = xstrdup("program");
			c->samples = p->n;
			epi_profile_total(p, &c->meas[EPI_Q_TIME], &c->meas[EPI_Q_ENERGY]);
			epi_cmp_finish(c);
			continue;
		}
		int loop = r->scope == EPI_SCOPE_LOOP;
		char tag[300], label[512];
		const char *base = strrchr(r->file, '/');
		if (loop) {
			snprintf(tag, sizeof tag, "@%d/", r->line);
			snprintf(label, sizeof label, "%s:%d loop in %s", base ? base + 1 : r->file, r->line, r->function);
		} else {
			snprintf(tag, sizeof tag, "@%s()/", r->function);
			snprintf(label, sizeof label, "%s() outside its loops", r->function);
		}
		epi_mcost mc;
		if (mm && loop)
			epi_mmodel_nest(mm, mp, r->line, &mc), pr = mc.p, set_machine(c, &mc);
		else if (mm)
			epi_mmodel_function(mm, mp, r->function, &mc), pr = mc.p, set_machine(c, &mc);
		else
			price_tagged(a, total, tag, col, env, &pr);
		set_pred(c, &pr);
		c->kind = loop ? EPI_CMP_LOOP : EPI_CMP_FUNCTION;
		c->label = xstrdup(label);
		c->function = xstrdup(r->function);
		c->line = loop ? r->line : 0;
		epi_block none = {.kind = loop ? EPI_BLOCK_LOOP : EPI_BLOCK_FUNCTION}, *b = &none;
		for (int k = 0; k < nb; k++) {
			const epi_block *x = &blocks[k];
			if (x->kind != none.kind || !x->function || strcmp(x->function, r->function) != 0)
				continue;
			if (loop ? x->line == r->line && epi_same_file(x->file, r->file) : x->in_program)
				b = &blocks[k];
		}
		c->samples = b->n;
		epi_block_est e;
		epi_block_estimate(p, b, &e);
		c->meas[EPI_Q_TIME] = e.time;
		c->meas[EPI_Q_ENERGY] = e.energy;
		/* no sample: the energy is as uncertain as the time is */
		if (b->n == 0 && !isnan(e.energy.v))
			c->meas[EPI_Q_ENERGY].hi = e.time.hi * watts;
		epi_cmp_finish(c);
	}
	epi_mprices_free(mp);
	epi_validation_sum(v);
	return 0;
}

int epi_validate_measured(epi_analysis *a, const epi_table *t, const sym_env *env, const epi_measured *m, int n,
			  const char *path, epi_validation *v, char *err)
{
	memset(v, 0, sizeof *v);
	const epi_region *total = total_of(a);
	/* a bare value binds the one parameter --param left unbound */
	int free_var = -1;
	char names[256];
	int nfree = epi_param_names(a, env, NULL, names, sizeof names, &free_var);
	sym_env e;
	sym_env_init(&e);
	int ret = 0;
	for (int i = 0; i < n && ret == 0; i++) {
		for (int k = 0; k < SYM_MAXVARS; k++) {
			fmpq_set(&e.val[k], &env->val[k]);
			e.bound[k] = env->bound[k];
		}
		char spec[300], berr[EPI_ERRLEN];
		if (strchr(m[i].param, '='))
			snprintf(spec, sizeof spec, "%s", m[i].param);
		else if (nfree == 1)
			snprintf(spec, sizeof spec, "%s=%s", sym_name(&a->sym, free_var), m[i].param);
		else {
			ret = epi_error(err, "%s:%d: param '%s' names no parameter and '%s' has %s (write NAME=VALUE)", path,
					m[i].lineno, m[i].param, a->file,
					nfree ? names : "none left unbound");
			break;
		}
		if (epi_bind_param(a, &e, spec, berr) < 0) {
			ret = epi_error(err, "%s:%d: %s", path, m[i].lineno, berr);
			break;
		}
		epi_fcol col;
		if (epi_table_at(t, m[i].khz, &col, berr) < 0) {
			ret = epi_error(err, "%s:%d: %s", path, m[i].lineno, berr);
			break;
		}
		epi_cmp *c = new_row(v);
		c->kind = EPI_CMP_MEASUREMENT;
		c->khz = m[i].khz;
		c->label = xstrdup(spec);
		epi_price pr;
		epi_price_region(&a->sym, total, &col, &e, &pr);
		epi_fcol_free(&col);
		set_pred(c, &pr);
		c->meas[EPI_Q_ENERGY] = (epi_est){m[i].joules, NAN, NAN};
		epi_cmp_finish(c);
		if (isnan(c->pred[EPI_Q_ENERGY]))
			ret = epi_error(err, "%s:%d: '%s' with %s still has unbound parameters (%s): bind them with --param",
					path, m[i].lineno, a->file, spec, names);
	}
	sym_env_clear(&e);
	if (ret < 0) {
		epi_validation_free(v);
		return -1;
	}
	epi_validation_sum(v);
	return 0;
}

/* ---- measurements CSV ---------------------------------------------------- */

/* The next field of a CSV line (quotes removed, spaces trimmed), or NULL at its end. */
static char *field(char **s)
{
	if (!*s)
		return NULL;
	char *p = *s;
	while (*p == ' ' || *p == '\t')
		p++;
	char *out = p, *w = p;
	if (*p == '"') {
		p++;
		while (*p && !(*p == '"' && p[1] != '"')) {
			if (*p == '"')
				p++;
			*w++ = *p++;
		}
		if (*p == '"')
			p++;
		while (*p && *p != ',')
			p++;
	} else {
		while (*p && *p != ',')
			*w++ = *p++;
		while (w > out && (w[-1] == ' ' || w[-1] == '\t' || w[-1] == '\r'))
			w--;
	}
	*s = *p == ',' ? p + 1 : NULL;
	*w = 0;
	return out;
}

void epi_measured_free(epi_measured *rows, int n)
{
	for (int i = 0; i < n; i++)
		free(rows[i].param);
	free(rows);
}

int epi_measured_load(const char *path, epi_measured **rows, char *err)
{
	*rows = NULL;
	FILE *f = fopen(path, "r");
	if (!f)
		return epi_error(err, "cannot read '%s': %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, col[3] = {-1, -1, -1}, header = 0, n = 0, ret = 0;
	static const char *names[3] = {"param", "freq_ghz", "measured_j"};
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		char *s = line;
		while (isspace((unsigned char)*s))
			s++;
		if (*s == 0 || *s == '#')
			continue;
		char *fl[64];
		int nf = 0;
		for (char *x; nf < 64 && (x = field(&s));)
			fl[nf++] = x;
		if (!header) {
			for (int i = 0; i < nf; i++)
				for (int k = 0; k < 3; k++)
					if (strcmp(fl[i], names[k]) == 0)
						col[k] = i;
			for (int k = 0; k < 3; k++)
				if (col[k] < 0) {
					ret = epi_error(err, "%s:%d: the header has no column '%s' (it needs param, freq_ghz, measured_j)",
							path, lineno, names[k]);
					goto out;
				}
			header = 1;
			continue;
		}
		for (int k = 0; k < 3; k++)
			if (col[k] >= nf || fl[col[k]][0] == 0) {
				ret = epi_error(err, "%s:%d: no value in column '%s'", path, lineno, names[k]);
				goto out;
			}
		char *end;
		errno = 0;
		double ghz = strtod(fl[col[1]], &end);
		if (*end || errno || !(ghz > 0) || ghz > 100) {
			ret = epi_error(err, "%s:%d: freq_ghz '%s' is not a frequency in GHz", path, lineno, fl[col[1]]);
			goto out;
		}
		double j = strtod(fl[col[2]], &end);
		if (*end || errno || !(j >= 0) || isinf(j)) {
			ret = epi_error(err, "%s:%d: measured_j '%s' is not an energy in joules", path, lineno, fl[col[2]]);
			goto out;
		}
		*rows = xrealloc(*rows, (size_t)(n + 1) * sizeof **rows);
		(*rows)[n++] = (epi_measured){lineno, xstrdup(fl[col[0]]), lround(ghz * 1e6), j};
	}
	if (ferror(f))
		ret = epi_error(err, "cannot read '%s': %s", path, strerror(errno));
	else if (!header)
		ret = epi_error(err, "%s: no header (param,freq_ghz,measured_j) and no measurement", path);
	else if (n == 0)
		ret = epi_error(err, "%s: no measurement after the header", path);
out:
	free(line);
	fclose(f);
	if (ret < 0) {
		epi_measured_free(*rows, n);
		*rows = NULL;
		return -1;
	}
	return n;
}
