# The compiler's resource bound (issue 7, docs/robustness.md), sourced by the test scripts:
# `tinyaot convert --stats` on a model of S bytes must report a peak heap of at most
# 10 x S + MEMORY_FIXED_BYTES and take at most 5 s. MEMORY_FIXED_BYTES covers what does
# not grow with the model: the kernel sources shipped with the module (all families
# together are 157 KiB), the arena's block granularity (up to 64 KiB), the fixed text of
# the model file, header, reports and build files, and the planner's temporaries.
MEMORY_FIXED_BYTES=524288
TIME_LIMIT_SECONDS=5

# stats_violation FILE STATS_LINE: prints why the line breaks the bound, nothing if it holds.
stats_violation() {
  size=$(wc -c <"$1")
  peak=$(echo "$2" | sed -n 's/.*peak heap \([0-9]*\) B.*/\1/p')
  secs=$(echo "$2" | sed -n 's/.*, time \([0-9.]*\) s.*/\1/p')
  if [ -z "$peak" ] || [ -z "$secs" ]; then echo "no stats line: $2"; return; fi
  limit=$((10 * size + MEMORY_FIXED_BYTES))
  if [ "$peak" -gt "$limit" ]; then
    echo "peak heap $peak B over 10 x $size + $MEMORY_FIXED_BYTES = $limit B"
  elif ! awk -v s="$secs" -v l="$TIME_LIMIT_SECONDS" 'BEGIN { exit !(s <= l) }'; then
    echo "took $secs s (limit $TIME_LIMIT_SECONDS s)"
  fi
}
