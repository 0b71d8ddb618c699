/* meter_wattsup: the WattsUp? Pro wall meter over USB serial (the meter of
 * RR-8416), --meter wattsup:DEVICE.
 *
 * 115200 baud, 8N1, raw. The meter is asked for its version (#V,R,0;) and
 * must answer with a #v record within a timeout, else DEVICE is not a
 * WattsUp. Then #L,W,3,E,0,1; starts external logging: one record per
 * second, #d,-,18,W*10,V*10,mA,...; records are framed on '#' ... ';' even
 * when a read returns half of one, bytes outside a frame are skipped, and
 * after three bad records in a row logging is started again. Each record's
 * watts hold until the next one (zero-order hold), integrated into joules;
 * opening waits for the first record so that a window never starts without
 * a power. A meter that stops sending (unplugged) is an error. */
#include "machine/meter.h"
#include "machine/sysroot.h"
#include "model/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define WU_LOG_CMD "#L,W,3,E,0,1;"

typedef struct wu_priv {
	int fd;
	char dev[EPI_PATHLEN];
	epi_wattsup s;
	int restarts;      /* logging restarts */
	double silent_s;   /* longest allowed gap between records */
} wu_priv;

static double timeout_s(void)
{
	const char *t = getenv("EPI_WATTSUP_TIMEOUT");
	double v = t ? strtod(t, NULL) : 0;
	return v > 0 ? v : 3.0;
}

static int send_cmd(wu_priv *p, const char *cmd, char *err)
{
	size_t n = strlen(cmd);
	if (write(p->fd, cmd, n) != (ssize_t)n)
		return epi_error(err, "cannot write to '%s': %s", p->dev, strerror(errno));
	return 0;
}

/* Handles one framed record REC ('#' .. ';', NUL-terminated, no ';'). */
static void record(epi_wattsup *p, char *rec, double now)
{
	if (rec[1] == 'v') {
		p->saw_version = 1;
		return;
	}
	if (rec[1] != 'd') {
		p->bad_run++;
		return;
	}
	/* #d,-,18,W*10,... : the fourth field */
	char *f[8] = {0};
	int n = 0;
	for (char *s = rec; s && n < 8; n++) {
		f[n] = s;
		s = strchr(s, ',');
		if (s)
			*s++ = 0;
	}
	char *end;
	long w10 = n > 3 ? strtol(f[3], &end, 10) : -1;
	if (n < 4 || end == f[3] || *end || w10 < 0 || w10 > 200000) {
		p->bad_run++;
		return;
	}
	p->bad_run = 0;
	if (p->have)
		p->acc += p->w * (now - p->t);
	p->w = (double)w10 / 10;
	p->t = now;
	p->have = 1;
}

/* Frames what the buffer holds and handles each whole record. */
static void frame(epi_wattsup *p, double now)
{
	for (;;) {
		char *hash = memchr(p->buf, '#', p->len);
		if (!hash) {
			p->len = 0; /* garbage */
			return;
		}
		if (hash != p->buf) {
			p->len -= (size_t)(hash - p->buf);
			memmove(p->buf, hash, p->len);
		}
		char *semi = memchr(p->buf, ';', p->len);
		char *next = memchr(p->buf + 1, '#', p->len - 1);
		if (next && (!semi || next < semi)) {
			/* a frame that never closed: drop it */
			p->bad_run++;
			p->len -= (size_t)(next - p->buf);
			memmove(p->buf, next, p->len);
			continue;
		}
		if (!semi) {
			if (p->len >= sizeof p->buf - 1) {
				p->bad_run++;
				p->len = 0;
			}
			return;
		}
		*semi = 0;
		record(p, p->buf, now);
		size_t used = (size_t)(semi - p->buf) + 1;
		p->len -= used;
		memmove(p->buf, p->buf + used, p->len);
	}
}

void epi_wattsup_feed(epi_wattsup *p, const char *data, size_t n, double now)
{
	while (n > 0) {
		size_t k = sizeof p->buf - 1 - p->len;
		if (k > n)
			k = n;
		memcpy(p->buf + p->len, data, k);
		p->len += k;
		data += k;
		n -= k;
		frame(p, now);
	}
}

