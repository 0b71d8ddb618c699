/* fuzz: the harnesses' temporary files and strings (fuzz.h). */
#include "fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static char path[128];
static char *str;

static void clean(void)
{
	if (path[0])
		unlink(path);
	if (dir[0])
		rmdir(dir);
	free(str);
}

const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/epi-fuzz-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		atexit(clean);
	}
	if (path[0])
		unlink(path);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		abort();
	return path;
}

const char *fuzz_string(const uint8_t *data, size_t size)
{
	free(str);
	str = malloc(size + 1);
	if (!str)
		abort();
	memcpy(str, data, size);
	str[size] = 0;
	return str;
}

