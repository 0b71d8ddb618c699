/* sample_ptrace: ALEA's own sampler. The program is a PTRACE_SEIZE'd
 * tracee; at each sampling time every thread is interrupted
 * (PTRACE_INTERRUPT), its instruction pointer read, and resumed, so each
 * tick samples all threads at once. Ticks are in wall-clock time from a
 * random offset after the exec: a thread blocked in a system call is
 * sampled where it called it. It needs no perf_event_open, only the right
 * to trace one's own child. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "machine/sysroot.h"
#include "model/util.h"
#include "validate/profile.h"

#if defined(__x86_64__)
#define REG_IP(r) ((r).rip)
#elif defined(__aarch64__)
#define REG_IP(r) ((r).pc)
#elif defined(__i386__)
#define REG_IP(r) ((r).eip)
#endif

typedef struct thr {
	pid_t tid;
	int sig;       /* a signal to deliver when resumed */
	uint64_t late; /* the tick it has not stopped for yet, 0 when none */
} thr;

typedef struct pt_priv {
	pid_t pid;
	uint64_t interval, offset;
	thr *t;
	int nt, capt;
	int exited, status;
	struct rusage ru;
	uint64_t next;   /* the next tick; 0 before the exec */
	uint64_t missed; /* ticks skipped because sampling fell behind */
	uint64_t last_read; /* the last meter reading */
	int policy;      /* this thread's scheduling before the run, restored after */
	struct sched_param param;
	int realtime;    /* raised to SCHED_FIFO for the run */
	char exe[4096];
} pt_priv;

static thr *find(pt_priv *p, pid_t tid)
{
	for (int i = 0; i < p->nt; i++)
		if (p->t[i].tid == tid)
			return &p->t[i];
	return NULL;
}

static thr *add(pt_priv *p, pid_t tid)
{
	thr *t = find(p, tid);
	if (t)
		return t;
	if (p->nt == p->capt) {
		p->capt = p->capt ? 2 * p->capt : 8;
		p->t = xrealloc(p->t, (size_t)p->capt * sizeof *p->t);
	}
	p->t[p->nt] = (thr){tid, 0, 0};
	return &p->t[p->nt++];
}

static void drop(pt_priv *p, pid_t tid)
{
	for (int i = 0; i < p->nt; i++)
		if (p->t[i].tid == tid) {
			p->t[i] = p->t[--p->nt];
			return;
		}
}

/* The program's executable mappings from /proc/PID/maps, those not yet in
 * RUN; the program's own first (the trace's maps[0]). */
static void read_maps(pt_priv *p, epi_run_data *run)
{
	char path[64], line[4400];
	snprintf(path, sizeof path, "/proc/%d/maps", (int)p->pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	for (int pass = run->nmaps ? 1 : 0; pass < 2; pass++) {
		rewind(f);
		while (fgets(line, sizeof line, f)) {
			unsigned long long lo, hi, off;
			char perm[8];
			int name = 0;
			if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perm, &off, &name) < 4 || !name ||
			    perm[2] != 'x' || line[name] != '/')
				continue;
			char *file = line + name;
			file[strcspn(file, "\n")] = 0;
			if (pass == 0 && strcmp(file, p->exe) != 0)
				continue; /* the program first */
			int seen = 0;
			for (int i = 0; i < run->nmaps && !seen; i++)
				seen = run->maps[i].start == lo && strcmp(run->maps[i].path, file) == 0;
			if (seen)
				continue;
			epi_map m = {.pid = (uint32_t)p->pid, .start = lo, .len = hi - lo, .pgoff = off};
			snprintf(m.path, sizeof m.path, "%s", file);
			epi_run_add_map(run, &m);
		}
	}
	fclose(f);
}

static int in_maps(const epi_run_data *run, uint64_t ip)
{
	for (int i = 0; i < run->nmaps; i++)
		if (ip >= run->maps[i].start && ip < run->maps[i].start + run->maps[i].len)
			return 1;
	return 0;
}

/* What stop ST of TID means: new threads, the exec, the program's exit.
 * Returns the signal to deliver when TID is resumed: the program's own
 * signals pass on; ptrace's stops carry none. */
