"""Diagnostic: does the baseline's speed change from one load of Inductor's output code to the next?"""
import json, os, statistics, sys, time
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch
from kernelopt.worker.session import Session, _load_module
from kernelopt.worker.gates import _replayable
from kernelopt.worker.timing import time_interleaved
import torch._inductor.config as ic

problem, run_dir = sys.argv[1], sys.argv[2]
os.makedirs(run_dir, exist_ok=True)
s = Session()
s.load({"problem": problem})
info = s.capture_graphs({"run_dir": run_dir, "seeds": [0]})
cap = s.capture
print("coordinate_descent_tuning", ic.coordinate_descent_tuning, "max_autotune", ic.max_autotune,
      "autotune_local_cache", ic.autotune_local_cache, flush=True)

def tuners(mod):
    out = {}
    for k, v in vars(mod).items():
        if type(v).__name__ == "CachingAutotuner":
            out[k] = v
    return out

def describe(mod):
    d = {}
    for k, v in tuners(mod).items():
        ls = getattr(v, "launchers", [])
        d[k] = {"configs": len(getattr(v, "configs", []) or []),
                "chosen": [str(getattr(l, "config", "?")) for l in ls][:2],
                "coordesc": bool(getattr(v, "coordesc_tuner", None) and v.coordesc_tuner.cached_benchmark_results)}
    return d

mods = []
for k in range(5):
    t0 = time.time()
    m = {g.index: _load_module(g.path, f"diag_{k}_{g.index}", {}) for g in cap.graphs}
    g = _replayable(cap, m, 0)
    mods.append((m, g))
    print("load", k, round(time.time() - t0, 1), "s", json.dumps({i: describe(x) for i, x in m.items()}), flush=True)
samples = time_interleaved([g.replay for _, g in mods], iters=15, warmup=3)
print("per-load medians ms", [round(statistics.median(x), 4) for x in samples], flush=True)
