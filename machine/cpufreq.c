/* cpufreq: frequency policies, pinning and restoration (see cpufreq.h). */
#define _GNU_SOURCE /* sched_setaffinity */
#include "machine/cpufreq.h"
#include "machine/cpu.h"
#include "model/freq.h"
#include "model/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

static int read_pol(const epi_policy *p, const char *file, char *buf, size_t n)
{
	char path[EPI_PATHLEN + 64], e[EPI_ERRLEN];
	snprintf(path, sizeof path, "%s/%s", p->dir, file);
	return epi_read_line(path, buf, n, e);
}

static long long read_pol_ll(const epi_policy *p, const char *file)
{
	char buf[64];
	return read_pol(p, file, buf, sizeof buf) == 0 ? atoll(buf) : -1;
}

static int cmp_pol(const void *a, const void *b)
{
	return ((const epi_policy *)a)->id - ((const epi_policy *)b)->id;
}

int epi_cpufreq_scan(epi_cpufreq *c, long long step_khz, char *err)
{
	memset(c, 0, sizeof *c);
	if (step_khz <= 0)
		step_khz = 100000;
	char root[EPI_PATHLEN];
	epi_syspath(root, "/sys/devices/system/cpu/cpufreq");
	DIR *d = opendir(root);
	if (!d)
		return epi_error(err, "no CPU frequency control: '%s' %s (no cpufreq driver: virtual machines "
				 "usually have none)", root, errno == ENOENT ? "does not exist" : strerror(errno));
	struct dirent *e;
	while ((e = readdir(d)) && c->npol < EPI_MAXPOL) {
		if (strncmp(e->d_name, "policy", 6) != 0)
			continue;
		epi_policy *p = &c->pol[c->npol];
		memset(p, 0, sizeof *p);
		p->id = atoi(e->d_name + 6);
		snprintf(p->dir, sizeof p->dir, "%s/%s", root, e->d_name);
		char buf[4096];
		if (read_pol(p, "affected_cpus", buf, sizeof buf) == 0)
			p->ncpus = epi_parse_cpulist(buf, p->cpus, (int)(sizeof p->cpus / sizeof *p->cpus));
		if (p->ncpus <= 0)
			continue; /* an offline policy */
		read_pol(p, "scaling_driver", p->driver, sizeof p->driver);
		read_pol(p, "scaling_governor", p->governor, sizeof p->governor);
		read_pol(p, "scaling_available_governors", p->governors, sizeof p->governors);
		p->userspace = strstr(p->governors, "userspace") != NULL;
		p->hw_min = read_pol_ll(p, "cpuinfo_min_freq");
		p->hw_max = read_pol_ll(p, "cpuinfo_max_freq");
		p->min = read_pol_ll(p, "scaling_min_freq");
		p->max = read_pol_ll(p, "scaling_max_freq");
		p->cur = read_pol_ll(p, "scaling_cur_freq");
		if (read_pol(p, "scaling_available_frequencies", buf, sizeof buf) == 0 && buf[0]) {
			p->table = 1;
			for (char *s = strtok(buf, " "); s && p->nfreq < EPI_MAXFREQ; s = strtok(NULL, " "))
				if (atoll(s) > 0)
					p->freq[p->nfreq++] = atoll(s);
		} else if (p->hw_min > 0 && p->hw_max >= p->hw_min) {
			/* a range driver: min, then round steps, then max */
			p->freq[p->nfreq++] = p->hw_min;
			for (long long f = (p->hw_min / step_khz + 1) * step_khz; f < p->hw_max && p->nfreq < EPI_MAXFREQ - 1; f += step_khz)
				p->freq[p->nfreq++] = f;
			if (p->hw_max != p->hw_min)
				p->freq[p->nfreq++] = p->hw_max;
		}
		qsort(p->freq, p->nfreq, sizeof *p->freq, cmp_ll);
		c->npol++;
	}
	closedir(d);
	if (c->npol == 0)
		return epi_error(err, "no CPU frequency control: no policy under '%s' (no cpufreq driver is "
				 "loaded: virtual machines usually have none)", root);
	qsort(c->pol, c->npol, sizeof *c->pol, cmp_pol);
	char path[EPI_PATHLEN], buf[16], e2[EPI_ERRLEN];
	if (epi_read_line(epi_syspath(path, "/sys/devices/system/cpu/cpufreq/boost"), buf, sizeof buf, e2) == 0) {
		snprintf(c->boost_path, sizeof c->boost_path, "%s", path);
		c->boost_on = atoi(buf) == 1;
	} else if (epi_read_line(epi_syspath(path, "/sys/devices/system/cpu/intel_pstate/no_turbo"), buf, sizeof buf, e2) == 0) {
		snprintf(c->boost_path, sizeof c->boost_path, "%s", path);
		c->boost_inverted = 1;
		c->boost_on = atoi(buf) == 0;
	}
	return 0;
}

