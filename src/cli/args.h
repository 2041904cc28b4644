/* Command-line parsing shared by the commands: "--opt value", "--opt=value", heliaAOT's
 * on/off switches ("--x" / "--no-x"), an error for an option given twice, and a
 * "did you mean" for unknown options. */
#ifndef TINYAOT_ARGS_H
#define TINYAOT_ARGS_H
#include <stdbool.h>

enum { ARGS_MAX_SEEN = 64 };

typedef struct Args {
  int argc, i;
  char **argv;
  const char *value; /* value of the option just matched */
  bool bad;          /* an error was printed (missing value, option given twice, ...) */
  const char *seen[ARGS_MAX_SEEN]; /* canonical names of the options given so far */
  int n_seen;
} Args;

/* True when argv[i] is one of the spellings (NULL-terminated list, names[0] the canonical
 * one) and takes a value; a second occurrence of any spelling sets bad. */
bool args_value(Args *a, const char *const *names);
/* As args_value, for options that may be repeated (run's --in and --case). */
bool args_value_repeat(Args *a, const char *const *names);
/* True when argv[i] is the flag `name` (no value); a second occurrence sets bad. */
bool args_flag(Args *a, const char *name);
/* heliaAOT's on/off switch: "--name" (on), "--no-" + name without its dashes (off),
 * "--name=true|false|on|off|1|0". Sets *on. A second occurrence in any form sets bad. */
bool args_switch(Args *a, const char *name, bool *on);
/* Prints "unknown option" for argv[i] with the closest known spelling, if close. */
void args_unknown(const Args *a, const char *const *const *known_lists);
/* Edit distance (insert, delete, substitute), for suggestions. */
int args_edit_distance(const char *s, const char *t);
/* The closest of the NULL-terminated lists' spellings to `word`, or NULL if none is close. */
const char *args_suggest(const char *word, const char *const *const *known_lists);

#endif
