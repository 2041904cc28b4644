#!/bin/sh
# Memory control (issue 17 item 5, docs/memory.md "Memory modes"):
# - default mode runs in place only what costs no instruction: ic (ResNet-8: ADDs at their
#   input's offset, convolutions whose output stays on its temporary) goes below its
#   layer-by-layer bound on the host, on cortex-m4 and on cortex-m55, no in-place operator
#   copies its output, and the outputs are exact (host; and QEMU Cortex-M4 when the cross
#   tools are there); kws's in-place convolutions would copy, so its default mode has none;
# - --no-inplace: nothing runs in place in either mode (ic's default arena back at its
#   bound), exact;
# - max mode is never above default (every corpus model tried on the host);
# - escalation: with a budget between the max-mode and the default arena of kws (from the
#   compiler's own two figures) the conversion succeeds in max mode, says so on stderr and
#   in report.json, and the module is exact; a budget below max is refused; one at the
#   default arena does not escalate;
# - report.json: memory_bounds.layer_by_layer is the largest live_bytes layer by layer
#   and equals activation_lower_bound, reached is the largest live_bytes as run and at
#   most the scratch arenas, each in-place saving is that step's difference (kws and
#   mcunet_vww in max mode, mcunet_vww and mcunet_det in default mode), and mcunet_vww's
#   folded PADs list the padded tensors' bytes (40x40x48 -> 42x42x48: 84,672).
# usage: sh tests/suites/ram.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup ram "$@" || { fail setup "no work folder"; exit 0; }

if [ ! -d "$corpus/models/ic" ] || [ ! -d "$corpus/models/kws" ]; then
  skip corpus "absent ($corpus)"
  exit 0
fi
tinyaot="$build/tinyaot"

convert() { # NAME MODEL EXTRA...: converts into $work/NAME (stderr in NAME.err); status
  name=$1 model=$2
  shift 2
  rm -rf "$work/$name"
  "$tinyaot" convert "$corpus/models/$model/model.tflite" -o "$work/$name" "$@" >"$work/$name.log" 2>"$work/$name.err"
}

# A python3 check of report.json: prints "ok" or what is wrong.
report_check() { # REPORT MODE(default|max|any)
  python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
b, live, sav = d["memory_bounds"], d["live_bytes"], d["savings"]
why = []
if sys.argv[2] != "any" and b["mode"] != sys.argv[2]:
    why.append("mode %s" % b["mode"])
lbl = max((r["layer_by_layer"] for r in live), default=0)
reached = max((r["reached"] for r in live), default=0)
if lbl != b["layer_by_layer"] or lbl != d["activation_lower_bound"]:
    why.append("layer_by_layer %d, live_bytes max %d, activation_lower_bound %d" % (b["layer_by_layer"], lbl, d["activation_lower_bound"]))
if reached != b["reached"] or reached > lbl:
    why.append("reached %d, live_bytes max as run %d, layer by layer %d" % (b["reached"], reached, lbl))
if b["scratch_arena_bytes"] < b["reached"] or d["arena_bytes"] < b["scratch_arena_bytes"]:
    why.append("arenas %d / %d below the reached bound %d" % (b["scratch_arena_bytes"], d["arena_bytes"], b["reached"]))
by_step = {r["step"]: r for r in live}
ops = set()
for s in sav:
    if s["technique"] != "in_place":
        continue
    ops.add(s["op"])
    r = by_step.get(s["step"])  # a patched operator runs at several steps
    if r is None or r["layer_by_layer"] - r["reached"] != s["bytes"] or s["bytes"] <= 0:
        why.append("in-place saving of op %d: %s vs %s" % (s["op"], s["bytes"], r))
    if b["mode"] == "default" and s["copies"]:
        why.append("op %d copies its output in default mode" % s["op"])
if ops != set(d["in_place"]["operators"]):
    why.append("savings list %s, in_place %s" % (sorted(ops), d["in_place"]["operators"]))
print("; ".join(why) if why else "ok")
EOF
}

