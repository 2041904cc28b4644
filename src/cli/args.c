#include "args.h"

#include <stdio.h>
#include <string.h>

/* Records an option by its canonical name; false (and an error) if it was given before:
 * two values for one setting are a conflict, never a silent pick of the last one. */
static bool mark_seen(Args *a, const char *canonical) {
  for (int k = 0; k < a->n_seen; k++) {
    if (strcmp(a->seen[k], canonical) != 0) continue;
    fprintf(stderr, "tinyaot: error: option %s given twice (as '%s'); give it once\n", canonical, a->argv[a->i]);
    a->bad = true;
    return false;
  }
  if (a->n_seen < ARGS_MAX_SEEN) a->seen[a->n_seen++] = canonical;
  return true;
}

static bool match_value(Args *a, const char *const *names, bool repeat) {
  const char *arg = a->argv[a->i];
  for (const char *const *n = names; *n; n++) {
    size_t len = strlen(*n);
    if (strncmp(arg, *n, len) != 0 || (arg[len] != '=' && arg[len] != 0)) continue;
    if (!repeat && !mark_seen(a, names[0])) return true;
    if (arg[len] == '=') {
      a->value = arg + len + 1;
      return true;
    }
    if (a->i + 1 >= a->argc) {
      fprintf(stderr, "tinyaot: error: option %s needs a value\n", *n);
      a->bad = true;
      return true;
    }
    a->value = a->argv[++a->i];
    return true;
  }
  return false;
}

bool args_value(Args *a, const char *const *names) { return match_value(a, names, false); }
bool args_value_repeat(Args *a, const char *const *names) { return match_value(a, names, true); }

bool args_flag(Args *a, const char *name) {
  if (strcmp(a->argv[a->i], name) != 0) return false;
  mark_seen(a, name);
  return true;
}

/* "true"/"on"/"1"/"yes" or "false"/"off"/"0"/"no" into *on; false for anything else. */
static bool parse_bool(const char *v, bool *on) {
  static const char *const yes[] = {"true", "on", "1", "yes", NULL}, *const no[] = {"false", "off", "0", "no", NULL};
  for (int k = 0; yes[k]; k++)
    if (strcmp(v, yes[k]) == 0) {
      *on = true;
      return true;
    }
  for (int k = 0; no[k]; k++)
    if (strcmp(v, no[k]) == 0) {
      *on = false;
      return true;
    }
  return false;
}

bool args_switch(Args *a, const char *name, bool *on) {
  const char *arg = a->argv[a->i];
  size_t len = strlen(name);
  if (strncmp(arg, "--no-", 5) == 0 && strcmp(arg + 5, name + 2) == 0) {
    if (mark_seen(a, name)) *on = false;
    return true;
  }
  if (strncmp(arg, name, len) != 0 || (arg[len] != 0 && arg[len] != '=')) return false;
  if (!mark_seen(a, name)) return true;
  *on = true;
  if (arg[len] == '=' && !parse_bool(arg + len + 1, on)) {
    fprintf(stderr, "tinyaot: error: %s takes true or false, not '%s'\n", name, arg + len + 1);
    a->bad = true;
  }
  return true;
}

int args_edit_distance(const char *s, const char *t) {
  enum { MAXL = 64 };
  size_t m = strlen(s), n = strlen(t);
  if (m > MAXL || n > MAXL) return MAXL;
  /* Three rows of the optimal-string-alignment table: a swap of two neighbours
   * ("--froce") counts as one edit, as a typo does. */
  int rows[3][MAXL + 1];
  int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= n; j++) prev[j] = (int)j;
  for (size_t i = 1; i <= m; i++) {
    cur[0] = (int)i;
    for (size_t j = 1; j <= n; j++) {
      int best = prev[j - 1] + (s[i - 1] != t[j - 1]);
      if (prev[j] + 1 < best) best = prev[j] + 1;
      if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
      if (i > 1 && j > 1 && s[i - 1] == t[j - 2] && s[i - 2] == t[j - 1] && prev2[j - 2] + 1 < best)
        best = prev2[j - 2] + 1;
      cur[j] = best;
    }
    int *tmp = prev2;
    prev2 = prev;
    prev = cur;
    cur = tmp;
  }
  return prev[n];
}

const char *args_suggest(const char *word, const char *const *const *known_lists) {
  char key[128];
  snprintf(key, sizeof key, "%s", word);
  key[strcspn(key, "=")] = 0; /* "--modle.path=x" is compared as "--modle.path" */
  const char *best = NULL;
  int best_d = 0;
  for (const char *const *const *l = known_lists; *l; l++)
    for (const char *const *k = *l; *k; k++) {
      int d = args_edit_distance(key, *k);
      if (!best || d < best_d) {
        best = *k;
        best_d = d;
      }
    }
  /* Close means a few typos, relative to the length: "--froce" but not "--x". */
  int limit = (int)strlen(key) / 3;
  if (limit < 1) limit = 1;
  if (limit > 4) limit = 4;
  return best && best_d <= limit ? best : NULL;
}

void args_unknown(const Args *a, const char *const *const *known_lists) {
  const char *arg = a->argv[a->i];
  const char *hint = args_suggest(arg, known_lists);
  if (hint) fprintf(stderr, "tinyaot: error: unknown option '%s'; did you mean %s? (see --help)\n", arg, hint);
  else fprintf(stderr, "tinyaot: error: unknown option '%s' (see --help)\n", arg);
}
