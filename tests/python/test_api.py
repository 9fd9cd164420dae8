"""The Python API on the CPU: optimize's checks and its engine run (a stand-in engine), the
problem file it writes (loaded by the worker's own load_problem in a fresh process), and load's
checks and runners on an optimized folder built here by the worker's own runtime record from a
model compiled for the CPU."""

import json
import os
import shutil
import stat
import subprocess
import sys
import threading

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Under KERNELOPT_WHEEL_TESTS the installed package is the one tested (scripts/test.sh wheel-test).
if not os.environ.get("KERNELOPT_WHEEL_TESTS"):
    sys.path.insert(0, os.path.join(ROOT, "python"))

import kernelopt  # noqa: E402
from kernelopt.api.engine import find_engine  # noqa: E402
from kernelopt.api.problem_file import write_problem  # noqa: E402
from kernelopt.worker.problem import model_state  # noqa: E402
from kernelopt.worker.runtime import Recorder, record  # noqa: E402
from test_load import COUNTER  # noqa: E402  (the call counter appended to a graph's module)


def test_the_package_under_test_is_the_one_asked_for():
    source = os.path.dirname(os.path.abspath(kernelopt.__file__))
    installed = not source.startswith(os.path.join(ROOT, "python"))
    assert installed == bool(os.environ.get("KERNELOPT_WHEEL_TESTS")), source


class Net(torch.nn.Module):
    """A parameter, a buffer and two outputs: the graph's arguments mix state and inputs."""

    def __init__(self, width=8):
        super().__init__()
        self.linear = torch.nn.Linear(8, width)
        self.register_buffer("shift", torch.linspace(-1, 1, width))

    def forward(self, x, y):
        return torch.relu(self.linear(x) + self.shift) * y, x.sum(dim=1)


def _inputs():
    torch.manual_seed(0)
    return [torch.randn(4, 8), torch.randn(4, 8)]


def build_artifact(folder, model, inputs):
    """An optimized folder as the engine writes it, for a model compiled here for the CPU: each
    graph's output code (with a call counter), manifest.json, the runtime record and the problem."""
    from torch._inductor.output_code import CompiledFxGraph

    os.makedirs(folder)
    write_problem(model, inputs, folder)
    recorder, sources = Recorder(), {}
    original = CompiledFxGraph.__call__

    def recording(graph, args):
        index = sources.setdefault(id(graph), (len(sources), graph.source_code))[0]
        before = list(args)
        out = original(graph, args)
        recorder.add(index, before, out)
        return out

    torch._dynamo.reset()
    CompiledFxGraph.__call__ = recording
    try:
        with torch.no_grad():
            out = torch.compile(model)(*inputs)
    finally:
        CompiledFxGraph.__call__ = original
    torch._dynamo.reset()
    for index, source in sources.values():
        with open(os.path.join(folder, f"graph_{index}.py"), "w") as f:
            f.write(source + COUNTER)
    runtime = record(recorder, inputs, model_state(model), out, [], model.training)
    _write(folder, "runtime.json", runtime)
    _write(folder, "manifest.json", {"schema": "kernelopt.optimized/1", "problem": "problem.py", "mode": "default",
                                     "graphs": [f"graph_{i}.py" for i in range(len(sources))],
                                     "call_order": [c["graph"] for c in runtime["calls"]], "segments": [],
                                     "outcome": {"class": "optimized", "ratio": 1.2}})
    return runtime


def _write(folder, name, doc):
    with open(os.path.join(folder, name), "w") as f:
        json.dump(doc, f)


@pytest.fixture(scope="module")
def artifact(tmp_path_factory):
    """(the folder, the model it was built from, the inputs)."""
    model = Net().eval()
    inputs = _inputs()
    folder = str(tmp_path_factory.mktemp("art") / "optimized")
    build_artifact(folder, model, inputs)
    return folder, model, inputs


def _copy(artifact, tmp_path, **runtime_changes):
    folder = str(tmp_path / "optimized")
    shutil.copytree(artifact[0], folder)
    with open(os.path.join(folder, "runtime.json")) as f:
        runtime = json.load(f)
    for key, value in runtime_changes.items():
        if key == "environment":
            runtime["environment"].update(value)
        else:
            runtime[key] = value
    _write(folder, "runtime.json", runtime)
    return folder


