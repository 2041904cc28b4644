/* The compiler's version, stamped into `tinyaot --version` and every generated file. */
#ifndef TINYAOT_VERSION_H
#define TINYAOT_VERSION_H

/* "0.1.0 (git 1a2b3c4d5e6f)": the release number and the commit the compiler was built
 * from (the Makefile passes both; "unknown" outside a git checkout). */
const char *tinyaot_version_string(void);

#endif
