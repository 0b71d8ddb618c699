/* report: pricing of counts and the three output formats of epi-predict. */
#include "predict/report.h"
#include "predict/mmodel.h"
#include "model/freq.h"
#include "model/util.h"
#include "model/json.h"

#include <ctype.h>
#include <errno.h>
#include <flint/flint.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

const char epi_csv_header[] = "file,line,function,scope,op,count,count_min,count_max,formula,energy_j,time_s,freq_ghz";

static const char *scope_name(enum epi_scope s)
{
	return s == EPI_SCOPE_LOOP ? "loop" : s == EPI_SCOPE_FUNCTION ? "function" : "total";
}

/* One op of one region, evaluated. */
typedef struct oprow {
	const char *key;
	int idx;              /* in the region's counts */
	char *cnt, *cmin, *cmax; /* NULL when a parameter is unbound */
	double dcnt;          /* expected count as a double (NAN if unbound) */
	char *formula, *cond;
} oprow;

/* Q as text, malloc'd: the exact integer, or a decimal for an expectation. */
static char *fmt_q(const fmpq_t q)
{
	if (fmpz_is_one(fmpq_denref(q))) {
		char *f = fmpz_get_str(NULL, 10, fmpq_numref(q));
		char *r = xstrdup(f);
		flint_free(f);
		return r;
	}
	char *b = xmalloc(40);
	snprintf(b, 40, "%.10g", fmpq_get_d(q));
	return b;
}

static char *eval_str(sym_ctx *s, const sym_pw *w, const sym_env *env, double *d, int *missing)
{
	fmpq_t q;
	fmpq_init(q);
	int m = -1;
	char *r = NULL;
	/* every parameter it needs that is unbound goes to MISSING, not just the first */
	if (sym_pw_eval_unbound(s, w, env, q, &m, missing) == 0) {
		r = fmt_q(q);
		if (d)
			*d = fmpq_get_d(q);
	} else if (d) {
		*d = NAN;
	}
	fmpq_clear(q);
	return r;
}

static int cmp_key(const void *a, const void *b)
{
	const oprow *x = a, *y = b;
	int cx = epi_op_class(x->key), cy = epi_op_class(y->key);
	if (cx < 0)
		cx = 1000;
	if (cy < 0)
		cy = 1000;
	if (cx != cy)
		return cx - cy;
	return strcmp(x->key, y->key);
}

/* The region's ops evaluated (and, with FORMULAS, their formulas), sorted. */
static oprow *region_rows(sym_ctx *s, const epi_region *r, const sym_env *env, int *missing, int formulas)
{
	oprow *rows = xcalloc(r->counts.n + 1, sizeof *rows);
	for (int i = 0; i < r->counts.n; i++) {
		oprow *o = &rows[i];
		o->key = r->counts.key[i];
		o->idx = i;
		const epi_tri *t = &r->counts.v[i];
		o->cnt = eval_str(s, &t->exp, env, &o->dcnt, missing);
		if (t->same) {
			o->cmin = o->cnt ? xstrdup(o->cnt) : NULL;
			o->cmax = o->cnt ? xstrdup(o->cnt) : NULL;
		} else {
			o->cmin = eval_str(s, tri_min(t), env, NULL, missing);
			o->cmax = eval_str(s, tri_max(t), env, NULL, missing);
		}
		if (formulas && r->formula && r->formula[i]) { /* formatted while counting */
			o->formula = xstrdup(r->formula[i]);
			o->cond = xstrdup(r->cond[i]);
		} else if (formulas) {
			sym_pw_format(s, &t->exp, &o->formula, &o->cond);
		}
		/* the formula of large parameters (in some classes of a
		 * parameter, maybe) is not the count's when the parameters
		 * given select other pieces: theirs, then */
		char *f, *c;
		if (o->cond && !strncmp(o->cond, "large parameters", 16) &&
		    sym_pw_format_at(s, &t->exp, env, &f, &c) == 0) {
			free(o->formula);
			free(o->cond);
			o->formula = f;
			o->cond = c;
		}
	}
	qsort(rows, r->counts.n, sizeof *rows, cmp_key);
	return rows;
}

static void rows_free(oprow *rows, int n)
{
	for (int i = 0; i < n; i++) {
		free(rows[i].cnt);
		free(rows[i].cmin);
		free(rows[i].cmax);
		free(rows[i].formula);
		free(rows[i].cond);
	}
	free(rows);
}

/* The price of N units of KEY at column C; 0 when the table has no entry. */
static int price_op(const epi_fcol *c, const char *key, double n, epi_price *p)
{
	int cls = epi_op_class(key);
	if (cls < 0)
		return 0;
	const epi_cost *e = epi_fcol_lookup(c, key);
	if (!e)
		return 0;
	double f = epi_unit_factor(cls, e->unit) * n;
	p->e = f * e->e;
	p->e_sd = f * e->e_sd; /* NAN where the table gives no deviation */
	p->t = f * e->t;
	p->t_sd = f * e->t_sd;
	return 1;
}