def _eager(model, inputs):
    with torch.no_grad():
        return model(*inputs)


def _close(a, b):
    for p, q in zip(a, b):
        torch.testing.assert_close(p, q, rtol=1e-5, atol=1e-5)


# --- optimize: checks before anything runs, the engine's lookup, a run ---------------------------


@pytest.fixture
def fake_engine(tmp_path, monkeypatch):
    """A stand-in `kernelopt` that records its arguments and writes optimize.json: a fallback, or
    with FAKE_ARTIFACT set, an accepted module copied from that folder."""
    script = tmp_path / "kernelopt"
    script.write_text(f"""#!{sys.executable}
import json, os, shutil, sys
args = sys.argv[1:]
run_dir = args[args.index("-o") + 1]
json.dump(args, open(os.path.join(os.environ["FAKE_LOG"]), "w"))
if args[0] == "verify":  # the gates pass here: the module as FAKE_ARTIFACT holds it
    shutil.copytree(os.environ["FAKE_ARTIFACT"], os.path.join(run_dir, "optimized"))
    sys.exit(0)
doc = {{"problem": args[1], "proposals": [{{"segment": 0}}], "search": [],
       "outcome": {{"class": "fallback", "reason": "rejected by the performance gate", "ratio": None,
                   "ratio_low": None, "ratio_high": None}}}}
if os.environ.get("FAKE_ARTIFACT"):
    shutil.copytree(os.environ["FAKE_ARTIFACT"], os.path.join(run_dir, "optimized"))
    doc["optimized"] = json.load(open(os.path.join(run_dir, "optimized", "manifest.json")))
    doc["optimized"]["segments"] = [0]
    doc["outcome"] = {{"class": "optimized", "reason": "", "ratio": 1.2, "ratio_low": 1.1, "ratio_high": 1.3}}
json.dump(doc, open(os.path.join(run_dir, "optimize.json"), "w"))
sys.exit(0 if "optimized" in doc else 1)
""")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "argv.json"
    monkeypatch.setenv("KERNELOPT_ENGINE", str(script))
    monkeypatch.setenv("FAKE_LOG", str(log))
    monkeypatch.delenv("FAKE_ARTIFACT", raising=False)
    return log


@pytest.mark.parametrize("model, inputs, options, error, match", [
    (Net(), _inputs(), {"beam": 3}, TypeError, "unknown option 'beam'"),
    (Net(), _inputs(), {"rounds": "3"}, TypeError, "rounds must be an int"),
    (Net(), _inputs(), {"rounds": True}, TypeError, "rounds must be an int"),
    (Net(), _inputs(), {"rounds": 0}, ValueError, r"rounds must be within \[1, 100\]"),
    (Net(), _inputs(), {"no_cache": 1}, TypeError, "no_cache must be True or False"),
    (Net(), _inputs(), {"sanitize": "asan"}, ValueError, "sanitize must be one of"),
    (Net(), _inputs(), {"deployed_iters": 2}, ValueError, r"deployed_iters must be within \[5, 100000\]"),
    (Net(), _inputs(), {"budget_s": -1.0}, ValueError, "budget_s must be within"),
    (Net(), _inputs(), {"cache": 3}, TypeError, "cache must be a non-empty string"),
    (lambda x: x, _inputs(), {}, TypeError, "model must be a torch.nn.Module, got function"),
    (Net(), [torch.ones(2), 3], {}, TypeError, "example input 1 is a int: inputs must be tensors"),
    (Net(), "x", {}, TypeError, "example_inputs must be a tensor or a tuple or list of tensors"),
    (Net(), [], {}, ValueError, "example_inputs is empty"),
])
def test_optimize_refuses_bad_arguments_before_running_anything(tmp_path, fake_engine, model, inputs, options,
                                                                  error, match):
    out = tmp_path / "run"
    with pytest.raises(error, match=match):
        kernelopt.optimize(model, inputs, out_dir=out, **options)
    assert not fake_engine.exists() and not out.exists()


