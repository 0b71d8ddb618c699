/* epi probe: what this machine can measure and control, and for all it
 * cannot, why and what would change that. */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/epi_cmd.h"
#include "machine/cpu.h"
#include "machine/cpufreq.h"
#include "machine/meter.h"
#include "model/freq.h"
#include "model/util.h"

static const char usage[] =
	"usage: %s [--format table|json]\n"
	"\n"
	"Lists the energy meters and the CPU frequency control of this machine: what\n"
	"works, and for everything that does not, why and how to change that.\n"
	"Nothing is changed. See epi-probe(1).\n";

typedef struct probe_opts {
	enum epi_format format;
} probe_opts;

/* What was found: the report as JSON, and what the table reads beside it. */
typedef struct probe_result {
	json_t *root, *jcpu, *jm, *jf; /* jcpu, jm and jf: parts of root */
	epi_cpuinfo ci;
	epi_cpufreq *cf;
	int usable; /* energy meters that work, none and const left out */
} probe_result;

static void parse_args(int argc, char **argv, probe_opts *o)
{
	static const struct option opts[] = {
		{"format", required_argument, 0, 'F'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
	*o = (probe_opts){.format = EPI_FMT_TABLE};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "F:h", opts, NULL)) != -1) {
		if (c == 'F')
			o->format = epi_parse_format(optarg);
		else if (c == 'h') {
			printf(usage, epi_prog);
			exit(0);
		} else
			epi_die(2, "unknown option");
	}
	if (o->format == EPI_FMT_CSV)
		epi_die(2, "probe reports are not tables of numbers: --format table or json");
	if (optind < argc)
		epi_die(2, "unexpected argument '%s'", argv[optind]);
}

static json_t *probe_cpu(epi_cpuinfo *ci)
{
	char err[EPI_ERRLEN];
	json_t *jcpu = json_object();
	if (epi_cpu_info(ci, err) == 0) {
		json_object_set_new(jcpu, "vendor", json_string(epi_vendor_name(ci->vendor)));
		json_object_set_new(jcpu, "model_name", json_string(ci->name));
		json_object_set_new(jcpu, "family", json_integer(ci->family));
		json_object_set_new(jcpu, "model", json_integer(ci->model));
		json_object_set_new(jcpu, "microcode", ci->microcode[0] ? json_string(ci->microcode) : json_null());
		json_object_set_new(jcpu, "cpus", json_integer(ci->ncpus));
		json_object_set_new(jcpu, "packages", json_integer(ci->npkg));
		/* the data caches of the first CPU, in bytes (null: not known) */
		epi_caches cs;
		epi_caches_read(ci->ncpus > 0 ? ci->cpus[0] : 0, &cs);
		const unsigned long long b[3] = {cs.l1, cs.l2, cs.l3};
		json_t *jc = json_object();
		for (int k = 0; k < 3; k++) {
			char key[8];
			snprintf(key, sizeof key, "l%d", k + 1);
			json_object_set_new(jc, key, b[k] ? json_integer((json_int_t)b[k]) : json_null());
		}
		json_object_set_new(jcpu, "caches", jc);
	} else {
		json_object_set_new(jcpu, "error", json_string(err));
	}
	return jcpu;
}

static json_t *meter_domains(const epi_meter *m)
{
	json_t *jd = json_array();
	for (int d = 0; d < m->ndom; d++) {
		const epi_domain *dm = &m->dom[d];
		json_t *x = json_object();
		json_object_set_new(x, "domain", json_string(dm->name));
		json_object_set_new(x, "scope", json_string(dm->scope));
		json_object_set_new(x, "update_interval_s", json_real(dm->interval_s));
		json_object_set_new(x, "resolution_j", json_real(dm->resolution_j));
		json_object_set_new(x, "wraps_at_j", dm->range_j > 0 ? json_real(dm->range_j) : json_null());
		json_object_set_new(x, "in_total", json_boolean(dm->in_total));
		json_object_set_new(x, "estimated", json_boolean(dm->estimated));
		json_array_append_new(jd, x);
	}
	return jd;
}

/* Whether the meter B works here and why; counts it in *USABLE when it
 * measures energy. wattsup is not opened: it needs its device named. */
