/* objcode: a program's machine code read for pricing (see objcode.h). */
#include "predict/objcode.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/util.h"
#include "predict/mflow.h"

const char *epi_machine_name(int m)
{
	switch (m) {
	case EM_X86_64: return "x86-64";
	case EM_AARCH64: return "aarch64";
	case EM_386: return "i386";
	case EM_ARM: return "arm";
	case EM_RISCV: return "riscv";
	case EM_PPC64: return "ppc64";
	case EM_S390: return "s390";
	default: return "unknown";
	}
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

int epi_same_file(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	if (realpath(a, ra) && realpath(b, rb))
		return strcmp(ra, rb) == 0;
	const char *x = strrchr(a, '/'), *y = strrchr(b, '/');
	return strcmp(x ? x + 1 : a, y ? y + 1 : b) == 0;
}

int epi_same_source(const char *name, const char *dir, const char *source)
{
	char full[PATH_MAX];
	if (name[0] != '/' && dir)
		snprintf(full, sizeof full, "%s/%s", dir, name);
	else
		snprintf(full, sizeof full, "%s", name);
	return epi_same_file(full, source);
}

/* The folder of PATH (absolute, or relative to DIR when not NULL) into
 * OUT (N bytes); 0 when it has none. */
static int folder_of(const char *path, const char *dir, char *out, size_t n)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return path[0] && dir ? snprintf(out, n, "%s", dir) < (int)n : 0;
	int len = (int)(slash - path);
	int w = path[0] == '/' || !dir ? snprintf(out, n, "%.*s", len ? len : 1, path)
				       : snprintf(out, n, "%s/%.*s", dir, len, path);
	return w > 0 && w < (int)n;
}

/* Adds folder DIR (a path as written) to *DIRS (*N of them) by its real
 * path, unless under /usr/, OWN (SOURCE's real folder) or there already. */
static void add_folder(const char *dir, const char *own, char ***dirs, int *n)
{
	char real[PATH_MAX];
	if (strncmp(dir, "/usr/", 5) == 0 || !realpath(dir, real) || strncmp(real, "/usr/", 5) == 0 ||
	    strcmp(real, own) == 0)
		return;
	for (int k = 0; k < *n; k++)
		if (strcmp((*dirs)[k], real) == 0)
			return;
	*dirs = xrealloc(*dirs, (size_t)(*n + 1) * sizeof **dirs);
	(*dirs)[(*n)++] = xstrdup(real);
}

int epi_object_include_dirs(const char *path, const char *source, char ***dirs, int *beside)
{
	*dirs = NULL;
	/* through libdwfl, which relocates an object's debug information */
	Dwfl *d = dwfl_begin(&callbacks);
	Dwfl_Module *mod = d ? dwfl_report_elf(d, path, path, -1, 0, false) : NULL;
	Dwarf_Addr bias;
	Dwarf *dw = mod && dwfl_report_end(d, NULL, NULL) == 0 ? dwfl_module_getdwarf(mod, &bias) : NULL;
	char own[PATH_MAX], real_own[PATH_MAX];
	if (!folder_of(source, ".", own, sizeof own) || !realpath(own, real_own))
		real_own[0] = 0;
	int n = 0;
	/* the files SOURCE's units include, then the folders of the
	 * program's other sources (a header beside them that no debug
	 * information names: clang -O0 names none it only declares from) */
	for (int others = 0; others < 2; others++) {
		Dwarf_Off off = 0, next;
		size_t hsize;
		int had = n;
		while (dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
			Dwarf_Die cu;
			Dwarf_Attribute at;
			Dwarf_Files *files;
			size_t nfiles;
			int ok = dwarf_offdie(dw, off + hsize, &cu) != NULL;
			off = next;
			const char *name = ok ? dwarf_diename(&cu) : NULL;
			const char *comp = ok ? dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at)) : NULL;
			char dir[PATH_MAX];
			if (!name || epi_same_source(name, comp, source) != !others)
				continue;
			if (others) {
				if (name[0] != '<' && folder_of(name, comp, dir, sizeof dir))
					add_folder(dir, real_own, dirs, &n);
				continue;
			}
			if (dwarf_getsrcfiles(&cu, &files, &nfiles) != 0)
				continue;
			for (size_t i = 0; i < nfiles; i++) {
				const char *f = dwarf_filesrc(files, i, NULL, NULL), *base = f ? strrchr(f, '/') : NULL;
				/* not a file: <built-in>, <command-line> */
				if (f && (base ? base[1] : f[0]) != '<' && folder_of(f, comp, dir, sizeof dir))
					add_folder(dir, real_own, dirs, &n);
			}
		}
		if (others)
			*beside = n - had;
	}
	if (d)
		dwfl_end(d);
	return n;
}

/* The bytes of E's zero-initialised data (.bss, not thread-local): memory
 * the kernel gives on first touch, as it gives what malloc maps. */
static double bss_bytes(Elf *e)
{
	double n = 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOBITS && (sh.sh_flags & SHF_ALLOC) &&
		    (sh.sh_flags & SHF_WRITE) && !(sh.sh_flags & SHF_TLS))
			n += (double)sh.sh_size;
	}
	return n;
}

/* The bytes of E's executable sections. */
static uint64_t code_bytes(Elf *e)
{
	uint64_t n = 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) && sh.sh_type == SHT_PROGBITS)
			n += sh.sh_size;
	}
	return n;
}

/* The bytes of the executable section holding [lo, hi) in ELF E, or NULL. */
static const uint8_t *code_at(Elf *e, GElf_Addr lo, GElf_Addr hi)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS)
			continue;
		if (lo < sh.sh_addr || hi > sh.sh_addr + sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size < sh.sh_size)
			return NULL;
		return (const uint8_t *)d->d_buf + (lo - sh.sh_addr);
	}
	return NULL;
}

typedef struct reader {
	epi_object *o;
	epi_isa *isa;
	Elf *elf;
	int rel;          /* an object file (ET_REL): calls name their callees by relocations */
	int capin, capfn;
	/* the last DWARF file name seen and whether it is the source */
	const char *last_name;
	int last_same;
	int capcalls, capinl;
	char *built_from; /* the files the program's functions come from, for the error */
	size_t built_len;
	int built_here;   /* a unit of the program was compiled from the source */
	int capempty;
	uint64_t bytes;   /* the code of the functions read */
	struct fjob *jobs; /* the functions to read, in the order DWARF lists them */
	int njobs, capjobs;
} reader;

/* E's function symbols (and indirect functions') one by one: the next
 * into *SYM and *NAME (named ones only) from where IT is (zeroed to
 * start); 0 when there is none left. */
typedef struct fsym_iter {
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t i;
} fsym_iter;

static int next_fsym(Elf *e, fsym_iter *it, GElf_Sym *sym, const char **name)
{
	for (;;) {
		while (!it->d || it->i >= it->sh.sh_size / it->sh.sh_entsize) {
			if (!(it->scn = elf_nextscn(e, it->scn)))
				return 0;
			it->d = NULL;
			it->i = 0;
			if (gelf_getshdr(it->scn, &it->sh) && it->sh.sh_type == SHT_SYMTAB && it->sh.sh_entsize)
				it->d = elf_getdata(it->scn, NULL);
		}
		int t;
		if (gelf_getsym(it->d, (int)it->i++, sym) &&
		    ((t = GELF_ST_TYPE(sym->st_info)) == STT_FUNC || t == STT_GNU_IFUNC) &&
		    (*name = elf_strptr(e, it->sh.sh_link, sym->st_name)) && (*name)[0])
			return 1;
	}
}

/* The name of the function (or indirect function) of E's symbol table
 * at ADDR, or NULL: of the names there, a global one before a local, the
 * shortest (memcpy, not __new_memcpy, at the same resolver). */
static const char *symbol_at(Elf *e, GElf_Addr addr)
{
	const char *best = NULL, *name;
	int best_global = 0;
	fsym_iter it = {0};
	GElf_Sym sym;
	while (next_fsym(e, &it, &sym, &name)) {
		if (sym.st_value != addr)
			continue;
		int global = GELF_ST_BIND(sym.st_info) != STB_LOCAL;
		if (!best || global > best_global || (global == best_global && strlen(name) < strlen(best))) {
			best = name;
			best_global = global;
		}
	}
	return best;
}

/* The name of the symbol of the first relocation of E that patches
 * [LO, HI) of section SCN (any section: 0), or NULL. In a program, the
 * symbol whose address the dynamic linker writes to a slot of the global
 * offset table (JUMP_SLOT, GLOB_DAT); in an object file, the callee that a
 * call's relocation names. */
static const char *reloc_name(Elf *e, size_t scn_index, GElf_Addr lo, GElf_Addr hi)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh, ssh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    (scn_index && sh.sh_info != scn_index))
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela ra;
			GElf_Sym sym;
			if (!gelf_getrela(d, (int)i, &ra) || ra.r_offset < lo || ra.r_offset >= hi)
				continue;
			/* no symbol: an IRELATIVE slot (a static program's memcpy),
			 * filled by the resolver at the addend */
			if (!GELF_R_SYM(ra.r_info))
				return ra.r_addend > 0 ? symbol_at(e, (GElf_Addr)ra.r_addend) : NULL;
			Elf_Scn *symscn = sh.sh_link ? elf_getscn(e, sh.sh_link) : NULL;
			Elf_Data *sd = symscn ? elf_getdata(symscn, NULL) : NULL;
			if (!sd || !gelf_getshdr(symscn, &ssh) || !gelf_getsym(sd, (int)GELF_R_SYM(ra.r_info), &sym))
				return NULL;
			return elf_strptr(e, ssh.sh_link, sym.st_name);
		}
	}
	return NULL;
}

/* The section of E whose addresses hold ADDR, with its header, or NULL. */
static Elf_Scn *section_at(Elf *e, GElf_Addr addr, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, sh) && (sh->sh_flags & SHF_ALLOC) && addr >= sh->sh_addr &&
		    addr < sh->sh_addr + sh->sh_size)
			return scn;
	return NULL;
}

/* The function whose address fills the global offset table's SLOT. */
static const char *got_slot(Elf *e, GElf_Addr slot)
{
	return reloc_name(e, 0, slot, slot + 1);
}

/* The bytes of E's procedure linkage table from ADDR to the table's end,
 * into *N; NULL when ADDR is in no such table. */
static const uint8_t *plt_at(Elf *e, GElf_Addr addr, size_t *n)
{
	size_t shstr;
	GElf_Shdr sh;
	Elf_Scn *scn = section_at(e, addr, &sh);
	if (!scn || elf_getshdrstrndx(e, &shstr) != 0 || sh.sh_type != SHT_PROGBITS)
		return NULL;
	const char *name = elf_strptr(e, shstr, sh.sh_name);
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!name || strncmp(name, ".plt", 4) != 0 || !d || !d->d_buf || d->d_size < sh.sh_size)
		return NULL;
	*n = sh.sh_size - (addr - sh.sh_addr);
	return (const uint8_t *)d->d_buf + (addr - sh.sh_addr);
}

/* The name of the function that call IN reaches: in an object file, the
 * symbol its relocation names; in a program, through the global offset
 * table: directly (call *slot(%rip), -fno-plt) or through a PLT stub, read
 * as far as its jump (x86-64: jmp *slot(%rip); aarch64: adrp x16, page;
 * ldr x17, [x16, #off]; ...; br x17). NULL when not known. */
static const char *callee_name(reader *r, const epi_insn *in)
{
	if (r->rel) {
		GElf_Shdr sh;
		Elf_Scn *text = section_at(r->elf, in->addr, &sh);
		if (!text)
			return NULL;
		GElf_Addr off = in->addr - sh.sh_addr;
		return reloc_name(r->elf, elf_ndxscn(text), off, off + in->size);
	}
	if (!in->direct)
		return in->loads && !in->base && !in->index ? got_slot(r->elf, (GElf_Addr)in->disp) : NULL;
	size_t n;
	const uint8_t *code = plt_at(r->elf, in->target, &n);
	uint64_t a = in->target, page = 0;
	unsigned page_reg = 0;
	for (int k = 0; code && k < 4; k++) {
		epi_insn x;
		size_t sz = epi_isa_decode(r->isa, code, n, a, &x);
		if (!sz)
			return NULL;
		if (x.aop == EPI_AOP_ADRP && x.nop == 2 && x.op[1].kind == EPI_OPND_IMM) {
			page_reg = x.op[0].reg;
			page = (uint64_t)x.op[1].imm;
		} else if (x.loads && !x.index && (!x.base || (page_reg && x.base == page_reg))) {
			return got_slot(r->elf, (GElf_Addr)((x.base ? page : 0) + (uint64_t)x.disp));
		} else if (x.klass == EPI_IC_BRANCH || x.klass == EPI_IC_RET) {
			return NULL;
		}
		a += sz;
		code += sz;
		n -= sz;
	}
	return NULL;
}

/* Adds a call of CALLEE on LINE to O's: instruction AT's, or (-1) an
 * inlined copy. */
static void add_call(epi_object *o, int line, const char *callee, int at, int *cap)
{
	ALLOC_GROW(o->calls, o->ncalls + 1, *cap);
	o->calls[o->ncalls++] = (epi_call_site){line, callee ? xstrdup(callee) : NULL, at < 0, at, 0};
}

/* A relocation of an object file's code: the address it patches and the
 * symbol it names ("" for a section's). */
typedef struct code_rel {
	GElf_Addr at;
	const char *name;
} code_rel;

