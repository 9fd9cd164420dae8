"""Micro-benchmark: L1/41's max pool (64 x 192 x 65536, kernel 8, stride 1, padding 4, dilation 3):
the pool recipe's running-max form over a grid of settings against torch.compile's kernel."""
import json, os, sys, torch
import torch.nn.functional as F
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
from kernelopt.recipes import pool
x = torch.rand(64, 192, 65536, device="cuda")
f = torch.compile(lambda t: F.max_pool1d(t, 8, 1, 4, 3), mode="max-autotune-no-cudagraphs")
want = f(x)
out = torch.empty_like(want)
def t(fn, n=20):
    fn(); torch.cuda.synchronize()
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(2 * n)]
    for i in range(n):
        ev[2 * i].record(); fn(); ev[2 * i + 1].record()
    torch.cuda.synchronize()
    ts = sorted(ev[2 * i].elapsed_time(ev[2 * i + 1]) for i in range(n)); return ts[n // 2]
res = [{"kernel": "torch.compile max-autotune (no cudagraphs)", "ms": t(lambda: f(x))}]
print(res[-1], flush=True)
for block in (64, 128, 256, 512, 1024, 2048, 4096):
    for warps in (1, 2, 4, 8, 16):
        try:
            g = lambda: pool.max_pool(x, out, [8], [1], [4], [3], block=block, num_warps=warps, sliding=1)
            ms = t(g)
            ok = torch.equal(out, want)
            res.append({"block": block, "num_warps": warps, "ms": ms, "equal": ok, "ratio": res[0]["ms"] / ms})
        except Exception as e:  # noqa
            res.append({"block": block, "num_warps": warps, "error": str(e)[:200]})
        print(res[-1], flush=True)
json.dump(res, open(os.path.join(os.path.dirname(__file__), "pool41.json"), "w"), indent=1)
