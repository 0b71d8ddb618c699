/* table: load, validate, save and query cost tables (libxml2). */
#include "model/table.h"
#include "model/freq.h"
#include "model/util.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *xstrdup(const xmlChar *s) { return s ? strdup((const char *)s) : NULL; }

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
			char *r = xstrdup(t);
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
	memset(t, 0, sizeof *t);
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
	t->path = strdup(path);
	t->meter_interval_s = NAN;
	for (xmlNodePtr n = root->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		const char *name = (const char *)n->name;
		if (strcmp(name, "machine") == 0) {
			t->cpu = child_text(n, "cpu");
			t->host = child_text(n, "host");
			t->kernel = child_text(n, "kernel");
			t->memory = child_text(n, "memory");
		} else if (strcmp(name, "meter") == 0) {
			xmlChar *v;
			t->meter = xstrdup(v = xmlGetProp(n, (const xmlChar *)"name"));
			xmlFree(v);
			t->domain = xstrdup(v = xmlGetProp(n, (const xmlChar *)"domain"));
			xmlFree(v);
			t->meter_interval_s = attr_double(n, "interval_s");
			v = xmlGetProp(n, (const xmlChar *)"estimated");
			t->estimated = v && (strcmp((char *)v, "true") == 0 || strcmp((char *)v, "1") == 0);
			xmlFree(v);
		} else if (strcmp(name, "source") == 0) {
			xmlChar *v = xmlNodeGetContent(n);
			t->source = xstrdup(v);
			xmlFree(v);
		} else if (strcmp(name, "note") == 0) {
			xmlChar *v = xmlNodeGetContent(n);
			t->notes = realloc(t->notes, (t->nnotes + 1) * sizeof *t->notes);
			t->notes[t->nnotes++] = xstrdup(v);
			xmlFree(v);
		} else if (strcmp(name, "frequency") == 0) {
			xmlChar *g = xmlGetProp(n, (const xmlChar *)"ghz");
			char fs[64];
			snprintf(fs, sizeof fs, "%sGHz", (const char *)g);
			xmlFree(g);
			t->f = realloc(t->f, (t->nf + 1) * sizeof *t->f);
			epi_fcol *c = &t->f[t->nf++];
			memset(c, 0, sizeof *c);
			if (epi_freq_parse(fs, &c->khz, err) < 0) {
				epi_error(err, "'%s' line %ld: invalid frequency '%s'", path, xmlGetLineNo(n), fs);
				goto fail;
			}
			for (xmlNodePtr o = n->children; o; o = o->next) {
				if (o->type != XML_ELEMENT_NODE)
					continue;
				c->op = realloc(c->op, (c->n + 1) * sizeof *c->op);
				epi_cost *e = &c->op[c->n++];
				xmlChar *v = xmlGetProp(o, (const xmlChar *)"name");
				e->key = xstrdup(v);
				xmlFree(v);
				v = xmlGetProp(o, (const xmlChar *)"unit");
				e->unit = epi_unit_parse((const char *)v);
				xmlFree(v);
				e->e = attr_double(o, "energy_j");
				e->e_sd = attr_double(o, "energy_sd_j");
				e->t = attr_double(o, "time_s");
				e->t_sd = attr_double(o, "time_sd_s");
				e->runs = (long)attr_double(o, "runs");
				int cls = epi_op_class(e->key);
				if (cls < 0) {
					epi_error(err, "'%s' line %ld: unknown operation '%s'", path, xmlGetLineNo(o), e->key);
					goto fail;
				}
				if (epi_unit_factor(cls, e->unit) < 0) {
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
	for (int i = 0; i < c->n; i++)
		free(c->op[i].key);
	free(c->op);
	memset(c, 0, sizeof *c);
}

void epi_table_free(epi_table *t)
{
	free(t->path);
	free(t->cpu); free(t->host); free(t->kernel); free(t->memory);
	free(t->meter); free(t->domain); free(t->source);
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
	xmlNodePtr me = xmlNewChild(root, NULL, (const xmlChar *)"meter", NULL);
	xmlNewProp(me, (const xmlChar *)"name", (const xmlChar *)(t->meter ? t->meter : "none"));
	xmlNewProp(me, (const xmlChar *)"domain", (const xmlChar *)(t->domain ? t->domain : "none"));
	set_double(me, "interval_s", t->meter_interval_s);
	xmlNewProp(me, (const xmlChar *)"estimated", (const xmlChar *)(t->estimated ? "true" : "false"));
	text_child(root, "source", t->source);
	for (int i = 0; i < t->nnotes; i++)
		text_child(root, "note", t->notes[i]);
	for (int i = 0; i < t->nf; i++) {
		const epi_fcol *c = &t->f[i];
		xmlNodePtr f = xmlNewChild(root, NULL, (const xmlChar *)"frequency", NULL);
		char fs[32];
		epi_freq_fmt(fs, sizeof fs, c->khz);
		xmlNewProp(f, (const xmlChar *)"ghz", (const xmlChar *)fs);
		for (int j = 0; j < c->n; j++) {
			const epi_cost *e = &c->op[j];
			xmlNodePtr o = xmlNewChild(f, NULL, (const xmlChar *)"op", NULL);
			xmlNewProp(o, (const xmlChar *)"name", (const xmlChar *)e->key);
			xmlNewProp(o, (const xmlChar *)"unit", (const xmlChar *)epi_unit_name(e->unit));
			set_double(o, "energy_j", e->e);
			set_double(o, "energy_sd_j", e->e_sd);
			set_double(o, "time_s", e->t);
			set_double(o, "time_sd_s", e->t_sd);
			char rb[32];
			snprintf(rb, sizeof rb, "%ld", e->runs);
			xmlNewProp(o, (const xmlChar *)"runs", (const xmlChar *)rb);
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

const epi_cost *epi_fcol_lookup(const epi_fcol *c, const char *key)
{
	size_t cls = strcspn(key, ".");
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < c->n; i++) {
			const char *k = c->op[i].key;
			if (pass == 0 ? strcmp(k, key) == 0 : (strlen(k) == cls && strncmp(k, key, cls) == 0))
				return &c->op[i];
		}
	return NULL;
}

static void copy_col(epi_fcol *dst, const epi_fcol *src)
{
	*dst = *src;
	dst->op = malloc((src->n ? src->n : 1) * sizeof *dst->op);
	for (int i = 0; i < src->n; i++) {
		dst->op[i] = src->op[i];
		dst->op[i].key = strdup(src->op[i].key);
	}
}

static double lerp(double a, double b, double w) { return a + (b - a) * w; }

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
		out->op = malloc((a->n ? a->n : 1) * sizeof *out->op);
		for (int j = 0; j < a->n; j++) {
			const epi_cost *x = &a->op[j], *y = NULL;
			for (int k = 0; k < b->n; k++)
				if (strcmp(b->op[k].key, x->key) == 0)
					y = &b->op[k];
			if (!y || y->unit != x->unit)
				continue; /* only at one end: not interpolated */
			epi_cost *e = &out->op[out->n++];
			e->key = strdup(x->key);
			e->unit = x->unit;
			e->e = lerp(x->e, y->e, w);
			e->e_sd = lerp(x->e_sd, y->e_sd, w);
			e->t = lerp(x->t, y->t, w);
			e->t_sd = lerp(x->t_sd, y->t_sd, w);
			e->runs = x->runs < y->runs ? x->runs : y->runs;
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