static int rel_cmp(const void *a, const void *b)
{
	const code_rel *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* E's relocations of executable sections, by address, into *N. */
static code_rel *code_relocs(Elf *e, int *n)
{
	code_rel *v = NULL;
	int cap = 0;
	*n = 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh, th, ssh;
		Elf_Scn *to, *symscn;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    !(to = elf_getscn(e, sh.sh_info)) || !gelf_getshdr(to, &th) || !(th.sh_flags & SHF_EXECINSTR) ||
		    !(symscn = elf_getscn(e, sh.sh_link)) || !gelf_getshdr(symscn, &ssh))
			continue;
		Elf_Data *d = elf_getdata(scn, NULL), *sd = elf_getdata(symscn, NULL);
		for (size_t i = 0; d && sd && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela ra;
			GElf_Sym sym;
			if (!gelf_getrela(d, (int)i, &ra) || !gelf_getsym(sd, (int)GELF_R_SYM(ra.r_info), &sym))
				continue;
			const char *name = elf_strptr(e, ssh.sh_link, sym.st_name);
			ALLOC_GROW(v, *n + 1, cap);
			v[(*n)++] = (code_rel){th.sh_addr + ra.r_offset, name ? name : ""};
		}
	}
	if (*n > 1)
		qsort(v, (size_t)*n, sizeof *v, rel_cmp);
	return v;
}

typedef struct fn_start {
	uint64_t addr;
	int fn;
} fn_start;

static int start_addr_cmp(const void *a, const void *b)
{
	const fn_start *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The function whose first instruction is at ADDR in S (N of them), -1. */
static int fn_at(const fn_start *s, int n, uint64_t addr)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int m = lo + (hi - lo) / 2;
		if (s[m].addr < addr)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < n && s[lo].addr == addr ? s[lo].fn : -1;
}

