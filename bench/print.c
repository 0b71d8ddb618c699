/* print: one fprintf("%d\n") per call to /dev/null (stdio's formatting
 * and buffering; the write system calls that the buffer flushes are part
 * of the cost). */
#include <stdio.h>

#include "bench/bench.h"
#include "model/util.h"

static int setup(const epi_kernel *k, epi_bench_ctx *c, char *err)
{
	(void)k;
	FILE *f = fopen("/dev/null", "w");
	if (!f)
		return epi_error(err, "cannot open '/dev/null' for the print kernel");
	c->aux = f;
	return 0;
}

static void run(epi_bench_ctx *c, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		fprintf(c->aux, "%d\n", (int)i);
}

static void teardown(epi_bench_ctx *c)
{
	if (c->aux)
		fclose(c->aux);
	c->aux = NULL;
}

const epi_kernel epi_k_print = {.name = "print", .what = "fprintf(\"%d\\n\") to /dev/null, per call",
				.seq = "fprintf(f, \"%d\\n\", i)", .unit = EPI_UNIT_OP, .units = 1,
				.setup = setup, .run = run, .teardown = teardown};
