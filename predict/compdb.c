/* compdb: a file's compiler flags from a compile_commands.json. */
#include "predict/cfront.h"
#include "model/util.h"

#include <clang-c/CXCompilationDatabase.h>
#include <stdlib.h>
#include <string.h>

char **epi_compdb_args(const char *dir, const char *file, int *argc, char *err)
{
	CXCompilationDatabase_Error e;
	CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(dir, &e);
	if (e != CXCompilationDatabase_NoError) {
		epi_error(err, "cannot load '%s/compile_commands.json'", dir);
		return NULL;
	}
	char *abs = realpath(file, NULL);
	CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, abs ? abs : file);
	free(abs);
	char **out = NULL;
	if (!cmds || clang_CompileCommands_getSize(cmds) == 0) {
		epi_error(err, "'%s' has no entry in '%s/compile_commands.json'", file, dir);
		goto done;
	}
	CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
	unsigned n = clang_CompileCommand_getNumArgs(cmd);
	out = xcalloc(n + 2, sizeof *out);
	int k = 0;
	CXString d = clang_CompileCommand_getDirectory(cmd);
	size_t dl = strlen(clang_getCString(d)) + 4;
	out[k] = xmalloc(dl);
	snprintf(out[k++], dl, "-I%s", clang_getCString(d));
	clang_disposeString(d);
	for (unsigned i = 1; i < n; i++) {
		CXString a = clang_CompileCommand_getArg(cmd, i);
		const char *s = clang_getCString(a);
		if (!strcmp(s, "-c") || !strcmp(s, file) || (strlen(s) > 2 && !strcmp(s + strlen(s) - 2, ".c"))) {
			clang_disposeString(a);
			continue;
		}
		if (!strcmp(s, "-o")) {
			clang_disposeString(a);
			i++;
			continue;
		}
		out[k++] = xstrdup(s);
		clang_disposeString(a);
	}
	*argc = k;
done:
	if (cmds)
		clang_CompileCommands_dispose(cmds);
	clang_CompilationDatabase_dispose(db);
	return out;
}