json_num() { sed -n "s/.*\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1; }

# ---- default mode: the free in-place contracts -------------------------------------------------
for platform in host cortex-m4 cortex-m55; do
  if ! convert "ic_$platform" ic --platform $platform; then
    fail "ic_default_$platform" "$(tail -n 1 "$work/ic_$platform.err")"
    continue
  fi
  rep="$work/ic_$platform/report.json"
  arena=$(json_num "$rep" scratch_arena_bytes) bound=$(json_num "$rep" activation_lower_bound)
  check=$(report_check "$rep" default)
  if [ "$check" != ok ]; then
    fail "ic_default_$platform" "$check"
  elif [ -z "$arena" ] || [ "$arena" -ge "$bound" ] || ! grep -q '"technique": "in_place"' "$rep"; then
    fail "ic_default_$platform" "scratch arenas '$arena' not below the layer-by-layer bound $bound"
  else
    pass "ic_default_$platform ($arena < $bound bytes, nothing copied)"
  fi
done
# vww on cortex-m4: the 1x1 expansion (op 2) runs in place for free; the DSP depthwise's
# contract (slower in place: one row pair per pass) is max-only and must not cost that tie
if convert vww_m4 vww --platform cortex-m4; then
  rep="$work/vww_m4/report.json"
  arena=$(json_num "$rep" scratch_arena_bytes) bound=$(json_num "$rep" activation_lower_bound)
  if [ -n "$arena" ] && [ "$arena" -lt "$bound" ] && [ "$(report_check "$rep" default)" = ok ]; then
    pass "vww_default_cortex-m4 ($arena < $bound bytes)"
  else
    fail vww_default_cortex-m4 "scratch arenas '$arena', bound $bound, $(report_check "$rep" default)"
  fi
else
  fail vww_default_cortex-m4 "$(tail -n 1 "$work/vww_m4.err")"
fi
if convert kws_default kws && [ "$(report_check "$work/kws_default/report.json" default)" = ok ]; then
  if grep -q '"technique": "in_place"' "$work/kws_default/report.json"; then
    fail kws_default "an operator runs in place in default mode (each of kws's would copy)"
  else
    pass "kws_default (no in-place operator: each would copy its output)"
  fi
else
  fail kws_default "$(tail -n 1 "$work/kws_default.err") $(report_check "$work/kws_default/report.json" default 2>&1 | tail -n 1)"
fi
for model in ic mcunet_det; do
  line=$(sh "$TA_ROOT/tests/corpus_case.sh" "$corpus/models/$model" "$build" "$work/case" 2>&1 | tail -n 1)
  case "$line" in
    PASS*) pass "${model}_default_exact" ;;
    *) fail "${model}_default_exact" "$line" ;;
  esac
done

# ---- --no-inplace: the switch turns both modes' in-place execution off ---------------------------
# ic without it goes below its bound (checked above); with it, neither mode runs anything in
# place and the default arena is back at the layer-by-layer bound (no patch, no tie), exact.
if convert ic_noinplace ic --no-inplace && convert ic_noinplace_max ic --no-inplace --memory.optimize max; then
  rep="$work/ic_noinplace/report.json"
  arena=$(json_num "$rep" scratch_arena_bytes) bound=$(json_num "$rep" activation_lower_bound)
  if grep -q '"technique": "in_place"' "$rep" "$work/ic_noinplace_max/report.json"; then
    fail no_inplace "an operator runs in place with --no-inplace"
  elif [ -z "$arena" ] || [ "$arena" -lt "$bound" ]; then
    fail no_inplace "default arena '$arena' below the layer-by-layer bound $bound without in-place execution"
  else
    line=$(TINYAOT_RUN_ARGS="--no-inplace" sh "$TA_ROOT/tests/corpus_case.sh" "$corpus/models/ic" "$build" "$work/case" 2>&1 | tail -n 1)
    case "$line" in
      PASS*) pass "no_inplace (ic default $arena >= bound $bound bytes, exact)" ;;
      *) fail no_inplace "$line" ;;
    esac
  fi
else
  fail no_inplace "$(tail -n 1 "$work/ic_noinplace.err") $(tail -n 1 "$work/ic_noinplace_max.err")"
fi

