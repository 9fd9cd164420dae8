"""Chooses the launch constants of the reduce_dim candidates (candidates/kernelbench/*_reduce_dim.py)
on the GPU: times each setting on the problem's shape against torch.compile (max-autotune, no CUDA
graphs), checks it against PyTorch, and rewrites the candidate's constants in place with the fastest
correct setting (so that a verify in the same run checks exactly that file); copies the chosen
files to OUT_DIR. usage: python3 scripts/gpu/reduce_dim_variants.py OUT_DIR CANDIDATE.py..."""

import os
import sys

import torch
import triton.testing

from kernelopt.recipes.reduce_dim import reduce_dim, reference
from settings_lib import load_module, rewrite_constants

SETTINGS = [(8, 256, 4), (4, 512, 4), (8, 512, 8), (16, 256, 8), (4, 256, 4), (2, 1024, 8),
            (16, 128, 4), (8, 128, 4)]
out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
torch.manual_seed(0)
x = torch.rand(128, 4096, 4095, device="cuda")
for path in sys.argv[2:]:
    cand = load_module(path)
    op, dim = cand.OP, cand.DIM
    ref = reference(x, dim, op)
    compiled = torch.compile(lambda t: reference(t, dim, op), mode="max-autotune-no-cudagraphs")
    compiled(x)
    base = triton.testing.do_bench(lambda: compiled(x), warmup=25, rep=300, return_mode="median")
    print(f"{os.path.basename(path)}: torch.compile {base:.3f} ms")
    out = torch.empty_like(ref)
    best = None
    for rb, cb, warps in SETTINGS:
        reduce_dim(x, out, dim, op, rb, cb, warps)
        ok = torch.equal(out, ref) if op.startswith("arg") else torch.allclose(out, ref, rtol=1e-4, atol=1e-4)
        ms = triton.testing.do_bench(lambda: reduce_dim(x, out, dim, op, rb, cb, warps), warmup=25,
                                     rep=300, return_mode="median")
        print(f"  RB={rb:2d} CB={cb:4d} warps={warps}: {ms:.3f} ms ({base / ms:.3f}x) {'ok' if ok else 'WRONG'}")
        if ok and (best is None or ms < best[0]):
            best = (ms, rb, cb, warps)
    rewrite_constants(path, dict(zip(("ROWS_PER_STEP", "COLS_PER_PROGRAM", "NUM_WARPS"), best[1:])),
                      copy_to=out_dir)
    print(f"  chosen RB={best[1]} CB={best[2]} warps={best[3]}: {best[0]:.3f} ms ({base / best[0]:.3f}x)")
    del compiled, ref, out