/* Reads what the serial line has, frames and handles records. */
static int drain(wu_priv *p, char *err)
{
	char chunk[EPI_WATTSUP_BUF];
	for (;;) {
		ssize_t r = read(p->fd, chunk, sizeof chunk);
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return epi_error(err, "meter 'wattsup:%s' stopped answering: %s (unplugged?)", p->dev,
					 r < 0 ? strerror(errno) : "end of file");
		epi_wattsup_feed(&p->s, chunk, (size_t)r, epi_now());
		if (p->s.bad_run >= 3) {
			p->s.bad_run = 0;
			p->restarts++;
			if (send_cmd(p, WU_LOG_CMD, err) < 0)
				return -1;
		}
	}
	return 0;
}

/* Drains until COND holds or T seconds pass; returns 1 if it held. */
static int wait_for(wu_priv *p, int *cond, double t, char *err)
{
	double end = epi_now() + t;
	while (!*cond) {
		double left = end - epi_now();
		if (left <= 0)
			return 0;
		struct pollfd pf = {.fd = p->fd, .events = POLLIN};
		int r = poll(&pf, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno != EINTR)
			return epi_error(err, "cannot wait for '%s': %s", p->dev, strerror(errno));
		if (r > 0 && drain(p, err) < 0)
			return -1;
	}
	return 1;
}

static void wu_close(epi_meter *m)
{
	wu_priv *p = m->priv;
	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	free(p);
	m->priv = NULL;
}

static int wu_open(epi_meter *m, const char *arg, char *err)
{
	if (!arg || !*arg)
		return epi_error(err, "meter 'wattsup' needs its serial device: --meter wattsup:/dev/ttyUSB0");
	wu_priv *p = xcalloc(1, sizeof *p);
	m->priv = p;
	snprintf(p->dev, sizeof p->dev, "%s", arg);
	p->fd = open(arg, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (p->fd < 0) {
		int e = errno;
		if (e == EACCES || e == EPERM)
			return epi_error(err, "cannot open '%s': permission denied; %s", arg, epi_perm_hint("/dev/tty"));
		return epi_error(err, "cannot open '%s': %s", arg, strerror(e));
	}
	struct termios tio;
	if (tcgetattr(p->fd, &tio) < 0)
		return epi_error(err, "'%s' is not a serial device: %s", arg, strerror(errno));
	cfmakeraw(&tio);
	cfsetispeed(&tio, B115200);
	cfsetospeed(&tio, B115200);
	tio.c_cflag &= ~(CSTOPB | PARENB | CSIZE);
	tio.c_cflag |= CS8 | CLOCAL | CREAD;
	if (tcsetattr(p->fd, TCSANOW, &tio) < 0)
		return epi_error(err, "cannot set 115200 8N1 on '%s': %s", arg, strerror(errno));
	tcflush(p->fd, TCIOFLUSH);
	double t = timeout_s();
	if (send_cmd(p, "#V,R,0;", err) < 0)
		return -1;
	int r = wait_for(p, &p->s.saw_version, t, err);
	if (r < 0)
		return -1;
	if (r == 0)
		return epi_error(err, "'%s' is not a WattsUp? Pro: no reply to #V,R,0; within %g s", arg, t);
	if (send_cmd(p, WU_LOG_CMD, err) < 0)
		return -1;
	r = wait_for(p, &p->s.have, t + 2, err);
	if (r < 0)
		return -1;
	if (r == 0)
		return epi_error(err, "the WattsUp on '%s' sent no record within %g s of #L,W,3,E,0,1;", arg, t + 2);
	p->silent_s = 5;
	epi_domain *d = epi_meter_add(m, "wall", "wall");
	d->interval_s = 1;
	d->resolution_j = 0.1;
	snprintf(m->desc, sizeof m->desc, "WattsUp? Pro on %s (wall power, 1 s records)", arg);
	return 0;
}

static int wu_read(epi_meter *m, double *raw, char *err)
{
	wu_priv *p = m->priv;
	if (drain(p, err) < 0)
		return -1;
	double now = epi_now();
	const epi_wattsup *s = &p->s;
	if (now - s->t > p->silent_s)
		return epi_error(err, "meter 'wattsup:%s' sent no record for %.0f s (unplugged?)", p->dev, now - s->t);
	raw[0] = s->acc + s->w * (now - s->t);
	return 0;
}

const epi_meter_ops epi_meter_wattsup = {
	.name = "wattsup",
	.summary = "wattsup:DEVICE: WattsUp? Pro wall meter on a serial port (115200 8N1, 1 s records)",
	.open = wu_open,
	.read = wu_read,
	.close = wu_close,
};
