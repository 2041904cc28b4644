/* tinyaot convert with several models (convert_multi.c). */
#ifndef TINYAOT_CONVERT_MULTI_H
#define TINYAOT_CONVERT_MULTI_H
#include <stdbool.h>

#include "pipeline.h"

/* Compiles opt->model_path and opt->more_models (or the config's `models:`) into opt->out_dir/<name>/, writes the
 * group's files (report.json; with `shared`, the shared scratch). 0 ok, 1 a model or a
 * write failed, 2 a usage error. `dump`: residency.json in every module; `dump_file`:
 * --memory.dump-residency-json=FILE (refused: one file cannot hold several models). */
int convert_multi(ConvertOptions *opt, bool shared, bool dump, const char *dump_file);

/* True when --path/--config names a config with a `models:` list (then convert_multi
 * compiles them; its shared_scratch key is --shared-scratch). */
bool convert_config_lists_models(const ConvertOptions *opt);

#endif
