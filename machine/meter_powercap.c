/* meter_powercap: RAPL through /sys/class/powercap/intel-rapl*.
 *
 * Zones are found by their `name` (package-N, package-N-die-M, core,
 * uncore, dram, psys), never by index. Sub-zones are named after their
 * package ("package-0/core"). psys covers the whole platform, package
 * included, so it is reported but never counted into the total; the
 * intel-rapl-mmio zones repeat the package zones through another interface
 * and are skipped. energy_uj wraps at max_energy_range_uj; the poll period
 * follows from that range and the zone's stated maximum power. On AMD the
 * `core` zone measures one core only, and says so. */
#include "machine/cpu.h"
#include "machine/meter.h"
#include "machine/sysroot.h"
#include "model/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct pc_priv {
	char path[EPI_MAXDOM][EPI_PATHLEN];
} pc_priv;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The largest constraint_*_max_power_uw of zone DIR, in watts; 0 if none. */
static double zone_max_w(const char *dir)
{
	double w = 0;
	char path[EPI_PATHLEN], e[EPI_ERRLEN];
	for (int c = 0; c < 8; c++) {
		uint64_t uw;
		snprintf(path, sizeof path, "%s/constraint_%d_max_power_uw", dir, c);
		if (epi_read_u64(path, &uw, e) == 0 && uw / 1e6 > w)
			w = uw / 1e6;
	}
	return w;
}

/* energy_uj is opened for every reading (a few microseconds): the value is
 * made at read time either way, and a file replaced since stays current. */
static int pc_read_raw(pc_priv *p, int i, double *j, char *err)
{
	uint64_t uj;
	if (epi_read_u64(p->path[i], &uj, err) < 0)
		return -1;
	*j = (double)uj * 1e-6;
	return 0;
}

static void pc_close(epi_meter *m)
{
	free(m->priv);
	m->priv = NULL;
}

static int pc_open(epi_meter *m, const char *arg, char *err)
{
	char root[EPI_PATHLEN];
	epi_syspath(root, "/sys/class/powercap");
	DIR *d = opendir(root);
	if (!d)
		return epi_error(err, "no RAPL: '%s' %s (no powercap driver: virtual machines and "
				 "most non-x86 systems have none; on x86, `modprobe intel_rapl_msr`)",
				 root, errno == ENOENT ? "does not exist" : strerror(errno));
	char *names[256];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 256)
		if (strncmp(e->d_name, "intel-rapl:", 11) == 0)
			names[n++] = xstrdup(e->d_name);
	closedir(d);
	if (n == 0)
		return epi_error(err, "no RAPL zones under '%s' (only intel-rapl-mmio or other control types)", root);
	qsort(names, n, sizeof *names, cmp_str);
	epi_cpuinfo ci;
	char e2[EPI_ERRLEN];
	int amd = epi_cpu_info(&ci, e2) == 0 && ci.vendor == EPI_VENDOR_AMD;
	pc_priv *p = xcalloc(1, sizeof *p);
	m->priv = p;
	int ret = 0;
	for (int i = 0; i < n && ret == 0; i++) {
		char dir[EPI_PATHLEN], path[EPI_PATHLEN], zname[64], parent[64] = "";
		snprintf(dir, sizeof dir, "%s/%s", root, names[i]);
		snprintf(path, sizeof path, "%s/name", dir);
		if (epi_read_line(path, zname, sizeof zname, err) < 0) {
			ret = -1;
			break;
		}
		/* intel-rapl:P:S is a sub-zone of intel-rapl:P */
		const char *sub = strchr(names[i] + 11, ':');
		if (sub) {
			char ppath[EPI_PATHLEN];
			snprintf(ppath, sizeof ppath, "%s/%.*s/name", root, (int)(sub - names[i]), names[i]);
			if (epi_read_line(ppath, parent, sizeof parent, e2) < 0)
				snprintf(parent, sizeof parent, "%.*s", (int)(sub - names[i]), names[i]);
		}
		char dname[96];
		if (*parent)
			snprintf(dname, sizeof dname, "%s/%s", parent, zname);
		else
			snprintf(dname, sizeof dname, "%s", zname);
		const char *scope = strncmp(zname, "package", 7) == 0 ? "package"
				    : strcmp(zname, "psys") == 0   ? "platform"
				    : strcmp(zname, "core") == 0   ? (amd ? "one core" : "cores")
								   : zname;
		epi_domain *dm = epi_meter_add(m, dname, scope);
		if (!dm)
			break;
		int k = m->ndom - 1;
		/* package and dram add up to the machine; core and uncore are inside
		 * the package; psys is the whole platform */
		dm->in_total = strncmp(zname, "package", 7) == 0 || strcmp(zname, "dram") == 0;
		dm->interval_s = 1e-3;
		dm->resolution_j = 1e-6;
		uint64_t range;
		snprintf(path, sizeof path, "%s/max_energy_range_uj", dir);
		dm->range_j = epi_read_u64(path, &range, e2) == 0 ? (double)range * 1e-6 + 1e-6 : 0;
		dm->max_w = zone_max_w(dir);
		snprintf(p->path[k], EPI_PATHLEN, "%s/energy_uj", dir);
		double j;
		if (pc_read_raw(p, k, &j, err) < 0) /* says how to get permission */
			ret = -1;
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	if (ret < 0)
		return -1;
	snprintf(m->desc, sizeof m->desc, "RAPL through powercap (%s), %d zone%s%s", root, m->ndom,
		 m->ndom == 1 ? "" : "s", amd ? "; AMD: `core` is one core" : "");
	return 0;
}

static int pc_read(epi_meter *m, double *raw, char *err)
{
	pc_priv *p = m->priv;
	for (int i = 0; i < m->ndom; i++)
		if (pc_read_raw(p, i, &raw[i], err) < 0)
			return -1;
	return 0;
}

const epi_meter_ops epi_meter_powercap = {
	.name = "powercap",
	.summary = "RAPL through /sys/class/powercap/intel-rapl* (Intel and AMD; energy_uj needs root)",
	.open = pc_open,
	.read = pc_read,
	.close = pc_close,
};
