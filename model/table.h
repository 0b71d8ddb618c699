/* table: the cost table, energy and time per operation per CPU frequency.
 *
 * Stored as XML (libxml2), validated against data/costtable.xsd (compiled
 * into the library) on every load, written atomically. */
#ifndef EPI_TABLE_H
#define EPI_TABLE_H

#include "model/ops.h"

typedef struct epi_cost {
	char *key;           /* add, add.f64, ... */
	enum epi_unit unit;
	double e, e_sd;      /* joules per unit; NAN when absent */
	double t, t_sd;      /* seconds per unit; NAN when absent */
	long runs;
} epi_cost;

typedef struct epi_fcol {
	long khz;
	int interpolated;    /* between two calibrated frequencies */
	int n;
	epi_cost *op;
} epi_fcol;

typedef struct epi_table {
	char *path;
	char *cpu, *host, *kernel, *memory;
	char *meter, *domain;
	double meter_interval_s; /* NAN when absent */
	int estimated;
	char *source;
	int nnotes;
	char **notes;
	int nf;
	epi_fcol *f;         /* sorted by frequency */
} epi_table;

/* Loads and validates PATH; returns 0, or -1 with ERR naming file and line. */
int epi_table_load(epi_table *t, const char *path, char *err);
/* Writes T to PATH atomically (validated first); returns 0 or -1 with ERR. */
int epi_table_save(const epi_table *t, const char *path, char *err);
void epi_table_free(epi_table *t);

/* The entry for KEY at column C, falling back from CLASS.TYPE to CLASS; NULL if none. */
const epi_cost *epi_fcol_lookup(const epi_fcol *c, const char *key);
/* Fills OUT with the costs at KHZ: the calibrated column, or a linear
 * interpolation between the two around it (OUT->interpolated set).  Outside
 * the table: -1 with ERR listing the calibrated frequencies. */
int epi_table_at(const epi_table *t, long khz, epi_fcol *out, char *err);
void epi_fcol_free(epi_fcol *c);

/* The schema text (data/costtable.xsd). */
extern const char epi_costtable_xsd[];

#endif
