/* trace: writes and reads epi-profile traces (the format is in trace.h). */
#include "validate/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "model/util.h"

static const char magic[8] = {'E', 'P', 'I', 'T', 'R', 'A', 'C', 'E'};

#define SAMPLE_BYTES 32
#define READING_BYTES 20
#define READING_BYTES_V1 16
#define MAP_FIXED_BYTES (4 + 8 + 8 + 8 + 1 + EPI_BUILDID_MAX + 2)
#define END_BYTES (4 + 4 + 8 + 8 + 8 + 8 + 8 + 8 + 4)
#define RUN_BYTES (4 + 4 + 8 + 8)

/* ---- little-endian encoding ---- */
static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void putd(unsigned char *p, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof v);
	put64(p, v);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static double getd(const unsigned char *p)
{
	uint64_t v = get64(p);
	double d;
	memcpy(&d, &v, sizeof d);
	return d;
}

void epi_buildid_hex(const unsigned char *id, int len, char *out)
{
	for (int i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * (len > 0 ? len : 0)] = 0;
}

/* ---- writing ---- */
static int wfail(epi_trace_writer *w, char *err)
{
	return epi_error(err, "cannot write trace '%s': %s", w->tmp, strerror(errno ? errno : EIO));
}

static int put_record(epi_trace_writer *w, enum epi_rec type, const void *a, size_t na, const void *b, size_t nb, char *err)
{
	unsigned char h[8];
	put32(h, (uint32_t)type);
	put32(h + 4, (uint32_t)(na + nb));
	if (fwrite(h, 1, sizeof h, w->f) != sizeof h || (na && fwrite(a, 1, na, w->f) != na) ||
	    (nb && fwrite(b, 1, nb, w->f) != nb))
		return wfail(w, err);
	if (w->run_at >= 0) {
		w->crc = (uint32_t)crc32(w->crc, h, sizeof h);
		if (na)
			w->crc = (uint32_t)crc32(w->crc, a, (uInt)na);
		if (nb)
			w->crc = (uint32_t)crc32(w->crc, b, (uInt)nb);
	}
	return 0;
}

static void kv(char **buf, size_t *len, size_t *cap, const char *k, const char *v)
{
	size_t need = strlen(k) + strlen(v) + 3;
	if (*len + need >= *cap) {
		*cap = 2 * (*len + need);
		*buf = xrealloc(*buf, *cap);
	}
	/* values are one line: newlines become spaces */
	*len += (size_t)sprintf(*buf + *len, "%s=", k);
	for (const char *p = v; *p; p++)
		(*buf)[(*len)++] = *p == '\n' ? ' ' : *p;
	(*buf)[(*len)++] = '\n';
	(*buf)[*len] = 0;
}

static void kv_double(char **buf, size_t *len, size_t *cap, const char *k, double v)
{
	char num[64];
	epi_fmt_double(num, sizeof num, v);
	kv(buf, len, cap, k, num);
}

/* The header's CRC-32 (version 3): the file's first 16 bytes SIG, the
 * header record's type and length REC (8 bytes), its text TEXT (N bytes). */
static uint32_t header_crc(const unsigned char *sig, const unsigned char *rec, const unsigned char *text, size_t n)
{
	uLong c = crc32(crc32(crc32(0, NULL, 0), sig, 16), rec, 8);
	return (uint32_t)crc32(c, text, (uInt)n);
}

