/* cpu: processor identity and package topology (see cpu.h). */
#define _GNU_SOURCE /* sched_setaffinity */
#include "machine/cpu.h"
#include "machine/sysroot.h"
#include "model/util.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

const char *epi_vendor_name(epi_vendor v)
{
	return v == EPI_VENDOR_INTEL ? "Intel" : v == EPI_VENDOR_AMD ? "AMD" : "other";
}

static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n) != 0)
		return NULL;
	const char *p = line + n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

int epi_cpu_info(epi_cpuinfo *ci, char *err)
{
	memset(ci, 0, sizeof *ci);
	char path[EPI_PATHLEN], line[512];
	FILE *f = fopen(epi_syspath(path, "/proc/cpuinfo"), "r");
	if (!f)
		return epi_error(err, "cannot read '%s'", path);
	int seen_first = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		const char *v;
		if ((v = field(line, "processor"))) {
			if (seen_first++)
				continue;
		} else if (seen_first > 1) {
			continue; /* identity from the first CPU only */
		}
		if ((v = field(line, "vendor_id")))
			ci->vendor = strcmp(v, "GenuineIntel") == 0 ? EPI_VENDOR_INTEL
				     : strcmp(v, "AuthenticAMD") == 0 || strcmp(v, "HygonGenuine") == 0 ? EPI_VENDOR_AMD
				     : EPI_VENDOR_OTHER;
		else if ((v = field(line, "cpu family")))
			ci->family = atoi(v);
		else if ((v = field(line, "model")))
			ci->model = atoi(v);
		else if ((v = field(line, "model name")))
			snprintf(ci->name, sizeof ci->name, "%s", v);
		else if ((v = field(line, "microcode")))
			snprintf(ci->microcode, sizeof ci->microcode, "%s", v);
	}
	fclose(f);
	char buf[4096], e[EPI_ERRLEN];
	if (epi_read_line(epi_syspath(path, "/sys/devices/system/cpu/online"), buf, sizeof buf, e) == 0)
		ci->ncpus = epi_parse_cpulist(buf, ci->cpus, EPI_MAXCPU);
	if (ci->ncpus <= 0) {
		ci->ncpus = 1;
		ci->cpus[0] = 0;
	}
	int pkgs[64];
	for (int i = 0; i < ci->ncpus; i++) {
		long long id = 0;
		epi_syspath(path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", ci->cpus[i]);
		if (epi_read_i64(path, &id, e) < 0)
			id = 0;
		int known = 0;
		for (int k = 0; k < ci->npkg; k++)
			known |= pkgs[k] == (int)id;
		if (!known && ci->npkg < 64) {
			pkgs[ci->npkg] = (int)id;
			ci->pkg_cpu[ci->npkg++] = ci->cpus[i];
		}
	}
	return 0;
}

unsigned long long epi_cache_from_leaf(unsigned a, unsigned b, unsigned c, int *level)
{
	unsigned type = a & 0x1f;
	*level = (int)((a >> 5) & 7);
	if (type != 1 && type != 3)
		return 0;
	unsigned long long ways = (b >> 22) + 1, parts = ((b >> 12) & 0x3ff) + 1, line = (b & 0xfff) + 1;
	return ways * parts * line * ((unsigned long long)c + 1);
}

void epi_caches_from_amd(unsigned c5, unsigned c6, epi_caches *c)
{
	if (!c->l1)
		c->l1 = (unsigned long long)(c5 >> 24) << 10;
	if (!c->l2)
		c->l2 = (unsigned long long)(c6 >> 16) << 10;
}

/* The levels C lacks from the deterministic cache parameters leaf of the
 * CPU running this: AMD's 0x8000001D where the processor has it, else
 * Intel's 4; then L1 and L2 from AMD's 0x80000005 and 0x80000006 (a
 * hypervisor can leave the first empty). */
static void cpuid_caches(void *arg)
{
	epi_caches *c = arg;
#if defined(__x86_64__)
	unsigned a, b, cx, d, leaf = 4, top = 0;
	if (__get_cpuid(0x80000000, &top, &b, &cx, &d) && top >= 0x8000001d &&
	    __get_cpuid_count(0x8000001d, 0, &a, &b, &cx, &d) && (a & 0x1f))
		leaf = 0x8000001d;
	else if (__get_cpuid_max(0, NULL) < 4)
		leaf = 0;
	for (unsigned i = 0; leaf && i < 16; i++) {
		if (!__get_cpuid_count(leaf, i, &a, &b, &cx, &d) || !(a & 0x1f))
			break;
		int level;
		unsigned long long n = epi_cache_from_leaf(a, b, cx, &level);
		unsigned long long *at = level == 1 ? &c->l1 : level == 2 ? &c->l2 : level == 3 ? &c->l3 : NULL;
		if (n && at && !*at)
			*at = n;
	}
	unsigned c5, c6;
	if (top >= 0x80000006 && __get_cpuid(0x80000005, &a, &b, &c5, &d) && __get_cpuid(0x80000006, &a, &b, &c6, &d))
		epi_caches_from_amd(c5, c6, c);
#else
	(void)c;
#endif
}

void epi_on_cpu(int cpu, void (*fn)(void *), void *arg)
{
	cpu_set_t old, one;
	int pinned = cpu >= 0 && cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof old, &old) == 0;
	if (pinned) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		pinned = sched_setaffinity(0, sizeof one, &one) == 0;
	}
	fn(arg);
	if (pinned)
		sched_setaffinity(0, sizeof old, &old);
}

