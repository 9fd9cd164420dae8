"""The group_norm recipe's launch settings timed against torch.compile (max-autotune-no-cudagraphs)
on the GPU: group norm on the odd problem L1/35's shape and on shapes KernelBench does not use,
instance norm and layer norm; baseline and recipe interleaved (--samples rounds of do_bench each,
medians and a bootstrap 95% interval of the ratio), each output checked against the compiled one.
Writes JSON lines to OUT (flushed per case, so a command cut at its limit keeps what ran).
usage: python3 scripts/gpu/group_norm_bench.py OUT.jsonl [--samples N] [--settings JSON]
       [--shapes JSON]"""

import argparse
import json
import time

import torch

from kernelopt.recipes import row_two_pass as rows
from kernelopt.recipes.group_norm import group_norm, layer_norm
from settings_lib import interleaved

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--samples", type=int, default=5)
parser.add_argument("--settings", help="JSON list of settings (block, num_warps, programs_per_sm, split)")
parser.add_argument("--shapes", help='JSON list of ["group"|"instance"|"layer", shape, groups or dims]')
cli = parser.parse_args()
out = open(cli.out, "w")
torch.manual_seed(0)

SETTINGS = [dict(block=b, num_warps=w, programs_per_sm=p, split=s)
            for s in (0, 16, 64) for b, w in ((2048, 8), (4096, 8)) for p in (2, 4, 8)]
SETTINGS += [dict(block=4096, num_warps=8, programs_per_sm=4, split=1)]
if cli.settings:
    SETTINGS = json.loads(cli.settings)
SHAPES = json.loads(cli.shapes) if cli.shapes else [
    ["group", [112, 64, 512, 512], 8],     # L1/35 (odd): groups of 8 MB
    ["group", [48, 96, 300, 300], 12],     # groups of 2.9 MB
    ["instance", [40, 64, 384, 384], 64],  # instances of 590 kB
    ["layer", [16, 64, 256, 256], 3],      # rows of 16 MB
]

for kind, shape, arg in SHAPES:
    x = torch.randn(shape, device="cuda") * 2 + 0.5
    if kind == "layer":
        w = torch.randn(shape[-arg:], device="cuda")
        b = torch.randn(shape[-arg:], device="cuda")
        fn = lambda t: torch.nn.functional.layer_norm(t, tuple(shape[-arg:]), w, b, 1e-5)  # noqa: E731
        run = lambda y, s: layer_norm(x, w, b, y, arg, 1e-5, reverse=True, **s)  # noqa: E731
    else:
        w = torch.randn(shape[1], device="cuda")
        b = torch.randn(shape[1], device="cuda")
        fn = lambda t: torch.nn.functional.group_norm(t, arg, w, b, 1e-5)  # noqa: E731
        run = lambda y, s: group_norm(x, w, b, y, arg, 1e-5, reverse=True, **s)  # noqa: E731
    compiled = torch.compile(fn, mode="max-autotune-no-cudagraphs")
    want = compiled(x)
    got = torch.empty_like(x)
    for setting in SETTINGS:
        t0 = time.time()
        got.fill_(float("nan"))
        rows.last_split = None
        try:
            run(got, setting)
        except Exception as exc:  # a setting that does not compile
            record = {"kind": kind, "shape": shape, "setting": setting,
                      "error": f"{type(exc).__name__}: {str(exc)[:200]}"}
        else:
            torch.cuda.synchronize()
            path = rows.last_split
            ok = bool(torch.allclose(got, want, rtol=1e-4, atol=1e-4))
            base, cand, low, high = interleaved(lambda: compiled(x), lambda: run(got, setting), cli.samples)
            record = {"kind": kind, "shape": shape, "arg": arg, "setting": setting, "path": path, "ok": ok,
                      "compiled_ms": round(base, 4), "recipe_ms": round(cand, 4), "ratio": round(base / cand, 4),
                      "ratio_ci95": [round(low, 4), round(high, 4)], "s": round(time.time() - t0, 1)}
        print(json.dumps(record), flush=True)
        out.write(json.dumps(record) + "\n")
        out.flush()
    del x, want, got
    torch.cuda.empty_cache()
