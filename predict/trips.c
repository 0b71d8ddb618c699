/* trips: loop trip counts measured from coverage (see trips.h). */
#define _GNU_SOURCE
#include "predict/trips.h"
#include "predict/cursor.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <gsl/gsl_multifit.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/util.h"
#include "predict/sym.h"

#define REBUILD "gcc --coverage -g (at -O0), or clang -fprofile-instr-generate -fcoverage-mapping -g"

/* ---- the program and its coverage ------------------------------------- */

char *epi_trips_which(const char *argv0, char *err)
{
	if (strchr(argv0, '/')) {
		if (access(argv0, X_OK) < 0) {
			epi_error(err, "cannot run '%s': %s", argv0, strerror(errno));
			return NULL;
		}
		return xstrdup(argv0);
	}
	const char *path = getenv("PATH");
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		char buf[PATH_MAX];
		snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? p : ".", argv0);
		struct stat st;
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
			return xstrdup(buf);
		p += n + (p[n] == ':');
	}
	epi_error(err, "cannot run '%s': not found in PATH", argv0);
	return NULL;
}

int epi_cov_detect(const char *exe, enum epi_cov *cov, char *err)
{
	*cov = EPI_COV_NONE;
	int fd = open(exe, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return epi_error(err, "cannot open '%s': %s", exe, strerror(errno));
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(fd);
		return epi_error(err, "'%s' is not an ELF program: give the program built with " REBUILD, exe);
	}
	int gcc = 0, prof = 0, covmap = 0;
	size_t shstr;
	if (elf_getshdrstrndx(e, &shstr) < 0)
		shstr = 0;
	for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh))
			continue;
		const char *name = elf_strptr(e, shstr, sh.sh_name);
		if (name && strcmp(name, "__llvm_covmap") == 0)
			covmap = 1;
		if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; d && i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			const char *sn = elf_strptr(e, sh.sh_link, sym.st_name);
			if (!sn)
				continue;
			gcc |= strcmp(sn, "__gcov_init") == 0 || strcmp(sn, "__gcov_exit") == 0;
			prof |= strcmp(sn, "__llvm_profile_runtime") == 0 || strcmp(sn, "__llvm_profile_write_file") == 0;
		}
	}
	elf_end(e);
	close(fd);
	if (prof && !covmap)
		return epi_error(err, "'%s' was built with -fprofile-instr-generate but without -fcoverage-mapping: "
				 "rebuild it with clang -fprofile-instr-generate -fcoverage-mapping -g", exe);
	if (prof)
		*cov = EPI_COV_CLANG;
	else if (gcc)
		*cov = EPI_COV_GCC;
	else
		return epi_error(err, "'%s' was built without coverage: rebuild it with " REBUILD, exe);
	return 0;
}

int epi_cov_check_O0(const char *exe, char *err)
{
	int fd = open(exe, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return epi_error(err, "cannot open '%s': %s", exe, strerror(errno));
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	int ret = 1;
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0 && ret >= 0) {
		Dwarf_Die cu;
		Dwarf_Attribute at;
		const char *prod = dwarf_offdie(dw, off + hsize, &cu) ? dwarf_formstring(dwarf_attr(&cu, DW_AT_producer, &at))
								      : NULL;
		off = next;
		/* only the units compiled with coverage: not the runtime's own */
		if (!prod || !strstr(prod, "-ftest-coverage"))
			continue;
		ret = 0;
		const char *level = "0";
		for (const char *p = strstr(prod, " -O"); p; p = strstr(p + 1, " -O"))
			level = p + 3;
		if (*level != '0') {
			const char *name = dwarf_diename(&cu);
			ret = epi_error(err, "'%s' was compiled with -O%.*s (%s): gcov's line counts tell a loop's entries "
					"from its iterations only at -O0; rebuild it with gcc --coverage -g -O0, or use clang",
					exe, (int)strcspn(level, " "), level, name ? name : "a unit");
		}
	}
	if (dw)
		dwarf_end(dw);
	close(fd);
	return ret;
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	remove(p);
	return 0;
}

static void rm_tree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Files under a folder whose names end in a suffix (for nftw, which takes no argument). */
static struct {
	const char *suffix;
	char **v;
	int n;
} found;

