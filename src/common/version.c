#include "version.h"

/* The Makefile defines both from its VERSION and `git describe`. */
#ifndef TINYAOT_VERSION
#define TINYAOT_VERSION "0.1.0"
#endif
#ifndef TINYAOT_REVISION
#define TINYAOT_REVISION "unknown"
#endif

const char *tinyaot_version_string(void) { return TINYAOT_VERSION " (git " TINYAOT_REVISION ")"; }
