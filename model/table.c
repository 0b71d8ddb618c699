/* table: load, validate, save and query cost tables (libxml2). */
#include "model/table.h"
#include "model/freq.h"
#include "model/util.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A copy of S (NULL for NULL), as a C string. */
static char *xml_dup(const xmlChar *s) { return s ? xstrdup((const char *)s) : NULL; }

/* The numbers of an <op>, by attribute. */
static const struct {
	const char *attr;
	size_t off;
} op_num[] = {
	{"energy_j", offsetof(epi_cost, e)},         {"energy_sd_j", offsetof(epi_cost, e_sd)},
	{"energy_ci_j", offsetof(epi_cost, e_ci)},   {"energy_dyn_j", offsetof(epi_cost, e_dyn)},
	{"time_s", offsetof(epi_cost, t)},           {"time_sd_s", offsetof(epi_cost, t_sd)},
	{"time_ci_s", offsetof(epi_cost, t_ci)},     {"cycles", offsetof(epi_cost, cycles)},
	{"cycles_sd", offsetof(epi_cost, cycles_sd)},
};
#define NUM(e, i) (*(double *)((char *)(e) + op_num[i].off))
#define CNUM(e, i) (*(const double *)((const char *)(e) + op_num[i].off))
#define NOP_NUM (sizeof op_num / sizeof *op_num)

void epi_cost_init(epi_cost *e)
{
	memset(e, 0, sizeof *e);
	for (size_t i = 0; i < NOP_NUM; i++)
		NUM(e, i) = NAN;
	e->outliers = -1;
}

void epi_table_init(epi_table *t)
{
	memset(t, 0, sizeof *t);
	t->meter_interval_s = NAN;
	t->precision = NAN;
	t->calib_cpu = -1;
}

static int attr_bool(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	int b = v && (strcmp((char *)v, "true") == 0 || strcmp((char *)v, "1") == 0);
	xmlFree(v);
	return b;
}

static char *attr_str(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	char *r = xml_dup(v);
	xmlFree(v);
	return r;
}

/* The first error libxml2 reports, with its line. */
struct first_err {
	const char *path;
	char *err;
	int seen;
};

static void on_error(void *ctx, const xmlError *e)
{
	struct first_err *fe = ctx;
	if (fe->seen || !e || e->level < XML_ERR_ERROR)
		return;
	fe->seen = 1;
	char msg[400];
	snprintf(msg, sizeof msg, "%s", e->message ? e->message : "invalid");
	size_t n = strlen(msg);
	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = 0;
	epi_error(fe->err, "'%s' line %d: %s", fe->path, e->line, msg);
}

static xmlSchemaPtr schema(char *err)
{
	static xmlSchemaPtr sch;
	if (sch)
		return sch;
	xmlSchemaParserCtxtPtr pc = xmlSchemaNewMemParserCtxt(epi_costtable_xsd, (int)strlen(epi_costtable_xsd));
	sch = pc ? xmlSchemaParse(pc) : NULL;
	xmlSchemaFreeParserCtxt(pc);
	if (!sch)
		epi_error(err, "internal error: the cost-table schema does not parse");
	return sch;
}

static int validate(xmlDocPtr doc, const char *path, char *err)
{
	xmlSchemaPtr sch = schema(err);
	if (!sch)
		return -1;
	xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(sch);
	struct first_err fe = {path, err, 0};
	xmlSchemaSetValidStructuredErrors(vc, (xmlStructuredErrorFunc)on_error, &fe);
	int r = xmlSchemaValidateDoc(vc, doc);
	xmlSchemaFreeValidCtxt(vc);
	if (r != 0) {
		if (!fe.seen)
			epi_error(err, "'%s': not a valid cost table", path);
		return -1;
	}
	return 0;
}

static double attr_double(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	double d = v ? strtod((const char *)v, NULL) : NAN;
	xmlFree(v);
	return d;
}

