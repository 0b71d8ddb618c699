#define _GNU_SOURCE
/* profile: one profiled run (see profile.h): launch, meter thread, sampler
 * loop, power per sample. */
#include "validate/profile.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <elfutils/libdwelf.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "machine/sysroot.h"
#include "model/util.h"

static const epi_sampler_ops *const samplers[] = {&epi_sampler_perf, &epi_sampler_ptrace, NULL};

const epi_sampler_ops *epi_sampler_find(const char *name)
{
	for (int i = 0; samplers[i]; i++)
		if (strcmp(samplers[i]->name, name) == 0)
			return samplers[i];
	return NULL;
}

void epi_run_add_sample(epi_run_data *run, const epi_sample *s)
{
	if (run->ns == run->caps) {
		run->caps = run->caps ? 2 * run->caps : 4096;
		run->s = xrealloc(run->s, run->caps * sizeof *run->s);
	}
	run->s[run->ns++] = *s;
}

void epi_run_add_map(epi_run_data *run, const epi_map *m)
{
	if (run->nmaps == run->capmaps) {
		run->capmaps = run->capmaps ? 2 * run->capmaps : 16;
		run->maps = xrealloc(run->maps, (size_t)run->capmaps * sizeof *run->maps);
	}
	run->maps[run->nmaps++] = *m;
}

typedef struct map_at {
	uint64_t t;
	int i;
} map_at;

static int by_time(const void *a, const void *b)
{
	const map_at *x = a, *y = b;
	return x->t != y->t ? (x->t < y->t ? -1 : 1) : x->i - y->i;
}

void epi_run_maps_in_order(epi_run_data *run, const uint64_t *t)
{
	int n = run->nmaps;
	if (n < 2)
		return;
	map_at *at = xmalloc((size_t)n * sizeof *at);
	for (int i = 0; i < n; i++)
		at[i] = (map_at){t[i], i};
	qsort(at, (size_t)n, sizeof *at, by_time);
	epi_map *m = xmalloc((size_t)n * sizeof *m);
	for (int i = 0; i < n; i++)
		m[i] = run->maps[at[i].i];
	memcpy(run->maps, m, (size_t)n * sizeof *m);
	free(m);
	free(at);
}

static void add_reading(epi_run_data *run, uint64_t t, double j, double span_s)
{
	if (run->nr == run->capr) {
		run->capr = run->capr ? 2 * run->capr : 1024;
		run->r = xrealloc(run->r, run->capr * sizeof *run->r);
	}
	run->r[run->nr].t_ns = t;
	run->r[run->nr].joules = j;
	run->r[run->nr].span_ns = span_s < 4.0 ? (uint32_t)(span_s * 1e9) : UINT32_MAX;
	run->nr++;
}

void epi_run_data_free(epi_run_data *run)
{
	free(run->s);
	free(run->r);
	free(run->maps);
	memset(run, 0, sizeof *run);
}

void epi_assign_power(epi_sample *s, size_t ns, const epi_reading *r, size_t nr)
{
	size_t e = 1; /* the sensing interval [r[e-1], r[e]] */
	for (size_t i = 0; i < ns; i++) {
		if (nr < 2) {
			s[i].watts = NAN;
			continue;
		}
		/* samples come in time order per CPU, not overall: start again when behind */
		if (r[e].t_ns > s[i].t_ns)
			e = 1;
		/* r[e]: the last reading at or before the sample, or r[1] when none is */
		while (e + 1 < nr && r[e + 1].t_ns <= s[i].t_ns)
			e++;
		double dt = (double)(r[e].t_ns - r[e - 1].t_ns) * 1e-9;
		s[i].watts = dt > 0 ? (r[e].joules - r[e - 1].joules) / dt : NAN;
	}
}

int epi_read_buildid(const char *path, unsigned char *id)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int n = 0;
	if (e) {
		const void *p = NULL;
		ssize_t len = dwelf_elf_gnu_build_id(e, &p);
		if (len > 0 && len <= EPI_BUILDID_MAX) {
			memcpy(id, p, (size_t)len);
			n = (int)len;
		}
		elf_end(e);
	}
	close(fd);
	return n;
}

/* ---- the meter thread ---- */
typedef struct meter_job {
	epi_meter *m;
	const char *domain;
	epi_run_data *run;
	atomic_int stop;
	pthread_mutex_t lock; /* with wake: ends the thread's sleep at stop */
	pthread_cond_t wake;
	int failed;
	char err[EPI_ERRLEN];
} meter_job;

static int meter_read(meter_job *j);

static int meter_read_cb(void *ctx) { return meter_read(ctx); }

static int meter_read(meter_job *j)
{
	if (epi_meter_poll(j->m, j->err) < 0) {
		j->failed = 1;
		return -1;
	}
	double t = j->m->t_last;
	add_reading(j->run, (uint64_t)(t * 1e9), epi_meter_joules(j->m, j->domain), j->m->t_span);
	return 0;
}

