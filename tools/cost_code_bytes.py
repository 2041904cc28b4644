#!/usr/bin/env python3
"""Code bytes of each runtime kernel family per core, from the link maps of bench runs.

usage: tools/cost_code_bytes.py OUT.json WORKDIR...
  WORKDIR: a kept bench work directory (KEEP=1 bench/bench.sh ...), holding
  <core>/<model>/image.map. For every object ta_<family>.o of a module library, sums the
  .text input sections the linker kept (after --gc-sections); a family's figure on a core
  is the largest over the models (the variants a model compiles differ).
"""
import json
import os
import re
import sys

OBJ = re.compile(r"\(ta_([a-z0-9_]+)\.o\)\s*$")
ENTRY = re.compile(r"^\s*(\.text\S*)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+\S")


def map_sizes(path):
    sizes = {}
    in_map = False
    pending = False  # a long section name alone on the previous line
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("Linker script and memory map"):
                in_map = True
                continue
            if not in_map:
                continue
            if re.match(r"^ \.text\S*\s*$", line):
                pending = True
                continue
            m = ENTRY.match(line)
            o = OBJ.search(line)
            if m and o and (m.group(1) or pending) and int(m.group(2), 16) != 0:
                sizes[o.group(1)] = sizes.get(o.group(1), 0) + int(m.group(3), 16)
            pending = False
    return sizes


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    result = {}
    for work in argv[2:]:
        for core in ("m4", "m55"):
            base = os.path.join(work, core)
            if not os.path.isdir(base):
                continue
            for model in sorted(os.listdir(base)):
                path = os.path.join(base, model, "image.map")
                if not os.path.exists(path):
                    continue
                for fam, b in map_sizes(path).items():
                    cur = result.setdefault(core, {})
                    cur[fam] = max(cur.get(fam, 0), b)
    with open(argv[1], "w") as f:
        json.dump({"generated_by": "tools/cost_measure.sh (tools/cost_code_bytes.py)",
                   "counted": ".text bytes kept by the linker per runtime kernel family, the largest over the bench models",
                   "code_bytes": {c: dict(sorted(v.items())) for c, v in sorted(result.items())}}, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
