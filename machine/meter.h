/* meter: energy meters behind one small interface.
 *
 * A backend opens its device, lists its domains (package-0, core, dram,
 * psys, wall, ...) and reads each domain's raw cumulative energy in joules.
 * Raw counters may wrap; epi_meter_poll() turns raw readings into totals
 * that do not, provided it is called at least every epi_meter_period()
 * seconds. Backends live one per file (meter_powercap.c, meter_msr.c, ...)
 * and are chosen through the table in meter.c, by name or by `auto`. */
#ifndef EPI_METER_H
#define EPI_METER_H

#include <stddef.h>
#include <stdint.h>

#define EPI_MAXDOM 32

typedef struct epi_domain {
	char name[40];       /* package-0, core, dram, psys, wall, time, ... */
	char scope[16];      /* package, core, dram, uncore, platform, system, socket */
	double interval_s;   /* how often the device updates it */
	double resolution_j; /* its smallest step */
	double range_j;      /* where the raw counter wraps; 0: it does not */
	double max_w;        /* stated maximum power; 0: unknown */
	int estimated;       /* 1 when not measured (const:WATTS) */
	int in_total;        /* counts towards the machine's total (never psys twice) */
	/* accumulation, by epi_meter_poll() */
	double raw, total;
	double changed_at;   /* when the raw value last moved */
	int started;
} epi_domain;

typedef struct epi_meter epi_meter;

typedef struct epi_meter_ops {
	const char *name;    /* powercap, msr, perf, hwmon, slurm, wattsup, const, none */
	const char *summary; /* one line for --help and probe */
	/* Opens the meter; ARG is what follows "name:" (may be NULL). On
	 * failure returns -1 with ERR saying why the meter is unusable here. */
	int (*open)(epi_meter *m, const char *arg, char *err);
	/* Reads every domain's raw cumulative joules into RAW[i]. */
	int (*read)(epi_meter *m, double *raw, char *err);
	void (*close)(epi_meter *m);
} epi_meter_ops;

struct epi_meter {
	const epi_meter_ops *ops;
	char desc[160];      /* what exactly is being read, for reports */
	int ndom;
	epi_domain dom[EPI_MAXDOM];
	void *priv;
	int time_only;       /* `none`: no energy at all */
	double t_first, t_last; /* the window the totals cover (epi_meter_poll) */
	double t_span;       /* how long the last poll's read took: t_last is its middle */
};

/* The backends, in the order `auto` tries them. */
extern const epi_meter_ops epi_meter_powercap, epi_meter_msr, epi_meter_perf, epi_meter_hwmon, epi_meter_slurm,
	epi_meter_wattsup, epi_meter_const, epi_meter_none;
const epi_meter_ops *const *epi_meter_backends(void);

/* Opens the meter SPEC: NAME, NAME:ARG, or "auto". For auto, WHY (may be
 * NULL, EPI_WHYLEN bytes) receives one line per backend tried: which was
 * chosen and why the others were not usable. */
#define EPI_WHYLEN 4096
int epi_meter_open(epi_meter *m, const char *spec, char *why, char *err);
void epi_meter_close(epi_meter *m);

/* Adds a domain to M (for backends); returns it. */
epi_domain *epi_meter_add(epi_meter *m, const char *name, const char *scope);

/* Longest safe time between polls: half the time the fastest domain needs
 * to wrap at its stated maximum power (1 kW when unstated), at most 1 s. */
double epi_meter_period(const epi_meter *m);

/* Reads the meter and accumulates: the first call sets the baseline. */
int epi_meter_poll(epi_meter *m, char *err);

/* The energy of the window: the named DOMAIN's total, or the sum of the
 * domains in the machine's total when DOMAIN is NULL; NAN for a time-only
 * meter. */
double epi_meter_joules(const epi_meter *m, const char *domain);

/* Zeroes the totals (a new measurement window starts at the next poll). */
void epi_meter_reset(epi_meter *m);

/* Accumulates the raw reading RAW into domain D at time NOW (for tests and
 * backends that poll on their own). */
void epi_domain_feed(epi_domain *d, double raw, double now);

/* The WattsUp? Pro's records as they come over the serial line, whatever
 * the reads cut them into (meter_wattsup.c): '#' .. ';' frames, bytes
 * outside one skipped, a frame that never closes dropped. */
#define EPI_WATTSUP_BUF 1024
typedef struct epi_wattsup {
	char buf[EPI_WATTSUP_BUF];
	size_t len;
	int bad_run;     /* bad records in a row (the caller restarts logging at 3) */
	int saw_version; /* a #v record came */
	int have;        /* a power is known */
	double w, t;     /* the last record's watts and when it came */
	double acc;      /* joules up to t */
} epi_wattsup;

/* Frames and handles the N bytes of DATA read at NOW (seconds). */
void epi_wattsup_feed(epi_wattsup *s, const char *data, size_t n, double now);

#endif
