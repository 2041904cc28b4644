#!/usr/bin/env python3
"""Opens report.html files in headless Chromium through chromedriver's WebDriver HTTP API
(python3's standard library only) and checks them against their report.json.

usage: report_html_check.py CHROMEDRIVER CHROMIUM SHOTDIR LABEL=MODULE_DIR[,hostile=NAME][,bench=FILE:MODEL:CORE] ...
       report_html_check.py --static MODULE_DIR ...   (no browser: the rectangles in the text
                                                        against report.json, one line for all)

Per page, one PASS/FAIL line per check (prefix report_html:LABEL:):
  loads     no console error, standards mode, nothing fetched, one script element
  rects     one rectangle per placed tensor per memory (report.json entries with an arena
            that alias no other), each one's x/y/width/height equal to that entry's schedule
            positions, arena base + offset and bytes; the drawn position agrees (1 px)
  budgets   each memory's bar says report.json's used/budget and its drawn fill is that
            fraction of the track; each arena's lower-bound mark likewise
  hover     moving the pointer onto a rectangle shows its tensor's name and bytes
  click     clicking a rectangle shows (and keeps) its tensor's name and bytes
  hostile   (with hostile=NAME) the tensor named NAME is shown verbatim, ran no script
  bench     (with bench=FILE:MODEL:CORE) loading FILE (bench/layers.json) in the page's file
            input fills each operator's instructions from FILE's MODEL on CORE, '-' elsewhere
A screenshot of each page is written to SHOTDIR/LABEL.png.
Prints one SKIP line and exits 0 only when Chromium cannot be started."""
import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

W3C_ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Driver:
    def __init__(self, chromedriver, chromium):
        self.port = free_port()
        self.proc = subprocess.Popen([chromedriver, "--port=%d" % self.port], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        self.base = "http://127.0.0.1:%d" % self.port
        self.session = None
        for _ in range(100):
            try:
                if self.call("GET", "/status").get("ready"):
                    break
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {"binary": chromium, "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--window-size=1280,1500", "--no-first-run"]}}}}
        try:
            self.session = self.call("POST", "/session", caps)["sessionId"]
        except Exception:
            self.close()
            raise

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read().decode())["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError("%s %s: %s" % (method, path, e.read().decode()[:300]))

    def s(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.session, path), body)

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def element(self, css):
        return self.s("POST", "/element", {"using": "css selector", "value": css})[W3C_ELEMENT]

    def close(self):
        try:
            if self.session:
                self.s("DELETE", "")
        except Exception:
            pass
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# What the page's DOM says, in one round trip.
READ_PAGE = """
const out = {compat: document.compatMode, scripts: document.scripts.length,
  imgs: document.querySelectorAll('img,iframe,object,embed,link').length,
  resources: performance.getEntriesByType('resource').length,
  title: document.title, x: typeof window.x, y: typeof window.y, svgs: [], budgets: [], arenas: []};
document.querySelectorAll('svg.tl').forEach(svg => {
  const b = svg.getBoundingClientRect();
  const rects = [];
  svg.querySelectorAll('rect.t').forEach(r => {
    const q = r.getBoundingClientRect();
    rects.push({idx: +r.dataset.idx, name: r.dataset.name, x: r.getAttribute('x'), y: r.getAttribute('y'),
      w: r.getAttribute('width'), h: r.getAttribute('height'), top: q.top - b.top - svg.clientTop,
      left: q.left - b.left - svg.clientLeft, area: q.width * q.height});
  });
  out.svgs.push({memory: svg.dataset.memory, bytes: +svg.dataset.bytes, positions: +svg.dataset.positions,
    width: svg.clientWidth, height: svg.clientHeight, rects: rects});
});
document.querySelectorAll('.track.budget').forEach(t => {
  out.budgets.push({memory: t.dataset.memory, used: +t.dataset.used, budget: +t.dataset.budget,
    track: t.clientWidth, fill: t.querySelector('.fill').getBoundingClientRect().width});
});
document.querySelectorAll('#arenas .track').forEach(t => {
  const m = t.querySelector('.mark').getBoundingClientRect().left - t.getBoundingClientRect().left - t.clientLeft;
  out.arenas.push({arena: t.dataset.arena, bytes: +t.dataset.bytes, lower: +t.dataset.lowerBound,
    track: t.clientWidth, mark: m});
});
return out;
"""