/* ---- the restore plan: what to write back, in order ------------------ */

#define PLAN_MAX 1024

typedef struct plan_entry {
	char path[EPI_PATHLEN];
	char value[64];
} plan_entry;

static plan_entry plan[PLAN_MAX];
static int nplan;
static char state_file[EPI_PATHLEN];
static volatile sig_atomic_t restoring;

static int state_path(char *out, size_t n, int create, char *err);
static int owned(const char *path, int dir, char *err);
static int replay(char *err);

int epi_freq_state_path(char *out, size_t n, char *err)
{
	return state_path(out, n, 1, err);
}

int epi_freq_state_peek(char *out, size_t n)
{
	char err[EPI_ERRLEN];
	return state_path(out, n, 0, err) == 0 && epi_exists(out);
}

static int state_path(char *out, size_t n, int create, char *err)
{
	const char *d = getenv("EPI_STATE_DIR");
	char dir[EPI_PATHLEN];
	if (d && *d)
		snprintf(dir, sizeof dir, "%s", d);
	else if (geteuid() == 0)
		snprintf(dir, sizeof dir, "/var/lib/epi");
	else if (getenv("XDG_STATE_HOME") && *getenv("XDG_STATE_HOME"))
		snprintf(dir, sizeof dir, "%s/epi", getenv("XDG_STATE_HOME"));
	else if (getenv("HOME"))
		snprintf(dir, sizeof dir, "%s/.local/state/epi", getenv("HOME"));
	else
		return epi_error(err, "no place for the frequency state file: set EPI_STATE_DIR");
	snprintf(out, n, "%s/cpufreq-state", dir);
	if (!create)
		return 0;
	if (epi_mkdirs(dir, err) < 0)
		return -1;
	return owned(dir, 1, err);
}

/* Whether PATH (a folder, DIR) is this user's and no one else may write
 * it: what a root process replays must be what it wrote. */
static int owned(const char *path, int dir, char *err)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return epi_error(err, "cannot read '%s': %s", path, strerror(errno));
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return epi_error(err, "'%s' is not a %s: the frequency state is kept in a folder of your own "
				 "(EPI_STATE_DIR)", path, dir ? "folder" : "plain file");
	if (st.st_uid != geteuid())
		return epi_error(err, "'%s' belongs to uid %u, not to you (uid %u): the frequency state is kept in "
				 "a folder of your own (EPI_STATE_DIR)", path, (unsigned)st.st_uid, (unsigned)geteuid());
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return epi_error(err, "'%s' may be written by others (mode %03o): the frequency state is kept "
				 "where only you can write (chmod go-w)", path, (unsigned)(st.st_mode & 0777));
	return 0;
}

/* ---- the lock: one process changes frequencies at a time -------------- */

static int lock_fd = -1;

/* Takes the lock beside the state file, its holder's pid in it; -1 with
 * ERR naming the holder when another process has it. */
