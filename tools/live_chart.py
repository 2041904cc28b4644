#!/usr/bin/env python3
"""Live activation bytes per operator as a text bar chart, from tinyaot's report.json.

usage: tools/live_chart.py REPORT.json [AFTER.json] [--steps FIRST:LAST] [--width N] [--labels A,B]

With one report: each step's bytes layer by layer (whole tensors) against the bytes as the
module runs them (in-place operators count their shared bytes once): report.json
"live_bytes". With two: the first report's bytes as run against the second's, matched by
operator index (an operator only one of them runs shows "-"; a rewrite that removes an
operator, a folded PAD, shows up that way). docs/memory.md's worked examples come from it.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def bar(value, scale, width):
    if value is None:
        return "-".ljust(width)
    n = value * width / scale if scale else 0
    full = int(n)
    text = "#" * full + ("+" if n - full >= 0.5 else "")
    return text.ljust(width)


def rows_one(rep):
    return [(r["op"], r["type"], r["layer_by_layer"], r["reached"]) for r in rep["live_bytes"]]


def by_op(rep):
    """operator index -> (type, largest bytes as run), in schedule order (a patched
    operator runs at several steps)."""
    out = {}
    for r in rep["live_bytes"]:
        typ, val = out.get(r["op"], (r["type"], 0))
        out[r["op"]] = (typ, max(val, r["reached"]))
    return out


def rows_two(before, after):
    """Rows by operator index in the first report's order, then operators only the second runs."""
    b, a = by_op(before), by_op(after)
    rows = [(op, typ, val, a[op][1] if op in a else None) for op, (typ, val) in b.items()]
    rows += [(op, typ, None, val) for op, (typ, val) in a.items() if op not in b]
    return rows


def main(argv):
    paths, first, last, width, labels = [], None, None, 40, None
    i = 0
    while i < len(argv):
        if argv[i] == "--steps" and i + 1 < len(argv):
            first, last = (int(x) for x in argv[i + 1].split(":"))
            i += 2
        elif argv[i] == "--labels" and i + 1 < len(argv):
            labels = argv[i + 1].split(",", 1)
            i += 2
        elif argv[i] == "--width" and i + 1 < len(argv):
            width = int(argv[i + 1])
            i += 2
        else:
            paths.append(argv[i])
            i += 1
    if not 1 <= len(paths) <= 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    reps = [load(p) for p in paths]
    if len(reps) == 1:
        rows = rows_one(reps[0])
        heads = ("layer by layer", "as run (%s mode)" % reps[0]["memory_bounds"]["mode"])
    else:
        rows = rows_two(reps[0], reps[1])
        heads = ("before (%s)" % paths[0], "after (%s)" % paths[1])
    if labels and len(labels) == 2:
        heads = tuple(labels)
    if first is not None:
        rows = rows[first:last + 1]
    scale = max([v for r in rows for v in r[2:] if v is not None] or [1])
    print("%4s  %-18s %-*s %8s   %-*s %8s" % ("op", "operator", width, heads[0][:width], "bytes", width, heads[1][:width], "bytes"))
    for op, typ, x, y in rows:
        print("%4d  %-18s %s %8s   %s %8s" % (op, typ[:18], bar(x, scale, width), "-" if x is None else x,
                                             bar(y, scale, width), "-" if y is None else y))
    peak = [max((v for v in col if v is not None), default=0) for col in zip(*[(r[2], r[3]) for r in rows])]
    print("%4s  %-18s %-*s %8d   %-*s %8d" % ("", "peak", width, "", peak[0], width, "", peak[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
