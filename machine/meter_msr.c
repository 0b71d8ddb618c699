/* meter_msr: RAPL read directly from the model-specific registers through
 * /dev/cpu/N/msr (pread of 8 bytes at offset = register number), one CPU
 * per package.
 *
 * Intel: MSR_RAPL_POWER_UNIT 0x606 (energy unit 1/2^ESU J, bits 12:8);
 * PKG 0x611, PP0 (cores) 0x639, PP1 (uncore) 0x641, DRAM 0x619, PLATFORM
 * (psys) 0x64D; registers the part lacks fail with EIO and are skipped.
 * Server parts count DRAM in a fixed unit of 2^-16 J whatever 0x606 says.
 * AMD (family 17h and later): units 0xC0010299, core 0xC001029A (the core
 * of the CPU read: one core), package 0xC001029B. All counters are the low
 * 32 bits of the register and wrap at 2^32 units. */
#include "machine/cpu.h"
#include "machine/meter.h"
#include "machine/sysroot.h"
#include "model/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct msr_priv {
	int nfd;
	int fd[64];
	int dom_fd[EPI_MAXDOM];      /* index into fd */
	uint32_t reg[EPI_MAXDOM];
	double unit[EPI_MAXDOM];     /* joules per count */
	char path[64][EPI_PATHLEN];
} msr_priv;

/* Intel server models whose DRAM domain uses 2^-16 J per count. */
static int intel_dram_quirk(int family, int model)
{
	static const int m[] = {0x3F, 0x4F, 0x56, 0x55, 0x57, 0x85, 0x6A, 0x6C, 0x8F, 0xCF, 0xAD, 0xAE};
	if (family != 6)
		return 0;
	for (size_t i = 0; i < sizeof m / sizeof *m; i++)
		if (m[i] == model)
			return 1;
	return 0;
}

static int rdmsr(int fd, uint32_t reg, uint64_t *v)
{
	return pread(fd, v, sizeof *v, reg) == (ssize_t)sizeof *v ? 0 : -1;
}

static void msr_close(epi_meter *m)
{
	msr_priv *p = m->priv;
	if (!p)
		return;
	for (int i = 0; i < p->nfd; i++)
		close(p->fd[i]);
	free(p);
	m->priv = NULL;
}

static int msr_open(epi_meter *m, const char *arg, char *err)
{
	epi_cpuinfo ci;
	if (epi_cpu_info(&ci, err) < 0)
		return -1;
	int intel = ci.vendor == EPI_VENDOR_INTEL, amd = ci.vendor == EPI_VENDOR_AMD && ci.family >= 0x17;
	if (!intel && !amd)
		return epi_error(err, "unsupported CPU for RAPL MSRs: %s family %#x model %#x (Intel, or AMD "
				 "family 17h and later)", epi_vendor_name(ci.vendor), ci.family, ci.model);
	msr_priv *p = xcalloc(1, sizeof *p);
	m->priv = p;
	static const struct { uint32_t reg; const char *name, *scope; int in_total; } intel_regs[] = {
		{0x611, "package", "package", 1}, {0x639, "core", "cores", 0}, {0x641, "uncore", "uncore", 0},
		{0x619, "dram", "dram", 1},       {0x64D, "psys", "platform", 0},
	}, amd_regs[] = {
		{0xC001029B, "package", "package", 1}, {0xC001029A, "core", "one core", 0},
	};
	const uint32_t unit_reg = intel ? 0x606 : 0xC0010299;
	for (int k = 0; k < ci.npkg; k++) {
		char *path = p->path[p->nfd];
		epi_syspath(path, "/dev/cpu/%d/msr", ci.pkg_cpu[k]);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			int e = errno;
			if (e == ENOENT)
				return epi_error(err, "'%s' does not exist: the msr driver is not loaded (`sudo modprobe msr`)", path);
			if (e == EACCES || e == EPERM)
				return epi_error(err, "cannot open '%s': permission denied; %s", path, epi_perm_hint(path));
			return epi_error(err, "cannot open '%s': %s", path, strerror(e));
		}
		p->fd[p->nfd++] = fd;
		uint64_t u;
		if (rdmsr(fd, unit_reg, &u) < 0)
			return epi_error(err, "cannot read RAPL units (MSR %#x) from '%s': %s (no RAPL on this CPU?)",
					 unit_reg, path, strerror(errno));
		double unit = 1.0 / (double)(1ULL << ((u >> 8) & 0x1f));
		int nregs = intel ? 5 : 2;
		for (int r = 0; r < nregs; r++) {
			uint32_t reg = intel ? intel_regs[r].reg : amd_regs[r].reg;
			uint64_t v;
			if (rdmsr(fd, reg, &v) < 0)
				continue; /* this part does not have that domain */
			char name[64];
			const char *rn = intel ? intel_regs[r].name : amd_regs[r].name;
			if (r == 0)
				snprintf(name, sizeof name, "package-%d", k);
			else
				snprintf(name, sizeof name, "package-%d/%s", k, rn);
			epi_domain *d = epi_meter_add(m, name, intel ? intel_regs[r].scope : amd_regs[r].scope);
			if (!d)
				break;
			int i = m->ndom - 1;
			d->in_total = intel ? intel_regs[r].in_total : amd_regs[r].in_total;
			if (intel && reg == 0x64D && k > 0) {
				m->ndom--; /* psys is one per platform */
				continue;
			}
			p->dom_fd[i] = p->nfd - 1;
			p->reg[i] = reg;
			p->unit[i] = intel && reg == 0x619 && intel_dram_quirk(ci.family, ci.model) ? 1.0 / 65536 : unit;
			d->resolution_j = p->unit[i];
			d->interval_s = 1e-3;
			d->range_j = 4294967296.0 * p->unit[i];
		}
	}
	if (m->ndom == 0)
		return epi_error(err, "no RAPL energy register answered on this %s CPU", epi_vendor_name(ci.vendor));
	snprintf(m->desc, sizeof m->desc, "RAPL MSRs through %s/dev/cpu/*/msr (%s, %d package%s)", epi_sysroot(),
		 epi_vendor_name(ci.vendor), ci.npkg, ci.npkg == 1 ? "" : "s");
	return 0;
}

static int msr_read(epi_meter *m, double *raw, char *err)
{
	msr_priv *p = m->priv;
	for (int i = 0; i < m->ndom; i++) {
		uint64_t v;
		if (rdmsr(p->fd[p->dom_fd[i]], p->reg[i], &v) < 0)
			return epi_error(err, "cannot read MSR %#x from '%s': %s", p->reg[i], p->path[p->dom_fd[i]],
					 strerror(errno));
		raw[i] = (double)(v & 0xffffffffULL) * p->unit[i];
	}
	return 0;
}

const epi_meter_ops epi_meter_msr = {
	.name = "msr",
	.summary = "RAPL MSRs through /dev/cpu/N/msr (Intel 0x606.., AMD 0xC0010299..; needs root)",
	.open = msr_open,
	.read = msr_read,
	.close = msr_close,
};