int epi_trace_create(epi_trace_writer *w, const char *path, const epi_trace_info *info, char *err)
{
	memset(w, 0, sizeof *w);
	w->run_at = -1;
	snprintf(w->path, sizeof w->path, "%s", path);
	snprintf(w->tmp, sizeof w->tmp, "%s.XXXXXX", path);
	int fd = mkstemp(w->tmp);
	if (fd < 0)
		return epi_error(err, "cannot create trace '%s': %s", path, strerror(errno));
	fchmod(fd, 0644);
	w->f = fdopen(fd, "w+b");
	unsigned char h[16];
	memcpy(h, magic, 8);
	put32(h + 8, EPI_TRACE_VERSION);
	put32(h + 12, 0);
	if (fwrite(h, 1, sizeof h, w->f) != sizeof h) {
		wfail(w, err);
		epi_trace_abort(w);
		return -1;
	}
	char *t = NULL, num[64];
	size_t len = 0, cap = 0;
	kv(&t, &len, &cap, "method", info->method);
	kv(&t, &len, &cap, "meter", info->meter);
	kv(&t, &len, &cap, "domain", info->domain);
	kv_double(&t, &len, &cap, "meter_interval_s", info->meter_interval_s);
	kv_double(&t, &len, &cap, "meter_update_s", info->meter_update_s);
	snprintf(num, sizeof num, "%" PRIu64, info->interval_ns);
	kv(&t, &len, &cap, "interval_ns", num);
	snprintf(num, sizeof num, "%lld", info->freq_khz);
	kv(&t, &len, &cap, "freq_khz", num);
	kv_double(&t, &len, &cap, "effective_ghz", info->effective_ghz);
	kv_double(&t, &len, &cap, "dram_load_s", info->dram_load_s);
	kv(&t, &len, &cap, "command", info->command);
	kv(&t, &len, &cap, "exe", info->exe);
#ifdef EPI_VERSION
	kv(&t, &len, &cap, "epi_version", EPI_VERSION);
#endif
	/* the header's CRC-32 covers the signature, the version and the
	 * record: a changed setting (method=perf) is found, not believed */
	unsigned char rec[8], crc[4];
	put32(rec, EPI_REC_HEADER);
	put32(rec + 4, (uint32_t)len + 4);
	put32(crc, header_crc(h, rec, (const unsigned char *)t, len));
	int r = put_record(w, EPI_REC_HEADER, t, len, crc, sizeof crc, err);
	free(t);
	if (r < 0)
		epi_trace_abort(w);
	return r;
}

int epi_trace_run(epi_trace_writer *w, const epi_run_begin *b, char *err)
{
	if (w->run_at >= 0 && epi_trace_drop_run(w, err) < 0)
		return -1;
	w->run_at = ftell(w->f);
	w->crc = (uint32_t)crc32(0, NULL, 0);
	unsigned char p[RUN_BYTES];
	put32(p, b->index);
	put32(p + 4, b->pid);
	put64(p + 8, b->start_ns);
	put64(p + 16, b->offset_ns);
	return put_record(w, EPI_REC_RUN, p, sizeof p, NULL, 0, err);
}

int epi_trace_map(epi_trace_writer *w, const epi_map *m, char *err)
{
	unsigned char p[MAP_FIXED_BYTES];
	memset(p, 0, sizeof p);
	size_t plen = strnlen(m->path, sizeof m->path);
	put32(p, m->pid);
	put64(p + 4, m->start);
	put64(p + 12, m->len);
	put64(p + 20, m->pgoff);
	int bl = m->buildid_len < 0 ? 0 : m->buildid_len > EPI_BUILDID_MAX ? EPI_BUILDID_MAX : m->buildid_len;
	p[28] = (unsigned char)bl;
	memcpy(p + 29, m->buildid, (size_t)bl);
	p[29 + EPI_BUILDID_MAX] = (unsigned char)(plen & 0xff);
	p[30 + EPI_BUILDID_MAX] = (unsigned char)(plen >> 8);
	return put_record(w, EPI_REC_MAP, p, sizeof p, m->path, plen, err);
}

static void enc_sample(unsigned char *q, const void *v, uint32_t i)
{
	const epi_sample *x = (const epi_sample *)v + i;
	put64(q, x->t_ns);
	put64(q + 8, x->ip);
	put32(q + 16, x->tid);
	put32(q + 20, x->cpu);
	putd(q + 24, x->watts);
}

static void enc_reading(unsigned char *q, const void *v, uint32_t i)
{
	const epi_reading *x = (const epi_reading *)v + i;
	put64(q, x->t_ns);
	putd(q + 8, x->joules);
	put32(q + 16, x->span_ns);
}

/* Writes the N items of V as TYPE records of at most 4096 items (u32 count,
 * then EACH bytes per item, written by ENC). */
static int put_batches(epi_trace_writer *w, enum epi_rec type, const void *v, uint32_t n, size_t each,
		       void (*enc)(unsigned char *, const void *, uint32_t), char *err)
{
	const uint32_t batch = 4096;
	unsigned char *p = xmalloc(4 + (size_t)batch * each);
	int ret = 0;
	for (uint32_t at = 0; at < n && ret == 0; at += batch) {
		uint32_t k = n - at < batch ? n - at : batch;
		put32(p, k);
		for (uint32_t i = 0; i < k; i++)
			enc(p + 4 + (size_t)i * each, v, at + i);
		ret = put_record(w, type, p, 4 + (size_t)k * each, NULL, 0, err);
	}
	free(p);
	return ret;
}

