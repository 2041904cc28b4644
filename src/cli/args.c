#include "args.h"

#include <stdio.h>
#include <string.h>

bool args_value(Args *a, const char *const *names) {
  const char *arg = a->argv[a->i];
  for (; *names; names++) {
    size_t len = strlen(*names);
    if (strncmp(arg, *names, len) != 0) continue;
    if (arg[len] == '=') {
      a->value = arg + len + 1;
      return true;
    }
    if (arg[len] == 0) {
      if (a->i + 1 >= a->argc) {
        fprintf(stderr, "tinyaot: error: option %s needs a value\n", *names);
        a->bad = true;
        return false;
      }
      a->value = a->argv[++a->i];
      return true;
    }
  }
  return false;
}

bool args_flag(Args *a, const char *name) { return strcmp(a->argv[a->i], name) == 0; }
