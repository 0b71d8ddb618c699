/* fakehw: temporary sysroots and counters advancing at known powers. */
#define _GNU_SOURCE
#include "tests/fakehw.h"
#include "machine/sysroot.h"

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
	char keep[600];
	snprintf(keep, sizeof keep, "%s/.keep", rel);
	fake_put(keep, "");
	snprintf(d->mnt, sizeof d->mnt, "%s/%s", root, rel[0] == '/' ? rel + 1 : rel);
	snprintf(keep, sizeof keep, "%s/.keep", d->mnt);
	unlink(keep);
	char *argv[] = {"fakehw", NULL};
	struct fuse_args args = FUSE_ARGS_INIT(1, argv);
	d->f = fuse_new(&args, ops, sizeof *ops, NULL);
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
