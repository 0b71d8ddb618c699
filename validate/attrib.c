/* attrib: instruction pointers to blocks (see attrib.h). */
#include "validate/attrib.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/util.h"
#include "predict/cfront.h"
#include "predict/objcode.h"
#include "validate/profile.h"

typedef struct seg {
	uint64_t vaddr, offset, filesz;
} seg;

/* A compile unit's or a function's addresses (DWARF addresses, [lo, hi))
 * and its DIE. */
typedef struct die_range {
	Dwarf_Addr lo, hi;
	Dwarf_Off die;
} die_range;

typedef struct object {
	char *path;
	Dwfl *d;
	Dwfl_Module *mod;
	GElf_Addr bias;       /* dwfl address = file vaddr + bias */
	/* its compile units by address, read when libdwfl finds no line for an
	 * address (a program without .debug_aranges, as clang builds them) */
	die_range *cus;
	int ncus, cus_read;
	/* its functions by address (the units' top-level subprograms), read
	 * when a sample's line is another file's than its unit's */
	die_range *fns;
	int nfns, fns_read;
	Dwarf *dw;
	Dwarf_Addr dwbias;    /* DWARF address = dwfl address - dwbias */
	seg *segs;
	int nsegs;
	int usable;           /* readable, and the same build as in the trace */
	unsigned char id[EPI_BUILDID_MAX];
	int idlen;
} object;

typedef struct live {
	uint64_t start, end;
	int obj;
	uint64_t bias;        /* file vaddr = ip - bias */
} live;

typedef struct source {
	char *path;
	epi_nest *nests;
	int n;
} source;

typedef struct centry {
	uint64_t addr;
	int obj;              /* -1: free */
	int block;
} centry;

struct epi_attrib {
	enum epi_by by;
	const char *const *clang_args;
	int nclang_args;
	object *o;
	int no;
	live *lv;
	int nlv;
	source *src;
	int nsrc;
	epi_block *b;
	int nb, capb;
	centry *cache;
	size_t cmask, cn;
	char *notes;
	int prog;             /* the program's object */
};

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

epi_attrib *epi_attrib_new(enum epi_by by, const char *const *clang_args, int nclang_args)
{
	epi_attrib *a = xcalloc(1, sizeof *a);
	a->by = by;
	a->clang_args = clang_args;
	a->nclang_args = nclang_args;
	a->cmask = 4095;
	a->cache = xmalloc((a->cmask + 1) * sizeof *a->cache);
	for (size_t i = 0; i <= a->cmask; i++)
		a->cache[i].obj = -1;
	a->notes = xstrdup("");
	a->prog = -1;
	return a;
}

void epi_attrib_free(epi_attrib *a)
{
	if (!a)
		return;
	for (int i = 0; i < a->no; i++) {
		if (a->o[i].d)
			dwfl_end(a->o[i].d);
		free(a->o[i].path);
		free(a->o[i].segs);
		free(a->o[i].cus);
		free(a->o[i].fns);
	}
	for (int i = 0; i < a->nsrc; i++) {
		free(a->src[i].path);
		epi_nests_free(a->src[i].nests, a->src[i].n);
	}
	for (int i = 0; i < a->nb; i++) {
		free(a->b[i].name);
		free(a->b[i].file);
		free(a->b[i].function);
		free(a->b[i].object);
	}
	free(a->o);
	free(a->lv);
	free(a->src);
	free(a->b);
	free(a->cache);
	free(a->notes);
	free(a);
}

