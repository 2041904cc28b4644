/* tinyaot: ahead-of-time compiler from TFLite models to C inference modules. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../common/version.h"
#include "commands.h"

static const char usage[] =
    "usage: tinyaot <command> [options]\n"
    "\n"
    "commands:\n"
    "  convert MODEL.tflite -o OUTDIR   write a C99 inference module and its memory report\n"
    "  convert A.tflite B.tflite ... [--shared-scratch] -o DIR\n"
    "                                   one module per model in DIR/<name>/, scratch shared\n"
    "  inspect MODEL.tflite [--json]    operators, tensors, quantization, MACs, memory bounds\n"
    "  platforms                        built-in platforms and their memories\n"
    "  operators                        the supported-operator matrix (Markdown)\n"
    "  run MODEL.tflite --in IN0.bin... --out-dir DIR\n"
    "                                   compile the module for this host, run one inference\n"
    "  version                          the version and the commit built (also --version)\n"
    "\n"
    "`tinyaot <command> --help` describes each command's options.\n";

static const char *const COMMANDS[] = {"convert", "inspect", "run", "platforms", "operators", "version", "help", NULL};
static const char *const OPTIONS[] = {"--help", "--version", NULL};

static const char helia_usage[] =
    "usage: helia-aot convert [options]\n"
    "\n"
    "helia-aot is tinyaot under heliaAOT's command name: `helia-aot convert` takes heliaAOT's\n"
    "options and configuration and applies heliaAOT's defaults (model.tflite, module name\n"
    "helia_aot_nn, a neuralspot module with includes-api/ and a LICENSE); `tinyaot convert`\n"
    "keeps tinyaot's own. The other commands are tinyaot's (`tinyaot --help`).\n"
    "`helia-aot convert --help` lists the options; docs/heliaaot.md compares both.\n";

/* The program's name as invoked: "helia-aot" (an installed link) selects heliaAOT's defaults. */
static bool invoked_as_helia(const char *argv0) {
  const char *base = argv0 ? strrchr(argv0, '/') : NULL;
  base = base ? base + 1 : argv0;
  return base && strcmp(base, "helia-aot") == 0;
}

int main(int argc, char **argv) {
  if (invoked_as_helia(argc > 0 ? argv[0] : NULL)) {
    if (argc >= 2 && strcmp(argv[1], "convert") == 0) return cmd_convert_helia(argc - 1, argv + 1);
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
      fputs(helia_usage, argc < 2 ? stderr : stdout);
      return argc < 2 ? 2 : 0;
    }
  }
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
    printf("tinyaot %s\n", tinyaot_version_string());
    return 0;
  }
  if (strcmp(argv[1], "convert") == 0) return cmd_convert(argc - 1, argv + 1);
  if (strcmp(argv[1], "inspect") == 0) return cmd_inspect(argc - 1, argv + 1);
  if (strcmp(argv[1], "run") == 0) return cmd_run(argc - 1, argv + 1);
  if (strcmp(argv[1], "platforms") == 0) return cmd_platforms(argc - 1, argv + 1);
  if (strcmp(argv[1], "operators") == 0) return cmd_operators(argc - 1, argv + 1);
  const char *const *const lists[] = {argv[1][0] == '-' ? OPTIONS : COMMANDS, NULL};
  const char *hint = args_suggest(argv[1], lists);
  fprintf(stderr, "tinyaot: error: unknown %s '%s'", argv[1][0] == '-' ? "option" : "command", argv[1]);
  if (hint) fprintf(stderr, "; did you mean %s?", hint);
  fprintf(stderr, " (try tinyaot --help)\n");
  return 2;
}