/* O's calls' order: by callee (an unknown one first), then line. */
static int call_cmp(const void *a, const void *b)
{
	const epi_call_site *x = a, *y = b;
	int c = strcmp(x->callee ? x->callee : "", y->callee ? y->callee : "");
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* O's functions whose code is another's: identical functions merged at
 * one address (by a linker's identical code folding). ST: the functions
 * by address. */
static void merged_functions(epi_object *o, const fn_start *st)
{
	for (int f = 0; f < o->nfn; f++)
		o->fn[f].alias = -1;
	for (int k = 1; k < o->nfn; k++)
		if (o->fn[st[k].fn].n && st[k].addr == st[k - 1].addr) {
			o->fn[st[k].fn].alias = st[k - 1].fn;
			if (o->fn[st[k - 1].fn].alias < 0)
				o->fn[st[k - 1].fn].alias = st[k].fn;
		}
}

/* The calls that O's code makes to the source's functions, into its calls
 * (an object file's callees from their relocations, when they have one;
 * a call whose callee is not known with none), R reading it. */
static void code_calls(reader *r)
{
	epi_object *o = r->o;
	fn_start *st = xmalloc(((size_t)o->nfn + 1) * sizeof *st);
	for (int f = 0; f < o->nfn; f++)
		st[f] = (fn_start){o->fn[f].n ? o->in[o->fn[f].first].addr : 0, f};
	qsort(st, (size_t)o->nfn, sizeof *st, start_addr_cmp);
	merged_functions(o, st);
	int nrel = 0;
	code_rel *rel = r->rel ? code_relocs(r->elf, &nrel) : NULL;
	for (int f = 0; f < o->nfn; f++) {
		const epi_mfn *fn = &o->fn[f];
		if (!fn->n)
			continue;
		uint64_t lo = o->in[fn->first].addr, hi = o->in[fn->first + fn->n - 1].addr + o->in[fn->first + fn->n - 1].size;
		for (int i = fn->first; i < fn->first + fn->n; i++) {
			const epi_insn *in = &o->in[i];
			int call = in->klass == EPI_IC_CALL;
			/* a jump out of the function (a tail call), or, unrelocated
			 * in an object file, to the next instruction */
			int jump = in->klass == EPI_IC_BRANCH && in->direct &&
				   (in->target < lo || in->target >= hi || (rel && in->target == in->addr + in->size));
			if (!call && !jump)
				continue;
			const char *name = NULL;
			int known = 0;
			if (rel) {
				int a = 0, b = nrel;
				while (a < b) {
					int m = a + (b - a) / 2;
					if (rel[m].at < in->addr)
						a = m + 1;
					else
						b = m;
				}
				if (a < nrel && rel[a].at < in->addr + in->size) {
					name = rel[a].name[0] ? rel[a].name : NULL; /* a section's: not known */
					known = name != NULL;
					if (!name && !call)
						continue; /* a jump within the section: no call */
				}
			}
			if (!known && in->direct) {
				int g = fn_at(st, o->nfn, in->target);
				/* else a program's call through its procedure linkage
				 * table (a shared object's calls of its own global
				 * functions): the function the table's slot names */
				name = g >= 0 ? o->fn[g].name : rel ? NULL : callee_name(r, in);
				if (!name && jump)
					continue; /* a jump elsewhere: its function's other part */
			}
			/* a compiler's copy of a function is named after it:
			 * f.constprop.0, f.isra.0, f.part.0, f.llvm.123 */
			char base[256];
			if (name && strchr(name, '.') && name[0] != '.') {
				snprintf(base, sizeof base, "%.*s", (int)(strchr(name, '.') - name), name);
				name = base;
			}
			add_call(o, o->line[i], name, i, &r->capcalls);
		}
	}
	free(rel);
	free(st);
	if (o->ncalls > 1)
		qsort(o->calls, (size_t)o->ncalls, sizeof *o->calls, call_cmp);
}

/* O's functions by name and by the address they start at, to tell the
 * calls that reach none of them. */
typedef struct fn_index {
	const char **name;
	uint64_t *start;
	int n, nstart;
} fn_index;

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void fn_index_build(fn_index *x, const epi_object *o)
{
	x->n = o->nfn;
	x->nstart = 0;
	x->name = xmalloc(((size_t)o->nfn + 1) * sizeof *x->name);
	x->start = xmalloc(((size_t)o->nfn + 1) * sizeof *x->start);
	for (int f = 0; f < o->nfn; f++) {
		x->name[f] = o->fn[f].name;
		if (o->fn[f].n > 0)
			x->start[x->nstart++] = o->in[o->fn[f].first].addr;
	}
	qsort(x->name, (size_t)x->n, sizeof *x->name, str_cmp);
	qsort(x->start, (size_t)x->nstart, sizeof *x->start, u64_cmp);
}

/* Whether the call IN to NAME reaches code of O (indexed in X): a direct
 * call to where one of its functions starts, or a function of that name. */
static int defined_here(const fn_index *x, const epi_insn *in, const char *name)
{
	return bsearch(&name, x->name, (size_t)x->n, sizeof *x->name, str_cmp) ||
	       (in->direct && bsearch(&in->target, x->start, (size_t)x->nstart, sizeof *x->start, u64_cmp));
}

/* O's call of NAME on LINE (the pairs made unique by ext_sort). */
static void add_ext(epi_object *o, int line, const char *name, int *cap)
{
	ALLOC_GROW(o->ext, o->next + 1, *cap);
	o->ext[o->next++] = (epi_call_site){.line = line, .callee = xstrdup(name), .at = -1};
}

static int ext_cmp(const void *a, const void *b)
{
	const epi_call_site *x = a, *y = b;
	return x->line != y->line ? (x->line > y->line) - (x->line < y->line) : strcmp(x->callee, y->callee);
}

/* O's calls out, by line then callee, each pair once. */
static void ext_sort(epi_object *o)
{
	if (o->next > 1)
		qsort(o->ext, (size_t)o->next, sizeof *o->ext, ext_cmp);
	int k = 0;
	for (int i = 0; i < o->next; i++) {
		if (k > 0 && !ext_cmp(&o->ext[k - 1], &o->ext[i])) {
			free(o->ext[i].callee);
			continue;
		}
		o->ext[k++] = o->ext[i];
	}
	o->next = k;
}

/* Whether NAME returns its first argument (the destination it writes):
 * code may go on addressing that memory through the call's result. */
static int returns_arg0(const char *name)
{
	static const char *const f[] = {"memcpy",	 "memmove",	  "memset",	  "strcpy",	 "strncpy",
					"strcat",	 "strncat",	  "wmemcpy",	  "wmemmove",	 "wmemset",
					"__memcpy_chk", "__memmove_chk", "__memset_chk", "__strcpy_chk", "__strcat_chk",
					NULL};
	for (int i = 0; name && f[i]; i++)
		if (!strcmp(name, f[i]))
			return 1;
	return 0;
}

static void note_built_from(reader *r, const char *name)
{
	const char *b = strrchr(name, '/');
	b = b ? b + 1 : name;
	if (r->built_from && strstr(r->built_from, b))
		return;
	if (r->built_len > 200)
		return;
	size_t n = strlen(b) + 3, at = r->built_len;
	r->built_from = xrealloc(r->built_from, r->built_len + n + 1);
	r->built_len += (size_t)snprintf(r->built_from + r->built_len, n + 1, "%s%s", r->built_len ? ", " : "", b);
	/* the name goes into a one-line message: no control characters from
	 * damaged debug information */
	for (size_t i = at; i < r->built_len; i++)
		if ((unsigned char)r->built_from[i] < 0x20 || r->built_from[i] == 0x7f)
			r->built_from[i] = '?';
}

/* Whether the DWARF file NAME (relative to DIR) is the source. */
static int is_source(reader *r, const char *name, const char *dir)
{
	if (name != r->last_name) {
		r->last_name = name;
		r->last_same = epi_same_source(name, dir, r->o->source);
	}
	return r->last_same;
}

/* The line in the source of the instruction at ADDR of CU, 0 elsewhere
 * (its line in the file it is from into *XLINE then, else 0); its column
 * there into *COL (0: none, or beyond what it holds). */
static int line_at(reader *r, Dwarf_Die *cu, const char *dir, Dwarf_Addr addr, int *xline, uint16_t *col)
{
	Dwarf_Line *l = dwarf_getsrc_die(cu, addr);
	int line = 0, c = 0;
	*xline = 0;
	*col = 0;
	if (!l || dwarf_lineno(l, &line) != 0)
		return 0;
	const char *name = dwarf_linesrc(l, NULL, NULL);
	if (name && is_source(r, name, dir)) {
		if (dwarf_linecol(l, &c) == 0 && c > 0 && c <= UINT16_MAX)
			*col = (uint16_t)c;
		return line;
	}
	*xline = line;
	return 0;
}

/* The functions inlined into D (of CU, in directory DIR), at any depth,
 * into the object's calls, on the line of the source they were called on
 * (0 elsewhere). */
static void inlined_calls(reader *r, Dwarf_Die *cu, const char *dir, Dwarf_Die *d, int depth)
{
	Dwarf_Die c;
	if (dwarf_child(d, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		if (tag == DW_TAG_inlined_subroutine) {
			Dwarf_Attribute at;
			Dwarf_Word fi, line = 0;
			Dwarf_Files *files;
			size_t nf;
			const char *name = dwarf_diename(&c), *file = NULL;
			if (dwarf_formudata(dwarf_attr(&c, DW_AT_call_file, &at), &fi) == 0 &&
			    dwarf_getsrcfiles(cu, &files, &nf) == 0 && fi < nf)
				file = dwarf_filesrc(files, fi, NULL, NULL);
			if (dwarf_formudata(dwarf_attr(&c, DW_AT_call_line, &at), &line) != 0 || !file ||
			    !is_source(r, file, dir) || line > INT_MAX)
				line = 0;
			if (name)
				add_call(r->o, (int)line, name, -1, &r->capcalls);
			Dwarf_Addr base, lo, hi;
			for (ptrdiff_t p = 0; name && line > 0 && (p = dwarf_ranges(&c, p, &base, &lo, &hi)) > 0;) {
				epi_object *o = r->o;
				ALLOC_GROW(o->inl, o->ninl + 1, r->capinl);
				o->inl[o->ninl++] = (epi_inlined_range){lo, hi, (int)line, depth, xstrdup(name)};
			}
		}
		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block)
			inlined_calls(r, cu, dir, &c, depth + (tag == DW_TAG_inlined_subroutine));
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* Room for N instructions in the object's per-instruction arrays. */
static void reserve(reader *r, int n)
{
	epi_object *o = r->o;
	int had = r->capin;
	ALLOC_GROW(o->in, n, r->capin);
	if (r->capin != had) {
		o->line = xrealloc(o->line, r->capin * sizeof *o->line);
		o->xline = xrealloc(o->xline, r->capin * sizeof *o->xline);
		o->col = xrealloc(o->col, r->capin * sizeof *o->col);
		o->frame = xrealloc(o->frame, r->capin * sizeof *o->frame);
		o->vdst = xrealloc(o->vdst, r->capin * sizeof *o->vdst);
	}
}

/* A function to read: where its code is, and, once decoded (on any
 * thread), its instructions with their registers as full registers. */
typedef struct fjob {
	Dwarf_Die cu;
	const char *dir;
	char *name;
	int decl;
	Dwarf_Addr lo, hi;
	const uint8_t *code;
	epi_insn *in;
	unsigned char *vdst, *frame;
	int n, cap, nother;
	atomic_int done;
} fjob;

/* Decodes J with ISA. */
static void decode_job(epi_isa *isa, fjob *j)
{
	j->cap = (int)((j->hi - j->lo) / 3) + 8;
	j->in = xmalloc((size_t)j->cap * sizeof *j->in);
	j->vdst = xmalloc((size_t)j->cap);
	j->frame = xmalloc((size_t)j->cap);
	for (Dwarf_Addr a = j->lo; a < j->hi;) {
		if (j->n == j->cap) {
			j->cap *= 2;
			j->in = xrealloc(j->in, (size_t)j->cap * sizeof *j->in);
			j->vdst = xrealloc(j->vdst, (size_t)j->cap);
			j->frame = xrealloc(j->frame, (size_t)j->cap);
		}
		epi_insn *in = &j->in[j->n];
		size_t sz = epi_isa_decode(isa, j->code + (a - j->lo), j->hi - a, a, in);
		if (sz == 0)
			sz = 1;
		for (int k = 0; k < in->nrd; k++)
			in->rd[k] = (uint16_t)epi_isa_reg_full(isa, in->rd[k]);
		/* an index of 32 bits (aarch64's [x2, w7, sxtw #2]) is its register's */
		in->base = (uint16_t)(in->base ? epi_isa_reg_full(isa, in->base) : 0);
		in->index = (uint16_t)(in->index ? epi_isa_reg_full(isa, in->index) : 0);
		j->vdst[j->n] = 0;
		for (int k = 0; k < in->nwr; k++) {
			j->vdst[j->n] |= epi_isa_reg_vector(isa, in->wr[k]);
			in->wr[k] = (uint16_t)epi_isa_reg_full(isa, in->wr[k]);
		}
		j->nother += in->klass == EPI_IC_OTHER;
		j->n++;
		a += sz;
	}
	/* stack slots: at the stack pointer, and at the frame pointer in a
	 * function that sets it (-O0 code), not where it is a register like
	 * any other (an array's pointer in -O2 code) */
	int fp = 0;
	for (int i = 0; i < j->n && !fp; i++)
		fp = epi_isa_sets_frame(isa, &j->in[i]);
	for (int i = 0; i < j->n; i++) {
		const epi_insn *in = &j->in[i];
		j->frame[i] = (in->loads || in->stores) && in->base && !in->index && epi_isa_reg_frame(isa, in->base) &&
			      (fp || epi_isa_reg_stack(isa, in->base));
	}
}

/* The functions decoded on several threads while this one appends them,
 * in order, to the object. */
typedef struct decoding {
	reader *r;
	atomic_int next;     /* the next function to claim */
	pthread_mutex_t mu;
	pthread_cond_t cv;   /* a function decoded */
} decoding;

/* Claims the next function and decodes it with ISA: 0 when none is left. */
static int decode_next(decoding *D, epi_isa *isa)
{
	int k = atomic_fetch_add(&D->next, 1);
	if (k >= D->r->njobs)
		return 0;
	decode_job(isa, &D->r->jobs[k]);
	pthread_mutex_lock(&D->mu);
	atomic_store(&D->r->jobs[k].done, 1);
	pthread_cond_broadcast(&D->cv);
	pthread_mutex_unlock(&D->mu);
	return 1;
}

static void *decode_run(void *arg)
{
	decoding *D = arg;
	char err[EPI_ERRLEN];
	epi_isa *isa = epi_isa_open(D->r->o->machine, err);
	while (isa && decode_next(D, isa))
		;
	epi_isa_close(isa);
	return NULL;
}

/* Appends function J, decoded, to the object: its instructions and their
 * lines in the source. */
static void append_job(reader *r, fjob *j)
{
	epi_object *o = r->o;
	ALLOC_GROW(o->fn, o->nfn + 1, r->capfn);
	epi_mfn *f = &o->fn[o->nfn++];
	*f = (epi_mfn){.name = j->name, .first = o->nin, .line = j->decl};
	j->name = NULL;
	reserve(r, o->nin + j->n);
	memcpy(o->in + o->nin, j->in, (size_t)j->n * sizeof *j->in);
	memcpy(o->vdst + o->nin, j->vdst, (size_t)j->n);
	memcpy(o->frame + o->nin, j->frame, (size_t)j->n);
	for (int i = 0; i < j->n; i++)
		o->line[o->nin + i] =
			line_at(r, &j->cu, j->dir, j->in[i].addr, &o->xline[o->nin + i], &o->col[o->nin + i]);
	o->nin += j->n;
	o->nother += j->nother;
	f->n = o->nin - f->first;
	free(j->in);
	free(j->vdst);
	free(j->frame);
	j->in = NULL;
	j->vdst = j->frame = NULL;
}

/* Decodes the functions listed in R on up to NT threads besides this
 * one, which appends them to the object in order as they come (their
 * buffers freed as they are: what is decoded and not yet appended stays
 * small), and decodes too whenever the next one is not ready. */
static void read_jobs(reader *r, int nt)
{
	decoding D = {.r = r};
	atomic_init(&D.next, 0);
	pthread_mutex_init(&D.mu, NULL);
	pthread_cond_init(&D.cv, NULL);
	pthread_t th[8];
	int started = epi_start_threads(th, nt, decode_run, &D);
	for (int k = 0; k < r->njobs; k++) {
		fjob *j = &r->jobs[k];
		while (!atomic_load(&j->done)) {
			if (decode_next(&D, r->isa))
				continue;
			pthread_mutex_lock(&D.mu);
			while (!atomic_load(&j->done))
				pthread_cond_wait(&D.cv, &D.mu);
			pthread_mutex_unlock(&D.mu);
		}
		append_job(r, j);
	}
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	pthread_mutex_destroy(&D.mu);
	pthread_cond_destroy(&D.cv);
}

static int one_fn(Dwarf_Die *cu, const char *dir, Dwarf_Die *d, int depth, epi_dwarf_fn fn, void *ctx);

/* FN for the functions defined inside PARENT (a function or a block of
 * one) that have code of their own: gcc's outlined parallel regions
 * (main._omp_fn.0, artificial, declared nowhere), GNU C's nested
 * functions. */
static int nested_fns(Dwarf_Die *cu, const char *dir, Dwarf_Die *parent, int depth, epi_dwarf_fn fn, void *ctx)
{
	Dwarf_Die k;
	if (depth > 32 || dwarf_child(parent, &k) != 0)
		return 0;
	do {
		int t = dwarf_tag(&k), r = 0;
		if (t == DW_TAG_subprogram && dwarf_hasattr(&k, DW_AT_low_pc))
			r = one_fn(cu, dir, &k, depth, fn, ctx);
		else if (t == DW_TAG_lexical_block)
			r = nested_fns(cu, dir, &k, depth + 1, fn, ctx);
		if (r)
			return r;
	} while (dwarf_siblingof(&k, &k) == 0);
	return 0;
}

static int one_fn(Dwarf_Die *cu, const char *dir, Dwarf_Die *d, int depth, epi_dwarf_fn fn, void *ctx)
{
	const char *name = dwarf_diename(d), *df = dwarf_decl_file(d);
	Dwarf_Attribute fa;
	Dwarf_Word fi;
	/* DWARF 5 numbers the unit's own file 0, which libdw's dwarf_decl_file
	 * takes for none */
	if (!df && dwarf_formudata(dwarf_attr(d, DW_AT_decl_file, &fa), &fi) == 0 && fi == 0)
		df = dwarf_diename(cu);
	int r = name ? fn(cu, dir, d, name, df, ctx) : 0;
	return r ? r : nested_fns(cu, dir, d, depth + 1, fn, ctx);
}

int epi_dwarf_functions(Dwfl_Module *mod, epi_dwarf_fn fn, void *ctx)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	int any = 0;
	while ((cu = dwfl_module_nextcu(mod, cu, &bias))) {
		any = 1;
		Dwarf_Attribute at;
		const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &at));
		Dwarf_Die d;
		if (dwarf_child(cu, &d) != 0)
			continue;
		do {
			int r = dwarf_tag(&d) == DW_TAG_subprogram ? one_fn(cu, dir, &d, 0, fn, ctx) : 0;
			if (r)
				return r;
		} while (dwarf_siblingof(&d, &d) == 0);
	}
	return any ? 0 : -1;
}

/* Whether function D of unit CU, declared in DF, its code at LO, was
 * compiled from SOURCE: declared there, or its code's first line is there
 * (a function of a system header that the source defines, as read() in an
 * interposer, which gcc describes as declared in the header). *LINE its
 * line there. */
static int from_source(Dwarf_Die *cu, const char *dir, Dwarf_Die *d, const char *df, Dwarf_Addr lo,
		       const char *source, int *line)
{
	*line = 0;
	if (df && epi_same_source(df, dir, source)) {
		dwarf_decl_line(d, line);
		return 1;
	}
	Dwarf_Line *l = dwarf_getsrc_die(cu, lo);
	const char *f = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	if (!f || !epi_same_source(f, dir, source))
		return 0;
	dwarf_lineno(l, line);
	return 1;
}

/* A function of the program: read when compiled from the source. */
static int read_one(Dwarf_Die *cu, const char *dir, Dwarf_Die *d, const char *name, const char *df, void *ctx)
{
	reader *r = ctx;
	const char *cuname = dwarf_diename(cu);
	if (cuname) {
		note_built_from(r, cuname);
		r->built_here |= epi_same_source(cuname, dir, r->o->source);
	}
	Dwarf_Addr lo, hi;
	int line;
	if (dwarf_lowpc(d, &lo) != 0 || dwarf_highpc(d, &hi) != 0 || !from_source(cu, dir, d, df, lo, r->o->source, &line))
		return 0;
	if (hi <= lo) {
		ALLOC_GROW(r->o->empty, r->o->nempty + 1, r->capempty);
		r->o->empty[r->o->nempty++] = xstrdup(name);
		return 0;
	}
	const uint8_t *code = code_at(r->elf, lo, hi);
	if (!code)
		return 0;
	ALLOC_GROW(r->jobs, r->njobs + 1, r->capjobs);
	fjob *j = &r->jobs[r->njobs++];
	memset(j, 0, sizeof *j);
	j->cu = *cu;
	j->dir = dir;
	j->name = xstrdup(name);
	j->decl = line;
	j->lo = lo;
	j->hi = hi;
	j->code = code;
	atomic_init(&j->done, 0);
	inlined_calls(r, cu, dir, d, 0);
	return 0;
}

/* The bytes of a function of the program that read_one would read. */
static int size_one(Dwarf_Die *cu, const char *dir, Dwarf_Die *d, const char *name, const char *df, void *ctx)
{
	(void)name;
	reader *r = ctx;
	Dwarf_Addr lo, hi;
	int line;
	if (dwarf_lowpc(d, &lo) == 0 && dwarf_highpc(d, &hi) == 0 && hi > lo &&
	    from_source(cu, dir, d, df, lo, r->o->source, &line) && code_at(r->elf, lo, hi))
		r->bytes += hi - lo;
	return 0;
}

/* ---- the arrays' sizes ---------------------------------------------- */

/* The DIE of T's type, DW_AT_type followed (through an abstract origin). */
static Dwarf_Die *type_of(Dwarf_Die *d, Dwarf_Die *t)
{
	Dwarf_Attribute a;
	return dwarf_attr_integrate(d, DW_AT_type, &a) ? dwarf_formref_die(&a, t) : NULL;
}

/* Variable or parameter D of FUNCTION ("" at file scope) into O's sized
 * arrays, when its type is an array of constant sizes (through
 * pointers, typedefs and qualifiers), as epi_sized_add takes one. */
static void sized_die(epi_object *o, int *cap, Dwarf_Die *d, const char *function)
{
	const char *name = dwarf_diename(d);
	Dwarf_Die t;
	Dwarf_Die *at = name ? type_of(d, &t) : NULL;
	for (int hops = 0; at && hops < 16; hops++) {
		int tag = dwarf_tag(at);
		if (tag != DW_TAG_pointer_type && tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
			break;
		at = type_of(at, &t);
	}
	epi_sized x = {.ndims = 0};
	while (at && dwarf_tag(at) == DW_TAG_array_type && x.ndims < EPI_SIZED_DIMS) {
		Dwarf_Die r;
		if (dwarf_child(at, &r) != 0)
			return;
		do {
			if (dwarf_tag(&r) != DW_TAG_subrange_type)
				continue;
			Dwarf_Attribute a;
			Dwarf_Word k;
			if (dwarf_attr(&r, DW_AT_count, &a) && dwarf_formudata(&a, &k) == 0)
				;
			else if (dwarf_attr(&r, DW_AT_upper_bound, &a) && dwarf_formudata(&a, &k) == 0)
				k += 1; /* C's arrays start at 0 */
			else
				return; /* of a size the code computes (a variable-length array) */
			if (x.ndims == EPI_SIZED_DIMS)
				break;
			x.dims[x.ndims++] = k;
		} while (dwarf_siblingof(&r, &r) == 0);
		Dwarf_Die *el = type_of(at, &t);
		for (int hops = 0; el && hops < 16 && dwarf_tag(el) == DW_TAG_typedef; hops++)
			el = type_of(el, &t);
		at = el;
	}
	if (x.ndims == 0)
		return;
	dwarf_decl_line(d, &x.line);
	x.function = xstrdup(function);
	x.name = xstrdup(name);
	ALLOC_GROW_FROM(o->sized, o->nsized + 1, *cap, 16);
	o->sized[o->nsized++] = x;
}

/* Whether D's type is an integer (through typedefs and qualifiers). */
static int integer_typed(Dwarf_Die *d)
{
	Dwarf_Die t;
	Dwarf_Die *at = type_of(d, &t);
	for (int hops = 0; at && hops < 16; hops++) {
		int tag = dwarf_tag(at);
		if (tag == DW_TAG_base_type) {
			Dwarf_Attribute a;
			Dwarf_Word e;
			if (!dwarf_attr(at, DW_AT_encoding, &a) || dwarf_formudata(&a, &e) != 0)
				return 0;
			return e == DW_ATE_signed || e == DW_ATE_unsigned || e == DW_ATE_signed_char ||
			       e == DW_ATE_unsigned_char;
		}
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type)
			return 0;
		at = type_of(at, &t);
	}
	return 0;
}

/* The one constant that function F's code stores on LINE into memory
 * (an -O0 build's int n = N; on its declaration's line): 0, or -1 when
 * none or more than one is. */
static int stored_on(const epi_object *o, int f, int line, long long *v)
{
	int n = 0;
	for (int i = o->fn[f].first; i < o->fn[f].first + o->fn[f].n; i++)
		if (o->line[i] == line && o->in[i].stores == 1 && o->in[i].op[0].kind == EPI_OPND_MEM &&
		    o->in[i].op[1].kind == EPI_OPND_IMM && n++ == 0)
			*v = o->in[i].op[1].imm;
	return n == 1 ? 0 : -1;
}

/* Variable D of FUNCTION into O's values, when it is an integer whose
 * value the build fixed: a constant the compiler kept for it, or the one
 * constant the code stores on its declaration's line. */
static void value_die(epi_object *o, int *cap, Dwarf_Die *d, const char *function)
{
	const char *name = dwarf_diename(d);
	int line = 0;
	if (!name || !integer_typed(d) || dwarf_decl_line(d, &line) != 0 || line <= 0)
		return;
	Dwarf_Attribute a;
	long long v = 0;
	if (dwarf_attr(d, DW_AT_const_value, &a)) {
		/* a fixed-size form holds the value as it is (gcc writes 200 as
		 * one byte), sdata a signed one */
		Dwarf_Sword sv;
		Dwarf_Word uv;
		if (dwarf_whatform(&a) == DW_FORM_sdata ? dwarf_formsdata(&a, &sv) != 0
							: dwarf_formudata(&a, &uv) != 0)
			return;
		v = dwarf_whatform(&a) == DW_FORM_sdata ? (long long)sv : (long long)uv;
	} else {
		int f = 0;
		while (f < o->nfn && strcmp(o->fn[f].name, function))
			f++;
		if (f == o->nfn || !dwarf_hasattr(d, DW_AT_location) || stored_on(o, f, line, &v) < 0)
			return;
	}
	if (v <= 0)
		return;
	epi_sized x = {.ndims = 1, .dims = {(unsigned long long)v}, .line = line};
	x.function = xstrdup(function);
	x.name = xstrdup(name);
	ALLOC_GROW_FROM(o->values, o->nvalues + 1, *cap, 16);
	o->values[o->nvalues++] = x;
}

/* The variables and parameters of scope D (a function, or a block of
 * one), its blocks' too: arrays into O's sized (CAP their room), integers
 * of fixed values into its values (VCAP). */
static void sized_scope(epi_object *o, int *cap, int *vcap, Dwarf_Die *d, const char *function, int depth)
{
	Dwarf_Die k;
	if (depth > 32 || dwarf_child(d, &k) != 0)
		return;
	do {
		int t = dwarf_tag(&k);
		if (t == DW_TAG_formal_parameter || t == DW_TAG_variable)
			sized_die(o, cap, &k, function);
		if (t == DW_TAG_variable)
			value_die(o, vcap, &k, function);
		else if (t == DW_TAG_lexical_block)
			sized_scope(o, cap, vcap, &k, function, depth + 1);
	} while (dwarf_siblingof(&k, &k) == 0);
}

typedef struct sized_reader {
	reader *r;
	int cap, vcap;
} sized_reader;

/* The arrays of a function the source defines (with code of its own or
 * only inlined: the abstract instance has the declarations). */
static int sized_fn(Dwarf_Die *cu, const char *dir, Dwarf_Die *d, const char *name, const char *df, void *ctx)
{
	(void)cu;
	sized_reader *s = ctx;
	if (!dwarf_hasattr(d, DW_AT_declaration) && df && epi_same_source(df, dir, s->r->o->source))
		sized_scope(s->r->o, &s->cap, &s->vcap, d, name, 0);
	return 0;
}

static int sized_cmp(const void *a, const void *b)
{
	const epi_sized *x = a, *y = b;
	return x->line != y->line ? (x->line > y->line) - (x->line < y->line) : strcmp(x->name, y->name);
}

/* The arrays of the source's file scope and functions, into O (by line,
 * then name). */
static void object_sizes(reader *r, Dwfl_Module *mod)
{
	sized_reader s = {.r = r};
	epi_dwarf_functions(mod, sized_fn, &s);
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	while ((cu = dwfl_module_nextcu(mod, cu, &bias))) {
		Dwarf_Attribute at;
		const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &at)), *name = dwarf_diename(cu);
		Dwarf_Die d;
		if (!name || !epi_same_source(name, dir, r->o->source) || dwarf_child(cu, &d) != 0)
			continue;
		do {
			const char *df = dwarf_decl_file(&d);
			if (dwarf_tag(&d) == DW_TAG_variable && (!df || epi_same_source(df, dir, r->o->source)))
				sized_die(r->o, &s.cap, &d, "");
		} while (dwarf_siblingof(&d, &d) == 0);
	}
	if (r->o->nsized > 1)
		qsort(r->o->sized, (size_t)r->o->nsized, sizeof *r->o->sized, sized_cmp);
	if (r->o->nvalues > 1)
		qsort(r->o->values, (size_t)r->o->nvalues, sizeof *r->o->values, sized_cmp);
}

