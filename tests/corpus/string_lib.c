/* Models a freestanding libc subset (string and conversion routines) as shipped with bare-metal toolchains. */
#include <ctype.h>
#include <stddef.h>

size_t k_strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

char *k_strcpy(char *dst, const char *src)
{
	char *d = dst;

	while ((*d++ = *src++) != '\0')
		;
	return dst;
}

int k_strncmp(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (a[i] != b[i])
			return (unsigned char)a[i] - (unsigned char)b[i];
		if (a[i] == '\0')
			return 0;
	}
	return 0;
}

void *k_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

void *k_memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		d[i] = s[i];
		d[i + 1] = s[i + 1];
		d[i + 2] = s[i + 2];
		d[i + 3] = s[i + 3];
	}
	for (; i < n; i++)
		d[i] = s[i];
	return dst;
}

const char *k_strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return s;
	return c == '\0' ? s : NULL;
}

int k_atoi(const char *s)
{
	int v = 0, neg = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	while (isdigit((unsigned char)*s))
		v = v * 10 + (*s++ - '0');
	return neg ? -v : v;
}

/* Writes V in BASE into BUF (reversed, then flipped in place). */
int k_itoa(int v, char *buf, int base)
{
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
	int n = 0, i, j;
	char t;

	do {
		unsigned d = u % (unsigned)base;

		buf[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
		u /= (unsigned)base;
	} while (u);
	if (v < 0)
		buf[n++] = '-';
	buf[n] = '\0';
	for (i = 0, j = n - 1; i < j; i++, j--) {
		t = buf[i];
		buf[i] = buf[j];
		buf[j] = t;
	}
	return n;
}

/* Splits S in place at DELIM; returns the number of fields. */
int k_split(char *s, char delim, char **fields, int max)
{
	int n = 0;

	if (max <= 0)
		return 0;
	fields[n++] = s;
	for (; *s && n < max; s++) {
		if (*s == delim) {
			*s = '\0';
			fields[n++] = s + 1;
		}
	}
	return n;
}

/* Trims trailing spaces; returns the new length. */
int k_rtrim(char *s, int len)
{
	int i;

	for (i = len - 1; i >= 0; i--) {
		if (s[i] != ' ')
			break;
		s[i] = '\0';
	}
	return i + 1;
}

void k_toupper(char *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (s[i] >= 'a' && s[i] <= 'z')
			s[i] = (char)(s[i] - 'a' + 'A');
}

unsigned k_hex(const char *s)
{
	unsigned v = 0;

	while (isxdigit((unsigned char)*s)) {
		int c = tolower((unsigned char)*s++);

		v = v * 16 + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	return v;
}