static char *child_text(xmlNodePtr parent, const char *name)
{
	for (xmlNodePtr c = parent->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0) {
			xmlChar *t = xmlNodeGetContent(c);
			char *r = xml_dup(t);
			xmlFree(t);
			return r;
		}
	return NULL;
}

static int cmp_col(const void *a, const void *b)
{
	long x = ((const epi_fcol *)a)->khz, y = ((const epi_fcol *)b)->khz;
	return (x > y) - (x < y);
}

int epi_table_load(epi_table *t, const char *path, char *err)
{
	epi_table_init(t);
	xmlParserCtxtPtr pc = xmlNewParserCtxt();
	if (!pc)
		return epi_error(err, "out of memory");
	struct first_err fe = {path, err, 0};
	xmlSetStructuredErrorFunc(&fe, (xmlStructuredErrorFunc)on_error);
	FILE *probe = fopen(path, "rb");
	if (!probe) {
		xmlFreeParserCtxt(pc);
		xmlSetStructuredErrorFunc(NULL, NULL);
		return epi_error(err, "cannot open cost table '%s': %s", path, strerror(errno));
	}
	fclose(probe);
	xmlDocPtr doc = xmlCtxtReadFile(pc, path, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING);
	xmlSetStructuredErrorFunc(NULL, NULL);
	xmlFreeParserCtxt(pc);
	if (!doc) {
		if (!fe.seen)
			epi_error(err, "'%s': not an XML file", path);
		return -1;
	}
	if (validate(doc, path, err) < 0) {
		xmlFreeDoc(doc);
		return -1;
	}
	xmlNodePtr root = xmlDocGetRootElement(doc);
	t->path = xstrdup(path);
	for (xmlNodePtr n = root->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		const char *name = (const char *)n->name;
		if (strcmp(name, "machine") == 0) {
			t->cpu = child_text(n, "cpu");
			t->host = child_text(n, "host");
			t->kernel = child_text(n, "kernel");
			t->memory = child_text(n, "memory");
			t->microcode = child_text(n, "microcode");
			for (xmlNodePtr c = n->children; c; c = c->next)
				if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "cache") == 0) {
					double lv = attr_double(c, "level"), b = attr_double(c, "bytes");
					if (lv >= 1 && lv <= 3)
						t->cache[(int)lv - 1] = (unsigned long long)b;
					double sv = attr_double(c, "serves");
					if (lv == 3 && sv > 0)
						t->l3_serves = (unsigned long long)sv;
				} else if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "tlb") == 0) {
					double p = attr_double(c, "pages");
					if (p > 0)
						t->tlb_pages = (unsigned long long)p;
				}
		} else if (strcmp(name, "calibration") == 0) {
			t->created = attr_str(n, "created");
			t->command = attr_str(n, "command");
			t->style = attr_str(n, "style");
			double c = attr_double(n, "cpu");
			t->calib_cpu = isnan(c) ? -1 : (int)c;
			t->precision = attr_double(n, "precision");
		} else if (strcmp(name, "meter") == 0) {
			xmlChar *v;
			t->meter = xml_dup(v = xmlGetProp(n, (const xmlChar *)"name"));
			xmlFree(v);
			t->domain = xml_dup(v = xmlGetProp(n, (const xmlChar *)"domain"));
			xmlFree(v);
			t->meter_interval_s = attr_double(n, "interval_s");
			t->estimated = attr_bool(n, "estimated");
		} else if (strcmp(name, "source") == 0) {
			xmlChar *v = xmlNodeGetContent(n);
			t->source = xml_dup(v);
			xmlFree(v);
		} else if (strcmp(name, "note") == 0) {
			xmlChar *v = xmlNodeGetContent(n);
			t->notes = xrealloc(t->notes, (t->nnotes + 1) * sizeof *t->notes);
			t->notes[t->nnotes++] = xml_dup(v);
			xmlFree(v);
		} else if (strcmp(name, "frequency") == 0) {
			xmlChar *g = xmlGetProp(n, (const xmlChar *)"ghz");
			char fs[64];
			snprintf(fs, sizeof fs, "%sGHz", (const char *)g);
			xmlFree(g);
			t->f = xrealloc(t->f, (t->nf + 1) * sizeof *t->f);
			epi_fcol *c = &t->f[t->nf++];
			memset(c, 0, sizeof *c);
			if (epi_freq_parse(fs, &c->khz, err) < 0) {
				epi_error(err, "'%s' line %ld: invalid frequency '%s'", path, xmlGetLineNo(n), fs);
				goto fail;
			}
			c->effective_ghz = attr_double(n, "effective_ghz");
			c->idle_w = attr_double(n, "idle_w");
			c->idle_w_sd = attr_double(n, "idle_w_sd");
			c->pinned = attr_bool(n, "pinned");
			for (xmlNodePtr o = n->children; o; o = o->next) {
				if (o->type != XML_ELEMENT_NODE)
					continue;
				c->op = xrealloc(c->op, (c->n + 1) * sizeof *c->op);
				epi_cost *e = &c->op[c->n++];
				epi_cost_init(e);
				e->key = attr_str(o, "name");
				xmlChar *v = xmlGetProp(o, (const xmlChar *)"unit");
				e->unit = epi_unit_parse((const char *)v);
				xmlFree(v);
				for (size_t k = 0; k < NOP_NUM; k++)
					NUM(e, k) = attr_double(o, op_num[k].attr);
				e->runs = (long)attr_double(o, "runs");
				double ol = attr_double(o, "outliers");
				e->outliers = isnan(ol) ? -1 : (long)ol;
				e->drift = attr_bool(o, "drift");
				char *st = attr_str(o, "style");
				snprintf(e->style, sizeof e->style, "%s", st ? st : "");
				free(st);
				e->kernel = attr_str(o, "kernel");
				int cls = epi_op_class(e->key);
				if (cls < 0) {
					epi_error(err, "'%s' line %ld: unknown operation '%s'", path, xmlGetLineNo(o), e->key);
					goto fail;
				}
				/* CLASS.call: a per-call cost of a byte-counted class (malloc.call) */
				size_t kl = strlen(e->key);
				int per_call = e->unit == EPI_UNIT_OP && kl > 5 && strcmp(e->key + kl - 5, ".call") == 0;
				if (epi_unit_factor(cls, e->unit) < 0 && !per_call) {
					epi_error(err, "'%s' line %ld: unit '%s' does not fit operation '%s' (%s)", path,
						  xmlGetLineNo(o), epi_unit_name(e->unit), e->key,
						  epi_op_counts_bytes(cls) ? "B or MiB" : "op");
					goto fail;
				}
				if (isnan(e->e) && isnan(e->t)) {
					epi_error(err, "'%s' line %ld: operation '%s' has neither energy_j nor time_s", path,
						  xmlGetLineNo(o), e->key);
					goto fail;
				}
			}
		}
	}
	qsort(t->f, t->nf, sizeof *t->f, cmp_col);
	for (int i = 1; i < t->nf; i++)
		if (t->f[i].khz == t->f[i - 1].khz) {
			char fs[32];
			epi_freq_fmt(fs, sizeof fs, t->f[i].khz);
			epi_error(err, "'%s': frequency %s GHz appears twice", path, fs);
			goto fail;
		}
	xmlFreeDoc(doc);
	return 0;
