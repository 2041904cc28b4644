#ifndef TINYAOT_COMMANDS_H
#define TINYAOT_COMMANDS_H
#include "args.h"
#include "pipeline.h"

int cmd_convert(int argc, char **argv);
/* convert with heliaAOT's defaults: the program was invoked as helia-aot */
int cmd_convert_helia(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_platforms(int argc, char **argv);
int cmd_operators(int argc, char **argv);

/* The options of `convert` (shared by `run`): 0 parsed, 1 help printed, 2 error printed.
 * `extra` parses the command's own options; extra_known lists their spellings for
 * "did you mean" suggestions (NULL-terminated). */
int parse_convert_args(Args *a, ConvertOptions *opt, const char *usage_text, bool (*extra)(Args *, void *),
                       void *extra_state, const char *const *extra_known);

#endif