static int find_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	size_t n = strlen(p), k = strlen(found.suffix);
	if (flag == FTW_F && n > k && strcmp(p + n - k, found.suffix) == 0) {
		found.v = xrealloc(found.v, (size_t)(found.n + 1) * sizeof *found.v);
		found.v[found.n++] = xstrdup(p);
	}
	return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The files under DIR ending in SUFFIX, sorted, into *V (malloc'd); their number. */
static int find_files(const char *dir, const char *suffix, char ***v)
{
	found.suffix = suffix;
	found.v = NULL;
	found.n = 0;
	nftw(dir, find_entry, 16, FTW_PHYS);
	if (found.n)
		qsort(found.v, (size_t)found.n, sizeof *found.v, cmp_str);
	*v = found.v;
	return found.n;
}

/* Runs ARGV (execvp) with SETENV ("NAME=VALUE"..., NULL-terminated) added,
 * in DIR when not NULL, its stdout and stderr into OUT and ERRF when not
 * NULL; *STATUS the wait status.  Returns 0, or -1 with ERR when it could
 * not start. */
static int spawn(char *const *argv, char *const *setenv_, const char *dir, const char *out, const char *errf,
		 int *status, char *err)
{
	int ex[2];
	if (pipe2(ex, O_CLOEXEC) < 0)
		return epi_error(err, "cannot make a pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(ex[0]);
		close(ex[1]);
		return epi_error(err, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(ex[0]);
		for (char *const *e = setenv_; e && *e; e++)
			putenv(*e);
		int fail = dir && chdir(dir) < 0;
		if (!fail && out) {
			int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			fail = fd < 0 || dup2(fd, 1) < 0;
		}
		if (!fail && errf) {
			int fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			fail = fd < 0 || dup2(fd, 2) < 0;
		}
		if (!fail)
			execvp(argv[0], argv);
		int e = errno;
		if (write(ex[1], &e, sizeof e) < 0)
			_exit(126);
		_exit(127);
	}
	close(ex[1]);
	int e = 0;
	ssize_t got;
	while ((got = read(ex[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(ex[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	if (got == (ssize_t)sizeof e)
		return epi_error(err, "cannot run '%s': %s", argv[0], strerror(e));
	return 0;
}

/* Runs a coverage tool ARGV in DIR; returns its stdout (malloc'd), or NULL
 * with ERR (its first line of stderr, or how to install it). */
static char *run_tool(char *const *argv, const char *dir, const char *package, char *err)
{
	char out[PATH_MAX], errf[PATH_MAX];
	snprintf(out, sizeof out, "%s/tool.out", dir);
	snprintf(errf, sizeof errf, "%s/tool.err", dir);
	int st = 0;
	if (spawn(argv, NULL, dir, out, errf, &st, err) < 0) {
		size_t n = strlen(err);
		snprintf(err + n, EPI_ERRLEN - n, " (Debian: apt-get install %s)", package);
		return NULL;
	}
	size_t len;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char *msg = epi_read_file(errf, &len, NULL);
		char *line = msg ? msg : (char *)"";
		while (*line == '\n')
			line++;
		line[strcspn(line, "\n")] = 0;
		epi_error(err, "%s failed (status %d): %s", argv[0], WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
			  *line ? line : "no message");
		free(msg);
		return NULL;
	}
	return epi_read_file(out, &len, err);
}

static const char *tool(const char *env, const char *def)
{
	const char *v = getenv(env);
	return v && *v ? v : def;
}

/* run_tool() of the command HEAD (NULL-terminated) followed by the N FILES. */
static char *run_tool_on(const char *const *head, char **files, int n, const char *dir, const char *package, char *err)
{
	int h = 0;
	while (head[h])
		h++;
	char **argv = xcalloc((size_t)(h + n + 1), sizeof *argv);
	for (int i = 0; i < h; i++)
		argv[i] = (char *)head[i];
	for (int i = 0; i < n; i++)
		argv[h + i] = files[i];
	char *text = run_tool(argv, dir, package, err);
	free(argv);
	return text;
}

/* gcov's JSON for the .gcda files under DIR (each file's notes, the .gcno
 * gcc wrote beside the object, linked in beside it): an array of gcov's
 * documents, or NULL with ERR. */
static json_t *read_gcov(const char *dir, const char *prog, char *err)
{
	char **gcda;
	int n = find_files(dir, ".gcda", &gcda);
	if (n == 0) {
		epi_error(err, "'%s' wrote no coverage data (was it killed, or did it end by _exit or abort?)", prog);
		return NULL;
	}
	json_t *docs = NULL;
	size_t dlen = strlen(dir);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(gcda[i]);
		char *orig = xstrdup(gcda[i] + dlen), *link = xstrdup(gcda[i]);
		strcpy(orig + strlen(orig) - 5, ".gcno");
		strcpy(link + l - 5, ".gcno");
		int ok = access(orig, R_OK) == 0 && symlink(orig, link) == 0;
		if (!ok)
			epi_error(err, "cannot read '%s', the notes gcc wrote beside the object when it compiled it "
				  "(build with --coverage)", orig);
		free(orig);
		free(link);
		if (!ok)
			goto done;
	}
	const char *gcov[] = {tool("EPI_GCOV", "gcov"), "--json-format", "--stdout", "--branch-probabilities", NULL};
	char *text = run_tool_on(gcov, gcda, n, dir, "gcc", err);
	if (!text)
		goto done;
	/* one document per object file */
	docs = json_array();
	size_t len = strlen(text), at = 0;
	while (at < len) {
		while (at < len && (text[at] == '\n' || text[at] == ' '))
			at++;
		if (at == len)
			break;
		json_error_t je;
		json_t *d = json_loadb(text + at, len - at, JSON_DISABLE_EOF_CHECK, &je);
		if (!d) {
			epi_error(err, "cannot read gcov's output: %s", je.text);
			json_decref(docs);
			docs = NULL;
			break;
		}
		json_array_append_new(docs, d);
		at += je.position;
	}
	free(text);
done:
	epi_strv_free(gcda, n);
	return docs;
}

/* llvm-cov export's JSON for the .profraw files in DIR, or NULL with ERR. */
static json_t *read_llvm(const char *dir, const char *exe, const char *prog, char *err)
{
	char **raw;
	int n = find_files(dir, ".profraw", &raw);
	json_t *doc = NULL;
	if (n == 0) {
		epi_error(err, "'%s' wrote no coverage data (was it killed, or did it end by _exit or abort?)", prog);
		goto done;
	}
	char merged[PATH_MAX], inst[PATH_MAX + 32];
	snprintf(merged, sizeof merged, "%s/merged.profdata", dir);
	const char *merge[] = {tool("EPI_LLVM_PROFDATA", "llvm-profdata-19"), "merge", "-o", merged, NULL};
	char *text = run_tool_on(merge, raw, n, dir, "llvm-19", err);
	if (!text) {
		/* a profile another clang wrote: its format is that clang's */
		if (strstr(err, "version mismatch")) {
			char why[EPI_ERRLEN];
			snprintf(why, sizeof why, "%s", err);
			epi_error(err, "'%s' was built by a clang whose coverage format %s does not read (build it "
				       "with clang-19 -fprofile-instr-generate -fcoverage-mapping -g, or gcc --coverage "
				       "-g): %s", prog, merge[0], why);
		}
		goto done;
	}
	free(text);
	snprintf(inst, sizeof inst, "-instr-profile=%s", merged);
	char *real = realpath(exe, NULL); /* the tool runs in DIR */
	char *argv2[] = {(char *)tool("EPI_LLVM_COV", "llvm-cov-19"), "export", "-format=text", inst, real ? real : (char *)exe, NULL};
	text = run_tool(argv2, dir, "llvm-19", err);
	free(real);
	if (!text)
		goto done;
	json_error_t je;
	doc = json_loads(text, 0, &je);
	if (!doc)
		epi_error(err, "cannot read llvm-cov's output: line %d: %s", je.line, je.text);
	free(text);
done:
	epi_strv_free(raw, n);
	return doc;
}

int epi_trips_run(epi_trips *t, char *const *argv, const char *pname, const char *pvalue, char *err)
{
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s/epi-trips-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return epi_error(err, "cannot create a temporary folder in '%s': %s", tmp && *tmp ? tmp : "/tmp",
				 strerror(errno));
	char env1[PATH_MAX + 32], env2[64] = "GCOV_PREFIX_STRIP=0";
	char *envs[3] = {env1, NULL, NULL};
	if (t->cov == EPI_COV_GCC) {
		snprintf(env1, sizeof env1, "GCOV_PREFIX=%s", dir);
		envs[1] = env2;
	} else {
		snprintf(env1, sizeof env1, "LLVM_PROFILE_FILE=%s/%%p.profraw", dir);
	}
	int st = 0;
	int ret = spawn(argv, envs, NULL, NULL, NULL, &st, err);
	if (ret == 0) {
		json_t *cov = t->cov == EPI_COV_GCC ? read_gcov(dir, argv[0], err) : read_llvm(dir, t->exe, argv[0], err);
		if (!cov)
			ret = -1;
		else {
			ret = epi_trips_add_cov(t, cov, err);
			json_decref(cov);
		}
		if (ret == 0) {
			epi_trun *r = &t->runs[t->nruns - 1];
			int n = 0;
			while (argv[n])
				n++;
			r->argv = xcalloc((size_t)n + 1, sizeof *r->argv);
			for (int i = 0; i < n; i++)
				r->argv[i] = xstrdup(argv[i]);
			r->status = st;
			r->pname = pname ? xstrdup(pname) : NULL;
			r->pvalue = pvalue ? xstrdup(pvalue) : NULL;
		}
	}
	rm_tree(dir);
	return ret;
}

/* ---- the loops of the sources (libclang) ------------------------------- */

/* FILE's realpath (or FILE when it has none), kept in T for the positions. */
static const char *intern(epi_trips *t, const char *file)
{
	for (int i = 0; i < t->npaths; i++)
		if (strcmp(t->path_names[i], file) == 0)
			return t->path_reals[i];
	char *real = realpath(file, NULL);
	t->path_names = xrealloc(t->path_names, (size_t)(t->npaths + 1) * sizeof *t->path_names);
	t->path_reals = xrealloc(t->path_reals, (size_t)(t->npaths + 1) * sizeof *t->path_reals);
	t->path_names[t->npaths] = xstrdup(file);
	t->path_reals[t->npaths] = real ? real : xstrdup(file);
	return t->path_reals[t->npaths++];
}

static int same_file(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }


static int is_loop_kind(enum CXCursorKind k)
{
	return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt;
}

typedef struct finder {
	epi_trips *t;
	const char *file; /* the main file (interned) */
	int src;          /* its index in t->sources */
	char *text;       /* its text */
	int *bol, nlines; /* offsets of its lines' starts (line 1 at bol[1]) */
	char *function;
	int first;        /* this function's first loop in t->loops */
	CXCursor *cur;    /* the cursors of this function's loops, from FIRST */
} finder;

static void spell(finder *f, CXSourceLocation l, epi_tpos *p)
{
	CXFile file;
	unsigned line, col;
	clang_getSpellingLocation(l, &file, &line, &col, NULL);
	CXString s = clang_getFileName(file);
	const char *name = file ? clang_getCString(s) : NULL;
	p->file = name ? intern(f->t, name) : NULL;
	p->line = (int)line;
	p->col = (int)col;
	clang_disposeString(s);
}

/* The expansion line and column of L; whether it comes from a macro. */
static int expand(CXSourceLocation l, int *line, int *col)
{
	unsigned el, ec, sl, sc, eo, so;
	CXFile ef, sf;
	clang_getExpansionLocation(l, &ef, &el, &ec, &eo);
	clang_getSpellingLocation(l, &sf, &sl, &sc, &so);
	*line = (int)el;
	if (col)
		*col = (int)ec;
	return !clang_File_isEqual(ef, sf) || eo != so;
}

static int exp_line(CXCursor c) { int l; expand(clang_getCursorLocation(c), &l, NULL); return l; }

/* The expansion lines of C's first and last tokens. */
static void exp_lines(CXCursor c, int *l0, int *l1)
{
	CXSourceRange r = clang_getCursorExtent(c);
	expand(clang_getRangeStart(r), l0, NULL);
	expand(clang_getRangeEnd(r), l1, NULL);
}

static unsigned exp_offset(CXSourceLocation l)
{
	unsigned o;
	clang_getExpansionLocation(l, NULL, NULL, NULL, &o);
	return o;
}

/* Past a label (an identifier and its colon: "outer: for (...)" runs no
 * code of its own) at P, before END; NULL when P starts none. */
static const char *past_label(const char *p, const char *end)
{
	if (p >= end || !(isalpha((unsigned char)*p) || *p == '_'))
		return NULL;
	while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
		p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p < end && *p == ':' ? p + 1 : NULL;
}

/* Whether the text of LINE before column COL holds nothing but blanks,
 * braces and labels (and the keyword `do` when DO): no other code shares
 * the line ahead of what starts there. */
static int alone_from(const finder *f, int line, int col, int do_)
{
	if (line < 1 || line > f->nlines)
		return 0;
	const char *p = f->text + f->bol[line], *end = p + col - 1;
	while (p < end) {
		if (*p == ' ' || *p == '\t' || *p == '{' || *p == '\r' || *p == '\f' || *p == '\v')
			p++;
		else if (do_ && end - p >= 2 && p[0] == 'd' && p[1] == 'o' && (end - p == 2 || !(p[2] == '_' || isalnum((unsigned char)p[2]))))
			p += 2;
		else if ((p = past_label(p, end)) == NULL)
			return 0;
	}
	return 1;
}

static int cursor_alone(const finder *f, CXCursor c, int do_)
{
	int line, col;
	expand(clang_getRangeStart(clang_getCursorExtent(c)), &line, &col);
	return alone_from(f, line, col, do_);
}

/* The offsets in the main file of the two semicolons of the `for` whose
 * keyword is at OFF: 0 when the text does not show them. */
static int for_semis(const finder *f, unsigned off, unsigned *s1, unsigned *s2)
{
	const char *t = f->text, *p = t + off + 3;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p != '(')
		return 0;
	int depth = 0, n = 0;
	for (; *p; p++) {
		if (*p == '"' || *p == '\'') {
			char q = *p;
			for (p++; *p && *p != q; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				return 0;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			if (!e)
				return 0;
			p = e + 1;
		} else if (p[0] == '/' && p[1] == '/') {
			while (p[1] && p[1] != '\n')
				p++;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			if (--depth == 0)
				break;
		} else if (*p == ';' && depth == 1) {
			if (n == 0)
				*s1 = (unsigned)(p - t);
			else
				*s2 = (unsigned)(p - t);
			n++;
		}
	}
	return n == 2 && *p == ')';
}

static const char *const leave_calls[] = {"exit", "_Exit", "quick_exit", "abort", "longjmp", "siglongjmp", "_longjmp", NULL};

typedef struct exits {
	int *line, n;
	const char *why;
	unsigned lo, hi; /* the loop's extent (expansion offsets) */
} exits;

static enum CXChildVisitResult label_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_LabelRef) {
		*(CXCursor *)d = clang_getCursorReferenced(c);
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* The exit C counts as its line's count when alone on it; when it shares
 * the line of the `if` IFP whose then-branch it is (`if (x) break;`), as
 * the true branch of that line's one condition (-line). */
static void add_exit(const finder *f, exits *x, CXCursor c, CXCursor ifp)
{
	int line = exp_line(c);
	if (!cursor_alone(f, c, 0)) {
		kids ks = {0};
		int l0 = 0, l1 = 0;
		if (!clang_Cursor_isNull(ifp)) {
			kids_of(ifp, &ks);
			exp_lines(ks.c[0], &l0, &l1);
			free(ks.c);
		}
		if (clang_Cursor_isNull(ifp) || !cursor_alone(f, ifp, 0) || exp_line(ifp) != line || l0 != line || l1 != line) {
			x->why = "a break, return or goto that leaves it shares its line with other code";
			return;
		}
		line = -line;
	}
	x->line = xrealloc(x->line, (size_t)(x->n + 1) * sizeof *x->line);
	x->line[x->n++] = line;
}

/* The statements under C that leave the loop: breaks outside inner loops
 * and switches (INNER), returns, gotos to labels outside it, calls that do
 * not return.  IFP: the `if` whose then-branch C is, or a null cursor. */
static void find_exits(const finder *f, CXCursor c, int inner, exits *x, CXCursor ifp)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_BreakStmt && !inner) {
		add_exit(f, x, c, ifp);
	} else if (k == CXCursor_ReturnStmt) {
		add_exit(f, x, c, ifp);
	} else if (k == CXCursor_GotoStmt) {
		CXCursor label = clang_getNullCursor();
		clang_visitChildren(c, label_visit, &label);
		unsigned o = clang_Cursor_isNull(label) ? 0 : exp_offset(clang_getCursorLocation(label));
		if (clang_Cursor_isNull(label) || o < x->lo || o > x->hi)
			add_exit(f, x, c, ifp);
	} else if (k == CXCursor_IndirectGotoStmt) {
		x->why = "a computed goto may leave it";
	} else if (k == CXCursor_CallExpr) {
		CXString s = clang_getCursorSpelling(c);
		const char *name = clang_getCString(s);
		for (int i = 0; name && leave_calls[i]; i++)
			if (strcmp(name, leave_calls[i]) == 0)
				add_exit(f, x, c, ifp);
		clang_disposeString(s);
	}
	if (is_loop_kind(k) || k == CXCursor_SwitchStmt)
		inner = 1;
	kids ks = {0};
	kids_of(c, &ks);
	for (int i = 0; i < ks.n; i++)
		find_exits(f, ks.c[i], inner, x, k == CXCursor_IfStmt && i == 1 ? c : clang_getNullCursor());
	free(ks.c);
}

static void walk(finder *f, CXCursor c);

/* Records the loop C (its children in KS) with what reading its counts needs. */
static void add_loop(finder *f, CXCursor c, const kids *ks, CXCursor *first)
{
	epi_trips *t = f->t;
	enum CXCursorKind k = clang_getCursorKind(c);
	t->loops = xrealloc(t->loops, (size_t)(t->nloops + 1) * sizeof *t->loops);
	f->cur = xrealloc(f->cur, (size_t)(t->nloops + 1 - f->first) * sizeof *f->cur);
	f->cur[t->nloops - f->first] = c;
	epi_tloop *L = &t->loops[t->nloops++];
	memset(L, 0, sizeof *L);
	L->file = xstrdup(f->file);
	L->src = f->src;
	L->function = xstrdup(f->function);
	L->kind = k == CXCursor_ForStmt ? 'f' : k == CXCursor_WhileStmt ? 'w' : 'd';
	epi_tshape *a = &L->at;
	a->first_loop = -1;
	CXSourceLocation kw = clang_getCursorLocation(c);
	int kcol;
	int macro = expand(kw, &L->line, &kcol);
	spell(f, kw, &a->kw);
	if (macro) {
		a->site_line = L->line;
		a->site_col = kcol;
	}
	L->nth = 1;
	for (int i = f->first; i < t->nloops - 1; i++)
		L->nth += t->loops[i].line == L->line;
	*first = clang_getNullCursor();
	if (ks->n == 0) {
		a->why = "libclang shows no body";
		return;
	}
	CXCursor body = L->kind == 'd' ? ks->c[0] : ks->c[ks->n - 1];
	CXCursor cond = clang_getNullCursor();
	if (L->kind == 'w' && ks->n >= 2)
		cond = ks->c[0];
	else if (L->kind == 'd' && ks->n >= 2)
		cond = ks->c[ks->n - 1];
	else if (L->kind == 'f') {
		unsigned s1 = 0, s2 = 0, off;
		clang_getSpellingLocation(kw, NULL, NULL, NULL, &off);
		a->cond_const = 1;
		if (macro || !for_semis(f, off, &s1, &s2))
			a->cond_const = 0, a->why = "its header comes from a macro";
		else
			for (int i = 0; i + 1 < ks->n; i++) {
				unsigned o = exp_offset(clang_getRangeStart(clang_getCursorExtent(ks->c[i])));
				if (o > s1 && o < s2)
					cond = ks->c[i], a->cond_const = 0;
			}
	}
	if (!clang_Cursor_isNull(cond)) {
		CXSourceLocation cl = clang_getRangeStart(clang_getCursorExtent(cond));
		spell(f, cl, &a->cond);
		if (expand(cl, &a->cond_site_line, &a->cond_site_col) == 0)
			a->cond_site_line = a->cond_site_col = 0;
		a->cond_const = const_truth(cond);
	}
	CXSourceLocation bl = clang_getRangeStart(clang_getCursorExtent(body));
	spell(f, bl, &a->body);
	if (expand(bl, &a->body_site_line, &a->body_site_col) == 0)
		a->body_site_line = a->body_site_col = 0;

	/* gcov: the lines of the header, the body's first statement, the exits */
	const char *why = a->why;
	if (!alone_from(f, L->line, kcol, 0))
		why = "its line starts with other code";
	int top = L->kind != 'd';
	if (top)
		for (int i = 0; i + 1 < ks->n && !why; i++) {
			int l0, l1;
			exp_lines(ks->c[i], &l0, &l1);
			if (l0 != L->line || l1 != L->line)
				why = "its header spans several lines";
		}
	else if (!clang_Cursor_isNull(cond)) {
		int l0, l1;
		exp_lines(cond, &l0, &l1);
		a->cond_line = l0;
		if (l0 != l1 && !why)
			why = "its condition spans several lines";
	}
	/* the first statement that has code: declarations may have none */
	CXCursor s = body;
	kids bk = {0};
	for (;;) {
		if (clang_getCursorKind(s) != CXCursor_CompoundStmt)
			break;
		kids_of(s, &bk);
		if (bk.n == 0) {
			if (top)
				a->empty = 1;
			else if (!why)
				why = "its body is empty";
			break;
		}
		s = bk.c[0];
	}
	enum CXCursorKind sk = clang_getCursorKind(s);
	if (top && sk == CXCursor_NullStmt)
		a->empty = 1;
	if (!why && !a->empty && sk != CXCursor_CompoundStmt) {
		a->first_line = exp_line(s);
		int fl0, fl1;
		exp_lines(s, &fl0, &fl1);
		if (sk == CXCursor_LabelStmt || sk == CXCursor_CaseStmt || sk == CXCursor_DefaultStmt)
			why = "its body starts with a label";
		else if (top ? fl0 <= L->line : fl0 >= a->cond_line && a->cond_line)
			why = "its header and body share a line";
		else if (!cursor_alone(f, s, !top))
			why = "its body's first line starts with other code";
		else if (sk == CXCursor_DeclStmt)
			a->first_line = -fl0; /* a declaration: perhaps no code */
	}
	free(bk.c);
	if (!why && !top && a->cond_const == 1)
		why = "its condition always holds";
	if (!why && top) {
		exits x = {0};
		CXSourceRange r = clang_getCursorExtent(c);
		x.lo = exp_offset(clang_getRangeStart(r));
		x.hi = exp_offset(clang_getRangeEnd(r));
		find_exits(f, body, 0, &x, clang_getNullCursor());
		a->nexits = x.n;
		a->exit_line = x.line;
		why = x.why;
	}
	a->header_ok = why == NULL;
	a->why = why;
	/* the first statement is a loop: its entries are this loop's iterations */
	*first = a->header_ok && is_loop_kind(sk) ? s : clang_getNullCursor();
}

static enum CXChildVisitResult walk_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	walk(d, c);
	return CXChildVisit_Continue;
}

/* Records the loops under C in pre-order (the order of their nth). */
static void walk(finder *f, CXCursor c)
{
	if (!is_loop_kind(clang_getCursorKind(c)) || is_once(c)) {
		clang_visitChildren(c, walk_visit, f);
		return;
	}
	kids ks = {0};
	kids_of(c, &ks);
	CXCursor first;
	int me = f->t->nloops;
	add_loop(f, c, &ks, &first);
	for (int i = 0; i < ks.n; i++)
		walk(f, ks.c[i]);
	free(ks.c);
	if (!clang_Cursor_isNull(first))
		for (int i = me + 1; i < f->t->nloops; i++)
			if (clang_equalCursors(f->cur[i - f->first], first))
				f->t->loops[me].at.first_loop = i;
}

/* Finds the loops of the functions defined in FILE (interned); 0, or -1
 * with ERR when it cannot be read or parsed at all. */
static int find_loops(epi_trips *t, int src, char *err)
{
	const char *file = intern(t, t->sources[src]);
	finder f = {.t = t, .file = file, .src = src};
	size_t len;
	f.text = epi_read_file(file, &len, err);
	if (!f.text)
		return -1;
	f.bol = xmalloc((len + 2) * sizeof *f.bol);
	f.bol[1] = 0;
	f.nlines = 1;
	for (size_t i = 0; i < len; i++)
		if (f.text[i] == '\n')
			f.bol[++f.nlines] = (int)i + 1;
	char **dbargs = NULL;
	int ndb = 0;
	const char *const *args = t->clang_args;
	int nargs = t->nclang_args;
	if (t->compdb) {
		dbargs = epi_compdb_args(t->compdb, file, &ndb, err);
		if (!dbargs) {
			free(f.text);
			free(f.bol);
			return -1;
		}
		args = (const char *const *)dbargs;
		nargs = ndb;
	}
	/* the caller's flags after the database's */
	const char **both = NULL;
	if (t->compdb && t->nclang_args) {
		both = xmalloc(((size_t)ndb + (size_t)t->nclang_args + 1) * sizeof *both);
		for (int i = 0; i < ndb; i++)
			both[i] = dbargs[i];
		for (int i = 0; i < t->nclang_args; i++)
			both[ndb + i] = t->clang_args[i];
		args = both;
		nargs = ndb + t->nclang_args;
	}
	int nall;
	const char **all = parse_args(file, NULL, args, nargs, &nall);
	free(both);
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	/* errors in the file (a missing header) leave the loops that parse */
	enum CXErrorCode ec = clang_parseTranslationUnit2(idx, file, all, nall, NULL, 0, CXTranslationUnit_None, &tu);
	free(all);
	int ret = 0;
	if (ec != CXError_Success || !tu) {
		ret = epi_error(err, "cannot parse '%s' (libclang error %d)", file, (int)ec);
	} else {
		kids top = {0};
		kids_of(clang_getTranslationUnitCursor(tu), &top);
		for (int i = 0; i < top.n; i++) {
			CXCursor c = top.c[i];
			if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
			    !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
				continue;
			CXString name = clang_getCursorSpelling(c);
			f.function = xstrdup(clang_getCString(name));
			clang_disposeString(name);
			f.first = t->nloops;
			clang_visitChildren(c, walk_visit, &f);
			free(f.function);
		}
		free(top.c);
		clang_disposeTranslationUnit(tu);
	}
	clang_disposeIndex(idx);
	epi_strv_free(dbargs, ndb);
	free(f.cur);
	free(f.text);
	free(f.bol);
	return ret;
}

/* ---- counts from gcov's lines ------------------------------------------ */

typedef struct gline {
	long long count;
	int has;         /* gcov has a count for the line */
	int nbr;         /* its conditional branches (-1: they differ between objects) */
	long long br0;   /* the first one's count: the true edge, which gcc makes first */
} gline;

typedef struct gfile {
	const char *file;
	int n;
	gline *l;        /* by line number */
} gfile;

static gfile *gfile_of(gfile **v, int *n, const char *file)
{
	for (int i = 0; i < *n; i++)
		if (same_file((*v)[i].file, file))
			return &(*v)[i];
	*v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
	gfile *g = &(*v)[(*n)++];
	memset(g, 0, sizeof *g);
	g->file = file;
	return g;
}

/* The source NAME as gcov or llvm-cov gives it, relative to DIR. */
static const char *cov_path(epi_trips *t, const char *dir, const char *name)
{
	if (name[0] == '/' || !dir)
		return intern(t, name);
	char buf[2 * PATH_MAX];
	snprintf(buf, sizeof buf, "%s/%s", dir, name);
	return intern(t, buf);
}

/* gcov's documents into line tables; 0, or -1 with ERR. */
static int gcov_lines(epi_trips *t, json_t *docs, gfile **out, int *nout, char *err)
{
	size_t i, j, k;
	json_t *doc, *f, *l;
	*out = NULL;
	*nout = 0;
	json_array_foreach(docs, i, doc) {
		const char *cwd = json_string_value(json_object_get(doc, "current_working_directory"));
		json_t *files = json_object_get(doc, "files");
		if (!json_is_array(files))
			return epi_error(err, "gcov's output has no \"files\"");
		json_array_foreach(files, j, f) {
			const char *name = json_string_value(json_object_get(f, "file"));
			if (!name)
				continue;
			gfile *g = gfile_of(out, nout, cov_path(t, cwd, name));
			json_array_foreach(json_object_get(f, "lines"), k, l) {
				json_int_t line = json_integer_value(json_object_get(l, "line_number"));
				if (line <= 0 || line > 10000000)
					continue;
				if (line >= g->n) {
					int n = (int)line + 64;
					g->l = xrealloc(g->l, (size_t)n * sizeof *g->l);
					memset(g->l + g->n, 0, (size_t)(n - g->n) * sizeof *g->l);
					g->n = n;
				}
				gline *gl = &g->l[line];
				json_t *br = json_object_get(l, "branches");
				int nbr = (int)json_array_size(br);
				long long b0 = nbr ? json_integer_value(json_object_get(json_array_get(br, 0), "count")) : 0;
				if (!gl->has)
					gl->nbr = nbr;
				else if (gl->nbr != nbr)
					gl->nbr = -1;
				gl->has = 1;
				gl->count += json_integer_value(json_object_get(l, "count"));
				gl->br0 += b0;
			}
		}
	}
	return 0;
}

static const gline *gline_at(const gfile *g, int line)
{
	return g && line > 0 && line < g->n && g->l[line].has ? &g->l[line] : NULL;
}

/* Loop LI's entries and iterations in run R from gcov's lines G; -1 with
 * *WHY (into BUF) when they cannot be read. */
static int gcov_loop(epi_trips *t, const gfile *g, int li, int r, long long *E, long long *I, char *buf, size_t n)
{
	const epi_tloop *L = &t->loops[li];
	const epi_tshape *a = &L->at;
	if (!a->header_ok) {
		snprintf(buf, n, "gcov cannot tell its entries from its iterations: %s", a->why);
		return -1;
	}
	const gline *gl, *hl = L->kind != 'd' ? gline_at(g, L->line) : NULL;
	if (hl && hl->nbr == 2) {
		/* one condition on the header's line: it held once per iteration
		 * (its true edge), whatever the body's first line counts (a ?:
		 * over two lines counts twice) or when the body has none */
		*I = hl->br0;
	} else if (a->empty) {
		snprintf(buf, n, "its body is empty and gcov shows %d branches on its header, not one condition",
			 hl ? hl->nbr : 0);
		return -1;
	} else if (a->first_loop >= 0) {
		*I = t->loops[a->first_loop].entries[r];
		if (*I < 0) {
			snprintf(buf, n, "its body's first statement, the loop on line %d, could not be read",
				 t->loops[a->first_loop].line);
			return -1;
		}
	} else {
		int fl = a->first_line < 0 ? -a->first_line : a->first_line;
		if (!(gl = gline_at(g, fl))) {
			snprintf(buf, n, "gcov has no count for line %d, its body's first", fl);
			return -1;
		}
		*I = gl->count;
	}
	if (L->kind == 'd') {
		long long T = 0;
		if (a->cond_const != -1) {
			if (!(gl = gline_at(g, a->cond_line)) || gl->nbr != 2) {
				snprintf(buf, n, "gcov shows %d branches on line %d, its condition's, not one", gl ? gl->nbr : 0,
					 a->cond_line);
				return -1;
			}
			T = gl->br0;
		}
		*E = *I - T;
	} else {
		long long X = 0;
		for (int k = 0; k < a->nexits; k++) {
			int xl = a->exit_line[k] < 0 ? -a->exit_line[k] : a->exit_line[k];
			if (!(gl = gline_at(g, xl))) {
				snprintf(buf, n, "gcov has no count for line %d, which leaves it", xl);
				return -1;
			}
			if (a->exit_line[k] < 0 && gl->nbr != 2) {
				snprintf(buf, n, "gcov shows %d branches on line %d, which leaves it, not one condition", gl->nbr, xl);
				return -1;
			}
			X += a->exit_line[k] < 0 ? gl->br0 : gl->count;
		}
		if (a->cond_const == 1) {
			*E = X;
		} else {
			if (!(gl = gline_at(g, L->line))) {
				snprintf(buf, n, "gcov has no count for line %d, its header", L->line);
				return -1;
			}
			*E = gl->count - *I + X;
		}
	}
	if (*E < 0 || *I < 0 || (*E == 0 && *I > 0)) {
		snprintf(buf, n, "gcov's counts do not fit together (%lld entries, %lld iterations): an optimised build?", *E,
			 *I);
		return -1;
	}
	return 0;
}

/* ---- counts from clang's regions ---------------------------------------- */

typedef struct cfun {
	json_t *regions, *branches;
	int nf;
	const char **file;  /* per file ID */
	int *root;          /* the file ID its outermost expansion lies in (itself when none) */
	int *site_l, *site_c; /* that expansion's position (0 when none) */
} cfun;

static void cfun_init(epi_trips *t, cfun *c, json_t *fn, const char *dir)
{
	c->regions = json_object_get(fn, "regions");
	c->branches = json_object_get(fn, "branches");
	json_t *names = json_object_get(fn, "filenames");
	c->nf = (int)json_array_size(names);
	c->file = xcalloc((size_t)c->nf + 1, sizeof *c->file);
	c->root = xmalloc(((size_t)c->nf + 1) * sizeof *c->root);
	c->site_l = xcalloc((size_t)c->nf + 1, sizeof *c->site_l);
	c->site_c = xcalloc((size_t)c->nf + 1, sizeof *c->site_c);
	int *parent = xmalloc(((size_t)c->nf + 1) * sizeof *parent);
	for (int i = 0; i < c->nf; i++) {
		const char *s = json_string_value(json_array_get(names, (size_t)i));
		c->file[i] = s ? cov_path(t, dir, s) : NULL;
		parent[i] = -1;
	}
	size_t i;
	json_t *r;
	json_array_foreach(c->regions, i, r) {
		/* [line, col, end line, end col, count, file ID, expanded file ID, kind] */
		int fid = (int)json_integer_value(json_array_get(r, 5)), x = (int)json_integer_value(json_array_get(r, 6));
		if (json_integer_value(json_array_get(r, 7)) == 1 && x > 0 && x < c->nf && fid >= 0 && fid < c->nf) {
			parent[x] = fid;
			c->site_l[x] = (int)json_integer_value(json_array_get(r, 0));
			c->site_c[x] = (int)json_integer_value(json_array_get(r, 1));
		}
	}
	for (int f = 0; f < c->nf; f++) {
		int x = f, steps = 0;
		while (parent[x] >= 0 && parent[parent[x]] >= 0 && steps++ < c->nf)
			x = parent[x];
		c->root[f] = parent[x] >= 0 ? parent[x] : f;
		if (parent[x] >= 0) {
			c->site_l[f] = c->site_l[x];
			c->site_c[f] = c->site_c[x];
		}
	}
	free(parent);
}

static void cfun_free(cfun *c)
{
	free(c->file);
	free(c->root);
	free(c->site_l);
	free(c->site_c);
}

/* Whether file ID FID holds position P of MAIN's code expanded at SITE_L:SITE_C (0: not from a macro). */
static int fid_ok(const cfun *c, int fid, const epi_tpos *p, const char *main, int site_l, int site_c)
{
	if (fid < 0 || fid >= c->nf || !same_file(c->file[fid], p->file))
		return 0;
	if (!site_l)
		return c->root[fid] == fid;
	return c->root[fid] != fid && same_file(c->file[c->root[fid]], main) && c->site_l[fid] == site_l &&
	       c->site_c[fid] == site_c;
}

static long long ival(json_t *r, size_t i) { return (long long)json_integer_value(json_array_get(r, i)); }

static int before(long long l1, long long c1, long long l2, long long c2) { return l1 < l2 || (l1 == l2 && c1 < c2); }

/* The count of the innermost code region holding P (in its file ID), or -1. */
static long long region_at(const cfun *c, const epi_tpos *p, const char *main, int sl, int sc)
{
	long long best = -1, bl = 0, bc = 0, el = 0, ec = 0;
	size_t i;
	json_t *r;
	json_array_foreach(c->regions, i, r) {
		if (ival(r, 7) != 0 || !fid_ok(c, (int)ival(r, 5), p, main, sl, sc))
			continue;
		long long l0 = ival(r, 0), c0 = ival(r, 1), l1 = ival(r, 2), c1 = ival(r, 3);
		if (before(p->line, p->col, l0, c0) || before(l1, c1, p->line, p->col))
			continue;
		if (best < 0 || before(bl, bc, l0, c0) || (l0 == bl && c0 == bc && before(l1, c1, el, ec))) {
			best = ival(r, 4);
			bl = l0, bc = c0, el = l1, ec = c1;
		}
	}
	return best;
}

/* The count of the outermost code region starting at P, or -1. */
static long long region_from(const cfun *c, const epi_tpos *p, const char *main, int sl, int sc)
{
	long long best = -1, el = 0, ec = 0;
	size_t i;
	json_t *r;
	json_array_foreach(c->regions, i, r) {
		if (ival(r, 7) != 0 || ival(r, 0) != p->line || ival(r, 1) != p->col ||
		    !fid_ok(c, (int)ival(r, 5), p, main, sl, sc))
			continue;
		if (best < 0 || before(el, ec, ival(r, 2), ival(r, 3))) {
			best = ival(r, 4);
			el = ival(r, 2), ec = ival(r, 3);
		}
	}
	return best;
}

/* The true count of the branch region of the condition starting at P, or -1. */
static long long branch_from(const cfun *c, const epi_tpos *p, const char *main, int sl, int sc)
{
	size_t i;
	json_t *r;
	json_array_foreach(c->branches, i, r)
		if (ival(r, 0) == p->line && ival(r, 1) == p->col && fid_ok(c, (int)ival(r, 6), p, main, sl, sc))
			return ival(r, 4);
	return -1;
}

/* Loop L's entries and iterations from the functions' regions; -1 with
 * the reason in BUF when they cannot be read. */
static int llvm_loop(const cfun *fs, int nfs, const epi_tloop *L, long long *E, long long *I, char *buf, size_t n)
{
	const epi_tshape *a = &L->at;
	*E = *I = 0;
	int seen = 0;
	for (int k = 0; k < nfs; k++) {
		const cfun *c = &fs[k];
		long long e = region_at(c, &a->kw, L->file, a->site_line, a->site_col);
		if (e < 0)
			continue;
		seen = 1;
		long long i = region_from(c, &a->body, L->file, a->body_site_line, a->body_site_col);
		if (i < 0 && a->cond.line) {
			i = branch_from(c, &a->cond, L->file, a->cond_site_line, a->cond_site_col);
			if (i >= 0 && L->kind == 'd')
				i += e;
		}
		if (i < 0) {
			snprintf(buf, n, "llvm-cov has no region at its body (%d:%d)", a->body.line, a->body.col);
			return -1;
		}
		*E += e;
		*I += i;
	}
	if (!seen) {
		snprintf(buf, n, "llvm-cov has no region holding it");
		return -1;
	}
	return 0;
}

/* ---- a run's counts ------------------------------------------------------ */

static int is_c_source(const char *f)
{
	size_t n = strlen(f);
	return n > 2 && strcmp(f + n - 2, ".c") == 0 && access(f, R_OK) == 0;
}

/* The first run: its sources, their loops, how each is shown. */
static int find_sources(epi_trips *t, const char **files, int n, char *err)
{
	for (int i = 0; i < n; i++) {
		if (!is_c_source(files[i]))
			continue;
		int dup = 0;
		for (int k = 0; k < t->nsources; k++)
			dup |= strcmp(t->sources[k], files[i]) == 0;
		if (dup)
			continue;
		t->sources = xrealloc(t->sources, (size_t)(t->nsources + 1) * sizeof *t->sources);
		t->sources[t->nsources++] = xstrdup(files[i]);
	}
	if (t->nsources == 0)
		return epi_error(err, "the coverage of '%s' names no C source that can be read", t->exe);
	qsort(t->sources, (size_t)t->nsources, sizeof *t->sources, cmp_str);
	t->shown = xcalloc((size_t)t->nsources, sizeof *t->shown);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		cwd[0] = 0;
	size_t cl = strlen(cwd);
	for (int i = 0; i < t->nsources; i++) {
		const char *b = strrchr(t->sources[i], '/');
		b = b ? b + 1 : t->sources[i];
		int twice = 0;
		for (int k = 0; k < t->nsources; k++) {
			const char *o = strrchr(t->sources[k], '/');
			twice |= k != i && strcmp(o ? o + 1 : t->sources[k], b) == 0;
		}
		if (!twice)
			t->shown[i] = xstrdup(b);
		else if (cl > 1 && strncmp(t->sources[i], cwd, cl) == 0 && t->sources[i][cl] == '/')
			t->shown[i] = xstrdup(t->sources[i] + cl + 1);
		else
			t->shown[i] = xstrdup(t->sources[i]);
	}
	for (int i = 0; i < t->nsources; i++) {
		char perr[EPI_ERRLEN];
		if (find_loops(t, i, perr) < 0) {
			t->notes = xrealloc(t->notes, (size_t)(t->nnotes + 1) * sizeof *t->notes);
			t->notes[t->nnotes++] = xstrdup(perr);
		}
	}
	return 0;
}

int epi_trips_add_cov(epi_trips *t, json_t *cov, char *err)
{
	gfile *gf = NULL;
	int ngf = 0, nfs = 0;
	cfun *fs = NULL;
	int ret = 0;
	if (t->cov == EPI_COV_GCC) {
		if (!json_is_array(cov) || gcov_lines(t, cov, &gf, &ngf, err) < 0)
			return json_is_array(cov) ? -1 : epi_error(err, "gcov's output is not a list of documents");
	} else {
		json_t *data = json_array_get(json_object_get(cov, "data"), 0);
		json_t *fns = json_object_get(data, "functions");
		if (!json_is_array(fns))
			return epi_error(err, "llvm-cov's output has no \"functions\"");
		nfs = (int)json_array_size(fns);
		fs = xcalloc((size_t)nfs + 1, sizeof *fs);
		for (int k = 0; k < nfs; k++)
			cfun_init(t, &fs[k], json_array_get(fns, (size_t)k), NULL);
	}
	if (t->nruns == 0 && t->nsources == 0) {
		int n = 0;
		const char **files = NULL;
		if (t->cov == EPI_COV_GCC) {
			files = xmalloc(((size_t)ngf + 1) * sizeof *files);
			for (int i = 0; i < ngf; i++)
				files[n++] = gf[i].file;
		} else {
			json_t *jf = json_object_get(json_array_get(json_object_get(cov, "data"), 0), "files");
			files = xmalloc((json_array_size(jf) + 1) * sizeof *files);
			size_t i;
			json_t *f;
			json_array_foreach(jf, i, f) {
				const char *name = json_string_value(json_object_get(f, "filename"));
				if (name)
					files[n++] = intern(t, name);
			}
		}
		ret = find_sources(t, files, n, err);
		free(files);
	}
	int r = t->nruns;
	if (ret == 0) {
		t->runs = xrealloc(t->runs, (size_t)(r + 1) * sizeof *t->runs);
		memset(&t->runs[r], 0, sizeof t->runs[r]);
		t->nruns++;
		/* inner loops first: an outer loop's iterations may be an inner one's entries */
		for (int li = t->nloops - 1; li >= 0; li--) {
			epi_tloop *L = &t->loops[li];
			L->entries = xrealloc(L->entries, (size_t)(r + 1) * sizeof *L->entries);
			L->iters = xrealloc(L->iters, (size_t)(r + 1) * sizeof *L->iters);
			char why[256];
			long long E, I;
			int ok = t->cov == EPI_COV_GCC ? gcov_loop(t, gfile_of(&gf, &ngf, L->file), li, r, &E, &I, why, sizeof why)
						       : llvm_loop(fs, nfs, L, &E, &I, why, sizeof why);
			L->entries[r] = ok < 0 ? -1 : E;
			L->iters[r] = ok < 0 ? -1 : I;
			if (ok < 0 && !L->why)
				L->why = xstrdup(why);
		}
	}
	for (int i = 0; i < ngf; i++)
		free(gf[i].l);
	free(gf);
	for (int k = 0; k < nfs; k++)
		cfun_free(&fs[k]);
	free(fs);
	return ret;
}

/* ---- fitting the trip counts --------------------------------------------- */

int epi_rationalize(double v, double tol, long maxden, fmpq_t out)
{
	if (!isfinite(v) || fabs(v) > 1e17)
		return -1;
	/* the convergents h/k of v's continued fraction */
	double h0 = 0, h1 = 1, k0 = 1, k1 = 0, x = v;
	for (int it = 0; it < 64; it++) {
		double a = floor(x), h = a * h1 + h0, k = a * k1 + k0;
		if (k > (double)maxden)
			return -1;
		if (fabs(v - h / k) <= tol) {
			fmpz_t num, den;
			fmpz_init(num);
			fmpz_init(den);
			fmpz_set_d(num, h);
			fmpz_set_d(den, k);
			fmpq_set_fmpz_frac(out, num, den);
			fmpz_clear(num);
			fmpz_clear(den);
			return 0;
		}
		double frac = x - a;
		if (frac <= 0)
			return -1;
		x = 1 / frac;
		h0 = h1, h1 = h, k0 = k1, k1 = k;
	}
	return -1;
}

/* Whether P reproduces every point (X, Y) exactly. */
static int reproduces(const fmpq_poly_t p, const long *x, const fmpq *y, int m)
{
	fmpq_t v, xv;
	fmpq_init(v);
	fmpq_init(xv);
	int ok = 1;
	for (int i = 0; i < m && ok; i++) {
		fmpq_set_si(xv, x[i], 1);
		fmpq_poly_evaluate_fmpq(v, p, xv);
		ok = fmpq_equal(v, &y[i]);
	}
	fmpq_clear(v);
	fmpq_clear(xv);
	return ok;
}

int epi_fit_poly(const long *x, const fmpq *y, int m, int maxdeg, fmpq_poly_t p, int *exact, double *residual)
{
	fmpq_poly_zero(p);
	*exact = 0;
	*residual = NAN;
	if (m <= 0)
		return -1;
	if (maxdeg > m - 1)
		maxdeg = m - 1;
	if (maxdeg > 3)
		maxdeg = 3;
	double s = 0, ymax = 1;
	for (int i = 0; i < m; i++) {
		s = fmax(s, fabs((double)x[i]));
		ymax = fmax(ymax, fabs(fmpq_get_d(&y[i])));
	}
	if (s == 0)
		s = 1;
	double coef[4][4] = {{0}}, rms[4];
	int pick = -1;
	fmpq_t q;
	fmpq_init(q);
	for (int d = 0; d <= maxdeg && !*exact; d++) {
		/* in t = x / s, which keeps the matrix well conditioned */
		gsl_matrix *X = gsl_matrix_alloc((size_t)m, (size_t)d + 1), *cov = gsl_matrix_alloc((size_t)d + 1, (size_t)d + 1);
		gsl_vector *yv = gsl_vector_alloc((size_t)m), *c = gsl_vector_alloc((size_t)d + 1);
		for (int i = 0; i < m; i++) {
			double tp = 1, t = (double)x[i] / s;
			for (int j = 0; j <= d; j++, tp *= t)
				gsl_matrix_set(X, (size_t)i, (size_t)j, tp);
			gsl_vector_set(yv, (size_t)i, fmpq_get_d(&y[i]));
		}
		double chisq = 0;
		gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc((size_t)m, (size_t)d + 1);
		gsl_multifit_linear(X, yv, c, cov, &chisq, w);
		gsl_multifit_linear_free(w);
		rms[d] = sqrt(chisq / m);
		for (int j = 0; j <= d; j++)
			coef[d][j] = gsl_vector_get(c, (size_t)j) / pow(s, j);
		/* a coefficient in t is known to some 1e-13 of the values, 1e-9
		 * when the matrix is ill conditioned: the simplest rationals
		 * within growing tolerances, as long as they reproduce no run */
		for (double tol = 1e-12; tol <= 1.1e-7 && !*exact; tol *= 100) {
			int rational = 1;
			fmpq_poly_zero(p);
			for (int j = 0; j <= d && rational; j++) {
				rational = epi_rationalize(coef[d][j], tol * ymax / pow(s, j), 1000000, q) == 0;
				fmpq_poly_set_coeff_fmpq(p, j, q);
			}
			*exact = rational && reproduces(p, x, y, m);
		}
		if (*exact || (pick < 0 && rms[d] <= 1e-9 * ymax))
			pick = d;
		gsl_matrix_free(X);
		gsl_matrix_free(cov);
		gsl_vector_free(yv);
		gsl_vector_free(c);
	}
	if (*exact) {
		*residual = 0;
	} else {
		if (pick < 0)
			pick = maxdeg;
		*residual = rms[pick];
		fmpq_poly_zero(p);
		for (int j = 0; j <= pick; j++) {
			double a = coef[pick][j];
			if (epi_rationalize(a, fmax(1e-12 * fabs(a), 1e-15), 1000000000000L, q) < 0)
				fmpq_set_si(q, (slong)llround(a * 1e6), 1000000);
			fmpq_poly_set_coeff_fmpq(p, j, q);
		}
	}
	fmpq_clear(q);
	return pick;
}

char *epi_poly_text(const fmpq_poly_t p, const char *var)
{
	sym_ctx s;
	sym_init(&s);
	int v = sym_var(&s, var, SYM_PARAM);
	poly_t P;
	poly_init(P, s.ctx);
	poly_set_fmpq_poly(P, p, v, s.ctx);
	sym_pw w;
	sym_pw_init(&w);
	sym_pw_set_poly(&s, &w, P);
	char *formula = NULL, *cond = NULL;
	sym_pw_format(&s, &w, &formula, &cond);
	free(cond);
	sym_pw_clear(&s, &w);
	poly_clear(P, s.ctx);
	sym_free(&s);
	return formula;
}

void epi_trips_fit(epi_trips *t, const char *name, const long *x)
{
	fmpq *y = _fmpq_vec_init(t->nruns + 1);
	long *xs = xmalloc(((size_t)t->nruns + 1) * sizeof *xs);
	fmpq_poly_t p;
	fmpq_poly_init(p);
	for (int li = 0; li < t->nloops; li++) {
		epi_tloop *L = &t->loops[li];
		free(L->trip);
		L->trip = NULL;
		L->param = NULL;
		int m = 0, unread = 0;
		for (int r = 0; r < t->nruns; r++) {
			unread |= L->entries[r] < 0;
			if (L->entries[r] <= 0)
				continue;
			fmpq_set_si(&y[m], L->iters[r], (ulong)L->entries[r]);
			xs[m++] = x ? x[r] : 0;
		}
		L->points = m;
		if (unread || m == 0)
			continue;
		int deg = epi_fit_poly(xs, y, m, name ? 3 : 0, p, &L->exact, &L->residual);
		L->trip = epi_poly_text(p, name ? name : "n");
		L->param = deg > 0 ? name : NULL;
	}
	fmpq_poly_clear(p);
	free(xs);
	_fmpq_vec_clear(y, t->nruns + 1);
}

/* ---- the trips file ------------------------------------------------------ */

static json_t *count_json(long long v)
{
	char b[32];
	snprintf(b, sizeof b, "%lld", v);
	return json_string(b);
}

int epi_tloop_totals(const epi_trips *t, const epi_tloop *L, long long *E, long long *I)
{
	*E = *I = 0;
	for (int r = 0; r < t->nruns; r++) {
		if (L->entries[r] < 0)
			return -1;
		*E += L->entries[r];
		*I += L->iters[r];
	}
	return 0;
}

json_t *epi_trips_json(const epi_trips *t)
{
	json_t *root = json_object();
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "tool", json_string("epi trips"));
	json_object_set_new(root, "compiler", json_string(t->cov == EPI_COV_GCC ? "gcc" : "clang"));
	json_object_set_new(root, "program", json_string(t->exe));
	json_t *runs = json_array();
	for (int r = 0; r < t->nruns; r++) {
		json_t *o = json_object(), *av = json_array(), *ps = json_object();
		for (char **a = t->runs[r].argv; a && *a; a++)
			json_array_append_new(av, json_string(*a));
		json_object_set_new(o, "argv", av);
		if (t->runs[r].pname)
			json_object_set_new(ps, t->runs[r].pname, json_integer(atol(t->runs[r].pvalue)));
		json_object_set_new(o, "params", ps);
		int st = t->runs[r].status;
		json_object_set_new(o, "exit_status", json_integer(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st)));
		json_array_append_new(runs, o);
	}
	json_object_set_new(root, "runs", runs);
	json_t *loops = json_array();
	for (int li = 0; li < t->nloops; li++) {
		const epi_tloop *L = &t->loops[li];
		json_t *o = json_object();
		json_object_set_new(o, "file", json_string(t->shown[L->src]));
		json_object_set_new(o, "function", json_string(L->function));
		json_object_set_new(o, "line", json_integer(L->line));
		json_object_set_new(o, "nth", json_integer(L->nth));
		json_object_set_new(o, "kind", json_string(L->kind == 'f' ? "for" : L->kind == 'w' ? "while" : "do"));
		long long E, I;
		int unread = epi_tloop_totals(t, L, &E, &I) < 0;
		json_object_set_new(o, "entries", unread ? json_null() : count_json(E));
		json_object_set_new(o, "iterations", unread ? json_null() : count_json(I));
		json_object_set_new(o, "trip", L->trip ? json_string(L->trip) : json_null());
		json_t *ps = json_array();
		if (L->param)
			json_array_append_new(ps, json_string(L->param));
		json_object_set_new(o, "params", ps);
		json_object_set_new(o, "residual", L->trip ? json_real(L->residual) : json_null());
		json_object_set_new(o, "exact", json_boolean(L->trip && L->exact));
		json_object_set_new(o, "points", json_integer(L->points));
		if (t->nruns > 1 && !unread) {
			json_t *pr = json_array();
			for (int r = 0; r < t->nruns; r++) {
				json_t *x = json_object();
				json_object_set_new(x, "entries", count_json(L->entries[r]));
				json_object_set_new(x, "iterations", count_json(L->iters[r]));
				json_array_append_new(pr, x);
			}
			json_object_set_new(o, "per_run", pr);
		}
		if (L->why)
			json_object_set_new(o, "note", json_string(L->why));
		else if (!L->trip)
			json_object_set_new(o, "note", json_string("never entered"));
		json_array_append_new(loops, o);
	}
	json_object_set_new(root, "loops", loops);
	json_t *notes = json_array();
	for (int i = 0; i < t->nnotes; i++)
		json_array_append_new(notes, json_string(t->notes[i]));
	json_object_set_new(root, "notes", notes);
	return root;
}

int epi_trips_load(const char *path, epi_trip **trips, int *n, char *err)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	if (!root) {
		if (je.line <= 0)
			return epi_error(err, "cannot read trips file '%s': %s", path, je.text);
		return epi_error(err, "trips file '%s' line %d: %s", path, je.line, je.text);
	}
	int ret = 0;
	json_t *loops = json_object_get(root, "loops"), *runs = json_object_get(root, "runs");
	if (!json_is_object(root) || json_integer_value(json_object_get(root, "version")) != 1 ||
	    !json_is_integer(json_object_get(root, "version")))
		ret = epi_error(err, "'%s' is not a trips file of version 1 (no \"version\": 1; written by epi trips?)", path);
	else if (!json_is_array(loops))
		ret = epi_error(err, "trips file '%s' has no \"loops\" list", path);
	size_t i;
	json_t *l;
	int nruns = (int)json_array_size(runs);
	json_array_foreach(loops, i, l) {
		if (ret < 0)
			break;
		json_t *file = json_object_get(l, "file"), *line = json_object_get(l, "line"), *nth = json_object_get(l, "nth"),
		       *trip = json_object_get(l, "trip"), *res = json_object_get(l, "residual");
		const char *bad = NULL;
		if (!json_is_object(l))
			bad = "is not an object";
		else if (!json_is_string(file) || !*json_string_value(file))
			bad = "has no \"file\"";
		else if (!json_is_integer(line) || json_integer_value(line) < 1 || json_integer_value(line) > INT_MAX)
			bad = "has no \"line\" (a whole number from 1)";
		else if (nth && (!json_is_integer(nth) || json_integer_value(nth) < 1 || json_integer_value(nth) > INT_MAX))
			bad = "has an \"nth\" that is not a whole number from 1";
		else if (trip && !json_is_null(trip) &&
			 (!json_is_string(trip) || !*json_string_value(trip) ||
			  strspn(json_string_value(trip), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ +-*/^()") !=
				  strlen(json_string_value(trip))))
			bad = "has a \"trip\" that is not an expression of numbers, parameters and + - * / ^";
		else if (res && !json_is_null(res) && !json_is_number(res))
			bad = "has a \"residual\" that is not a number";
		if (bad) {
			ret = epi_error(err, "trips file '%s': loops[%zu] %s", path, i, bad);
			break;
		}
		/* never entered in the runs measured: no iteration in them */
		json_t *entries = json_object_get(l, "entries");
		int never = json_is_null(trip) && json_is_string(entries) && !strcmp(json_string_value(entries), "0");
		if (!json_is_string(trip) && !never)
			continue; /* measured, but not read */
		*trips = xrealloc(*trips, (size_t)(*n + 1) * sizeof **trips);
		epi_trip *t = &(*trips)[(*n)++];
		memset(t, 0, sizeof *t);
		t->file = xstrdup(json_string_value(file));
		t->line = (int)json_integer_value(line);
		t->nth = nth ? (int)json_integer_value(nth) : 1;
		t->expr = xstrdup(never ? "0" : json_string_value(trip));
		t->measured = 1;
		char resid[32];
		epi_fmt_double(resid, sizeof resid, res ? json_number_value(res) : 0);
		int r = never ? asprintf(&t->origin, "never entered in the %d run%s epi trips measured", nruns,
					 nruns == 1 ? "" : "s")
			      : asprintf(&t->origin, "measured by epi trips over %d run%s, residual %s", nruns,
					 nruns == 1 ? "" : "s", resid);
		if (r < 0)
			t->origin = NULL;
	}
	json_decref(root);
	return ret;
}

void epi_trips_init(epi_trips *t, enum epi_cov cov, const char *exe)
{
	memset(t, 0, sizeof *t);
	t->cov = cov;
	t->exe = xstrdup(exe);
}

void epi_trips_free(epi_trips *t)
{
	for (int r = 0; r < t->nruns; r++) {
		for (char **a = t->runs[r].argv; a && *a; a++)
			free(*a);
		free(t->runs[r].argv);
		free(t->runs[r].pname);
		free(t->runs[r].pvalue);
	}
	free(t->runs);
	for (int i = 0; i < t->nloops; i++) {
		epi_tloop *L = &t->loops[i];
		free(L->file);
		free(L->function);
		free(L->at.exit_line);
		free(L->entries);
		free(L->iters);
		free(L->why);
		free(L->trip);
	}
	free(t->loops);
	epi_strv_free(t->sources, t->nsources);
	epi_strv_free(t->shown, t->nsources);
	epi_strv_free(t->notes, t->nnotes);
	epi_strv_free(t->path_names, t->npaths);
	epi_strv_free(t->path_reals, t->npaths);
	free(t->exe);
	memset(t, 0, sizeof *t);
}