void epi_caches_read(int cpu, epi_caches *c)
{
	memset(c, 0, sizeof *c);
	for (int i = 0; i < 16; i++) {
		char path[EPI_PATHLEN], v[64], err[EPI_ERRLEN];
		epi_syspath(path, "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, i);
		if (epi_read_line(path, v, sizeof v, err) < 0)
			break;
		if (strcmp(v, "Instruction") == 0)
			continue;
		uint64_t level;
		epi_syspath(path, "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, i);
		if (epi_read_u64(path, &level, err) < 0)
			continue;
		epi_syspath(path, "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu, i);
		if (epi_read_line(path, v, sizeof v, err) < 0)
			continue;
		char *end;
		unsigned long long n = strtoull(v, &end, 10);
		if (*end == 'K')
			n <<= 10;
		else if (*end == 'M')
			n <<= 20;
		else if (*end == 'G')
			n <<= 30;
		if (level == 1)
			c->l1 = n;
		else if (level == 2)
			c->l2 = n;
		else if (level == 3)
			c->l3 = n;
	}
	/* a fake tree's machine is not the one running this */
	if ((!c->l1 || !c->l2 || !c->l3) && !*epi_sysroot())
		epi_on_cpu(cpu, cpuid_caches, c);
}

#if defined(__x86_64__)
/* AMD's leaf LEAF's EBX into *B (its TLBs' entries and codes); 0 when
 * the processor has no such leaf */
static int amd_tlb_leaf(unsigned leaf, unsigned *b)
{
	unsigned a, c, d;
	return __get_cpuid(0x80000000, &a, b, &c, &d) && a >= leaf && __get_cpuid(leaf, &a, b, &c, &d);
}

/* Intel's deterministic address translation leaf, one subleaf per TLB:
 * of the data or unified TLBs at LEVEL that map 4 KiB pages, the one with
 * the most entries (ways x sets) into *ENTRIES and its sets into *SETS (1
 * when fully associative); 0 when there is none */
static int intel_tlb_leaf(int level, unsigned *entries, unsigned *sets)
{
	unsigned a, b, c, d;
	*entries = *sets = 0;
	if (__get_cpuid_max(0, NULL) < 0x18 || !__get_cpuid_count(0x18, 0, &a, &b, &c, &d))
		return 0;
	unsigned last = a;
	for (unsigned i = 0; i <= last && i < 64; i++) {
		if (!__get_cpuid_count(0x18, i, &a, &b, &c, &d))
			break;
		unsigned type = d & 0x1f, at = (d >> 5) & 7;
		if ((int)at == level && (type == 1 || type == 3) && (b & 1) && (b >> 16) * c > *entries) {
			*entries = (b >> 16) * c;
			*sets = d & 0x100 ? 1 : c;
		}
	}
	return *entries > 0;
}
#endif

static unsigned cpuid_tlb(int level)
{
#if defined(__x86_64__)
	unsigned b, n = 0, sets;
	/* AMD: entries for 4 KiB pages, the L1 DTLB's in leaf 0x80000005's
	 * EBX[23:16], the L2 DTLB's in leaf 0x80000006's EBX[27:16]; Intel
	 * leaves both 0 */
	if (amd_tlb_leaf(level == 1 ? 0x80000005 : 0x80000006, &b))
		n = level == 1 ? (b >> 16) & 0xff : (b >> 16) & 0xfff;
	if (!n)
		intel_tlb_leaf(level, &n, &sets);
	return n;
#else
	(void)level;
	return 0;
#endif
}

/* AMD's leaf 0x80000006 gives the second level's entries and a code for
 * its ways, Intel's leaf 0x18 its ways and sets. */
unsigned epi_tlb_sets(void)
{
#if defined(__x86_64__)
	unsigned b, entries, sets;
	if (amd_tlb_leaf(0x80000006, &b) && ((b >> 16) & 0xfff))
		return epi_tlb_sets_from(cpuid_tlb(1), (b >> 16) & 0xfff, epi_amd_ways(b >> 28));
	if (intel_tlb_leaf(2, &entries, &sets))
		return sets;
#endif
	return 0;
}

unsigned epi_amd_ways(unsigned code)
{
	static const unsigned short ways[16] = {[1] = 1,   [2] = 2,   [3] = 3,   [4] = 4,   [5] = 6,  [6] = 8,
						[8] = 16,  [0xa] = 32, [0xb] = 48, [0xc] = 64, [0xd] = 96, [0xe] = 128};
	return code < 16 ? ways[code] : 0;
}

unsigned epi_tlb_sets_from(unsigned first, unsigned entries, unsigned ways)
{
	if (!entries || epi_tlb_from(2, first, entries) != entries)
		return 0;
	return ways && entries % ways == 0 ? entries / ways : 0;
}

unsigned epi_tlb_from(int level, unsigned first, unsigned second)
{
	/* every core's second level holds many times its first's entries;
	 * one that does not is no reading of the hardware */
	if (second && first && second < 4 * first)
		second = 0;
	if (level == 1)
		return first ? first : 64;
	return second ? second : 1536;
}

unsigned epi_tlb_pages(int level)
{
	return epi_tlb_from(level, cpuid_tlb(1), cpuid_tlb(2));
}