/* Prices the evaluated ROWS (N of them) at column C. */
static void price_rows(const oprow *rows, int n, const epi_fcol *c, epi_price *out)
{
	memset(out, 0, sizeof *out);
	out->interpolated = c->interpolated;
	double ve = 0, vt = 0;
	int known_e = 0, known_t = 0;
	for (int i = 0; i < n; i++) {
		double cnt = rows[i].dcnt;
		if (epi_op_class(rows[i].key) < 0)
			continue; /* uncounted calls */
		if (isnan(cnt)) {
			out->e = out->t = NAN;
			continue;
		}
		epi_price p;
		if (cnt == 0)
			continue;
		if (!price_op(c, rows[i].key, cnt, &p)) {
			out->nunpriced++;
			continue;
		}
		out->e += p.e;
		out->t += p.t;
		if (!isnan(p.e_sd)) {
			ve += p.e_sd * p.e_sd;
			known_e = 1;
		}
		if (!isnan(p.t_sd)) {
			vt += p.t_sd * p.t_sd;
			known_t = 1;
		}
	}
	/* unknown (NAN) when the table gives no deviation for any priced op */
	out->e_sd = known_e ? sqrt(ve) : NAN;
	out->t_sd = known_t ? sqrt(vt) : NAN;
	/* a calibrated table's energies include the idle power over each op's
	 * time: E = sum N_i e_dyn_i + P_idle x T; say how much is idle */
	out->e_idle = isnan(c->idle_w) ? NAN : c->idle_w * out->t;
}

/* ---- every region's rows, on every core ---------------------------------
 * Formatting and evaluating the counts is nearly as much work as counting
 * them; each region is independent of the others once the analysis is
 * done, so threads take blocks of consecutive regions (neighbours share
 * count shapes, and so formats), each with a view of the symbol table that
 * has its own format cache. */
#define ROWS_BLOCK 16
#define ROWS_MAXTHREADS 16

/* The columns a report prices at. */
typedef struct report_cols {
	const epi_report_opts *o;
	epi_fcol *cols;
	epi_mprices **mp; /* per column, with a compiled-code model: its loops' prices */
	int nf;
} report_cols;

/* A region's rows, or (CSV and human tables) its text written already. */
typedef struct region_out {
	oprow *rows;
	char *text;
	size_t len;
} region_out;

static void region_write(FILE *out, const epi_region *r, const oprow *rows, const report_cols *c, json_t *jregions);

typedef struct rows_work {
	epi_analysis *a;
	const sym_env *env;
	const report_cols *text; /* the columns to write the text at, or NULL */
	region_out *res;         /* per region */
	atomic_int next;         /* the first region of the next block to take */
} rows_work;

typedef struct rows_worker {
	rows_work *w;
	sym_ctx *s; /* the analysis' table, or a view of it */
	sym_ctx view;
	int missing[SYM_MAXVARS];
} rows_worker;

/* Blocks are taken from the end: the total, the longest to format, first. */
static void *rows_run(void *arg)
{
	rows_worker *k = arg;
	rows_work *w = k->w;
	int n = w->a->nregions;
	for (int b; (b = atomic_fetch_add(&w->next, ROWS_BLOCK)) < n;)
		for (int ri = n - 1 - b; ri > n - 1 - b - ROWS_BLOCK && ri >= 0; ri--) {
			const epi_region *r = &w->a->regions[ri];
			region_out *o = &w->res[ri];
			o->rows = region_rows(k->s, r, w->env, k->missing, 1);
			if (!w->text)
				continue;
			FILE *f = open_memstream(&o->text, &o->len);
			if (!f)
				continue; /* out of memory: the rows are written at the end */
			region_write(f, r, o->rows, w->text, NULL);
			fclose(f);
			rows_free(o->rows, r->counts.n);
			o->rows = NULL;
		}
	flint_cleanup(); /* this thread's cache of GMP integers, which a thread's end would leak */
	return NULL;
}

/* The rows of every region of A, formulas included, or with TEXT their
 * text at its columns, on JOBS threads at most (0: one per online CPU);
 * marks in MISSING the unbound parameters that evaluation needed. */
static region_out *all_rows(epi_analysis *a, const sym_env *env, int jobs, int *missing, const report_cols *text)
{
	int ncpu = epi_threads(jobs);
	int nt = (a->nregions + ROWS_BLOCK - 1) / ROWS_BLOCK;
	if (nt > ncpu)
		nt = ncpu;
	if (nt > ROWS_MAXTHREADS)
		nt = ROWS_MAXTHREADS;
	if (nt < 1)
		nt = 1;
	rows_work w = {.a = a, .env = env, .text = text, .res = xcalloc(a->nregions + 1, sizeof *w.res)};
	atomic_init(&w.next, 0);
	rows_worker *k = xcalloc(nt, sizeof *k);
	pthread_t th[ROWS_MAXTHREADS];
	int started = 1; /* this thread is worker 0 */
	for (int i = 0; i < nt; i++) {
		k[i].w = &w;
		k[i].s = &a->sym;
		if (i > 0) {
			sym_view(&k[i].view, &a->sym);
			k[i].s = &k[i].view;
			if (pthread_create(&th[i], NULL, rows_run, &k[i]) != 0)
				break; /* the threads running share the work */
			started = i + 1;
		}
	}
	rows_run(&k[0]);
	for (int i = 0; i < nt; i++) {
		if (i > 0 && i < started)
			pthread_join(th[i], NULL);
		if (i > 0)
			sym_view_free(&k[i].view);
		for (int v = 0; v < SYM_MAXVARS; v++)
			missing[v] |= k[i].missing[v];
	}
	free(k);
	return w.res;
}

