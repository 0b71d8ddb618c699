/* plot: draws a cost table as RR-8416's Figure 2 does: energy per
 * operation, bars grouped by operation, one bar per frequency, on a log
 * scale (time per operation where the table has no energy). gnuplot draws
 * the SVG; the file is written atomically. */
#ifndef EPI_PLOT_H
#define EPI_PLOT_H

#include "model/table.h"

/* Writes SVG from T; 0, or -1 with ERR (gnuplot missing or failing). */
int epi_table_plot(const epi_table *t, const char *svg, char *err);

/* Runs gnuplot on SCRIPT (data inline as "$name << EOD" blocks) with an SVG
 * terminal W x H pixels and no enhanced text, writing SVG atomically; 0, or
 * -1 with ERR (gnuplot missing or failing, with its first error line). */
int epi_gnuplot(const char *script, int w, int h, const char *svg, char *err);

#endif