double epi_meter_lag(const epi_meter *m)
{
	double s = 0;
	for (int i = 0; i < m->ndom; i++)
		if (m->dom[i].interval_s > s)
			s = m->dom[i].interval_s;
	return s;
}

double epi_meter_step(const epi_meter *m)
{
	double s = epi_meter_period(m);
	for (int i = 0; i < m->ndom; i++)
		if (m->dom[i].interval_s > 0 && m->dom[i].interval_s < s)
			s = m->dom[i].interval_s;
	return s < 1e-3 ? 1e-3 : s;
}

static void *meter_main(void *arg)
{
	meter_job *j = arg;
	double step = epi_meter_step(j->m);
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&j->stop) && !j->failed) {
		long ns = next.tv_nsec + (long)(step * 1e9);
		next.tv_sec += ns / 1000000000L;
		next.tv_nsec = ns % 1000000000L;
		pthread_mutex_lock(&j->lock);
		while (!atomic_load(&j->stop) && pthread_cond_timedwait(&j->wake, &j->lock, &next) == 0)
			;
		pthread_mutex_unlock(&j->lock);
		if (!atomic_load(&j->stop))
			meter_read(j);
	}
	return NULL;
}

/* The meter's count at T, interpolated between the readings around it (the
 * first or last reading outside them). */
static double energy_at(const epi_reading *r, size_t n, uint64_t t)
{
	size_t a = 0;
	while (a + 1 < n && r[a + 1].t_ns <= t)
		a++;
	if (a + 1 < n && r[a].t_ns < t) {
		double f = (double)(t - r[a].t_ns) / (double)(r[a + 1].t_ns - r[a].t_ns);
		return r[a].joules + f * (r[a + 1].joules - r[a].joules);
	}
	return r[a].joules;
}

/* ---- launching ---- */

/* In the child: waits for GO, burns OFFSET_NS of CPU time (so that the
 * sampling clock's phase is random at exec), then runs ARGV; reports an exec
 * failure's errno on ERRFD. */