static int on_stop(pt_priv *p, epi_sampler *sm, epi_run_data *run, pid_t tid, int st)
{
	unsigned long msg = 0;
	switch (st >> 16) {
	case PTRACE_EVENT_CLONE:
		if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) == 0)
			add(p, (pid_t)msg);
		return 0;
	case PTRACE_EVENT_EXEC:
		/* only the leader is left; ticks start a random offset from here */
		p->nt = 0;
		add(p, p->pid);
		sm->exec_ns = epi_now_ns();
		p->next = sm->exec_ns + p->offset;
		return 0;
	case PTRACE_EVENT_EXIT:
		if (tid == p->pid)
			read_maps(p, run); /* the last moment they can be read */
		return 0;
	case PTRACE_EVENT_STOP:
		return 0; /* a new thread's first stop, a group stop, or an interrupt */
	default:
		return WSTOPSIG(st); /* a signal for the program */
	}
}

/* Resumes TID, delivering SIG or the signal kept for it. */
static void resume(pt_priv *p, pid_t tid, int sig)
{
	thr *t = find(p, tid);
	if (!sig && t)
		sig = t->sig;
	if (ptrace(PTRACE_CONT, tid, 0, (void *)(long)sig) == 0 && t)
		t->sig = 0;
}

/* Samples stopped thread TID for the tick at T. */
static void sample(pt_priv *p, epi_run_data *run, pid_t tid, uint64_t t)
{
#ifdef REG_IP
	struct user_regs_struct regs;
	struct iovec io = {&regs, sizeof regs};
	if (ptrace(PTRACE_GETREGSET, tid, (void *)NT_PRSTATUS, &io) == 0) {
		uint64_t ip = (uint64_t)REG_IP(regs);
		if (!in_maps(run, ip))
			read_maps(p, run); /* a library loaded since */
		epi_sample s = {.t_ns = t, .ip = ip, .tid = (uint32_t)tid, .cpu = 0, .watts = 0};
		epi_run_add_sample(run, &s);
	}
#else
	(void)p, (void)run, (void)tid, (void)t;
#endif
}

/* Wait status ST of TID, outside a tick: handled, and TID resumed. A
 * thread that stops late for a tick is sampled for that tick now. */
static void status(pt_priv *p, epi_sampler *sm, epi_run_data *run, pid_t tid, int st, const struct rusage *ru)
{
	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		drop(p, tid);
		if (tid == p->pid) {
			p->exited = 1;
			p->status = st;
			p->ru = *ru;
		}
	} else if (WIFSTOPPED(st)) {
		thr *t = add(p, tid);
		int sig = on_stop(p, sm, run, tid, st);
		if (t->late) {
			sample(p, run, tid, t->late);
			t->late = 0;
		}
		resume(p, tid, sig);
	}
}

/* Handles every pending status without blocking. */
static void drain(pt_priv *p, epi_sampler *sm, epi_run_data *run)
{
	for (;;) {
		int st;
		struct rusage ru;
		pid_t w = wait4(-1, &st, __WALL | WNOHANG, &ru);
		if (w <= 0)
			return;
		status(p, sm, run, w, st, &ru);
	}
}

/* Waits for TID's next status until DEADLINE; 1 with it in *ST, else 0. */
static int wait_until(pid_t tid, int *st, struct rusage *ru, uint64_t deadline)
{
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	for (;;) {
		pid_t w = wait4(tid, st, __WALL | WNOHANG, ru);
		if (w == tid)
			return 1;
		if (w < 0 && errno != EINTR)
			return 0;
		uint64_t t = epi_now_ns();
		if (t >= deadline)
			return 0;
		struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)(deadline - t < 1000000 ? deadline - t : 1000000)};
		sigtimedwait(&chld, NULL, &ts);
	}
}

/* One tick, ALEA's loop: the meter read (at most once per its sensing
 * interval), then every thread interrupted, its IP read at its first stop
 * (whatever stopped it), and resumed. A thread that does not stop within
 * the interval is sampled when it stops (for this tick). Returns the tick's
 * time, its samples' t_ns. */
static uint64_t tick(pt_priv *p, epi_sampler *sm, epi_run_data *run)
{
	if (sm->read_meter && (double)(epi_now_ns() - p->last_read) * 1e-9 >= sm->meter_step_s * 0.999) {
		p->last_read = epi_now_ns();
		if (sm->read_meter(sm->meter_ctx) < 0)
			sm->read_meter = NULL; /* the run says the meter failed */
	}
	uint64_t t0 = epi_now_ns(), deadline = t0 + (p->interval > 1000000 ? p->interval : 1000000);
	int n = p->nt;
	pid_t *tids = xmalloc((size_t)(n ? n : 1) * sizeof *tids);
	int k = 0;
	for (int i = 0; i < n; i++)
		if (ptrace(PTRACE_INTERRUPT, p->t[i].tid, 0, 0) == 0)
			tids[k++] = p->t[i].tid;
	for (int i = 0; i < k; i++) {
		pid_t tid = tids[i];
		int st;
		struct rusage ru;
		if (!wait_until(tid, &st, &ru, deadline)) {
			thr *t = find(p, tid);
			if (t)
				t->late = t0; /* sampled when it stops */
			continue;
		}
		if (!WIFSTOPPED(st)) {
			status(p, sm, run, tid, st, &ru); /* it ended */
			continue;
		}
		int sig = on_stop(p, sm, run, tid, st);
		sample(p, run, tid, t0);
		resume(p, tid, sig);
	}
	free(tids);
	return t0;
}

