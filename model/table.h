/* table: the cost table, energy and time per operation per CPU frequency.
 *
 * Stored as XML (libxml2), validated against data/costtable.xsd (compiled
 * into the library) on every load, written atomically. */
#ifndef EPI_TABLE_H
#define EPI_TABLE_H

#include <stddef.h>

#include "model/ops.h"

/* One operation at one frequency. Every double is NAN when absent. */
typedef struct epi_cost {
	char *key;           /* add, add.f64, add.i64.lat, load.l2, ... */
	enum epi_unit unit;
	double e, e_sd;      /* joules per unit (total) and its standard deviation over runs */
	double t, t_sd;      /* seconds per unit */
	long runs;
	/* from epi-calibrate */
	double e_ci, t_ci;   /* 95% confidence half-widths of e and t */
	double e_dyn;        /* dynamic joules per unit: e - idle power x t */
	double cycles, cycles_sd; /* t x the effective frequency */
	long outliers;       /* runs left out as outliers (median/MAD); -1 absent */
	int drift;           /* a trend over the runs larger than the precision */
	char style[8];       /* "net" (kernel minus the empty loop), "paper" (in context), "" */
	char *kernel;        /* the kernel measured, when KEY is a class (add from add.i64) */
} epi_cost;

typedef struct epi_fcol {
	long khz;
	int interpolated;    /* between two calibrated frequencies */
	int n;
	epi_cost *op;
	double effective_ghz; /* measured (dependent adds); NAN when absent */
	double idle_w, idle_w_sd; /* idle power at this frequency */
	int pinned;          /* 1: set through cpufreq; 0: whatever the machine ran at */
} epi_fcol;

typedef struct epi_table {
	char *path;
	char *cpu, *host, *kernel, *memory;
	char *meter, *domain;
	double meter_interval_s; /* NAN when absent */
	int estimated;
	char *source;
	char *microcode;
	unsigned long long cache[3]; /* L1d, L2, L3 bytes; 0 unknown */
	unsigned long long l3_serves; /* the working set L3 serves at its own rate (measured); 0 unknown */
	unsigned long long tlb_pages; /* the pages the second-level TLB maps (measured); 0 unknown */
	/* the calibration that made it: absent (NULL) in hand-made tables */
	char *created, *command, *style;
	int calib_cpu;       /* the CPU the kernels ran on; -1 unknown */
	double precision;    /* the relative 95% half-width asked for */
	int nnotes;
	char **notes;
	int nf;
	epi_fcol *f;         /* sorted by frequency */
} epi_table;

/* An empty table: every optional number NAN or -1. */
void epi_table_init(epi_table *t);
/* An empty cost: every optional number NAN or -1. */
void epi_cost_init(epi_cost *e);
/* Loads and validates PATH; returns 0, or -1 with ERR naming file and line. */
int epi_table_load(epi_table *t, const char *path, char *err);
/* Writes T to PATH atomically (validated first); returns 0 or -1 with ERR. */
int epi_table_save(const epi_table *t, const char *path, char *err);
void epi_table_free(epi_table *t);

/* The entry whose key is KEY at column C (the entry itself: a class entry
 * for "add", a kernel's for "add.i64"); NULL if none. Mutable when C is. */
epi_cost *epi_fcol_find(const epi_fcol *c, const char *key);
/* The entry for KEY at column C, falling back from CLASS.TYPE to CLASS; NULL if none. */
const epi_cost *epi_fcol_lookup(const epi_fcol *c, const char *key);
/* Fills OUT with the costs at KHZ: the calibrated column, or a linear
 * interpolation between the two around it (OUT->interpolated set).  Outside
 * the table: -1 with ERR listing the calibrated frequencies. */
int epi_table_at(const epi_table *t, long khz, epi_fcol *out, char *err);
void epi_fcol_free(epi_fcol *c);
/* C's times as at an effective clock of GHZ (measured as the table's is)
 * rather than the one they were measured at: the times of work that the
 * core's clock paces scaled by the two clocks' ratio, cycles kept; those
 * of memory (.dram kernels) kept, as is energy. Returns the ratio
 * applied: 1 when either clock is unknown. */
double epi_fcol_at_clock(epi_fcol *c, double ghz);
/* C's memory times (.dram kernels) as at a rate of memory measured as the
 * table's load.dram is, SECS a load: scaled by the ratio of SECS to the
 * table's load.dram, less the band (EPI_MEMORY_BAND either way) within
 * which two measurements of an unchanged machine fall, so that a probe
 * inside it leaves the table as it is and one beyond it moves the table
 * by what lies beyond. Energy kept. Returns the factor applied: 1 when
 * none (no probe, no load.dram, or inside the band). */
#define EPI_MEMORY_BAND 1.15
double epi_fcol_at_memory(epi_fcol *c, double secs);

/* This machine's table, where epi-calibrate writes it and epi-predict
 * looks: $EPI_DATA_DIR/costtable.xml, else $XDG_DATA_HOME/epi/costtable.xml,
 * else ~/.local/share/epi/costtable.xml. -1 when none of them is set. */
int epi_table_default_path(char *out, size_t n);

/* The table to use when none is named: $EPI_TABLE, else this machine's
 * (epi_table_default_path) if it exists; a malloc'd path, or NULL. */
char *epi_table_find_default(void);

/* The schema text (data/costtable.xsd). */
extern const char epi_costtable_xsd[];

#endif
