/* meter_hwmon: energy and power sensors under /sys/class/hwmon.
 *
 * amd_energy (AMD Zen servers): energyN_input in microjoules, labelled
 * EsocketK (one socket) or EcoreNNN (one core); sockets are reported one
 * by one and the cores as one summed domain. The driver accumulates in
 * 64 bits, so nothing wraps. ACPI power_meter: power1_average in
 * microwatts, the mean over power1_average_interval milliseconds just past:
 * each reading prices the time since the previous poll. */
#include "machine/meter.h"
#include "machine/sysroot.h"
#include "model/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HW_MAXFILES 512

typedef struct hw_priv {
	int nfile;
	char *file[HW_MAXFILES];
	int dom[HW_MAXFILES];       /* the domain each file adds to */
	int power[EPI_MAXDOM];      /* 1: integrate power (power_meter) */
	double acc[EPI_MAXDOM], last_t[EPI_MAXDOM];
} hw_priv;

static void hw_close(epi_meter *m)
{
	hw_priv *p = m->priv;
	if (!p)
		return;
	for (int i = 0; i < p->nfile; i++)
		free(p->file[i]);
	free(p);
	m->priv = NULL;
}

static void add_file(hw_priv *p, const char *path, int dom)
{
	if (p->nfile == HW_MAXFILES)
		return;
	p->file[p->nfile] = xstrdup(path);
	p->dom[p->nfile++] = dom;
}

static int hw_read(epi_meter *m, double *raw, char *err);

static int hw_open(epi_meter *m, const char *arg, char *err)
{
	char root[EPI_PATHLEN];
	epi_syspath(root, "/sys/class/hwmon");
	DIR *d = opendir(root);
	if (!d)
		return epi_error(err, "no hardware monitors: '%s' %s", root, errno == ENOENT ? "does not exist" : strerror(errno));
	hw_priv *p = xcalloc(1, sizeof *p);
	m->priv = p;
	struct dirent *e;
	char names[256] = "";
	int cores = -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char dir[EPI_PATHLEN], path[EPI_PATHLEN + 64], name[64], e2[EPI_ERRLEN];
		snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
		snprintf(path, sizeof path, "%s/name", dir);
		if (epi_read_line(path, name, sizeof name, e2) < 0)
			continue;
		size_t nl = strlen(names);
		snprintf(names + nl, sizeof names - nl, "%s%s", nl ? ", " : "", name);
		if (strcmp(name, "amd_energy") == 0) {
			for (int k = 1; k < HW_MAXFILES; k++) {
				char label[64];
				snprintf(path, sizeof path, "%s/energy%d_label", dir, k);
				if (epi_read_line(path, label, sizeof label, e2) < 0)
					break;
				snprintf(path, sizeof path, "%s/energy%d_input", dir, k);
				if (strncmp(label, "Esocket", 7) == 0) {
					char dn[48];
					snprintf(dn, sizeof dn, "socket-%s", label + 7);
					epi_domain *dm = epi_meter_add(m, dn, "socket");
					if (!dm)
						continue;
					dm->interval_s = 1e-3;
					dm->resolution_j = 1e-6;
					add_file(p, path, m->ndom - 1);
				} else if (strncmp(label, "Ecore", 5) == 0) {
					if (cores < 0) {
						epi_domain *dm = epi_meter_add(m, "cores", "cores");
						if (!dm)
							continue;
						dm->in_total = 0; /* inside the sockets */
						dm->interval_s = 1e-3;
						dm->resolution_j = 1e-6;
						cores = m->ndom - 1;
					}
					add_file(p, path, cores);
				}
			}
		} else if (strcmp(name, "power_meter") == 0) {
			snprintf(path, sizeof path, "%s/power1_average", dir);
			if (!epi_exists(path))
				continue;
			epi_domain *dm = epi_meter_add(m, "system", "system");
			if (!dm)
				continue;
			uint64_t ms;
			char ip[EPI_PATHLEN + 64];
			snprintf(ip, sizeof ip, "%s/power1_average_interval", dir);
			dm->interval_s = epi_read_u64(ip, &ms, e2) == 0 ? ms / 1000.0 : 1.0;
			p->power[m->ndom - 1] = 1;
			add_file(p, path, m->ndom - 1);
		}
	}
	closedir(d);
	if (m->ndom == 0)
		return epi_error(err, "no energy sensor under '%s' (no amd_energy or ACPI power_meter%s%s%s)", root,
				 *names ? "; found: " : "", names, "");
	double raw[EPI_MAXDOM];
	if (hw_read(m, raw, err) < 0)
		return -1;
	snprintf(m->desc, sizeof m->desc, "hwmon sensors under %s (%d domain%s)", root, m->ndom, m->ndom == 1 ? "" : "s");
	return 0;
}

static int hw_read(epi_meter *m, double *raw, char *err)
{
	hw_priv *p = m->priv;
	double now = epi_now();
	for (int i = 0; i < m->ndom; i++)
		raw[i] = 0;
	for (int f = 0; f < p->nfile; f++) {
		uint64_t v;
		if (epi_read_u64(p->file[f], &v, err) < 0)
			return -1;
		int i = p->dom[f];
		if (p->power[i]) {
			double w = (double)v * 1e-6;
			/* power1_average is the mean over the interval just past:
			 * it prices the time since the previous reading */
			if (p->last_t[i] > 0)
				p->acc[i] += w * (now - p->last_t[i]);
			p->last_t[i] = now;
			raw[i] = p->acc[i];
		} else {
			raw[i] += (double)v * 1e-6;
		}
	}
	return 0;
}

const epi_meter_ops epi_meter_hwmon = {
	.name = "hwmon",
	.summary = "hwmon sensors: amd_energy (energyN_input) and ACPI power_meter (power1_average)",
	.open = hw_open,
	.read = hw_read,
	.close = hw_close,
};
