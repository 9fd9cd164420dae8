"""Measurement first for the `vendor` proposer: for each KernelBench-format problem, each vendor
knob that applies to it (python/kernelopt/vendor/knobs.py), timed against the baseline and checked
as G3 checks a candidate.

Baseline: torch.compile(model, mode="max-autotune") (CUDA graphs) with the library defaults.
Knob: the same compile of the knob's model and inputs with its settings around every call.

Isolation. Each knob runs in a fresh process (its own Inductor cache folder, Inductor's caches
off), so that no setting, FX-graph cache entry or autotuning result of another knob reaches it.
Inside that process the baseline and the knob are each compiled with a backend object of their
own (two torch.compile calls with the same mode compare equal, and Dynamo would hand the second
model the first one's compiled code), and each side runs on a thread of its own, because cuDNN's
plan cache is per thread and keyed without the benchmark flag: on one thread, whichever side
first ran a convolution shape would choose the plan for both. The calls themselves are
serialized and alternate, so a side's settings never overlap the other side's call.
The workspace knob is read at CUDA initialization: its baseline and knob run in separate fresh
processes in the order baseline, knob, knob, baseline, and the samples are pooled.

Timing: CUDA events around one call, the L2 flushed and the GPU idle before it, the two sides in
turns (who goes first alternates); the ratio is median(baseline) / median(knob) with a bootstrap
95% interval. G3: the knob's outputs allclose to eager float32 at rtol = atol = 1e-4, or failing
that, their largest error against a float64 eager run at most 10x the baseline's own.

usage: PYTHONPATH=python python3 scripts/gpu/vendor_probe.py --problems P.py ... --out DIR
Writes DIR/<problem>.json after every knob and DIR/summary.md after every problem."""

import argparse
import contextlib
import copy
import datetime
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt.vendor.measure import Side, build, judge, numbers, references, timing_entry  # noqa: E402

KNOB_NAMES = ("cudnn_benchmark", "channels_last", "cublaslt", "addmm_epilogue", "workspace")


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--problems", nargs="+", metavar="FILE", help="KernelBench-format problem files")
    p.add_argument("--out", help="output folder (one JSON per problem, summary.md)")
    p.add_argument("--samples", type=int, default=60, help="timed calls per side (default 60)")
    p.add_argument("--warmup", type=int, default=5, help="untimed turns before timing (default 5)")
    p.add_argument("--knobs", nargs="+", choices=KNOB_NAMES, default=list(KNOB_NAMES), help="subset")
    p.add_argument("--timeout", type=float, default=1200, help="seconds per knob process (default 1200)")
    p.add_argument("--same-thread", action="store_true",
                   help="run both sides on one thread (cuDNN's plan cache is then shared)")
    p.add_argument("--child", choices=("detect", "pair", "arm"), help=argparse.SUPPRESS)
    p.add_argument("--problem", help=argparse.SUPPRESS)
    p.add_argument("--knob", help=argparse.SUPPRESS)
    p.add_argument("--side", choices=("baseline", "knob"), help=argparse.SUPPRESS)
    p.add_argument("--result", help=argparse.SUPPRESS)
    p.add_argument("--device", default="cuda", help=argparse.SUPPRESS)  # detection off the GPU
    args = p.parse_args(argv)
    if not args.child and (not args.problems or not args.out):
        p.error("--problems and --out are required")
    return args


def fail(message, code):
    print(f"vendor_probe: error: {message}", file=sys.stderr)
    sys.exit(code)


# ---- the child process: one problem, one knob (or detection) ----

def load(path, device="cuda"):
    import torch

    from kernelopt.worker.problem import load_problem

    torch.manual_seed(0)
    problem = load_problem(path, device)
    return problem, problem.make_inputs(0)


def child_detect(args):
    from kernelopt.vendor.detect import record_ops
    from kernelopt.vendor.knobs import KNOBS, library_settings
    from kernelopt.worker.env import describe

    problem, inputs = load(args.problem, args.device)
    ops = record_ops(problem.model, inputs)
    verdicts = {}
    for knob in KNOBS:
        v = knob.applies(problem.model, inputs, ops)
        verdicts[knob.name] = {"applies": bool(v), "reason": v.reason}
    counts = {op: ops.ops.count(op) for op in sorted(set(ops.ops))}
    return {"verdicts": verdicts, "aten_ops": counts, "environment": describe(), "settings": library_settings()}


