"""The gemm recipe's float32 products in full float32 ("ieee", what Inductor's templates use when
PyTorch keeps float32 matrix products in full precision) and as three TF32 tensor-core products
("tf32x3": each operand split into a TF32 part and a TF32 remainder), against cuBLAS on shapes
KernelBench does not use: time (interleaved medians, bootstrap 95% interval of the ratio) and the
largest error against a float64 product, relative to the largest magnitude of the result.
Writes JSON lines to OUT (flushed per case).
usage: python3 scripts/gpu/gemm_precision.py OUT.jsonl [--samples N]"""

import argparse
import json

import torch

from kernelopt.recipes.gemm import gemm
from settings_lib import interleaved

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--samples", type=int, default=5)
cli = parser.parse_args()
out = open(cli.out, "w")
torch.manual_seed(0)
torch.backends.cuda.matmul.allow_tf32 = False

# (batch, M, K, N): small K (output-bound), tall-skinny, square, batched; none is a KernelBench shape.
SHAPES = [(1, 20000, 48, 24000), (1, 30000, 24, 30000), (1, 24000, 200, 640), (1, 3000, 3000, 3000),
          (6, 1500, 700, 1900)]
TILES = [dict(block_m=128, block_n=128, block_k=32, group_m=8, num_warps=8, num_stages=3),
         dict(block_m=128, block_n=256, block_k=32, group_m=8, num_warps=8, num_stages=3),
         dict(block_m=64, block_n=128, block_k=32, group_m=8, num_warps=4, num_stages=4)]

for batch, m, k, n in SHAPES:
    a = torch.rand(batch, m, k, device="cuda") - 0.25
    b = torch.rand(batch, k, n, device="cuda") - 0.25
    ref = torch.bmm(a.double(), b.double())
    scale = ref.abs().max().item()
    cublas = torch.empty(batch, m, n, device="cuda")
    torch.bmm(a, b, out=cublas)
    row = {"shape": [batch, m, k, n], "cublas_err": (cublas.double() - ref).abs().max().item() / scale}
    del ref
    for precision in ("ieee", "tf32x3"):
        best = None
        for tiles in TILES:
            c = torch.empty_like(cublas)
            try:
                gemm(a, b, c, precision=precision, **tiles)
                torch.cuda.synchronize()
            except Exception as exc:  # a tile the chip cannot hold: next
                row.setdefault("errors", []).append(f"{precision} {tiles}: {exc}"[:200])
                continue
            err = (torch.bmm(a.double(), b.double()) - c.double()).abs().max().item() / scale
            ms_c, ms_r, lo, hi = interleaved(lambda: torch.bmm(a, b, out=cublas),
                                             lambda: gemm(a, b, c, precision=precision, **tiles),
                                             cli.samples)
            cand = {"tiles": tiles, "err": err, "cublas_ms": ms_c, "ms": ms_r, "speedup": ms_c / ms_r,
                    "ci": [lo, hi]}
            if best is None or cand["ms"] < best["ms"]:
                best = cand
        row[precision] = best
    out.write(json.dumps(row) + "\n")
    out.flush()
    print(json.dumps(row), flush=True)
