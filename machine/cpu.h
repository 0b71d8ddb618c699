/* cpu: what the processor is (vendor, family, model, name) and how its CPUs
 * group into packages, read from /proc/cpuinfo and sysfs under the sysroot. */
#ifndef EPI_CPU_H
#define EPI_CPU_H

#define EPI_MAXCPU 1024

typedef enum { EPI_VENDOR_OTHER, EPI_VENDOR_INTEL, EPI_VENDOR_AMD } epi_vendor;

typedef struct epi_cpuinfo {
	epi_vendor vendor;
	int family, model;
	char name[128];
	char microcode[32];
	int ncpus;                /* online CPUs */
	int cpus[EPI_MAXCPU];
	int npkg;                 /* packages, and one CPU of each */
	int pkg_cpu[64];
} epi_cpuinfo;

/* Fills CI; returns 0, or -1 with ERR when /proc/cpuinfo cannot be read. */
int epi_cpu_info(epi_cpuinfo *ci, char *err);
const char *epi_vendor_name(epi_vendor v);

/* The data cache sizes seen by CPU, in bytes (0 when unknown), from
 * /sys/devices/system/cpu/cpuN/cache/index* (level, type, size); on the
 * machine itself (no EPI_SYSROOT), the levels sysfs does not give (a
 * microVM's kernel can give none) from x86-64 cpuid on CPU, Intel's leaf
 * 4 or AMD's 0x8000001D, then AMD's 0x80000005 and 0x80000006. */
typedef struct epi_caches {
	unsigned long long l1, l2, l3;
} epi_caches;
void epi_caches_read(int cpu, epi_caches *c);
/* The levels of C still unknown (0) that AMD's legacy leaves give: L1d
 * from 0x80000005's ECX (bits 31:24, KiB), L2 from 0x80000006's ECX (bits
 * 31:16, KiB; Intel's too); not L3 (0x80000006's EDX, a socket's or a
 * hypervisor's figure). */
void epi_caches_from_amd(unsigned c5, unsigned c6, epi_caches *c);

/* Calls FN(ARG) pinned to CPU where this process may run there (else
 * where it runs), its affinity restored after. */
void epi_on_cpu(int cpu, void (*fn)(void *), void *arg);

/* The bytes of the data or unified cache that a subleaf of a deterministic
 * cache parameters leaf (Intel's 4, AMD's 0x8000001D: one layout) gives in
 * EAX, EBX, ECX (ways x partitions x line x sets), its level into *LEVEL;
 * 0 for an instruction cache or the subleaf past the last cache. */
unsigned long long epi_cache_from_leaf(unsigned a, unsigned b, unsigned c, int *level);

/* The 4 KiB pages the data TLB of LEVEL (1 or 2) of the CPU running this
 * maps (x86-64: cpuid, AMD's leaves 0x80000005 and 0x80000006 or Intel's
 * leaf 0x18), through epi_tlb_from. */
unsigned epi_tlb_pages(int level);

/* The pages the data TLB of LEVEL maps, from the entries the processor
 * gives for its FIRST and SECOND levels (0: not given): a second level
 * with fewer than four times the first's entries is not believed (a
 * virtual machine's cpuid can say so); what is not known, 64 and 1,536
 * pages, the smallest of current cores'. */
unsigned epi_tlb_from(int level, unsigned first, unsigned second);

/* The sets of the second-level data TLB for 4 KiB pages of the CPU
 * running this (0: not known; x86-64 cpuid as epi_tlb_pages), which pick
 * a page's set by the low bits of its number: pages a multiple of two or
 * more pages apart fall in a share of them. */
unsigned epi_tlb_sets(void);
/* Sets of a second-level TLB of ENTRIES entries of WAYS ways, beside a
 * first level of FIRST (0: not given): 0 when either is not known, they do
 * not divide, or epi_tlb_from does not believe the entries */
unsigned epi_tlb_sets_from(unsigned first, unsigned entries, unsigned ways);
/* The ways AMD's cpuid code for an associativity (leaf 0x80000006, such
 * as its L2 TLB's in EBX bits 31:28; leaf 0x80000005 gives counts, not
 * codes) stands for; 0: none, fully associative or reserved. */
unsigned epi_amd_ways(unsigned code);

#endif