def test_the_engine_not_found_is_a_clear_error_and_nothing_is_written(tmp_path, monkeypatch):
    import kernelopt.engine

    monkeypatch.delenv("KERNELOPT_ENGINE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    # no bundled binary and no build of this source tree either
    monkeypatch.setattr(kernelopt.engine, "BUNDLED", str(tmp_path / "bundled"))
    monkeypatch.setattr(kernelopt.engine, "_source_tree_engines", lambda: [])
    with pytest.raises(kernelopt.EngineNotFound, match="set KERNELOPT_ENGINE to the `kernelopt` executable"):
        kernelopt.optimize(Net(), _inputs(), out_dir=tmp_path / "run")
    assert not (tmp_path / "run").exists()
    (tmp_path / "not-a-binary").write_text("")
    monkeypatch.setenv("KERNELOPT_ENGINE", str(tmp_path / "not-a-binary"))
    with pytest.raises(kernelopt.EngineNotFound, match="not-a-binary is not an executable file"):
        find_engine()


def test_optimize_runs_the_engine_with_its_flags_and_reads_a_fallback(tmp_path, fake_engine):
    model = Net()
    out = tmp_path / "run"
    module, report = kernelopt.optimize(model, _inputs(), budget_s=30, out_dir=out, rounds=2, no_cache=True,
                                        vendor=True, sanitize="memcheck", no_beam=False, deployed_iters=50)
    args = json.loads(fake_engine.read_text())
    problem = str(out / "problem" / "problem.py")
    assert args == ["optimize", problem, "-o", str(out), "--budget", "30", "--rounds", "2", "--no-cache",
                    "--vendor", "--sanitize", "memcheck", "--deployed-iters", "50"]
    assert report.outcome == "fallback" and report.reason == "rejected by the performance gate"
    assert report.optimized_dir is None and not report.optimized and report.ratio is None
    assert report.segments[0].status == "kept" and report.run_dir == str(out)
    assert not isinstance(module, kernelopt.OptimizedModule)  # the baseline, compiled


def test_optimize_returns_the_accepted_module_on_the_callers_model(tmp_path, fake_engine, monkeypatch, artifact):
    folder, model, inputs = artifact
    monkeypatch.setenv("FAKE_ARTIFACT", folder)
    module, report = kernelopt.optimize(model, inputs, out_dir=tmp_path / "run")
    assert report.outcome == "optimized" and (report.ratio, report.ratio_low, report.ratio_high) == (1.2, 1.1, 1.3)
    assert report.segments[0].status == "replaced"
    assert module.model is model and "direct calls (cpu)" in module.how
    _close(module(*inputs), _eager(model, inputs))


# --- the problem file ----------------------------------------------------------------------------


WORKER_LOAD = """
import sys, torch
from kernelopt.worker.problem import load_problem, run_forward
problem = load_problem(sys.argv[1], "cpu")
inputs = problem.make_inputs(0)
torch.save({"outputs": run_forward(problem, inputs), "seed0": inputs, "seed1": problem.make_inputs(1)}, sys.argv[2])
"""


def _worker_load(problem, tmp_path):
    """load_problem in a fresh interpreter, as the worker runs it: (outputs, seed 0's and 1's inputs)."""
    result = tmp_path / "result.pt"
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "python")}
    done = subprocess.run([sys.executable, "-c", WORKER_LOAD, problem, str(result)], env=env, cwd=str(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return torch.load(result)


def test_the_problem_file_rebuilds_the_model_in_a_fresh_process(tmp_path):
    model = Net(width=8)
    torch.nn.init.normal_(model.linear.weight)  # weights no constructor would draw
    x = torch.randn(8, 4).t()  # a transposed input keeps its strides on every seed
    inputs = [x, torch.randn(4, 8)]
    problem = write_problem(model, inputs, str(tmp_path / "problem"))
    loaded = _worker_load(problem, tmp_path)
    _close(loaded["outputs"], _eager(model, inputs))
    _close(loaded["seed0"], inputs)
    other = loaded["seed1"][0]
    assert other.stride() == x.stride() and not torch.equal(other, x)
    assert torch.equal(other.flatten().sort().values, x.flatten().sort().values)


SCRIPT = """
import sys
import torch
from kernelopt.api.problem_file import write_problem

SCALE = 3.0
torch.nn.Module.kernelopt_marker = True  # a statement the worker must not run again


def helper(t):
    return t * SCALE


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(5))

    def forward(self, x):
        return helper(x) + self.w


model = Scaled()
x = torch.randn(2, 5)
write_problem(model, [x], sys.argv[1])
torch.save(model(x).detach(), sys.argv[2])
raise SystemExit(0)
"""


def test_a_model_defined_in_the_running_script_is_written_with_its_definitions(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "python")}
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "problem"), str(tmp_path / "expected.pt")],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = _worker_load(str(tmp_path / "problem" / "problem.py"), tmp_path)
    _close(loaded["outputs"], [torch.load(tmp_path / "expected.pt")])
    (definitions,) = (tmp_path / "problem").glob("problem_data_classes_*.py")
    text = definitions.read_text()
    assert "class Scaled" in text and "def helper" in text and "SCALE = 3.0" in text
    assert "kernelopt_marker" not in text and "write_problem(model" not in text


