/* cmdline: the values main() gives its variables from a run's command line
 * (int n = argc > 1 ? atoi(argv[1]) : 1000;, -n 4000 through getopt), read
 * by following main()'s statements with the run's words, as a profile
 * recorded them. */
#ifndef EPI_CMDLINE_H
#define EPI_CMDLINE_H

#include <stddef.h>

#include "predict/cfront.h"

/* Splits COMMAND (the program and its arguments, each plain or in single
 * quotes, as epi-profile records them) into *ARGV, a new array of new
 * strings (epi_strv_free), NULL after them; returns their number. */
int epi_cmdline_split(const char *command, char ***argv);

/* The values that main() of FILE (parsed with FO's flags) gives its
 * integer variables, and the file's, named NAMES (N of them) when run with
 * the ARGC words ARGV (argv[0] the program), and the trip counts of its
 * loops that ran as the program ran them: where LINES[i] is a line, the
 * value of NAMES[i] is the trip count of main()'s loop on that line (-1:
 * a trip count not looked for, 0: a variable). main()'s statements
 * are followed in order: declarations and assignments whose values follow
 * from constants, argc, the words of argv through atoi, atol, atoll,
 * strtol, strtoll, strtoul, strtoull or a sscanf of one integer, and the
 * variables known so far; an if whose condition is known takes its
 * branch; a pointer to chars holds a word or a literal. A loop is run as
 * the program ran it (an option parser: getopt, the C library's own, on
 * the words; strcmp of the words; switch, break, continue, increments)
 * when all it runs can be, within a budget of
 * statements. Any other statement (a loop that cannot be run, an if not
 * known, a call) makes the variables it may change unknown (assigned,
 * stepped, or their address taken), and a return or a jump ends the
 * following. A variable of the file that another function may change is
 * unknown. Sets VALS[i] and GOT[i] for each name given a value; returns
 * how many. Calls getopt: not while another thread does. */
int epi_cmdline_values(const char *file, const epi_front_opts *fo, int argc, char *const *argv,
		       const char *const *names, const int *lines, int n, long long *vals, int *got);

#endif
