#!/bin/sh
# Cycles everywhere the project reports speed (issue 31 items 4 and 5), host only, seconds:
# - clocks: `tinyaot platforms` lists a clock per platform; inspect --json reports the same
#   clock_hz for it; a custom platform's clock_mhz reaches report.json;
# - inspect: on each core with cycles in bench/layers.json, every run operator has a cycle
#   estimate, estimated_ms = estimated_cycles / clock for every operator and the total, the
#   operators sum to the total, and `inspect --operators` prints the same total;
# - report: report.json's cost_model has inspect's instructions, cycles and ms, report.md's
#   table has the cycles and ms columns with the same total, report.html the same columns;
# - bench: every results.json row has "cycles" and "cycles_per_mac" beside "instructions",
#   cycles_per_mac = cycles / macs, every run layer of layers.json has "cycles", and the
#   layers plus outside_layers_cycles are the row's cycles; the table of bench/README.md
#   "Against the best published results" shows results.json's cycles;
# - fit: the cycle formulas of src/resolve/cost_table.c estimate every measured layer
#   (bench/layers.json, bench/cost/portable_cycles.json) above
#   1 % of its model's cycles within 40 % (70 % for the a16w8 twins, as the instruction
#   formulas in cost_model.sh) and every model/core total within 15 %.
# usage: sh tests/suites/cycles_report.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup cycles_report "$@" || { fail setup "no work folder"; exit 0; }
tinyaot="$build/tinyaot"

# ---- clocks ------------------------------------------------------------------------------
"$tinyaot" platforms >"$work/platforms.txt"
"$build/demo_model" "$work/demo.tflite" "$work/demo_in.bin" >/dev/null 2>&1
bad=""
n=0
while read -r name core feat itcm dtcm sram mram psram mhz lp; do
  [ "$name" = platform ] && continue
  n=$((n + 1))
  # sizes print as "4 MiB" (two words) or "-": read the last two columns instead
  set -- $(awk -v p="$name" '$1 == p { print $(NF - 1), $NF }' "$work/platforms.txt")
  mhz=$1 lp=$2
  hz=$("$tinyaot" inspect "$work/demo.tflite" --json --platform "$name" | sed -n 's/^  "clock_hz": \([0-9]*\),$/\1/p')
  if [ -z "$mhz" ] || [ "$mhz" -le 0 ] || [ "$lp" -gt "$mhz" ] || [ "$hz" != "${mhz}000000" ]; then
    bad="$bad $name (platforms: $mhz MHz, LP $lp; inspect clock_hz '$hz')"
  fi
done <"$work/platforms.txt"
if [ -n "$bad" ]; then fail clocks "$bad"; else pass "clocks ($n platforms, inspect's clock_hz = the listed MHz)"; fi

printf 'platform:\n  name: slow_board\n  cpu: cortex-m4\n  capabilities: [dsp]\n  clock_mhz: 64\n  memories:\n    - {name: SRAM, size: 1MB}\n    - {name: MRAM, size: 1MB}\n' >"$work/slow.yaml"
if "$tinyaot" convert "$work/demo.tflite" --config "$work/slow.yaml" -o "$work/slow" >"$work/slow.log" 2>&1 &&
   grep -q '"cost_model": {"core": "cortex-m4", "clock_hz": 64000000,' "$work/slow/report.json"; then
  pass "custom-clock (clock_mhz: 64 -> report.json clock_hz 64000000)"
else
  fail custom-clock "clock_mhz: 64 is not report.json's clock_hz: $(head -n 1 "$work/slow.log")"
fi
sed 's/clock_mhz: 64/clock_mhz: 0/' "$work/slow.yaml" >"$work/zero.yaml"
if "$tinyaot" convert "$work/demo.tflite" --config "$work/zero.yaml" -o "$work/zero" >/dev/null 2>"$work/zero.err"; then
  fail clock-zero "clock_mhz: 0 was accepted"
elif [ "$(wc -l <"$work/zero.err")" -ne 1 ] || ! grep -q "clock_mhz" "$work/zero.err"; then
  fail clock-zero "not one line naming clock_mhz: $(cat "$work/zero.err")"
else
  pass clock-zero
fi

if [ ! -d "$corpus/models" ]; then
  skip corpus "absent ($corpus)"
  exit 0
fi

# ---- inspect, report.json, report.md, report.html -------------------------------------------
kws="$corpus/models/kws/model.tflite"
for plat in apollo510_evb apollo4p_evb; do
  "$tinyaot" inspect "$kws" --json --platform $plat >"$work/$plat.json" 2>/dev/null
  "$tinyaot" inspect "$kws" --operators --platform $plat >"$work/$plat.txt" 2>/dev/null
  "$tinyaot" convert "$kws" --platform $plat -o "$work/kws_$plat" >/dev/null 2>&1
  python3 - "$plat" "$work/$plat.json" "$work/$plat.txt" "$work/kws_$plat" "$TA_ROOT/bench/layers.json" <<'PY'
