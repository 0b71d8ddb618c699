/* slurm: a cluster's calibration as one Slurm job array (fleet.h). Slurm's
 * own commands (sinfo, scontrol, sbatch, scancel) do the work, run without a
 * shell; the array is submitted held, each task pinned to its node, then
 * released, so that every node gets exactly one task. */
#include "fleet/fleet.h"
#include "model/util.h"

#include <jansson.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *const epi_task_state_name[] = {"queued", "running", "done", "failed"};

int epi_slurm_run(const char *const *argv, char **out, char *err)
{
	int po[2], pe[2];
	if (pipe(po) < 0)
		return epi_error(err, "cannot make a pipe: %s", strerror(errno));
	if (pipe(pe) < 0) {
		close(po[0]);
		close(po[1]);
		return epi_error(err, "cannot make a pipe: %s", strerror(errno));
	}
	pid_t pid = fork();
	if (pid < 0)
		return epi_error(err, "cannot run %s: %s", argv[0], strerror(errno));
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		close(po[1]);
		close(pe[1]);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	size_t cap[2] = {4096, 1024}, len[2] = {0, 0};
	char *buf[2] = {xmalloc(cap[0]), xmalloc(cap[1])};
	struct pollfd pf[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
	int open_fds = 2;
	while (open_fds > 0) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int k = 0; k < 2; k++) {
			if (pf[k].fd < 0 || !(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (len[k] + 4096 > cap[k])
				buf[k] = xrealloc(buf[k], cap[k] = 2 * (len[k] + 4096));
			ssize_t r = read(pf[k].fd, buf[k] + len[k], cap[k] - len[k] - 1);
			if (r > 0) {
				len[k] += (size_t)r;
			} else if (r == 0 || errno != EINTR) {
				close(pf[k].fd);
				pf[k].fd = -1;
				open_fds--;
			}
		}
	}
	buf[0][len[0]] = buf[1][len[1]] = 0;
	int st = 0;
	waitpid(pid, &st, 0);
	int ret = 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && len[1] == 0)
		ret = epi_error(err, "%s: not found; epi fleet runs Slurm's commands (run it where sbatch works: a "
				 "cluster's login node)", argv[0]);
	else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		buf[1][strcspn(buf[1], "\n")] = 0;
		ret = epi_error(err, "%s %s failed: %s", argv[0], argv[1] ? argv[1] : "",
				buf[1][0] ? buf[1] : "no message");
	}
	free(buf[1]);
	if (ret < 0 || !out)
		free(buf[0]);
	else
		*out = buf[0];
	return ret;
}

/* The lines of TEXT as a NULL-terminated array of copies (blank lines out). */
static int lines(char *text, char ***v)
{
	int n = 0;
	*v = NULL;
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		while (*l == ' ')
			l++;
		if (!*l)
			continue;
		*v = xrealloc(*v, (size_t)(n + 2) * sizeof **v);
		(*v)[n++] = xstrdup(l);
		(*v)[n] = NULL;
	}
	return n;
}