INFO = "return [document.getElementById('info-name').textContent, document.getElementById('info-bytes').textContent]"


def expected(report):
    """Per memory: {idx: (x, y, w, h)} from report.json alone."""
    n_pos = len(report["optimizations"]["schedule"])
    arenas = {a["name"]: a for a in report["arenas"]}
    base, top = {}, {}
    for a in report["arenas"]:
        base[a["name"]] = top.get(a["memory"], 0)
        top[a["memory"]] = top.get(a["memory"], 0) + a["bytes"]
    per_mem = {}
    for i, t in enumerate(report["tensors"]):
        if "arena" not in t or "alias_of" in t:
            continue
        a = arenas[t["arena"]]
        whole = a["role"] in ("persistent", "pinned")
        x = 0 if whole else t["first_op"]
        w = n_pos if whole else t["last_op"] - t["first_op"] + 1
        per_mem.setdefault(a["memory"], {})[i] = (x, base[a["name"]] + t["offset"], w, t["bytes"])
    return per_mem, top


def shown_name(name):
    return name if name else "(unnamed)"


def check_bench(drv, spec):
    path, model, core = spec.rsplit(":", 2)
    data = json.load(open(path))
    runs = [r for r in data["results"] if r["model"] == model and r["core"] == core]
    if len(runs) != 1:
        return False, "%s has %d runs of %s on %s" % (path, len(runs), model, core)
    want = {str(l["index"]): str(l["instructions"]) for l in runs[0]["layers"] if l.get("instructions") is not None}
    drv.s("POST", "/element/%s/value" % drv.element("#bench-file"), {"text": os.path.abspath(path)})
    status = ""
    for _ in range(50):
        status = drv.js("return document.getElementById('bench-status').textContent")
        if status:
            break
        time.sleep(0.1)
    rows = drv.js("return Array.from(document.querySelectorAll('#operators tr[data-op]')).map("
                  "r => [r.dataset.op, r.querySelector('td.instr').textContent])")
    bad = [(op, got) for op, got in rows
           if (op in want and got.split(" ")[0] != want[op]) or (op not in want and got != "-")]
    filled = sum(1 for op, _ in rows if op in want)
    good = not bad and filled == len(want) and status.startswith("%d operators measured" % filled)
    return good, "status %r, %d of %d rows filled, wrong: %s" % (status, filled, len(want), bad[:3])