/* ---- functions folded into others ------------------------------------ */

/* The address of E's function symbol NAME, or 0. */
static GElf_Addr symbol_addr(Elf *e, const char *name)
{
	fsym_iter it = {0};
	GElf_Sym sym;
	const char *nm;
	while (next_fsym(e, &it, &sym, &nm))
		if (sym.st_value && GELF_ST_TYPE(sym.st_info) == STT_FUNC && !strcmp(nm, name))
			return sym.st_value;
	return 0;
}

/* A function the source defines whose debug information gives it no
 * code, neither its own nor inlined (DW_AT_inline), while the program has
 * a symbol of its name: when that symbol's code is one jump to the start
 * of a function read, the compiler folded it into that one. */
static int fold_one(Dwarf_Die *cu, const char *dir, Dwarf_Die *d, const char *name, const char *df, void *ctx)
{
	(void)cu;
	reader *r = ctx;
	epi_object *o = r->o;
	if (!df || !epi_same_source(df, dir, o->source) || dwarf_hasattr(d, DW_AT_low_pc) ||
	    dwarf_hasattr(d, DW_AT_ranges) || dwarf_hasattr(d, DW_AT_inline) || dwarf_hasattr(d, DW_AT_declaration))
		return 0;
	GElf_Addr at = symbol_addr(r->elf, name);
	size_t n = 16; /* a jump's bytes at most, fewer at the end of the code */
	const uint8_t *code = NULL;
	while (at && n > 0 && !(code = code_at(r->elf, at, at + n)))
		n--;
	epi_insn in;
	if (!code || !epi_isa_decode(r->isa, code, n, at, &in) || in.klass != EPI_IC_BRANCH || in.cond || !in.target)
		return 0;
	for (int f = 0; f < o->nfn; f++)
		if (o->fn[f].n && o->in[o->fn[f].first].addr == in.target && strcmp(o->fn[f].name, name)) {
			o->fold_from = xrealloc(o->fold_from, (size_t)(o->nfold + 1) * sizeof *o->fold_from);
			o->fold_into = xrealloc(o->fold_into, (size_t)(o->nfold + 1) * sizeof *o->fold_into);
			o->fold_from[o->nfold] = xstrdup(name);
			o->fold_into[o->nfold++] = xstrdup(o->fn[f].name);
			break;
		}
	return 0;
}

static void dims_text(char *buf, size_t n, const epi_sized *x)
{
	size_t at = 0;
	buf[0] = 0;
	for (int i = 0; i < x->ndims && at < n; i++)
		at += (size_t)snprintf(buf + at, n - at, "[%llu]", x->dims[i]);
}

/* The entry of V (N of them, by line and name) declared as X is. */
static const epi_sized *sized_find(const epi_sized *v, int n, const epi_sized *x)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (sized_cmp(&v[mid], x) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int j = lo; j < n && !sized_cmp(&v[j], x); j++)
		if (!strcmp(v[j].function, x->function))
			return &v[j];
	return NULL;
}

const epi_sized *epi_object_sized(const epi_object *o, const epi_sized *x)
{
	return sized_find(o->sized, o->nsized, x);
}

const epi_sized *epi_object_value(const epi_object *o, const epi_sized *x)
{
	return sized_find(o->values, o->nvalues, x);
}

int epi_object_sizes_differ(const epi_object *o, const epi_sized *src, int n, char *msg, size_t len)
{
	int differ = 0;
	for (int i = 0; i < n; i++) {
		const epi_sized *x = &src[i];
		const epi_sized *y = epi_object_sized(o, x);
		if (!y || (y->ndims == x->ndims && !memcmp(y->dims, x->dims, (size_t)x->ndims * sizeof *x->dims)))
			continue;
		if (differ++ == 0 && len) {
			char in_prog[64], in_src[64], where[160];
			dims_text(in_prog, sizeof in_prog, y);
			dims_text(in_src, sizeof in_src, x);
			if (x->function[0])
				snprintf(where, sizeof where, "%s in %s()", x->name, x->function);
			else
				snprintf(where, sizeof where, "%s", x->name);
			snprintf(msg, len, "%s (line %d) is %s in the program, %s in the source", where, x->line, in_prog,
				 in_src);
		}
	}
	return differ;
}

