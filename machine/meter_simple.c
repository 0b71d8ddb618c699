/* meter_simple: the two meters without hardware.
 *
 * none: time only, said plainly; no energy figure is ever made up.
 * const:WATTS: energy = WATTS x time, marked estimated in every output
 * (the fallback CodeCarbon applies silently, here only when asked). */
#include "machine/meter.h"
#include "machine/sysroot.h"
#include "model/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct const_priv {
	double watts, t0;
} const_priv;

static int const_open(epi_meter *m, const char *arg, char *err)
{
	if (!arg || !*arg)
		return epi_error(err, "meter 'const' needs a power: --meter const:WATTS (e.g. const:65)");
	char *end;
	double w = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "W") != 0) || !isfinite(w) || w <= 0)
		return epi_error(err, "meter 'const:%s': '%s' is not a power in watts (e.g. const:65)", arg, arg);
	const_priv *p = xcalloc(1, sizeof *p);
	p->watts = w;
	p->t0 = epi_now();
	m->priv = p;
	epi_domain *d = epi_meter_add(m, "system", "system");
	d->estimated = 1;
	d->interval_s = 0;
	snprintf(m->desc, sizeof m->desc, "const: an assumed %g W, not a measurement (energy = %g W x time)", w, w);
	return 0;
}

static int const_read(epi_meter *m, double *raw, char *err)
{
	const_priv *p = m->priv;
	raw[0] = p->watts * (epi_now() - p->t0);
	return 0;
}

static void free_priv(epi_meter *m)
{
	free(m->priv);
	m->priv = NULL;
}

static int none_open(epi_meter *m, const char *arg, char *err)
{
	if (arg && *arg)
		return epi_error(err, "meter 'none' takes no argument (got 'none:%s')", arg);
	m->time_only = 1;
	snprintf(m->desc, sizeof m->desc, "none: time only, no energy is measured");
	return 0;
}

static int none_read(epi_meter *m, double *raw, char *err) { return 0; }

const epi_meter_ops epi_meter_const = {
	.name = "const",
	.summary = "const:WATTS: energy = WATTS x time, marked estimated",
	.open = const_open,
	.read = const_read,
	.close = free_priv,
};

const epi_meter_ops epi_meter_none = {
	.name = "none",
	.summary = "time only, no energy",
	.open = none_open,
	.read = none_read,
	.close = free_priv,
};
