/* fakehw: fake machines for the machine-layer tests: a temporary sysroot
 * ($EPI_SYSROOT) with files in it, and a thread that advances energy
 * counter files at known powers, replacing each file atomically. */
#ifndef EPI_FAKEHW_H
#define EPI_FAKEHW_H

#define FUSE_USE_VERSION 31
#include <fuse.h>
#include <pthread.h>
#include <stdint.h>

/* Creates a temporary root, sets EPI_SYSROOT to it; returns it (static). */
const char *fake_root(void);
/* Uses the existing folder DIR as the root (no removal at the end). */
void fake_root_use(const char *dir);
/* Removes the root and unsets EPI_SYSROOT. */
void fake_root_free(void);
/* Writes CONTENT to ROOT/REL, creating folders. */
void fake_put(const char *rel, const char *content);
/* A CPU: /proc/cpuinfo and two online CPUs in one package. */
void fake_cpu(const char *vendor, int family, int model);

#define FAKE_MAXCTR 16
typedef struct fake_counter {
	char rel[256];
	double watts;
	double scale;       /* counts per joule (1e6 for microjoules) */
	uint64_t modulo;    /* wrap: counts modulo this; 0 = never */
	uint64_t start;     /* first value */
} fake_counter;

typedef struct fake_power {
	int n;
	fake_counter c[FAKE_MAXCTR];
	double t0;
	volatile int stop;
	pthread_t th;
	pthread_mutex_t lock;  /* one pass of writes at a time */
	double t_written;      /* the moment the files now show */
	double maxgap;         /* longest time between two passes of writes */
	const char *gapfile;   /* if set, ROOT/gapfile shows maxgap (seconds) */
} fake_power;

/* Starts advancing the counters of FP (set up by the caller). */
void fake_power_start(fake_power *fp);
void fake_power_stop(fake_power *fp);
/* Writes every counter for the present moment (fp->t_written). */
void fake_power_tick(fake_power *fp);
/* Writes every counter, runs READ(ARG) while no other write can happen, and
 * returns the moment the values READ saw belong to: a reference time that a
 * late-scheduled thread or a paused machine cannot skew. */
double fake_power_read(fake_power *fp, void (*read)(void *), void *arg);
/* The value counter C shows at time T. */
uint64_t fake_counter_at(const fake_power *fp, const fake_counter *c, double t);

/* A powercap zone ROOT/sys/class/powercap/DIR named NAME whose energy_uj
 * FP advances at WATTS, wrapping at RANGE_UJ; MAX_W its stated maximum
 * power (0: none). */
void fake_zone(fake_power *fp, const char *dir, const char *name, double watts, uint64_t range_uj, double max_w);
/* Writes FILE of cpufreq policy ID. */
void fake_policy(int id, const char *file, const char *v);
/* Two acpi-cpufreq policies (CPUs 0 and 1) offering 1.6, 1.8, 2.133 and
 * 2.4 GHz with the userspace governor, schedutil in use, boost on. */
void fake_acpi_tree(void);

/* A FUSE file system with OPS mounted at the folder ROOT/REL (created),
 * served by a thread: device files that compute what they answer (the msr
 * device, cpufreq files that refuse min > max). */
typedef struct fake_fuse {
	struct fuse *f;
	pthread_t th;
	char mnt[512];
} fake_fuse;
/* 0, or -1 when FUSE cannot mount here (no /dev/fuse or no CAP_SYS_ADMIN). */
int fake_fuse_mount(fake_fuse *d, const char *rel, const struct fuse_operations *ops);
/* The same, with DATA as the file system's private data. */
int fake_fuse_mount_data(fake_fuse *d, const char *rel, const struct fuse_operations *ops, void *data);
void fake_fuse_unmount(fake_fuse *d);

/* Small text files computed when read: TEXT(PATH, OUT, N) writes the
 * content of /PATH into OUT and returns its length, or -ENOENT (no such
 * file) or another -errno (a failing read). WRITE (NULL: read-only) takes
 * the text written to PATH, or refuses it with -errno. */
typedef struct fake_textfs {
	int (*text)(const char *path, char *out, size_t n);
	int (*write)(const char *path, const char *value);
} fake_textfs;
int fake_textfs_mount(fake_fuse *d, const char *rel, const fake_textfs *fs);

/* A powercap zone served by FUSE at ROOT/sys/class/powercap/DIR whose
 * energy_uj is computed when read: WATTS since the mount, wrapping at
 * RANGE_UJ. Exact at any moment, whatever the scheduler does. Setting
 * fake_zone_gone makes every read fail (EIO), as an unplugged device. */
int fake_fuse_zone(fake_fuse *d, const char *dir, const char *name, double watts, uint64_t range_uj);
extern volatile int fake_zone_gone;
/* When set, the zone's energy in joules at time NOW (CLOCK_MONOTONIC
 * seconds) instead of WATTS x the time since the mount. */
extern double (*fake_zone_energy)(double now);


#endif
