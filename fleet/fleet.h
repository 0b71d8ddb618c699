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

/* How many nodes' tables name MODEL as their CPU ("unknown": none). */
int epi_fleet_model_nodes(const epi_fleet *f, const char *model);

/* The node NAME's index, or -1. */
int epi_fleet_find(const epi_fleet *f, const char *name);

/* One operation at one frequency across the nodes of one CPU model: its
 * time (QUANTITY 0, seconds per unit) or energy (1, joules per unit). */
typedef struct epi_fleet_row {
	const char *model;   /* the tables' <cpu> */
	long khz;            /* 0: the current clock, of nodes calibrated unpinned at one frequency */
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

/* ---- Slurm (slurm.c): the calibration of every node as one job array -- */

/* Runs ARGV (a Slurm command, found in PATH) and returns its standard
 * output (malloc'd) in OUT; -1 with ERR naming the command and the first
 * line it wrote to standard error, or saying it is not installed. */
int epi_slurm_run(const char *const *argv, char **out, char *err);

/* The nodes to calibrate: LIST expanded (scontrol show hostnames), else
 * those of PARTITION (the default one when NULL) that can run a job;
 * SKIPPED gets those down, drained or failed, with their state ("n4
 * (down)", ...). Returns the count, or -1 with ERR. */
int epi_slurm_nodes(const char *partition, const char *list, char ***nodes, char **skipped, char *err);

/* A submitted calibration: the job array and its tasks' nodes, kept in
 * TABLEDIR/.fleet/job. */
enum epi_fleet_kind {
	EPI_FLEET_CALIBRATE, /* epi calibrate: TABLEDIR/NODE.xml, the job file .fleet/job */
	EPI_FLEET_IDENTIFY,  /* epi probe: .fleet/identify/NODE.json, the job file .fleet/identify-job */
};

typedef struct epi_fleet_job {
	enum epi_fleet_kind kind;
	char dir[4096];   /* TABLEDIR, absolute */
	long job;         /* the array's job id */
	long submitted;   /* seconds since the epoch */
	int n;
	char **node;      /* task i's node */
} epi_fleet_job;

/* Submits the array: one task per node of NODES (N), each pinned to its
 * node on an exclusive allocation and running, for KIND calibrate, `EPI
 * calibrate -q -o DIR/NODE.xml CALIB...`, for identify `EPI probe --format
 * json` into DIR/.fleet/identify/NODE.json; PARTITION and TIME_LIMIT may be
 * NULL. Writes the kind's job file. Returns 0, or -1 with ERR (nothing
 * left queued). */
int epi_fleet_submit(epi_fleet_job *j, enum epi_fleet_kind kind, const char *dir, const char *epi, char *const *nodes,
		     int n, const char *partition, const char *time_limit, char *const *calib, int ncalib, char *err);
/* Reads DIR's job file of KIND; -1 with ERR when there is none. */
int epi_fleet_job_load(epi_fleet_job *j, enum epi_fleet_kind kind, const char *dir, char *err);

/* The nodes of NODES (N) that stand for every CPU model and microcode
 * among them, by what each one's identification says (DIR/.fleet/identify/
 * NODE.json, epi probe's): the first of each kind, into *CHOSEN; WHY gets
 * a line per kind ("AMD EPYC, microcode 0x1000065: n1 for n1, n2"), LEFT
 * the nodes without an identification. Returns the count chosen. */
int epi_fleet_per_model(const char *dir, char *const *nodes, int n, char ***chosen, char **why, char **left);
void epi_fleet_job_free(epi_fleet_job *j);

enum epi_task_state { EPI_TASK_QUEUED, EPI_TASK_RUNNING, EPI_TASK_DONE, EPI_TASK_FAILED };

typedef struct epi_fleet_task {
	const char *node;
	enum epi_task_state state;
	char detail[600]; /* the table's path, or why the task failed */
} epi_fleet_task;

/* Each task of J now (scontrol show job; a task whose record is gone is
 * done when its table is there, failed otherwise), into T (J->n).
 * Returns 0, or -1 with ERR when Slurm cannot be asked. */
int epi_fleet_poll(const epi_fleet_job *j, epi_fleet_task *t, char *err);

extern const char *const epi_task_state_name[];

#endif
