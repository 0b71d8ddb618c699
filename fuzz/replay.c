/* replay: runs a harness once over each input named (files, or folders of
 * them), as `make check` does with the corpus and the inputs that once
 * broke a parser; built with the tests' sanitizers, a crash is a failure. */
#include "fuzz/fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int one(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot open '%s'\n", path);
		return -1;
	}
	size_t cap = 4096, n = 0;
	unsigned char *buf = malloc(cap);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0)
		if ((n += r) == cap)
			buf = realloc(buf, cap *= 2);
	fclose(f);
	if (!buf)
		return -1;
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int n = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0)
			continue; /* no crashes kept yet: no folder */
		if (!S_ISDIR(st.st_mode)) {
			if (one(argv[i]) < 0)
				return 1;
			n++;
			continue;
		}
		struct dirent **names;
		int k = scandir(argv[i], &names, NULL, alphasort);
		for (int j = 0; j < k; j++) {
			char p[4096];
			snprintf(p, sizeof p, "%s/%s", argv[i], names[j]->d_name);
			if (names[j]->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
				if (one(p) < 0)
					return 1;
				n++;
			}
			free(names[j]);
		}
		free(names);
	}
	printf("replayed %d inputs\n", n);
	return 0;
}