/* The index of the instruction at ADDR in [lo, hi), or -1. */
int epi_object_insn_at(const epi_object *o, int lo, int hi, uint64_t addr)
{
	int end = hi; /* a jump to the next function (a tail call) is none of these */
	while (lo < hi) {
		int m = lo + (hi - lo) / 2;
		if (o->in[m].addr < addr)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < end && o->in[lo].addr == addr ? lo : -1;
}

/* Adds IN, run W times per run of the stretch, to M; FRAME: its memory
 * operand is a stack slot, which the bytes of data moved leave out. */
void epi_mix_insn(epi_mix *m, const epi_insn *in, double w, int frame)
{
	m->n += w;
	m->cls[in->klass] += w;
	m->loads += w * in->loads;
	m->stores += w * in->stores;
	if (in->klass >= EPI_IC_FP_ADD && in->klass <= EPI_IC_FP_DIV)
		m->flops += w * (in->klass == EPI_IC_FP_FMA ? 2.0 : 1.0) * (in->lanes ? in->lanes : 1);
	if (in->loads && !frame)
		m->load_bytes += w * in->mem_bytes;
	if (in->stores && !frame)
		m->store_bytes += w * in->mem_bytes;
}

void epi_mix_add(epi_mix *dst, const epi_mix *src, double times)
{
	dst->n += times * src->n;
	for (int c = 0; c < EPI_IC_N; c++)
		dst->cls[c] += times * src->cls[c];
	dst->loads += times * src->loads;
	dst->stores += times * src->stores;
	dst->flops += times * src->flops;
	dst->load_bytes += times * src->load_bytes;
	dst->store_bytes += times * src->store_bytes;
}

/* The control flow graph of one function: basic blocks of instructions
 * [start, start + n), and their successors. */
typedef struct cfg {
	int nb;
	int *start, *len;
	int *succ;      /* two per block; -1 none */
	/* what an indirect jump (a switch's jump table) may reach: the blocks
	 * of the function nothing else leads to, xs[nxs[b] .. nxs[b + 1]);
	 * xfrom[t] the jump's block of such a target, -1 for the others */
	int *xs, *nxs, *xfrom;
	int *pred, *npred; /* predecessors of block b: pred[npred[b] .. npred[b + 1]) */
	int *block_of;  /* per instruction of the function */
	int *idom, *rpo, *order; /* immediate dominator; reverse postorder; block -> position in it */
} cfg;

static int ends_block(const epi_insn *in)
{
	return in->klass == EPI_IC_BRANCH || in->klass == EPI_IC_RET;
}

/* Whether block B ends in an indirect jump: a switch's jump table (a
 * tail call through a pointer ends its function the same way, and leaves
 * no block that nothing else reaches). */
static int jumps_indirect(const epi_object *o, const cfg *g, int b)
{
	const epi_insn *last = &o->in[g->start[b] + g->len[b] - 1];
	return last->klass == EPI_IC_BRANCH && !last->direct && !last->cond;
}

/* The targets of G's indirect jumps (succ set): the blocks that no edge
 * leads to and that do more than pad (a case of a switch begins where
 * the jump table says, which no instruction names), each given to the
 * nearest indirect jump before it, else the first after it. */
static void jump_targets(const epi_object *o, cfg *g)
{
	int nb = g->nb;
	g->nxs = xcalloc((size_t)nb + 1, sizeof *g->nxs);
	g->xfrom = xmalloc(((size_t)nb + 1) * sizeof *g->xfrom);
	g->xs = NULL;
	int first = -1;
	for (int b = 0; b < nb; b++) {
		g->xfrom[b] = -1;
		if (first < 0 && jumps_indirect(o, g, b))
			first = b;
	}
	if (first < 0)
		return;
	char *led = xcalloc((size_t)nb + 1, 1);
	for (int e = 0; e < 2 * nb; e++)
		if (g->succ[e] >= 0)
			led[g->succ[e]] = 1;
	for (int b = 1, j = -1; b < nb; b++) {
		if (jumps_indirect(o, g, b - 1))
			j = b - 1;
		/* padding between the cases, or a trap after the last */
		int pad = 1;
		for (int i = g->start[b]; i < g->start[b] + g->len[b] && pad; i++)
			pad = o->in[i].klass == EPI_IC_NOP || o->in[i].klass == EPI_IC_OTHER;
		if (!led[b] && !pad)
			g->xfrom[b] = j >= 0 ? j : first;
	}
	free(led);
	/* the targets of each jump, in block order */
	for (int b = 0; b < nb; b++)
		if (g->xfrom[b] >= 0)
			g->nxs[g->xfrom[b] + 1]++;
	for (int b = 0; b < nb; b++)
		g->nxs[b + 1] += g->nxs[b];
	g->xs = xmalloc(((size_t)g->nxs[nb] + 1) * sizeof *g->xs);
	int *fill = xcalloc((size_t)nb + 1, sizeof *fill);
	for (int b = 0; b < nb; b++)
		if (g->xfrom[b] >= 0)
			g->xs[g->nxs[g->xfrom[b]] + fill[g->xfrom[b]]++] = b;
	free(fill);
}

static void cfg_build(const epi_object *o, int lo, int hi, cfg *g)
{
	int n = hi - lo;
	char *leader = xcalloc((size_t)n + 1, 1);
	leader[0] = 1;
	for (int i = lo; i < hi; i++) {
		const epi_insn *in = &o->in[i];
		if (!ends_block(in))
			continue;
		if (i + 1 < hi)
			leader[i + 1 - lo] = 1;
		int t = in->direct ? epi_object_insn_at(o, lo, hi, in->target) : -1;
		if (t >= 0)
			leader[t - lo] = 1;
	}
	g->block_of = xmalloc(((size_t)n + 1) * sizeof *g->block_of);
	g->nb = 0;
	for (int i = 0; i < n; i++)
		g->nb += leader[i];
	g->start = xmalloc(((size_t)g->nb + 1) * sizeof *g->start);
	g->len = xcalloc((size_t)g->nb + 1, sizeof *g->len);
	g->succ = xmalloc(2 * ((size_t)g->nb + 1) * sizeof *g->succ);
	for (int i = 0, b = -1; i < n; i++) {
		if (leader[i])
			g->start[++b] = lo + i;
		g->block_of[i] = b;
		g->len[b]++;
	}
	for (int b = 0; b < g->nb; b++) {
		const epi_insn *last = &o->in[g->start[b] + g->len[b] - 1];
		int *sc = &g->succ[2 * b];
		sc[0] = sc[1] = -1;
		int t = last->klass == EPI_IC_BRANCH && last->direct ? epi_object_insn_at(o, lo, hi, last->target) : -1;
		int falls = last->klass != EPI_IC_RET && !(last->klass == EPI_IC_BRANCH && !last->cond);
		if (falls && b + 1 < g->nb)
			sc[0] = b + 1;
		if (t >= 0)
			sc[1] = g->block_of[t - lo];
	}
	free(leader);
	jump_targets(o, g);
	g->npred = xcalloc((size_t)g->nb + 2, sizeof *g->npred);
	for (int e = 0; e < 2 * g->nb; e++)
		if (g->succ[e] >= 0)
			g->npred[g->succ[e] + 1]++;
	for (int k = 0; k < g->nxs[g->nb]; k++)
		g->npred[g->xs[k] + 1]++;
	for (int b = 0; b < g->nb; b++)
		g->npred[b + 1] += g->npred[b];
	g->pred = xmalloc(((size_t)g->npred[g->nb] + 1) * sizeof *g->pred);
	int *fill = xcalloc((size_t)g->nb + 1, sizeof *fill);
	for (int e = 0; e < 2 * g->nb; e++) {
		int t = g->succ[e];
		if (t >= 0 && (e % 2 == 0 || g->succ[e - 1] != t))
			g->pred[g->npred[t] + fill[t]++] = e / 2;
	}
	for (int t = 0; t < g->nb; t++)
		if (g->xfrom[t] >= 0)
			g->pred[g->npred[t] + fill[t]++] = g->xfrom[t];
	/* a block whose two successors are one has one edge to it: close the gaps */
	for (int b = 0, k = 0; b < g->nb; b++) {
		int from = g->npred[b];
		g->npred[b] = k;
		for (int j = 0; j < fill[b]; j++)
			g->pred[k++] = g->pred[from + j];
		if (b + 1 == g->nb)
			g->npred[b + 1] = k;
	}
	free(fill);
}

/* Reverse postorder from the entry, by an explicit stack. */
static void cfg_order(cfg *g)
{
	int nb = g->nb, k = nb;
	g->rpo = xmalloc(((size_t)nb + 1) * sizeof *g->rpo);
	g->order = xmalloc(((size_t)nb + 1) * sizeof *g->order);
	int *stack = xmalloc(((size_t)nb + 1) * sizeof *stack), *next = xcalloc((size_t)nb + 1, sizeof *next);
	char *seen = xcalloc((size_t)nb + 1, 1);
	for (int b = 0; b < nb; b++)
		g->order[b] = -1;
	int sp = 0;
	if (nb) {
		stack[sp++] = 0;
		seen[0] = 1;
	}
	while (sp) {
		int b = stack[sp - 1];
		if (next[b] < 2 + g->nxs[b + 1] - g->nxs[b]) {
			int k = next[b]++;
			int s = k < 2 ? g->succ[2 * b + k] : g->xs[g->nxs[b] + k - 2];
			if (s >= 0 && !seen[s]) {
				seen[s] = 1;
				stack[sp++] = s;
			}
			continue;
		}
		sp--;
		g->rpo[--k] = b;
	}
	/* the reachable blocks are rpo[k..nb) */
	memmove(g->rpo, g->rpo + k, (size_t)(nb - k) * sizeof *g->rpo);
	for (int i = 0; i < nb - k; i++)
		g->order[g->rpo[i]] = i;
	g->nb = nb; /* unreachable blocks keep order -1 */
	free(stack);
	free(next);
	free(seen);
	g->idom = xmalloc(((size_t)nb + 1) * sizeof *g->idom);
	for (int b = 0; b < nb; b++)
		g->idom[b] = -1;
	int nr = nb - k;
	if (!nr)
		return;
	/* dominators: Cooper, Harvey and Kennedy's iteration over reverse postorder */
	g->idom[g->rpo[0]] = g->rpo[0];
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = 1; i < nr; i++) {
			int b = g->rpo[i], nd = -1;
			for (int j = g->npred[b]; j < g->npred[b + 1]; j++) {
				int p = g->pred[j];
				if (g->order[p] < 0 || g->idom[p] < 0)
					continue;
				if (nd < 0) {
					nd = p;
					continue;
				}
				int x = p, y = nd;
				while (x != y) {
					while (g->order[x] > g->order[y])
						x = g->idom[x];
					while (g->order[y] > g->order[x])
						y = g->idom[y];
				}
				nd = x;
			}
			if (nd >= 0 && g->idom[b] != nd) {
				g->idom[b] = nd;
				changed = 1;
			}
		}
	}
}

static int dominates(const cfg *g, int a, int b)
{
	if (g->order[b] < 0)
		return 0;
	for (;;) {
		if (a == b)
			return 1;
		if (g->idom[b] == b || g->idom[b] < 0)
			return 0;
		b = g->idom[b];
	}
}

static void cfg_free(cfg *g)
{
	free(g->start);
	free(g->len);
	free(g->succ);
	free(g->xs);
	free(g->nxs);
	free(g->xfrom);
	free(g->pred);
	free(g->npred);
	free(g->block_of);
	free(g->idom);
	free(g->rpo);
	free(g->order);
}

/* Of a block B that not every iteration of loop IN (of the NL loops V
 * of the function, BODY their blocks) passes, the loop directly inside IN
 * whose runs tell how often it runs: C when it runs once per run of C (it
 * leads only into C's header, C's one way in from outside; or it is C's
 * one way out, reached from C alone), -2 - C when it runs at least that
 * often (a test on every way into C: the checks before a vectorised
 * loop), -1 none. */
static int gate_of(const cfg *g, const char *body, const epi_mloop *v, int nl, int in, int b, int lo)
{
	int nb = g->nb;
	for (int c = 0; c < nl; c++) {
		if (v[c].parent != in)
			continue;
		const char *bc = body + (size_t)c * nb;
		int h = g->block_of[v[c].head - lo], outside = 0, exits = 0;
		for (int k = g->npred[h]; k < g->npred[h + 1]; k++)
			outside += !bc[g->pred[k]];
		int s0 = g->succ[2 * b], s1 = g->succ[2 * b + 1];
		if ((s1 < 0 || s1 == s0) && s0 == h && g->nxs[b + 1] == g->nxs[b])
			return outside == 1 ? c : -1;
		if (dominates(g, b, h))
			return -2 - c;
		/* reached from C alone, and C's only way out */
		int k = g->npred[b], all = k < g->npred[b + 1];
		for (; k < g->npred[b + 1] && all; k++)
			all = bc[g->pred[k]];
		if (!all)
			continue;
		for (int x = 0; x < nb; x++) {
			if (!bc[x])
				continue;
			for (int e = 0; e < 2; e++)
				exits += g->succ[2 * x + e] >= 0 && !bc[g->succ[2 * x + e]] && g->succ[2 * x + e] != b;
			for (int k = g->nxs[x]; k < g->nxs[x + 1]; k++)
				exits += !bc[g->xs[k]] && g->xs[k] != b;
		}
		return exits == 0 ? c : -1;
	}
	return -1;
}

/* A function's loops, numbered from 0 in the function (parents too, and
 * the instructions' loop_of) until they are appended to the program's. */
typedef struct fn_loops {
	epi_mloop *loop;
	int n;
} fn_loops;

/* The loads of block B, which ends in an indirect jump with targets, that
 * read the address it jumps to (a jump table's entry): followed back
 * from the jump through what computes its register, up to the load. */
static void mark_dispatch(epi_object *o, const cfg *g, int b)
{
	uint16_t live[EPI_ISA_MAXREG * 2];
	int n = 0, first = g->start[b], last = first + g->len[b] - 1;
	if (o->in[last].loads) { /* jmp *table(, %rax, 8): the jump reads its entry */
		o->dispatch[last] = 1;
		return;
	}
	for (int r = 0; r < o->in[last].nrd; r++)
		live[n++] = o->in[last].rd[r];
	for (int i = last - 1; i >= first && n > 0; i--) {
		const epi_insn *in = &o->in[i];
		int hit = 0;
		for (int w = 0; w < in->nwr; w++)
			for (int k = 0; k < n; k++)
				if (live[k] == in->wr[w]) {
					live[k--] = live[--n]; /* defined here */
					hit = 1;
				}
		if (!hit)
			continue;
		if (in->loads) {
			o->dispatch[i] = 1; /* the table's entry: not followed further */
			continue;
		}
		for (int r = 0; r < in->nrd; r++) {
			int seen = 0;
			for (int k = 0; k < n && !seen; k++)
				seen = live[k] == in->rd[r];
			if (!seen && n < (int)(sizeof live / sizeof *live))
				live[n++] = in->rd[r];
		}
	}
}

/* Whether block B is on every way round loop L (it dominates each of the
 * NLATCH back edges' sources LATCH_B of L's, LATCH their loops). */
static int on_every_way(const cfg *g, int b, int l, const int *latch, const int *latch_b, int nlatch)
{
	for (int e = 0; e < nlatch; e++)
		if (latch[e] == l && !dominates(g, b, latch_b[e]))
			return 0;
	return 1;
}

/* The share of L's iterations that run block B, which not all of them
 * do: in a case of a switch (B, or a block it is reached through, one of
 * the K targets of an indirect jump), the jump's share over K; else the
 * branch probability P. */
static double case_weight(const cfg *g, int b, int l, const int *latch, const int *latch_b, int nlatch, double p)
{
	for (int x = b; x >= 0; x = g->idom[x]) {
		int j = g->xfrom[x];
		if (j >= 0) {
			int k = g->nxs[j + 1] - g->nxs[j];
			return (on_every_way(g, j, l, latch, latch_b, nlatch) ? 1 : p) / (k > 0 ? k : 1);
		}
		if (g->idom[x] == x || on_every_way(g, x, l, latch, latch_b, nlatch))
			break;
	}
	return p;
}

/* The share of a block's runs that go on to T, one of its two successors
 * S0 (the fall-through) and S1, both in its loop: the branch probability P
 * for the block an if's condition guards, 1 - P for the way around it.
 * The guarded block is the one whose only successor is the other (an if
 * without else, laid out either way); in an if-else, the fall-through. */
static double split_share(const cfg *g, int s0, int s1, int t, double p)
{
	int s0_to_s1 = g->succ[2 * s0] == s1 && (g->succ[2 * s0 + 1] < 0 || g->succ[2 * s0 + 1] == s1) &&
		       g->nxs[s0 + 1] == g->nxs[s0];
	int s1_to_s0 = g->succ[2 * s1] == s0 && (g->succ[2 * s1 + 1] < 0 || g->succ[2 * s1 + 1] == s0) &&
		       g->nxs[s1 + 1] == g->nxs[s1];
	int guarded = s1_to_s0 && !s0_to_s1 ? s1 : s0;
	return t == guarded ? p : 1 - p;
}

