/* meter_perf: RAPL through the perf `power` PMU, counting only.
 *
 * The PMU's type is in /sys/bus/event_source/devices/power/type and each
 * event's config and scale in its events/ folder (energy-pkg: "event=0x02",
 * energy-pkg.scale: joules per count). The events are system-wide: pid -1,
 * one CPU per package (psys once). Opening needs perf_event_paranoid <= 0
 * or CAP_PERFMON. The kernel keeps 64-bit counts, so nothing wraps here. */
#include "machine/cpu.h"
#include "machine/meter.h"
#include "machine/perf_sys.h"
#include "machine/sysroot.h"
#include "model/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct perf_priv {
	int fd[EPI_MAXDOM];
	double scale[EPI_MAXDOM];
} perf_priv;

static void perf_close(epi_meter *m)
{
	perf_priv *p = m->priv;
	if (!p)
		return;
	for (int i = 0; i < m->ndom; i++)
		if (p->fd[i] > 0)
			close(p->fd[i]);
	free(p);
	m->priv = NULL;
}

/* Parses "event=0x02" (and optional ",umask=.." which RAPL events lack). */
static int parse_config(const char *s, uint64_t *config)
{
	const char *e = strstr(s, "event=");
	if (!e)
		return -1;
	char *end;
	*config = strtoull(e + 6, &end, 0);
	return end == e + 6 ? -1 : 0;
}

static int perf_open(epi_meter *m, const char *arg, char *err)
{
	char dir[EPI_PATHLEN], path[EPI_PATHLEN + 64], buf[128];
	epi_syspath(dir, "/sys/bus/event_source/devices/power");
	long long type;
	snprintf(path, sizeof path, "%s/type", dir);
	if (!epi_exists(dir))
		return epi_error(err, "no perf `power` PMU ('%s' does not exist: no RAPL events in this kernel "
				 "or machine; virtual machines have none)", dir);
	if (epi_read_i64(path, &type, err) < 0)
		return -1;
	epi_cpuinfo ci;
	if (epi_cpu_info(&ci, err) < 0)
		return -1;
	perf_priv *p = xcalloc(1, sizeof *p);
	m->priv = p;
	static const struct { const char *ev, *name, *scope; int in_total, per_pkg; } evs[] = {
		{"energy-pkg", "package", "package", 1, 1}, {"energy-cores", "core", "cores", 0, 1},
		{"energy-gpu", "uncore", "uncore", 0, 1},   {"energy-ram", "dram", "dram", 1, 1},
		{"energy-psys", "psys", "platform", 0, 0},
	};
	for (size_t e = 0; e < sizeof evs / sizeof *evs; e++) {
		uint64_t config;
		char e2[EPI_ERRLEN];
		snprintf(path, sizeof path, "%s/events/%s", dir, evs[e].ev);
		if (epi_read_line(path, buf, sizeof buf, e2) < 0)
			continue;
		if (parse_config(buf, &config) < 0)
			return epi_error(err, "'%s' does not hold an event: '%s'", path, buf);
		snprintf(path, sizeof path, "%s/events/%s.scale", dir, evs[e].ev);
		double scale = 2.3283064365386962890625e-10; /* 2^-32 J, the usual */
		if (epi_read_line(path, buf, sizeof buf, e2) == 0)
			scale = strtod(buf, NULL);
		int npk = evs[e].per_pkg ? ci.npkg : 1;
		for (int k = 0; k < npk; k++) {
			struct perf_event_attr a;
			memset(&a, 0, sizeof a);
			a.type = (uint32_t)type;
			a.size = sizeof a;
			a.config = config;
			int fd = epi_sys_perf_event_open(&a, -1, ci.pkg_cpu[k], -1, 0);
			if (fd < 0) {
				int en = errno;
				if (en == EACCES || en == EPERM) {
					long long par = 2;
					char pp[EPI_PATHLEN];
					epi_read_i64(epi_syspath(pp, "/proc/sys/kernel/perf_event_paranoid"), &par, e2);
					return epi_error(err, "perf_event_open(%s) denied: perf_event_paranoid is %lld; the "
							 "power PMU needs it <= 0 (`sudo sysctl kernel.perf_event_paranoid=0`) "
							 "or CAP_PERFMON", evs[e].ev, par);
				}
				return epi_error(err, "perf_event_open(%s, cpu %d): %s", evs[e].ev, ci.pkg_cpu[k], strerror(en));
			}
			char name[64];
			if (!evs[e].per_pkg)
				snprintf(name, sizeof name, "%s", evs[e].name);
			else if (e == 0)
				snprintf(name, sizeof name, "package-%d", k);
			else
				snprintf(name, sizeof name, "package-%d/%s", k, evs[e].name);
			epi_domain *d = epi_meter_add(m, name, evs[e].scope);
			if (!d) {
				close(fd);
				break;
			}
			p->fd[m->ndom - 1] = fd;
			p->scale[m->ndom - 1] = scale;
			d->in_total = evs[e].in_total;
			d->interval_s = 1e-3;
			d->resolution_j = scale;
		}
	}
	if (m->ndom == 0)
		return epi_error(err, "the perf `power` PMU at '%s' lists no energy event", dir);
	snprintf(m->desc, sizeof m->desc, "RAPL through the perf power PMU (type %lld), %d event%s", type, m->ndom,
		 m->ndom == 1 ? "" : "s");
	return 0;
}

static int perf_read(epi_meter *m, double *raw, char *err)
{
	perf_priv *p = m->priv;
	for (int i = 0; i < m->ndom; i++) {
		uint64_t c;
		if (epi_sys_perf_read(p->fd[i], &c) < 0)
			return epi_error(err, "cannot read the perf counter of %s: %s", m->dom[i].name, strerror(errno));
		raw[i] = (double)c * p->scale[i];
	}
	return 0;
}

const epi_meter_ops epi_meter_perf = {
	.name = "perf",
	.summary = "RAPL through the perf power PMU (system-wide; perf_event_paranoid <= 0 or CAP_PERFMON)",
	.open = perf_open,
	.read = perf_read,
	.close = perf_close,
};