int epi_trace_samples(epi_trace_writer *w, const epi_sample *s, uint32_t n, char *err)
{
	return put_batches(w, EPI_REC_SAMPLES, s, n, SAMPLE_BYTES, enc_sample, err);
}

int epi_trace_readings(epi_trace_writer *w, const epi_reading *r, uint32_t n, char *err)
{
	return put_batches(w, EPI_REC_METER, r, n, READING_BYTES, enc_reading, err);
}

int epi_trace_end(epi_trace_writer *w, const epi_run_end *e, char *err)
{
	if (w->run_at < 0)
		return epi_error(err, "trace '%s': a run ends that did not begin", w->path);
	unsigned char p[END_BYTES];
	put32(p, (uint32_t)e->status);
	put32(p + 4, e->flags);
	putd(p + 8, e->wall_s);
	putd(p + 16, e->cpu_s);
	putd(p + 24, e->joules);
	put64(p + 32, e->nsamples);
	put64(p + 40, e->lost);
	putd(p + 48, e->prof_cpu_s);
	/* the CRC covers the END's header and payload up to the CRC itself */
	unsigned char h[8];
	put32(h, EPI_REC_END);
	put32(h + 4, END_BYTES);
	uint32_t crc = (uint32_t)crc32(w->crc, h, sizeof h);
	crc = (uint32_t)crc32(crc, p, END_BYTES - 4);
	put32(p + END_BYTES - 4, crc);
	if (put_record(w, EPI_REC_END, p, sizeof p, NULL, 0, err) < 0)
		return -1;
	if (fflush(w->f) != 0)
		return wfail(w, err);
	w->run_at = -1;
	w->nruns++;
	return 0;
}

int epi_trace_drop_run(epi_trace_writer *w, char *err)
{
	if (w->run_at < 0)
		return 0;
	if (fflush(w->f) != 0 || ftruncate(fileno(w->f), w->run_at) != 0 || fseek(w->f, w->run_at, SEEK_SET) != 0)
		return wfail(w, err);
	w->run_at = -1;
	return 0;
}

