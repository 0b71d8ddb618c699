/* fakepower: advances energy counter files under an existing $EPI_SYSROOT at
 * known powers until SIGTERM or SIGINT, for the end-to-end tests of
 * `epi measure` (tests/machine.sh).
 *
 * usage: fakepower REL WATTS MODULO [REL WATTS MODULO]...
 * REL is a counter file under the root (microjoules, as powercap's
 * energy_uj), MODULO where it wraps (0: never). Once the first values are
 * written, the file ROOT/fakepower.ready appears. ROOT/fakepower.maxgap
 * holds the longest time, in seconds, between two passes of writes: how
 * stale the files could be at any read. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fakehw.h"

int main(int argc, char **argv)
{
	const char *root = getenv("EPI_SYSROOT");
	if (!root || argc < 4 || (argc - 1) % 3 || (argc - 1) / 3 > FAKE_MAXCTR) {
		fprintf(stderr, "usage: EPI_SYSROOT=DIR %s REL WATTS MODULO [REL WATTS MODULO]...\n", argv[0]);
		return 2;
	}
	fake_root_use(root);
	fake_power fp = {0};
	for (int i = 1; i + 2 < argc; i += 3) {
		fake_counter *c = &fp.c[fp.n++];
		snprintf(c->rel, sizeof c->rel, "%s", argv[i]);
		c->watts = strtod(argv[i + 1], NULL);
		c->scale = 1e6;
		c->modulo = strtoull(argv[i + 2], NULL, 10);
		c->start = c->modulo ? c->modulo / 2 : 1000000;
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL); /* the writer thread inherits the mask */
	fp.gapfile = "/fakepower.maxgap";
	fake_put(fp.gapfile, "0\n");
	fake_power_start(&fp);
	fake_put("/fakepower.ready", "1\n");
	int sig;
	sigwait(&set, &sig);
	fake_power_stop(&fp);
	return 0;
}