import json, re, sys
plat, ins_path, txt_path, mod, layers_path = sys.argv[1:]
core_of = {"cortex-m4": "m4", "cortex-m55": "m55"}
try:
    ins = json.load(open(ins_path))
    rep = json.load(open(mod + "/report.json"))
except Exception as e:
    print("FAIL cycles_report:inspect-%s: %s" % (plat, e))
    sys.exit(0)
bench_cores = set()
for r in json.load(open(layers_path))["results"]:
    if any(isinstance(l.get("cycles"), (int, float)) for l in r["layers"]):
        bench_cores.add(r["core"])
problems = []
hz = ins["clock_hz"]
def ms_ok(cycles, ms):  # cycles are printed rounded: within half a cycle, and ms to 6 decimals
    return abs(ms - cycles * 1000.0 / hz) <= 0.5 * 1000.0 / hz + 1e-6
known = ins["estimated_cycles"] is not None
if core_of[ins["cost_core"]] in bench_cores and not known:
    problems.append("bench/layers.json has %s cycles but inspect estimates none" % ins["cost_core"])
total = 0
for o in ins["operators"]:
    c, ms = o["estimated_cycles"], o["estimated_ms"]
    if not known:
        if c is not None or ms is not None:
            problems.append("op %d has cycles while the model has none" % o["index"])
        continue
    if c is None or ms is None:
        problems.append("op %d has no estimated_cycles/estimated_ms" % o["index"])
        continue
    if o["kernel"] and o["estimated_instructions"] > 0 and c <= 0:
        problems.append("op %d (%s) runs but is estimated at 0 cycles" % (o["index"], o["kernel"]))
    if o["cycle_source"] not in ("fitted", "cpi") and o["estimated_instructions"] > 0:
        problems.append("op %d cycle_source %s" % (o["index"], o["cycle_source"]))
    if not ms_ok(c, ms):
        problems.append("op %d: %s ms for %s cycles at %d Hz" % (o["index"], ms, c, hz))
    total += c
if known:
    if abs(total - ins["estimated_cycles"]) > len(ins["operators"]):
        problems.append("operators sum to %d cycles, total %d" % (total, ins["estimated_cycles"]))
    if not ms_ok(ins["estimated_cycles"], ins["estimated_ms"]):
        problems.append("total: %s ms for %s cycles" % (ins["estimated_ms"], ins["estimated_cycles"]))
# inspect --operators: the total row
rows = [l.split() for l in open(txt_path) if l.split()[:1] == ["total"]]
want = [str(ins["estimated_instructions"]), str(ins["estimated_cycles"]) if known else "-"]
if not rows or rows[0][1:3] != want:
    problems.append("inspect --operators total %s, --json %s" % (rows[0][1:3] if rows else None, want))
# report.json
cm = rep.get("cost_model") or {}
for k in ("clock_hz", "estimated_instructions", "estimated_cycles", "estimated_ms"):
    a, b = cm.get(k, "missing"), ins.get(k)
    if a != b and not (isinstance(a, float) and isinstance(b, float) and abs(a - b) < 1e-6):
        problems.append("report.json cost_model %s %s, inspect %s" % (k, a, b))
per = {o["index"]: o for o in cm.get("operators", [])}
for o in ins["operators"]:
    r = per.get(o["index"], {})
    if r.get("estimated_cycles") != o["estimated_cycles"]:
        problems.append("report.json op %d cycles %s, inspect %s" % (o["index"], r.get("estimated_cycles"), o["estimated_cycles"]))
# report.md and report.html
md = open(mod + "/report.md").read()
html = open(mod + "/report.html").read()
if "| est. instructions | est. cycles | est. ms |" not in md:
    problems.append("report.md has no cycles and ms columns")
if known and ("**%d** cycles" % ins["estimated_cycles"]) not in md:
    problems.append("report.md does not give the total cycles")
if known and ("%.3f ms" % ins["estimated_ms"]) not in md:
    problems.append("report.md does not give the total ms")
if "<th class=\"n\">est. cycles</th><th class=\"n\">est. ms</th>" not in html:
    problems.append("report.html has no cycles and ms columns")
if problems:
    print("FAIL cycles_report:inspect-%s: %s" % (plat, "; ".join(problems[:4])))
