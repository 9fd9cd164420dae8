"""Times the L1/35 GroupNorm candidate's launch settings on the problem's shape (H200) against
torch.compile's kernels, and writes the candidate with the fastest settings to OUT_FILE.
usage: python3 scripts/gpu/group_norm_variants.py OUT_FILE"""

import shutil
import sys

import torch
import triton.testing

from settings_lib import load_module, rewrite_constants

PATH = "candidates/kernelbench/level1_35_group_norm_seg0.py"
gn = load_module(PATH, "gn")
torch.manual_seed(0)
x = torch.rand(112, 64, 512, 512, device="cuda")
w = torch.randn(64, device="cuda")
b = torch.randn(64, device="cuda")
y = torch.empty_like(x)
ref = torch.nn.functional.group_norm(x, 8, w, b, 1e-5)
compiled = torch.compile(lambda t: torch.nn.functional.group_norm(t, 8, w, b, 1e-5),
                         mode="max-autotune-no-cudagraphs")
compiled(x)
base = triton.testing.do_bench(lambda: compiled(x), warmup=50, rep=400, return_mode="median")
print(f"torch.compile: {base:.3f} ms")
best = None
for sub, warps in [(8192, 16), (16384, 16), (16384, 32), (4096, 16), (8192, 32)]:
    y.fill_(float("nan"))
    gn.group_norm(x, w, b, y, 8, 1e-5, sub=sub, warps=warps)
    err = float((y - ref).abs().max())
    ms = triton.testing.do_bench(lambda: gn.group_norm(x, w, b, y, 8, 1e-5, sub=sub, warps=warps),
                                 warmup=50, rep=400, return_mode="median")
    print(f"SUB={sub:6d} WARPS={warps:2d}: {ms:.3f} ms ({base / ms:.3f}x), max abs err {err:.2e}")
    if err < 1e-3 and (best is None or ms < best[0]):
        best = (ms, sub, warps)
shutil.copy(PATH, sys.argv[1])
rewrite_constants(sys.argv[1], {"SUB": best[1], "WARPS": best[2]})
print(f"best: SUB={best[1]} WARPS={best[2]} {best[0]:.3f} ms")
