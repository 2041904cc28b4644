#!/usr/bin/env python3
"""Refits tinyaot's per-operator cost model (src/resolve/cost_table.c).

usage: tools/fit_cost_model.py TINYAOT CORPUS OUT.c [--check] [--report] [--cycles]
  reads  bench/layers.json                 instructions and modelled cycles of the DSP/MVE tier
                                           kernels (make bench)
         bench/cost/layers_portable.json   the same for the portable kernels (make cost-measure)
         bench/cost/portable_cycles.json   the portable kernels' cycles alone (make cost-cycles):
                                           a layer of layers_portable.json without cycles takes
                                           them from the same model, core, operator and kernel here
         bench/cost/code_bytes.json        .text bytes of each runtime kernel family per core
  and, for each measured model, `TINYAOT inspect --json --operators` for the geometry terms
  of every operator (cost_terms: MACs, output elements, window elements gathered, input
  elements, 1 per call). Per core and kernel, the coefficients are the non-negative least
  squares fit of the measured instructions, each layer weighted by 1/measured (so the
  relative error is minimised); kernel "*" is a per-core fallback fitted on every portable
  layer. The cycles (a layer's "cycles", from the QEMU plugin's timing model, docs/cycles.md)
  are fitted the same way, on the layers that have them; per core, the ratio of all measured
  cycles to their instructions is the fallback for kernels with no cycle fit (cost_cpi).
  Writes OUT.c (deterministic: same inputs, same bytes).
  --check: compare with OUT.c instead of writing it; exit 1 when they differ.
  --report: print every layer's estimate against its measurement (tab-separated);
  with --cycles, the cycle estimates against the measured cycles instead.
Pure Python 3 (no numpy): the systems are at most 5x5.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TERMS = 8
CORES = {"m4": "COST_M4", "m55": "COST_M55"}


def load_json(path):
    with open(path) as f:
        return json.load(f)


def inspect_terms(tinyaot, corpus, model):
    """cost_terms per operator index (the layers' index is the inspect position)."""
    path = os.path.join(corpus, "models", model, "model.tflite")
    out = subprocess.run([tinyaot, "inspect", path, "--json", "--operators"], capture_output=True, text=True)
    data = json.loads(out.stdout)
    return {op["index"]: op["cost_terms"] for op in data["operators"]}


def cycles_by_layer(path):
    """(model, core, index, kernel) -> cycles from a layers-format file (empty when absent)."""
    if not os.path.exists(path):
        return {}
    out = {}
    for res in load_json(path)["results"]:
        if res.get("status") == "pass":
            for layer in res["layers"]:
                if layer.get("cycles"):
                    out[(res["model"], res["core"], layer["index"], layer["kernel"])] = float(layer["cycles"])
    return out


def points(layer_files, tinyaot, corpus, extra_cycles=None):
    """(core, kernel, terms, measured, model, index, cycles or None) for every measured layer."""
    extra_cycles = extra_cycles or {}
    cache = {}
    rows = []
    for path in layer_files:
        for res in load_json(path)["results"]:
            if res.get("status") != "pass":
                continue
            model = res["model"]
            if model not in cache:
                cache[model] = inspect_terms(tinyaot, corpus, model)
            for layer in res["layers"]:
                insns = layer.get("instructions")
                if not insns or layer["kernel"] == "(alias)":
                    continue
                terms = cache[model].get(layer["index"])
                if terms is None:
                    sys.exit("fit_cost_model: %s operator %d has no cost terms" % (model, layer["index"]))
                cyc = layer.get("cycles") or extra_cycles.get((model, res["core"], layer["index"], layer["kernel"]))
                rows.append((res["core"], layer["kernel"], terms, float(insns), model, layer["index"],
                             float(cyc) if cyc else None))
    return rows


def solve(a, b):
    """Gaussian elimination with partial pivoting; None when singular."""
    n = len(a)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    tiny = 1e-13 * max(abs(v) for row in a for v in row)
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) <= tiny:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def least_squares(xs, ys, active):
    """Weighted (1/y) least squares on the active terms (small ridge for rank gaps)."""
    k = len(active)
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    # columns scaled to at most 1 and rows by 1/y: a well-conditioned system
    scale = [max(abs(x[j]) for x in xs) or 1.0 for j in active]
    for x, y in zip(xs, ys):
        w = 1.0 / (y * y)
        v = [x[j] / scale[i] for i, j in enumerate(active)]
        for i in range(k):
            b[i] += w * v[i] * y
            for j in range(k):
                a[i][j] += w * v[i] * v[j]
    ridge = 1e-9 * max(a[i][i] for i in range(k))  # keeps collinear terms solvable
    for i in range(k):
        a[i][i] += ridge
    sol = solve(a, b)
    if sol is None:
        return None
    coef = [0.0] * TERMS
    for i, j in enumerate(active):
        coef[j] = sol[i] / scale[i]
    return coef


def nnls(xs, ys):
    """Non-negative fit by active set: drop the most negative coefficient until none is."""
    active = [j for j in range(TERMS) if any(x[j] != 0 for x in xs)]
    while active:
        coef = least_squares(xs, ys, active)
        if coef is None:
            active.pop(0)
            continue
        worst = min(active, key=lambda j: coef[j])
        if coef[worst] >= 0:
            return coef
        active.remove(worst)
    return [0.0] * TERMS


def estimate(coef, x):
    return max(0.0, sum(c * t for c, t in zip(coef, x)))