# --- load: checks --------------------------------------------------------------------------------


def test_load_refuses_a_module_verified_with_another_torch(tmp_path, artifact):
    folder = _copy(artifact, tmp_path, environment={"torch": "2.10.0"})
    message = (f"kernelopt.load: torch {torch.__version__} here, 2.10.0 when verified; pass verify_again=True "
               "to re-run the gates here")
    with pytest.raises(kernelopt.EnvironmentMismatch) as caught:
        kernelopt.load(folder, device="cpu")
    assert str(caught.value) == message


def test_verify_again_runs_the_gates_here_and_loads_what_they_accept(tmp_path, artifact, fake_engine, monkeypatch):
    folder = _copy(artifact, tmp_path, environment={"torch": "2.10.0"})
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    _write(folder, "manifest.json", {**manifest, "segments": [2]})
    monkeypatch.setenv("FAKE_ARTIFACT", artifact[0])  # as verified here
    module = kernelopt.load(folder, model=artifact[1], device="cpu", verify_again=True)
    args = json.loads(fake_engine.read_text())
    assert args[:2] == ["verify", os.path.join(folder, "problem.py")] and args[2] == "-o"
    assert args[4:] == ["--candidate", f"seg2={os.path.join(folder, 'seg2.py')}"]
    assert module.path == os.path.join(args[3], "optimized")
    _close(module(*artifact[2]), _eager(artifact[1], artifact[2]))


def test_load_refuses_a_module_verified_on_another_device(tmp_path, artifact):
    folder = _copy(artifact, tmp_path, environment={"device": "cuda:0", "gpu": "NVIDIA H100 80GB HBM3"})
    with pytest.raises(kernelopt.EnvironmentMismatch, match="device cpu here, cuda:0 when verified"):
        kernelopt.load(folder, device="cpu")


class Renamed(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)
        self.register_buffer("shift", torch.zeros(8))


class Extra(Net):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros(1))


@pytest.mark.parametrize("model, match", [
    (Net(width=4).eval(), r"parameter linear.weight is \(4, 8\) float32 on cpu; verified as \(8, 8\) float32 on cpu"),
    (Net().double().eval(), r"parameter linear.weight is \(8, 8\) float64 on cpu; verified as \(8, 8\) float32"),
    (Renamed().eval(), r"the model has no parameter linear.weight, which the verified one has"),
    (Extra().eval(), r"the model has buffer count, which the verified one has not"),
    (Net(), r"the model is in training mode; it was verified in eval mode"),
])
def test_load_names_the_first_difference_of_the_model_given(artifact, model, match):
    with pytest.raises(kernelopt.ModelMismatch, match=match):
        kernelopt.load(artifact[0], model=model, device="cpu")


def test_load_refuses_a_model_that_is_not_a_module(artifact):
    with pytest.raises(TypeError, match="model must be a torch.nn.Module"):
        kernelopt.load(artifact[0], model=object(), device="cpu")