int epi_slurm_nodes(const char *partition, const char *list, char ***nodes, char **skipped, char *err)
{
	char *out;
	*skipped = xstrdup("");
	if (list) {
		const char *argv[] = {"scontrol", "show", "hostnames", list, NULL};
		if (epi_slurm_run(argv, &out, err) < 0)
			return -1;
		int n = lines(out, nodes);
		free(out);
		if (n == 0)
			return epi_error(err, "--nodes '%s' names no node", list);
		return n;
	}
	const char *argv[] = {"sinfo", "-h", "-N", "-o", "%N %T", partition ? "-p" : NULL, partition, NULL};
	if (epi_slurm_run(argv, &out, err) < 0)
		return -1;
	char **rows;
	int nr = lines(out, &rows), n = 0;
	free(out);
	*nodes = xcalloc((size_t)nr + 1, sizeof **nodes);
	size_t sl = 0;
	for (int i = 0; i < nr; i++) {
		char name[256], state[64];
		if (sscanf(rows[i], "%255s %63s", name, state) == 2) {
			/* a node in two partitions is listed twice: the first counts */
			int seen = 0;
			for (int k = 0; k < i && !seen; k++)
				seen = !strncmp(rows[k], name, strlen(name)) && rows[k][strlen(name)] == ' ';
			int usable = strncmp(state, "down", 4) && strncmp(state, "drain", 5) && strncmp(state, "fail", 4) &&
				     strncmp(state, "maint", 5) && strncmp(state, "unknown", 7) && !strchr(state, '*');
			if (!seen && usable) {
				(*nodes)[n++] = xstrdup(name);
			} else if (!seen) {
				*skipped = xrealloc(*skipped, sl + strlen(name) + strlen(state) + 8);
				sl += (size_t)sprintf(*skipped + sl, "%s%s (%s)", sl ? ", " : "", name, state);
			}
		}
	}
	for (int i = 0; i < nr; i++)
		free(rows[i]);
	free(rows);
	if (n == 0) {
		char e[EPI_ERRLEN];
		snprintf(e, sizeof e, "no node can take a job in %s%s%s%s", partition ? "partition " : "the default partition",
			 partition ? partition : "", **skipped ? ": " : "", *skipped);
		free(*nodes);
		*nodes = NULL;
		return epi_error(err, "%s", e);
	}
	return n;
}

/* S as one shell word. */
static void quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

static const char *const job_file[] = {"job", "identify-job"};

/* Where task I's result goes. */
static void result_path(const epi_fleet_job *j, int i, char *out, size_t n)
{
	if (j->kind == EPI_FLEET_IDENTIFY)
		snprintf(out, n, "%s/.fleet/identify/%s.json", j->dir, j->node[i]);
	else
		snprintf(out, n, "%s/%s.xml", j->dir, j->node[i]);
}

static int job_save(const epi_fleet_job *j, char *err)
{
	char path[4200], *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	fprintf(m, "# epi fleet job: the array and each task's node\njob %ld\nsubmitted %ld\n", j->job, j->submitted);
	for (int i = 0; i < j->n; i++)
		fprintf(m, "task %d %s\n", i, j->node[i]);
	fclose(m);
	snprintf(path, sizeof path, "%s/.fleet/%s", j->dir, job_file[j->kind]);
	int r = epi_write_atomic(path, buf, len, err);
	free(buf);
	return r;
}

