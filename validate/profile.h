/* profile: runs a program under a sampler, ALEA-style: the instruction
 * pointer of every thread sampled at a fixed interval from a random first
 * offset (systematic sampling), while a meter thread records (time, energy)
 * at the meter's update rate; each sample then gets the power of the sensing
 * interval just before it (ALEA's constant power model).
 *
 * Samplers are chosen through a small table: `perf` (perf_event_open
 * cpu-clock, one event per CPU inherited by the program's threads, read
 * through ring buffers; CPU time) and `ptrace` (ALEA's: every thread
 * interrupted at each tick; wall-clock time). */
#ifndef EPI_PROFILE_H
#define EPI_PROFILE_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "machine/meter.h"
#include "validate/trace.h"

typedef struct epi_run_data {
	epi_run_begin begin;
	epi_run_end end;
	epi_sample *s;
	size_t ns, caps;
	epi_reading *r;
	size_t nr, capr;
	epi_map *maps;
	int nmaps, capmaps;
	int kernel_excluded;  /* samples in the kernel were not allowed (perf_event_paranoid) */
} epi_run_data;

typedef struct epi_profile_opts {
	char *const *argv;    /* the program and its arguments */
	uint64_t interval_ns; /* sampling interval */
	epi_meter *meter;     /* NULL or time-only: no power */
	const char *domain;   /* the meter domain to price; NULL for the machine's total */
	uint64_t seed;        /* for the random first offsets */
} epi_profile_opts;

struct epi_sampler;

typedef struct epi_sampler_ops {
	const char *name;
	const char *summary;
	/* Prepares sampling of PID, which waits before exec; OFFSET_NS is the
	 * first sample's offset. Returns 0, or -1 with ERR. */
	int (*start)(struct epi_sampler *sm, pid_t pid, uint64_t interval_ns, uint64_t offset_ns, char *err);
	/* For samplers that must wait for the program themselves (ptrace's
	 * tracer): samples until it ends, and gives its wait status and usage.
	 * NULL: the program is waited for here, calling collect every wait_s. */
	int (*run)(struct epi_sampler *sm, epi_run_data *run, int *status, struct rusage *ru, char *err);
	/* Without run: collects what is ready into RUN; returns 0, or -1 with ERR. */
	int (*collect)(struct epi_sampler *sm, epi_run_data *run, char *err);
	/* Without run: seconds until collect wants to run again. */
	double (*wait_s)(struct epi_sampler *sm);
	/* It reads the meter itself at its ticks (ALEA's loop: power, then the
	 * threads), instead of a meter thread polling on its own clock. */
	int reads_meter;
	/* Collects the rest after the program ended, and frees. */
	int (*stop)(struct epi_sampler *sm, epi_run_data *run, char *err);
} epi_sampler_ops;

typedef struct epi_sampler {
	const epi_sampler_ops *ops;
	void *priv;
	uint64_t exec_ns;     /* when the program was exec'd (samples before are the launcher's) */
	/* for samplers that read the meter themselves (reads_meter), set when
	 * the run has a meter: reads it once into the run's readings, 0 or -1 */
	int (*read_meter)(void *ctx);
	void *meter_ctx;
	double meter_step_s;  /* read it at most this often */
} epi_sampler;

extern const epi_sampler_ops epi_sampler_perf, epi_sampler_ptrace;
/* The sampler NAME, or NULL. */
const epi_sampler_ops *epi_sampler_find(const char *name);

/* Runs the program once under OPS; fills RUN (index INDEX). Returns 0 when
 * the run was made (whatever the program's exit status, in run->end), or -1
 * with ERR when the program could not be run or sampled. */
int epi_profile_run(const epi_sampler_ops *ops, const epi_profile_opts *o, uint32_t index, epi_run_data *run,
		    char *err);
void epi_run_data_free(epi_run_data *run);

/* Appends to RUN (for samplers). */
void epi_run_add_sample(epi_run_data *run, const epi_sample *s);
void epi_run_add_map(epi_run_data *run, const epi_map *m);
/* RUN's maps in the order they were made (T: each one's time, in its
 * order; equal times keep it), so that the program's own, which its exec
 * maps first, comes first, as the trace's readers take it. */
void epi_run_maps_in_order(epi_run_data *run, const uint64_t *t);

/* The meter's sensing interval: its fastest domain's update interval, at
 * least 1 ms (a faster poll only repeats readings), at most its safe period. */
double epi_meter_step(const epi_meter *m);
/* How stale a reading can be: the slowest domain's update interval (a
 * counter returns the energy at its last update; 0 for computed meters). */
double epi_meter_lag(const epi_meter *m);

/* Gives each sample the power of the meter's sensing interval that ends
 * last before it (the first interval for samples before it ends); NAN with
 * fewer than two readings. */
void epi_assign_power(epi_sample *s, size_t ns, const epi_reading *r, size_t nr);

/* Writes RUN to the trace: its beginning, load map, meter readings, samples and end. */
int epi_trace_put_run(epi_trace_writer *w, const epi_run_data *run, char *err);

/* Reads the GNU build-id of the ELF file PATH into ID; returns its length, or 0. */
int epi_read_buildid(const char *path, unsigned char *id);

#endif
