/* Minimal option parsing: "--opt value" and "--opt=value". */
#ifndef TINYAOT_ARGS_H
#define TINYAOT_ARGS_H
#include <stdbool.h>

typedef struct Args {
  int argc, i;
  char **argv;
  const char *value; /* value of the option just matched */
  bool bad;          /* an option lacked its value */
} Args;

/* True when argv[i] is one of the spellings (NULL-terminated list) and takes a value. */
bool args_value(Args *a, const char *const *names);
bool args_flag(Args *a, const char *name);

#endif