def check_page(drv, label, mod_dir, hostile, bench, shotdir):
    res = []

    def ok(name, good, why=""):
        res.append(("PASS report_html:%s:%s" % (label, name)) if good else
                   ("FAIL report_html:%s:%s: %s" % (label, name, why)))

    report = json.load(open(os.path.join(mod_dir, "report.json")))
    page = os.path.abspath(os.path.join(mod_dir, "report.html"))
    drv.s("POST", "/url", {"url": "file://" + page})
    dom = drv.js(READ_PAGE)
    logs = drv.s("POST", "/se/log", {"type": "browser"})
    errors = [e["message"] for e in logs if e.get("level") == "SEVERE"]
    ok("loads", not errors and dom["compat"] == "CSS1Compat" and dom["resources"] == 0 and dom["scripts"] == 1
       and dom["imgs"] == 0, "console errors %s, mode %s, %d resources fetched, %d scripts, %d img/link" % (
           errors[:2], dom["compat"], dom["resources"], dom["scripts"], dom["imgs"]))

    # rectangles: count per memory, geometry, drawn position
    per_mem, top = expected(report)
    bad = []
    got_mems = {s["memory"]: s for s in dom["svgs"]}
    for mem in sorted(set(per_mem) | set(got_mems)):
        want = per_mem.get(mem, {})
        svg = got_mems.get(mem)
        if svg is None:
            bad.append("%s: no timeline (%d tensors expected)" % (mem, len(want)))
            continue
        if len(svg["rects"]) != len(want):
            bad.append("%s: %d rectangles, report.json places %d" % (mem, len(svg["rects"]), len(want)))
        if svg["bytes"] != top.get(mem, 0) or svg["positions"] != len(report["optimizations"]["schedule"]):
            bad.append("%s: axis %d bytes x %d positions" % (mem, svg["bytes"], svg["positions"]))
        seen = set()
        for r in svg["rects"]:
            i = r["idx"]
            if i in seen or i not in want:
                bad.append("%s: rectangle for tensors[%d] unexpected or twice" % (mem, i))
                continue
            seen.add(i)
            x, y, w, h = want[i]
            geo = (int(r["x"]), int(r["y"]), int(r["w"]), int(r["h"]))
            if geo != (x, y, w, h):
                bad.append("%s: tensors[%d] drawn at %s, report.json says %s" % (mem, i, geo, (x, y, w, h)))
            if r["name"] != shown_name(report["tensors"][i]["name"]):
                bad.append("%s: tensors[%d] named %r" % (mem, i, r["name"][:60]))
            # the browser's layout: top edge and left edge where the numbers put them
            ty = y / svg["bytes"] * svg["height"]
            tx = x / svg["positions"] * svg["width"]
            if abs(r["top"] - ty) > 1.0 or abs(r["left"] - tx) > 1.0:
                bad.append("%s: tensors[%d] rendered at (%.1f, %.1f) px, expected (%.1f, %.1f)" % (
                    mem, i, r["left"], r["top"], tx, ty))
    n_rects = sum(len(s["rects"]) for s in dom["svgs"])
    ok("rects", not bad and n_rects > 0, "; ".join(bad[:4]) or "no rectangle")

    # budget bars and lower-bound marks
    bad = []
    mems = {m["name"]: m for m in report["memories"]}
    if sorted(b["memory"] for b in dom["budgets"]) != sorted(mems):
        bad.append("bars for %s, report.json has %s" % ([b["memory"] for b in dom["budgets"]], sorted(mems)))
    for b in dom["budgets"]:
        m = mems.get(b["memory"])
        if not m or (b["used"], b["budget"]) != (m["used"], m["budget"]):
            bad.append("%s: bar says %d/%d" % (b["memory"], b["used"], b["budget"]))
            continue
        frac = min(1.0, m["used"] / m["budget"]) if m["budget"] else 0.0
        if abs(b["fill"] - frac * b["track"]) > 1.0:
            bad.append("%s: fill %.1f px of %d, expected %.1f" % (b["memory"], b["fill"], b["track"],
                                                                 frac * b["track"]))
    ars = {a["name"]: a for a in report["arenas"]}
    if sorted(a["arena"] for a in dom["arenas"]) != sorted(ars):
        bad.append("arena bars %s" % [a["arena"] for a in dom["arenas"]])
    for a in dom["arenas"]:
        r = ars.get(a["arena"])
        if not r or (a["bytes"], a["lower"]) != (r["bytes"], r["lower_bound"]):
            bad.append("%s: %d bytes, bound %d" % (a["arena"], a["bytes"], a["lower"]))
            continue
        want = min(1.0, r["lower_bound"] / r["bytes"]) * a["track"] if r["bytes"] else 0.0
        if abs(a["mark"] - want) > 1.0:
            bad.append("%s: bound mark at %.1f px, expected %.1f" % (a["arena"], a["mark"], want))
    ok("budgets", not bad, "; ".join(bad[:4]))

    # interaction: hover the second largest rectangle, then click the largest one
    rects = sorted((r for s in dom["svgs"] for r in s["rects"]), key=lambda r: (-r["area"], r["idx"]))
    if hostile is not None:
        rects = [r for r in rects if report["tensors"][r["idx"]]["name"] == hostile] + rects
    if len(rects) >= 2:
        hov = rects[1] if hostile is None else rects[0]
        eid = drv.element("rect[data-idx='%d']" % hov["idx"])
        drv.s("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse", "parameters": {
            "pointerType": "mouse"}, "actions": [{"type": "pointerMove", "duration": 0, "origin": {
                W3C_ELEMENT: eid}, "x": 0, "y": 0}]}]})
        t = report["tensors"][hov["idx"]]
        info = drv.js(INFO)
        ok("hover", info == [shown_name(t["name"]), str(t["bytes"])], "showed %r for tensors[%d]" % (
            [s[:60] for s in info], hov["idx"]))
        drv.s("DELETE", "/actions")
    if rects:
        r = rects[0]
        drv.s("POST", "/element/%s/click" % drv.element("rect[data-idx='%d']" % r["idx"]), {})
        t = report["tensors"][r["idx"]]
        info = drv.js(INFO)
        sel = drv.js("return document.querySelectorAll('rect.sel').length")
        ok("click", info == [shown_name(t["name"]), str(t["bytes"])] and sel == 1,
           "showed %r for tensors[%d], %d selected" % ([s[:60] for s in info], r["idx"], sel))
    else:
        ok("click", False, "no rectangle to click")
    if hostile is not None:
        hits = [i for i, t in enumerate(report["tensors"]) if t["name"] == hostile]
        after = drv.js("return [document.title, typeof window.x, typeof window.y, document.scripts.length,"
                       " document.querySelectorAll('img,svg:not(.tl)').length]")
        named = drv.js("return Array.from(document.querySelectorAll('rect.t')).filter("
                       "r => r.dataset.name === arguments[0]).length", hostile)
        ok("hostile", hits and named >= 1 and after[1] == "undefined" and after[2] == "undefined" and
           after[3] == 1 and after[4] == 0 and dom["x"] == "undefined",
           "report.json has it %d times, %d rectangles carry it verbatim; page state %s" % (len(hits), named, after))
    if bench is not None:
        good, why = check_bench(drv, bench)
        ok("bench", good, why)
    png = drv.s("GET", "/screenshot")
    with open(os.path.join(shotdir, label + ".png"), "wb") as f:
        f.write(base64.b64decode(png))
    return res


