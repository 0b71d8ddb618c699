/* fakehw: temporary sysroots and counters advancing at known powers. */
#define _GNU_SOURCE
#include "tests/fakehw.h"
#include "machine/sysroot.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

const char *fake_root(void)
{
	snprintf(root, sizeof root, "/tmp/epi-sysroot-XXXXXX");
	if (!mkdtemp(root))
		abort();
	setenv("EPI_SYSROOT", root, 1);
	return root;
}

void fake_root_use(const char *dir)
{
	snprintf(root, sizeof root, "%s", dir);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p);
}

void fake_root_free(void)
{
	if (root[0])
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	root[0] = 0;
	unsetenv("EPI_SYSROOT");
}

void fake_put(const char *rel, const char *content)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", root, rel[0] == '/' ? rel + 1 : rel);
	for (char *s = path + strlen(root) + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(path, 0755);
			*s = '/';
		}
	char tmp[1100];
	snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)gettid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		abort();
	fputs(content, f);
	fclose(f);
	rename(tmp, path);
}

void fake_cpu(const char *vendor, int family, int model)
{
	char buf[1024];
	snprintf(buf, sizeof buf,
		 "processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\nmodel name\t: Fake CPU\nmicrocode\t: 0x1\n\n"
		 "processor\t: 1\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\nmodel name\t: Fake CPU\n\n",
		 vendor, family, model, vendor, family, model);
	fake_put("/proc/cpuinfo", buf);
	fake_put("/sys/devices/system/cpu/online", "0-1\n");
	fake_put("/sys/devices/system/cpu/cpu0/topology/physical_package_id", "0\n");
	fake_put("/sys/devices/system/cpu/cpu1/topology/physical_package_id", "0\n");
}

uint64_t fake_counter_at(const fake_power *fp, const fake_counter *c, double t)
{
	double counts = c->watts * (t - fp->t0) * c->scale;
	uint64_t v = c->start + (uint64_t)counts;
	return c->modulo ? v % c->modulo : v;
}

static void tick_locked(fake_power *fp)
{
	double now = epi_now();
	for (int i = 0; i < fp->n; i++) {
		fake_counter *c = &fp->c[i];
		if (!c->rel[0])
			continue;
		char v[32];
		snprintf(v, sizeof v, "%llu\n", (unsigned long long)fake_counter_at(fp, c, now));
		fake_put(c->rel, v);
	}
	/* a writer the scheduler left waiting leaves the files stale for that
	 * long: the tolerance a reader of the files must allow */
	if (fp->t_written > 0 && now - fp->t_written > fp->maxgap) {
		fp->maxgap = now - fp->t_written;
		if (fp->gapfile) {
			char g[32];
			snprintf(g, sizeof g, "%.6f\n", fp->maxgap);
			fake_put(fp->gapfile, g);
		}
	}
	fp->t_written = now;
}

void fake_power_tick(fake_power *fp)
{
	pthread_mutex_lock(&fp->lock);
	tick_locked(fp);
	pthread_mutex_unlock(&fp->lock);
}

double fake_power_read(fake_power *fp, void (*read)(void *), void *arg)
{
	pthread_mutex_lock(&fp->lock);
	tick_locked(fp);
	read(arg);
	double t = fp->t_written;
	pthread_mutex_unlock(&fp->lock);
	return t;
}

static void *advance(void *arg)
{
	fake_power *fp = arg;
	while (!fp->stop) {
		fake_power_tick(fp);
		usleep(200);
	}
	return NULL;
}

void fake_power_start(fake_power *fp)
{
	fp->t0 = epi_now();
	fp->stop = 0;
	pthread_mutex_init(&fp->lock, NULL);
	fake_power_tick(fp);
	pthread_create(&fp->th, NULL, advance, fp);
}

void fake_power_stop(fake_power *fp)
{
	fp->stop = 1;
	pthread_join(fp->th, NULL);
	pthread_mutex_destroy(&fp->lock);
}

static void *fuse_thread(void *arg)
{
	fuse_loop(((fake_fuse *)arg)->f);
	return NULL;
}

int fake_fuse_mount(fake_fuse *d, const char *rel, const struct fuse_operations *ops)
{
	return fake_fuse_mount_data(d, rel, ops, NULL);
}

int fake_fuse_mount_data(fake_fuse *d, const char *rel, const struct fuse_operations *ops, void *data)
{
	char keep[600];
	snprintf(keep, sizeof keep, "%s/.keep", rel);
	fake_put(keep, "");
	snprintf(d->mnt, sizeof d->mnt, "%s/%s", root, rel[0] == '/' ? rel + 1 : rel);
	snprintf(keep, sizeof keep, "%s/.keep", d->mnt);
	unlink(keep);
	char *argv[] = {"fakehw", NULL};
	struct fuse_args args = FUSE_ARGS_INIT(1, argv);
	d->f = fuse_new(&args, ops, sizeof *ops, data);
	fuse_opt_free_args(&args);
	if (!d->f)
		return -1;
	if (fuse_mount(d->f, d->mnt) != 0) {
		fuse_destroy(d->f);
		return -1;
	}
	pthread_create(&d->th, NULL, fuse_thread, d);
	return 0;
}

void fake_fuse_unmount(fake_fuse *d)
{
	fuse_exit(d->f);
	fuse_unmount(d->f);
	pthread_join(d->th, NULL);
	fuse_destroy(d->f);
}