/* FREQ[b]: the share of the iterations of block B's innermost loop
 * (INNER[b], of the NL loops V, BODY their blocks) that run it, followed
 * from the loop's header (1) forward over the loop's blocks in reverse
 * postorder: a conditional branch gives P of its runs to the block an if
 * guards and 1 - P to the way around it (split_share), an indirect jump
 * its runs to its targets in equal shares, and an edge that leaves the
 * loop none (a loop leaves once per run, not per iteration), nor one back
 * to a block met before (a cycle with two ways in, which gcc makes of a
 * merge's tail). A loop inside is one step: what enters its header leaves
 * by its exits in equal shares. So the ways of a switch compiled to
 * compares, or of an else-if chain, share their iteration among them
 * (1/2, 1/4, 1/4), and a block they all lead to runs every iteration. 0
 * for a block the flow does not reach. */
static void block_freqs(const cfg *g, const char *body, const epi_mloop *v, int nl, const int *inner, int lo,
			double p, double *freq)
{
	int nb = g->nb;
	/* a way the probability gives none of still reached by the flow (a
	 * block it reaches no more is priced otherwise): 0 and 1 as the
	 * limits of the values near them */
	p = p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p;
	int *head = xmalloc(((size_t)nl + 1) * sizeof *head);
	double *enter = xcalloc((size_t)nl + 1, sizeof *enter); /* per loop: what enters it, per iteration
								   of the loop around */
	int *heads = xmalloc(((size_t)nb + 1) * sizeof *heads); /* per block: the loop it heads, -1 */
	for (int b = 0; b < nb; b++) {
		freq[b] = 0;
		heads[b] = -1;
	}
	for (int l = 0; l < nl; l++) {
		head[l] = g->block_of[v[l].head - lo];
		heads[head[l]] = l;
		freq[head[l]] = 1;
	}
	int nr = 0; /* the reachable blocks: rpo[0, nr) */
	for (int b = 0; b < nb; b++)
		nr += g->order[b] >= 0;
	for (int i = 0; i < nr; i++) {
		int b = g->rpo[i], l = inner[b];
		if (l < 0)
			continue;
		int up = v[l].parent;
		if (heads[b] == l && up >= 0 && enter[l] > 0) {
			/* the loop as one step of the loop around: what enters it
			 * leaves by its exits into the loop around */
			const char *bl = body + (size_t)l * nb, *bu = body + (size_t)up * nb;
			int exits = 0;
			for (int pass = 0; pass < 2; pass++)
				for (int x = 0; x < nb; x++) {
					if (!bl[x])
						continue;
					int ns = 2 + g->nxs[x + 1] - g->nxs[x];
					for (int k = 0; k < ns; k++) {
						int t = k < 2 ? g->succ[2 * x + k] : g->xs[g->nxs[x] + k - 2];
						if (t < 0 || bl[t] || !bu[t] || (k == 1 && t == g->succ[2 * x]))
							continue;
						if (pass == 0) {
							exits++;
						} else if (heads[t] >= 0 && v[heads[t]].parent == up) {
							enter[heads[t]] += enter[l] / exits;
						} else if (t != head[up]) {
							freq[t] += enter[l] / exits;
						}
					}
				}
		}
		double f = freq[b];
		if (!(f > 0))
			continue;
		const char *bl = body + (size_t)l * nb;
		int s0 = g->succ[2 * b], s1 = g->succ[2 * b + 1];
		if (s1 == s0)
			s1 = -1;
		int ns = 2 + g->nxs[b + 1] - g->nxs[b], live = 0;
		/* the ways that stay in the loop: on in the iteration, or back to
		 * the header (the iteration's end); not out */
		for (int pass = 0; pass < 2; pass++)
			for (int k = 0; k < ns; k++) {
				int t = k == 0 ? s0 : k == 1 ? s1 : g->xs[g->nxs[b] + k - 2];
				if (t < 0 || !bl[t])
					continue;
				if (pass == 0) {
					live++;
					continue;
				}
				double share = live == 2 && ns == 2 ? split_share(g, s0, s1, t, p) : 1.0 / live;
				/* the header: the iteration's end; a block met
				 * before: a cycle entered elsewhere than a head (an
				 * irreducible one), which the flow does not follow
				 * round */
				if (t == head[l] || g->order[t] <= g->order[b])
					continue;
				if (heads[t] >= 0 && heads[t] != l)
					enter[heads[t]] += f * share;
				else
					freq[t] += f * share;
			}
	}
	free(head);
	free(enter);
	free(heads);
}

/* A loop whose header is its exit test (entered by a jump to the test,
 * as gcc and clang build a loop at -O0: the header's instructions all on
 * its branch's line): the header runs once more than the body at each
 * entry, the last time to leave. That run, once per entry, goes with the
 * code around the loop: the header's instructions in the mix of the
 * context of each block that enters it unconditionally (a loop's own or
 * F's), in that block's weight (BW). */
static void exit_tests(const epi_object *o, const cfg *g, const char *body, epi_mloop *v, int nl, const int *inner,
		       const double *bw, int lo, epi_mfn *f)
{
	int nb = g->nb;
	for (int l = 0; l < nl; l++) {
		const char *in = body + (size_t)l * nb;
		int hb = g->block_of[v[l].head - lo];
		int leaves = 0, back = 0;
		for (int k = 0; k < 2; k++) {
			leaves |= g->succ[2 * hb + k] >= 0 && !in[g->succ[2 * hb + k]];
			back |= g->succ[2 * hb + k] == hb;
		}
		if (!leaves || back) /* no exit there, or the whole loop one block tested at its end */
			continue;
		/* the test alone, on the line of its branch (not a body that ends
		 * in the test, entered past a latch of its own: gcc -O2's) */
		int end = g->start[hb] + g->len[hb] - 1, alone = 1;
		for (int i = g->start[hb]; i < end && alone; i++)
			alone = o->line[i] <= 0 || o->line[i] == o->line[end];
		if (!alone || o->line[end] <= 0)
			continue;
		for (int e = g->npred[hb]; e < g->npred[hb + 1]; e++) {
			int p = g->pred[e];
			if (in[p] || (g->succ[2 * p] >= 0) + (g->succ[2 * p + 1] >= 0) != 1 || !(bw[p] > 0))
				continue; /* in the loop, or a conditional way in */
			epi_mix *to = inner[p] < 0 ? &f->own : &v[inner[p]].own;
			for (int i = g->start[hb]; i < g->start[hb] + g->len[hb]; i++)
				epi_mix_insn(to, &o->in[i], bw[p], o->frame[i]);
		}
	}
}

/* The loops of function F: natural loops, one per block that a back edge
 * (an edge to a block dominating its source) enters, holding the blocks
 * that reach a back edge's source without passing through it; nested by
 * their blocks. */
static void find_loops(epi_object *o, int fi, fn_loops *out)
{
	epi_mfn *f = &o->fn[fi];
	int lo = f->first, hi = f->first + f->n;
	int cap = 0;
	out->loop = NULL;
	out->n = 0;
	cfg g;
	cfg_build(o, lo, hi, &g);
	cfg_order(&g);
	for (int b = 0; b < g.nb; b++)
		if (g.nxs[b + 1] > g.nxs[b])
			mark_dispatch(o, &g, b);
	int nb = g.nb;
	/* body[l * nb + b]: block b is in loop l (of this function) */
	char *body = NULL;
	int nl = 0, nlatch = 0, *latch = NULL, *latch_b = NULL; /* back edges: loop, source block */
	int *stack = xmalloc(((size_t)nb + 1) * sizeof *stack);
	for (int h = 0; h < nb; h++) {
		int l = -1;
		for (int j = g.npred[h]; j < g.npred[h + 1]; j++) {
			int u = g.pred[j];
			if (!dominates(&g, h, u))
				continue;
			{
				if (l < 0) {
					l = nl++;
					body = xrealloc(body, (size_t)nl * nb);
					memset(body + (size_t)l * nb, 0, (size_t)nb);
					body[(size_t)l * nb + h] = 1;
					ALLOC_GROW(out->loop, out->n + 1, cap);
					out->loop[out->n++] = (epi_mloop){.fn = fi, .head = g.start[h], .end = -1, .parent = -1,
									  .src = -1};
				}
				epi_mloop *L = &out->loop[l];
				latch = xrealloc(latch, (size_t)(nlatch + 1) * sizeof *latch);
				latch[nlatch++] = l;
				latch_b = xrealloc(latch_b, (size_t)nlatch * sizeof *latch_b);
				latch_b[nlatch - 1] = u;
				int br = g.start[u] + g.len[u] - 1;
				if (br > L->end)
					L->end = br; /* the last branch back: its line names the loop */
				/* the blocks reaching u backwards without passing h */
				int sp = 0;
				if (!body[(size_t)l * nb + u]) {
					body[(size_t)l * nb + u] = 1;
					stack[sp++] = u;
				}
				while (sp) {
					int x = stack[--sp];
					for (int j = g.npred[x]; j < g.npred[x + 1]; j++) {
						int p = g.pred[j];
						if (g.order[p] >= 0 && !body[(size_t)l * nb + p]) {
							body[(size_t)l * nb + p] = 1;
							stack[sp++] = p;
						}
					}
				}
			}
		}
	}
	free(stack);
	/* nesting: the loop of fewest blocks holding another's header */
	int *size = xcalloc((size_t)nl + 1, sizeof *size);
	for (int l = 0; l < nl; l++)
		for (int b = 0; b < nb; b++)
			size[l] += body[(size_t)l * nb + b];
	epi_mloop *v = out->loop;
	for (int l = 0; l < nl; l++) {
		int hb = g.block_of[v[l].head - lo], best = -1;
		for (int m = 0; m < nl; m++)
			if (m != l && body[(size_t)m * nb + hb] && size[m] > size[l] && (best < 0 || size[m] < size[best]))
				best = m;
		v[l].parent = best;
		v[l].branch_line = o->line[v[l].end];
		v[l].branch_col = o->col[v[l].end];
	}
	for (int l = 0; l < nl; l++)
		for (int p = v[l].parent; p >= 0; p = v[p].parent)
			v[l].depth++;
	/* each instruction to the innermost loop holding its block, or the function */
	int *gb = xmalloc(((size_t)nb + 1) * sizeof *gb); /* each block's gate_of, INT_MIN not yet */
	double *bw = xmalloc(((size_t)nb + 1) * sizeof *bw); /* each block's weight, -1 not yet */
	int *inner = xmalloc(((size_t)nb + 1) * sizeof *inner); /* each block's innermost loop, -1 */
	for (int b = 0; b < nb; b++) {
		gb[b] = INT_MIN;
		bw[b] = -1;
		inner[b] = -1;
		for (int l = 0; l < nl; l++)
			if (body[(size_t)l * nb + b] && (inner[b] < 0 || size[l] < size[inner[b]]))
				inner[b] = l;
	}
	double *freq = xmalloc(((size_t)nb + 1) * sizeof *freq);
	block_freqs(&g, body, v, nl, inner, lo, o->branch_prob, freq);
	for (int i = lo; i < hi; i++) {
		int b = g.block_of[i - lo], in_loop = inner[b];
		o->loop_of[i] = in_loop;
		/* a block some iterations skip: run in the share of them the
		 * flow from the loop's header gives it (block_freqs), or where
		 * the flow does not reach, with the branch probability or, a
		 * case of a switch, in one of its jump's targets' share of the
		 * jump's runs */
		if (bw[b] < 0) {
			if (in_loop < 0 || on_every_way(&g, b, in_loop, latch, latch_b, nlatch))
				bw[b] = 1;
			else if (freq[b] > 0)
				bw[b] = freq[b] < 1 ? freq[b] : 1;
			else
				bw[b] = case_weight(&g, b, in_loop, latch, latch_b, nlatch, o->branch_prob);
		}
		double w = bw[b];
		o->weight[i] = (float)w;
		if (w < 1 && gb[b] == INT_MIN)
			gb[b] = gate_of(&g, body, v, nl, in_loop, b, lo);
		o->gate[i] = w < 1 ? gb[b] : -1;
		epi_mix_insn(in_loop < 0 ? &f->own : &v[in_loop].own, &o->in[i], w, o->frame[i]);
	}
	exit_tests(o, &g, body, v, nl, inner, bw, lo, f);
	for (int l = 0; l < nl; l++)
		v[l].first = hi, v[l].last = lo - 1;
	for (int i = lo; i < hi; i++)
		for (int x = o->loop_of[i]; x >= 0; x = v[x].parent) {
			if (i < v[x].first)
				v[x].first = i;
			v[x].last = i;
		}
	free(gb);
	free(bw);
	free(inner);
	free(freq);
	free(latch);
	free(latch_b);
	free(size);
	free(body);
	cfg_free(&g);
}

typedef struct find_work {
	epi_object *o;
	fn_loops *fl;
} find_work;

static void find_range(int lo, int hi, void *ctx)
{
	find_work *w = ctx;
	for (int f = lo; f < hi; f++)
		find_loops(w->o, f, &w->fl[f]);
}

/* Every function's loops, found on a thread per core (a function writes
 * only its own instructions' entries), then appended in the functions'
 * order: the numbers they had in their function moved past the loops
 * before them. */
