"""`kernelopt.optimize(model, inputs)` from a Python script, on one of examples/ as a user would
write it: the model class imported from its module, built and moved to the GPU here.

Usage: python scripts/gpu/api_example.py [--example NAME] [--budget S] [--out RUN_DIR] [--no-cache]
(NAME: a file of examples/ without .py, default rms_norm_rows; S: the search's GPU seconds,
default 120; RUN_DIR: the run directory, default a fresh temporary one). The engine binary is
$KERNELOPT_ENGINE, the packaged one or `kernelopt` on PATH.

Prints the engine's progress and report, the Report, how the returned module runs and its
largest absolute difference from eager, and writes RUN_DIR/api_example.json; then the command
that times the module against torch.compile (scripts/gpu/load_parity.py).
"""

import argparse
import importlib
import json
import os
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "examples"))


def fail(message: str) -> None:
    print(f"api_example: {message}", file=sys.stderr)
    raise SystemExit(2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--example", default="rms_norm_rows")
    parser.add_argument("--budget", type=float, default=120.0)
    parser.add_argument("--out", default=None)
    parser.add_argument("--no-cache", action="store_true", help="neither reuse nor record verified segments")
    args = parser.parse_args()

    import torch

    import kernelopt
    from kernelopt.api.engine import find_engine

    if not torch.cuda.is_available():
        fail("needs a CUDA GPU and torch sees none")
    try:
        print(f"api_example: engine {find_engine()}", file=sys.stderr)
    except kernelopt.EngineNotFound as exc:
        fail(str(exc))
    try:
        example = importlib.import_module(args.example)
    except ImportError as exc:
        fail(f"no example {args.example!r} in examples/ ({exc})")

    torch.manual_seed(0)
    model = example.Model(*example.get_init_inputs()).cuda()
    inputs = [x.cuda() for x in example.get_inputs()]
    started = time.perf_counter()
    module, report = kernelopt.optimize(model, inputs, budget_s=args.budget, out_dir=args.out,
                                        no_cache=args.no_cache)
    wall_s = time.perf_counter() - started
    print(report)
    print(f"api_example: the module: {module}")
    with torch.no_grad():
        expected = model(*inputs)
        got = module(*inputs)
    pairs = [(got, expected)] if isinstance(expected, torch.Tensor) else list(zip(got, expected))
    max_abs = max(float((a.double() - b.double()).abs().max()) for a, b in pairs)
    summary = {"example": args.example, "run_dir": report.run_dir, "outcome": report.outcome,
               "reason": report.reason, "ratio": report.ratio, "ratio_low": report.ratio_low,
               "ratio_high": report.ratio_high, "deployed": report.deployed, "how": getattr(module, "how", "torch.compile(mode='max-autotune')"),
               "max_abs_vs_eager": max_abs, "wall_s": round(wall_s, 1),
               "segments": [s.__dict__ for s in report.segments]}
    print(json.dumps(summary, indent=1))
    with open(os.path.join(report.run_dir, "api_example.json"), "w") as f:
        json.dump(summary, f, indent=1)
    if report.optimized:
        print(f"next: python {os.path.relpath(os.path.join(ROOT, 'scripts', 'gpu', 'load_parity.py'))} "
              f"{report.run_dir}")


if __name__ == "__main__":
    main()
