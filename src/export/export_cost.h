/* report.json / report.md: the cost model's estimated instructions and cycles per operator for the
 * platform's core, and the milliseconds at its clock (src/resolve/cost_model.h). */
#ifndef TINYAOT_EXPORT_COST_H
#define TINYAOT_EXPORT_COST_H
#include "../common/strbuf.h"
#include "../ir/ir.h"
#include "../plan/plan.h"

/* Appends `,\n  "cost_model": {...}` to the report object being written. */
void cost_report_json(const Model *m, const Plan *p, StrBuf *js);
/* Appends the "Estimated instructions and cycles" section. */
void cost_report_md(const Model *m, const Plan *p, StrBuf *md);

#endif