# --- load: running -------------------------------------------------------------------------------


def test_a_loaded_module_runs_its_graphs_calls_on_the_callers_model(artifact):
    from torch._inductor.output_code import CompiledFxGraph

    folder, model, inputs = artifact
    before = CompiledFxGraph.__call__
    mine = kernelopt.load(folder, model=model, device="cpu")
    rebuilt = kernelopt.load(folder, device="cpu")  # from the problem file
    assert "the verified graphs' calls, direct calls (cpu)" in mine.how and mine.model is model
    _close(mine(*inputs), _eager(model, inputs))
    _close(rebuilt(*inputs), _eager(model, inputs))
    assert mine.graphs[0].KO_CALLS == [5] and rebuilt.graphs[0].KO_CALLS == [5]  # 3 tensors of state, 2 inputs
    with torch.no_grad():
        model.linear.bias.add_(1.0)  # read in place: the next call sees it
    try:
        _close(mine(*inputs), _eager(model, inputs))
    finally:
        with torch.no_grad():
            model.linear.bias.sub_(1.0)
    assert CompiledFxGraph.__call__ is before
    with pytest.raises(ValueError, match=r"input 1 is \(4, 9\) float32; the module was verified for \(4, 8\)"):
        mine(inputs[0], torch.randn(4, 9))


def test_a_module_without_a_cuda_graph_has_no_static_inputs_to_write_into(artifact):
    folder, model, inputs = artifact
    module = kernelopt.load(folder, model=model, device="cpu")
    with pytest.raises(RuntimeError, match=r"runs without a CUDA graph \(.*direct calls \(cpu\)\): it has no "
                                           "static inputs"):
        module.static_inputs()


def test_timing_the_deployed_module_refuses_bad_arguments_and_a_machine_without_a_gpu(artifact):
    from kernelopt.api.deployed import measure
    from kernelopt.worker.__main__ import handle
    from kernelopt.worker.session import Session

    folder = artifact[0]
    with pytest.raises(ValueError, match="iters must be an integer of at least 5, got 2"):
        measure(folder, iters=2)
    with pytest.raises(ValueError, match="warmup must be a non-negative integer"):
        measure(folder, warmup=-1)
    reply = handle(Session(), json.dumps({"id": 1, "op": "time_deployed"}))
    assert reply["ok"] is False and reply["error"]["tag"] == "kernelopt.request"
    assert "needs `folder`" in reply["error"]["message"]
    if not torch.cuda.is_available():
        with pytest.raises(RuntimeError, match="needs a CUDA GPU"):
            measure(folder)
        reply = handle(Session(), json.dumps({"id": 2, "op": "time_deployed", "folder": folder}))
        assert reply["error"]["tag"] == "kernelopt.nogpu"


def test_load_reads_the_runs_own_record_where_the_engine_did_not_copy_it(tmp_path, artifact):
    folder, model, inputs = artifact
    shutil.copytree(folder, tmp_path / "run" / "optimized", ignore=shutil.ignore_patterns("runtime.json"))
    (tmp_path / "run" / "work" / "graphs").mkdir(parents=True)
    shutil.copy(os.path.join(folder, "runtime.json"), tmp_path / "run" / "work" / "graphs")
    module = kernelopt.load(tmp_path / "run", model=model, device="cpu")
    assert module.how.startswith("the verified graphs' calls")
    _close(module(*inputs), _eager(model, inputs))


def _with_vendor(artifact, tmp_path, knobs):
    folder = str(tmp_path / "optimized")
    shutil.copytree(artifact[0], folder)
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    manifest["vendor"] = knobs
    _write(folder, "manifest.json", manifest)
    return folder


