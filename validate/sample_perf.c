/* sample_perf: the `perf` sampler. One software cpu-clock event per CPU on
 * the program (pid = program, cpu = i, inherit = 1: a per-task inherited
 * event cannot be mmapped), on CLOCK_MONOTONIC like the meter thread, each
 * with a ring buffer read here. Samples carry the user-space instruction
 * pointer (PERF_SAMPLE_REGS_USER), so that time spent in system calls is
 * charged to the code that made them; MMAP2 records give the load map and
 * the exec's COMM record the moment the program began. */
#include "validate/profile.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <asm/perf_regs.h>
#define USER_IP_REG PERF_REG_X86_IP
#elif defined(__aarch64__)
#include <asm/perf_regs.h>
#define USER_IP_REG PERF_REG_ARM64_PC
#endif

#include "machine/perf_sys.h"
#include "model/util.h"

#define RING_PAGES 128 /* data pages per CPU, a power of two */

typedef struct ring {
	int fd;
	void *base;
	size_t size; /* of the data area */
} ring;

typedef struct perf_priv {
	ring *r;
	int nr;
	int kernel_excluded;
	uint64_t lost;
	uint64_t exec_ns;
	pid_t pid;
	unsigned char *tmp; /* a record that wraps around the ring's end */
	size_t tmpcap;
	uint64_t *map_t;    /* the time of each of the run's maps, in its order */
	int cap_t;
	double wait_s;
} perf_priv;

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -99;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -99;
		fclose(f);
	}
	return v;
}

static void attr_for(struct perf_event_attr *a, uint64_t interval_ns, int exclude_kernel)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = interval_ns;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
#ifdef USER_IP_REG
	a->sample_type |= PERF_SAMPLE_REGS_USER;
	a->sample_regs_user = 1ull << USER_IP_REG;
#endif
	a->inherit = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->exclude_hv = 1;
	a->exclude_kernel = (unsigned)exclude_kernel;
	/* the rings are read on a timer: no wakeup per sample (the kernel's
	 * default), whose irq_work costs as much as the sample in a VM */
	a->watermark = 1;
	a->wakeup_watermark = RING_PAGES * 4096 / 2;
	/* enabled now, not at exec: the launcher's offset burn then sets the
	 * sampling clock's phase (systematic sampling, random first offset) */
	a->disabled = 0;
}

static void close_rings(perf_priv *p)
{
	for (int i = 0; i < p->nr; i++) {
		if (p->r[i].base)
			munmap(p->r[i].base, p->r[i].size + (size_t)sysconf(_SC_PAGESIZE));
		if (p->r[i].fd >= 0)
			close(p->r[i].fd);
	}
	free(p->r);
	free(p->tmp);
	free(p->map_t);
	free(p);
}

