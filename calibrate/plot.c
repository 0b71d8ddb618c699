/* plot: a cost table through gnuplot (see plot.h). */
#define _GNU_SOURCE
#include "calibrate/plot.h"
#include "model/freq.h"
#include "model/util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every operation measured at some frequency (class entries left out), in
 * the table's order. */
static int op_names(const epi_table *t, const char **names, int max)
{
	int n = 0;
	for (int i = 0; i < t->nf; i++)
		for (int j = 0; j < t->f[i].n; j++) {
			const epi_cost *e = &t->f[i].op[j];
			if (e->kernel)
				continue;
			int seen = 0;
			for (int k = 0; k < n; k++)
				seen |= strcmp(names[k], e->key) == 0;
			if (!seen && n < max)
				names[n++] = e->key;
		}
	return n;
}

/* Runs gnuplot on SCRIPT (its data inline, as $name << EOD blocks) with an
 * SVG terminal of W x H, and writes the SVG to SVG atomically. */
int epi_gnuplot(const char *script, int w, int h, const char *svg, char *err)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512];
	snprintf(dir, sizeof dir, "%s/epi-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return epi_error(err, "cannot create a temporary folder in '%s': %s", tmp && *tmp ? tmp : "/tmp",
				 strerror(errno));
	char out[600], gerr[600];
	snprintf(out, sizeof out, "%s/plot.svg", dir);
	snprintf(gerr, sizeof gerr, "%s/gnuplot.err", dir);
	int in[2];
	if (pipe(in) < 0) {
		rmdir(dir);
		return epi_error(err, "cannot make a pipe: %s", strerror(errno));
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		close(in[0]);
		close(in[1]);
		int null = open("/dev/null", O_WRONLY), e = open(gerr, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (null >= 0)
			dup2(null, 1);
		if (e >= 0)
			dup2(e, 2);
		execlp("gnuplot", "gnuplot", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	FILE *g = fdopen(in[1], "w");
	fprintf(g, "set terminal svg size %d,%d dynamic font 'sans,11'\nset output '%s'\nset termoption noenhanced\n%s", w,
		h, out, script);
	fclose(g);
	int st = 0;
	waitpid(pid, &st, 0);
	int ret = 0;
	if (!WIFEXITED(st) || WEXITSTATUS(st) == 127)
		ret = epi_error(err, "cannot run gnuplot: install it (Debian: apt-get install gnuplot-nox) to plot");
	else if (WEXITSTATUS(st) != 0) {
		char first[200] = "";
		FILE *ef = fopen(gerr, "r");
		if (ef) {
			if (fgets(first, sizeof first, ef))
				first[strcspn(first, "\n")] = 0;
			fclose(ef);
		}
		ret = epi_error(err, "gnuplot failed drawing '%s': %s", svg, first);
	}
	if (ret == 0) {
		size_t len;
		char *buf = epi_read_file(out, &len, err);
		if (!buf)
			ret = -1;
		else {
			ret = epi_write_atomic(svg, buf, len, err);
			free(buf);
		}
	}
	unlink(out);
	unlink(gerr);
	rmdir(dir);
	return ret;
}

int epi_table_plot(const epi_table *t, const char *svg, char *err)
{
	if (t->nf == 0)
		return epi_error(err, "cost table '%s' has no frequency to plot", t->path ? t->path : "?");
	int energy = 0;
	for (int i = 0; i < t->nf; i++)
		for (int j = 0; j < t->f[i].n; j++)
			energy |= !isnan(t->f[i].op[j].e);
	const char *names[256];
	int n = op_names(t, names, 256);
	char *script = NULL;
	size_t slen = 0;
	FILE *f = open_memstream(&script, &slen);
	fprintf(f, "$table << EOD\nop");
	for (int i = 0; i < t->nf; i++) {
		char g[32];
		epi_freq_fmt(g, sizeof g, t->f[i].khz);
		fprintf(f, " \"%s GHz\"", g);
	}
	fputc('\n', f);
	for (int k = 0; k < n; k++) {
		fprintf(f, "%s", names[k]);
		for (int i = 0; i < t->nf; i++) {
			const epi_cost *e = NULL;
			for (int j = 0; j < t->f[i].n; j++)
				if (strcmp(t->f[i].op[j].key, names[k]) == 0)
					e = &t->f[i].op[j];
			double v = e ? (energy ? e->e : e->t) * 1e9 : NAN;
			if (isnan(v) || v <= 0)
				fprintf(f, " ?");
			else
				fprintf(f, " %.6g", v);
		}
		fputc('\n', f);
	}
	fprintf(f,
		"EOD\n"
		"set datafile missing '?'\n"
		"set style data histogram\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\n"
		"set logscale y\n"
		"set grid ytics\n"
		"set xtics rotate by -45 scale 0\n"
		"set key top left\n"
		"set ylabel '%s'\n"
		"set title \"%s per operation, %s (meter %s)\"\n"
		"plot for [i=2:%d] $table using i:xtic(1) title columnheader(i)\n",
		energy ? "nJ per unit (MiB for memcpy, malloc)" : "ns per unit (MiB for memcpy, malloc)",
		energy ? "energy" : "time (no energy meter)", t->cpu ? t->cpu : "?", t->meter ? t->meter : "?", t->nf + 1);
	fclose(f);
	int ret = epi_gnuplot(script, 1280, 640, svg, err);
	free(script);
	return ret;
}