else:
    print("PASS cycles_report:inspect-%s (kws: %s cycles, %s ms at %d MHz; report.json/md/html agree)" %
          (plat, ins["estimated_cycles"], ins["estimated_ms"], hz // 1000000))
PY
done

# ---- the bench's files ---------------------------------------------------------------------
python3 - "$TA_ROOT/bench/results.json" "$TA_ROOT/bench/layers.json" "$TA_ROOT/bench/README.md" <<'PY'
import json, re, sys
res = json.load(open(sys.argv[1]))
lay = json.load(open(sys.argv[2]))
readme = open(sys.argv[3]).read()
problems = []
timed = res.get("cycles") is not None
rows = {(r["model"], r["core"]): r for r in res["results"]}
for r in res["results"]:
    key = "%s/%s" % (r["model"], r["core"])
    if "cycles" not in r or "cycles_per_mac" not in r:
        problems.append("%s: no cycles or cycles_per_mac" % key)
        continue
    c = r["cycles"]
    if timed and r["status"] == "pass" and not isinstance(c, int):
        problems.append("%s: cycles %s in a timed bench" % (key, c))
    if isinstance(c, int) and (c <= 0 or abs(r["cycles_per_mac"] - round(c / r["macs"], 2)) > 0.006):
        problems.append("%s: cycles_per_mac %s for %s cycles / %s MACs" % (key, r["cycles_per_mac"], c, r["macs"]))
for r in lay["results"]:
    key = "%s/%s" % (r["model"], r["core"])
    run = [l for l in r["layers"] if l.get("instructions") is not None]
    if any("cycles" not in l for l in r["layers"]):
        problems.append("%s: a layer has no cycles field" % key)
        continue
    if timed and r["status"] == "pass":
        if any(not isinstance(l["cycles"], int) for l in run):
            problems.append("%s: a run layer has no cycles" % key)
            continue
        s = sum(l["cycles"] for l in run) + (r.get("outside_layers_cycles") or 0)
        if s != r["cycles"] or r["cycles"] != rows[(r["model"], r["core"])]["cycles"]:
            problems.append("%s: layers + outside = %d cycles, layers.json %s, results.json %s" %
                            (key, s, r["cycles"], rows[(r["model"], r["core"])]["cycles"]))
# README: the table between the markers shows results.json's cycles (x.xx M / x.xxx M)
m = re.search(r"<!-- published-table:begin.*?-->\n(.*?)<!-- published-table:end", readme, re.S)
if not m:
    problems.append("bench/README.md has no published-table markers")
else:
    lines = [l for l in m.group(1).splitlines() if l.startswith("| ") and not l.startswith("| model")]
    if timed and not lines:
        problems.append("bench/README.md's published table is empty")
    for l in lines:
        cells = [c.strip() for c in l.strip("|").split("|")]
        r = rows.get((cells[0], cells[1].lower()))
        c = r and r["cycles"]
        want = "-" if not c else ("%.2f M" % (c / 1e6) if c >= 1e6 else "%.3f M" % (c / 1e6))
        if cells[2] != want:
            problems.append("README table %s %s: %s, results.json %s" % (cells[0], cells[1], cells[2], want))
if problems:
    print("FAIL cycles_report:bench-files: " + "; ".join(problems[:4]))
else:
    print("PASS cycles_report:bench-files (%d rows, %s)" % (len(rows), "timed" if timed else "untimed: cycles null"))
PY

# ---- the cycle formulas against the measured cycles ------------------------------------------
python3 "$TA_ROOT/tools/fit_cost_model.py" "$tinyaot" "$corpus" "$work/table.c" --report --cycles >"$work/cycles.tsv" 2>"$work/cycles.err"
python3 - "$work/cycles.tsv" "$TA_ROOT/bench/layers.json" "$TA_ROOT/bench/cost/portable_cycles.json" <<'PY'
import json, os, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
# the measured cycles of each model/core, tier run (layers.json) and portable run
totals, tier_layers = {}, set()
for kind, path in (("tier", sys.argv[2]), ("portable", sys.argv[3])):
    if not os.path.exists(path):
        continue
    for r in json.load(open(path))["results"]:
        if r.get("status") == "pass" and isinstance(r.get("cycles"), int):
            totals[(kind, r["model"], r["core"])] = r["cycles"]
            if kind == "tier":
                tier_layers |= {(r["model"], r["core"], str(l["index"]), l["kernel"]) for l in r["layers"]}
if not totals:
    print("SKIP cycles_report:fit: no cycles in the bench files")
    sys.exit(0)
if not rows:
    print("FAIL cycles_report:fit: the fit tool reported no layer with cycles")
    sys.exit(0)
sums, bad, worst = {}, [], (0.0, "")
for model, core, index, kernel, y, e, err in rows:
    y, e = float(y), float(e)
    key = ("tier" if (model, core, index, kernel) in tier_layers else "portable", model, core)
    s = sums.setdefault(key, [0.0, 0.0])
    s[0] += y
    s[1] += e
    if y < 0.01 * totals.get(key, y):
        continue
    limit = 0.70 if model.endswith("_a16w8") else 0.40
    rel = abs(e - y) / y
    if rel > worst[0]:
        worst = (rel, "%s %s %s op %s %s" % (key[0], model, core, index, kernel))
    if rel > limit:
        bad.append("%s %s %s op %s (%s): %.0f cycles, estimated %.0f" % (key + (index, kernel, y, e)))
for key, (y, e) in sorted(sums.items()):
    if abs(e - y) > 0.15 * y:
        bad.append("%s %s %s total: %.0f cycles, estimated %.0f" % (key + (y, e)))
if bad:
    print("FAIL cycles_report:fit: " + "; ".join(bad[:4]))
else:
    print("PASS cycles_report:fit (%d layers; worst above 1 %% of its model: %.0f %% [%s]; %d model/core/kind totals within 15 %%)" %
          (len(rows), 100 * worst[0], worst[1], len(sums)))
PY