void epi_price_region(sym_ctx *s, const epi_region *r, const epi_fcol *c, const sym_env *env, epi_price *out)
{
	int missing[SYM_MAXVARS] = {0};
	oprow *rows = region_rows(s, r, env, missing, 0); /* pricing needs no formulas */
	price_rows(rows, r->counts.n, c, out);
	rows_free(rows, r->counts.n);
}

int epi_param_names(const epi_analysis *a, const sym_env *env, const int *only, char *out, size_t n, int *last)
{
	size_t l = 0;
	int count = 0;
	out[0] = 0;
	for (int i = -1; (i = sym_next_param(&a->sym, i)) >= 0;)
		if ((!env || !env->bound[i]) && (!only || only[i])) {
			count++;
			if (last)
				*last = i;
			if (l + 40 < n)
				l += (size_t)snprintf(out + l, n - l, "%s%s", l ? ", " : "", sym_name(&a->sym, i));
		}
	return count;
}

/* Whether SPEC ("NAME=VALUE") names, as a plain identifier, no parameter
 * of A but a word of its file's text (TEXT, LEN): a function's parameter
 * that no count depends on (a size the code takes from a macro instead,
 * say), which binding leaves as it is. A name the file does not have at
 * all is a mistake, which epi_bind_param reports. */
static int unused_name(const epi_analysis *a, const char *text, size_t len, const char *spec)
{
	const char *eq = strchr(spec, '=');
	size_t n = eq ? (size_t)(eq - spec) : 0;
	if (!text || n == 0 || n >= 256 || !(isalpha((unsigned char)*spec) || *spec == '_'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(isalnum((unsigned char)spec[i]) || spec[i] == '_'))
			return 0;
	char name[256];
	memcpy(name, spec, n);
	name[n] = 0;
	if (sym_param_index(&a->sym, name) >= 0)
		return 0;
	for (const char *p = text; (p = strstr(p, name)) != NULL; p += n) {
		int before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
		int after = (size_t)(p - text) + n < len && (isalnum((unsigned char)p[n]) || p[n] == '_');
		if (!before && !after)
			return 1;
	}
	return 0;
}

int epi_analyze_bind(epi_analysis *a, const char *file, const epi_front_opts *o, const char *const *params,
		     int nparams, sym_env *env, char *err)
{
	sym_env_init(env);
	if (epi_analyze(a, file, o, err) < 0)
		return 1;
	char *text = NULL;
	size_t len = 0;
	for (int i = 0; i < nparams; i++) {
		if (!text && nparams > 0) {
			char rerr[EPI_ERRLEN];
			text = epi_read_file(a->file, &len, rerr);
		}
		if (unused_name(a, text, len, params[i])) {
			char known[256], note[600];
			int nk = epi_param_names(a, NULL, NULL, known, sizeof known, NULL);
			snprintf(note, sizeof note, "--param '%s': no count of '%s' depends on '%.*s' (its parameters: %s): ignored",
				 params[i], a->file, (int)(strchr(params[i], '=') - params[i]), params[i], nk ? known : "none");
			epi_analysis_note(a, note);
			continue;
		}
		int r = epi_bind_param(a, env, params[i], err);
		if (r < 0) {
			free(text);
			return r == EPI_BIND_USAGE ? 2 : 1;
		}
	}
	free(text);
	return 0;
}

int epi_bind_param(const epi_analysis *a, sym_env *env, const char *spec, char *err)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec || eq[1] == 0)
		return epi_error(err, "invalid --param '%s': expected NAME=VALUE", spec), EPI_BIND_USAGE;
	char name[256];
	snprintf(name, sizeof name, "%.*s", (int)(eq - spec), spec);
	/* a C identifier, or a member access such as s->n or a.len */
	int ok = *name == '_' || isalpha((unsigned char)*name);
	for (const char *c = name; *c && ok; c++)
		ok = *c == '_' || *c == '.' || isalnum((unsigned char)*c) || (c[0] == '-' && c[1] == '>') ||
		     (c[0] == '>' && c > name && c[-1] == '-');
	if (!ok)
		return epi_error(err, "invalid --param '%s': '%s' is not a C identifier or member access", spec, name), EPI_BIND_USAGE;
	fmpz_t v;
	fmpz_init(v);
	const char *t = eq + 1;
	if (fmpz_set_str(v, t[0] == '+' ? t + 1 : t, 10) != 0) {
		/* 1e6, 2.5e5: accepted when the value is an integer */
		char *end;
		errno = 0;
		double d = strtod(t, &end);
		if (*end || errno || d != floor(d) || fabs(d) > 9007199254740992.0) {
			fmpz_clear(v);
			return epi_error(err, "invalid --param '%s': '%s' is not an integer", spec, t), EPI_BIND_USAGE;
		}
		fmpz_set_d(v, d);
	}
	if (!a) {
		fmpz_clear(v);
		return 0;
	}
	int k = sym_param_index(&a->sym, name);
	if (k < 0) {
		fmpz_clear(v);
		char known[256];
		int nk = epi_param_names(a, NULL, NULL, known, sizeof known, NULL);
		return epi_error(err, "--param '%s': '%s' is not a parameter of '%s' (its parameters: %s)", spec, name,
				 a->file, nk ? known : "none");
	}
	fmpz_swap(fmpq_numref(&env->val[k]), v);
	fmpz_one(fmpq_denref(&env->val[k]));
	env->bound[k] = 1;
	fmpz_clear(v);
	return 0;
}