static int pt_start(epi_sampler *sm, pid_t pid, uint64_t interval_ns, uint64_t offset_ns, char *err)
{
#ifndef REG_IP
	(void)sm, (void)pid, (void)interval_ns, (void)offset_ns;
	return epi_error(err, "the ptrace sampler does not know this architecture's registers: use --method perf");
#else
	long opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL;
	if (ptrace(PTRACE_SEIZE, pid, 0, (void *)opts) < 0) {
		int e = errno;
		return epi_error(err, "cannot trace the program (ptrace): %s%s", strerror(e),
				 e == EPERM ? " (see /proc/sys/kernel/yama/ptrace_scope, or run in a container with CAP_SYS_PTRACE)"
					    : "");
	}
	pt_priv *p = xcalloc(1, sizeof *p);
	p->pid = pid;
	p->interval = interval_ns;
	p->offset = offset_ns;
	add(p, pid);
	sm->priv = p;
	sm->exec_ns = UINT64_MAX;
	return 0;
#endif
}

static int pt_run(epi_sampler *sm, epi_run_data *run, int *status, struct rusage *ru, char *err)
{
	pt_priv *p = sm->priv;
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	/* the ticks are this thread's: where allowed (root, CAP_SYS_NICE or
	 * RLIMIT_RTPRIO), it runs them ahead of the program it interrupts, as
	 * perf's in-kernel timer would, else ticks are missed on a busy machine.
	 * Set here, after the meter thread started: it keeps its own policy. */
	pthread_getschedparam(pthread_self(), &p->policy, &p->param);
	struct sched_param rt = {.sched_priority = 1};
	p->realtime = pthread_setschedparam(pthread_self(), SCHED_FIFO, &rt) == 0;
	while (!p->exited) {
		drain(p, sm, run);
		if (p->exited)
			break;
		if (p->next && !p->exe[0]) {
			char link[64];
			snprintf(link, sizeof link, "/proc/%d/exe", (int)p->pid);
			ssize_t l = readlink(link, p->exe, sizeof p->exe - 1);
			p->exe[l > 0 ? l : 0] = 0;
			read_maps(p, run);
		}
		uint64_t t = epi_now_ns();
		if (p->next && t >= p->next) {
			size_t first = run->ns;
			uint64_t t0 = tick(p, sm, run);
			p->next += p->interval;
			t = epi_now_ns();
			if (t > p->next) {
				/* sampling fell behind: the ticks it missed hold what this one
				 * found (the program ran on meanwhile; dropping them would
				 * take that time from whatever block it ran in) */
				uint64_t behind = (t - p->next) / p->interval + 1;
				size_t last = run->ns;
				for (uint64_t k = 0; k < behind; k++)
					for (size_t i = first; i < last; i++)
						if (run->s[i].t_ns == t0) {
							epi_sample c = run->s[i];
							c.t_ns = p->next + k * p->interval;
							epi_run_add_sample(run, &c);
						}
				p->missed += behind;
				p->next += behind * p->interval;
			}
			continue;
		}
		uint64_t wait = p->next ? p->next - t : 10000000;
		struct timespec ts = {.tv_sec = (time_t)(wait / 1000000000u), .tv_nsec = (long)(wait % 1000000000u)};
		sigtimedwait(&chld, NULL, &ts);
	}
	*status = p->status;
	*ru = p->ru;
	(void)err;
	return 0;
}

static int pt_stop(epi_sampler *sm, epi_run_data *run, char *err)
{
	pt_priv *p = sm->priv;
	(void)err;
	if (!p)
		return 0;
	run->end.lost += p->missed;
	if (p->realtime)
		pthread_setschedparam(pthread_self(), p->policy, &p->param);
	free(p->t);
	free(p);
	sm->priv = NULL;
	return 0;
}

const epi_sampler_ops epi_sampler_ptrace = {
	.name = "ptrace",
	.summary = "ALEA's sampler: every thread interrupted at each tick (PTRACE_INTERRUPT), wall-clock time",
	.start = pt_start,
	.run = pt_run,
	.stop = pt_stop,
	.reads_meter = 1,
};