def test_a_module_verified_under_vendor_knobs_runs_its_calls_under_them_and_nothing_else_does(tmp_path, artifact):
    folder, model, inputs = _with_vendor(artifact, tmp_path, ["cudnn_benchmark"]), artifact[1], artifact[2]
    module = kernelopt.load(folder, model=model, device="cpu")
    assert "under the vendor knobs cudnn_benchmark" in module.how
    seen = []
    graph = module.graphs[0]
    call = graph.call

    def watched(args):
        seen.append((torch.backends.cudnn.benchmark, threading.current_thread().name))
        return call(args)

    graph.call = watched
    try:
        _close(module(*inputs), _eager(model, inputs))
        _close(module(*inputs), _eager(model, inputs))
    finally:
        graph.call = call
    assert [on for on, _ in seen] == [True, True]
    # one thread of the module's own for every call (cuDNN's plans are kept per thread)
    assert len({name for _, name in seen}) == 1 and seen[0][1].startswith("kernelopt-vendor")
    assert torch.backends.cudnn.benchmark is False


def test_a_module_without_knobs_runs_on_the_callers_thread(artifact):
    module = kernelopt.load(artifact[0], model=artifact[1], device="cpu")
    assert "vendor" not in module.how


@pytest.mark.parametrize("knob, why", [("channels_last", "transforms the model"), ("tf32", "no vendor knob")])
def test_a_module_verified_under_a_knob_this_kernelopt_cannot_apply_is_refused(tmp_path, artifact, knob, why):
    with pytest.raises(ValueError, match=f"vendor knobs this kernelopt cannot apply: .*{why}"):
        kernelopt.load(_with_vendor(artifact, tmp_path, [knob]), model=artifact[1], device="cpu")


def test_threads_share_one_loaded_module(artifact):
    folder, model, inputs = artifact
    module = kernelopt.load(folder, model=model, device="cpu")
    expected = _eager(model, inputs)
    failures = []

    def run():
        for _ in range(20):
            try:
                _close(module(*inputs), expected)
            except Exception as exc:  # noqa: BLE001
                failures.append(exc)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_a_forward_that_is_not_its_graphs_runs_under_torch_compile_routed_per_module(tmp_path, artifact):
    from torch._inductor.output_code import CompiledFxGraph

    folder = _copy(artifact, tmp_path, direct=False, why_not_direct="a test")
    _, model, inputs = artifact
    before = CompiledFxGraph.__call__
    torch._dynamo.reset()
    first = kernelopt.load(folder, model=model, device="cpu")
    second = kernelopt.load(folder, device="cpu")
    assert "torch.compile with the verified graphs (a test)" in first.how
    _close(first(*inputs), _eager(model, inputs))
    _close(second(*inputs), _eager(model, inputs))
    assert first.graphs[0].KO_CALLS == [5] and second.graphs[0].KO_CALLS == [5]
    assert CompiledFxGraph.__call__ is before
    torch._dynamo.reset()


def test_the_runtime_record_binds_every_argument(artifact):
    with open(os.path.join(artifact[0], "runtime.json")) as f:
        runtime = json.load(f)
    assert runtime["direct"] and runtime["training"] is False
    (call,) = runtime["calls"]
    assert sorted(map(str, call["args"])) == sorted(map(str, [
        {"state": "parameter linear.weight"}, {"state": "parameter linear.bias"}, {"state": "buffer shift"},
        {"input": 0}, {"input": 1}]))
    assert runtime["returns"]["kind"] == "tuple"
    assert all("output" in item for item in runtime["returns"]["items"])
    assert runtime["inputs"][0] == {"shape": [4, 8], "stride": [8, 1], "dtype": "float32", "device": "cpu"}


def test_the_report_reads_an_optimize_document():
    run_dir = os.path.join(ROOT, "results", "optimize", "norm-dim", "rms_norm_rows")
    report = kernelopt.Report.from_run(run_dir)
    assert report.outcome == "optimized" and report.optimized
    assert report.ratio_low < report.ratio < report.ratio_high
    seg = report.segments[0]
    assert (seg.segment, seg.status, seg.strategy, seg.bottleneck) == (0, "replaced", "split", "memory-bound")
    assert "optimized: 1.106x" in str(report)
    assert report.deployed is None and "as deployed" not in str(report)  # a run before it was timed
    document = dict(report.document, deployed={"ratio": 1.05, "ratio_low": 1.04, "ratio_high": 1.06,
                                                "speed_class": "faster"})
    timed = kernelopt.Report.from_document(document, run_dir)
    assert timed.deployed["ratio"] == 1.05 and "; as deployed 1.050x [1.040, 1.060]" in str(timed)