int epi_fleet_submit(epi_fleet_job *j, enum epi_fleet_kind kind, const char *dir, const char *epi, char *const *nodes,
		     int n, const char *partition, const char *time_limit, char *const *calib, int ncalib, char *err)
{
	memset(j, 0, sizeof *j);
	j->kind = kind;
	if (!realpath(dir, j->dir))
		return epi_error(err, "cannot use the table folder '%s': %s", dir, strerror(errno));
	char fleet[4200], script[4300], out[4400], errf[4400], array[64];
	snprintf(fleet, sizeof fleet, "%s/.fleet", j->dir);
	if (mkdir(fleet, 0755) < 0 && errno != EEXIST)
		return epi_error(err, "cannot create '%s': %s", fleet, strerror(errno));
	/* the task: this node's calibration, its table written atomically; or
	 * what the node is */
	snprintf(script, sizeof script, "%s/%s.sh", fleet, kind == EPI_FLEET_IDENTIFY ? "identify" : "task");
	char *text = NULL;
	size_t tl = 0;
	FILE *m = open_memstream(&text, &tl);
	if (kind == EPI_FLEET_IDENTIFY) {
		char id[4300];
		snprintf(id, sizeof id, "%s/identify", fleet);
		if (mkdir(id, 0755) < 0 && errno != EEXIST) {
			fclose(m);
			free(text);
			return epi_error(err, "cannot create '%s': %s", id, strerror(errno));
		}
		fprintf(m, "#!/bin/sh\n# epi fleet: what this node is, for --per-model\nf=");
		quote(m, id);
		fputs("/\"$SLURMD_NODENAME\".json\n", m);
		quote(m, epi);
		fputs(" probe --format json >\"$f.tmp\" && mv \"$f.tmp\" \"$f\"\n", m);
	} else {
		fprintf(m, "#!/bin/sh\n# epi fleet: one node's calibration, its table %s/NODE.xml\nexec ", j->dir);
		quote(m, epi);
		fputs(" calibrate -q -o ", m);
		quote(m, j->dir);
		fputs("/\"$SLURMD_NODENAME\".xml", m);
		for (int i = 0; i < ncalib; i++) {
			fputc(' ', m);
			quote(m, calib[i]);
		}
		fputc('\n', m);
	}
	fclose(m);
	int r = epi_write_atomic(script, text, tl, err);
	free(text);
	if (r < 0 || chmod(script, 0755) < 0)
		return r < 0 ? -1 : epi_error(err, "cannot make '%s' executable: %s", script, strerror(errno));
	snprintf(out, sizeof out, "--output=%s/%%A_%%a.out", fleet);
	snprintf(errf, sizeof errf, "--error=%s/%%A_%%a.err", fleet);
	snprintf(array, sizeof array, "--array=0-%d", n - 1);
	char part[300] = "", tim[100] = "";
	if (partition)
		snprintf(part, sizeof part, "--partition=%s", partition);
	if (time_limit)
		snprintf(tim, sizeof tim, "--time=%s", time_limit);
	const char *argv[16] = {"sbatch", "--parsable", "--hold", "--exclusive", "--job-name=epi-fleet", array, out, errf};
	int a = 8;
	if (partition)
		argv[a++] = part;
	if (time_limit)
		argv[a++] = tim;
	argv[a++] = script;
	argv[a] = NULL;
	char *jid;
	if (epi_slurm_run(argv, &jid, err) < 0)
		return -1;
	j->job = strtol(jid, NULL, 10);
	free(jid);
	if (j->job <= 0)
		return epi_error(err, "sbatch gave no job id");
	j->submitted = (long)time(NULL);
	j->n = n;
	j->node = xcalloc((size_t)n, sizeof *j->node);
	for (int i = 0; i < n; i++)
		j->node[i] = xstrdup(nodes[i]);
	/* each task on its node, then the array let go */
	for (int i = 0; i < n; i++) {
		char id[64], req[300];
		snprintf(id, sizeof id, "JobId=%ld_%d", j->job, i);
		snprintf(req, sizeof req, "ReqNodeList=%s", nodes[i]);
		const char *up[] = {"scontrol", "update", id, req, NULL};
		if (epi_slurm_run(up, NULL, err) < 0) {
			char jid2[32], e2[EPI_ERRLEN];
			snprintf(jid2, sizeof jid2, "%ld", j->job);
			const char *cancel[] = {"scancel", jid2, NULL};
			epi_slurm_run(cancel, NULL, e2);
			return -1;
		}
	}
	if (job_save(j, err) < 0)
		return -1;
	char jid3[32];
	snprintf(jid3, sizeof jid3, "%ld", j->job);
	const char *rel[] = {"scontrol", "release", jid3, NULL};
	return epi_slurm_run(rel, NULL, err);
}

int epi_fleet_job_load(epi_fleet_job *j, enum epi_fleet_kind kind, const char *dir, char *err)
{
	memset(j, 0, sizeof *j);
	j->kind = kind;
	char path[4200];
	snprintf(path, sizeof path, "%s/.fleet/%s", dir, job_file[kind]);
	FILE *f = fopen(path, "r");
	if (!f || !realpath(dir, j->dir)) {
		int e = errno;
		if (f)
			fclose(f);
		return epi_error(err, "no fleet job in '%s' (%s): `epi fleet calibrate -d %s` submits one", dir,
				 strerror(e), dir);
	}
	char line[600];
	int lineno = 0, ret = 0;
	while (fgets(line, sizeof line, f) && ret == 0) {
		lineno++;
		char name[256];
		int idx;
		if (line[0] == '#')
			continue;
		if (sscanf(line, "job %ld", &j->job) == 1 || sscanf(line, "submitted %ld", &j->submitted) == 1)
			continue;
		if (sscanf(line, "task %d %255s", &idx, name) == 2 && idx == j->n && idx < 1000000) {
			j->node = xrealloc(j->node, (size_t)(j->n + 1) * sizeof *j->node);
			j->node[j->n++] = xstrdup(name);
			continue;
		}
		ret = epi_error(err, "'%s' line %d: not a fleet job line", path, lineno);
	}
	fclose(f);
	if (ret == 0 && (j->job <= 0 || j->n == 0))
		ret = epi_error(err, "'%s': no job id or no task", path);
	if (ret < 0)
		epi_fleet_job_free(j);
	return ret;
}