def child_pair(args):
    from kernelopt.vendor.knobs import knob_named

    knob = knob_named(args.knob)
    problem, inputs = load(args.problem)
    eager, f64 = references(problem.model, inputs)
    k_model, k_inputs = knob.transform(problem.model, inputs)
    b_model = copy.deepcopy(problem.model)
    sides = [Side("baseline", not args.same_thread), Side("knob", not args.same_thread)]
    b_timed, b_out, b_compile = sides[0].run(lambda: build(b_model, inputs, contextlib.nullcontext))
    k_timed, k_out, k_compile = sides[1].run(lambda: build(k_model, k_inputs, knob.apply))
    b_nums, k_nums = numbers(b_out, eager, f64), numbers(k_out, eager, f64)
    del b_out, k_out
    samples = {"baseline": [], "knob": []}
    calls = {"baseline": b_timed, "knob": k_timed}
    for turn in range(args.warmup + args.samples):
        for side in (sides if turn % 2 == 0 else sides[::-1]):
            ms = side.run(calls[side.name])
            if turn >= args.warmup:
                samples[side.name].append(ms)
    how = "in one process, alternating calls" + (", one thread" if args.same_thread else ", a thread per side")
    return {"applies": True, **timing_entry(samples["baseline"], samples["knob"], how),
            "g3": {**judge(k_nums, b_nums), "knob": k_nums, "baseline": b_nums},
            "compile_s": {"baseline": b_compile, "knob": k_compile}}


def child_arm(args):
    """One side alone (the workspace knob): its samples and its G3 numbers."""
    from kernelopt.vendor.knobs import knob_named

    knob = knob_named(args.knob)
    problem, inputs = load(args.problem)
    eager, f64 = references(problem.model, inputs)
    settings = knob.apply if args.side == "knob" else contextlib.nullcontext
    timed, out, compile_s = build(copy.deepcopy(problem.model), inputs, settings)
    nums = numbers(out, eager, f64)
    del out
    for _ in range(args.warmup):
        timed()
    return {"samples": [timed() for _ in range(args.samples)], "g3": nums, "compile_s": compile_s}


def child_main(args):
    try:
        result = {"detect": child_detect, "pair": child_pair, "arm": child_arm}[args.child](args)
    except BaseException as exc:  # a failure of this problem or knob is data for the parent
        result = {"error": f"{type(exc).__name__}: {exc}"[:2000], "traceback": traceback.format_exc()[-4000:]}
    with open(args.result, "w") as f:
        json.dump(result, f, indent=1)
    return 0


# ---- the parent: problems, knobs, child processes, files ----

def run_child(args, mode, problem, log, knob=None, side=None, samples=None, extra_env=None):
    """Runs one child process under the deadline; its result, or an error entry."""
    fd, result = tempfile.mkstemp(suffix=".json", dir=os.path.join(args.out, "logs"))
    os.close(fd)
    cache = tempfile.mkdtemp(prefix="inductor_", dir=os.path.join(args.out, "logs"))
    cmd = [sys.executable, os.path.abspath(__file__), "--child", mode, "--problem", problem, "--result",
           result, "--samples", str(samples or args.samples), "--warmup", str(args.warmup)]
    cmd += (["--knob", knob] if knob else []) + (["--side", side] if side else [])
    cmd += ["--same-thread"] if args.same_thread else []
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache, TORCHINDUCTOR_FORCE_DISABLE_CACHES="1",
               PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "python"), os.environ.get("PYTHONPATH", "")]),
               **(extra_env or {}))
    with open(log, "a") as out:
        out.write(f"$ {shlex.join(cmd)}\n")
        out.flush()
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = proc.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the child and its compile workers
            proc.wait()
            return {"error": f"timed out after {args.timeout:g} s"}
    try:
        with open(result) as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError):
        with open(log) as f:
            tail = f.read()[-1500:]
        return {"error": f"child exited with status {rc} and no result", "log_tail": tail}
    finally:
        os.remove(result)
    return data


