/* sizes: the -D values a program was built with, read back from the sizes
 * of its arrays and the values of its variables. A build given -D N=4000
 * where the source says #define N 2100 (behind #ifndef N) has arrays of
 * 4000 where the parse has 2100; the program's debug information keeps
 * the sizes, not the flags. */
#ifndef EPI_SIZES_H
#define EPI_SIZES_H

#include <stddef.h>

#include "predict/cfront.h"
#include "predict/objcode.h"

/* The -D flags under which FILE, parsed with FO's flags, declares its
 * arrays with the sizes PROG has, when the parse gives some of them other
 * sizes. Each size that differs is taken as made by one object-like macro
 * whose value is a whole number, among the tokens of its declaration: the
 * macro in the place of that dimension when the declaration names as many
 * as the array has dimensions, else the one whose value it is, else the
 * only one there (the size that macro plus what the declaration adds);
 * the macro is then given the program's size less what is added. Then
 * each integer variable whose initial value differs from the one PROG
 * has (epi_object's values) gives its value to the one macro among its
 * declaration's tokens whose value that is, unless a size gave the macro
 * one. The other such macros defined in the same files get the values
 * parsed (a header that defines its sizes only when none is given
 * defines none once one is). Macros that FO's flags define are left as
 * they are. Accepted only when a parse with the flags gives fewer arrays
 * and variables other values than the first and no new errors. Returns the number of flags,
 * "-DNAME=VALUE" in *DEFS (a new array of new strings; 0 and NULL when
 * none is found or accepted), in KEPT (LEN bytes) the macros given their
 * parsed values, "NAME=VALUE, ..." ("" none), and in *LEFT the arrays
 * and variables that still differ under the flags. */
int epi_sizes_infer(const char *file, const epi_front_opts *fo, const epi_object *prog, char ***defs, char *kept,
		    size_t len, int *left);

#endif
