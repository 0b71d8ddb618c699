/* meter_slurm: the energy Slurm's accounting says the running job step has
 * consumed (`--meter slurm`, under srun): `sstat -j JOB.STEP -o
 * ConsumedEnergyRaw`, in joules, summed over the step's nodes as Slurm
 * gathers it (AcctGatherEnergyType: rapl, ipmi, pm_counters, ...; updated
 * every AcctGatherNodeFreq seconds). Outside a step, or on a cluster that
 * gathers no energy, it says so. */
#include "fleet/fleet.h"
#include "machine/meter.h"
#include "model/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sl_priv {
	char step[64]; /* JOB.STEP */
} sl_priv;

static void sl_close(epi_meter *m)
{
	free(m->priv);
	m->priv = NULL;
}

/* KEY's value in `scontrol show config` TEXT ("Key = value"), into OUT. */
static void config(const char *text, const char *key, char *out, size_t n)
{
	out[0] = 0;
	size_t kl = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, kl) && (l[kl] == ' ' || l[kl] == '=')) {
			const char *v = strchr(l, '=');
			if (!v)
				return;
			v++;
			while (*v == ' ')
				v++;
			snprintf(out, n, "%.*s", (int)strcspn(v, "\n"), v);
			return;
		}
}

static int sl_read(epi_meter *m, double *raw, char *err)
{
	sl_priv *p = m->priv;
	const char *argv[] = {"sstat", "-n", "-P", "-j", p->step, "-o", "ConsumedEnergyRaw", NULL};
	char *out;
	if (epi_slurm_run(argv, &out, err) < 0)
		return -1;
	char *end;
	double j = strtod(out, &end);
	int ok = end != out && (*end == 0 || *end == '\n') && j >= 0;
	free(out);
	if (!ok)
		return epi_error(err, "sstat gave no consumed energy for job step %s (the cluster's energy gathering has "
				 "nothing for it yet)", p->step);
	raw[0] = j;
	return 0;
}

static int sl_open(epi_meter *m, const char *arg, char *err)
{
	(void)arg;
	const char *job = getenv("SLURM_JOB_ID"), *step = getenv("SLURM_STEP_ID");
	if (!job || !*job || !step || !*step)
		return epi_error(err, "not inside a Slurm job step (SLURM_JOB_ID and SLURM_STEP_ID unset): run it under "
				 "srun, e.g. `srun epi measure --meter slurm -- APP`");
	const char *argv[] = {"scontrol", "show", "config", NULL};
	char *text, type[128], freq[64];
	if (epi_slurm_run(argv, &text, err) < 0)
		return -1;
	config(text, "AcctGatherEnergyType", type, sizeof type);
	config(text, "AcctGatherNodeFreq", freq, sizeof freq);
	free(text);
	if (!type[0] || strstr(type, "/none") || !strcmp(type, "(null)"))
		return epi_error(err, "this cluster does not gather energy (AcctGatherEnergyType %s in slurm.conf): "
				 "Slurm cannot say what a job step consumed; use a meter of the node (epi probe)",
				 type[0] ? type : "unset");
	sl_priv *p = xcalloc(1, sizeof *p);
	m->priv = p;
	snprintf(p->step, sizeof p->step, "%s.%s", job, step);
	double raw;
	if (sl_read(m, &raw, err) < 0)
		return -1;
	epi_domain *d = epi_meter_add(m, "step", "system");
	double every = atof(freq);
	d->interval_s = every > 0 ? every : 30;
	d->resolution_j = 1;
	snprintf(m->desc, sizeof m->desc, "Slurm job step %s's consumed energy (sstat; %s, every %g s)", p->step, type,
		 d->interval_s);
	return 0;
}

const epi_meter_ops epi_meter_slurm = {
	.name = "slurm",
	.summary = "slurm: the job step's consumed energy from Slurm's accounting (sstat; under srun, where the cluster "
		   "gathers energy)",
	.open = sl_open,
	.read = sl_read,
	.close = sl_close,
};
