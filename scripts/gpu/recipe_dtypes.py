"""The recipes on the GPU against PyTorch, on shapes KernelBench does not use, in float32, bfloat16
and float16: every op of reduce_dim, row_two_pass, cross_entropy, scan, pool (max and average), group_norm and gemm, at the launch settings
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
from kernelopt.recipes.row_two_pass import reference as row_reference
from kernelopt.recipes.row_two_pass import row_two_pass
from kernelopt.recipes.gemm import gemm, view
from kernelopt.recipes.group_norm import group_norm, layer_norm
from kernelopt.recipes.group_norm import reference as group_norm_reference
from kernelopt.recipes.pool import avg_pool, max_pool
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
        if op == "prod":  # values near 1 keep a 999-term product finite in every order
            x = (0.95 + 0.1 * torch.rand(6, 999, 1027, device="cuda")).to(dtype)
        want = reference(x.float(), 1, op)
        got = torch.empty(want.shape, device="cuda", dtype=torch.int64 if op.startswith("arg") else dtype)
        reduce_dim(x, got, 1, op, 8, 128, 4)
        record("reduce_dim", op, dtype, x.shape, got, want.to(got.dtype) if op.startswith("arg") else want, t0)
    # row_two_pass: rows of an odd length longer than one block.
    x = torch.randn(513, 12289, device="cuda").to(dtype)
    for op in ROW_OPS:
        t0 = time.time()
        want = row_reference(x, op)
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
    # cumprod of values near 1, the exclusive sum, and cumsum(x) - x.
    near_one = (0.9995 + 0.001 * torch.rand(257, 20001, device="cuda")).to(dtype)
    shifted = torch.cat([torch.zeros(257, 1, device="cuda", dtype=torch.float64), x.double()[:, :-1]], 1)
    for name, src, kwargs, want in (
            ("cumprod", near_one, {"op": "prod"}, torch.cumprod(near_one.double(), 1)),
            ("exclusive", x, {"exclusive": True}, torch.cumsum(shifted, 1)),
            ("minus", x, {"minus": True}, torch.cumsum(x.double(), 1) - x.double())):
        t0 = time.time()
        got = torch.empty_like(src)
        cumsum_rows(src, got, None, False, 1, 2048, 8, **kwargs)
        scale = want.abs().amax(1, keepdim=True).clamp(min=1)
        record("scan", name, dtype, src.shape, got.double() / scale, want / scale, t0)
    # max_pool: 1-3 pooled dimensions, odd sizes, padding, dilation and ceil_mode.
    F = torch.nn.functional
    for shape, args in (((7, 5, 3001), dict(kernel=[4], stride=[3], padding=[1], dilation=[2])),
                        ((3, 6, 77, 91), dict(kernel=[3, 2], stride=[2, 2], padding=[1, 0], dilation=[1, 2])),
                        ((2, 3, 17, 29, 33), dict(kernel=[3, 3, 2], stride=[2, 1, 2], padding=[1, 1, 0],
                                                   dilation=[1, 1, 1]))):
        for ceil_mode in (False, True):
            t0 = time.time()
            x = torch.randn(*shape, device="cuda").to(dtype)
            pool = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[len(args["kernel"]) - 1]
            want = pool(x.double(), args["kernel"], args["stride"], args["padding"], args["dilation"],
                        ceil_mode)
            got = torch.empty(want.shape, device="cuda", dtype=dtype)
            max_pool(x, got, args["kernel"], args["stride"], args["padding"], args["dilation"], 4, 256, 4,
                     ceil_mode)
            record("max_pool", f"{len(args['kernel'])}d ceil={ceil_mode}", dtype, x.shape, got, want, t0)
            avg = (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[len(args["kernel"]) - 1]
            padding = [min(p, k // 2) for p, k in zip(args["padding"], args["kernel"])]
            for count_pad in (True, False):
                t0 = time.time()
                want = avg(x.double(), args["kernel"], args["stride"], padding, ceil_mode, count_pad)
                got = torch.empty(want.shape, device="cuda", dtype=dtype)
                avg_pool(x, got, args["kernel"], args["stride"], padding, ceil_mode, count_pad, None, 4, 256, 4)
                record("avg_pool", f"{len(args['kernel'])}d ceil={ceil_mode} count_pad={count_pad}", dtype,
                       x.shape, got, want, t0)
    # group_norm: groups split among programs (the barrier path), a group per program, and
    # without the affine parameters; 3-D and 5-D inputs of odd sizes; a mean far from zero.
    for shape, groups, split, affine in (((6, 12, 301, 257), 4, 0, True), ((5, 6, 40001), 3, 7, True),
                                         ((3, 8, 9, 31, 17), 2, 1, False)):
        t0 = time.time()
        x = (torch.randn(shape, device="cuda") + 3.0).to(dtype)
        w = torch.randn(shape[1], device="cuda").to(dtype) if affine else None
        b = torch.randn(shape[1], device="cuda").to(dtype) if affine else None
        got = torch.empty_like(x)
        group_norm(x, w, b, got, groups, 1e-5, 4096, 8, 4, split, 1)
        want = group_norm_reference(x.float(), groups, None if w is None else w.float(),
                                    None if b is None else b.float(), 1e-5)
        record("group_norm", f"split {split}", dtype, x.shape, got, want, t0)
    # layer_norm over the trailing two dims (rows of 123 x 457), elementwise affine.
    t0 = time.time()
    x = torch.randn(7, 9, 123, 457, device="cuda").to(dtype)
    w, b = (torch.randn(123, 457, device="cuda").to(dtype) for _ in range(2))
    got = torch.empty_like(x)
    layer_norm(x, w, b, got, 2, 1e-5, 4096, 8, 4, 0, 1)
    want = torch.nn.functional.layer_norm(x.double(), (123, 457), w.double(), b.double(), 1e-5)
    record("group_norm", "layer_norm", dtype, x.shape, got, want, t0)
    # gemm (the --no-dispatch-aware ablation): mm with a transposed weight view, addmm with a
    # broadcast bias, bmm; ragged tiles; the engine's first settings.
    for m, n, k in ((300, 257, 129), (33, 1000, 70)):
        a = torch.randn(m, k, device="cuda").to(dtype)
        w = torch.randn(n, k, device="cuda").to(dtype)
        bias = torch.randn(n, device="cuda").to(dtype)
        for op in ("mm", "addmm"):
            t0 = time.time()
            b = view(w, (k, n), (1, k), 0)
            want = a.double() @ b.double() + (bias.double() if op == "addmm" else 0)
            got = torch.empty(m, n, device="cuda", dtype=dtype)
            gemm(a, b, got, view(bias, (m, n), (0, 1), 0) if op == "addmm" else None, 1, 1, 128, 128, 32, 8, 8, 3)
            record("gemm", op, dtype, (m, n, k), got, want, t0)
    t0 = time.time()
    a = torch.randn(5, 67, 91, device="cuda").to(dtype)
    b = torch.randn(5, 91, 45, device="cuda").to(dtype)
    got = torch.empty(5, 67, 45, device="cuda", dtype=dtype)
    gemm(a, b, got, None, 1, 1, 64, 64, 32, 8, 4, 4)
    record("gemm", "bmm", dtype, (5, 67, 45, 91), got, a.double() @ b.double(), t0)
out.close()