static int perf_start(epi_sampler *sm, pid_t pid, uint64_t interval_ns, uint64_t offset_ns, char *err)
{
	(void)offset_ns; /* the launcher burns it */
	if (interval_ns < 10000)
		return epi_error(err, "sampling interval %.0f us is below perf's minimum of 10 us", (double)interval_ns * 1e-3);
	perf_priv *p = xcalloc(1, sizeof *p);
	p->pid = pid;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	p->r = xcalloc((size_t)ncpu, sizeof *p->r);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_attr a;
	for (long c = 0; c < ncpu; c++) {
		ring *r = &p->r[p->nr];
		r->fd = -1;
		attr_for(&a, interval_ns, p->kernel_excluded);
		int fd = epi_sys_perf_event_open(&a, pid, (int)c, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && (errno == EACCES || errno == EPERM) && !p->kernel_excluded && p->nr == 0) {
			p->kernel_excluded = 1; /* perf_event_paranoid >= 2: user space only */
			attr_for(&a, interval_ns, 1);
			fd = epi_sys_perf_event_open(&a, pid, (int)c, -1, PERF_FLAG_FD_CLOEXEC);
		}
		if (fd < 0 && errno == ENODEV)
			continue; /* an offline CPU */
		if (fd < 0) {
			int e = errno;
			close_rings(p);
			if (e == EACCES || e == EPERM)
				return epi_error(err, "perf_event_open (cpu-clock) on CPU %ld: %s (perf_event_paranoid is %d; "
						 "allow it with 'sysctl kernel.perf_event_paranoid=2' or CAP_PERFMON, or use --method ptrace)",
						 c, strerror(e), paranoid());
			return epi_error(err, "perf_event_open (cpu-clock) on CPU %ld: %s (use --method ptrace)", c, strerror(e));
		}
		r->fd = fd;
		r->size = RING_PAGES * page;
		r->base = mmap(NULL, r->size + page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (r->base == MAP_FAILED) {
			int e = errno;
			r->base = NULL;
			p->nr++;
			close_rings(p);
			return epi_error(err, "cannot map perf's ring buffer: %s (see /proc/sys/kernel/perf_event_mlock_kb)",
					 strerror(e));
		}
		p->nr++;
	}
	if (p->nr == 0) {
		close_rings(p);
		return epi_error(err, "perf_event_open: no CPU to sample on");
	}
	/* read a ring well before it can fill: 56 bytes per sample at most */
	double fill_s = (double)(RING_PAGES * page) / 56.0 * (double)interval_ns * 1e-9;
	p->wait_s = fill_s / 4 < 0.01 ? fill_s / 4 : 0.01;
	sm->priv = p;
	sm->exec_ns = UINT64_MAX;
	return 0;
}

/* The fields at a record's end that sample_id_all adds: tid, time, cpu. */
static uint64_t id_time(const unsigned char *rec, size_t len)
{
	uint64_t t;
	memcpy(&t, rec + len - 16, sizeof t);
	return t;
}

static void on_record(perf_priv *p, epi_run_data *run, const unsigned char *rec)
{
	struct perf_event_header h;
	memcpy(&h, rec, sizeof h);
	const unsigned char *q = rec + sizeof h;
	if (h.type == PERF_RECORD_SAMPLE) {
		epi_sample s = {0};
		uint32_t pt[2], cpu[2];
		memcpy(&s.ip, q, 8);
		memcpy(pt, q + 8, 8);
		memcpy(&s.t_ns, q + 16, 8);
		memcpy(cpu, q + 24, 8);
		s.tid = pt[1];
		s.cpu = cpu[0];
#ifdef USER_IP_REG
		uint64_t abi, uip;
		memcpy(&abi, q + 32, 8);
		if (abi != PERF_SAMPLE_REGS_ABI_NONE) {
			memcpy(&uip, q + 40, 8);
			s.ip = uip; /* in a system call: the user code that made it */
		}
#endif
		epi_run_add_sample(run, &s);
	} else if (h.type == PERF_RECORD_MMAP2) {
		uint32_t pt[2];
		memcpy(pt, q, 8);
		epi_map m = {0};
		m.pid = pt[0];
		memcpy(&m.start, q + 8, 8);
		memcpy(&m.len, q + 16, 8);
		memcpy(&m.pgoff, q + 24, 8);
		uint32_t prot;
		memcpy(&prot, q + 56, 4);
		const char *name = (const char *)q + 64;
		if ((prot & PROT_EXEC) && name[0] == '/') {
			snprintf(m.path, sizeof m.path, "%s", name);
			if (run->nmaps == p->cap_t) {
				p->cap_t = p->cap_t ? 2 * p->cap_t : 16;
				p->map_t = xrealloc(p->map_t, (size_t)p->cap_t * sizeof *p->map_t);
			}
			p->map_t[run->nmaps] = id_time(rec, h.size);
			epi_run_add_map(run, &m);
		}
	} else if (h.type == PERF_RECORD_COMM) {
		uint32_t pt[2];
		memcpy(pt, q, 8);
		if ((h.misc & PERF_RECORD_MISC_COMM_EXEC) && (pid_t)pt[0] == p->pid) {
			uint64_t t = id_time(rec, h.size);
			if (t < p->exec_ns)
				p->exec_ns = t;
		}
	} else if (h.type == PERF_RECORD_LOST) {
		uint64_t n;
		memcpy(&n, q + 8, 8);
		p->lost += n;
	}
}

static void drain(perf_priv *p, ring *r, epi_run_data *run)
{
	struct perf_event_mmap_page *meta = r->base;
	unsigned char *data = (unsigned char *)r->base + sysconf(_SC_PAGESIZE);
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	while (tail < head) {
		size_t at = (size_t)(tail % r->size);
		struct perf_event_header h;
		if (at + sizeof h <= r->size) {
			memcpy(&h, data + at, sizeof h);
		} else {
			size_t k = r->size - at;
			memcpy(&h, data + at, k);
			memcpy((unsigned char *)&h + k, data, sizeof h - k);
		}
		if (h.size < sizeof h)
			break; /* cannot happen; do not loop forever */
		const unsigned char *rec = data + at;
		if (at + h.size > r->size) { /* wraps: copy it out */
			if (p->tmpcap < h.size) {
				p->tmpcap = h.size;
				p->tmp = xrealloc(p->tmp, p->tmpcap);
			}
			size_t k = r->size - at;
			memcpy(p->tmp, data + at, k);
			memcpy(p->tmp + k, data, h.size - k);
			rec = p->tmp;
		}
		on_record(p, run, rec);
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

static int perf_collect(epi_sampler *sm, epi_run_data *run, char *err)
{
	(void)err;
	perf_priv *p = sm->priv;
	for (int i = 0; i < p->nr; i++)
		drain(p, &p->r[i], run);
	return 0;
}

static double perf_wait(epi_sampler *sm)
{
	return ((perf_priv *)sm->priv)->wait_s;
}

static int perf_stop(epi_sampler *sm, epi_run_data *run, char *err)
{
	perf_priv *p = sm->priv;
	perf_collect(sm, run, err);
	run->end.lost = p->lost;
	run->kernel_excluded = p->kernel_excluded;
	sm->exec_ns = p->exec_ns;
	/* maps and samples of the launcher before exec are not the program's;
	 * the program's in the order they were made: each CPU's ring is read
	 * after the other's, and a program moved from one CPU to another while
	 * its exec mapped it has its libraries' maps read before its own */
	int k = 0;
	for (int i = 0; i < run->nmaps; i++)
		if (run->maps[i].pid == (uint32_t)p->pid) {
			p->map_t[k] = p->map_t[i];
			run->maps[k++] = run->maps[i];
		}
	run->nmaps = k;
	epi_run_maps_in_order(run, p->map_t);
	int ret = 0;
	if (p->exec_ns == UINT64_MAX)
		ret = epi_error(err, "perf reported no exec of the program (no samples can be attributed)");
	close_rings(p);
	sm->priv = NULL;
	return ret;
}

const epi_sampler_ops epi_sampler_perf = {
	.name = "perf",
	.summary = "perf_event_open cpu-clock sampling, per CPU, inherited by threads (default)",
	.start = perf_start,
	.collect = perf_collect,
	.wait_s = perf_wait,
	.stop = perf_stop,
};