static void child(int go, int errfd, uint64_t offset_ns, char *const *argv)
{
	char c;
	if (read(go, &c, 1) != 1)
		_exit(127);
	close(go);
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	uint64_t until = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec + offset_ns;
	for (;;) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
		if ((uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec >= until)
			break;
	}
	execvp(argv[0], argv);
	int e = errno;
	if (write(errfd, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

static double tv_s(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec * 1e-6; }

static double self_cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return tv_s(ru.ru_utime) + tv_s(ru.ru_stime);
}

/* A uniform random offset in [0, interval) from the seed and the run's index. */
static uint64_t offset_for(uint64_t seed, uint32_t index, uint64_t interval)
{
	uint64_t x = seed ^ (0x9E3779B97F4A7C15ull * (index + 1));
	x ^= x >> 30;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 27;
	x *= 0x94D049BB133111EBull;
	x ^= x >> 31;
	return interval ? x % interval : 0;
}

int epi_profile_run(const epi_sampler_ops *ops, const epi_profile_opts *o, uint32_t index, epi_run_data *run,
		    char *err)
{
	memset(run, 0, sizeof *run);
	uint64_t offset = offset_for(o->seed, index, o->interval_ns);
	int go[2], ex[2];
	if (pipe2(go, O_CLOEXEC) != 0 || pipe2(ex, O_CLOEXEC) != 0)
		return epi_error(err, "cannot create a pipe: %s", strerror(errno));
	sigset_t chld, old;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return epi_error(err, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(go[1]);
		close(ex[0]);
		child(go[0], ex[1], ops->run ? 0 : offset, o->argv); /* ptrace's ticks start at the exec */
	}
	close(go[0]);
	close(ex[1]);
	epi_sampler sm = {.ops = ops};
	int ret = 0, status = 0;
	meter_job mj = {.m = o->meter, .domain = o->domain, .run = run};
	pthread_t mt;
	int metered = o->meter && !o->meter->time_only, mstarted = 0;
	pthread_mutex_init(&mj.lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&mj.wake, &ca);
	pthread_condattr_destroy(&ca);
	if (ops->start(&sm, pid, o->interval_ns, offset, err) < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		ret = -1;
		goto out;
	}
	if (metered) {
		epi_meter_reset(o->meter);
		if (meter_read(&mj) == 0) {
			if (ops->reads_meter) {
				sm.read_meter = meter_read_cb;
				sm.meter_ctx = &mj;
				sm.meter_step_s = epi_meter_step(o->meter);
			} else if (pthread_create(&mt, NULL, meter_main, &mj) == 0) {
				mstarted = 1;
			}
		}
	}
	run->begin.index = index;
	run->begin.pid = (uint32_t)pid;
	run->begin.offset_ns = offset;
	double cpu0 = self_cpu_s();
	uint64_t t0 = epi_now_ns();
	run->begin.start_ns = t0;
	if (write(go[1], "g", 1) != 1) {
		ret = epi_error(err, "cannot start the program: %s", strerror(errno));
		kill(pid, SIGKILL);
	}
	close(go[1]);
	int e = 0;
	ssize_t got = read(ex[0], &e, sizeof e); /* returns at exec (0) or its failure */
	close(ex[0]);
	if (got == (ssize_t)sizeof e && ret == 0)
		ret = epi_error(err, "cannot run '%s': %s", o->argv[0], strerror(e));
	struct rusage ru;
	if (ops->run && ret == 0 && ops->run(&sm, run, &status, &ru, err) < 0) {
		ret = -1;
		kill(pid, SIGKILL);
	}
	for (int waiting = !ops->run || ret < 0; waiting;) {
		pid_t w = wait4(pid, &status, WNOHANG | __WALL, &ru);
		if (w == pid && WIFSTOPPED(status)) { /* a tracee whose ptrace run failed: let it end */
			kill(pid, SIGKILL);
			ptrace(PTRACE_CONT, pid, 0, 0);
			continue;
		}
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			ret = epi_error(err, "cannot wait for '%s': %s", o->argv[0], strerror(errno));
			break;
		}
		if (ret == 0 && ops->collect && ops->collect(&sm, run, err) < 0) {
			ret = -1;
			kill(pid, SIGKILL);
		}
		double ws = ops->wait_s ? ops->wait_s(&sm) : 0.01;
		struct timespec ts = {.tv_sec = (time_t)ws, .tv_nsec = (long)((ws - (double)(time_t)ws) * 1e9)};
		sigtimedwait(&chld, NULL, &ts);
	}
	uint64_t t1 = epi_now_ns();
	if (mstarted) {
		pthread_mutex_lock(&mj.lock);
		atomic_store(&mj.stop, 1);
		pthread_cond_signal(&mj.wake);
		pthread_mutex_unlock(&mj.lock);
		pthread_join(mt, NULL);
	}
	if (metered && !mj.failed)
		meter_read(&mj); /* the run's last reading */
	if (ops->stop(&sm, run, ret == 0 ? err : (char[EPI_ERRLEN]){0}) < 0)
		ret = -1;
	if (ret < 0)
		goto out;
	/* the launcher's own samples, before exec, are not the program's */
	size_t k = 0;
	for (size_t i = 0; i < run->ns; i++)
		if (run->s[i].t_ns >= sm.exec_ns)
			run->s[k++] = run->s[i];
	run->ns = k;
	for (int i = 0; i < run->nmaps; i++)
		run->maps[i].buildid_len = epi_read_buildid(run->maps[i].path, run->maps[i].buildid);
	if (metered && !mj.failed)
		epi_assign_power(run->s, run->ns, run->r, run->nr);
	else
		epi_assign_power(run->s, run->ns, NULL, 0);
	epi_run_end *end = &run->end;
	end->status = status;
	end->flags = (WIFSIGNALED(status) ? EPI_RUN_SIGNALLED : 0) | (metered && mj.failed ? EPI_RUN_METER_FAILED : 0);
	/* the run's time: from exec to the end (the launcher's offset burn excluded) */
	uint64_t from = sm.exec_ns > t0 ? sm.exec_ns : t0;
	end->wall_s = (double)(t1 - from) * 1e-9;
	end->cpu_s = tv_s(ru.ru_utime) + tv_s(ru.ru_stime) - (double)offset * 1e-9;
	if (end->cpu_s < 0)
		end->cpu_s = 0;
	end->joules = NAN;
	if (metered && !mj.failed && run->nr >= 2)
		end->joules = energy_at(run->r, run->nr, t1) - energy_at(run->r, run->nr, from);
	end->nsamples = run->ns;
	end->prof_cpu_s = self_cpu_s() - cpu0;
out:
	pthread_cond_destroy(&mj.wake);
	pthread_mutex_destroy(&mj.lock);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (metered && mj.failed && ret == 0)
		snprintf(err, EPI_ERRLEN, "%s", mj.err); /* for the caller to warn */
	return ret;
}

int epi_trace_put_run(epi_trace_writer *w, const epi_run_data *run, char *err)
{
	if (epi_trace_run(w, &run->begin, err) < 0)
		return -1;
	for (int i = 0; i < run->nmaps; i++)
		if (epi_trace_map(w, &run->maps[i], err) < 0)
			return -1;
	if (epi_trace_readings(w, run->r, (uint32_t)run->nr, err) < 0 ||
	    epi_trace_samples(w, run->s, (uint32_t)run->ns, err) < 0 || epi_trace_end(w, &run->end, err) < 0)
		return -1;
	return 0;
}