static json_t *probe_meter(const epi_meter_ops *b, int *usable)
{
	json_t *o = json_object();
	json_object_set_new(o, "meter", json_string(b->name));
	json_object_set_new(o, "about", json_string(b->summary));
	if (b == &epi_meter_wattsup) {
		json_object_set_new(o, "usable", json_null());
		json_object_set_new(o, "why", json_string("not probed: name its serial device, --meter wattsup:/dev/ttyUSB0"));
		return o;
	}
	if (b == &epi_meter_const) {
		json_object_set_new(o, "usable", json_true());
		json_object_set_new(o, "why", json_string("always: an assumed power (--meter const:WATTS), not a measurement"));
		return o;
	}
	char err[EPI_ERRLEN];
	epi_meter m;
	if (epi_meter_open(&m, b->name, NULL, err) != 0) {
		json_object_set_new(o, "usable", json_false());
		json_object_set_new(o, "why", json_string(err));
		return o;
	}
	if (b != &epi_meter_none)
		(*usable)++;
	json_object_set_new(o, "usable", json_true());
	json_object_set_new(o, "why", json_string(m.desc));
	json_object_set_new(o, "domains", meter_domains(&m));
	epi_meter_close(&m);
	return o;
}

static json_t *freq_policy(const epi_policy *p)
{
	json_t *o = json_object();
	json_object_set_new(o, "policy", json_integer(p->id));
	json_t *cpus = json_array();
	for (int k = 0; k < p->ncpus; k++)
		json_array_append_new(cpus, json_integer(p->cpus[k]));
	json_object_set_new(o, "cpus", cpus);
	json_object_set_new(o, "driver", json_string(p->driver));
	json_object_set_new(o, "governor", json_string(p->governor));
	json_object_set_new(o, "pin_method", json_string(p->userspace ? "userspace governor + scaling_setspeed" : "scaling_min_freq = scaling_max_freq"));
	json_object_set_new(o, "frequencies_from", json_string(p->table ? "scaling_available_frequencies" : "cpuinfo_min_freq..cpuinfo_max_freq in steps"));
	json_t *fr = json_array();
	for (int k = 0; k < p->nfreq; k++)
		json_array_append_new(fr, json_real(p->freq[k] / 1e6));
	json_object_set_new(o, "frequencies_ghz", fr);
	return o;
}

static json_t *probe_freq(epi_cpufreq *cf)
{
	char err[EPI_ERRLEN];
	json_t *jf = json_object();
	if (epi_cpufreq_scan(cf, 0, err) == 0) {
		json_object_set_new(jf, "controllable", json_true());
		json_t *jp = json_array();
		for (int i = 0; i < cf->npol; i++)
			json_array_append_new(jp, freq_policy(&cf->pol[i]));
		json_object_set_new(jf, "policies", jp);
		json_object_set_new(jf, "boost", cf->boost_path[0] ? json_string(cf->boost_on ? "on" : "off") : json_null());
		json_object_set_new(jf, "boost_control", cf->boost_path[0] ? json_string(cf->boost_path) : json_null());
	} else {
		json_object_set_new(jf, "controllable", json_false());
		json_object_set_new(jf, "why", json_string(err));
	}
	char state[EPI_PATHLEN];
	if (epi_freq_state_peek(state, sizeof state))
		json_object_set_new(jf, "pending_restore", json_string(state));
	return jf;
}

/* Probes the CPU, every meter backend and the frequency control. */
static void run(probe_result *res)
{
	*res = (probe_result){.root = json_object()};
	res->jcpu = probe_cpu(&res->ci);
	json_object_set_new(res->root, "cpu", res->jcpu);
	res->jm = json_array();
	const epi_meter_ops *const *b = epi_meter_backends();
	for (int i = 0; b[i]; i++)
		json_array_append_new(res->jm, probe_meter(b[i], &res->usable));
	json_object_set_new(res->root, "meters", res->jm);
	json_object_set_new(res->root, "energy_measurable", json_boolean(res->usable > 0));
	res->cf = xcalloc(1, sizeof *res->cf);
	res->jf = probe_freq(res->cf);
	json_object_set_new(res->root, "frequency", res->jf);
}

