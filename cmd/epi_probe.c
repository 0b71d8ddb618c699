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

int epi_probe_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, 0, 'F'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
	enum epi_format format = EPI_FMT_TABLE;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "F:h", opts, NULL)) != -1) {
		if (c == 'F')
			format = epi_parse_format(optarg);
		else if (c == 'h') {
			printf(usage, epi_prog);
			return 0;
		} else
			epi_die(2, "unknown option");
	}
	if (format == EPI_FMT_CSV)
		epi_die(2, "probe reports are not tables of numbers: --format table or json");
	if (optind < argc)
		epi_die(2, "unexpected argument '%s'", argv[optind]);
	char err[EPI_ERRLEN];
	json_t *root = json_object();
	epi_cpuinfo ci;
	json_t *jcpu = json_object();
	if (epi_cpu_info(&ci, err) == 0) {
		json_object_set_new(jcpu, "vendor", json_string(epi_vendor_name(ci.vendor)));
		json_object_set_new(jcpu, "model_name", json_string(ci.name));
		json_object_set_new(jcpu, "family", json_integer(ci.family));
		json_object_set_new(jcpu, "model", json_integer(ci.model));
		json_object_set_new(jcpu, "cpus", json_integer(ci.ncpus));
		json_object_set_new(jcpu, "packages", json_integer(ci.npkg));
	} else {
		json_object_set_new(jcpu, "error", json_string(err));
	}
	json_object_set_new(root, "cpu", jcpu);
	/* meters */
	json_t *jm = json_array();
	const epi_meter_ops *const *b = epi_meter_backends();
	int usable = 0;
	for (int i = 0; b[i]; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "meter", json_string(b[i]->name));
		json_object_set_new(o, "about", json_string(b[i]->summary));
		if (b[i] == &epi_meter_wattsup) {
			json_object_set_new(o, "usable", json_null());
			json_object_set_new(o, "why", json_string("not probed: name its serial device, --meter wattsup:/dev/ttyUSB0"));
		} else if (b[i] == &epi_meter_const) {
			json_object_set_new(o, "usable", json_true());
			json_object_set_new(o, "why", json_string("always: an assumed power (--meter const:WATTS), not a measurement"));
		} else {
			epi_meter m;
			if (epi_meter_open(&m, b[i]->name, NULL, err) == 0) {
				if (b[i] != &epi_meter_none)
					usable++;
				json_object_set_new(o, "usable", json_true());
				json_object_set_new(o, "why", json_string(m.desc));
				json_t *jd = json_array();
				for (int d = 0; d < m.ndom; d++) {
					json_t *x = json_object();
					json_object_set_new(x, "domain", json_string(m.dom[d].name));
					json_object_set_new(x, "scope", json_string(m.dom[d].scope));
					json_object_set_new(x, "update_interval_s", json_real(m.dom[d].interval_s));
					json_object_set_new(x, "resolution_j", json_real(m.dom[d].resolution_j));
					json_object_set_new(x, "wraps_at_j", m.dom[d].range_j > 0 ? json_real(m.dom[d].range_j) : json_null());
					json_object_set_new(x, "in_total", json_boolean(m.dom[d].in_total));
					json_object_set_new(x, "estimated", json_boolean(m.dom[d].estimated));
					json_array_append_new(jd, x);
				}
				json_object_set_new(o, "domains", jd);
				epi_meter_close(&m);
			} else {
				json_object_set_new(o, "usable", json_false());
				json_object_set_new(o, "why", json_string(err));
			}
		}
		json_array_append_new(jm, o);
	}
	json_object_set_new(root, "meters", jm);
	json_object_set_new(root, "energy_measurable", json_boolean(usable > 0));
	/* frequency control */
	epi_cpufreq *cf = xcalloc(1, sizeof *cf);
	json_t *jf = json_object();
	if (epi_cpufreq_scan(cf, 0, err) == 0) {
		json_object_set_new(jf, "controllable", json_true());
		json_t *jp = json_array();
		for (int i = 0; i < cf->npol; i++) {
			epi_policy *p = &cf->pol[i];
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
			json_array_append_new(jp, o);
		}
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
	json_object_set_new(root, "frequency", jf);
	if (format == EPI_FMT_JSON) {
		json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		putchar('\n');
	} else {
		printf("cpu: %s (%s family %lld model %lld), %lld CPUs in %lld package%s\n",
		       json_string_value(json_object_get(jcpu, "model_name")) ? json_string_value(json_object_get(jcpu, "model_name")) : "unknown",
		       epi_vendor_name(ci.vendor), (long long)ci.family, (long long)ci.model, (long long)ci.ncpus,
		       (long long)ci.npkg, ci.npkg == 1 ? "" : "s");
		printf("\nenergy meters:\n");
		size_t i;
		json_t *o;
		json_array_foreach(jm, i, o) {
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
		if (!usable)
			printf("  => no energy meter: epi measures time only here (--meter none), or an assumed power (--meter const:WATTS)\n");
		printf("\nfrequency control:\n");
		if (json_is_true(json_object_get(jf, "controllable"))) {
			for (int p = 0; p < cf->npol; p++) {
				epi_policy *pp = &cf->pol[p];
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
			       json_string_value(json_object_get(jf, "why")));
		}
		if (json_object_get(jf, "pending_restore"))
			printf("  a previous run left frequencies changed: `epi freq --restore` (state in %s)\n",
			       json_string_value(json_object_get(jf, "pending_restore")));
		double g = epi_effective_ghz(ci.cpus[0]);
		if (!isnan(g))
			printf("  effective frequency of CPU %d now: %.3f GHz (dependent adds)\n", ci.cpus[0], g);
		printf("\ntime: always measurable (CLOCK_MONOTONIC)\n");
	}
	json_decref(root);
	free(cf);
	return 0;
}