fail:
	xmlFreeDoc(doc);
	epi_table_free(t);
	return -1;
}

void epi_fcol_free(epi_fcol *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->op[i].key);
		free(c->op[i].kernel);
	}
	free(c->op);
	memset(c, 0, sizeof *c);
}

void epi_table_free(epi_table *t)
{
	free(t->path);
	free(t->cpu); free(t->host); free(t->kernel); free(t->memory);
	free(t->meter); free(t->domain); free(t->source); free(t->microcode);
	free(t->created); free(t->command); free(t->style);
	for (int i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	for (int i = 0; i < t->nf; i++)
		epi_fcol_free(&t->f[i]);
	free(t->f);
	memset(t, 0, sizeof *t);
}

static void set_double(xmlNodePtr n, const char *name, double v)
{
	if (isnan(v))
		return;
	char buf[64];
	epi_fmt_double(buf, sizeof buf, v);
	xmlNewProp(n, (const xmlChar *)name, (const xmlChar *)buf);
}

static void text_child(xmlNodePtr parent, const char *name, const char *text)
{
	if (text)
		xmlNewTextChild(parent, NULL, (const xmlChar *)name, (const xmlChar *)text);
}

int epi_table_save(const epi_table *t, const char *path, char *err)
{
	xmlDocPtr doc = xmlNewDoc((const xmlChar *)"1.0");
	xmlNodePtr root = xmlNewNode(NULL, (const xmlChar *)"costtable");
	xmlDocSetRootElement(doc, root);
	xmlNewProp(root, (const xmlChar *)"version", (const xmlChar *)"1");
	xmlNodePtr m = xmlNewChild(root, NULL, (const xmlChar *)"machine", NULL);
	text_child(m, "cpu", t->cpu ? t->cpu : "unknown");
	text_child(m, "host", t->host);
	text_child(m, "kernel", t->kernel);
	text_child(m, "memory", t->memory);
	text_child(m, "microcode", t->microcode);
	for (int i = 0; i < 3; i++)
		if (t->cache[i]) {
			xmlNodePtr c = xmlNewChild(m, NULL, (const xmlChar *)"cache", NULL);
			char b[32];
			snprintf(b, sizeof b, "%d", i + 1);
			xmlNewProp(c, (const xmlChar *)"level", (const xmlChar *)b);
			snprintf(b, sizeof b, "%llu", t->cache[i]);
			xmlNewProp(c, (const xmlChar *)"bytes", (const xmlChar *)b);
			if (i == 2 && t->l3_serves) {
				snprintf(b, sizeof b, "%llu", t->l3_serves);
				xmlNewProp(c, (const xmlChar *)"serves", (const xmlChar *)b);
			}
		}
	if (t->tlb_pages) {
		xmlNodePtr c = xmlNewChild(m, NULL, (const xmlChar *)"tlb", NULL);
		char b[32];
		snprintf(b, sizeof b, "%llu", t->tlb_pages);
		xmlNewProp(c, (const xmlChar *)"pages", (const xmlChar *)b);
	}
	xmlNodePtr me = xmlNewChild(root, NULL, (const xmlChar *)"meter", NULL);
	xmlNewProp(me, (const xmlChar *)"name", (const xmlChar *)(t->meter ? t->meter : "none"));
	xmlNewProp(me, (const xmlChar *)"domain", (const xmlChar *)(t->domain ? t->domain : "none"));
	set_double(me, "interval_s", t->meter_interval_s);
	xmlNewProp(me, (const xmlChar *)"estimated", (const xmlChar *)(t->estimated ? "true" : "false"));
	text_child(root, "source", t->source);
	for (int i = 0; i < t->nnotes; i++)
		text_child(root, "note", t->notes[i]);
	if (t->created) {
		xmlNodePtr c = xmlNewChild(root, NULL, (const xmlChar *)"calibration", NULL);
		xmlNewProp(c, (const xmlChar *)"created", (const xmlChar *)t->created);
		if (t->command)
			xmlNewProp(c, (const xmlChar *)"command", (const xmlChar *)t->command);
		if (t->style)
			xmlNewProp(c, (const xmlChar *)"style", (const xmlChar *)t->style);
		if (t->calib_cpu >= 0)
			set_double(c, "cpu", t->calib_cpu);
		set_double(c, "precision", t->precision);
	}
	for (int i = 0; i < t->nf; i++) {
		const epi_fcol *c = &t->f[i];
		xmlNodePtr f = xmlNewChild(root, NULL, (const xmlChar *)"frequency", NULL);
		char fs[32];
		epi_freq_fmt(fs, sizeof fs, c->khz);
		xmlNewProp(f, (const xmlChar *)"ghz", (const xmlChar *)fs);
		set_double(f, "effective_ghz", c->effective_ghz);
		set_double(f, "idle_w", c->idle_w);
		set_double(f, "idle_w_sd", c->idle_w_sd);
		if (c->pinned)
			xmlNewProp(f, (const xmlChar *)"pinned", (const xmlChar *)"true");
		for (int j = 0; j < c->n; j++) {
			const epi_cost *e = &c->op[j];
			xmlNodePtr o = xmlNewChild(f, NULL, (const xmlChar *)"op", NULL);
			xmlNewProp(o, (const xmlChar *)"name", (const xmlChar *)e->key);
			xmlNewProp(o, (const xmlChar *)"unit", (const xmlChar *)epi_unit_name(e->unit));
			for (size_t k = 0; k < NOP_NUM; k++)
				set_double(o, op_num[k].attr, CNUM(e, k));
			char rb[32];
			snprintf(rb, sizeof rb, "%ld", e->runs);
			xmlNewProp(o, (const xmlChar *)"runs", (const xmlChar *)rb);
			if (e->outliers >= 0)
				set_double(o, "outliers", (double)e->outliers);
			if (e->drift)
				xmlNewProp(o, (const xmlChar *)"drift", (const xmlChar *)"true");
			if (e->style[0])
				xmlNewProp(o, (const xmlChar *)"style", (const xmlChar *)e->style);
			if (e->kernel)
				xmlNewProp(o, (const xmlChar *)"kernel", (const xmlChar *)e->kernel);
		}
	}
	int ret = -1;
	if (validate(doc, path, err) == 0) {
		xmlChar *buf;
		int len;
		xmlDocDumpFormatMemoryEnc(doc, &buf, &len, "UTF-8", 1);
		ret = epi_write_atomic(path, buf, (size_t)len, err);
		xmlFree(buf);
	}
	xmlFreeDoc(doc);
	return ret;
}

epi_cost *epi_fcol_find(const epi_fcol *c, const char *key)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->op[i].key, key) == 0)
			return &c->op[i];
	return NULL;
}