static int lock_take(char *err)
{
	if (lock_fd >= 0)
		return 0;
	char path[EPI_PATHLEN + 8];
	snprintf(path, sizeof path, "%s.lock", state_file);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return epi_error(err, "cannot open the lock '%s': %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		char pid[32] = "";
		ssize_t r = e == EWOULDBLOCK ? pread(fd, pid, sizeof pid - 1, 0) : -1;
		close(fd);
		if (r > 0) {
			pid[r] = 0;
			pid[strcspn(pid, "\n")] = 0;
		}
		if (e == EWOULDBLOCK)
			return epi_error(err, "another epi (pid %s) is changing the CPU frequencies (lock '%s'): wait "
					 "for it to end", *pid ? pid : "unknown", path);
		return epi_error(err, "cannot lock '%s': %s", path, strerror(e));
	}
	char pid[32];
	int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
		int e = errno;
		close(fd);
		return epi_error(err, "cannot write the lock '%s': %s", path, strerror(e));
	}
	lock_fd = fd;
	return 0;
}

/* Async-signal-safe. */
static void lock_drop(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}

/* Async-signal-safe: writes the plan back and removes the state file. */
static void plan_apply(void)
{
	for (int i = 0; i < nplan; i++)
		epi_write_value(plan[i].path, plan[i].value);
	if (nplan && state_file[0])
		unlink(state_file);
	nplan = 0;
	lock_drop();
}