int epi_trace_commit(epi_trace_writer *w, char *err)
{
	if (epi_trace_drop_run(w, err) < 0)
		goto fail;
	if (fflush(w->f) != 0 || fsync(fileno(w->f)) != 0) {
		wfail(w, err);
		goto fail;
	}
	fclose(w->f);
	w->f = NULL;
	if (rename(w->tmp, w->path) != 0) {
		epi_error(err, "cannot write trace '%s': %s", w->path, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	epi_trace_abort(w);
	return -1;
}

void epi_trace_abort(epi_trace_writer *w)
{
	if (w->f)
		fclose(w->f);
	w->f = NULL;
	if (w->tmp[0])
		unlink(w->tmp);
	w->tmp[0] = 0;
}

/* ---- reading ---- */
static int rfail(epi_trace_reader *r, char *err, uint64_t at, const char *why)
{
	return epi_error(err, "trace '%s': %s at byte %" PRIu64, r->path, why, at);
}

static void header_value(const char *text, const char *key, char *out, size_t n)
{
	size_t kl = strlen(key);
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t ll = nl ? (size_t)(nl - p) : strlen(p);
		if (ll > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
			size_t vl = ll - kl - 1;
			if (vl >= n)
				vl = n - 1;
			memcpy(out, p + kl + 1, vl);
			out[vl] = 0;
			return;
		}
		p = nl ? nl + 1 : NULL;
	}
	out[0] = 0;
}

/* The header's number KEY, NAN when absent. */
static double header_double(const char *text, const char *key)
{
	char num[64];
	header_value(text, key, num, sizeof num);
	return num[0] ? strtod(num, NULL) : NAN;
}

/* Reads the next record's header and payload into r->buf; 1, 0 at EOF, -1. */
static int read_record(epi_trace_reader *r, uint32_t *type, uint32_t *len, char *err)
{
	unsigned char h[8];
	size_t got = fread(h, 1, sizeof h, r->f);
	if (got == 0 && feof(r->f))
		return 0;
	if (got != sizeof h)
		return rfail(r, err, r->off, "truncated record header");
	*type = get32(h);
	*len = get32(h + 4);
	if (*type < EPI_REC_HEADER || *type > EPI_REC_END)
		return rfail(r, err, r->off, "unknown record type (corrupt)");
	if (*len > (64u << 20))
		return rfail(r, err, r->off, "record length out of range (corrupt)");
	if (*len + 8 > r->cap) {
		r->cap = *len + 8;
		r->buf = xrealloc(r->buf, r->cap);
	}
	memcpy(r->buf, h, 8);
	if (fread(r->buf + 8, 1, *len, r->f) != *len)
		return rfail(r, err, r->off, "truncated record");
	return 1;
}

int epi_trace_open(epi_trace_reader *r, const char *path, char *err)
{
	memset(r, 0, sizeof *r);
	snprintf(r->path, sizeof r->path, "%s", path);
	r->f = fopen(path, "rb");
	if (!r->f)
		return epi_error(err, "cannot open trace '%s': %s", path, strerror(errno));
	unsigned char h[16];
	if (fread(h, 1, sizeof h, r->f) != sizeof h || memcmp(h, magic, 8) != 0) {
		epi_trace_close(r);
		return epi_error(err, "'%s' is not an epi trace (no EPITRACE signature)", path);
	}
	uint32_t v = get32(h + 8);
	if (v < 1 || v > EPI_TRACE_VERSION) {
		epi_trace_close(r);
		return epi_error(err, "trace '%s' has format version %u; this epi reads versions 1 to %d", path, v,
				 EPI_TRACE_VERSION);
	}
	r->version = v;
	r->off = sizeof h;
	uint32_t type, len;
	int k = read_record(r, &type, &len, err);
	if (k <= 0 || type != EPI_REC_HEADER) {
		if (k >= 0)
			rfail(r, err, r->off, k == 0 ? "no header" : "no header (corrupt)");
		epi_trace_close(r);
		return -1;
	}
	r->off += 8 + len;
	if (v >= 3) { /* the text, then its CRC-32 with the signature's */
		if (len < 4 || get32(r->buf + 4 + len) != header_crc(h, r->buf, r->buf + 8, len - 4)) {
			rfail(r, err, sizeof h, "header checksum mismatch (corrupt)");
			epi_trace_close(r);
			return -1;
		}
		len -= 4;
	} else {
		r->unchecked = 1;
	}
	r->header = xmalloc(len + 1);
	memcpy(r->header, r->buf + 8, len);
	r->header[len] = 0;
	epi_trace_info *in = &r->info;
	char num[64];
	header_value(r->header, "method", in->method, sizeof in->method);
	header_value(r->header, "meter", in->meter, sizeof in->meter);
	header_value(r->header, "domain", in->domain, sizeof in->domain);
	in->meter_interval_s = header_double(r->header, "meter_interval_s");
	in->meter_update_s = header_double(r->header, "meter_update_s");
	header_value(r->header, "interval_ns", num, sizeof num);
	in->interval_ns = strtoull(num, NULL, 10);
	header_value(r->header, "freq_khz", num, sizeof num);
	in->freq_khz = strtoll(num, NULL, 10);
	in->effective_ghz = header_double(r->header, "effective_ghz");
	if (!(in->effective_ghz > 0.01 && in->effective_ghz < 100))
		in->effective_ghz = NAN; /* older traces: not measured; nothing a clock can be: not used */
	in->dram_load_s = header_double(r->header, "dram_load_s");
	if (!(in->dram_load_s > 0 && in->dram_load_s < 1e-3))
		in->dram_load_s = NAN; /* older traces, or no time a load can take: not used */
	header_value(r->header, "command", in->command, sizeof in->command);
	header_value(r->header, "exe", in->exe, sizeof in->exe);
	return 0;
}

int epi_trace_next(epi_trace_reader *r, epi_trace_item *it, char *err)
{
	uint32_t type, len;
	int k = read_record(r, &type, &len, err);
	if (k <= 0) {
		if (k == 0 && r->in_run)
			return rfail(r, err, r->off, "truncated: the last run has no end");
		return k;
	}
	const unsigned char *p = r->buf + 8;
	memset(it, 0, sizeof *it);
	it->type = (enum epi_rec)type;
	it->offset = r->off;
	const char *bad = NULL;
	if (type == EPI_REC_RUN) {
		r->crc = (uint32_t)crc32(0, NULL, 0);
		r->in_run = 1;
		if (len != RUN_BYTES) {
			bad = "bad run record (corrupt)";
		} else {
			it->u.run.index = get32(p);
			it->u.run.pid = get32(p + 4);
			it->u.run.start_ns = get64(p + 8);
			it->u.run.offset_ns = get64(p + 16);
		}
	} else if (!r->in_run) {
		bad = "record outside a run (corrupt)";
	} else if (type == EPI_REC_MAP) {
		epi_map *m = &it->u.map;
		size_t pl = len >= MAP_FIXED_BYTES ? (size_t)p[29 + EPI_BUILDID_MAX] | (size_t)p[30 + EPI_BUILDID_MAX] << 8 : 0;
		if (len < MAP_FIXED_BYTES || len != MAP_FIXED_BYTES + pl || pl >= sizeof m->path ||
		    p[28] > EPI_BUILDID_MAX) {
			bad = "bad map record (corrupt)";
		} else {
			m->pid = get32(p);
			m->start = get64(p + 4);
			m->len = get64(p + 12);
			m->pgoff = get64(p + 20);
			m->buildid_len = p[28];
			memcpy(m->buildid, p + 29, EPI_BUILDID_MAX);
			memcpy(m->path, p + MAP_FIXED_BYTES, pl);
			m->path[pl] = 0;
		}
	} else if (type == EPI_REC_SAMPLES || type == EPI_REC_METER) {
		size_t each = type == EPI_REC_SAMPLES ? SAMPLE_BYTES : r->version == 1 ? READING_BYTES_V1 : READING_BYTES;
		size_t sz = type == EPI_REC_SAMPLES ? sizeof(epi_sample) : sizeof(epi_reading);
		uint32_t n = len >= 4 ? get32(p) : 0;
		if (len < 4 || (size_t)len != 4 + n * each) {
			bad = "bad sample record (corrupt)";
		} else {
			if (n * sz > r->veccap) {
				r->veccap = n * sz;
				r->vec = xrealloc(r->vec, r->veccap);
			}
			for (uint32_t i = 0; i < n; i++) {
				const unsigned char *q = p + 4 + i * each;
				if (type == EPI_REC_SAMPLES) {
					epi_sample *s = (epi_sample *)r->vec + i;
					s->t_ns = get64(q);
					s->ip = get64(q + 8);
					s->tid = get32(q + 16);
					s->cpu = get32(q + 20);
					s->watts = getd(q + 24);
				} else {
					epi_reading *x = (epi_reading *)r->vec + i;
					x->t_ns = get64(q);
					x->joules = getd(q + 8);
					x->span_ns = r->version == 1 ? 0 : get32(q + 16);
				}
			}
			if (type == EPI_REC_SAMPLES) {
				it->u.samples.v = r->vec;
				it->u.samples.n = n;
			} else {
				it->u.readings.v = r->vec;
				it->u.readings.n = n;
			}
		}
	} else if (type == EPI_REC_END) {
		if (len != END_BYTES) {
			bad = "bad end record (corrupt)";
		} else {
			uint32_t crc = (uint32_t)crc32(r->crc, r->buf, 8 + END_BYTES - 4);
			if (crc != get32(p + END_BYTES - 4))
				bad = "checksum mismatch in the run ending here (corrupt)";
			epi_run_end *e = &it->u.end;
			e->status = (int32_t)get32(p);
			e->flags = get32(p + 4);
			e->wall_s = getd(p + 8);
			e->cpu_s = getd(p + 16);
			e->joules = getd(p + 24);
			e->nsamples = get64(p + 32);
			e->lost = get64(p + 40);
			e->prof_cpu_s = getd(p + 48);
			r->in_run = 0;
		}
	} else {
		bad = "a second header (corrupt)";
	}
	if (bad)
		return rfail(r, err, r->off, bad);
	if (r->in_run)
		r->crc = (uint32_t)crc32(r->crc, r->buf, 8 + len);
	r->off += 8 + len;
	return 1;
}

void epi_trace_close(epi_trace_reader *r)
{
	if (r->f)
		fclose(r->f);
	free(r->header);
	free(r->buf);
	free(r->vec);
	memset(r, 0, sizeof *r);
}