def measure_workspace(args, problem, log):
    """Baseline and knob in fresh processes, ABBA; pooled samples; G3 from the knob's processes."""
    from kernelopt.vendor.knobs import knob_named

    env = knob_named("workspace").env()
    half = max(2, args.samples // 2)
    runs = {"baseline": [], "knob": []}
    for side in ("baseline", "knob", "knob", "baseline"):
        res = run_child(args, "arm", problem, log, knob="workspace", side=side, samples=half,
                        extra_env=env if side == "knob" else None)
        if "error" in res:
            return {"applies": True, "error": f"{side} process: {res['error']}", **res}
        runs[side].append(res)
    base = [s for r in runs["baseline"] for s in r["samples"]]
    knob = [s for r in runs["knob"] for s in r["samples"]]
    verdicts = [judge(r["g3"], runs["baseline"][0]["g3"]) for r in runs["knob"]]
    g3 = {**verdicts[0], "pass": all(v["pass"] for v in verdicts), "knob": runs["knob"][0]["g3"],
          "baseline": runs["baseline"][0]["g3"]}
    return {"applies": True, **timing_entry(base, knob, "fresh processes, baseline-knob-knob-baseline"),
            "g3": g3, "env": env, "compile_s": {s: [r["compile_s"] for r in runs[s]] for s in runs}}


def environment():
    import torch
    import triton

    return {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "triton": triton.__version__,
            "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": shlex.join(["python3"] + sys.argv)}


def summary_rows(doc):
    rows = []
    for name, r in doc["knobs"].items():
        if not r.get("applies"):
            cells = ["no", "", "", r.get("reason") or r.get("error", "")]
        elif "error" in r:
            cells = ["yes", "", "", "error: " + r["error"].splitlines()[0][:160]]
        else:
            lo, hi = r["ci95"]
            cells = ["yes", f"{r['ratio']:.3f} [{lo:.3f}, {hi:.3f}]", "pass" if r["g3"]["pass"] else "FAIL",
                     r["g3"]["by"] + (f"; {r['reason']}" if r.get("reason") else "")]
        rows.append("| " + " | ".join([doc["name"], name] + [c.replace("|", "/") for c in cells]) + " |")
    return rows


def write_summary(out, docs, env):
    lines = ["# Vendor knobs: baseline time / knob time", "",
             f"GPU {env['gpu']}; torch {env['torch']}, triton {env['triton']}, CUDA {env['cuda']}, "
             f"cuDNN {env['cudnn']}; {env['date']}.", "", f"`{env['command']}`", "",
             "Ratio above 1: the knob is faster (median ratio, bootstrap 95% interval).", "",
             "| problem | knob | applies | ratio [lo, hi] | G3 | notes |", "|---|---|---|---|---|---|"]
    for doc in docs:
        lines += summary_rows(doc)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def probe_problem(args, path, env):
    name = os.path.splitext(os.path.basename(path))[0]
    doc = {"problem": path, "name": name, "environment": env, "knobs": {}}
    log = os.path.join(args.out, "logs", f"{name}.log")
    out_json = os.path.join(args.out, f"{name}.json")

    def save():
        with open(out_json, "w") as f:
            json.dump(doc, f, indent=1)

    detected = run_child(args, "detect", path, log)
    doc["detect"] = {k: v for k, v in detected.items() if k != "verdicts"}
    for knob in args.knobs:
        verdict = detected.get("verdicts", {}).get(knob)
        if verdict is None:
            doc["knobs"][knob] = {"applies": False, "error": "detection failed: " + detected.get("error", "?")}
        elif not verdict["applies"]:
            doc["knobs"][knob] = {"applies": False, "reason": verdict["reason"]}
        else:
            print(f"[{name}] {knob} ...", flush=True)
            res = (measure_workspace(args, path, log) if knob == "workspace"
                   else run_child(args, "pair", path, log, knob=knob))
            doc["knobs"][knob] = {"applies": True, "reason": verdict["reason"], **res}
        save()
    save()
    return doc


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.child:
        return child_main(args)
    for path in args.problems:
        if not os.path.isfile(path):
            fail(f"no such problem file: {path}", 2)
    import torch

    if not torch.cuda.is_available():
        fail("no CUDA GPU is visible: the probe times the knobs on a GPU", 3)
    os.makedirs(os.path.join(args.out, "logs"), exist_ok=True)
    env = environment()
    docs = []
    for path in args.problems:
        try:
            docs.append(probe_problem(args, path, env))
        except Exception as exc:  # this problem's failure is recorded; the next one runs
            docs.append({"problem": path, "name": os.path.basename(path), "knobs": {"*": {
                "applies": False, "error": f"{type(exc).__name__}: {exc}"}}})
        write_summary(args.out, docs, env)
        print(f"done {path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
