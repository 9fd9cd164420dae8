"""Chooses the launch constants of the row-sum kernel of tests/planted/bad_slightly_slower.py (once
planted as a good candidate; the best setting stayed 4-5% slower than the compiler) on the GPU:
times each setting on examples/row_sum.py's shape against torch.compile's kernel (max-autotune, no
CUDA graphs) and rewrites the constants in place with the fastest correct setting, so that the
planted suite that follows checks exactly that file. Prints a table (results/gates/variants/).
usage: python3 scripts/gpu/row_sum_variants.py [OUT_DIR]   (copies the chosen files there)"""

import itertools
import os
import sys

import torch
import triton.testing

from settings_lib import load_module, rewrite_constants

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load(name):
    path = os.path.join(ROOT, "tests", "planted", name)
    return path, load_module(path, name[:-3])


torch.manual_seed(0)
x = torch.rand(8192, 8192, device="cuda")
out = torch.empty(8192, device="cuda")
ref = x.double().sum(1)
compiled = torch.compile(lambda t: t.sum(dim=1), mode="max-autotune-no-cudagraphs")
compiled(x)
base = triton.testing.do_bench(lambda: compiled(x), warmup=25, rep=200, return_mode="median")
print(f"torch.compile: {base * 1000:.1f} us")
grids = {"bad_slightly_slower.py": {"BLOCK": [1024, 2048, 4096, 8192], "NUM_WARPS": [4, 8, 16]}}
for name, grid in grids.items():
    path, module = load(name)
    best = None
    for values in itertools.product(*grid.values()):
        setting = dict(zip(grid, values))
        for key, value in setting.items():
            setattr(module, key, value)
        out.fill_(float("nan"))
        module.run({"x": x}, {"out": out})
        err = float((out.double() - ref).abs().max())
        ms = triton.testing.do_bench(lambda: module.run({"x": x}, {"out": out}), warmup=25, rep=200,
                                     return_mode="median")
        print(f"{name} {setting}: {ms * 1000:.1f} us ({base / ms:.3f}x), max abs err {err:.2e}")
        if err < 1e-2 and (best is None or ms < best[0]):
            best = (ms, setting)
    rewrite_constants(path, best[1], copy_to=sys.argv[1] if len(sys.argv) > 1 else None)
    print(f"chosen for {name}: {best[1]} {best[0] * 1000:.1f} us ({base / best[0]:.3f}x)")