def static_check(mod_dir):
    """Without a browser: the page's rectangles (parsed from the text) against report.json."""
    import re
    report = json.load(open(os.path.join(mod_dir, "report.json")))
    text = open(os.path.join(mod_dir, "report.html"), encoding="utf-8").read()
    per_mem, _ = expected(report)
    want = {i: g for mem in per_mem.values() for i, g in mem.items()}
    got = {}
    for m in re.finditer(r'<rect class="t [a-z]+" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)" data-idx="(\d+)"',
                         text):
        got[int(m.group(5))] = tuple(int(m.group(k)) for k in range(1, 5))
    n_tags = text.count('<rect class="t ')
    if got != want or n_tags != len(want):
        diff = sorted(set(got.items()) ^ set(want.items()))[:3]
        return "%d rectangles, report.json places %d; differing: %s" % (n_tags, len(want), diff)
    return None


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--static":
        bad = [(d, why) for d in sys.argv[2:] for why in [static_check(d)] if why]
        print("PASS report_html:static_rects (%d modules)" % len(sys.argv[2:]) if not bad else
              "FAIL report_html:static_rects: %s: %s" % bad[0])
        return 1 if bad else 0
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    chromedriver, chromium, shotdir = sys.argv[1:4]
    try:
        drv = Driver(chromedriver, chromium)
    except Exception as e:
        print("SKIP report_html:browser: Chromium does not start (%s)" % str(e).splitlines()[0][:200])
        return 0
    failed = False
    try:
        for arg in sys.argv[4:]:
            spec, *extra = arg.split(",")
            label, _, mod_dir = spec.partition("=")
            opts = dict(e.split("=", 1) for e in extra)
            try:
                lines = check_page(drv, label, mod_dir, opts.get("hostile"), opts.get("bench"), shotdir)
            except Exception as e:
                lines = ["FAIL report_html:%s:page: %s" % (label, str(e)[:300])]
            for line in lines:
                print(line)
                failed |= line.startswith("FAIL")
            sys.stdout.flush()
    finally:
        drv.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