static void on_signal(int sig)
{
	if (!restoring) {
		restoring = 1;
		plan_apply();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void at_exit(void)
{
	if (!restoring) {
		restoring = 1;
		plan_apply();
	}
}

static void plan_add(const char *path, const char *value)
{
	if (nplan == PLAN_MAX)
		return;
	snprintf(plan[nplan].path, sizeof plan[nplan].path, "%s", path);
	snprintf(plan[nplan].value, sizeof plan[nplan].value, "%s", value);
	nplan++;
}

static int plan_save(char *err)
{
	size_t cap = 64 + (size_t)nplan * (EPI_PATHLEN + 72), len = 0;
	char *buf = xmalloc(cap);
	len += (size_t)snprintf(buf + len, cap - len, "# epi cpufreq state 1: path<TAB>value, restored in this order\n");
	for (int i = 0; i < nplan; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s\t%s\n", plan[i].path, plan[i].value);
	int r = epi_write_atomic_mode(state_file, buf, len, 0600, err);
	free(buf);
	return r;
}

static int pol_write(const epi_policy *p, const char *file, long long v, char *err)
{
	char path[EPI_PATHLEN + 64], val[32];
	snprintf(path, sizeof path, "%s/%s", p->dir, file);
	snprintf(val, sizeof val, "%lld", v);
	return epi_write_line(path, val, err);
}

static int offered(const epi_policy *p, long long khz)
{
	if (p->table) {
		for (int i = 0; i < p->nfreq; i++)
			if (p->freq[i] == khz)
				return 1;
		return 0;
	}
	return khz >= p->hw_min && khz <= p->hw_max;
}

int epi_freq_offered(const epi_policy *p, long long khz, char *err)
{
	if (offered(p, khz))
		return 0;
	char list[1024] = "", f[32];
	if (p->table) {
		for (int k = 0; k < p->nfreq; k++) {
			epi_freq_ghz(f, sizeof f, p->freq[k]);
			size_t n = strlen(list);
			snprintf(list + n, sizeof list - n, "%s%s", k ? ", " : "", f);
		}
	} else {
		char a[32], b[32];
		epi_freq_ghz(a, sizeof a, p->hw_min);
		epi_freq_ghz(b, sizeof b, p->hw_max);
		snprintf(list, sizeof list, "any from %s to %s", a, b);
	}
	epi_freq_ghz(f, sizeof f, khz);
	return epi_error(err, "CPU %d (policy%d, %s) does not offer %s; it offers: %s", p->cpus[0], p->id, p->driver, f,
			 list);
}

static int selected(const epi_policy *p, const int *cpus, int ncpus)
{
	if (ncpus == 0)
		return 1;
	for (int i = 0; i < p->ncpus; i++)
		for (int j = 0; j < ncpus; j++)
			if (p->cpus[i] == cpus[j])
				return 1;
	return 0;
}

/* Whether E[I] and E[I+1] are the scaling_min_freq and scaling_max_freq
 * of one policy; MX points at the max one. */
static int minmax_pair(plan_entry *e, int i, int n, plan_entry **mx)
{
	if (i + 1 >= n)
		return 0;
	size_t l = strlen(e[i].path);
	if (l < 16 || strlen(e[i + 1].path) != l || strncmp(e[i].path, e[i + 1].path, l - 16) != 0)
		return 0;
	const char *a = e[i].path + l - 16, *b = e[i + 1].path + l - 16;
	if (strcmp(a, "scaling_min_freq") == 0 && strcmp(b, "scaling_max_freq") == 0)
		*mx = &e[i + 1];
	else if (strcmp(a, "scaling_max_freq") == 0 && strcmp(b, "scaling_min_freq") == 0)
		*mx = &e[i];
	else
		return 0;
	return 1;
}

/* Orders the min/max pair at E[I] (max at MX) for a way back from a
 * policy whose min is now FROM_MIN: max first when the saved max is at
 * least that (going up), else min first, so that min <= max throughout. */
static void pair_order(plan_entry *e, int i, const plan_entry *mx, long long from_min)
{
	int max_first = atoll(mx->value) >= from_min;
	if ((mx == &e[i]) != max_first) {
		plan_entry t = e[i];
		e[i] = e[i + 1];
		e[i + 1] = t;
	}
}

/* Orders each saved min/max pair for the way back from min = max = KHZ.
 * Signals are held meanwhile, so that a handler never sees a pair half
 * swapped. */
static void plan_order(long long khz)
{
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	plan_entry *mx;
	for (int i = 0; i < nplan; i++)
		if (minmax_pair(plan, i, nplan, &mx))
			pair_order(plan, i++, mx, khz);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The writes of a pin, in the order that keeps min <= max. */
static int pin_writes(const epi_cpufreq *c, const int *cpus, int ncpus, long long khz, int noboost, char *err)
{
	if (noboost && c->boost_path[0] && epi_write_line(c->boost_path, c->boost_inverted ? "1" : "0", err) < 0)
		return -1;
	for (int i = 0; i < c->npol; i++) {
		const epi_policy *p = &c->pol[i];
		if (!selected(p, cpus, ncpus))
			continue;
		if (p->userspace) {
			char path[EPI_PATHLEN + 64];
			snprintf(path, sizeof path, "%s/scaling_governor", p->dir);
			if (epi_write_line(path, "userspace", err) < 0 || pol_write(p, "scaling_setspeed", khz, err) < 0)
				return -1;
		} else {
			/* keep min <= max: going up, max before min; going down, min before max */
			long long curmax = read_pol_ll(p, "scaling_max_freq");
			int up = khz > curmax;
			if (up ? pol_write(p, "scaling_max_freq", khz, err) < 0 || pol_write(p, "scaling_min_freq", khz, err) < 0
			       : pol_write(p, "scaling_min_freq", khz, err) < 0 || pol_write(p, "scaling_max_freq", khz, err) < 0)
				return -1;
		}
	}
	return 0;
}

int epi_freq_pin(const epi_cpufreq *c, const int *cpus, int ncpus, long long khz, int noboost, char *err)
{
	int any = 0;
	for (int i = 0; i < c->npol; i++) {
		const epi_policy *p = &c->pol[i];
		if (!selected(p, cpus, ncpus))
			continue;
		any = 1;
		if (epi_freq_offered(p, khz, err) < 0)
			return -1;
	}
	if (!any)
		return epi_error(err, "no frequency policy covers the CPUs asked for");
	if (epi_freq_state_path(state_file, sizeof state_file, err) < 0 || lock_take(err) < 0)
		return -1;
	if (nplan == 0 && epi_exists(state_file)) {
		lock_drop();
		return epi_error(err, "a previous run left CPU frequencies changed (state in '%s'): run "
				 "`epi freq --restore` first", state_file);
	}
	/* the plan: every value to be touched, in the order it goes back */
	int first = nplan == 0;
	if (first) {
		if (noboost && c->boost_path[0]) {
			char e2[EPI_ERRLEN], v[16];
			if (epi_read_line(c->boost_path, v, sizeof v, e2) == 0)
				plan_add(c->boost_path, v);
		}
		for (int i = 0; i < c->npol; i++) {
			const epi_policy *p = &c->pol[i];
			if (!selected(p, cpus, ncpus))
				continue;
			char path[EPI_PATHLEN + 64], v[32];
			if (p->userspace) {
				snprintf(path, sizeof path, "%s/scaling_governor", p->dir);
				plan_add(path, p->governor);
			} else {
				snprintf(path, sizeof path, "%s/scaling_max_freq", p->dir);
				snprintf(v, sizeof v, "%lld", p->max);
				plan_add(path, v);
				snprintf(path, sizeof path, "%s/scaling_min_freq", p->dir);
				snprintf(v, sizeof v, "%lld", p->min);
				plan_add(path, v);
			}
		}
		plan_order(khz);
		if (plan_save(err) < 0) {
			nplan = 0;
			lock_drop();
			return -1;
		}
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		signal(SIGHUP, on_signal);
		static int registered;
		if (!registered++)
			atexit(at_exit);
	}
	else
		plan_order(khz); /* a new frequency: the way back may change direction */
	if (pin_writes(c, cpus, ncpus, khz, noboost, err) < 0) {
		/* half done: put back what was written */
		plan_apply();
		return -1;
	}
	return 0;
}

long long epi_freq_obtained(const epi_cpufreq *c, int cpu)
{
	for (int i = 0; i < c->npol; i++)
		for (int k = 0; k < c->pol[i].ncpus; k++)
			if (c->pol[i].cpus[k] == cpu) {
				long long f = read_pol_ll(&c->pol[i], "scaling_cur_freq");
				return f > 0 ? f : 0;
			}
	return 0;
}

void epi_freq_keep(void)
{
	nplan = 0;
}

int epi_freq_restore(char *err)
{
	if (nplan) {
		/* this process changed them: the plan in memory is the truth */
		restoring = 1;
		plan_apply();
		restoring = 0;
		return 1;
	}
	if (state_path(state_file, sizeof state_file, 0, err) < 0)
		return -1;
	if (!epi_exists(state_file))
		return 0;
	/* what root replays: a file of this user's, in a folder of this
	 * user's, that no pinning process is writing now */
	char dir[EPI_PATHLEN];
	snprintf(dir, sizeof dir, "%s", state_file);
	*strrchr(dir, '/') = 0;
	if (owned(dir, 1, err) < 0 || owned(state_file, 0, err) < 0 || lock_take(err) < 0)
		return -1;
	int ret = replay(err);
	lock_drop();
	return ret;
}

/* Whether PATH is an attribute epi saves before it pins (a policy's
 * scaling_governor, scaling_min_freq or scaling_max_freq, cpufreq/boost,
 * intel_pstate/no_turbo, under the root's cpu folder) and VALUE one it
 * could have saved there: NULL, or what is wrong. */
static const char *not_saved(const char *path, const char *value)
{
	char cpu[EPI_PATHLEN];
	epi_syspath(cpu, "/sys/devices/system/cpu/");
	size_t n = strlen(cpu);
	if (strncmp(path, cpu, n) != 0 || strstr(path, "/../") || strstr(path, "/./"))
		return "path";
	const char *rest = path + n, *attr = NULL;
	unsigned id;
	int at = 0;
	if (strcmp(rest, "cpufreq/boost") == 0 || strcmp(rest, "intel_pstate/no_turbo") == 0)
		return strcmp(value, "0") == 0 || strcmp(value, "1") == 0 ? NULL : "value";
	if (sscanf(rest, "cpufreq/policy%u/%n", &id, &at) != 1 || at == 0 || !isdigit((unsigned char)rest[14]))
		return "path";
	attr = rest + at;
	size_t len = strlen(value);
	if (strcmp(attr, "scaling_governor") == 0)
		return len > 0 && len < 32 && strspn(value, "abcdefghijklmnopqrstuvwxyz0123456789_-") == len ? NULL
														: "value";
	if (strcmp(attr, "scaling_min_freq") == 0 || strcmp(attr, "scaling_max_freq") == 0)
		return len > 0 && len < 16 && strspn(value, "0123456789") == len ? NULL : "value";
	return "path";
}

/* Writes back what the state file holds, every entry checked first, and
 * removes it: 1, or -1 with ERR naming the line. */
static int replay(char *err)
{
	size_t len;
	char e2[EPI_ERRLEN];
	char *text = epi_read_file(state_file, &len, e2);
	if (!text)
		return epi_error(err, "%s", e2);
	plan_entry *ent = xcalloc(PLAN_MAX, sizeof *ent);
	int n = 0, lineno = 0, ret = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line && ret == 0; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (line[0] == '#')
			continue;
		char *tab = strchr(line, '\t');
		if (!tab || n == PLAN_MAX) {
			ret = epi_error(err, "'%s' line %d: not a state entry (path<TAB>value); nothing restored",
					state_file, lineno);
			break;
		}
		*tab = 0;
		const char *bad = not_saved(line, tab + 1);
		if (bad || strlen(line) >= sizeof ent[n].path) {
			ret = epi_error(err, "'%s' line %d: %s%s%s is not a CPU frequency setting epi saves (a policy's "
					"scaling_governor, scaling_min_freq, scaling_max_freq, cpufreq/boost, "
					"intel_pstate/no_turbo); nothing restored",
					state_file, lineno, bad && *bad == 'v' ? "the value of " : "'", line,
					bad && *bad == 'v' ? "" : "'");
			break;
		}
		snprintf(ent[n].path, sizeof ent[n].path, "%s", line);
		snprintf(ent[n].value, sizeof ent[n].value, "%s", tab + 1);
		n++;
	}
	free(text);
	for (int i = 0; i < n && ret == 0; i++) {
		/* a min/max pair: the order that keeps min <= max from what is there now */
		plan_entry *mx;
		if (minmax_pair(ent, i, n, &mx)) {
			long long curmin = 0;
			epi_read_i64(mx == &ent[i] ? ent[i + 1].path : ent[i].path, &curmin, e2);
			pair_order(ent, i, mx, curmin);
			if (epi_write_line(ent[i].path, ent[i].value, err) < 0 ||
			    epi_write_line(ent[i + 1].path, ent[i + 1].value, err) < 0)
				ret = -1;
			i++;
			continue;
		}
		if (epi_write_line(ent[i].path, ent[i].value, err) < 0)
			ret = -1;
	}
	free(ent);
	if (ret == 0 && unlink(state_file) < 0)
		return epi_error(err, "cannot remove '%s': %s", state_file, strerror(errno));
	return ret < 0 ? -1 : 1;
}

#if defined(__x86_64__) || defined(__aarch64__)
/* The fastest of five runs of dependent adds, in GHz, into *OUT */
static void clock_probe(void *out)
{
	const long iters = 200000; /* 100 dependent adds each: 2e7 cycles */
	double best = 0;
	for (int rep = 0; rep < 5; rep++) {
		struct timespec t0, t1;
		unsigned long x = 1, y = 3;
		clock_gettime(CLOCK_MONOTONIC_RAW, &t0);
		for (long i = 0; i < iters; i++) {
#if defined(__x86_64__)
#define A1 "add %1, %0\n\t"
#else
#define A1 "add %0, %0, %1\n\t"
#endif
#define A10 A1 A1 A1 A1 A1 A1 A1 A1 A1 A1
			__asm__ volatile(A10 A10 A10 A10 A10 A10 A10 A10 A10 A10 : "+r"(x) : "r"(y));
		}
		clock_gettime(CLOCK_MONOTONIC_RAW, &t1);
		double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		double ghz = (double)iters * 100 / s / 1e9;
		if (ghz > best)
			best = ghz;
	}
	*(double *)out = best;
}
#endif

double epi_effective_ghz(int cpu)
{
#if defined(__x86_64__) || defined(__aarch64__)
	double best = 0;
	epi_on_cpu(cpu, clock_probe, &best);
	return best;
#else
	(void)cpu;
	return NAN;
#endif
}
