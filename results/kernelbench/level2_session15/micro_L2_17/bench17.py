"""Micro-benchmark: L2/17's instance-norm kernel, Inductor's vs the two-walk split at settings."""
import importlib.util, json, os, sys, torch, triton
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
from kernelopt.recipes import row_two_pass as rows
def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(__file__), name + ".py"))
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
orig, walks = load("orig"), load("walks")
K0 = orig.triton_red_fused__native_batch_norm_legit_convolution_div_view_2
KW = walks.triton_red_fused__native_batch_norm_legit_convolution_div_view_2_split_walks
dev = torch.device("cuda")
x = torch.randn(128 * 128 * 15876, device=dev) * 2 + 1
b = torch.rand(128, device=dev)
want = torch.empty(16384 * 15876, device=dev)
out = torch.empty_like(want)
def t(fn, n=20):
    fn(); torch.cuda.synchronize()
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(2 * n)]
    for i in range(n):
        ev[2 * i].record(); fn(); ev[2 * i + 1].record()
    torch.cuda.synchronize()
    ts = sorted(ev[2 * i].elapsed_time(ev[2 * i + 1]) for i in range(n)); return ts[n // 2]
res = []
for w in (4, 32):
    ms = t(lambda: K0[(16384 // 64, 1, 1)](x, b, want, 16384, 15876, XBLOCK=64, R0_BLOCK=64, num_warps=w, num_stages=1))
    res.append({"kernel": "inductor", "XBLOCK": 64, "R0_BLOCK": 64, "warps": w, "ms": ms}); print(res[-1], flush=True)
K0[(256, 1, 1)](x, b, want, 16384, 15876, XBLOCK=64, R0_BLOCK=64, num_warps=4, num_stages=1)
for xb, rb, split, warps, resident in [(64, 64, 64, 4, 4), (64, 64, 16, 4, 4), (64, 64, 64, 8, 2), (32, 128, 32, 4, 4),
                                       (32, 64, 62, 4, 4), (16, 256, 16, 4, 4), (8, 512, 8, 8, 4), (64, 128, 32, 8, 2),
                                       (64, 64, 8, 4, 8), (128, 32, 16, 8, 2)]:
    n_x = 16384 // xb
    chunk = triton.cdiv(triton.cdiv(15876, split), rb) * rb
    sp = triton.cdiv(15876, chunk)
    part = torch.empty(3 * sp * 16384, device=dev)
    consts = dict(XBLOCK=xb, R0_BLOCK=rb, SPLIT=sp, SPLIT_BLOCK=max(2, triton.next_power_of_2(sp)), num_warps=warps, num_stages=1)
    f = lambda: rows.launch_split(KW, (x, b, out, 16384, 15876), part, (chunk, n_x), consts, n_x, sp, warps, resident, dev)
    try:
        ms = t(f)
        err = (out - want).abs().max().item()
        res.append({"kernel": "walks", "XBLOCK": xb, "R0_BLOCK": rb, "SPLIT": sp, "warps": warps, "resident": resident, "ms": ms, "how": list(rows.last_split), "max_err": err})
    except Exception as e:  # noqa
        res.append({"kernel": "walks", "XBLOCK": xb, "R0_BLOCK": rb, "SPLIT": sp, "error": str(e)[:300]})
    print(res[-1], flush=True)
    # the same kernel as two launches (no barrier)
    try:
        g = lambda: (KW[(n_x * sp,)](x, b, out, 16384, 15876, part, part, chunk, n_x, PHASE=1, **consts), KW[(n_x * sp,)](x, b, out, 16384, 15876, part, part, chunk, n_x, PHASE=2, **consts))
        res.append({"kernel": "walks-2launch", "XBLOCK": xb, "R0_BLOCK": rb, "SPLIT": sp, "warps": warps, "ms": t(g)}); print(res[-1], flush=True)
    except Exception as e:  # noqa
        print("2launch error", str(e)[:200])
os.makedirs(os.environ.get("OUT", "/tmp"), exist_ok=True)
json.dump(res, open(os.path.join(os.environ.get("OUT", "/tmp"), "bench17.json"), "w"), indent=1)
