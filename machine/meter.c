/* meter: the backend table, `auto`, and wrap-safe accumulation (see meter.h). */
#include "machine/meter.h"
#include "machine/sysroot.h"
#include "model/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const epi_meter_ops *const backends[] = {
	&epi_meter_powercap, &epi_meter_msr, &epi_meter_perf, &epi_meter_hwmon, &epi_meter_slurm,
	&epi_meter_wattsup, &epi_meter_const, &epi_meter_none, NULL,
};

const epi_meter_ops *const *epi_meter_backends(void) { return backends; }

epi_domain *epi_meter_add(epi_meter *m, const char *name, const char *scope)
{
	if (m->ndom == EPI_MAXDOM)
		return NULL;
	epi_domain *d = &m->dom[m->ndom++];
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "%s", name);
	snprintf(d->scope, sizeof d->scope, "%s", scope);
	d->in_total = 1;
	return d;
}

static int open_one(epi_meter *m, const epi_meter_ops *ops, const char *arg, char *err)
{
	memset(m, 0, sizeof *m);
	m->ops = ops;
	if (ops->open(m, arg, err) < 0) {
		if (m->priv && ops->close)
			ops->close(m);
		memset(m, 0, sizeof *m);
		return -1;
	}
	return 0;
}

static void why_add(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void why_add(char *why, const char *fmt, ...)
{
	if (!why)
		return;
	size_t n = strlen(why);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why + n, EPI_WHYLEN - n, fmt, ap);
	va_end(ap);
}

int epi_meter_open(epi_meter *m, const char *spec, char *why, char *err)
{
	if (why)
		why[0] = 0;
	if (!spec || strcmp(spec, "auto") == 0) {
		char e[EPI_ERRLEN];
		for (int i = 0; backends[i]; i++) {
			const epi_meter_ops *b = backends[i];
			if (b == &epi_meter_wattsup) {
				why_add(why, "%s: not tried: a serial meter must be named, e.g. --meter wattsup:/dev/ttyUSB0\n", b->name);
				continue;
			}
			if (b == &epi_meter_const) {
				why_add(why, "%s: not tried: an assumed power is never chosen for you (--meter const:WATTS)\n", b->name);
				continue;
			}
			if (open_one(m, b, NULL, e) == 0) {
				why_add(why, "%s: chosen: %s\n", b->name, m->desc);
				return 0;
			}
			why_add(why, "%s: %s\n", b->name, e);
		}
		return epi_error(err, "no meter could be opened");
	}
	char name[64];
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	if (len >= sizeof name)
		len = sizeof name - 1;
	memcpy(name, spec, len);
	name[len] = 0;
	for (int i = 0; backends[i]; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return open_one(m, backends[i], colon ? colon + 1 : NULL, err);
	char list[256] = "";
	for (int i = 0; backends[i]; i++) {
		size_t n = strlen(list);
		snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", backends[i]->name);
	}
	return epi_error(err, "unknown meter '%s' (known: auto, %s)", spec, list);
}

void epi_meter_close(epi_meter *m)
{
	if (m->ops && m->ops->close)
		m->ops->close(m);
	memset(m, 0, sizeof *m);
}

double epi_meter_period(const epi_meter *m)
{
	double p = 1.0;
	for (int i = 0; i < m->ndom; i++) {
		const epi_domain *d = &m->dom[i];
		if (d->range_j <= 0)
			continue;
		double w = d->max_w > 0 ? d->max_w : 1000.0;
		double t = d->range_j / w / 2;
		if (t < p)
			p = t;
	}
	return p < 1e-3 ? 1e-3 : p;
}

void epi_domain_feed(epi_domain *d, double raw, double now)
{
	if (!d->started) {
		d->started = 1;
		d->raw = raw;
		d->changed_at = now;
		return;
	}
	double delta = raw - d->raw;
	if (delta < 0 && d->range_j > 0)
		delta += d->range_j; /* the counter wrapped once since the last poll */
	if (delta < 0)
		delta = 0; /* a counter that was reset: nothing to add */
	if (raw != d->raw)
		d->changed_at = now;
	d->total += delta;
	d->raw = raw;
}

int epi_meter_poll(epi_meter *m, char *err)
{
	if (m->time_only)
		return 0;
	double raw[EPI_MAXDOM];
	double before = epi_now();
	if (m->ops->read(m, raw, err) < 0)
		return -1;
	double after = epi_now();
	double now = (before + after) / 2; /* the best guess of the moment read */
	m->t_span = after - before;
	for (int i = 0; i < m->ndom; i++)
		epi_domain_feed(&m->dom[i], raw[i], now);
	if (m->t_first == 0)
		m->t_first = now;
	m->t_last = now;
	return 0;
}

void epi_meter_reset(epi_meter *m)
{
	m->t_first = m->t_last = 0;
	for (int i = 0; i < m->ndom; i++) {
		m->dom[i].started = 0;
		m->dom[i].total = 0;
	}
}

double epi_meter_joules(const epi_meter *m, const char *domain)
{
	if (!m || m->time_only)
		return NAN;
	double j = 0;
	for (int i = 0; i < m->ndom; i++)
		if (domain ? strcmp(m->dom[i].name, domain) == 0 : m->dom[i].in_total)
			j += m->dom[i].total;
	return j;
}
