"""How the pool recipe's launch settings compare with torch.compile on pooling shapes: for each
case, times torch.compile (max-autotune, no CUDA graphs) and the recipe at every setting of a grid
(rows x columns a program, warps), checks each against PyTorch, and writes one JSON line per
setting. Cases: KernelBench L1/41's and L1/43's shapes (odd problems) and three that KernelBench
does not use. It chooses nothing: it says whether the recipe's structure can beat Inductor at some
setting, and which settings the search should start from.

usage: python3 scripts/gpu/pool_variants.py OUT.jsonl [--cases 0,1]   (indices into CASES)
       TRITON_INTERPRET=1 python3 scripts/gpu/pool_variants.py OUT.jsonl --cpu-check
         (tiny shapes, correctness only, under Triton's interpreter)"""

import json
import sys
import time

import torch
import torch.nn.functional as F

from kernelopt.recipes.pool import avg_pool, max_pool

# name, op, input shape, kernel, stride, padding, dilation (1-D cases pool x.unsqueeze(-2))
CASES = [
    ("L1/41 max 1d", "max", (64, 192, 65536), [8], [1], [4], [3]),
    ("L1/43 max 3d", "max", (16, 32, 128, 128, 128), [3, 3, 3], [2, 2, 2], [1, 1, 1], [3, 3, 3]),
    ("max 2d 3x3 s2", "max", (32, 64, 224, 224), [3, 3], [2, 2], [1, 1], [1, 1]),
    ("avg 3d 2x2x2", "avg", (8, 16, 64, 96, 130), [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1]),
    ("max 1d k4 s2", "max", (48, 96, 40001), [4], [2], [1], [1]),
]
SMALL = {5: (2, 3, 9, 11, 61), 4: (2, 3, 19, 23), 3: (3, 4, 301)}


def torch_pool(op, x, kernel, stride, padding, dilation):
    dims = len(kernel)
    if op == "avg":
        return (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[dims - 1](x, kernel, stride, padding)
    return (F.max_pool1d, F.max_pool2d, F.max_pool3d)[dims - 1](x, kernel, stride, padding, dilation)


def recipe_call(op, x, out, kernel, stride, padding, dilation, rows, block, warps):
    if len(kernel) == 1:  # as the search's candidate: a 2-D pool of x.unsqueeze(-2)
        x, out = x.unsqueeze(-2), out.unsqueeze(-2)
        kernel, stride, padding, dilation = [1] + kernel, [1] + stride, [0] + padding, [1] + dilation
    if op == "avg":
        return avg_pool(x, out, kernel, stride, padding, rows=rows, block=block, num_warps=warps)
    return max_pool(x, out, kernel, stride, padding, dilation, rows=rows, block=block,
                    num_warps=warps)


def grid(columns):
    """Settings of 1024 to 4096 elements a program, columns 32 to 2048 (not far past the output's
    rows), 4 or 8 warps."""
    widest = max(32, 1 << (columns - 1).bit_length())
    for block in (32, 64, 128, 256, 512, 1024, 2048):
        if block > 2 * widest:
            continue
        for elements in (1024, 2048, 4096):
            rows = elements // block
            if 1 <= rows <= 32:
                for warps in (4, 8):
                    yield rows, block, warps


def main():
    out_path = sys.argv[1]
    cpu = "--cpu-check" in sys.argv
    chosen = range(len(CASES))
    if "--cases" in sys.argv:
        chosen = [int(i) for i in sys.argv[sys.argv.index("--cases") + 1].split(",")]
    device = "cpu" if cpu else "cuda"
    torch.manual_seed(0)
    with open(out_path, "w") as log:
        for name, op, shape, kernel, stride, padding, dilation in (CASES[i] for i in chosen):
            if cpu:
                shape = SMALL[len(shape)]
            x = torch.randn(shape, device=device)
            ref = torch_pool(op, x, kernel, stride, padding, dilation)
            base_ms = None
            if not cpu:
                import triton.testing

                compiled = torch.compile(lambda t: torch_pool(op, t, kernel, stride, padding, dilation),
                                         mode="max-autotune-no-cudagraphs")
                compiled(x)
                base_ms = triton.testing.do_bench(lambda: compiled(x), warmup=25, rep=200,
                                                  return_mode="median")
                print(f"{name} {list(shape)}: torch.compile {base_ms:.3f} ms", flush=True)
            out = torch.empty_like(ref)
            settings = list(grid(ref.shape[-1]))
            if cpu:
                settings = settings[:3]
            for rows, block, warps in settings:
                start = time.time()
                recipe_call(op, x, out, kernel, stride, padding, dilation, rows, block, warps)
                ok = torch.allclose(out, ref, rtol=1e-5, atol=1e-5, equal_nan=True)
                ms = None
                if not cpu:
                    ms = triton.testing.do_bench(
                        lambda: recipe_call(op, x, out, kernel, stride, padding, dilation, rows, block,
                                            warps),
                        warmup=10, rep=100, return_mode="median")
                row = {"case": name, "shape": list(shape), "rows": rows, "block": block,
                       "num_warps": warps, "ok": ok, "compiled_ms": base_ms, "recipe_ms": ms,
                       "speedup": base_ms / ms if ms else None, "seconds": time.time() - start}
                log.write(json.dumps(row) + "\n")
                log.flush()
                speed = f"{ms:.3f} ms ({base_ms / ms:.3f}x)" if ms else ""
                print(f"  rows={rows:2d} block={block:4d} warps={warps}: {speed} "
                      f"{'ok' if ok else 'WRONG'}", flush=True)
                if not ok:
                    sys.exit(f"pool_variants: {name} rows={rows} block={block} is wrong")
            del x, ref, out


if __name__ == "__main__":
    main()