void epi_fleet_job_free(epi_fleet_job *j)
{
	for (int i = 0; i < j->n; i++)
		free(j->node[i]);
	free(j->node);
	j->node = NULL;
	j->n = 0;
}

/* KEY's value in a `scontrol -o show job` line, into OUT. */
static int field(const char *line, const char *key, char *out, size_t n)
{
	size_t kl = strlen(key);
	for (const char *p = line; (p = strstr(p, key)); p += kl)
		if ((p == line || p[-1] == ' ') && p[kl] == '=') {
			p += kl + 1;
			size_t l = strcspn(p, " \n");
			snprintf(out, n, "%.*s", (int)(l < n ? l : n - 1), p);
			return 1;
		}
	out[0] = 0;
	return 0;
}

/* The last line of the task's standard error, into OUT. */
static void last_error(const epi_fleet_job *j, int i, char *out, size_t n)
{
	char path[4300], *line = NULL;
	size_t cap = 0;
	out[0] = 0;
	snprintf(path, sizeof path, "%s/.fleet/%ld_%d.err", j->dir, j->job, i);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0)
		if (line[0] != '\n')
			snprintf(out, n, "%.*s", (int)strcspn(line, "\n"), line);
	free(line);
	fclose(f);
}

/* Task I of J failed: WHAT, and the last line it wrote to standard error. */
static void failed(epi_fleet_task *t, const epi_fleet_job *j, int i, const char *what)
{
	char last[400];
	last_error(j, i, last, sizeof last);
	t->state = EPI_TASK_FAILED;
	snprintf(t->detail, sizeof t->detail, "%s%s%s", what, last[0] ? ": " : "", last);
}

