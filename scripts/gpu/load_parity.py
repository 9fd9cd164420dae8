"""Does `kernelopt.load` run as fast as `optimize` measured? Times the loaded module against
torch.compile(mode="max-autotune") of the same model, in this process (not the engine's),
interleaved, with CUDA events and the L2 flushed before each call (the worker's own timing).

Usage: python scripts/gpu/load_parity.py RUN_DIR [--samples N] [--warmup N] [--out FILE]
RUN_DIR: a `kernelopt optimize` run (with optimized/) or its optimized/ folder.

Prints one JSON document (and writes it to --out): per variant the median ms, how it runs and its
largest absolute difference from eager, and the speedups (a baseline's median over the
variant's) with bootstrap 95% intervals, beside the ratio optimize recorded. Two baselines:
`torch.compile(model, mode="max-autotune")` called as a user calls it (its CUDA graph trees check
guards and manage memory on every call, and copy the call's inputs into the graph's own), and the
same model compiled without CUDA graphs, captured in one CUDA graph and replayed on the same
inputs: how the performance gate times the compiler's graphs. The like-for-like check of
optimize's ratio (`parity`) replays the loaded module's graphs the same way (`load(...,
cuda_graphs=False)` captured and replayed: no input copy on either side). `input_bytes` is what a
CUDA-graphed module copies on each call. `deployed_parity` checks the ratio optimize measured as
deployed (optimize.json's `deployed`, in the engine's fresh worker) against `load`'s here, and
`load (inputs in place)` (the module called with its `static_inputs()`) against its `in_place`.
"""

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))


def fail(message: str) -> None:
    print(f"load_parity: {message}", file=sys.stderr)
    raise SystemExit(2)


