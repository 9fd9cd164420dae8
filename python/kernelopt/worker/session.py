"""The worker's state between requests and the dispatch of each op.

Ops (docs/protocol.md): hello, env, load, capture, time_launches, time_model, time_replay,
segment_capture, static_check, check_candidate, model_check, time_pair, shutdown.
"""

from __future__ import annotations

import copy
import importlib.util
import os

from . import PROTOCOL_VERSION
from .errors import WorkerError


class Session:
    def __init__(self):
        self.problem = None
        self.capture = None
        self.cudagraph_model = None
        self.segments: dict = {}  # segment id -> seed -> {"in": {root: tensor}, "out": {...}}
        self.fatal = None  # set after a CUDA error: __main__ answers, then exits (context poisoned)
        self._loads = 0  # numbers candidate modules so that each load is a fresh module
        # (path, content digest) -> a loaded output code module: the original graphs' and the
        # recomposed ones', which G3 and G4 of one set both run. Loading an output code defines
        # (and loads from Triton's cache) every kernel of the graph, seconds on L3's models, and
        # time_pair loaded the originals again for every candidate. Candidate files are always
        # loaded fresh (check_candidate).
        self._modules: dict = {}

    # --- requests -----------------------------------------------------------------------------

    def hello(self, req):
        return {"protocol": PROTOCOL_VERSION, "pid": os.getpid()}

    def env(self, req):
        from .env import describe, measure_bandwidth, probe_ncu

        info = describe()
        if req.get("bandwidth") and info.get("cuda_available"):
            info["bandwidth"] = measure_bandwidth()
        if req.get("ncu") and info.get("cuda_available"):
            info.update(probe_ncu())
        return info

    def load(self, req):
        import torch

        from .problem import describe_tensor, load_problem, run_forward

        device = req.get("device") or ("cuda" if torch.cuda.is_available() else "cpu")
        if device.startswith("cuda") and not torch.cuda.is_available():
            raise WorkerError("kernelopt.nogpu", "this needs an NVIDIA GPU and torch sees none")
        # The previous problem's state goes first: a bench --search worker loads the same problem
        # again after measuring it, and its captured tensors (GBs) must not stay alive meanwhile.
        self.capture = None
        self.cudagraph_model = None
        self.segments = {}
        self.problem = None
        if device.startswith("cuda"):
            torch.cuda.empty_cache()
        self.problem = load_problem(_required(req, "problem"), device, req.get("label", ""))
        inputs = self.problem.make_inputs(int(req.get("seed", 0)))
        outputs = run_forward(self.problem, inputs) if req.get("forward", True) else []
        params = sum(p.numel() for p in self.problem.model.parameters())
        return {"name": self.problem.name, "path": self.problem.path, "device": device,
                "parameters": params,
                "inputs": [describe_tensor(x) if isinstance(x, torch.Tensor) else {"python": type(x).__name__}
                           for x in inputs],
                "outputs": [describe_tensor(t) for t in outputs]}

    def vendor_knobs(self, req):
        """Which vendor knobs apply to the loaded model, and why not (python/kernelopt/vendor/):
        one eager forward on the first seed's inputs, its ATen operators recorded."""
        from ..vendor.detect import CONV_OPS, MATMUL_OPS, record_ops
        from ..vendor.knobs import KNOBS
        from ..vendor.scope import around_graphs
        from ..vendor.settings import library_settings

        problem = self._problem()
        inputs = problem.make_inputs(0)
        ops = record_ops(problem.model, inputs)
        knobs = []
        for knob in KNOBS:
            verdict = knob.applies(problem.model, inputs, ops)
            knobs.append({"name": knob.name, "applies": bool(verdict), "reason": verdict.reason,
                          "summary": knob.summary, "around_graphs": around_graphs(knob)})
        return {"knobs": knobs, "convolutions": sum(op in CONV_OPS for op in ops.ops),
                "products": sum(op in MATMUL_OPS for op in ops.ops), "settings": library_settings()}

    def capture_graphs(self, req):
        from .capture import capture

        problem = self._problem()
        seeds = [int(s) for s in req.get("seeds", [0, 1, 2])]
        if not seeds:
            raise WorkerError("kernelopt.request", "capture needs at least one seed")
        self.capture, info = capture(problem, req.get("run_dir", ""), seeds,
                                     req.get("mode", "max-autotune-no-cudagraphs"),
                                     bool(req.get("references", True)),
                                     bool(req.get("save_references", False)))
        return info

    def time_launches(self, req):
        from .timing import Marks, kernels_marked, summary, time_marked

        cap = self._capture()
        index = int(_required(req, "graph"))
        if not 0 <= index < len(cap.graphs):
            raise WorkerError("kernelopt.request", f"no graph {index}")
        graph = cap.graphs[index]
        args = next(iter(graph.args_by_seed.values()))
        marks = Marks(int(_required(req, "marks")))
        module = _load_module(_required(req, "path"), f"kernelopt_timed_{index}", {"_ko_mark": marks})
        per_interval, totals = time_marked(lambda: module.call(list(args)), marks,
                                           iters=int(req.get("iters", 30)), warmup=int(req.get("warmup", 3)))
        reply = {"intervals": [summary(s) for s in per_interval], "total": summary(totals)}
        if req.get("kernels"):
            reply["kernels"] = kernels_marked(lambda: module.call(list(args)), marks)
        return reply

    def time_model(self, req):
        import torch

        from .timing import summary, time_calls

        problem = self._problem()
        cap = self._capture()
        seed = next(iter(cap.inputs_by_seed))
        inputs = cap.inputs_by_seed[seed]
        variant = _required(req, "variant")
        extra = {}
        if variant == "eager":
            model = problem.model
        elif variant == "compiled":
            model = cap.compiled
        elif variant == "cudagraphs":
            try:
                model, extra = self._cudagraph_model(inputs)
            except RuntimeError as error:
                return _cudagraphs_unavailable(error)
        else:
            raise WorkerError("kernelopt.request", f"unknown variant {variant!r}")

        def run():
            with torch.no_grad():
                model(*inputs)

        try:
            samples = time_calls(run, iters=int(req.get("iters", 30)), warmup=int(req.get("warmup", 3)),
                                 mode=req.get("mode", "synced"))
        except RuntimeError as error:
            if variant != "cudagraphs":
                raise
            return _cudagraphs_unavailable(error)
        return {"variant": variant, **summary(samples), **extra}

    def time_replay(self, req):
        """The compiled graphs' own `call`s, in the model's call order, captured in one CUDA graph
        and replayed: the GPU work of the compiled model without launch overhead and without the
        input copies that torch.compile's CUDA-graph trees add."""
        from .gates import _replayable
        from .timing import summary, time_calls

        cap = self._capture()
        modules = {g.index: _load_module(g.path, f"kernelopt_replay_{g.index}", {}) for g in cap.graphs}
        graph = _replayable(cap, modules, next(iter(cap.inputs_by_seed)))
        samples = time_calls(graph.replay, iters=int(req.get("iters", 30)), warmup=int(req.get("warmup", 3)),
                             mode="synced")
        del graph
        return {"variant": "replay", "graph_calls": len(cap.order), **summary(samples)}

    def segment_capture(self, req):
        from .segments import Probe, describe_segment, run_probed

        graph = self._graph(_required(req, "graph"))
        wanted = list(_required(req, "segments"))
        for seg in wanted:
            self.segments.pop(seg, None)
        probe = Probe(wanted, self.segments)
        module = _load_module(_required(req, "path"), f"kernelopt_probed_{graph.index}", {"_ko_probe": probe})
        run_probed(module, probe, graph.args_by_seed)
        return {"segments": [describe_segment(s, self.segments.get(s, {})) for s in wanted]}

    def static_check(self, req):
        from .static import static_check

        if os.environ.get("TRITON_INTERPRET", "0") not in ("", "0"):
            raise WorkerError("kernelopt.request", "static_check needs TRITON_INTERPRET unset: kernels "
                              "under the interpreter cannot be compiled")
        return static_check(_required(req, "candidate"), _required(req, "interface"), int(req.get("arch", 90)),
                            self._load_candidate)

    def check_candidate(self, req):
        from .errors import failure
        from .harness import Segment, check_seed

        seg = _required(req, "segment")
        captured = self.segments.get(seg)
        if not captured:
            raise WorkerError("kernelopt.request", f"segment {seg!r} was not captured: send `segment_capture`")
        seeds = [s for s in req.get("seeds", list(captured)) if s in captured]
        skipped = [s for s in req.get("seeds", []) if s not in captured]
        # The engine's tolerance travels with the request: G2 needs the count of elements outside
        # it (a small count may be deferred), which no single number per seed could give it.
        rtol, atol = float(_required(req, "rtol")), float(_required(req, "atol"))
        try:
            module = self._load_candidate(_required(req, "candidate"))
        except Exception as exc:  # a candidate that does not import is data
            return {"segment": seg, "load_error": failure(exc), "seeds": [], "skipped_seeds": skipped,
                    "worker_exiting": False}
        results = []
        for k, seed in enumerate(seeds):
            # The first seed's second run is traced for work on other streams (once is enough:
            # the profiler costs a second or so per candidate).
            entry = check_seed(module, Segment(captured[seed]), rtol, atol, int(req.get("guard", 1024)),
                               profile=k == 0)
            if k == 0 and req.get("sanitize") and entry.get("error") is None:
                from .sanitize import run_sanitized

                entry.update(run_sanitized(str(req["sanitize"]), captured[seed], req["candidate"]))
            results.append({"seed": seed, **entry})
            if self._note_fatal(entry.get("error"), entry.get("second_run_error")):
                break
        return {"segment": seg, "load_error": None, "seeds": results, "skipped_seeds": skipped,
                "worker_exiting": self.fatal is not None}

    def model_check(self, req):
        from .gates import model_check_seed

        cap, problem = self._capture(), self._problem()
        modules = self._recomposed(req)
        results = []
        with _vendor_thread(req) as under:  # one thread for the request: cuDNN measures a shape once
            for seed in req.get("seeds", list(cap.inputs_by_seed)):
                if seed not in cap.inputs_by_seed:
                    raise WorkerError("kernelopt.request", f"seed {seed} was not captured")
                results.append(model_check_seed(problem, cap, modules, seed, under))
                if results[-1].get("state_not_restored") and self.fatal is None:
                    # A candidate changed what cannot be put back: a fresh worker captures again.
                    self.fatal = f"the model's state could not be restored: {results[-1]['state_not_restored']}"
                if self._note_fatal(results[-1].get("error")):
                    break
        return {"seeds": results, "worker_exiting": self.fatal is not None}

    def time_pair(self, req):
        import torch

        from .gates import time_pair

        if not torch.cuda.is_available():
            raise WorkerError("kernelopt.nogpu", "time_pair needs an NVIDIA GPU and torch sees none")
        cap = self._capture()
        original = {g.index: self._output_code(g.path, f"kernelopt_pair_{g.index}") for g in cap.graphs}
        baseline = self._recomposed(req, "baseline_recomposed") if "baseline_recomposed" in req else None
        with _vendor_thread(req) as under:
            result = time_pair(cap, original, self._recomposed(req), iters=int(req.get("samples", 30)),
                               warmup=int(req.get("warmup", 5)), instances=int(req.get("instances", 3)),
                               under=under, baseline=baseline)
        self._note_fatal(result.get("error"))
        return {**result, "worker_exiting": self.fatal is not None}

    def time_deployed(self, req):
        """The written module as a user deploys it against max-autotune (api/deployed.py). Needs
        no loaded problem: the engine sends it to a fresh worker, as a user's process would be."""
        import torch

        from ..api.deployed import measure

        folder = req.get("folder")
        if not isinstance(folder, str) or not folder:
            raise WorkerError("kernelopt.request", "time_deployed needs `folder`, the optimized module's folder")
        if not torch.cuda.is_available():
            raise WorkerError("kernelopt.nogpu", "time_deployed needs an NVIDIA GPU and torch sees none")
        try:
            return measure(folder, iters=req.get("iters", 200), warmup=req.get("warmup", 10))
        except (ValueError, FileNotFoundError) as exc:
            raise WorkerError("kernelopt.request", str(exc)) from None

    def shutdown(self, req):
        return {"bye": True}

    # --- helpers ------------------------------------------------------------------------------

    def _problem(self):
        if self.problem is None:
            raise WorkerError("kernelopt.request", "no problem loaded: send `load` first")
        return self.problem

    def _capture(self):
        if self.capture is None:
            raise WorkerError("kernelopt.request", "nothing captured: send `capture` first")
        return self.capture

    def _graph(self, index):
        cap = self._capture()
        index = int(index)
        if not 0 <= index < len(cap.graphs):
            raise WorkerError("kernelopt.request", f"no graph {index}")
        return cap.graphs[index]

    def _load_candidate(self, path: str):
        self._loads += 1
        return _load_module(path, f"kernelopt_candidate_{self._loads}", {})

    def _recomposed(self, req, field: str = "recomposed") -> dict:
        """Graph index -> the recomposed module, from {"<index>": path}."""
        modules = {}
        for key, path in _required(req, field).items():
            graph = self._graph(key)
            modules[graph.index] = self._output_code(path, f"kernelopt_recomposed_{graph.index}")
        return modules

    def _output_code(self, path: str, name: str, keep: int = 8):
        """An output code module, loaded once for a given content of its file (the `keep` most
        recent are kept)."""
        import hashlib

        if not os.path.isfile(path):
            raise WorkerError("kernelopt.request", f"no such file: {path}")
        with open(path, "rb") as f:
            key = (os.path.abspath(path), hashlib.sha256(f.read()).hexdigest())
        if key not in self._modules:
            self._loads += 1
            self._modules[key] = _load_module(path, f"{name}_{self._loads}", {})
            while len(self._modules) > keep:
                del self._modules[next(iter(self._modules))]
        return self._modules[key]

    def _note_fatal(self, *errors) -> bool:
        """Remembers a CUDA error: the worker answers this request, then exits."""
        for error in errors:
            if error and error.get("kind") == "cuda":
                self.fatal = error["message"]
        return self.fatal is not None

    def _cudagraph_model(self, inputs):
        """The problem compiled with mode="max-autotune" (CUDA graphs); compiled on first use."""
        import time

        import torch

        if self.cudagraph_model is not None:
            return self.cudagraph_model, {}
        from torch._dynamo.utils import counters

        counters.clear()
        # A copy: a model that keeps an output as state (an RNN's hidden state) would otherwise
        # hold memory of the CUDA graph's pool that the next replay overwrites, and the gates'
        # later calls of the problem's own model would fail on it.
        try:
            model = copy.deepcopy(self.problem.model)
        except Exception:  # a model that cannot be copied is timed itself  # noqa: BLE001
            model = self.problem.model
        compiled = torch.compile(model, mode="max-autotune")
        t0 = time.perf_counter()
        with torch.no_grad():
            compiled(*inputs)
        torch.cuda.synchronize()
        compile_s = time.perf_counter() - t0
        skips = sorted(counters["inductor"].keys())
        self.cudagraph_model = compiled
        return compiled, {"compile_s": compile_s,
                          "cudagraph_skips": int(counters["inductor"].get("cudagraph_skips", 0)),
                          "inductor_counters": skips[:20]}