static void note(epi_attrib *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(epi_attrib *a, const char *fmt, ...)
{
	char line[4400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	size_t l = strlen(a->notes);
	a->notes = xrealloc(a->notes, l + strlen(line) + 2);
	sprintf(a->notes + l, "%s\n", line);
}

/* Loads PATH's program headers and debug information (once per path). */
static int object_of(epi_attrib *a, const epi_map *m)
{
	for (int i = 0; i < a->no; i++)
		if (strcmp(a->o[i].path, m->path) == 0)
			return i;
	a->o = xrealloc(a->o, (size_t)(a->no + 1) * sizeof *a->o);
	object *o = &a->o[a->no];
	memset(o, 0, sizeof *o);
	o->path = xstrdup(m->path);
	o->idlen = epi_read_buildid(m->path, o->id);
	int same = m->buildid_len == 0 || (o->idlen == m->buildid_len && memcmp(o->id, m->buildid, (size_t)o->idlen) == 0);
	int fd = same ? open(m->path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		elf_version(EV_CURRENT);
		Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		size_t nph = 0;
		if (e && elf_getphdrnum(e, &nph) == 0) {
			o->segs = xcalloc(nph + 1, sizeof *o->segs);
			for (size_t i = 0; i < nph; i++) {
				GElf_Phdr ph;
				if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
					o->segs[o->nsegs++] = (seg){ph.p_vaddr, ph.p_offset, ph.p_filesz};
			}
		}
		if (e)
			elf_end(e);
		close(fd);
		o->d = dwfl_begin(&callbacks);
		o->mod = o->d ? dwfl_report_elf(o->d, m->path, m->path, -1, 0, false) : NULL;
		if (o->mod) {
			dwfl_report_end(o->d, NULL, NULL);
			Dwarf_Addr bias = 0;
			dwfl_module_getelf(o->mod, &bias);
			o->bias = bias;
			o->usable = o->nsegs > 0;
		}
	}
	if (!same && access(m->path, R_OK) != 0)
		note(a, "cannot read '%s' (%s): its samples are left unresolved", m->path, strerror(errno));
	else if (!same)
		note(a, "'%s' has changed since it was profiled (another build-id): its samples are left unresolved", m->path);
	else if (!o->usable)
		note(a, "cannot read '%s': its samples are left unresolved", m->path);
	return a->no++;
}

int epi_attrib_run(epi_attrib *a, const epi_map *maps, int nmaps, char *err)
{
	a->lv = xrealloc(a->lv, (size_t)(nmaps ? nmaps : 1) * sizeof *a->lv);
	a->nlv = 0;
	for (int i = 0; i < nmaps; i++) {
		const epi_map *m = &maps[i];
		int k = object_of(a, m);
		const object *o = &a->o[k];
		if (i == 0) {
			a->prog = k;
			if (m->buildid_len && access(m->path, R_OK) != 0)
				return epi_error(err, "cannot read '%s', the program the trace recorded: %s", m->path,
						 strerror(errno));
			if (m->buildid_len && (o->idlen != m->buildid_len || memcmp(o->id, m->buildid, (size_t)o->idlen) != 0)) {
				char was[2 * EPI_BUILDID_MAX + 1], now[2 * EPI_BUILDID_MAX + 1];
				epi_buildid_hex(m->buildid, m->buildid_len, was);
				epi_buildid_hex(o->id, o->idlen, now);
				return epi_error(err, "the trace is of another build of '%s' (build-id %s in the trace, %s now)",
						 m->path, was, o->idlen ? now : "unreadable");
			}
		}
		/* the segment that holds the mapped file offset gives the load bias */
		uint64_t bias = 0;
		int found = 0;
		for (int s = 0; s < o->nsegs && !found; s++) {
			const seg *g = &o->segs[s];
			uint64_t pg = g->offset & ~(uint64_t)0xfff;
			if (m->pgoff >= pg && m->pgoff < g->offset + g->filesz) {
				bias = m->start - m->pgoff - (g->vaddr - g->offset);
				found = 1;
			}
		}
		a->lv[a->nlv++] = (live){m->start, m->start + m->len, found ? k : -1, bias};
	}
	return 0;
}

static int add_block(epi_attrib *a, enum epi_block_kind kind, const char *file, const char *function,
		     const char *object, int line, int in_program)
{
	char name[4400];
	const char *obase = object ? strrchr(object, '/') : NULL;
	obase = obase ? obase + 1 : object ? object : "?";
	const char *fbase = file ? strrchr(file, '/') : NULL;
	fbase = fbase ? fbase + 1 : file;
	switch (kind) {
	case EPI_BLOCK_LOOP:
		snprintf(name, sizeof name, "%s:%d loop in %s", fbase, line, function);
		break;
	case EPI_BLOCK_LINE:
		snprintf(name, sizeof name, "%s:%d", fbase, line);
		break;
	case EPI_BLOCK_FUNCTION:
		if (in_program)
			snprintf(name, sizeof name, "%s", function);
		else
			snprintf(name, sizeof name, "%s (%s)", function, obase);
		break;
	default:
		snprintf(name, sizeof name, "[%s]", obase);
	}
	for (int i = 0; i < a->nb; i++)
		if (strcmp(a->b[i].name, name) == 0)
			return i;
	if (a->nb == a->capb) {
		a->capb = a->capb ? 2 * a->capb : 32;
		a->b = xrealloc(a->b, (size_t)a->capb * sizeof *a->b);
	}
	epi_block *b = &a->b[a->nb];
	memset(b, 0, sizeof *b);
	b->kind = kind;
	b->name = xstrdup(name);
	b->file = file ? xstrdup(file) : NULL;
	b->function = function ? xstrdup(function) : NULL;
	b->object = object ? xstrdup(object) : NULL;
	b->line = line;
	b->in_program = in_program;
	return a->nb++;
}

/* The loop nests of source file PATH (found once). */
static source *source_of(epi_attrib *a, const char *path)
{
	for (int i = 0; i < a->nsrc; i++)
		if (strcmp(a->src[i].path, path) == 0)
			return &a->src[i];
	a->src = xrealloc(a->src, (size_t)(a->nsrc + 1) * sizeof *a->src);
	source *s = &a->src[a->nsrc++];
	memset(s, 0, sizeof *s);
	s->path = xstrdup(path);
	char err[EPI_ERRLEN];
	epi_front_opts fo;
	epi_front_opts_init(&fo);
	fo.clang_args = a->clang_args;
	fo.nclang_args = a->nclang_args;
	if (epi_find_nests(path, &fo, &s->nests, &s->n, err) < 0)
		note(a, "%s: its lines are reported by function", err);
	else if (err[0]) /* what did not parse is reported by function */
		note(a, "%s: the nests this error hides are reported by function; give the compiler's flags after -- "
			"(-I, -D)", err);
	epi_front_opts_clear(&fo);
	return s;
}

static int by_lo(const void *x, const void *y)
{
	const die_range *a = x, *b = y;
	return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The address ranges of D (at offset OFF) into V (*N of them, *CAP room). */
static void push_ranges(Dwarf_Die *d, Dwarf_Off off, die_range **v, int *n, int *cap)
{
	Dwarf_Addr base, lo, hi;
	for (ptrdiff_t p = 0; (p = dwarf_ranges(d, p, &base, &lo, &hi)) > 0;) {
		ALLOC_GROW(*v, *n + 1, *cap);
		(*v)[(*n)++] = (die_range){lo, hi, off};
	}
}

/* O's compile units' ranges (FNS 0) or their top-level functions' (FNS 1)
 * into V (*N of them), by address. */
static void read_ranges(object *o, int fns, die_range **v, int *n)
{
	o->dw = dwfl_module_getdwarf(o->mod, &o->dwbias);
	Dwarf_Off off = 0, next;
	size_t hsize;
	int cap = 0;
	while (o->dw && dwarf_nextcu(o->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, d;
		if (dwarf_offdie(o->dw, off + hsize, &cu)) {
			if (!fns)
				push_ranges(&cu, off + hsize, v, n, &cap);
			else if (dwarf_child(&cu, &d) == 0)
				do
					if (dwarf_tag(&d) == DW_TAG_subprogram)
						push_ranges(&d, dwarf_dieoffset(&d), v, n, &cap);
				while (dwarf_siblingof(&d, &d) == 0);
		}
		off = next;
	}
	if (*n > 1)
		qsort(*v, (size_t)*n, sizeof **v, by_lo);
}

static void read_cus(object *o)
{
	o->cus_read = 1;
	read_ranges(o, 0, &o->cus, &o->ncus);
}

/* The range of V (N, by lo) that holds X, -1 none. */
static int range_at(const die_range *v, int n, Dwarf_Addr x)
{
	int lo = 0, hi = n; /* the last range starting at or before X */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (v[mid].lo <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && x < v[lo - 1].hi ? lo - 1 : -1;
}

/* The line of ADDR (a dwfl address) of O found through the compile unit
 * whose ranges hold it, with that unit into *CU; NULL when none does. */
static Dwarf_Line *line_by_cu(object *o, Dwarf_Addr addr, Dwarf_Die *cu)
{
	if (!o->cus_read)
		read_cus(o);
	Dwarf_Addr x = addr - o->dwbias;
	int k = range_at(o->cus, o->ncus, x);
	if (k < 0 || !dwarf_offdie(o->dw, o->cus[k].die, cu))
		return NULL;
	return dwarf_getsrc_die(cu, x);
}

static void read_fns(object *o)
{
	o->fns_read = 1;
	read_ranges(o, 1, &o->fns, &o->nfns);
}

/* The function of O whose code holds PC (a DWARF address) into *D: 0, or
 * -1 when none does. */
static int fn_at(object *o, Dwarf_Addr pc, Dwarf_Die *d)
{
	if (!o->fns_read)
		read_fns(o);
	int k = range_at(o->fns, o->nfns, pc);
	return k >= 0 && dwarf_offdie(o->dw, o->fns[k].die, d) ? 0 : -1;
}

/* NAME (a line table's or a DIE's file name) made absolute with the
 * compile unit's directory CD into BUF. */
static const char *absolute(const char *name, const char *cd, char *buf, size_t n)
{
	if (!name || name[0] == '/' || !cd)
		return name;
	snprintf(buf, n, "%s/%s", cd, name);
	return buf;
}

/* The compile unit of O holding ADDR (a dwfl address), into BUF when not
 * dwfl's own, and its bias into *BIAS; NULL when none does. */
static Dwarf_Die *unit_at(object *o, Dwarf_Addr addr, Dwarf_Die *buf, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(o->mod, addr, bias);
	if (cu)
		return cu;
	/* no .debug_aranges: the unit whose ranges hold it */
	if (!line_by_cu(o, addr, buf))
		return NULL;
	*bias = o->dwbias;
	return buf;
}

/* Code of another file's function inlined into a function of the program
 * (a header's static inline helper) stands, for the nests, on the line of
 * the call that brought it into the function's own file: the call site's
 * file and line into *FILE (BUF, N bytes) and *LINE, when the code at ADDR
 * (a dwfl address) of O whose innermost line is in SRC is such code;
 * otherwise 0 and nothing changed. */
static int inlined_site(object *o, Dwarf_Addr addr, const char *src, const char **file, int *line, char *buf, size_t n)
{
	Dwarf_Addr b = 0;
	Dwarf_Die cub, *cu = unit_at(o, addr, &cub, &b);
	Dwarf_Attribute at;
	if (!cu)
		return 0;
	Dwarf_Addr pc = addr - b;
	/* a line of the unit's own file: no other file's code (the walk
	 * below is for the others) */
	const char *cd = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &at));
	char ubuf[4096], ibuf[4096];
	const char *unit = absolute(dwarf_diename(cu), cd, ubuf, sizeof ubuf), *in = absolute(src, cd, ibuf, sizeof ibuf);
	if (unit && in && strcmp(unit, in) == 0)
		return 0;
	/* the concrete scopes that hold PC, outermost first: the function,
	 * then its blocks and the inlined calls in it (dwarf_getscopes follows
	 * an inlined call into its abstract origin instead) */
	Dwarf_Die chain[64], d;
	if (fn_at(o, pc, &chain[0]) < 0)
		return 0;
	int nc = 1, more = dwarf_child(&chain[0], &d) == 0;
	while (more) {
		int tag = dwarf_tag(&d), holds = (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block) &&
						 dwarf_haspc(&d, pc) == 1;
		if (holds && nc < 64) {
			chain[nc++] = d;
			more = dwarf_child(&chain[nc - 1], &d) == 0;
		} else {
			more = dwarf_siblingof(&d, &d) == 0;
		}
	}
	Dwarf_Files *files;
	size_t nf;
	Dwarf_Word df;
	if (dwarf_getsrcfiles(cu, &files, &nf) != 0 ||
	    dwarf_formudata(dwarf_attr_integrate(&chain[0], DW_AT_decl_file, &at), &df) != 0 || df >= nf)
		return 0;
	/* the file by its index (DWARF 5 numbers the unit's own file 0,
	 * which dwarf_decl_file does not take in every libdw) */
	char fbuf[4096];
	const char *own = absolute(dwarf_filesrc(files, df, NULL, NULL), cd, fbuf, sizeof fbuf);
	if (!own || !in || strcmp(own, in) == 0)
		return 0;
	/* the innermost call made in the function's own file */
	for (int i = nc - 1; i > 0; i--) {
		Dwarf_Word fi, cl;
		if (dwarf_tag(&chain[i]) != DW_TAG_inlined_subroutine ||
		    dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_file, &at), &fi) != 0 || fi >= nf ||
		    dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_line, &at), &cl) != 0 || cl == 0 || cl > INT_MAX)
			continue;
		char cbuf[4096];
		const char *call = absolute(dwarf_filesrc(files, fi, NULL, NULL), cd, cbuf, sizeof cbuf);
		if (call && strcmp(call, own) == 0) {
			snprintf(buf, n, "%s", call);
			*file = buf;
			*line = (int)cl;
			return 1;
		}
	}
	return 0;
}