static void report_json(const probe_result *res)
{
	json_dumpf(res->root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	putchar('\n');
}

static void table_meters(const probe_result *res)
{
	printf("\nenergy meters:\n");
	size_t i;
	json_t *o;
	json_array_foreach(res->jm, i, o) {
		json_t *u = json_object_get(o, "usable");
		const char *state_s = json_is_null(u) ? "--" : json_is_true(u) ? "yes" : "no";
		printf("  %-9s %-4s %s\n", json_string_value(json_object_get(o, "meter")), state_s,
		       json_string_value(json_object_get(o, "why")));
		json_t *jd = json_object_get(o, "domains");
		size_t k;
		json_t *x;
		json_array_foreach(jd, k, x) printf("  %-9s      domain %s (%s)%s\n", "", json_string_value(json_object_get(x, "domain")),
						    json_string_value(json_object_get(x, "scope")),
						    json_is_true(json_object_get(x, "in_total")) ? "" : ", not in the total");
	}
	if (!res->usable)
		printf("  => no energy meter: epi measures time only here (--meter none), or an assumed power (--meter const:WATTS)\n");
}

static void table_freq(const probe_result *res)
{
	const epi_cpufreq *cf = res->cf;
	printf("\nfrequency control:\n");
	if (json_is_true(json_object_get(res->jf, "controllable"))) {
		for (int p = 0; p < cf->npol; p++) {
			const epi_policy *pp = &cf->pol[p];
			char a[32], bb[32];
			epi_freq_ghz(a, sizeof a, pp->nfreq ? pp->freq[0] : 0);
			epi_freq_ghz(bb, sizeof bb, pp->nfreq ? pp->freq[pp->nfreq - 1] : 0);
			printf("  policy%d cpus %d..%d: %s, governor %s, %d frequencies %s..%s, pinned by %s\n", pp->id,
			       pp->cpus[0], pp->cpus[pp->ncpus - 1], pp->driver, pp->governor, pp->nfreq, a, bb,
			       pp->userspace ? "userspace governor" : "min = max");
		}
		printf("  boost: %s\n", cf->boost_path[0] ? (cf->boost_on ? "on" : "off") : "no control");
	} else {
		printf("  no: %s\n  => epi runs at whatever frequency the machine chooses and reports the effective one\n",
		       json_string_value(json_object_get(res->jf, "why")));
	}
	if (json_object_get(res->jf, "pending_restore"))
		printf("  a previous run left frequencies changed: `epi freq --restore` (state in %s)\n",
		       json_string_value(json_object_get(res->jf, "pending_restore")));
	double g = epi_effective_ghz(res->ci.cpus[0]);
	if (!isnan(g))
		printf("  effective frequency of CPU %d now: %.3f GHz (dependent adds)\n", res->ci.cpus[0], g);
}

static void report_table(const probe_result *res)
{
	const epi_cpuinfo *ci = &res->ci;
	const char *name = json_string_value(json_object_get(res->jcpu, "model_name"));
	printf("cpu: %s (%s family %lld model %lld), %lld CPUs in %lld package%s\n", name ? name : "unknown",
	       epi_vendor_name(ci->vendor), (long long)ci->family, (long long)ci->model, (long long)ci->ncpus,
	       (long long)ci->npkg, ci->npkg == 1 ? "" : "s");
	json_t *jc = json_object_get(res->jcpu, "caches");
	if (jc) {
		printf("data caches of CPU %d:", ci->ncpus > 0 ? ci->cpus[0] : 0);
		for (int k = 0; k < 3; k++) {
			char key[8];
			snprintf(key, sizeof key, "l%d", k + 1);
			json_t *v = json_object_get(jc, key);
			long long n = json_is_integer(v) ? (long long)json_integer_value(v) : 0;
			if (!n)
				printf(" L%d not known%s", k + 1, k < 2 ? "," : "");
			else if (n % (1 << 20) == 0)
				printf(" L%d %lld MiB%s", k + 1, n >> 20, k < 2 ? "," : "");
			else
				printf(" L%d %lld KiB%s", k + 1, n >> 10, k < 2 ? "," : "");
		}
		printf("\n");
	}
	table_meters(res);
	table_freq(res);
	printf("\ntime: always measurable (CLOCK_MONOTONIC)\n");
}

int epi_probe_main(int argc, char **argv)
{
	probe_opts o;
	probe_result res;
	parse_args(argc, argv, &o);
	run(&res);
	if (o.format == EPI_FMT_JSON)
		report_json(&res);
	else
		report_table(&res);
	json_decref(res.root);
	free(res.cf);
	return 0;
}