class Replayed:
    """`fn(*inputs)` captured once in a CUDA graph after warm-up calls on a side stream, then
    replayed on the same (static) inputs: how the performance gate times a side."""

    how = "torch.compile(mode='max-autotune-no-cudagraphs') captured in one CUDA graph, replayed"

    def __init__(self, fn, inputs: list):
        import torch

        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side), torch.no_grad():
            for _ in range(3):
                fn(*inputs)
        torch.cuda.current_stream().wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph), torch.no_grad():
            self.out = fn(*inputs)

    def __call__(self, *inputs):
        self.graph.replay()
        return self.out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir")
    parser.add_argument("--samples", type=int, default=300, help="timed calls per variant (default 300)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed turns first (default 20)")
    parser.add_argument("--out", help="also write the JSON document here")
    args = parser.parse_args()

    import torch

    import kernelopt
    from kernelopt.api.deployed import caller, in_place_inputs, max_abs
    from kernelopt.api.load import read_artifact
    from kernelopt.worker.problem import flatten_outputs, load_problem, run_forward
    from kernelopt.worker.timing import ratio_interval, time_interleaved

    if not torch.cuda.is_available():
        fail("needs a CUDA GPU and torch sees none")
    document = os.path.join(args.run_dir, "optimize.json")
    try:
        folder, manifest, runtime = read_artifact(args.run_dir)
    except (FileNotFoundError, ValueError) as exc:
        outcome = json.load(open(document)).get("outcome") if os.path.isfile(document) else None
        fail(f"{exc}" + (f" (optimize.json's outcome: {outcome})" if outcome else ""))
    if runtime is None:
        print("load_parity: warning: no runtime.json in the module (an engine built before it was written): "
              "load runs it under torch.compile without a CUDA graph", file=sys.stderr)
    problem = load_problem(os.path.join(folder, manifest["problem"]), "cuda")
    model = problem.model
    inputs = problem.make_inputs(0)
    eager = [t.clone() for t in run_forward(problem, inputs)]

    variants, setup_s = {}, {}
    started = time.perf_counter()
    variants["max-autotune"] = torch.compile(model, mode="max-autotune")
    try:
        variants["replayed baseline"] = Replayed(torch.compile(model, mode="max-autotune-no-cudagraphs"), inputs)
    except Exception as exc:  # noqa: BLE001  (a model that cannot be captured: the user-facing ratio only)
        print(f"load_parity: warning: the compiled model could not be captured in a CUDA graph: {exc}",
              file=sys.stderr)
    variants["load"] = kernelopt.load(folder, model=model)
    variants["load(clone_outputs=False)"] = kernelopt.load(folder, model=model, clone_outputs=False)
    call_inputs, hows = {}, {}
    try:
        in_place = kernelopt.load(folder, model=model, clone_outputs=False)
        call_inputs["load (inputs in place)"] = in_place_inputs(in_place, inputs)
        hows["load (inputs in place)"] = "load(clone_outputs=False) called with its static_inputs(): no input copy"
        variants["load (inputs in place)"] = in_place
    except RuntimeError as exc:
        print(f"load_parity: warning: no in-place variant: {exc}", file=sys.stderr)
    try:
        replayed = Replayed(kernelopt.load(folder, model=model, cuda_graphs=False), inputs)
        replayed.how = "load(cuda_graphs=False) captured in one CUDA graph, replayed"
        variants["replayed load"] = replayed
    except Exception as exc:  # noqa: BLE001
        print(f"load_parity: warning: the loaded module could not be captured in a CUDA graph: {exc}",
              file=sys.stderr)
    report = {"run_dir": os.path.abspath(args.run_dir), "recorded": manifest.get("outcome", {}),
              "environment": runtime["environment"] if runtime else None, "variants": {}}
    for name, fn in variants.items():
        t0 = time.perf_counter()
        try:
            with torch.no_grad():
                out = [t.clone() for t in flatten_outputs(name, fn(*call_inputs.get(name, inputs)))]
        except Exception as exc:  # noqa: BLE001
            fail(f"{name}: the first call raised {type(exc).__name__}: {exc}")
        torch.cuda.synchronize()
        setup_s[name] = time.perf_counter() - t0
        how = hows.get(name, getattr(fn, "how", "torch.compile(mode='max-autotune')"))
        report["variants"][name] = {"how": how,
                                    "first_call_s": round(setup_s[name], 3),
                                    "max_abs_vs_eager": max_abs(out, eager)}
        del out

    names = list(variants)
    samples = dict(zip(names, time_interleaved([caller(variants[n], call_inputs.get(n, inputs)) for n in names],
                                               iters=args.samples,
                                               warmup=args.warmup)))
    for name, times in samples.items():
        entry = report["variants"][name]
        entry["median_ms"] = statistics.median(times)
        entry["min_ms"] = min(times)
        for base, key in (("max-autotune", "speedup"), ("replayed baseline", "speedup_vs_replayed")):
            if (name.startswith("load") or name == "replayed load") and base in samples:
                ratio, low, high = ratio_interval(samples[base], times)
                entry.update({key: ratio, f"{key}_low": low, f"{key}_high": high})
    recorded = (manifest.get("outcome") or {}).get("ratio")
    like = report["variants"].get("replayed load", {}).get("speedup_vs_replayed")
    report["parity"] = None
    if recorded is not None and like is not None:
        difference = like / recorded - 1.0
        report["parity"] = {"recorded": recorded, "measured": like, "difference": difference,
                            "within_2_percent": abs(difference) <= 0.02}
    deployed = (json.load(open(document)).get("deployed") or {}) if os.path.isfile(document) else {}
    report["deployed_parity"] = {}
    for side, name, part in (("module", "load", deployed), ("in_place", "load (inputs in place)",
                                                             deployed.get("in_place") or {})):
        measured = report["variants"].get(name, {}).get("speedup")
        if part.get("ratio") is not None and measured is not None:
            difference = measured / part["ratio"] - 1.0
            report["deployed_parity"][side] = {"recorded": part["ratio"], "measured": measured,
                                               "difference": difference, "within_2_percent": abs(difference) <= 0.02}
    report["input_bytes"] = sum(t.numel() * t.element_size() for t in inputs if isinstance(t, torch.Tensor))
    report["samples"] = args.samples
    report["setup_s"] = round(time.perf_counter() - started, 1)
    report["gpu"] = torch.cuda.get_device_name()
    report["torch"] = torch.__version__
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
