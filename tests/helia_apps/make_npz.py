#!/usr/bin/env python3
"""Writes a heliaAOT golden-data .npz (input_<i>, output_<i>) from a corpus case, without
NumPy: the .npy headers are written here, the zip by the standard library.

usage: make_npz.py MODE... MANIFEST.json CASE_DIR OUT.npz
  --stored / --deflated   member compression (default stored)
  --bump-output           output_0[0] off by one (a wrong expected value)
  --corrupt-crc           flip one data byte after writing (stored)
  --wrong-dtype           input_0 declared with a 2-byte dtype
  --no-output             leave output_0 out
  --bad-deflate           damage the first deflated member's stream
"""
import json
import sys
import zipfile

DTYPES = {"int8": "|i1", "uint8": "|u1", "int16": "<i2", "uint16": "<u2", "int32": "<i4",
          "uint32": "<u4", "int64": "<i8", "float32": "<f4", "bool": "|b1"}


def npy(descr, shape, data):
    dims = "".join("%d, " % d for d in shape) if len(shape) != 1 else "%d," % shape[0]
    if len(shape) > 1:
        dims = dims[:-2]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * pad + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1") + data


def main(argv):
    flags = [a for a in argv if a.startswith("--")]
    manifest, case_dir, out = [a for a in argv if not a.startswith("--")]
    spec = json.load(open(manifest))
    method = zipfile.ZIP_DEFLATED if "--deflated" in flags or "--bad-deflate" in flags else zipfile.ZIP_STORED
    members = []
    for kind, key in (("input", "inputs"), ("output", "outputs")):
        for i, t in enumerate(spec[key]):
            if kind == "output" and i == 0 and "--no-output" in flags:
                continue
            data = bytearray(open("%s/%s%d.bin" % (case_dir, "in" if kind == "input" else "out", i), "rb").read())
            descr, shape = DTYPES[t["dtype"]], t["shape"]
            if kind == "output" and i == 0 and "--bump-output" in flags:
                data[0] = (data[0] + 1) & 0xFF if data[0] != 0x7F else 0x7E  # int8: one step away
            if kind == "input" and i == 0 and "--wrong-dtype" in flags:
                descr, shape = "<i2", [len(data) // 2]
            members.append(("%s_%d.npy" % (kind, i), npy(descr, shape, bytes(data))))
    with zipfile.ZipFile(out, "w", compression=method) as z:
        for name, blob in members:
            z.writestr(name, blob)
    if "--corrupt-crc" in flags or "--bad-deflate" in flags:
        raw = bytearray(open(out, "rb").read())
        if "--corrupt-crc" in flags:
            at = raw.index(b"\x93NUMPY") + 140
        else:
            name_len = int.from_bytes(raw[26:28], "little")
            extra_len = int.from_bytes(raw[28:30], "little")
            at = 30 + name_len + extra_len + 1
        raw[at] ^= 0x55
        open(out, "wb").write(bytes(raw))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
