/* print: one fprintf("%d\n") per call to /dev/null (stdio's formatting
 * and buffering; the write system calls that the buffer flushes are part
 * of the cost). */
#include <stdio.h>

#include "bench/bench.h"

static void run(epi_bench_ctx *c, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		fprintf(c->aux, "%d\n", (int)i);
}

const epi_kernel epi_k_print = {.name = "print", .what = "fprintf(\"%d\\n\") to /dev/null, per call",
				.seq = "fprintf(f, \"%d\\n\", i)", .unit = EPI_UNIT_OP, .units = 1,
				.setup = epi_bench_open_null, .run = run, .teardown = epi_bench_close_null};