/* Code the compiler made stands on line 0 (clang's latch of an unrolled
 * loop, the head of its copy): it takes the line of the code before it in
 * the same function FN, from the line table of the unit that holds ADDR
 * (a dwfl address) of O, into *LINE and *SRC; both unchanged when there
 * is none. */
static void line_before(object *o, Dwarf_Addr addr, const char *fn, int *line, const char **src)
{
	Dwarf_Addr b = 0;
	Dwarf_Die cub, *cu = unit_at(o, addr, &cub, &b);
	if (!cu)
		return;
	Dwarf_Lines *lines;
	size_t n;
	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return;
	Dwarf_Addr x = addr - b;
	size_t lo = 0, hi = n; /* the rows at or before X (sorted by address) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		Dwarf_Addr at;
		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &at) != 0)
			return;
		if (at <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && lo - i <= 64;) {
		Dwarf_Line *r = dwarf_onesrcline(lines, i);
		Dwarf_Addr at;
		int ln;
		bool end;
		const char *f, *s;
		if (dwarf_lineaddr(r, &at) != 0 || dwarf_lineno(r, &ln) != 0 || dwarf_lineendsequence(r, &end) != 0 ||
		    (end && i + 1 < lo) || !(f = dwfl_module_addrname(o->mod, at + b)) || strcmp(f, fn) != 0)
			return;
		if (ln > 0 && !end && (s = dwarf_linesrc(r, NULL, NULL))) {
			*line = ln;
			*src = s;
			return;
		}
	}
}

static int resolve(epi_attrib *a, int k, uint64_t vaddr)
{
	object *o = &a->o[k];
	int prog = k == a->prog;
	if (!o->usable)
		return add_block(a, EPI_BLOCK_OBJECT, NULL, NULL, o->path, 0, prog);
	Dwarf_Addr addr = vaddr + o->bias;
	const char *fn = dwfl_module_addrname(o->mod, addr);
	const char *src = NULL;
	int line = 0;
	Dwfl_Line *l = dwfl_module_getsrc(o->mod, addr);
	char full[4096];
	const char *cd = NULL;
	if (l) {
		src = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
		cd = src && src[0] != '/' ? dwfl_line_comp_dir(l) : NULL;
	} else {
		Dwarf_Die cu;
		Dwarf_Attribute at;
		Dwarf_Line *dl = line_by_cu(o, addr, &cu);
		if (dl && (src = dwarf_linesrc(dl, NULL, NULL)) && dwarf_lineno(dl, &line) == 0 && src[0] != '/')
			cd = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));
	}
	if (src && line == 0 && fn)
		line_before(o, addr, fn, &line, &src);
	if (src && src[0] != '/' && cd) { /* relative to where it was compiled */
		snprintf(full, sizeof full, "%s/%s", cd, src);
		src = full;
	}
	if (!fn && !src)
		return add_block(a, EPI_BLOCK_OBJECT, NULL, NULL, o->path, 0, prog);
	if (a->by == EPI_BY_LINE && src)
		return add_block(a, EPI_BLOCK_LINE, src, fn, o->path, line, prog);
	if (a->by == EPI_BY_LOOP && src && prog) {
		char site[4096];
		inlined_site(o, addr, src, &src, &line, site, sizeof site);
		source *s = source_of(a, src);
		for (int i = 0; i < s->n; i++)
			if (line >= s->nests[i].line && line <= s->nests[i].end_line)
				return add_block(a, EPI_BLOCK_LOOP, src, s->nests[i].function, o->path, s->nests[i].line, 1);
	}
	return add_block(a, EPI_BLOCK_FUNCTION, src, fn ? fn : "?", o->path, 0, prog);
}