/* ---- CSV ---------------------------------------------------------------- */

void epi_csv_field(FILE *f, const char *s)
{
	if (!s) s = "";
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

static void csv_num(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.6g", v);
}

static char *formula_text(const oprow *o)
{
	size_t n = strlen(o->formula) + strlen(o->cond) + 8;
	char *t = xmalloc(n);
	if (o->cond[0])
		snprintf(t, n, "%s for %s", o->formula, o->cond);
	else
		snprintf(t, n, "%s", o->formula);
	return t;
}

/* ---- human-readable numbers ---------------------------------------------- */

static void si(char *buf, size_t n, double v, const char *unit)
{
	static const char *const pre[] = {"n", "u", "m", "", "k", "M", "G"};
	if (isnan(v)) {
		snprintf(buf, n, "-");
		return;
	}
	if (v == 0) {
		snprintf(buf, n, "0 %s", unit);
		return;
	}
	int e = 3;
	double a = fabs(v);
	while (a >= 1000 && e < 6) {
		a /= 1000;
		e++;
	}
	while (a < 1 && e > 0) {
		a *= 1000;
		e--;
	}
	snprintf(buf, n, "%.4g %s%s", v < 0 ? -a : a, pre[e], unit);
}

static void with_sd(char *buf, size_t n, double v, double sd, const char *unit)
{
	char a[32];
	si(a, sizeof a, v, unit);
	if (!isnan(v) && v != 0 && sd > 0)
		snprintf(buf, n, "%s +- %.2g%%", a, 100 * sd / v);
	else
		snprintf(buf, n, "%s", a);
}

static void region_title(char *buf, size_t n, const epi_region *r)
{
	const char *b = strrchr(r->file, '/');
	b = b ? b + 1 : r->file;
	if (r->scope == EPI_SCOPE_LOOP)
		snprintf(buf, n, "loop nest %s:%d in %s()", b, r->line, r->function);
	else if (r->scope == EPI_SCOPE_FUNCTION)
		snprintf(buf, n, "function %s() %s:%d, callees included", r->function, b, r->line);
	else
		snprintf(buf, n, "total %s%s%s", b, r->function[0] ? ": " : " (functions not called by others)",
			 r->function[0] ? "main(), callees included" : "");
}

/* ---- the report ---------------------------------------------------------- */

/* One region priced at every frequency column: what each format writes. */
typedef struct priced {
	const epi_region *r;
	const oprow *rows;
	const report_cols *c;
	epi_price *pr; /* the region's total per column */
	epi_mcost *mc; /* with the compiled-code model: its costs per column, else NULL */
	int best;      /* the column of least energy, -1 when none */
	char line[32]; /* the region's line, empty for the total */
} priced;

/* The leading fields of a CSV line of region P. */
static void csv_where(FILE *out, const priced *P)
{
	epi_csv_field(out, P->r->file);
	fprintf(out, ",%s,", P->line);
	epi_csv_field(out, P->r->function);
	fprintf(out, ",%s,", scope_name(P->r->scope));
}

/* One CSV line per op and one for the region's total, per frequency. */
static void region_csv(FILE *out, const priced *P)
{
	const report_cols *c = P->c;
	for (int fi = 0; fi < (c->nf ? c->nf : 1); fi++) {
		char fs[32] = "";
		if (c->nf)
			epi_freq_fmt(fs, sizeof fs, c->o->khz[fi]);
		for (int i = 0; i < P->r->counts.n; i++) {
			const oprow *op = &P->rows[i];
			epi_price p = {.e = NAN, .t = NAN, .e_idle = NAN};
			int priced = c->nf && !c->o->mm; /* the compiled-code model prices no op alone */
			if (priced && !isnan(op->dcnt) && !price_op(&c->cols[fi], op->key, op->dcnt, &p))
				p.e = p.t = NAN;
			if (priced && op->dcnt == 0)
				p.e = p.t = 0;
			char *ft = formula_text(op);
			csv_where(out, P);
			const char *f[] = {op->key, op->cnt, op->cmin, op->cmax, ft};
			for (size_t k = 0; k < sizeof f / sizeof *f; k++) {
				epi_csv_field(out, f[k]);
				fputc(',', out);
			}
			csv_num(out, p.e);
			fputc(',', out);
			csv_num(out, p.t);
			fprintf(out, ",%s\n", fs);
			free(ft);
		}
		csv_where(out, P);
		fputs("all,,,,,", out);
		if (c->nf) {
			csv_num(out, P->pr[fi].e);
			fputc(',', out);
			csv_num(out, P->pr[fi].t);
		} else {
			fputc(',', out);
		}
		fprintf(out, ",%s\n", fs);
	}
}

/* The JSON object of op OP: its counts and its price at every frequency. */
static json_t *json_op(const oprow *op, const report_cols *c)
{
	json_t *jo = json_object();
	json_object_set_new(jo, "op", json_string(op->key));
	json_object_set_new(jo, "count", op->cnt ? json_real(op->dcnt) : json_null());
	json_object_set_new(jo, "count_exact", op->cnt ? json_string(op->cnt) : json_null());
	json_object_set_new(jo, "count_min", op->cmin ? json_string(op->cmin) : json_null());
	json_object_set_new(jo, "count_max", op->cmax ? json_string(op->cmax) : json_null());
	json_object_set_new(jo, "formula", json_string(op->formula));
	json_object_set_new(jo, "condition", json_string(op->cond));
	json_t *jpr = json_array();
	for (int fi = 0; fi < c->nf && !c->o->mm; fi++) {
		epi_price p;
		if (isnan(op->dcnt) || !price_op(&c->cols[fi], op->key, op->dcnt, &p))
			continue;
		json_t *x = json_object();
		json_object_set_new(x, "freq_ghz", json_real(c->o->khz[fi] / 1e6));
		json_object_set_new(x, "energy_j", epi_json_num(p.e));
		json_object_set_new(x, "energy_sd_j", epi_json_num(p.e_sd));
		json_object_set_new(x, "time_s", epi_json_num(p.t));
		json_object_set_new(x, "time_sd_s", epi_json_num(p.t_sd));
		json_array_append_new(jpr, x);
	}
	json_object_set_new(jo, "priced", jpr);
	return jo;
}

json_t *epi_mix_json(const epi_mix *mix)
{
	json_t *j = json_object(), *jc = json_object();
	json_object_set_new(j, "instructions", json_real(mix->n));
	for (int k = 0; k < EPI_IC_N; k++)
		if (mix->cls[k] > 0)
			json_object_set_new(jc, epi_iclass_name(k), json_real(mix->cls[k]));
	json_object_set_new(j, "classes", jc);
	json_object_set_new(j, "loads", json_real(mix->loads));
	json_object_set_new(j, "stores", json_real(mix->stores));
	json_object_set_new(j, "flops", json_real(mix->flops));
	return j;
}

int epi_mcost_priced_bound(const epi_mcost *mc, double *total)
{
	double t = 0;
	for (int b = 0; b < EPI_BOUND_N; b++)
		t += mc->bound_t[b];
	if (total)
		*total = t;
	return isnan(mc->p.t) || !(t > 0) ? -1 : (int)epi_mcost_bound(mc);
}

json_t *epi_bounds_json(const double *alone)
{
	json_t *j = json_object();
	for (int b = 0; b < EPI_BOUND_N; b++)
		if (alone[b] > 0)
			json_object_set_new(j, epi_bound_name(b), json_real(alone[b]));
	return j;
}

/* Region P as a JSON object appended to JREGIONS. */
static void region_json(const priced *P, json_t *jregions)
{
	const epi_region *r = P->r;
	const report_cols *c = P->c;
	json_t *jr = json_object();
	json_object_set_new(jr, "scope", json_string(scope_name(r->scope)));
	json_object_set_new(jr, "file", json_string(r->file));
	json_object_set_new(jr, "line", r->scope == EPI_SCOPE_TOTAL ? json_null() : json_integer(r->line));
	json_object_set_new(jr, "function", json_string(r->function));
	json_object_set_new(jr, "bounds_only", json_boolean(r->counts.approx));
	json_t *jops = json_array();
	for (int i = 0; i < r->counts.n; i++)
		json_array_append_new(jops, json_op(&P->rows[i], c));
	json_object_set_new(jr, "ops", jops);
	json_t *jall = json_array();
	for (int fi = 0; fi < c->nf; fi++) {
		const epi_price *p = &P->pr[fi];
		json_t *x = json_object();
		json_object_set_new(x, "freq_ghz", json_real(c->o->khz[fi] / 1e6));
		json_object_set_new(x, "interpolated", json_boolean(p->interpolated));
		json_object_set_new(x, "energy_j", epi_json_num(p->e));
		json_object_set_new(x, "energy_sd_j", epi_json_num(p->e_sd));
		json_object_set_new(x, "energy_idle_j", epi_json_num(p->e_idle));
		json_object_set_new(x, "time_s", epi_json_num(p->t));
		json_object_set_new(x, "time_sd_s", epi_json_num(p->t_sd));
		json_object_set_new(x, "unpriced_ops", json_integer(p->nunpriced));
		if (P->mc) { /* null where the table says nothing of it */
			int b = epi_mcost_priced_bound(&P->mc[fi], NULL);
			json_object_set_new(x, "bound", b < 0 ? json_null() : json_string(epi_bound_name(b)));
			json_object_set_new(x, "bounds_s", b < 0 ? json_null() : epi_bounds_json(P->mc[fi].alone_t));
		}
		json_array_append_new(jall, x);
	}
	json_object_set_new(jr, "all", jall);
	if (P->mc && c->nf) { /* null when how often it runs needs unbound parameters */
		json_object_set_new(jr, "machine", isnan(P->mc[0].p.t) ? json_null() : epi_mix_json(&P->mc[0].mix));
		if (P->mc[0].inlined == 1) /* a function with no code of its own */
			json_object_set_new(jr, "inlined", json_true());
		else if (P->mc[0].inlined) /* nor any code: its body removed */
			json_object_set_new(jr, "empty", json_true());
		if (r->scope == EPI_SCOPE_FUNCTION) /* its own instructions over the run */
			json_object_set_new(jr, "self_instructions",
					    epi_json_num(epi_mmodel_self_instructions(c->o->mm, r->function)));
	}
	json_object_set_new(jr, "least_energy_freq_ghz", P->best >= 0 ? json_real(c->o->khz[P->best] / 1e6) : json_null());
	json_array_append_new(jregions, jr);
}

/* The human table's column widths: op, count, formula. */
typedef struct widths {
	int k, c, f;
} widths;

static widths table_widths(const priced *P)
{
	widths w = {6, 5, 7};
	for (int i = 0; i < P->r->counts.n; i++) {
		const oprow *op = &P->rows[i];
		char *ft = formula_text(op);
		int lk = (int)strlen(op->key), lc = op->cnt ? (int)strlen(op->cnt) : 1, lf = (int)strlen(ft);
		if (op->cmin && op->cmax && strcmp(op->cmin, op->cmax) != 0)
			lc = (int)(strlen(op->cnt) + strlen(op->cmin) + strlen(op->cmax) + 4);
		w.k = lk > w.k ? lk : w.k;
		w.c = lc > w.c ? lc : w.c;
		w.f = lf > w.f ? lf : w.f;
		free(ft);
	}
	if (w.f > 48)
		w.f = 48;
	return w;
}

/* The table's line of op OP: count, formula, price at every frequency. */
static void table_op(FILE *out, const oprow *op, const report_cols *c, widths w)
{
	char cb[200];
	if (!op->cnt)
		snprintf(cb, sizeof cb, "-");
	else if (op->cmin && op->cmax && strcmp(op->cmin, op->cmax) != 0)
		snprintf(cb, sizeof cb, "%s (%s..%s)", op->cnt, op->cmin, op->cmax);
	else
		snprintf(cb, sizeof cb, "%s", op->cnt);
	char *ft = formula_text(op);
	fprintf(out, "  %-*s  %*s  %-*s", w.k, op->key, w.c, cb, w.f, ft);
	free(ft);
	for (int fi = 0; fi < c->nf; fi++) {
		epi_price p;
		char eb[48], tb[48];
		int ok = !c->o->mm && !isnan(op->dcnt) && price_op(&c->cols[fi], op->key, op->dcnt, &p);
		if (op->dcnt == 0 && !c->o->mm) {
			p.e = p.t = p.e_sd = p.t_sd = 0;
			ok = 1;
		}
		if (c->nf == 1) {
			with_sd(eb, sizeof eb, ok ? p.e : NAN, ok ? p.e_sd : 0, "J");
			si(tb, sizeof tb, ok ? p.t : NAN, "s");
			fprintf(out, "  %-22s  %s", eb, tb);
		} else {
			si(eb, sizeof eb, ok ? p.e : NAN, "J");
			fprintf(out, "  %14s", eb);
		}
	}
	fprintf(out, "\n");
}

/* The table's line on the machine code of a region: its instructions, the
 * largest classes, and what bounds its time. */
static void table_machine(FILE *out, const epi_mcost *mc)
{
	if (mc->inlined) {
		fprintf(out, mc->inlined == 1 ? "  (machine code: none of its own, inlined into its callers and priced there)\n"
					      : "  (machine code: none, the compiler removed its body)\n");
		return;
	}
	if (isnan(mc->p.t)) {
		fprintf(out, "  (machine code: how often it runs needs the unbound parameters)\n");
		return;
	}
	if (!(mc->mix.n > 0)) {
		fprintf(out, "  (machine code: none on its lines: the compiler removed it, or merged it into other code)\n");
		return;
	}
	fprintf(out, "  (machine code: %.4g instructions", mc->mix.n);
	for (int shown = 0, used[EPI_IC_N] = {0}; shown < 4 && mc->mix.n > 0; shown++) {
		int best = -1;
		for (int k = 0; k < EPI_IC_N; k++)
			if (!used[k] && mc->mix.cls[k] > 0 && (best < 0 || mc->mix.cls[k] > mc->mix.cls[best]))
				best = k;
		if (best < 0)
			break;
		used[best] = 1;
		fprintf(out, "%s %s %.0f%%", shown ? "," : ";", epi_iclass_name(best), 100 * mc->mix.cls[best] / mc->mix.n);
	}
	double t;
	int b = epi_mcost_priced_bound(mc, &t);
	if (b >= 0)
		fprintf(out, "; bound: %s, %.0f%% of its time", epi_bound_name(b), 100 * mc->bound_t[b] / t);
	fprintf(out, ")\n");
}

/* The table's lines of the region's totals: energy (and time) per frequency,
 * the idle share and what had no price. */
static void table_totals(FILE *out, const priced *P, widths w)
{
	const report_cols *c = P->c;
	const epi_price *pr = P->pr;
	int nf = c->nf;
	fprintf(out, "  %-*s  %*s  %-*s", w.k, "all", w.c, "", w.f, "");
	for (int fi = 0; fi < nf; fi++) {
		char eb[48], tb[48];
		if (nf == 1) {
			with_sd(eb, sizeof eb, pr[fi].e, pr[fi].e_sd, "J");
			with_sd(tb, sizeof tb, pr[fi].t, pr[fi].t_sd, "s");
			fprintf(out, "  %-22s  %s", eb, tb);
		} else {
			si(eb, sizeof eb, pr[fi].e, "J");
			char m[64];
			snprintf(m, sizeof m, "%s%s", eb, fi == P->best ? " *" : "");
			fprintf(out, "  %14s", m);
		}
	}
	fprintf(out, "\n");
	if (nf > 1) {
		fprintf(out, "  %-*s  %*s  %-*s", w.k, "time", w.c, "", w.f, "");
		for (int fi = 0; fi < nf; fi++) {
			char tb[48];
			si(tb, sizeof tb, pr[fi].t, "s");
			fprintf(out, "  %14s", tb);
		}
		fprintf(out, "\n");
	}
	if (nf == 1 && !isnan(pr[0].e_idle) && !isnan(pr[0].e)) {
		char ib[48], db[48];
		si(ib, sizeof ib, pr[0].e_idle, "J");
		si(db, sizeof db, pr[0].e - pr[0].e_idle, "J");
		fprintf(out, "  (idle power %.3g W x time: %s; dynamic: %s)\n", c->cols[0].idle_w, ib, db);
	} else if (P->mc && nf == 1 && !isnan(pr[0].e)) {
		fprintf(out, "  (no idle power in the table: the energy is the sum of the instructions')\n");
	}
	if (P->mc)
		table_machine(out, &P->mc[0]);
	int nun = P->mc ? 0 : pr[0].nunpriced;
	if (nun)
		fprintf(out, "  (%d op%s without a cost-table entry: priced at 0)\n", nun, nun > 1 ? "s" : "");
}

/* Region P as a human table: a title, a line per op, the totals. */
static void region_table(FILE *out, const priced *P)
{
	const report_cols *c = P->c;
	char title[256];
	region_title(title, sizeof title, P->r);
	fprintf(out, "\n%s%s\n", title, P->r->counts.approx ? " (min/max are bounds)" : "");
	widths w = table_widths(P);
	fprintf(out, "  %-*s  %*s  %-*s", w.k, "op", w.c, "count", w.f, "formula");
	if (c->nf == 1)
		fprintf(out, "  %-22s  %s", "energy", "time");
	for (int fi = 0; fi < c->nf && c->nf > 1; fi++) {
		char fs[32], h[40];
		epi_freq_fmt(fs, sizeof fs, c->o->khz[fi]);
		snprintf(h, sizeof h, "%s GHz%s", fs, c->cols[fi].interpolated ? "~" : "");
		fprintf(out, "  %14s", h);
	}
	fprintf(out, "\n");
	for (int i = 0; i < P->r->counts.n; i++)
		table_op(out, &P->rows[i], c, w);
	if (c->nf)
		table_totals(out, P, w);
}

/* Region R priced by the compiled-code model MM at COL: a loop nest's
 * machine code, a function's (its loops and the rest, callees not
 * included), or the whole program's. */
static void model_price(const epi_mmodel *mm, const epi_mprices *mp, const epi_region *r, epi_mcost *out)
{
	if (r->scope == EPI_SCOPE_LOOP || r->scope == EPI_SCOPE_FUNCTION)
		epi_mmodel_region(mm, mp, r, out); /* as the counts: one run, callees included */
	else
		epi_mmodel_total(mm, mp, out);
}

/* Writes region R, its ROWS priced at the columns of C: CSV lines, a JSON
 * object appended to JREGIONS, or a human table. */
static void region_write(FILE *out, const epi_region *r, const oprow *rows, const report_cols *c, json_t *jregions)
{
	priced P = {.r = r, .rows = rows, .c = c, .best = -1};
	P.pr = xcalloc(c->nf + 1, sizeof *P.pr);
	if (c->o->mm)
		P.mc = xcalloc(c->nf + 1, sizeof *P.mc);
	for (int i = 0; i < c->nf; i++) {
		if (P.mc) {
			model_price(c->o->mm, c->mp[i], r, &P.mc[i]);
			P.pr[i] = P.mc[i].p;
		} else {
			price_rows(rows, r->counts.n, &c->cols[i], &P.pr[i]);
		}
		if (!isnan(P.pr[i].e) && (P.best < 0 || P.pr[i].e < P.pr[P.best].e))
			P.best = i;
	}
	if (r->scope != EPI_SCOPE_TOTAL)
		snprintf(P.line, sizeof P.line, "%d", r->line);
	if (c->o->format == EPI_FMT_CSV)
		region_csv(out, &P);
	else if (c->o->format == EPI_FMT_JSON)
		region_json(&P, jregions);
	else
		region_table(out, &P);
	free(P.pr);
	free(P.mc);
}

/* The JSON document's head: file, table, frequencies and bound parameters;
 * returns the root, its "regions" array in *JREGIONS. */
static json_t *json_head(const epi_analysis *a, const report_cols *c, json_t **jregions)
{
	const epi_report_opts *o = c->o;
	json_t *jroot = json_object();
	json_object_set_new(jroot, "file", json_string(a->file));
	json_object_set_new(jroot, "table", o->table ? json_string(o->table->path) : json_null());
	if (o->table_why)
		json_object_set_new(jroot, "table_node", json_string(o->table_why));
	json_t *jf = json_array();
	for (int i = 0; i < c->nf; i++)
		json_array_append_new(jf, json_real(o->khz[i] / 1e6));
	json_object_set_new(jroot, "freq_ghz", jf);
	json_t *jp = json_object();
	for (int k = 0; k < a->sym.nvars; k++)
		if (o->env->bound[k]) {
			char *v = fmt_q(&o->env->val[k]);
			json_object_set_new(jp, sym_name(&a->sym, k), json_string(v));
			free(v);
		}
	json_object_set_new(jroot, "params", jp);
	json_object_set_new(jroot, "model", json_string(o->mm ? "compiled" : "source"));
	json_object_set_new(jroot, "binary", o->mm ? json_string(o->mm->obj.path) : json_null());
	*jregions = json_array();
	json_object_set_new(jroot, "regions", *jregions);
	return jroot;
}

/* The table's first line: file, cost table, frequency, bound parameters. */
static void table_head(FILE *out, const epi_analysis *a, const report_cols *c)
{
	const epi_report_opts *o = c->o;
	const char *b = strrchr(a->file, '/');
	fprintf(out, "epi-predict: %s", b ? b + 1 : a->file);
	if (o->table)
		fprintf(out, ", cost table %s (%s%s%s; meter %s/%s)", o->table->path, o->table_why ? o->table_why : "",
			o->table_why ? "; " : "", o->table->cpu, o->table->meter, o->table->domain);
	else
		fprintf(out, ", counts only (no cost table: use --table FILE or calibrate this machine)");
	if (c->nf == 1) {
		char fs[32];
		epi_freq_fmt(fs, sizeof fs, o->khz[0]);
		fprintf(out, ", at %s GHz%s", fs, c->cols[0].interpolated ? ", interpolated between calibrated frequencies" : "");
	}
	for (int k = 0; k < a->sym.nvars; k++)
		if (o->env->bound[k]) {
			char *v = fmt_q(&o->env->val[k]);
			fprintf(out, ", %s = %s", sym_name(&a->sym, k), v);
			free(v);
		}
	if (o->mm) {
		char d[600];
		epi_mmodel_describe(o->mm, d, sizeof d);
		fprintf(out, "\nmodel: %s", d);
	}
	fprintf(out, "\n");
}

/* The JSON document's tail: unbound parameters and notes; writes it out. */
static void json_tail(FILE *out, const epi_analysis *a, const int *missing, json_t *jroot)
{
	json_t *jm = json_array(), *jn = json_array();
	for (int k = 0; k < a->sym.nvars; k++)
		if (missing[k])
			json_array_append_new(jm, json_string(sym_name(&a->sym, k)));
	for (int i = 0; i < a->nnotes; i++)
		json_array_append_new(jn, json_string(a->notes[i]));
	json_object_set_new(jroot, "unbound_params", jm);
	json_object_set_new(jroot, "notes", jn);
	json_dumpf(jroot, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	fputc('\n', out);
	json_decref(jroot);
}

/* The table's tail: unbound parameters, the legend and the notes. */
static void table_tail(FILE *out, const epi_analysis *a, const int *missing, int nf)
{
	char miss[512] = "";
	size_t ml = 0;
	for (int k = 0; k < a->sym.nvars; k++)
		if (missing[k] && ml < sizeof miss - 64)
			ml += snprintf(miss + ml, sizeof miss - ml, "%s%s", ml ? ", " : "", sym_name(&a->sym, k));
	if (ml)
		fprintf(out, "\nunbound parameters: %s; give their values with --param NAME=VALUE to evaluate counts\n", miss);
	if (nf > 1)
		fprintf(out, "\n* least energy; ~ interpolated between calibrated frequencies\n");
	for (int i = 0; i < a->nnotes; i++)
		fprintf(out, "%snote: %s\n", i ? "" : "\n", a->notes[i]);
}

int epi_report(FILE *out, epi_analysis *a, const epi_report_opts *o, char *err)
{
	int nf = o->table ? o->nkhz : 0;
	epi_fcol *cols = xcalloc(nf + 1, sizeof *cols);
	for (int i = 0; i < nf; i++)
		if (epi_table_at(o->table, o->khz[i], &cols[i], err) < 0) {
			for (int j = 0; j < i; j++)
				epi_fcol_free(&cols[j]);
			free(cols);
			return -1;
		}
	report_cols rc = {.o = o, .cols = cols, .nf = nf};
	if (o->mm) {
		rc.mp = xcalloc(nf + 1, sizeof *rc.mp);
		for (int i = 0; i < nf; i++)
			rc.mp[i] = epi_mmodel_prices(o->mm, &cols[i]);
	}
	int missing[SYM_MAXVARS] = {0};
	json_t *jroot = NULL, *jregions = NULL;
	if (o->format == EPI_FMT_CSV)
		fprintf(out, "%s\n", epi_csv_header);
	else if (o->format == EPI_FMT_JSON)
		jroot = json_head(a, &rc, &jregions);
	else
		table_head(out, a, &rc);
	int text = o->format != EPI_FMT_JSON;
	region_out *res = all_rows(a, o->env, o->jobs, missing, text ? &rc : NULL);
	for (int ri = 0; ri < a->nregions; ri++) {
		if (res[ri].text) { /* written by the threads */
			fwrite(res[ri].text, 1, res[ri].len, out);
			free(res[ri].text);
		} else {
			region_write(out, &a->regions[ri], res[ri].rows, &rc, jregions);
			rows_free(res[ri].rows, a->regions[ri].counts.n);
		}
	}
	free(res);
	if (o->format == EPI_FMT_JSON)
		json_tail(out, a, missing, jroot);
	else if (o->format == EPI_FMT_TABLE)
		table_tail(out, a, missing, nf);
	for (int i = 0; i < nf; i++) {
		if (rc.mp)
			epi_mprices_free(rc.mp[i]);
		epi_fcol_free(&cols[i]);
	}
	free(rc.mp);
	free(cols);
	return 0;
}
