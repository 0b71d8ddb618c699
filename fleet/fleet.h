/* fleet: a cluster's cost tables, one per node (TABLEDIR/<node>.xml, as
 * `epi fleet calibrate` writes them), compared across the nodes of each
 * CPU model (report.c), and the Slurm jobs that calibrate them (slurm.c). */
#ifndef EPI_FLEET_H
#define EPI_FLEET_H

#include "model/table.h"

typedef struct epi_fleet_node {
	char *name;  /* the file's name without .xml: the node's host name */
	char *path;
	epi_table t;
} epi_fleet_node;

typedef struct epi_fleet {
	int n;
	epi_fleet_node *node; /* by name */
	int nwarn;
	char **warn;          /* files in the folder that are not cost tables, one line each */
} epi_fleet;

/* Loads every DIR/NAME.xml; a file that does not load is left out with a
 * warning (in F->warn). Returns 0, or -1 with ERR when DIR cannot be read
 * or holds no table. */
int epi_fleet_load(epi_fleet *f, const char *dir, char *err);
void epi_fleet_free(epi_fleet *f);

/* The node NAME's index, or -1. */
int epi_fleet_find(const epi_fleet *f, const char *name);

/* One operation at one frequency across the nodes of one CPU model: its
 * time (QUANTITY 0, seconds per unit) or energy (1, joules per unit). */
typedef struct epi_fleet_row {
	const char *model;   /* the tables' <cpu> */
	long khz;
	const char *op;
	int quantity;
	int n;               /* nodes that measured it */
	int *nodes;          /* their indices */
	double *v;           /* their values */
	double mean, sd, cv, min, max, median, mad; /* mad: scaled (1.4826 x the median absolute deviation) */
	int nout;
	int *out;            /* outliers: positions in NODES beyond 3.5 scaled MADs from the median */
} epi_fleet_row;

#define EPI_FLEET_OUTLIER_MADS 3.5

/* Every model's operations at every frequency its nodes calibrated (the
 * columns calibrated at that frequency, none interpolated), by model,
 * frequency, then the order of the first table. */
int epi_fleet_rows(const epi_fleet *f, epi_fleet_row **rows);
void epi_fleet_rows_free(epi_fleet_row *rows, int n);

/* The node whose table prices like its model's middle: for each node of
 * MODEL, the median over operations of |log(its time / the model's
 * median time)|, at every frequency; the node with the least. -1 if none. */
int epi_fleet_median_node(const epi_fleet *f, const char *model);

/* The node whose table prices for NODE (as asked: an error when F has no
 * such table), else for HOST (this machine's short host name) when F has
 * its table, else the median node (epi_fleet_median_node) of MODEL (this
 * machine's CPU, as tables name it; the folder's only model when MODEL is
 * none of them). WHY (N bytes) says which and why; -1 with ERR naming
 * the nodes or models there when none fits. */
int epi_fleet_pick(const epi_fleet *f, const char *node, const char *host, const char *model, char *why, size_t n,
		   char *err);

#endif
