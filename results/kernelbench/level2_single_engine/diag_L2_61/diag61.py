"""Why L2/61's baseline replays at 2.87 ms in the search worker and 2.62 ms in remeasure's."""
import json, os, statistics, sys, time
sys.path.insert(0, "python")
import torch
from kernelopt.worker.session import Session, _load_module
from kernelopt.worker.gates import _replayable
from kernelopt.worker.timing import time_interleaved

out = os.environ["OUT"]
opt = sys.argv[1]
s = Session()
s.load({"problem": os.path.abspath(f"{opt}/problem.py"), "label": "l2_61", "device": "cuda"})
t = time.time()
s.capture_graphs({"run_dir": os.path.abspath("runs/diag/cap"), "seeds": [0], "references": False})
print("capture", round(time.time() - t, 1), "s", "cudnn.benchmark", torch.backends.cudnn.benchmark, flush=True)
cap = s.capture
seed = next(iter(cap.inputs_by_seed))
def base():
    return {g.index: _load_module(g.path, f"b{time.time_ns()}", {}) for g in cap.graphs}
def cand():
    return {**base(), 0: _load_module(os.path.abspath(f"{opt}/graph_0.py"), f"c{time.time_ns()}", {})}
res = {}
def pair(name, a, b):
    ga = _replayable(cap, a, seed); gb = _replayable(cap, b, seed)
    x, y = time_interleaved([ga.replay, gb.replay], iters=30, warmup=5)
    res[name] = [statistics.median(x), statistics.median(y)]
    print(name, "%.4f %.4f" % tuple(res[name]), flush=True)
    return ga, gb
pair("base_then_cand", base(), cand())
pair("cand_then_base", cand(), base())
pair("base_then_base", base(), base())
pair("cand_then_cand", cand(), cand())
ga, gb = pair("base_then_cand_again", base(), cand())
from torch.profiler import profile, ProfilerActivity
for name, g in (("base", ga), ("cand", gb)):
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(5):
            g.replay()
        torch.cuda.synchronize()
    rows = [(e.key, e.device_time_total / e.count if e.count else 0, e.count) for e in p.key_averages()]
    res["kernels_" + name] = rows
    for r in rows:
        print(name, "%-70s %.1f us x%d" % (r[0][:70], r[1], r[2]))
json.dump(res, open(f"{out}/diag61.json", "w"), indent=1)