def _cudagraphs_unavailable(error):
    """The whole-model CUDA-graph timing is informational (speedups use the replay of the captured
    calls): a model that CUDA graphs cannot run, such as one that reads its previous output as
    state after the next replay overwrote it, gets no such time and a reason instead of failing
    the problem."""
    return {"variant": "cudagraphs", "unavailable": f"{type(error).__name__}: {error}"[:500]}


def _vendor_thread(req):
    """The KnobThread for the request's `vendor` knobs (names of settings-only knobs,
    `vendor/scope.py`), fresh for each request: no plan of an earlier request's reaches it."""
    from ..vendor.scope import KnobThread, settings_knobs

    try:
        return KnobThread(settings_knobs(req.get("vendor") or []))
    except ValueError as exc:
        raise WorkerError("kernelopt.request", str(exc)) from exc


def _required(req, key):
    if key not in req:
        raise WorkerError("kernelopt.request", f"request {req.get('op')!r} lacks {key!r}")
    return req[key]


def _load_module(path: str, name: str, injected: dict):
    """Imports a module file with names injected into its globals before it runs."""
    if not os.path.isfile(path):
        raise WorkerError("kernelopt.request", f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(injected)
    spec.loader.exec_module(module)
    return module


OPS = {
    "hello": Session.hello,
    "env": Session.env,
    "load": Session.load,
    "capture": Session.capture_graphs,
    "vendor_knobs": Session.vendor_knobs,
    "time_launches": Session.time_launches,
    "time_model": Session.time_model,
    "time_replay": Session.time_replay,
    "segment_capture": Session.segment_capture,
    "static_check": Session.static_check,
    "check_candidate": Session.check_candidate,
    "model_check": Session.model_check,
    "time_pair": Session.time_pair,
    "time_deployed": Session.time_deployed,
    "shutdown": Session.shutdown,
}
