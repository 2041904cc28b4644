#!/bin/sh
# `make fuzz`: runs every fuzz target built in FUZZ_DIR for SECONDS seconds each, one
# after the other (a single fuzzing process at a time), and prints one summary line
# per target. usage: fuzz/run_fuzz.sh FUZZ_DIR SECONDS CORPUS
#
# A target is fuzz/fuzz_<name>.c; a line "fuzz-seeds: tflite" in it seeds it with the
# corpus models (up to 64 KiB) and tests/hostile/cases, "fuzz-seeds: yaml" with the
# configurations under tests/*/; a line "fuzz-options: ..." adds libFuzzer flags; files in fuzz/seeds/fuzz_<name>/
# are added to its seeds too; fuzz/<kind>.dict is its dictionary when present.
# The growing corpus stays in FUZZ_DIR/corpus/<target> between runs; crashes, leaks,
# timeouts and out-of-memory inputs go to FUZZ_DIR/artifacts/<target>/.
# FUZZ_TARGETS="fuzz_loader ..." (environment or make variable) runs only those.
set -u
dir=${1:?usage: run_fuzz.sh FUZZ_DIR SECONDS CORPUS}
seconds=${2:-60}
corpus=${3:-../shared/corpus}
status=0
for bin in "$dir"/fuzz_*; do
  [ -x "$bin" ] && [ -f "$bin" ] || continue
  name=$(basename "$bin")
  case " ${FUZZ_TARGETS:-$name} " in *" $name "*) ;; *) continue ;; esac
  src="fuzz/$name.c"
  seeds="$dir/seeds/$name"
  work="$dir/corpus/$name"
  art="$dir/artifacts/$name"
  rm -rf "$seeds"
  mkdir -p "$seeds" "$work" "$art"
  kind=$(sed -n 's/.*fuzz-seeds: *\([a-z0-9_]*\).*/\1/p' "$src" 2>/dev/null | head -n 1)
  if [ "$kind" = tflite ]; then
    for m in "$corpus"/models/*/model.tflite "$corpus"/ops/*/model.tflite; do
      [ -f "$m" ] && [ "$(wc -c <"$m")" -le 65536 ] || continue
      cp "$m" "$seeds/$(basename "$(dirname "$m")").tflite"
    done
    for h in tests/hostile/cases/*; do [ -f "$h" ] && cp "$h" "$seeds/hostile_$(basename "$h")"; done
  elif [ "$kind" = yaml ]; then
    for y in tests/*/*.yaml; do [ -f "$y" ] && cp "$y" "$seeds/$(basename "$(dirname "$y")")_$(basename "$y")"; done
  fi
  [ -d "fuzz/seeds/$name" ] && cp fuzz/seeds/"$name"/* "$seeds/" 2>/dev/null
  extra=$(sed -n 's/.*fuzz-options: *\([^*]*\).*/\1/p' "$src" 2>/dev/null | head -n 1)
  dict=""
  [ -n "$kind" ] && [ -f "fuzz/$kind.dict" ] && dict="-dict=fuzz/$kind.dict"
  log="$dir/$name.log"
  echo "== $name: ${seconds}s, $(ls "$seeds" | wc -l) seeds, $(ls "$work" | wc -l) inputs in $work"
  # -timeout and -rss_limit_mb enforce the time and memory bounds per input
  # (docs/robustness.md); leaks are reported at exit of each input.
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$art/" $dict $extra "$work" "$seeds" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | sed 's/ft: //')
  found=$(ls "$art" | wc -l)
  echo "$name: ${seconds}s, ${execs:-?} executions, coverage ${cov:-?} edges (${ft:-?} features), corpus $(ls "$work" | wc -l) inputs, $found artifacts, exit $rc"
  if [ $rc -ne 0 ]; then
    status=1
    grep -E 'ERROR|SUMMARY|fuzz check failed|runtime error' "$log" | head -n 5
    echo "   full log: $log; reproduce: $bin $art/<file>"
  fi
done
exit $status
