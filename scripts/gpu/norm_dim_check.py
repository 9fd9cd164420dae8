"""norm_dim on the GPU against float64, on shapes KernelBench does not use, in float32, bfloat16
and float16: every form (L2, L1, RMS with eps, F.normalize's clamp, the L1 mean with eps), with and
without a weight, over a middle dimension (walked, or held whole), the first one and the innermost (rows in one program,
and split among programs meeting at a barrier). One JSON line per case to OUT (flushed after each
case), and a last line with the counts.
usage: python3 scripts/gpu/norm_dim_check.py OUT.jsonl"""

import json
import sys
import time

import torch

from kernelopt.recipes import row_two_pass as rtp
from kernelopt.recipes.norm_dim import norm_dim, reference

TOL = {torch.float32: 1e-4, torch.bfloat16: 2e-2, torch.float16: 5e-3}
FORMS = {"l2": dict(p=2), "l1": dict(p=1), "rms": dict(p=2, mean=True, eps=1e-5),
         "normalize": dict(p=2, clamp=1e-12), "l1_mean_eps": dict(p=1, mean=True, eps=0.5)}
# (shape, dim, settings): a middle dim walked in ragged tiles and one held whole in registers, the
# first dim, the innermost with rows in one program, and long rows split among programs (the
# barrier path).
LAYOUTS = [((7, 83, 61, 45), 1, dict(rows_per_step=8, cols_per_program=128, num_warps=4)),
           ((9, 201, 37, 53), 1, dict(rows_per_step=0, cols_per_program=16, num_warps=8)),
           ((5, 129, 3001), 1, dict(rows_per_step=16, cols_per_program=64, num_warps=4)),
           ((301, 4099), 0, dict(rows_per_step=4, cols_per_program=256, num_warps=4)),
           ((3, 171, 4097), 2, dict(block=1024, num_warps=8, programs_per_sm=0, reverse=True)),
           ((37, 300007), 1, dict(block=4096, num_warps=8, programs_per_sm=4, reverse=True, split=0))]


def main():
    out = open(sys.argv[1], "w")
    torch.manual_seed(0)
    counts = {"cases": 0, "ok": 0, "barrier": 0}
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        for shape, dim, settings in LAYOUTS:
            x = torch.randn(shape, device="cuda").to(dtype)
            for name, form in FORMS.items():
                for weighted in (False, True):
                    t0 = time.time()
                    w = (torch.rand(shape[dim], device="cuda") + 0.5).to(dtype) if weighted else None
                    want = reference(x, dim, weight=w, **form)
                    got = torch.empty_like(x)
                    rtp.last_split = None
                    norm_dim(x, got, dim, weight=w, **form, **settings)
                    torch.cuda.synchronize()
                    tol = TOL[dtype]
                    ok = bool(torch.allclose(got.double(), want, rtol=tol, atol=tol))
                    path = rtp.last_split[2] if rtp.last_split else "one launch"
                    row = {"recipe": "norm_dim", "form": name, "weight": weighted,
                           "dtype": str(dtype).split(".")[-1], "shape": list(shape), "dim": dim,
                           "path": path, "ok": ok,
                           "max_abs_err": float((got.double() - want).abs().max()),
                           "seconds": round(time.time() - t0, 2)}
                    counts["cases"] += 1
                    counts["ok"] += ok
                    counts["barrier"] += path == "barrier"
                    print(json.dumps(row), flush=True)
                    out.write(json.dumps(row) + "\n")
                    out.flush()
    out.write(json.dumps(counts) + "\n")
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
