/* trace: the file epi-profile writes and epi-profile --report and
 * epi-validate read back, one record at a time (traces can hold millions of
 * samples).
 *
 * Layout (all integers little-endian, doubles IEEE 754 little-endian):
 *   "EPITRACE" u32 version u32 0
 *   then records: u32 type, u32 payload length, payload
 *     HEADER  text, one "key=value" per line (unknown keys are ignored),
 *             then u32 CRC-32 of the 16 bytes above, this record's type
 *             and length, and the text (version 3; before it, none)
 *     RUN     u32 index, u32 pid, u64 start ns, u64 first-sample offset ns
 *     MAP     u32 pid, u64 start, u64 length, u64 file offset,
 *             u8 build-id length, 20 bytes build-id, u16 path length, path
 *     SAMPLES u32 count, then count x (u64 t ns, u64 ip, u32 tid, u32 cpu, f64 watts)
 *     METER   u32 count, then count x (u64 t ns, f64 joules since the run began,
 *             u32 ns the read took, t being its middle; version 1: without it)
 *     END     i32 wait status, u32 flags, f64 wall s, f64 cpu s, f64 joules,
 *             u64 samples, u64 lost, f64 profiler cpu s, u32 CRC-32 of the
 *             run's records from RUN up to this END's payload
 * Times are CLOCK_MONOTONIC nanoseconds. A run counts only once its END is
 * read and its CRC matches: a trace cut short or damaged keeps the runs
 * before the damage. */
#ifndef EPI_TRACE_H
#define EPI_TRACE_H

#include <stdint.h>
#include <stdio.h>

#define EPI_TRACE_VERSION 3 /* written; versions 1 and 2 are read too */
#define EPI_BUILDID_MAX 20

enum epi_rec { EPI_REC_HEADER = 1, EPI_REC_RUN, EPI_REC_MAP, EPI_REC_SAMPLES, EPI_REC_METER, EPI_REC_END };

typedef struct epi_sample {
	uint64_t t_ns, ip;
	uint32_t tid, cpu;
	double watts; /* power of the sensing interval before the sample; NAN without a meter */
} epi_sample;

typedef struct epi_reading {
	uint64_t t_ns;   /* the middle of the read */
	double joules;
	uint32_t span_ns; /* how long the read took (0 in version 1 traces: unknown) */
} epi_reading;

typedef struct epi_map {
	uint32_t pid;
	uint64_t start, len, pgoff;
	int buildid_len;
	unsigned char buildid[EPI_BUILDID_MAX];
	char path[4096];
} epi_map;

typedef struct epi_run_begin {
	uint32_t index, pid;
	uint64_t start_ns, offset_ns;
} epi_run_begin;

#define EPI_RUN_SIGNALLED 1u /* the program was killed by a signal */
#define EPI_RUN_METER_FAILED 2u /* the meter failed during the run: no energy */

typedef struct epi_run_end {
	int32_t status;
	uint32_t flags;
	double wall_s, cpu_s, joules; /* joules NAN without a meter */
	uint64_t nsamples, lost;
	double prof_cpu_s;            /* the profiler's own CPU time during the run */
} epi_run_end;

/* The HEADER's values that epi uses; the text keeps them all. */
typedef struct epi_trace_info {
	char method[16];          /* perf or ptrace */
	char meter[160];          /* what was read; "none" without a meter */
	char domain[40];          /* the domain priced, "total" for the machine's total */
	double meter_interval_s;  /* the meter's sensing interval */
	double meter_update_s;    /* how long a reading can lag: the slowest domain's update interval (NAN: unknown) */
	uint64_t interval_ns;     /* sampling interval */
	long long freq_khz;       /* the pinned frequency, 0 when not pinned */
	double effective_ghz;     /* the clock measured before the runs (dependent adds); NAN: not measured */
	double dram_load_s;       /* memory's rate measured before the runs: load.dram's net seconds a load; NAN: not measured */
	char command[1024];       /* the program and its arguments, shell-quoted */
	char exe[4096];           /* the program's path, as run */
} epi_trace_info;

/* ---- writing ---- */
typedef struct epi_trace_writer {
	FILE *f;
	char path[4096], tmp[4160];
	uint32_t crc;             /* over the run in progress */
	long run_at;              /* where the run in progress began, -1 outside a run */
	uint32_t nruns;
} epi_trace_writer;

/* Starts PATH's replacement (a temporary file beside it) with INFO as header.
 * Returns 0, or -1 with ERR. */
int epi_trace_create(epi_trace_writer *w, const char *path, const epi_trace_info *info, char *err);
int epi_trace_run(epi_trace_writer *w, const epi_run_begin *b, char *err);
int epi_trace_map(epi_trace_writer *w, const epi_map *m, char *err);
int epi_trace_samples(epi_trace_writer *w, const epi_sample *s, uint32_t n, char *err);
int epi_trace_readings(epi_trace_writer *w, const epi_reading *r, uint32_t n, char *err);
int epi_trace_end(epi_trace_writer *w, const epi_run_end *e, char *err);
/* Forgets the run in progress (the file is cut back to where it began). */
int epi_trace_drop_run(epi_trace_writer *w, char *err);
/* Replaces PATH atomically with the finished runs (a run in progress is
 * dropped); returns 0, or -1 with ERR (PATH unchanged). */
int epi_trace_commit(epi_trace_writer *w, char *err);
/* Gives up: removes the temporary file, PATH unchanged. */
void epi_trace_abort(epi_trace_writer *w);

/* ---- reading ---- */
typedef struct epi_trace_item {
	enum epi_rec type;
	uint64_t offset;          /* of the record, in bytes from the file's start */
	union {
		epi_run_begin run;
		epi_map map;
		epi_run_end end;
		struct { const epi_sample *v; uint32_t n; } samples;
		struct { const epi_reading *v; uint32_t n; } readings;
	} u;
} epi_trace_item;

typedef struct epi_trace_reader {
	FILE *f;
	char path[4096];
	epi_trace_info info;
	char *header;             /* the header text */
	uint64_t off;             /* where the next record starts */
	unsigned char *buf;
	size_t cap;
	void *vec;                /* decoded samples or readings */
	size_t veccap;
	uint32_t crc;
	int in_run;
	uint32_t version;         /* of the file */
	int unchecked;            /* its header has no checksum (versions 1 and 2) */
} epi_trace_reader;

/* Opens PATH and reads its header; returns 0, or -1 with ERR naming the file. */
int epi_trace_open(epi_trace_reader *r, const char *path, char *err);
/* Reads the next record into IT (valid until the next call): returns 1, 0
 * at a clean end, or -1 with ERR naming the byte offset where the trace is
 * truncated or corrupt.  END is returned only for a run whose CRC matches. */
int epi_trace_next(epi_trace_reader *r, epi_trace_item *it, char *err);
void epi_trace_close(epi_trace_reader *r);

/* Hex text of a build-id (2 * len + 1 bytes). */
void epi_buildid_hex(const unsigned char *id, int len, char *out);

#endif
