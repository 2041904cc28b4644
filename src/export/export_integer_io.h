/* The --integer-io part of the reports (export_integer_io.c). */
#ifndef TINYAOT_EXPORT_INTEGER_IO_H
#define TINYAOT_EXPORT_INTEGER_IO_H
#include "../common/strbuf.h"
#include "../ir/ir.h"

/* report.json "integer_io" and a report.md paragraph; nothing when no I/O was made integer. */
void integer_io_report_json(const Model *m, StrBuf *js);
void integer_io_report_md(const Model *m, StrBuf *md);

#endif
