#!/usr/bin/env python3
"""Checks what a --profile module printed (tests/suites/profile.sh).

usage: check_profile.py OUTPUT MODULE_DIR MANIFEST MODE [COUNTER...]

OUTPUT     the test application's output: <prefix>_profile_print's lines, then "started N"
MODULE_DIR the converted module (include/prof_model.h, report.json)
MANIFEST   the corpus model's manifest.json (its operator histogram)
MODE       step: every read of the counter advanced it by 1000 (tests/profile/step_clock.h);
           any: a real clock; none: no counter, every figure 0
COUNTER    the counter names the title may give (default: any)
Prints one line saying what held, or what did not (exit 1)."""
import json
import re
import sys

STEP = 1000
ROW = re.compile(r"^ {0,4}(\d+) (\S.*?) +(\d+)(?: +(\d+\.\d))?$")  # no share when the sum is 0
TOTAL = re.compile(r"^ {5} (operators|run) +(\d+)$")


def fail(why):
    print(why)
    sys.exit(1)


def main():
    out_path, module, manifest_path, mode = sys.argv[1:5]
    counters = sys.argv[5:]
    lines = [l.rstrip("\n") for l in open(out_path, encoding="utf-8", errors="replace")]
    # QEMU's log may hold other lines (warnings): the table starts at its title
    start = next((i for i, l in enumerate(lines) if l.startswith("prof profile, counter ")), None)
    if start is None:
        fail("no 'prof profile, counter' title line")
    counter = lines[start][len("prof profile, counter "):]
    if counters and counter not in counters:
        fail(f"counter '{counter}', expected one of {counters}")
    if lines[start + 1] != f"{'op':>5} {'operator':<32}{'cycles':>12}{'%':>7}":
        fail(f"column titles differ: '{lines[start + 1]}'")
    header = open(f"{module}/include/prof_model.h", encoding="utf-8").read()
    entries = int(re.search(r"#define PROF_PROFILE_ENTRIES (\d+)", header).group(1))
    report = json.load(open(f"{module}/report.json", encoding="utf-8"))
    op_type = {s["op"]: s["type"] for s in report["live_bytes"]}
    histogram = json.load(open(manifest_path, encoding="utf-8"))["ops"]
    rows = []
    i = start + 2
    while i < len(lines) and ROW.match(lines[i]):
        m = ROW.match(lines[i])
        rows.append((int(m.group(1)), m.group(2), int(m.group(3)), None if m.group(4) is None else float(m.group(4))))
        i += 1
    totals = {}
    for k in range(2):
        m = TOTAL.match(lines[i + k]) if i + k < len(lines) else None
        if not m:
            fail(f"line {i + k + 1}: not an 'operators'/'run' total: '{lines[i + k] if i + k < len(lines) else ''}'")
        totals[m.group(1)] = int(m.group(2))
    started = next((int(l.split()[1]) for l in lines[i + 2:] if l.startswith("started ")), None)
    if started is None:
        fail("no 'started N' line")
    if len(rows) != entries:
        fail(f"{len(rows)} rows, PROF_PROFILE_ENTRIES is {entries}")
    ops = [r[0] for r in rows]
    if ops != sorted(set(ops)):
        fail(f"operator indices not ascending once each: {ops}")
    for op, name, _, _ in rows:
        if op_type.get(op) != name:
            fail(f"row of operator {op} says {name}, the model's operator {op} is {op_type.get(op)}")
    for name in {r[1] for r in rows}:
        if sum(1 for r in rows if r[1] == name) > histogram.get(name, 0):
            fail(f"more {name} rows than the model has {name} operators ({histogram.get(name, 0)})")
    total = sum(r[2] for r in rows)
    if totals["operators"] != total:
        fail(f"'operators' says {totals['operators']}, the rows sum to {total}")
    for op, _, cycles, pct in rows:
        if (pct is None) != (total == 0):
            fail(f"operator {op}: a share of the sum must be printed exactly when the sum is not 0")
        if total and abs(pct - 100.0 * cycles / total) > 0.051:
            fail(f"operator {op}: {pct}% of {total} is not {cycles}")
    if mode == "step":
        if any(r[2] <= 0 or r[2] % STEP for r in rows):
            fail(f"with the step clock every operator measures a positive multiple of {STEP}: {[r[2] for r in rows]}")
        if total != started * STEP or totals["run"] != (2 * started + 1) * STEP:
            fail(f"step clock: operators {total}, run {totals['run']} for {started} operator starts")
    elif mode == "none":
        if total or totals["run"]:
            fail(f"no counter, yet operators {total} and run {totals['run']}")
    elif counter != "none" and totals["run"] < total:
        fail(f"the run ({totals['run']}) is shorter than its operators ({total})")
    print(f"{len(rows)} rows, counter {counter}, run {totals['run']}, {started} operator starts")


if __name__ == "__main__":
    main()