# --- the worker's capture writes the record ------------------------------------------------------


@torch._dynamo.disable
def _eager_step(y):
    return y.flip(0) * 3


class Broken(torch.nn.Module):
    """Two graphs, with eager code between them when `eager` is set."""

    def __init__(self, eager):
        super().__init__()
        self.eager = eager

    def forward(self, x):
        y = torch.sin(x) * 2
        y = _eager_step(y) if self.eager else y
        torch._dynamo.graph_break()
        return torch.cos(y) + 1


def _cpu_capture(problem_path, tmp_path, monkeypatch):
    """The worker's capture of a problem on the CPU (its CUDA checks stubbed): the runtime.json
    it wrote, read back."""
    from kernelopt.worker.capture import capture
    from kernelopt.worker.problem import load_problem

    real = torch.cuda.is_available
    # True for capture's own check only: torch itself must go on seeing no GPU
    monkeypatch.setattr(torch.cuda, "is_available",
                        lambda: sys._getframe(1).f_globals.get("__name__") == "kernelopt.worker.capture" or real())
    monkeypatch.setattr(torch.cuda, "synchronize", lambda *a: None)
    torch._dynamo.reset()
    try:
        _, info = capture(load_problem(problem_path, "cpu"), str(tmp_path / "run"), [0, 1], "default", False)
    finally:
        torch._dynamo.reset()
    assert info["runtime"] == str(tmp_path / "run" / "graphs" / "runtime.json")
    with open(info["runtime"]) as f:
        return json.load(f)


def test_the_workers_capture_records_a_chain_of_graph_calls(tmp_path, monkeypatch):
    model, inputs = Net().eval(), _inputs()
    problem = write_problem(model, inputs, str(tmp_path / "problem"))
    runtime = _cpu_capture(problem, tmp_path, monkeypatch)
    assert runtime["direct"] and runtime["environment"]["device"] == "cpu"
    assert runtime["environment"]["torch"] == torch.__version__ and runtime["training"] is False
    assert {"input": 1} in runtime["calls"][0]["args"] and {"state": "buffer shift"} in runtime["calls"][0]["args"]


def test_the_workers_capture_chains_graphs_that_feed_each_other(tmp_path, monkeypatch):
    problem = write_problem(Broken(eager=False), [torch.randn(4, 8)], str(tmp_path / "problem"))
    runtime = _cpu_capture(problem, tmp_path, monkeypatch)
    assert runtime["direct"] and [c["args"] for c in runtime["calls"]] == [[{"input": 0}], [{"output": [0, 0]}]]
    assert runtime["returns"] == {"kind": "tensor", "items": [{"output": [1, 0]}]}


def test_the_workers_capture_tells_a_forward_with_eager_code_between_graphs(tmp_path, monkeypatch):
    problem = write_problem(Broken(eager=True), [torch.randn(4, 8)], str(tmp_path / "problem"))
    runtime = _cpu_capture(problem, tmp_path, monkeypatch)
    assert len(runtime["calls"]) == 2 and not runtime["direct"]
    assert runtime["why_not_direct"] == "argument 0 of call 1 (graph 1) is a tensor made outside the compiled graphs"


class Counting(torch.nn.Module):
    """Updates a buffer each forward, as batch norm's running statistics in training mode."""

    def __init__(self):
        super().__init__()
        self.register_buffer("calls", torch.zeros(1))

    def forward(self, x):
        self.calls.add_(1)
        return x * 2


def test_the_workers_capture_tells_a_forward_that_updates_its_buffers(tmp_path, monkeypatch):
    problem = write_problem(Counting(), [torch.randn(4, 8)], str(tmp_path / "problem"))
    runtime = _cpu_capture(problem, tmp_path, monkeypatch)
    assert not runtime["direct"] and runtime["training"] is True
    assert runtime["why_not_direct"] == "the forward changes buffer calls"
