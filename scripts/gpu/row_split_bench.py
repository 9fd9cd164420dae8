"""row_two_pass with rows split among programs (the barrier path) on the GPU: correctness of every
op in float32, bfloat16 and float16 on shapes KernelBench does not use, then timings of split
settings against torch.compile (max-autotune-no-cudagraphs) on long rows, baseline and candidate
interleaved (--samples rounds of triton.testing.do_bench each, medians and a bootstrap 95%
interval of the ratio). Writes JSON lines to OUT (flushed per case).
usage: python3 scripts/gpu/row_split_bench.py OUT.jsonl [--samples N]"""

import argparse
import json
import time

import torch

from kernelopt.recipes import row_two_pass as rtp
from settings_lib import interleaved

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--samples", type=int, default=5)
parser.add_argument("--time-only", action="store_true", help="skip the correctness cases")
parser.add_argument("--settings", help="JSON list of row_two_pass settings to time instead of the sweep")
parser.add_argument("--shapes", help="JSON list of [op, rows, cols] to time instead of the three")
cli = parser.parse_args()
out = open(cli.out, "w")
torch.manual_seed(0)
TOL = {torch.float32: 1e-4, torch.bfloat16: 2e-2, torch.float16: 5e-3}


def emit(record):
    print(json.dumps(record), flush=True)
    out.write(json.dumps(record) + "\n")
    out.flush()


# Correctness: odd row lengths, a padded row stride, several splits (auto included).
for dtype in () if cli.time_only else (torch.float32, torch.bfloat16, torch.float16):
    for rows, cols, stride, splits in ((37, 100003, 100003, (0, 3, 16)), (300, 20011, 20480, (5,))):
        x = torch.randn(rows, stride, device="cuda").to(dtype)[:, :cols]
        x[1, :5000] = float("-inf")
        for op in rtp.OPS:
            xin = x.clone()
            if op.endswith("normalize"):
                xin[1, :5000] = 0.25
            want = rtp.reference(xin, op)
            for split in splits:
                t0 = time.time()
                got = torch.full((rows, stride), float("nan"), device="cuda", dtype=dtype)[:, :cols]
                rtp.last_split = None
                rtp.row_two_pass(xin, got, op, 1024, 8, 1, 1, split=split)
                torch.cuda.synchronize()
                err = (got.double() - want).abs().nan_to_num(1e9).max().item()
                ok = torch.allclose(got.double(), want, rtol=TOL[dtype], atol=TOL[dtype])
                emit({"case": "correct", "op": op, "dtype": str(dtype)[6:], "shape": [rows, cols],
                      "stride": stride, "split": split, "path": rtp.last_split, "ok": bool(ok),
                      "max_abs_err": err, "s": round(time.time() - t0, 2)})


SETTINGS = [dict(block=b, num_warps=w, programs_per_sm=p, reverse=1, split=s)
            for s in (0, 8, 16) for b, w in ((2048, 8), (4096, 8)) for p in (1, 2)]
SETTINGS += [dict(block=4096, num_warps=16, programs_per_sm=0, reverse=1, split=1),
             dict(block=4096, num_warps=8, programs_per_sm=2, reverse=1, split=1)]
if cli.settings:
    SETTINGS = json.loads(cli.settings)
SHAPES = json.loads(cli.shapes) if cli.shapes else [("softmax", 4096, 393216), ("softmax", 1500, 700001),
                                                    ("l2_normalize", 2000, 500000)]
for op, rows, cols in SHAPES:
    x = torch.rand(rows, cols, device="cuda")
    fn = {"softmax": lambda t: torch.softmax(t, 1), "log_softmax": lambda t: torch.log_softmax(t, 1),
          "l2_normalize": lambda t: t / torch.norm(t, p=2, dim=1, keepdim=True)}[op]
    compiled = torch.compile(fn, mode="max-autotune-no-cudagraphs")
    want = compiled(x)
    got = torch.empty_like(x)
    for setting in SETTINGS:
        t0 = time.time()
        got.fill_(float("nan"))
        rtp.last_split = None
        try:
            rtp.row_two_pass(x, got, op, **setting)
        except Exception as exc:  # a setting that does not compile
            emit({"case": "time", "op": op, "shape": [rows, cols], "setting": setting,
                  "error": f"{type(exc).__name__}: {str(exc)[:200]}"})
            continue
        ok = bool(torch.allclose(got, want, rtol=1e-4, atol=1e-4))
        path = rtp.last_split
        base, cand, low, high = interleaved(lambda: compiled(x), lambda: rtp.row_two_pass(x, got, op, **setting),
                                            cli.samples)
        emit({"case": "time", "op": op, "shape": [rows, cols], "setting": setting, "path": path, "ok": ok,
              "compiled_ms": round(base, 4), "recipe_ms": round(cand, 4), "ratio": round(base / cand, 4),
              "ratio_ci95": [round(low, 4), round(high, 4)], "s": round(time.time() - t0, 1)})
    del x, want, got
    torch.cuda.empty_cache()
