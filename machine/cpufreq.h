/* cpufreq: list the CPU frequency policies, pin CPUs to one frequency, and
 * give every changed value back.
 *
 * Pinning uses the userspace governor and scaling_setspeed where the
 * driver offers it (acpi-cpufreq), else scaling_min_freq = scaling_max_freq
 * (intel_pstate, amd-pstate, cppc in active mode), written in the order that
 * keeps min <= max. Before the first write every value to be touched is
 * saved to a state file; epi_freq_restore() (at exit, on SIGINT, SIGTERM or
 * SIGHUP, or later by `epi freq --restore` after a SIGKILL) writes them back
 * and removes the file. */
#ifndef EPI_CPUFREQ_H
#define EPI_CPUFREQ_H

#include "machine/cpu.h"
#include "machine/sysroot.h"

#define EPI_MAXPOL 256
#define EPI_MAXFREQ 128

typedef struct epi_policy {
	int id;                      /* policyN */
	char dir[EPI_PATHLEN];
	int ncpus, cpus[EPI_MAXCPU / 4];
	char driver[32], governor[32], governors[256];
	long long hw_min, hw_max;    /* cpuinfo_min_freq, cpuinfo_max_freq (kHz) */
	long long min, max, cur;     /* scaling_min_freq, scaling_max_freq, scaling_cur_freq */
	int table;                   /* frequencies from scaling_available_frequencies */
	int userspace;               /* the userspace governor is available */
	int nfreq;
	long long freq[EPI_MAXFREQ]; /* offered frequencies, ascending (kHz) */
} epi_policy;

typedef struct epi_cpufreq {
	int npol;
	epi_policy pol[EPI_MAXPOL];
	char boost_path[EPI_PATHLEN]; /* cpufreq/boost or intel_pstate/no_turbo; "" if none */
	int boost_inverted;           /* no_turbo: 1 means boost off */
	int boost_on;
} epi_cpufreq;

/* Reads every policy; a range driver's frequencies are listed every
 * STEP_KHZ (0: 100 MHz) from min to max. -1 with ERR when there is no
 * cpufreq (saying why). */
int epi_cpufreq_scan(epi_cpufreq *c, long long step_khz, char *err);

/* 0 when policy P can run at KHZ (one of its frequencies, or within its
 * range); else -1 with ERR naming the CPU, policy, driver and what it offers. */
int epi_freq_offered(const epi_policy *p, long long khz, char *err);

/* Pins CPUS (NCPUS; 0 = all) to KHZ, boost off if NOBOOST. Saves the
 * state first and arranges for its restoration at exit and on signals.
 * ERR names a frequency the CPU does not offer with the list it does. */
int epi_freq_pin(const epi_cpufreq *c, const int *cpus, int ncpus, long long khz, int noboost, char *err);

/* Writes back what the state file holds and removes it. Returns 1 if it
 * restored something, 0 if there was nothing to restore, -1 on error. */
int epi_freq_restore(char *err);

/* The state file's path ($EPI_STATE_DIR, /var/lib/epi as root, else the
 * XDG state dir); its folder is created. */
int epi_freq_state_path(char *out, size_t n, char *err);
/* Whether a state file is pending (its path into OUT), creating nothing. */
int epi_freq_state_peek(char *out, size_t n);

/* The frequency CPU runs at now by its policy's scaling_cur_freq (kHz);
 * 0 when unknown. */
long long epi_freq_obtained(const epi_cpufreq *c, int cpu);

/* Leaves the pinned frequencies in place at exit (`epi freq --set`): the
 * state file stays for a later epi_freq_restore(). */
void epi_freq_keep(void);

/* Measures the effective frequency of CPU in GHz with a chain of dependent
 * adds (one per cycle) timed by CLOCK_MONOTONIC_RAW; NAN where it cannot. */
double epi_effective_ghz(int cpu);

#endif
