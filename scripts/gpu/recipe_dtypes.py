"""The recipes on the GPU against PyTorch, on shapes KernelBench does not use, in float32, bfloat16
and float16: every op of reduce_dim, row_two_pass, cross_entropy and scan, at the launch settings
the engine proposes. Prints one line per case and writes them as JSON lines to OUT (flushed after
each case, so a command cut at its time limit keeps what ran).
usage: python3 scripts/gpu/recipe_dtypes.py OUT.jsonl"""

import json
import sys
import time

import torch

from kernelopt.recipes import cross_entropy as ce
from kernelopt.recipes.reduce_dim import OPS as REDUCE_OPS
from kernelopt.recipes.reduce_dim import reduce_dim, reference
from kernelopt.recipes.row_two_pass import OPS as ROW_OPS
from kernelopt.recipes.row_two_pass import row_two_pass
from kernelopt.recipes.scan import cumsum_rows

DTYPES = (torch.float32, torch.bfloat16, torch.float16)
TOL = {torch.float32: 1e-4, torch.bfloat16: 2e-2, torch.float16: 5e-3}
out = open(sys.argv[1], "w")
torch.manual_seed(0)


def record(recipe, op, dtype, shape, got, want, t0):
    got, want = got.double(), want.double()
    tol = TOL[dtype]
    ok = bool(torch.allclose(got, want, rtol=tol, atol=tol, equal_nan=True))
    err = float((got - want).abs().nan_to_num(0).max()) if got.numel() else 0.0
    row = {"recipe": recipe, "op": op, "dtype": str(dtype).split(".")[-1], "shape": list(shape),
           "ok": ok, "max_abs_err": err, "seconds": round(time.time() - t0, 2)}
    print(json.dumps(row), flush=True)
    out.write(json.dumps(row) + "\n")
    out.flush()


for dtype in DTYPES:
    # reduce_dim: a middle dimension of a 3-D tensor with odd sizes.
    x = torch.randn(6, 999, 1027, device="cuda").to(dtype)
    for op in REDUCE_OPS:
        t0 = time.time()
        want = reference(x.float(), 1, op)
        got = torch.empty(want.shape, device="cuda", dtype=torch.int64 if op.startswith("arg") else dtype)
        reduce_dim(x, got, 1, op, 8, 128, 4)
        record("reduce_dim", op, dtype, x.shape, got, want.to(got.dtype) if op.startswith("arg") else want, t0)
    # row_two_pass: rows of an odd length longer than one block.
    x = torch.randn(513, 12289, device="cuda").to(dtype)
    for op in ROW_OPS:
        t0 = time.time()
        xf = x.double()
        want = {"l2_normalize": lambda: xf / torch.norm(xf, p=2, dim=1, keepdim=True),
                "softmax": lambda: torch.softmax(xf, 1), "log_softmax": lambda: torch.log_softmax(xf, 1)}[op]()
        got = torch.empty_like(x)
        row_two_pass(x, got, op, 4096, 16, 0, 1)
        record("row_two_pass", op, dtype, x.shape, got, want, t0)
    # cross_entropy: whole rows in registers (1000 classes) and the looped path (50257 classes).
    for classes in (1000, 50257):
        t0 = time.time()
        x = (torch.randn(2049, classes, device="cuda") * 3).to(dtype)
        t = torch.randint(0, classes, (2049,), device="cuda")
        t[::7] = -100
        want = torch.nn.functional.cross_entropy(x.double(), t)
        got = torch.empty((), device="cuda", dtype=torch.float32)
        ce.cross_entropy(x, t, got, "mean", -100, 2, 8)
        record("cross_entropy", f"mean C={classes}", dtype, x.shape, got, want, t0)
    # scan: forward, reversed and masked, rows of an odd length.
    x = torch.rand(257, 20001, device="cuda").to(dtype)
    mask = torch.rand(257, 20001, device="cuda") > 0.5
    for name, reverse, m in (("cumsum", False, None), ("reverse", True, None), ("masked", False, mask)):
        t0 = time.time()
        src = x.double() * m if m is not None else x.double()
        want = torch.cumsum(src.flip(1), 1).flip(1) if reverse else torch.cumsum(src, 1)
        got = torch.empty_like(x)
        cumsum_rows(x, got, m, reverse, 1, 2048, 8)
        # A running sum of ~10000 values in bf16/fp16 storage: compare relative to the row's scale.
        scale = want.abs().amax(1, keepdim=True).clamp(min=1)
        record("scan", name, dtype, x.shape, got.double() / scale, want / scale, t0)
out.close()
