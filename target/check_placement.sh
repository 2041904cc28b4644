#!/bin/sh
# Checks that a module linked by run_case.sh --config on the M55 really sits where its
# report.json says: every arena (symbol <name>_<arena>) in the memory of the arena; the
# image of every model constant in its source memory (the pinned image
# <name>_pinned_<dest>_from_<src> for pinned constants, else the array <name>_t<id>_...);
# every definition marked <PREFIX>_PUT_IN_<MEM>_INIT in the module's sources in <MEM>, and
# every layer function marked <PREFIX>_CODE_IN_<MEM> in <MEM>.
# A memory's address range is [__ta_mem_<mem>_start, __ta_mem_<mem>_end) of
# mps3-an547.ld. Prints one line per problem and a summary.
# usage: target/check_placement.sh OUT NAME      (OUT as left by run_case.sh)
# exit: 0 all in place; 1 something is elsewhere or missing; 2 usage
out=$1 name=$2
if [ -z "$out" ] || [ -z "$name" ] || [ ! -f "$out/image.elf" ] || [ ! -f "$out/module/report.json" ]; then
  echo "usage: check_placement.sh OUT NAME (OUT/image.elf and OUT/module/report.json)" >&2
  exit 2
fi
report="$out/module/report.json"
syms="$out/placement.syms"
arm-none-eabi-nm "$out/image.elf" | awk 'NF == 3 { print $3, $1 }' >"$syms" || exit 2
lower() { echo "$1" | tr A-Z a-z; }
problems=0 checked=0

# in_memory SYMBOL MEM WHAT: the symbol's address lies in the memory MEM maps to
in_memory() {
  m=$(lower "$2")
  verdict=$(awk -v s="$1" -v lo="__ta_mem_${m}_start" -v hi="__ta_mem_${m}_end" '
    function num(h,   i, v) { v = 0; h = tolower(h)
      for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
      return v }
    $1 == s { a = num($2) } $1 == lo { l = num($2) } $1 == hi { e = num($2) }
    END {
      if (l == "" || e == "") print "the image defines no range for this memory"
      else if (a == "") print "not in the image"
      else if (a < l || a >= e) printf "at 0x%08x, outside [0x%08x, 0x%08x)\n", a, l, e
      else print "ok" }' "$syms")
  checked=$((checked + 1))
  if [ "$verdict" != ok ]; then
    echo "misplaced: $3 $1 (should be in $2): $verdict"
    problems=$((problems + 1))
  fi
}

# 1. arenas
arenas=$(sed -n '/"arenas": \[/,/\]/s/.*{"name": "\([a-z0-9_]*\)", "memory": "\([A-Z]*\)".*/\1 \2/p' "$report")
n_arenas=0
while read -r arena mem; do
  [ -n "$arena" ] || continue
  in_memory "${name}_$arena" "$mem" arena
  n_arenas=$((n_arenas + 1))
done <<EOF
$arenas
EOF

# 2. the image of every model constant, in its source memory
constants=$(grep '"role": "constant"' "$report" | grep -v '"id": -1,' |
  sed -n 's/.*"id": \([0-9]*\),.*"memory": "\([A-Z]*\)", "source_memory": "\([A-Z]*\)", "residency": "\([a-z]*\)".*/\1 \2 \3 \4/p')
n_constants=0
while read -r id dest src residency; do
  [ -n "$id" ] || continue
  if [ "$residency" = pin ]; then
    sym="${name}_pinned_$(lower "$dest")_from_$(lower "$src")"
  else
    sym=$(sed -n "s/.* \(${name}_t${id}_[A-Za-z0-9_]*\)\[.*/\1/p" "$out"/module/src/*.c | head -n 1)
    [ -n "$sym" ] || sym="${name}_t${id}_(no definition in the module's sources)"
  fi
  in_memory "$sym" "$src" "constant $id"
  n_constants=$((n_constants + 1))
done <<EOF
$constants
EOF

# 3. every initialised definition in the memory its macro names
defs=$(sed -n 's/^\([A-Z0-9_]*\)_PUT_IN_\([A-Z]*\)_INIT .* \([A-Za-z_][A-Za-z0-9_]*\)\( *\[[^]]*\]\)* *=.*/\2 \3/p' "$out"/module/src/*.c)
n_defs=0
while read -r mem sym; do
  [ -n "$sym" ] || continue
  in_memory "$sym" "$mem" definition
  n_defs=$((n_defs + 1))
done <<EOF
$defs
EOF

# 4. every layer function marked <PREFIX>_CODE_IN_<MEM> (the line before its definition)
code=$(sed -n '/^[A-Z0-9_]*_CODE_IN_[A-Z]*$/{N;s/^[A-Z0-9_]*_CODE_IN_\([A-Z]*\)\n[^(]* \([A-Za-z_][A-Za-z0-9_]*\)(.*/\1 \2/p;}' "$out"/module/src/*.c)
n_code=0
while read -r mem sym; do
  [ -n "$sym" ] || continue
  in_memory "$sym" "$mem" function
  n_code=$((n_code + 1))
done <<EOF
$code
EOF

if [ "$n_arenas" -eq 0 ]; then echo "misplaced: report.json lists no arena"; problems=$((problems + 1)); fi
echo "placement: $n_arenas arenas, $n_constants constants, $n_defs initialised definitions, $n_code functions checked; $problems misplaced"
[ "$problems" -eq 0 ]