static void all_loops(epi_object *o)
{
	o->loop_of = xmalloc(((size_t)o->nin + 1) * sizeof *o->loop_of);
	o->weight = xmalloc(((size_t)o->nin + 1) * sizeof *o->weight);
	o->gate = xmalloc(((size_t)o->nin + 1) * sizeof *o->gate);
	o->dispatch = xcalloc((size_t)o->nin + 1, 1);
	fn_loops *fl = xcalloc((size_t)o->nfn + 1, sizeof *fl);
	epi_in_blocks(o->nfn, 8, find_range, &(find_work){o, fl});
	int total = 0;
	for (int f = 0; f < o->nfn; f++)
		total += fl[f].n;
	o->loop = xmalloc(((size_t)total + 1) * sizeof *o->loop);
	o->nloop = 0;
	for (int f = 0; f < o->nfn; f++) {
		int base = o->nloop;
		for (int l = 0; l < fl[f].n; l++) {
			epi_mloop *L = &o->loop[o->nloop++];
			*L = fl[f].loop[l];
			if (L->parent >= 0)
				L->parent += base;
		}
		for (int i = o->fn[f].first; i < o->fn[f].first + o->fn[f].n; i++) {
			if (o->loop_of[i] >= 0)
				o->loop_of[i] += base;
			if (o->gate[i] >= 0)
				o->gate[i] += base;
			else if (o->gate[i] <= -2)
				o->gate[i] -= base;
		}
		free(fl[f].loop);
	}
	free(fl);
}

/* The passes over each machine loop after the loops are found: its
 * strides, then its accesses that repeat an earlier one (which read its
 * strides). A loop writes its own instructions' entries only (and its
 * outer strides those of the loops directly inside, which have no other
 * parent), so that blocks of loops are taken by a thread per core. */
static void pass_range(int lo, int hi, void *ctx)
{
	epi_object *o = ctx;
	epi_object_strides(o, lo, hi);
	epi_mflow_repeats(o, lo, hi);
}

static void loop_passes(epi_object *o)
{
	o->stride = xcalloc((size_t)o->nin + 1, sizeof *o->stride);
	o->outer_stride = xmalloc(((size_t)o->nin + 1) * sizeof *o->outer_stride);
	for (int i = 0; i < o->nin; i++)
		o->outer_stride[i] = EPI_STRIDE_UNKNOWN;
	o->group = xcalloc((size_t)o->nin + 1, sizeof *o->group);
	o->group_off = xcalloc((size_t)o->nin + 1, sizeof *o->group_off);
	o->array = xmalloc(((size_t)o->nin + 1) * sizeof *o->array);
	for (int i = 0; i <= o->nin; i++)
		o->array[i] = EPI_STRIDE_UNKNOWN;
	o->repeat = xcalloc((size_t)o->nin + 1, 1);
	o->rmw = xcalloc((size_t)o->nin + 1, 1);
	epi_in_blocks(o->nloop, 16, pass_range, o);
}

#define NO_CODE_WHY                                                                                      \
	"holds no machine code (no function was compiled into it: all left out by the preprocessor, or static " \
	"ones that nothing calls)"

/* Why E (BYTES long) holds no machine code to read, or NULL: its headers
 * reach past its end (a truncated file), or it holds link-time
 * optimisation bytecode (-flto) instead of code. */
static const char *no_code(Elf *e, const GElf_Ehdr *eh, off_t bytes)
{
	if (eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize > (uint64_t)bytes)
		return "is truncated (its section headers lie past its end)";
	size_t shstr;
	if (elf_getshdrstrndx(e, &shstr) != 0)
		return "is damaged (no section names)";
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return "is damaged (a section header cannot be read)";
		if (sh.sh_type != SHT_NOBITS && sh.sh_offset + sh.sh_size > (uint64_t)bytes)
			return "is truncated (a section lies past its end)";
		const char *name = elf_strptr(e, shstr, sh.sh_name);
		if (name && strncmp(name, ".gnu.lto_", 9) == 0)
			return "holds link-time optimisation bytecode (-flto), not machine code: build it without "
			       "-flto, or give the linked program";
	}
	/* an object of a file whose functions are all left out (#if 0) */
	if (code_bytes(e) == 0)
		return NO_CODE_WHY;
	return NULL;
}

/* Why MOD's debug information gave no function, from its units: split
 * into .dwo files (a skeleton unit naming one: -gsplit-dwarf), or units
 * with line tables and no function in any (clang's -gline-tables-only);
 * NULL when neither. */
static const char *units_why(Dwfl_Module *mod)
{
	Dwarf_Addr bias;
	Dwarf *dw = dwfl_module_getdwarf(mod, &bias);
	Dwarf_CU *cu = NULL;
	Dwarf_Half version;
	uint8_t type;
	Dwarf_Die cudie, kid;
	int units = 0, fns = 0;
	while (dw && dwarf_get_units(dw, cu, &cu, &version, &type, &cudie, NULL) == 0) {
		if (type == DW_UT_skeleton || dwarf_hasattr(&cudie, DW_AT_GNU_dwo_name))
			return "keeps its debug information in .dwo files (-gsplit-dwarf): build it with -g alone";
		units++;
		if (dwarf_child(&cudie, &kid) == 0)
			do
				fns |= dwarf_tag(&kid) == DW_TAG_subprogram;
			while (!fns && dwarf_siblingof(&kid, &kid) == 0);
	}
	return units > 0 && !fns ? "has line tables and no functions in its debug information (-gline-tables-only): "
				   "build it with -g"
				 : NULL;
}

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

/* Whether ELF's debug sections are compressed with zstd (-gz=zstd), which
 * libdw reads only when built with it: a program read as having none. */
static int zstd_debug(Elf *elf)
{
	size_t shstr;
	if (!elf || elf_getshdrstrndx(elf, &shstr) != 0)
		return 0;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		GElf_Chdr ch;
		const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstr, sh.sh_name) : NULL;
		if (name && strncmp(name, ".debug_", 7) == 0 && (sh.sh_flags & SHF_COMPRESSED) &&
		    gelf_getchdr(scn, &ch) && ch.ch_type == ELFCOMPRESS_ZSTD)
			return 1;
	}
	return 0;
}

#define ZSTD_WHY                                                                                                       \
	"keeps its debug information compressed with zstd (-gz=zstd), which this system's libdw does not read: "      \
	"build it with -gz=zlib or without -gz (or decompress it: objcopy --decompress-debug-sections)"

int epi_object_read(epi_object *o, const char *path, const char *source, double branch_prob, char *err)
{
	*o = (epi_object){.path = xstrdup(path), .source = xstrdup(source), .branch_prob = branch_prob};
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return epi_error(err, "cannot open the program '%s': %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		if (e)
			elf_end(e);
		close(fd);
		return epi_error(err, "'%s' is not an ELF program", path);
	}
	o->machine = eh.e_machine;
	struct stat st;
	const char *why = fstat(fd, &st) == 0 ? no_code(e, &eh, st.st_size) : NULL;
	elf_end(e);
	close(fd);
	/* no code at all: said once the debug information has told whether
	 * the source's functions are there with their bodies removed */
	int no_text = why && !strcmp(why, NO_CODE_WHY);
	if (why && !no_text)
		return epi_error(err, "'%s' %s", path, why);
	if (o->machine != EM_X86_64 && o->machine != EM_AARCH64)
		return epi_error(err, "'%s' is %s machine code: only x86-64 and aarch64 programs can be priced", path,
				 epi_machine_name(o->machine));
	Dwfl *d = dwfl_begin(&callbacks);
	Dwfl_Module *mod = d ? dwfl_report_elf(d, path, path, -1, 0, false) : NULL;
	if (!mod) {
		if (d)
			dwfl_end(d);
		return epi_error(err, "cannot read '%s': %s", path, dwfl_errmsg(-1));
	}
	dwfl_report_end(d, NULL, NULL);
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	const unsigned char *bid;
	GElf_Addr vaddr;
	int idlen = dwfl_module_build_id(mod, &bid, &vaddr);
	if (idlen > 0 && idlen <= (int)sizeof o->id) {
		memcpy(o->id, bid, (size_t)idlen);
		o->idlen = idlen;
	}
	Dwarf_Addr dbias;
	if (!dwfl_module_getdwarf(mod, &dbias)) {
		int zstd = zstd_debug(elf);
		dwfl_end(d);
		if (zstd)
			return epi_error(err, "'%s' " ZSTD_WHY, path);
		if (no_text)
			return epi_error(err, "'%s' " NO_CODE_WHY, path);
		return epi_error(err, "'%s' has no debug information: build it with -g", path);
	}
	o->bss = bss_bytes(elf);
	GElf_Ehdr reh;
	reader r = {.o = o, .elf = elf, .rel = gelf_getehdr(elf, &reh) && reh.e_type == ET_REL};
	r.isa = epi_isa_open(o->machine, err);
	if (!r.isa) {
		dwfl_end(d);
		return -1;
	}
	/* the arrays sized once, from the code's bytes (an x86-64 instruction
	 * takes 3 or more on average, an aarch64 one 4): growing them by
	 * copies cost as much as decoding */
	epi_dwarf_functions(mod, size_one, &r);
	/* no more than the code there is (debug information that repeats a
	 * function must not size the arrays beyond it) */
	uint64_t code = code_bytes(elf);
	if (r.bytes > code)
		r.bytes = code;
	reserve(&r, (int)(r.bytes / (o->machine == EM_AARCH64 ? 4 : 3)) + 1);
	epi_dwarf_functions(mod, read_one, &r);
	/* decoding on a thread per core besides this one, which appends and
	 * decodes when the next function is not ready; a small program on
	 * this thread alone */
	int nt = epi_threads(0) - 1;
	read_jobs(&r, r.bytes < (64 << 10) ? 0 : nt > 1 ? nt : 1);
	free(r.jobs);
	if (o->nfn == 0) {
		epi_isa_close(r.isa);
		const char *why_none = units_why(mod);
		if (zstd_debug(elf))
			epi_error(err, "'%s' " ZSTD_WHY, path);
		else if (o->nempty)
			epi_error(err, "'%s': %s() of '%s' has no machine code: the compiler removed its body (as it may "
				       "for a loop that never ends and does nothing)",
				  path, o->empty[0], source);
		else if (no_text)
			epi_error(err, "'%s' " NO_CODE_WHY, path);
		else if (why_none)
			epi_error(err, "'%s' %s", path, why_none);
		else if (r.built_here)
			epi_error(err, "'%s' has no function of '%s' itself: its functions come from the files it "
				       "includes",
				  path, source);
		else
			epi_error(err, "'%s' has no function compiled from '%s' (it was built from %s)", path, source,
				  r.built_from ? r.built_from : "no file with debug information");
		dwfl_end(d);
		free(r.built_from);
		return -1;
	}
	free(r.built_from);
	object_sizes(&r, mod);
	if (!r.rel) /* an object file's jumps to others are relocations */
		epi_dwarf_functions(mod, fold_one, &r);
	code_calls(&r);
	all_loops(o);
	/* the callees that the passes over loops, and the first writes of
	 * fresh memory (a memset that stands for a loop), need named */
	o->ret_arg = xcalloc((size_t)o->nin + 1, 1);
	fn_index fx;
	fn_index_build(&fx, o);
	int capext = 0;
	for (int i = 0; i < o->nin; i++)
		if (o->in[i].klass == EPI_IC_CALL) {
			const char *name = callee_name(&r, &o->in[i]);
			o->ret_arg[i] = (unsigned char)returns_arg0(name);
			if (name && !defined_here(&fx, &o->in[i], name))
				add_ext(o, o->line[i], name, &capext);
		}
	free(fx.name);
	free(fx.start);
	ext_sort(o);
	epi_isa_close(r.isa);
	dwfl_end(d);
	loop_passes(o);
	return 0;
}

int epi_object_inlined_at(const epi_object *o, uint64_t addr, const char **callee)
{
	int best = -1;
	for (int i = 0; i < o->ninl; i++)
		if (addr >= o->inl[i].lo && addr < o->inl[i].hi && (best < 0 || o->inl[i].depth > o->inl[best].depth))
			best = i;
	if (best < 0)
		return 0;
	*callee = o->inl[best].callee;
	return o->inl[best].line;
}

void epi_object_free(epi_object *o)
{
	for (int i = 0; i < o->nfn; i++)
		free(o->fn[i].name);
	free(o->fn);
	for (int i = 0; i < o->nempty; i++)
		free(o->empty[i]);
	free(o->empty);
	for (int i = 0; i < o->ncalls; i++)
		free(o->calls[i].callee);
	free(o->calls);
	for (int i = 0; i < o->next; i++)
		free(o->ext[i].callee);
	free(o->ext);
	for (int i = 0; i < o->ninl; i++)
		free(o->inl[i].callee);
	free(o->inl);
	free(o->in);
	free(o->line);
	free(o->xline);
	free(o->col);
	free(o->loop_of);
	free(o->frame);
	free(o->vdst);
	free(o->repeat);
	free(o->rmw);
	free(o->ret_arg);
	free(o->weight);
	free(o->gate);
	free(o->dispatch);
	free(o->stride);
	free(o->outer_stride);
	free(o->group);
	free(o->group_off);
	free(o->array);
	free(o->loop);
	free(o->path);
	free(o->source);
	epi_sized_free(o->sized, o->nsized);
	epi_sized_free(o->values, o->nvalues);
	for (int i = 0; i < o->nfold; i++) {
		free(o->fold_from[i]);
		free(o->fold_into[i]);
	}
	free(o->fold_from);
	free(o->fold_into);
	*o = (epi_object){0};
}

/* How many levels of loops each source loop holds (0: innermost), into H. */
static void src_heights(const epi_nest *loops, int nloops, int *h)
{
	for (int i = 0; i < nloops; i++)
		h[i] = 0;
	for (int i = 0; i < nloops; i++)
		for (int p = loops[i].parent, d = 1; p >= 0; p = loops[p].parent, d++)
			if (h[p] < d)
				h[p] = d;
}

