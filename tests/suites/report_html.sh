#!/bin/sh
# report.html (issue 18): every conversion writes it next to report.json; it is the same
# for the same input, self-contained, small, and escapes the model's strings. Opened in
# headless Chromium through chromedriver (tests/tools/report_html_check.py): no console
# error, one rectangle per placed tensor per memory with report.json's position and size,
# budget bars with report.json's numbers, hover and click show the tensor's name and bytes,
# a hostile tensor name runs nothing. Models: kws (M4), ic (M55), kws_a16w8, mcunet_vww, two
# placement configs (several memories, persistent state, streamed constants) and kws with
# hostile names; make bench's bench/layers.json loaded into the page fills the instructions
# column. Screenshots go to WORKDIR/report_html/shots/.
# usage: sh tests/suites/report_html.sh BUILD CORPUS WORKDIR
TA_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$TA_ROOT/tests/suite_lib.sh"
suite_setup report_html "$@" || { fail setup "no work folder"; exit 0; }
root=$TA_ROOT
mkdir -p "$work/shots"
B="$build/tinyaot"
M="$corpus/models"
P="$root/tests/placement"
[ -f "$M/kws/model.tflite" ] || { skip corpus "absent ($corpus)"; exit 0; }

# convert LABEL MODEL ARGS...: a module in $work/LABEL with report.html beside report.json
pages=""
convert() {
  label=$1 model=$2; shift 2
  if "$B" convert "$model" -o "$work/$label" --name "$label" "$@" >"$work/$label.out" 2>&1 &&
     [ -s "$work/$label/report.html" ] && [ -s "$work/$label/report.json" ]; then
    pass "$label:written"; pages="$pages $label=$work/$label"
  else fail "$label:written" "$(head -c 300 "$work/$label.out")"; fi
}
convert kws "$M/kws/model.tflite" --platform.name cortex-m4
convert ic "$M/ic/model.tflite" --platform.name cortex-m55
convert kws_a16w8 "$M/kws_a16w8/model.tflite" --platform.name cortex-m55
convert mcunet_vww "$M/mcunet_vww/model.tflite" --platform.name cortex-m55
# PSRAM scratch, SRAM state and a stream pool fed from PSRAM
convert svdf_stream "$M/keyword_svdf_int16in/model.tflite" --path "$P/corpus_stream.yaml"
# SRAM scratch, a DTCM stream pool fed from MRAM
convert ic_stream "$M/ic/model.tflite" --path "$P/m55_stream_sram.yaml"
# constants pinned from MRAM into DTCM beside the scratch arena
convert kws_pin "$M/kws/model.tflite" --path "$P/corpus_pin.yaml"

# Deterministic: the same input gives the same bytes.
if "$B" convert "$M/kws/model.tflite" -o "$work/kws_again" --name kws --platform.name cortex-m4 >/dev/null 2>&1 &&
   cmp -s "$work/kws/report.html" "$work/kws_again/report.html"; then pass deterministic
else fail deterministic "two conversions of kws wrote different report.html"; fi

# Self-contained: no URL is fetched (the SVG namespace is a name, not a fetch).
ext=$(grep -l -E -i '(src|href)=|url\(|@import' "$work"/*/report.html 2>/dev/null | head -3)
if [ -z "$ext" ]; then pass self_contained; else fail self_contained "references outside the page in $ext"; fi

# Size: mcunet_det (the largest corpus model) stays well under 1 MB.
if "$B" convert "$M/mcunet_det/model.tflite" -o "$work/det" --name det >/dev/null 2>&1 &&
   size=$(wc -c <"$work/det/report.html") && [ "$size" -gt 0 ] && [ "$size" -lt 1048576 ]; then pass "size ($size bytes for mcunet_det)"
else fail size "mcunet_det report.html: ${size:-missing} bytes"; fi

# Every corpus model (host platform): report.html is written, and its rectangles (read
# from the text) are report.json's placed tensors with their numbers.
all=""
for d in "$M"/*/; do
  name=$(basename "$d")
  [ -f "$d/model.tflite" ] || continue
  if "$B" convert "$d/model.tflite" -o "$work/all/$name" --name "$name" >"$work/all_$name.out" 2>&1 &&
     [ -s "$work/all/$name/report.html" ]; then all="$all $work/all/$name"
  else fail "every_model:$name" "no report.html: $(head -c 200 "$work/all_$name.out")"; fi
done
# shellcheck disable=SC2086
[ -n "$all" ] && python3 "$root/tests/tools/report_html_check.py" --static $all

# Hostile names: two of kws's tensor names replaced, byte for byte, by markup of the same
# length (a script element, an attribute break-out and an event handler).
hostile_a='</title><script>window.x=1</script>"'"'"'&'
if python3 - "$M/kws/model.tflite" "$work/hostile.tflite" "$hostile_a" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
swaps = [(b"functional_1/average_pooling2d/AvgPool", sys.argv[3].encode()),
         (b"functional_1/flatten/Reshape", b'"><svg onload=window.y=1>\'&_')]
for old, new in swaps:
    assert len(old) == len(new) and data.count(old) >= 1, old
    data = data.replace(old, new)
open(sys.argv[2], "wb").write(data)
EOF
then
  convert hostile "$work/hostile.tflite" --platform.name cortex-m4
  if [ -f "$work/hostile/report.html" ] && ! grep -q -F '<script>window' "$work/hostile/report.html" &&
     ! grep -q -F '<svg onload' "$work/hostile/report.html" &&
     grep -q -F '&lt;/title&gt;&lt;script&gt;window.x=1&lt;/script&gt;&quot;&#39;&amp;' "$work/hostile/report.html"; then
    pass hostile_escaped
  else fail hostile_escaped "a model-provided name reaches report.html unescaped"; fi
else fail hostile_model "could not rename kws's tensors"; fi

# The browser: Debian's chromium and chromedriver (tools/prereqs.sh test installs both).
chromium=$(command -v chromium || command -v chromium-browser)
driver=$(command -v chromedriver)
if [ -z "$chromium" ] || [ -z "$driver" ]; then
  skip browser "chromium or chromedriver not installed (tools/prereqs.sh test installs them)"
  exit 0
fi
hostile_page=""
[ -f "$work/hostile/report.html" ] && hostile_page="hostile=$work/hostile,hostile=$hostile_a"
pages=$(echo "$pages" | tr ' ' '\n' | grep -v '^hostile=')
# make bench's per-operator instructions (bench/layers.json, in the tree) loaded into the
# kws (M4) and ic (M55) pages through their file input
layers="$root/bench/layers.json"
if [ -f "$layers" ]; then
  pages=$(echo "$pages" | sed -e "s|^kws=\(.*\)|kws=\1,bench=$layers:kws:m4|" -e "s|^ic=\(.*\)|ic=\1,bench=$layers:ic:m55|")
else skip bench "no bench/layers.json"; fi
# shellcheck disable=SC2086
python3 "$root/tests/tools/report_html_check.py" "$driver" "$chromium" "$work/shots" $pages ${hostile_page:+"$hostile_page"}
exit $? # a crash of the checker (no FAIL line) shows as a failed suite