def fit_groups(groups):
    table = {}
    for key in groups:
        xs = [g[0] for g in groups[key]]
        ys = [g[1] for g in groups[key]]
        coef = nnls(xs, ys)
        err = max(abs(estimate(coef, x) - y) / y for x, y in zip(xs, ys))
        table[key] = (coef, len(xs), err)
    return table


def group_rows(rows, value):
    """(core, kernel) -> [(terms, value)], plus (core, "*") over the portable kernels."""
    groups = {}
    for r in rows:
        y = value(r)
        if y is None:
            continue
        core, kernel, terms = r[0], r[1], r[2]
        groups.setdefault((core, kernel), []).append((terms, y))
        if "_dsp" not in kernel and "_mve" not in kernel:
            groups.setdefault((core, "*"), []).append((terms, y))
    return groups


def fit(rows):
    """[(core, kernel, coef, n, err, cycle_coef, n_cycles, cycle_err)], instruction rows' order."""
    insns = fit_groups(group_rows(rows, lambda r: r[3]))
    cycles = fit_groups(group_rows(rows, lambda r: r[6]))
    none = ([0.0] * TERMS, 0, 0.0)
    return [(k[0], k[1]) + insns[k] + cycles.get(k, none)
            for k in sorted(insns, key=lambda k: (k[0], k[1] == "*", k[1]))]


def cpi_rows(rows):
    """(core, cycles per instruction, layers) over the layers measured with cycles."""
    sums = {}
    for r in rows:
        if r[6] is not None:
            s = sums.setdefault(r[0], [0.0, 0.0, 0])
            s[0] += r[6]
            s[1] += r[3]
            s[2] += 1
    return [(core, s[0] / s[1], s[2]) for core, s in sorted(sums.items())]


def code_rows(path):
    if not os.path.exists(path):
        return []
    data = load_json(path)
    return sorted((core, fam, int(b)) for core, fams in data["code_bytes"].items() for fam, b in fams.items())


def render(table, code, cpi):
    out = ["/* Generated by tools/fit_cost_model.py from bench/layers.json, bench/cost/layers_portable.json",
           " * and bench/cost/code_bytes.json (`make cost-model`); do not edit. Terms (cost_model.h): MACs, output",
           " * elements, output pixels, window elements gathered, tap runs, shallow MACs, input elements, 1 per call.",
           " * Per row: instruction coefficients, layers, worst error; cycle coefficients, layers, worst error. */",
           '#include "cost_model.h"', "", "const CostRow cost_rows[] = {"]
    for core, kernel, coef, n, err, ccoef, cn, cerr in table:
        c = ", ".join("%.6g" % v for v in coef)
        cc = ", ".join("%.6g" % v for v in ccoef)
        out.append('    {%s, "%s", {%s}, %d, %.3f, {%s}, %d, %.3f},' % (CORES[core], kernel, c, n, err, cc, cn, cerr))
    out += ["};", "const int cost_n_rows = (int)(sizeof cost_rows / sizeof cost_rows[0]);", "",
            "const CostCode cost_code[] = {"]
    for core, fam, b in code:
        out.append('    {%s, "%s", %d},' % (CORES[core], fam, b))
    if not code:
        out.append('    {COST_M4, "", 0},')
    out += ["};", "const int cost_n_code = %s;" % ("(int)(sizeof cost_code / sizeof cost_code[0])" if code else "0"), "",
            "/* cycles per instruction over every layer measured with cycles (the fallback of a kernel",
            " * with no cycle formula); no row: no cycles measured on that core */",
            "const CostCpi cost_cpi[] = {"]
    for core, ratio, n in cpi:
        out.append("    {%s, %.6g, %d}," % (CORES[core], ratio, n))
    if not cpi:
        out.append("    {COST_M4, 0, 0},")
    out += ["};", "const int cost_n_cpi = %s;" % ("(int)(sizeof cost_cpi / sizeof cost_cpi[0])" if cpi else "0"), ""]
    return "\n".join(out)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 3:
        sys.exit(__doc__)
    tinyaot, corpus, out_c = args
    files = [os.path.join(ROOT, "bench", "layers.json"), os.path.join(ROOT, "bench", "cost", "layers_portable.json")]
    extra = cycles_by_layer(os.path.join(ROOT, "bench", "cost", "portable_cycles.json"))
    rows = points([f for f in files if os.path.exists(f)], tinyaot, corpus, extra)
    table = fit(rows)
    cpi = cpi_rows(rows)
    text = render(table, code_rows(os.path.join(ROOT, "bench", "cost", "code_bytes.json")), cpi)
    if "--report" in argv:
        cycles = "--cycles" in argv
        rows_of = {(t[0], t[1]): t for t in table}
        ratio = dict((c, r) for c, r, _ in cpi)
        for core, kernel, terms, y, model, index, cyc in rows:
            t = rows_of[(core, kernel)]
            if not cycles:
                e = estimate(t[2], terms)
            elif cyc is None:
                continue
            else:  # as cost_estimate_cycles: the kernel's cycle formula, else instructions x CPI
                y = cyc
                e = estimate(t[5], terms) if t[6] > 0 else estimate(t[2], terms) * ratio.get(core, 0.0)
            print("%s\t%s\t%d\t%s\t%.0f\t%.0f\t%+.3f" % (model, core, index, kernel, y, e, (e - y) / y))
    if "--check" in argv:
        old = open(out_c).read() if os.path.exists(out_c) else ""
        if old != text:
            print("fit_cost_model: %s is stale against the bench files (run `make cost-model`)" % out_c)
            return 1
        return 0
    if "--report" not in argv:
        with open(out_c, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