void fake_zone(fake_power *fp, const char *dir, const char *name, double watts, uint64_t range_uj, double max_w)
{
	char rel[256], v[64];
	snprintf(rel, sizeof rel, "/sys/class/powercap/%s/name", dir);
	snprintf(v, sizeof v, "%s\n", name);
	fake_put(rel, v);
	snprintf(rel, sizeof rel, "/sys/class/powercap/%s/max_energy_range_uj", dir);
	snprintf(v, sizeof v, "%llu\n", (unsigned long long)range_uj);
	fake_put(rel, v);
	if (max_w > 0) {
		snprintf(rel, sizeof rel, "/sys/class/powercap/%s/constraint_0_max_power_uw", dir);
		snprintf(v, sizeof v, "%llu\n", (unsigned long long)(max_w * 1e6));
		fake_put(rel, v);
	}
	fake_counter *c = &fp->c[fp->n++];
	snprintf(c->rel, sizeof c->rel, "/sys/class/powercap/%s/energy_uj", dir);
	c->watts = watts;
	c->scale = 1e6;
	c->modulo = range_uj + 1;
	c->start = range_uj / 2;
}

void fake_policy(int id, const char *file, const char *v)
{
	char rel[256], val[256];
	snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpufreq/policy%d/%s", id, file);
	snprintf(val, sizeof val, "%s\n", v);
	fake_put(rel, val);
}

void fake_acpi_tree(void)
{
	for (int i = 0; i < 2; i++) {
		char c[8];
		snprintf(c, sizeof c, "%d", i);
		fake_policy(i, "affected_cpus", c);
		fake_policy(i, "scaling_driver", "acpi-cpufreq");
		fake_policy(i, "scaling_governor", "schedutil");
		fake_policy(i, "scaling_available_governors", "conservative ondemand userspace powersave performance schedutil");
		fake_policy(i, "scaling_available_frequencies", "2400000 2133000 1800000 1600000");
		fake_policy(i, "cpuinfo_min_freq", "1600000");
		fake_policy(i, "cpuinfo_max_freq", "2400000");
		fake_policy(i, "scaling_min_freq", "1600000");
		fake_policy(i, "scaling_max_freq", "2400000");
		fake_policy(i, "scaling_cur_freq", "2400000");
		fake_policy(i, "scaling_setspeed", "<unsupported>");
	}
	fake_put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
}


/* ---- small text files computed when read (FUSE) ---------------------------- */

static const fake_textfs *textfs(void)
{
	return fuse_get_context()->private_data;
}

static int t_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	memset(st, 0, sizeof *st);
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	char b[256];
	if (textfs()->text(path, b, sizeof b) == -ENOENT)
		return -ENOENT;
	st->st_mode = S_IFREG | (textfs()->write ? 0644 : 0444);
	st->st_nlink = 1;
	st->st_size = 4096;
	return 0;
}

static int t_open(const char *path, struct fuse_file_info *fi)
{
	fi->direct_io = 1; /* every read reaches text() */
	char b[256];
	return textfs()->text(path, b, sizeof b) == -ENOENT ? -ENOENT : 0;
}

static int t_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	char b[256];
	int n = textfs()->text(path, b, sizeof b);
	if (n < 0)
		return n;
	if (off >= n)
		return 0;
	size_t k = (size_t)(n - off) < size ? (size_t)(n - off) : size;
	memcpy(buf, b + off, k);
	return (int)k;
}

static int t_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	if (!textfs()->write)
		return -EACCES;
	char v[256];
	snprintf(v, sizeof v, "%.*s", (int)(size < sizeof v - 1 ? size : sizeof v - 1), buf);
	int r = textfs()->write(path, v);
	return r < 0 ? r : (int)size;
}

static int t_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	return 0;
}

static const struct fuse_operations text_ops = {
	.getattr = t_getattr, .open = t_open, .read = t_read, .write = t_write, .truncate = t_truncate};

int fake_textfs_mount(fake_fuse *d, const char *rel, const fake_textfs *fs)
{
	return fake_fuse_mount_data(d, rel, &text_ops, (void *)fs);
}

/* ---- a powercap zone computed at read time (FUSE) ------------------------- */

volatile int fake_zone_gone;
double (*fake_zone_energy)(double now);
static struct {
	char name[64];
	double watts, t0;
	uint64_t range;
} fz;

static int fz_text(const char *path, char *out, size_t n)
{
	if (strcmp(path, "/name") == 0)
		return snprintf(out, n, "%s\n", fz.name);
	if (strcmp(path, "/max_energy_range_uj") == 0)
		return snprintf(out, n, "%llu\n", (unsigned long long)fz.range);
	if (strcmp(path, "/energy_uj") == 0) {
		if (fake_zone_gone)
			return -EIO;
		double j = fake_zone_energy ? fake_zone_energy(epi_now()) : fz.watts * (epi_now() - fz.t0);
		uint64_t v = (fz.range / 2 + (uint64_t)(j * 1e6)) % (fz.range + 1);
		return snprintf(out, n, "%llu\n", (unsigned long long)v);
	}
	return -ENOENT;
}

int fake_fuse_zone(fake_fuse *d, const char *dir, const char *name, double watts, uint64_t range_uj)
{
	snprintf(fz.name, sizeof fz.name, "%s", name);
	fz.watts = watts;
	fz.range = range_uj;
	fz.t0 = epi_now();
	fake_zone_gone = 0;
	char rel[256];
	snprintf(rel, sizeof rel, "/sys/class/powercap/%s", dir);
	static const fake_textfs fs = {.text = fz_text};
	return fake_textfs_mount(d, rel, &fs);
}