/* The same for the machine loops of O. */
static void mach_heights(const epi_object *o, int *h)
{
	for (int i = 0; i < o->nloop; i++)
		h[i] = 0;
	for (int i = 0; i < o->nloop; i++)
		for (int p = o->loop[i].parent, d = 1; p >= 0; p = o->loop[p].parent, d++)
			if (h[p] < d)
				h[p] = d;
}

/* The source loops in order of their first lines (ORD), and the last line
 * of any loop up to each in that order (REACH): the loops that span a
 * line are those before the first that starts after it, back to where
 * no earlier loop reaches it. */
typedef struct by_start {
	const epi_nest *loops;
	int *ord, *reach;
} by_start;

static void by_start_init(by_start *b, const epi_nest *loops, int nloops)
{
	b->loops = loops;
	b->ord = xmalloc(((size_t)nloops + 1) * sizeof *b->ord);
	b->reach = xmalloc(((size_t)nloops + 1) * sizeof *b->reach);
	epi_ipair *key = xmalloc(((size_t)nloops + 1) * sizeof *key);
	for (int i = 0; i < nloops; i++)
		key[i] = (epi_ipair){loops[i].line, i};
	qsort(key, (size_t)nloops, sizeof *key, epi_ipair_cmp);
	for (int k = 0; k < nloops; k++) {
		b->ord[k] = key[k].b;
		int e = loops[b->ord[k]].end_line;
		b->reach[k] = k > 0 && b->reach[k - 1] > e ? b->reach[k - 1] : e;
	}
	free(key);
}

/* Whether machine loop M's own instructions access memory other than
 * the stack's slots. */
static int touches_memory(const epi_object *o, int m)
{
	for (int i = o->loop[m].first; i <= o->loop[m].last; i++)
		if (o->loop_of[i] == m && (o->in[i].loads || o->in[i].stores) && !o->frame[i])
			return 1;
	return 0;
}

/* A line of machine loop M's own instructions: one a loop of the source
 * starts on (its exit test), else the first; 0 when none has a line. Its
 * instruction's column into *COL. */
static int own_line(const epi_object *o, int m, const by_start *bs, int nloops, int *col)
{
	int first = 0;
	*col = 0;
	for (int i = o->loop[m].first; i <= o->loop[m].last; i++) {
		int line = o->line[i];
		if (o->loop_of[i] != m || line <= 0)
			continue;
		int lo = 0, hi = nloops; /* the first loop that starts on or after the line */
		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;
			if (bs->loops[bs->ord[mid]].line < line)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < nloops && bs->loops[bs->ord[lo]].line == line) {
			*col = o->col[i];
			return line;
		}
		if (!first) {
			first = line;
			*col = o->col[i];
		}
	}
	return first;
}

/* Whether column COL of LINE is outside the text of source loop X (on one
 * of its first or last lines, before or after it): a loop beside another
 * on one line. No when either column is not known. */
static int outside(const epi_nest *x, int line, int col)
{
	if (col <= 0 || x->col <= 0)
		return 0;
	return (line == x->line && col < x->col) || (line == x->end_line && col > x->end_col);
}

/* Of the source loops that span LINE, the one machine loop M (its loops
 * inside it H deep) is: see match_one. With COL, only those whose text
 * holds that column of the line; with PASS 0, only those with as many
 * loops inside. *BARE: whether M touches no memory, -1 until asked. */
static int match_at(const epi_object *o, int m, const by_start *bs, int lo, int line, int col, int outer, int h,
		    int pass, const int *sh, int *bare)
{
	const epi_nest *loops = bs->loops;
	int best = -1, best_kw = 0;
	for (int k = lo - 1; k >= 0 && bs->reach[k] >= line; k--) {
		int i = bs->ord[k];
		if (line > loops[i].end_line || outside(&loops[i], line, col))
			continue;
		/* a loop of a function inlined into the outer loop's
		 * is inside it in the machine code, not in the source */
		if (outer >= 0 && !epi_nest_within(loops, i, outer) && strcmp(loops[i].function, loops[outer].function) == 0)
			continue;
		if (pass == 0 && h > 0 && sh[i] < h)
			continue;
		/* a keyword's line first, then the innermost, then the first listed */
		int kw = loops[i].line == line || loops[i].end_line == line;
		int deeper = loops[i].depth > loops[best < 0 ? i : best].depth;
		/* of loops nested on one line, a machine loop that touches no
		 * memory is not the one whose body walks an array (it is an
		 * outer loop's copy for when the inner runs no iteration) */
		if (best >= 0 && kw == best_kw && loops[i].line == loops[best].line && loops[i].refs != loops[best].refs &&
		    (deeper ? epi_nest_within(loops, i, best) : epi_nest_within(loops, best, i))) {
			if (*bare < 0)
				*bare = !touches_memory(o, m);
			if (*bare) /* the one whose own body names no array */
				deeper = loops[i].refs < loops[best].refs;
		}
		if (best < 0 || kw > best_kw ||
		    (kw == best_kw && (deeper || (loops[i].depth == loops[best].depth && i < best)))) {
			best = i;
			best_kw = kw;
		}
	}
	return best;
}

/* The source loop of machine loop M: the innermost whose keyword or
 * closing line is the line of M's backward branch, else the innermost
 * spanning that line; of loops side by side on that line, the one whose
 * text holds the branch's column; inside the source loop of M's parent
 * when it has one in the same function. -1 when none. */
static int match_one(const epi_object *o, int m, const by_start *bs, int nloops, const int *mh, const int *sh)
{
	const epi_nest *loops = bs->loops;
	const epi_mloop *l = &o->loop[m];
	/* the line of the backward branch; where it has none, or no loop of
	 * the source spans it (a latch of one move, on the function's line,
	 * that the loop's exit test jumps to), the header's; then the line of
	 * its own code where a source loop starts */
	int at[3][2] = {{l->branch_line, l->branch_col}, {o->line[l->head], o->col[l->head]}, {0, 0}};
	at[2][0] = own_line(o, m, bs, nloops, &at[2][1]);
	int outer = l->parent >= 0 ? o->loop[l->parent].src : -1;
	/* a machine loop with loops inside is a source loop with as many
	 * (an outer loop whose last branch carries the inner loop's line),
	 * when there is one */
	int h = mh[m], bare = -1; /* whether M touches no memory, once asked */
	for (int t = 0; t < 3; t++) {
		int line = at[t][0], col = at[t][1];
		if (!line || (t > 0 && line == at[t - 1][0]) || (t == 2 && line == at[0][0]))
			continue;
		/* the last loop that starts on or before the line */
		int lo = 0, hi = nloops;
		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;
			if (loops[bs->ord[mid]].line <= line)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* the column where it names a loop, else the line alone */
		for (int c = col; c >= 0; c = c > 0 ? 0 : -1)
			for (int pass = 0; pass < 2; pass++) {
				int best = match_at(o, m, bs, lo, line, c, outer, h, pass, sh, &bare);
				if (best >= 0)
					return best;
				if (h == 0)
					break;
			}
	}
	return -1;
}

int epi_in_loop(const epi_object *o, int i, int l)
{
	for (int x = o->loop_of[i]; x >= 0; x = o->loop[x].parent)
		if (x == l)
			return 1;
	return 0;
}

int epi_object_match(epi_object *o, const epi_nest *loops, int nloops)
{
	int n = 0, more = 1;
	int *mh = xmalloc(((size_t)o->nloop + 1) * sizeof *mh), *sh = xmalloc(((size_t)nloops + 1) * sizeof *sh);
	mach_heights(o, mh);
	src_heights(loops, nloops, sh);
	by_start bs;
	by_start_init(&bs, loops, nloops);
	for (int d = 0; more; d++) { /* parents first */
		more = 0;
		for (int i = 0; i < o->nloop; i++) {
			more |= o->loop[i].depth > d;
			if (o->loop[i].depth != d)
				continue;
			o->loop[i].src = match_one(o, i, &bs, nloops, mh, sh);
			n += o->loop[i].src >= 0;
		}
	}
	free(mh);
	free(sh);
	free(bs.ord);
	free(bs.reach);
	return n;
}

/* The first of O's calls at or after (CALLEE, LINE) in their order. */
static int first_call(const epi_object *o, const char *callee, int line)
{
	int lo = 0, hi = o->ncalls;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const epi_call_site *k = &o->calls[mid];
		int c = strcmp(k->callee ? k->callee : "", callee);
		if (c < 0 || (c == 0 && k->line < line))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int epi_object_first_call(const epi_object *o, const char *callee, int line)
{
	return first_call(o, callee, line);
}

int epi_object_calls_on(const epi_object *o, const char *callee, int line, int inlined)
{
	for (int k = first_call(o, callee, line);
	     k < o->ncalls && o->calls[k].callee && !strcmp(o->calls[k].callee, callee) && o->calls[k].line == line; k++)
		if (inlined || !o->calls[k].inlined)
			return 1;
	int k = first_call(o, "", line);
	return k < o->ncalls && !o->calls[k].callee && o->calls[k].line == line;
}

int epi_object_inlined(const epi_object *o, const char *function)
{
	for (int k = first_call(o, function, INT_MIN);
	     k < o->ncalls && o->calls[k].callee && !strcmp(o->calls[k].callee, function); k++)
		if (o->calls[k].inlined)
			return 1;
	return 0;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int epi_object_calls_off(const epi_object *o, const char *callee, const int *lines, int n, int inlined)
{
	for (int k = first_call(o, callee, INT_MIN); k < o->ncalls && o->calls[k].callee &&
						       !strcmp(o->calls[k].callee, callee);
	     k++)
		if ((inlined || !o->calls[k].inlined) && !bsearch(&o->calls[k].line, lines, (size_t)n, sizeof *lines, int_cmp))
			return 1;
	return 0;
}

/* A site and its index, in the order of call_cmp. */
typedef struct site_at {
	epi_call_site site;
	int at;
} site_at;

static int site_at_cmp(const void *a, const void *b)
{
	return call_cmp(&((const site_at *)a)->site, &((const site_at *)b)->site);
}

/* Whether control goes on from instruction I to the next one. */
static int falls_through(const epi_insn *in)
{
	return !(in->klass == EPI_IC_RET || (in->klass == EPI_IC_BRANCH && !in->cond));
}

/* Whether code on LINE reaches a call of CALLEE that the compiled code
 * makes on another line, in the call's block: a jump into it, or the
 * block's start falling through from LINE (gcc's cross-jumping merges the
 * same calls of two branches into one, on the line of one of them). */
static int merged_call(const epi_object *o, const char *callee, int line)
{
	for (int k = first_call(o, callee, INT_MIN); k < o->ncalls && o->calls[k].callee &&
						  !strcmp(o->calls[k].callee, callee);
	     k++) {
		int at = o->calls[k].at, f = 0;
		if (o->calls[k].inlined || at < 0 || o->calls[k].line == line)
			continue;
		while (f < o->nfn && !(at >= o->fn[f].first && at < o->fn[f].first + o->fn[f].n))
			f++;
		if (f == o->nfn)
			continue;
		int lo = o->fn[f].first, hi = lo + o->fn[f].n, start = at;
		/* the call's block: back to an instruction a branch goes to, or
		 * one after a branch */
		for (int target = 0; start > lo && !target; start -= !target) {
			const epi_insn *p = &o->in[start - 1];
			if (p->klass == EPI_IC_BRANCH || p->klass == EPI_IC_RET)
				break;
			for (int j = lo; j < hi && !target; j++)
				target = o->in[j].klass == EPI_IC_BRANCH && o->in[j].direct &&
					 o->in[j].target == o->in[start].addr;
		}
		if (start > lo && o->line[start - 1] == line && falls_through(&o->in[start - 1]))
			return 1;
		for (int j = lo; j < hi; j++)
			if (o->line[j] == line && o->in[j].klass == EPI_IC_BRANCH && o->in[j].direct &&
			    o->in[j].target >= o->in[start].addr && o->in[j].target <= o->in[at].addr)
				return 1;
	}
	return 0;
}

int epi_object_dead_calls(const epi_object *o, const epi_call_site *sites, int n, char *dead)
{
	/* the sites by callee, then line: each callee's lines in order */
	site_at *v = xmalloc(((size_t)n + 1) * sizeof *v);
	int *lines = xmalloc(((size_t)n + 1) * sizeof *lines);
	/* the lines with any call or inlined copy: a call there may stand for
	 * the site's (identical functions merged, calls redirected) */
	int *used = xmalloc(((size_t)o->ncalls + 1) * sizeof *used), nused = 0;
	for (int c = 0; c < o->ncalls; c++)
		used[nused++] = o->calls[c].line;
	qsort(used, (size_t)nused, sizeof *used, int_cmp);
	for (int s = 0; s < n; s++)
		v[s] = (site_at){sites[s], s};
	qsort(v, (size_t)n, sizeof *v, site_at_cmp);
	int ndead = 0;
	for (int a = 0, b; a < n; a = b) {
		const char *callee = v[a].site.callee;
		for (b = a; b < n && !strcmp(v[b].site.callee, callee); b++)
			lines[b - a] = v[b].site.line;
		int off = epi_object_calls_off(o, callee, lines, b - a, 1);
		for (int k = a; k < b; k++) {
			dead[v[k].at] = !off && !epi_object_calls_on(o, callee, v[k].site.line, 1) &&
					!bsearch(&v[k].site.line, used, (size_t)nused, sizeof *used, int_cmp) &&
					!merged_call(o, callee, v[k].site.line);
			ndead += dead[v[k].at];
		}
	}
	free(v);
	free(lines);
	free(used);
	return ndead;
}