static size_t slot(uint64_t addr, int obj, size_t mask)
{
	uint64_t h = (addr ^ ((uint64_t)obj << 48)) * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 20) & mask;
}

int epi_attrib_ip(epi_attrib *a, uint64_t ip)
{
	int k = -1;
	uint64_t vaddr = ip;
	for (int i = 0; i < a->nlv; i++)
		if (ip >= a->lv[i].start && ip < a->lv[i].end) {
			k = a->lv[i].obj;
			vaddr = ip - a->lv[i].bias;
			break;
		}
	if (k < 0)
		return add_block(a, EPI_BLOCK_OBJECT, NULL, NULL, "unknown", 0, 0);
	size_t i = slot(vaddr, k, a->cmask);
	while (a->cache[i].obj >= 0) {
		if (a->cache[i].obj == k && a->cache[i].addr == vaddr)
			return a->cache[i].block;
		i = (i + 1) & a->cmask;
	}
	int b = resolve(a, k, vaddr);
	a->cache[i] = (centry){vaddr, k, b};
	if (2 * ++a->cn > a->cmask) {
		centry *old = a->cache;
		size_t om = a->cmask;
		a->cmask = 2 * om + 1;
		a->cache = xmalloc((a->cmask + 1) * sizeof *a->cache);
		for (size_t j = 0; j <= a->cmask; j++)
			a->cache[j].obj = -1;
		for (size_t j = 0; j <= om; j++) {
			if (old[j].obj < 0)
				continue;
			size_t t = slot(old[j].addr, old[j].obj, a->cmask);
			while (a->cache[t].obj >= 0)
				t = (t + 1) & a->cmask;
			a->cache[t] = old[j];
		}
		free(old);
	}
	return b;
}

epi_block *epi_attrib_blocks(epi_attrib *a, int *n)
{
	*n = a->nb;
	return a->b;
}

const char *epi_attrib_notes(epi_attrib *a) { return a->notes; }

const char *epi_attrib_program(const epi_attrib *a) { return a->prog >= 0 ? a->o[a->prog].path : NULL; }

typedef struct decl_find {
	const char *file, *function;
	int line;
} decl_find;

static int decl_visit(Dwarf_Die *cu, const char *dir, Dwarf_Die *d, const char *name, const char *df, void *ctx)
{
	(void)cu;
	decl_find *q = ctx;
	int line = 0;
	if (!df || strcmp(name, q->function) != 0 || dwarf_decl_line(d, &line) != 0)
		return 0;
	if (!epi_same_source(df, dir, q->file))
		return 0;
	q->line = line;
	return 1;
}

int epi_attrib_decl_line(epi_attrib *a, const char *file, const char *function)
{
	if (a->prog < 0 || !a->o[a->prog].usable)
		return -1;
	decl_find q = {.file = file, .function = function};
	int r = epi_dwarf_functions(a->o[a->prog].mod, decl_visit, &q);
	return r < 0 ? -1 : r ? q.line : 0;
}
