/* fuzz: what every harness shares. Each fuzz_NAME.c defines libFuzzer's
 * LLVMFuzzerTestOneInput over one parser; `make fuzz` links it with
 * libFuzzer (clang, -fsanitize=fuzzer,address,undefined), `make check`
 * with replay.c, which feeds it the committed corpus and every input that
 * once broke it (fuzz/corpus/NAME, fuzz/crashes/NAME). */
#ifndef EPI_FUZZ_H
#define EPI_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* DATA written to NAME in a folder of this process's own (made once,
 * removed at exit); its path, valid until the next call. */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);

/* DATA as a NUL-terminated string (cut at its first NUL), valid until the
 * next call. */
const char *fuzz_string(const uint8_t *data, size_t size);

#endif
