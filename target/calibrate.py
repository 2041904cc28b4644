#!/usr/bin/env python3
"""Runs target/cycles.sh on the calibration images (../shared/calibration: ns-cmsis-nn kernels
with Apollo510 silicon cycle counts) and compares the modelled cycles with the published ones.

usage: target/calibrate.py [--calib DIR] [--jobs N] [--table FILE] [--check] [--only SUBSTR]
                           [--variant same|valid]
  --table FILE  write the per-image markdown table (docs/cycles.md embeds it)
  --check       exit 1 unless >= 90 % of the images are within +-15 % and the median
                |error| is <= 8 % (the goals of issue 31)
The set: the `_same` variant of a kernel that has `_valid` and `_same` images, else its only
image; every path (ref, dsp, mve). Env CYCLES_MEMORY / CYCLES_PARAMS pass through to cycles.sh.
Exit 2 when the calibration folder or QEMU is missing (the caller skips)."""
import argparse
import concurrent.futures
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def select(images, variant="same"):
    names = {im["elf"] for im in images}
    other = "_valid_" if variant == "same" else "_same_"
    mine = "_same_" if variant == "same" else "_valid_"
    chosen = []
    for im in images:
        elf = im["elf"]
        if other in elf and elf.replace(other, mine) in names:
            continue
        chosen.append(im)
    return sorted(chosen, key=lambda im: im["elf"])


def run_one(calib, im, env):
    path = os.path.join(calib, im["elf"])
    p = subprocess.run(["sh", os.path.join(ROOT, "target", "cycles.sh"), path, "m55"], env=env,
                       capture_output=True, text=True)
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if p.returncode != 0 or not lines:
        raise RuntimeError("%s: cycles.sh exit %d: %s" % (im["elf"], p.returncode, p.stderr.strip()[:300]))
    return json.loads(lines[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calib", default=os.path.join(ROOT, "..", "shared", "calibration"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--table")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--variant", choices=("same", "valid"), default="same",
                    help="which padding variant of a kernel that has two (the goals are for same)")
    a = ap.parse_args()
    pub = os.path.join(a.calib, "published.json")
    if not os.path.isfile(pub):
        print("calibrate: no %s" % pub, file=sys.stderr)
        return 2
    if not shutil.which(os.environ.get("QEMU", "qemu-system-arm")):
        print("calibrate: no QEMU", file=sys.stderr)
        return 2
    images = select(json.load(open(pub))["images"], a.variant)
    if a.only:
        images = [im for im in images if a.only in im["elf"]]
    env = dict(os.environ)
    tmp = tempfile.mkdtemp(prefix="calib.")
    env["CYCLES_PLUGIN_DIR"] = tmp
    # build the plugin once, before the parallel runs share it
    subprocess.run(["sh", "-c", '. "$0/target/lib.sh"; TA_ROOT="$0" ta_build_plugin "$1" >/dev/null', ROOT, tmp],
                   check=True, env=dict(env, TA_ROOT=ROOT))
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {ex.submit(run_one, a.calib, im, env): im for im in images}
        for f in concurrent.futures.as_completed(futs):
            im = futs[f]
            r = f.result()
            err = (r["cycles"] - im["published_cycles"]) / im["published_cycles"]
            rows.append((im["kernel"], im["path"], im["elf"], r["instructions"], r["cycles"], im["published_cycles"], err))
    shutil.rmtree(tmp, ignore_errors=True)
    order = {"REF": 0, "DSP": 1, "MVE": 2}
    rows.sort(key=lambda r: (r[0], order.get(r[1], 3)))
    errs = [abs(r[6]) for r in rows]
    within = sum(1 for e in errs if e <= 0.15)
    med = statistics.median(errs)
    out = ["| image | path | instructions | modelled cycles | published cycles | error |",
           "|---|---|---:|---:|---:|---:|"]
    for k, path, elf, insns, cyc, pubc, err in rows:
        mark = "" if abs(err) <= 0.15 else " **"
        out.append("| %s | %s | %d | %d | %d | %+.1f %%%s |" % (elf[:-4], path, insns, cyc, pubc, err * 100, mark))
    for path in ("REF", "DSP", "MVE"):
        pe = [abs(r[6]) for r in rows if r[1] == path]
        if pe:
            out.append("")
            out.append("%s: %d/%d within +-15 %%, median |error| %.1f %%" %
                       (path, sum(1 for e in pe if e <= 0.15), len(pe), statistics.median(pe) * 100))
    summary = "all: %d/%d within +-15 %% (%.0f %%), median |error| %.1f %%" % (
        within, len(rows), 100.0 * within / len(rows), med * 100)
    out.append("")
    out.append(summary)
    text = "\n".join(out) + "\n"
    if a.table:
        open(a.table, "w").write(text)
    print(text, end="")
    if a.check:
        ok = within >= 0.9 * len(rows) and med <= 0.08
        print("calibrate: %s (goal: >= 90 %% within +-15 %%, median <= 8 %%)" % ("PASS" if ok else "FAIL"))
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
