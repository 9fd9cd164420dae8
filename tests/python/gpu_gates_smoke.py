"""GPU smoke test of the gate ops through a real worker process (needs an NVIDIA GPU; not collected
by pytest): load a small softmax problem, capture it, probe its first launch as segment 0 (the
probes and the recomposition are done here by text, standing in for the engine), then
static_check, check_candidate, model_check and time_pair on hand-written candidates, and finally a
candidate that writes to an illegal address: the worker must answer, then exit with status 3.

usage: python tests/python/gpu_gates_smoke.py WORK_DIR   (prints one JSON line per request)
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCH = re.compile(r"^(\s+)(\w+)\.run\((.*)\)\s*$")

SOFTMAX = '''
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax(x_ptr, out_ptr, n_cols, x_stride, out_stride, BLOCK: tl.constexpr, SHIFT: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * x_stride + cols, mask=m, other=float("-inf")) * 0.5
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + SHIFT + row * out_stride + cols, e / tl.sum(e, axis=0), mask=m)


def run(inputs, outputs):
    (x,), (out,) = inputs.values(), outputs.values()
    rows = x.shape[0] // ROWS_DIVISOR
    STREAM
    _softmax[(rows,)](x, out, x.shape[1], x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]),
                      SHIFT=SHIFT_VALUE)
'''


def candidate(work, name, rows_divisor=1, shift=0, stream=False):
    text = SOFTMAX.replace("ROWS_DIVISOR", str(rows_divisor)).replace("SHIFT_VALUE", str(shift))
    text = text.replace("STREAM", "s = torch.cuda.Stream()\n    s.wait_stream(torch.cuda.current_stream())"
                        if stream else "pass")
    if stream:
        text = text.replace("    _softmax[", "    with torch.cuda.stream(s):\n        _softmax[")
        text += "    torch.cuda.current_stream().wait_stream(s)\n"
    path = os.path.join(work, f"{name}.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def instrument(source, replace_with=None):
    """Probes (or a candidate call) around the first launch of `call`; its roots from its args."""
    out, done, roots = [], False, None
    for line in source.splitlines():
        m = LAUNCH.match(line) if not done else None
        if m:
            indent, args = m.group(1), [a.strip() for a in m.group(3).split(",")]
            ins = [a for a in args if a.startswith("arg")]
            outs = [a for a in args if a.startswith("buf")]
            roots = (ins, outs)
            d_in = "{" + ", ".join(f'"{r}": {r}' for r in ins) + "}"
            d_out = "{" + ", ".join(f'"{r}": {r}' for r in outs) + "}"
            if replace_with:
                out.append(f"{indent}_ko_cand.run({d_in}, {d_out})")
            else:
                out += [f'{indent}_ko_probe(0, "in", {d_in})', line, f'{indent}_ko_probe(0, "out", {d_out})']
            done = True
        else:
            out.append(line)
    text = "\n".join(out) + "\n"
    if replace_with:
        name = os.path.splitext(os.path.basename(replace_with))[0]
        text = (f"import sys\nsys.path.insert(0, {os.path.dirname(replace_with)!r})\n"
                f"import {name} as _ko_cand\n") + text
    return text, roots


class Worker:
    def __init__(self):
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
        self.proc = subprocess.Popen([sys.executable, "-m", "kernelopt.worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)
        self.next_id = 0

    def ask(self, op, **args):
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"id": self.next_id, "op": op, **args}) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        print(json.dumps({"op": op, **reply})[:3000], flush=True)
        assert reply["ok"], reply
        return reply


def main():
    work = os.path.abspath(sys.argv[1])
    os.makedirs(work, exist_ok=True)
    w = Worker()
    w.ask("load", problem=os.path.join(ROOT, "tests", "fixtures", "problems", "good_small.py"), device="cuda")
    cap = w.ask("capture", run_dir=work, seeds=[0, 1, 2])
    source = open(cap["graphs"][0]["path"], encoding="utf-8").read()
    probed, (ins, outs) = instrument(source)
    with open(os.path.join(work, "probed.py"), "w", encoding="utf-8") as f:
        f.write(probed)
    seg = w.ask("segment_capture", graph=0, path=os.path.join(work, "probed.py"), segments=[0])["segments"][0]
    assert seg["seeds"] == [0, 1, 2] and list(seg["inputs"]) == ins and list(seg["outputs"]) == outs
    good = candidate(work, "good")
    static = w.ask("static_check", candidate=good, interface=seg, arch=90)
    assert static["kernels"][0]["compiled"], static
    checks = {}
    for name, kwargs in (("good", {}), ("half", {"rows_divisor": 2}), ("stream", {"stream": True}),
                         ("shifted", {"shift": 3})):
        path = good if name == "good" else candidate(work, name, **kwargs)
        checks[name] = w.ask("check_candidate", segment=0, candidate=path, seeds=[0, 1, 2], rtol=1e-3,
                             atol=1e-3)["seeds"]
    assert all(s["mismatched"] == 0 and s["deterministic"] and not s["side_stream"] for s in checks["good"])
    assert all(s["unwritten"] == 8 * 64 for s in checks["half"])
    assert all(s["side_stream"] and s["mismatched"] == 0 for s in checks["stream"])
    assert all(s["out_of_bounds"] == 3 for s in checks["shifted"])
    recomposed, _ = instrument(source, replace_with=good)
    with open(os.path.join(work, "recomposed.py"), "w", encoding="utf-8") as f:
        f.write(recomposed)
    model = w.ask("model_check", recomposed={"0": os.path.join(work, "recomposed.py")}, seeds=[0, 1, 2])
    assert all(s["nonfinite_match"] and s["tol_vs_eager"] <= 1e-4 for s in model["seeds"]), model
    pair = w.ask("time_pair", recomposed={"0": os.path.join(work, "recomposed.py")}, samples=20, warmup=3)
    assert pair["instances"] == 3, pair  # three captures of each side, 7 samples each
    assert len(pair["baseline_ms"]) == len(pair["candidate_ms"]) == 21
    assert len(pair["baseline_instance_median_ms"]) == len(pair["candidate_instance_median_ms"]) == 3
    assert [len(r) for r in pair["baseline_instance_ms"]] == [7, 7, 7], pair
    wild = candidate(work, "wild", shift=-(1 << 30))
    crash = w.ask("check_candidate", segment=0, candidate=wild, seeds=[0, 1, 2], rtol=1e-3, atol=1e-3)
    assert crash["worker_exiting"] and crash["seeds"][0]["error"]["kind"] == "cuda", crash
    assert w.proc.wait(timeout=60) == 3
    print("SMOKE OK", flush=True)


if __name__ == "__main__":
    main()
