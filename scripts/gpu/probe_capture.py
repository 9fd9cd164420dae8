"""First look on the GPU: capture output code of a list of problems in-process, and check the
launch-timing method (a mark after each launch) against the whole-call GPU time.

Usage: python3 scripts/gpu/probe_capture.py OUT_DIR PROBLEM.py ...
Writes OUT_DIR/probe.json and OUT_DIR/fixtures/<problem>__graph<k>.py.
"""

import json
import os
import re
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

from kernelopt.worker.session import Session  # noqa: E402

LAUNCH = re.compile(r"^(\s+)(.*\.run\(|.*extern_kernels\.|.*torch\.ops\.|.*\baten\.|.*\.copy_\()")


def instrument(source: str):
    out, marks, first = [], 0, True
    in_call = False
    for line in source.splitlines():
        if re.match(r"\s*def call\(", line):
            in_call = True
        m = LAUNCH.match(line) if in_call else None
        if m and not line.strip().startswith("#"):
            if first:
                out.append(m.group(1) + "_ko_mark()")
                marks += 1
                first = False
            out.append(line)
            out.append(m.group(1) + "_ko_mark()")
            marks += 1
        else:
            out.append(line)
    return "\n".join(out) + "\n", marks


def main():
    out_dir = sys.argv[1]
    os.makedirs(os.path.join(out_dir, "fixtures"), exist_ok=True)
    s = Session()
    results = {"env": s.env({"bandwidth": True, "ncu": True})}
    print(json.dumps(results["env"]), flush=True)
    SCRATCH = tempfile.mkdtemp(prefix="kprobe_")
    for path in sys.argv[2:]:
        name = os.path.basename(os.path.dirname(path)) + "__" + os.path.splitext(os.path.basename(path))[0]
        r = {"problem": name}
        t0 = time.time()
        try:
            r["load"] = s.load({"problem": path})
            run_dir = os.path.join(SCRATCH, name)
            info = s.capture_graphs({"run_dir": run_dir, "seeds": [0], "references": True})
            r["capture"] = {k: v for k, v in info.items() if k != "graphs"}
            r["graph_args"] = [len(g["args"]) for g in info["graphs"]]
            total = 0.0
            for g in info["graphs"]:
                src = open(g["path"]).read()
                with open(os.path.join(out_dir, "fixtures", f"{name}__graph{g['index']}.py"), "w") as f:
                    f.write(src)
                inst, marks = instrument(src)
                if marks < 2:
                    continue
                ip = g["path"].replace(".py", ".timed.py")
                open(ip, "w").write(inst)
                t = s.time_launches({"graph": g["index"], "path": ip, "marks": marks, "iters": 20})
                per = [i["median_ms"] for i in t["intervals"]]
                total += sum(per)
                r.setdefault("launch_ms", []).append(per)
                r.setdefault("graph_total_ms", []).append(t["total"]["median_ms"])
            r["sum_launch_ms"] = total
            for v, mode in (("compiled", "queued"), ("compiled", "synced"), ("eager", "synced"), ("cudagraphs", "synced")):
                m = s.time_model({"variant": v, "mode": mode, "iters": 20})
                r[f"{v}_{mode}_ms"] = m["median_ms"]
                if "compile_s" in m:
                    r["cudagraphs_compile_s"] = m["compile_s"]
                    r["cudagraph_skips"] = m["cudagraph_skips"]
        except Exception as exc:
            r["error"] = traceback.format_exc()[-2000:]
        r["wall_s"] = time.time() - t0
        results.setdefault("problems", []).append(r)
        print(json.dumps({k: v for k, v in r.items() if k not in ("launch_ms",)})[:1500], flush=True)
        with open(os.path.join(out_dir, "probe.json"), "w") as f:
            json.dump(results, f, indent=1, default=str)


if __name__ == "__main__":
    main()