int epi_fleet_poll(const epi_fleet_job *j, epi_fleet_task *t, char *err)
{
	char jid[32], *out = NULL;
	snprintf(jid, sizeof jid, "%ld", j->job);
	const char *argv[] = {"scontrol", "-o", "show", "job", jid, NULL};
	char e2[EPI_ERRLEN];
	if (epi_slurm_run(argv, &out, e2) < 0) {
		/* a job Slurm has forgotten: its tables say what became of it */
		if (!strstr(e2, "Invalid job id"))
			return epi_error(err, "%s", e2);
		out = xstrdup("");
	}
	char **rows;
	int nr = lines(out, &rows);
	free(out);
	/* each task's record, by its index (one pass: 1,000 tasks poll in one) */
	const char **by_task = xcalloc((size_t)j->n, sizeof *by_task);
	for (int k = 0; k < nr; k++) {
		char v[64], *end;
		if (!field(rows[k], "ArrayTaskId", v, sizeof v))
			continue;
		long idx = strtol(v, &end, 10);
		if (end != v && *end == 0 && idx >= 0 && idx < j->n)
			by_task[idx] = rows[k];
	}
	for (int i = 0; i < j->n; i++) {
		t[i].node = j->node[i];
		t[i].detail[0] = 0;
		const char *row = by_task[i];
		char table[4400];
		result_path(j, i, table, sizeof table);
		struct stat st;
		int have = stat(table, &st) == 0 && st.st_mtime >= j->submitted - 1;
		char state[64] = "", reason[128] = "", code[32] = "", node[256] = "";
		if (row) {
			field(row, "JobState", state, sizeof state);
			field(row, "Reason", reason, sizeof reason);
			field(row, "ExitCode", code, sizeof code);
			field(row, "NodeList", node, sizeof node);
		}
		if (!row || !strcmp(state, "COMPLETED")) {
			if (have && (!row || !strcmp(code, "0:0"))) {
				t[i].state = EPI_TASK_DONE;
				snprintf(t[i].detail, sizeof t[i].detail, "%s", table);
			} else {
				failed(&t[i], j, i, row ? "ended without its result" : "no record left and no result");
			}
		} else if (!strcmp(state, "PENDING") || !strcmp(state, "CONFIGURING") || !strcmp(state, "REQUEUED") ||
			   !strcmp(state, "REQUEUE_HOLD") || !strcmp(state, "RESIZING")) {
			t[i].state = EPI_TASK_QUEUED;
			snprintf(t[i].detail, sizeof t[i].detail, "%s", reason);
		} else if (!strcmp(state, "RUNNING") || !strcmp(state, "COMPLETING") || !strcmp(state, "SUSPENDED") ||
			   !strcmp(state, "STAGE_OUT")) {
			t[i].state = EPI_TASK_RUNNING;
			snprintf(t[i].detail, sizeof t[i].detail, "on %s", node);
		} else {
			/* FAILED, CANCELLED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, PREEMPTED, DEADLINE */
			char what[400];
			for (char *c = state; *c; c++)
				*c = (char)(*c == '_' ? ' ' : *c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
			snprintf(what, sizeof what, "%s (exit %s%s%s)", state, code, strcmp(reason, "None") && reason[0] ? ", " : "",
				 strcmp(reason, "None") ? reason : "");
			failed(&t[i], j, i, what);
		}
	}
	free(by_task);
	for (int k = 0; k < nr; k++)
		free(rows[k]);
	free(rows);
	return 0;
}

int epi_fleet_per_model(const char *dir, char *const *nodes, int n, char ***chosen, char **why, char **left)
{
	char **key = xcalloc((size_t)n, sizeof *key);
	int *group = xmalloc((size_t)n * sizeof *group), nc = 0;
	*chosen = xcalloc((size_t)n + 1, sizeof **chosen);
	char *w = NULL, *l = NULL;
	size_t wl = 0, ll = 0;
	FILE *fw = open_memstream(&w, &wl), *fl = open_memstream(&l, &ll);
	for (int i = 0; i < n; i++) {
		char path[4400];
		snprintf(path, sizeof path, "%s/.fleet/identify/%s.json", dir, nodes[i]);
		json_error_t je;
		json_t *doc = json_load_file(path, 0, &je);
		const char *model = json_string_value(json_object_get(json_object_get(doc, "cpu"), "model_name"));
		const char *mc = json_string_value(json_object_get(json_object_get(doc, "cpu"), "microcode"));
		group[i] = -1;
		if (!model) {
			fprintf(fl, "%s%s", ftell(fl) > 0 ? ", " : "", nodes[i]);
			json_decref(doc);
			continue;
		}
		size_t kl = strlen(model) + (mc ? strlen(mc) : 4) + 16;
		key[i] = xmalloc(kl);
		snprintf(key[i], kl, "%s, microcode %s", model, mc ? mc : "unknown");
		json_decref(doc);
		for (int k = 0; k < i && group[i] < 0; k++)
			if (key[k] && !strcmp(key[k], key[i]))
				group[i] = group[k];
		if (group[i] < 0) {
			group[i] = nc;
			(*chosen)[nc++] = xstrdup(nodes[i]);
		}
	}
	for (int g = 0; g < nc; g++) {
		int first = -1;
		for (int i = 0; i < n; i++)
			if (group[i] == g) {
				if (first < 0) {
					first = i;
					fprintf(fw, "%s: %s for ", key[i], nodes[i]);
				} else {
					fputs(", ", fw);
				}
				fputs(nodes[i], fw);
			}
		fputc('\n', fw);
	}
	fclose(fw);
	fclose(fl);
	*why = w;
	*left = l;
	for (int i = 0; i < n; i++)
		free(key[i]);
	free(key);
	free(group);
	return nc;
}