# ---- max never above default --------------------------------------------------------------------
worse=""
for dir in "$corpus"/models/*/; do
  model=$(basename "$dir")
  [ -f "$dir/model.tflite" ] || continue
  convert d_$model "$model" || continue
  convert m_$model "$model" --memory.optimize max || { worse="$worse $model(max failed)"; continue; }
  d=$(json_num "$work/d_$model/report.json" arena_bytes) m=$(json_num "$work/m_$model/report.json" arena_bytes)
  [ "$m" -le "$d" ] || worse="$worse $model($m > $d)"
  rm -rf "$work/d_$model" "$work/m_$model"
done
if [ -z "$worse" ]; then pass max_not_above_default; else fail max_not_above_default "${worse# }"; fi

# ---- escalation ---------------------------------------------------------------------------------
budget_config() { # FILE BYTES: every writable host memory limited to BYTES
  printf 'memory:\n  constraints:\n' >"$1"
  for mem in ITCM DTCM SRAM PSRAM; do printf '    - {name: %s, max_size: %s}\n' $mem "$2" >>"$1"; done
}
convert kws_max kws --memory.optimize max
dflt=$(json_num "$work/kws_default/report.json" arena_bytes) max=$(json_num "$work/kws_max/report.json" arena_bytes)
if [ -z "$dflt" ] || [ -z "$max" ] || [ "$max" -ge "$dflt" ]; then
  fail escalate "no budget between max ($max) and default ($dflt) arenas"
else
  mid=$(( (dflt + max) / 2 ))
  budget_config "$work/mid.yaml" $mid
  if ! convert kws_mid kws --config "$work/mid.yaml"; then
    fail escalate "budget $mid refused: $(tail -n 1 "$work/kws_mid.err")"
  elif ! grep -q 'planned with --memory.optimize max' "$work/kws_mid.err" ||
       ! grep -q '"mode": "max", "escalated": true' "$work/kws_mid/report.json"; then
    fail escalate "converted with budget $mid, but neither stderr nor report.json says it escalated"
  elif [ "$(json_num "$work/kws_mid/report.json" arena_bytes)" -gt $mid ]; then
    fail escalate "arena $(json_num "$work/kws_mid/report.json" arena_bytes) over the budget $mid"
  else
    pass "escalate (budget $mid between $max and $dflt bytes)"
    line=$(TINYAOT_RUN_ARGS="--config $work/mid.yaml" sh "$TA_ROOT/tests/corpus_case.sh" "$corpus/models/kws" "$build" \
           "$work/case" 2>&1 | tail -n 1)
    case "$line" in
      PASS*) pass escalate_exact ;;
      *) fail escalate_exact "$line" ;;
    esac
  fi
  budget_config "$work/low.yaml" $((max - 64))
  if convert kws_low kws --config "$work/low.yaml"; then
    fail escalate_refuses "a budget of $((max - 64)) bytes, below the max-mode arena, was accepted"
  elif grep -q 'over budget\|has room' "$work/kws_low.err"; then
    pass escalate_refuses
  else
    fail escalate_refuses "refused without naming the budget: $(tail -n 1 "$work/kws_low.err")"
  fi
  budget_config "$work/enough.yaml" "$dflt"
  if convert kws_enough kws --config "$work/enough.yaml" && ! grep -q 'planned with' "$work/kws_enough.err" &&
     grep -q '"mode": "default", "escalated": false' "$work/kws_enough/report.json"; then
    pass no_escalation_when_default_fits
  else
    fail no_escalation_when_default_fits "$(tail -n 1 "$work/kws_enough.err")"
  fi
fi

# ---- report.json bounds and savings -------------------------------------------------------------
for spec in kws_max:max mcunet_vww:max mcunet_vww_default:default mcunet_det:default; do
  name=${spec%%:*} mode=${spec#*:}
  model=${name%_max}
  model=${model%_default}
  [ -d "$work/$name" ] || convert "$name" "$model" --memory.optimize "$mode"
  check=$(report_check "$work/$name/report.json" "$mode" 2>&1 | tail -n 1)
  if [ "$check" = ok ]; then pass "report_$name"; else fail "report_$name" "$check"; fi
done
if grep -q '"technique": "fold_pad", "op": [0-9]*, "bytes": 84672}' "$work/mcunet_vww_default/report.json" &&
   grep -q '| fold_pad | 84672 |' "$work/mcunet_vww_default/report.md"; then
  pass report_fold_pad
else
  fail report_fold_pad "mcunet_vww's 42x42x48 PAD (84672 bytes) is not listed as folded"
fi

# ---- default mode on QEMU Cortex-M4: ic with its in-place operators ---------------------------
. "$TA_ROOT/target/lib.sh"
if ! ta_ensure_packages >/dev/null 2>&1; then
  skip ic_qemu_m4 "cross tools (arm-none-eabi-gcc, qemu-system-arm) missing"
  exit 0
fi
dir="$corpus/models/ic"
out="$work/qemu_m4"
if ! suite_qemu_exact ic_qemu_m4 m4 "$dir" "$out" --tinyaot "$tinyaot"; then
  : # the FAIL line is printed
elif ! grep -q '"technique": "in_place"' "$out/module/report.json"; then
  fail ic_qemu_m4 "exact, but no operator ran in place in default mode"
else
  pass "ic_qemu_m4 (default mode, arena $(json_num "$out/module/report.json" arena_bytes) bytes)"
  rm -rf "$out"
fi