const epi_cost *epi_fcol_lookup(const epi_fcol *c, const char *key)
{
	const epi_cost *e = epi_fcol_find(c, key);
	if (e)
		return e;
	size_t cls = strcspn(key, ".");
	for (int i = 0; i < c->n; i++) {
		const char *k = c->op[i].key;
		if (strlen(k) == cls && strncmp(k, key, cls) == 0)
			return &c->op[i];
	}
	return NULL;
}

static void copy_col(epi_fcol *dst, const epi_fcol *src)
{
	*dst = *src;
	dst->op = xmalloc((src->n ? src->n : 1) * sizeof *dst->op);
	for (int i = 0; i < src->n; i++) {
		dst->op[i] = src->op[i];
		dst->op[i].key = xstrdup(src->op[i].key);
		dst->op[i].kernel = src->op[i].kernel ? xstrdup(src->op[i].kernel) : NULL;
	}
}

static double lerp(double a, double b, double w) { return a + (b - a) * w; }

double epi_fcol_at_clock(epi_fcol *c, double ghz)
{
	/* clocks that no processor has: not measured */
	if (!(ghz > 0.01 && ghz < 100) || !(c->effective_ghz > 0.01 && c->effective_ghz < 100))
		return 1;
	double r = c->effective_ghz / ghz;
	for (int i = 0; i < c->n; i++) {
		epi_cost *e = &c->op[i];
		const char *k = e->kernel ? e->kernel : e->key;
		if (strstr(k, ".dram"))
			continue;
		e->t *= r;
		e->t_sd *= r;
		e->t_ci *= r;
	}
	c->effective_ghz = ghz;
	return r;
}

