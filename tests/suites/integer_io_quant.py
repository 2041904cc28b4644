#!/usr/bin/env python3
"""The application's side of --integer-io, for tests/suites/integer_io.sh (standard library only).

  integer_io_quant.py quantize REPORT.json CASE_DIR OUT_DIR
      each input report.json's "integer_io" lists: CASE_DIR/in<i>.bin (float32) quantized as
      TFLite does, q = round(x / scale) + zero_point, x / scale in float32, rounded half away
      from zero, clamped; other inputs copied. Writes OUT_DIR/in<i>.bin.
  integer_io_quant.py compare REPORT.json CASE_DIR RUN_DIR N_OUTPUTS
      each integer output: the golden float32 CASE_DIR/out<i>.bin (TFLite's DEQUANTIZE of the
      integer result, (q - zero_point) * scale) quantized back, which inverts it exactly
      (|q - zero_point| < 2^16: the float is within ulps of an integer times the scale), must
      equal RUN_DIR/out<i>.bin byte for byte, and dequantizing RUN_DIR's q must give the golden
      float within the corpus tolerance; other outputs must equal the golden bytes.
      Prints one line: "exact" or what differs; exit 0 only when exact.
"""
import json
import math
import os
import shutil
import struct
import sys

FORMATS = {"int8": ("b", -128, 127), "uint8": ("B", 0, 255), "int16": ("h", -32768, 32767)}


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def round_half_away(v):
    return math.floor(abs(v) + 0.5) * (1 if v >= 0 else -1)


def quantize(values, scale, zp, lo, hi):
    # double division rounded to float32 equals float32 division (53 >= 2 * 24 + 2 bits)
    return [min(hi, max(lo, int(round_half_away(f32(v / scale))) + zp)) for v in values]


def floats(path):
    data = open(path, "rb").read()
    return list(struct.unpack("<%df" % (len(data) // 4), data))


def integer_io(report):
    return json.load(open(report)).get("integer_io", {"inputs": [], "outputs": []})


def cmd_quantize(report, case_dir, out_dir):
    io = {e["index"]: e for e in integer_io(report)["inputs"]}
    os.makedirs(out_dir, exist_ok=True)
    i = 0
    while os.path.exists(os.path.join(case_dir, "in%d.bin" % i)):
        src, dst = os.path.join(case_dir, "in%d.bin" % i), os.path.join(out_dir, "in%d.bin" % i)
        if i in io:
            fmt, lo, hi = FORMATS[io[i]["dtype"]]
            q = quantize(floats(src), f32(io[i]["scale"]), io[i]["zero_point"], lo, hi)
            open(dst, "wb").write(struct.pack("<%d%s" % (len(q), fmt), *q))
        else:
            shutil.copyfile(src, dst)
        i += 1
    return 0


def cmd_compare(report, case_dir, run_dir, n_outputs):
    io = {e["index"]: e for e in integer_io(report)["outputs"]}
    problems = []
    for i in range(n_outputs):
        gold_path, got_path = os.path.join(case_dir, "out%d.bin" % i), os.path.join(run_dir, "out%d.bin" % i)
        if not os.path.exists(got_path):
            problems.append("out%d.bin missing" % i)
            continue
        got = open(got_path, "rb").read()
        if i not in io:
            if got != open(gold_path, "rb").read():
                problems.append("out%d.bin differs from the golden" % i)
            continue
        fmt, lo, hi = FORMATS[io[i]["dtype"]]
        scale, zp = f32(io[i]["scale"]), io[i]["zero_point"]
        gold = floats(gold_path)
        want = quantize(gold, scale, zp, lo, hi)
        if len(got) != len(want) * struct.calcsize(fmt):
            problems.append("out%d.bin has %d bytes, expected %d" % (i, len(got), len(want) * struct.calcsize(fmt)))
            continue
        q = struct.unpack("<%d%s" % (len(want), fmt), got)
        bad = sum(1 for a, b in zip(q, want) if a != b)
        far = sum(1 for a, g in zip(q, gold) if abs(f32(scale * (a - zp)) - g) > 1e-5 * max(1.0, abs(g)))
        if bad or far:
            problems.append("out%d: %d of %d values differ from the re-quantized golden, %d dequantize off it"
                            % (i, bad, len(want), far))
    print("; ".join(problems) if problems else "exact")
    return 1 if problems else 0


def main(argv):
    if len(argv) == 5 and argv[1] == "quantize":
        return cmd_quantize(argv[2], argv[3], argv[4])
    if len(argv) == 6 and argv[1] == "compare":
        return cmd_compare(argv[2], argv[3], argv[4], int(argv[5]))
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
