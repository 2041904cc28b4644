/* The runtime kernel sources, embedded at build time by tools/embed.c. */
#ifndef TINYAOT_RUNTIME_FILES_H
#define TINYAOT_RUNTIME_FILES_H

typedef struct RuntimeFile {
  const char *name; /* "ta_conv.c" */
  const char *text;
} RuntimeFile;

extern const RuntimeFile runtime_files[];
extern const int runtime_file_count;

#endif