double epi_fcol_at_memory(epi_fcol *c, double secs)
{
	const epi_cost *d = epi_fcol_find(c, "load.dram");
	if (!(secs > 0) || !d || !(d->t > 0))
		return 1;
	double r = secs / d->t;
	double f = r > EPI_MEMORY_BAND ? r / EPI_MEMORY_BAND : r < 1 / EPI_MEMORY_BAND ? r * EPI_MEMORY_BAND : 1;
	if (f == 1)
		return 1;
	for (int i = 0; i < c->n; i++) {
		epi_cost *e = &c->op[i];
		const char *k = e->kernel ? e->kernel : e->key;
		if (!strstr(k, ".dram"))
			continue;
		e->t *= f;
		e->t_sd *= f;
		e->t_ci *= f;
		e->cycles *= f;
		e->cycles_sd *= f;
	}
	return f;
}

int epi_table_at(const epi_table *t, long khz, epi_fcol *out, char *err)
{
	memset(out, 0, sizeof *out);
	for (int i = 0; i < t->nf; i++)
		if (t->f[i].khz == khz) {
			copy_col(out, &t->f[i]);
			return 0;
		}
	for (int i = 0; i + 1 < t->nf; i++) {
		const epi_fcol *a = &t->f[i], *b = &t->f[i + 1];
		if (khz < a->khz || khz > b->khz)
			continue;
		double w = (double)(khz - a->khz) / (double)(b->khz - a->khz);
		out->khz = khz;
		out->interpolated = 1;
		out->effective_ghz = lerp(a->effective_ghz, b->effective_ghz, w);
		out->idle_w = lerp(a->idle_w, b->idle_w, w);
		out->idle_w_sd = lerp(a->idle_w_sd, b->idle_w_sd, w);
		out->op = xmalloc((a->n ? a->n : 1) * sizeof *out->op);
		for (int j = 0; j < a->n; j++) {
			const epi_cost *x = &a->op[j], *y = NULL;
			for (int k = 0; k < b->n; k++)
				if (strcmp(b->op[k].key, x->key) == 0)
					y = &b->op[k];
			if (!y || y->unit != x->unit)
				continue; /* only at one end: not interpolated */
			epi_cost *e = &out->op[out->n++];
			epi_cost_init(e);
			e->key = xstrdup(x->key);
			e->kernel = x->kernel ? xstrdup(x->kernel) : NULL;
			e->unit = x->unit;
			for (size_t k = 0; k < NOP_NUM; k++)
				NUM(e, k) = lerp(CNUM(x, k), CNUM(y, k), w);
			e->runs = x->runs < y->runs ? x->runs : y->runs;
			memcpy(e->style, x->style, sizeof e->style);
		}
		return 0;
	}
	char list[256] = "";
	size_t len = 0;
	for (int i = 0; i < t->nf && len < sizeof list - 32; i++) {
		char fs[32];
		epi_freq_fmt(fs, sizeof fs, t->f[i].khz);
		len += snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", fs);
	}
	char fs[32];
	epi_freq_fmt(fs, sizeof fs, khz);
	return epi_error(err, "frequency %s GHz is outside cost table '%s' (calibrated: %s GHz)", fs,
			 t->path ? t->path : "?", list);
}

int epi_table_default_path(char *out, size_t n)
{
	const char *d = getenv("EPI_DATA_DIR"), *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
	if (d && *d)
		snprintf(out, n, "%s/costtable.xml", d);
	else if (x && *x)
		snprintf(out, n, "%s/epi/costtable.xml", x);
	else if (h && *h)
		snprintf(out, n, "%s/.local/share/epi/costtable.xml", h);
	else
		return -1;
	return 0;
}


char *epi_table_find_default(void)
{
	const char *e = getenv("EPI_TABLE");
	if (e && *e)
		return xstrdup(e);
	char path[4096];
	if (epi_table_default_path(path, sizeof path) < 0)
		return NULL;
	return access(path, R_OK) == 0 ? xstrdup(path) : NULL;
}
