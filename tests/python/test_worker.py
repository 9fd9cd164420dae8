"""The worker without a GPU: protocol framing, problem loading, references on the CPU."""

import json
import os
import subprocess
import sys
import time

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt.worker import PROTOCOL_VERSION  # noqa: E402
from kernelopt.worker.__main__ import finite, handle  # noqa: E402
from kernelopt.worker.capture import _max_abs_err, float64_reference  # noqa: E402
from kernelopt.worker.errors import WorkerError  # noqa: E402
from kernelopt.worker.problem import load_problem, run_forward  # noqa: E402
from kernelopt.worker.session import Session  # noqa: E402

PROBLEMS = os.path.join(ROOT, "tests", "fixtures", "problems")
EXAMPLES = os.path.join(ROOT, "examples")


def problem(name):
    return os.path.join(PROBLEMS, name)


def test_protocol_over_a_real_process():
    requests = [{"id": 1, "op": "hello"}, {"id": 2, "op": "nonsense"}, {"id": 3, "op": "shutdown"}]
    text = "\n".join(json.dumps(r) for r in requests) + "\nnot json\n"
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    out = subprocess.run([sys.executable, "-m", "kernelopt.worker"], input=text, capture_output=True,
                         text=True, env=env, timeout=120, check=True)
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    # shutdown ends the loop: the garbage line after it is never read.
    assert [r["id"] for r in lines] == [1, 2, 3]
    assert lines[0]["ok"] and lines[0]["protocol"] == PROTOCOL_VERSION
    assert not lines[1]["ok"] and lines[1]["error"]["tag"] == "kernelopt.request"
    assert "unknown op" in lines[1]["error"]["message"]


def test_a_worker_whose_engine_died_exits(tmp_path):
    # The engine here is a stand-in parent that starts the worker and is then killed; the test
    # keeps the worker's stdin open, so only the worker's watch on its parent can end it.
    read_end, write_end = os.pipe()
    engine = ("import subprocess, sys, time\n"
              f"p = subprocess.Popen([sys.executable, '-m', 'kernelopt.worker'], stdin={read_end})\n"
              "print(p.pid, flush=True)\ntime.sleep(120)\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    parent = subprocess.Popen([sys.executable, "-c", engine], stdout=subprocess.PIPE, text=True,
                              env=env, pass_fds=(read_end,))
    os.close(read_end)
    try:
        pid = int(parent.stdout.readline())
        os.write(write_end, b'{"id": 1, "op": "hello"}\n')
        assert json.loads(parent.stdout.readline())["ok"]  # the worker is in its loop
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 20
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(pid), "the worker outlived its engine"
    finally:
        os.close(write_end)
        parent.kill()


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_prints_from_problem_code_do_not_reach_the_protocol(tmp_path):
    noisy = tmp_path / "noisy.py"
    noisy.write_text("import torch\nprint('hello from import')\n"
                     "class Model(torch.nn.Module):\n    def forward(self, x):\n"
                     "        print('hello from forward')\n        return x + 1\n"
                     "def get_inputs():\n    return [torch.ones(3)]\n")
    req = {"id": 7, "op": "load", "problem": str(noisy), "device": "cpu"}
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    out = subprocess.run([sys.executable, "-m", "kernelopt.worker"], input=json.dumps(req) + "\n",
                         capture_output=True, text=True, env=env, timeout=120, check=True)
    assert [json.loads(line)["ok"] for line in out.stdout.splitlines()] == [True]
    assert "hello from forward" in out.stderr


def test_bad_json_and_non_objects_get_an_error_response():
    assert handle(Session(), "{oops")["error"]["tag"] == "kernelopt.request"
    assert handle(Session(), "[1, 2]")["error"]["message"] == "not a JSON object"


def test_non_finite_numbers_travel_as_strings():
    value = {"a": float("nan"), "b": [float("inf"), -float("inf"), 1.5]}
    assert finite(value) == {"a": "nan", "b": ["inf", "-inf", 1.5]}
    json.dumps(finite(value), allow_nan=False)


@pytest.mark.parametrize("name, cause", [
    ("syntax_error.py", "syntax error at line 4"),
    ("no_model.py", "defines no `Model` class"),
    ("no_get_inputs.py", "defines no `get_inputs()` function"),
    ("returns_no_tensor.py", "forward returns no tensor (got float)"),
    ("raises.py", "forward() raised ValueError: shape mismatch in forward"),
    ("out_of_memory.py", "needs more memory than the device has"),
    ("does_not_exist.py", "no such file"),
])
def test_bad_problems_raise_one_line_problem_errors(name, cause):
    response = handle(Session(), json.dumps({"id": 1, "op": "load", "problem": problem(name),
                                             "device": "cpu", "label": name}))
    assert not response["ok"]
    assert response["error"]["tag"] == "kernelopt.problem"
    message = response["error"]["message"]
    assert message.startswith(name + ": ")
    assert cause in message
    assert "\n" not in message


def test_load_describes_inputs_and_outputs():
    response = handle(Session(), json.dumps({"id": 1, "op": "load", "problem": problem("good_small.py"),
                                             "device": "cpu"}))
    assert response["ok"], response
    assert response["inputs"] == [{"shape": [16, 64], "stride": [64, 1], "dtype": "float32", "device": "cpu"}]
    assert response["outputs"][0]["shape"] == [16, 64]


def test_vendor_knobs_say_which_apply_to_the_loaded_model_and_why_not():
    session = Session()
    session.load({"problem": os.path.join(EXAMPLES, "conv_bn_relu_maxpool.py"), "device": "cpu",
                  "forward": False})
    conv = session.vendor_knobs({})
    verdicts = {k["name"]: (k["applies"], k["reason"]) for k in conv["knobs"]}
    assert conv["convolutions"] == 1 and conv["products"] == 0
    assert verdicts["cudnn_benchmark"] == (not torch.backends.cudnn.benchmark,
                                           "cudnn.benchmark is already on" if torch.backends.cudnn.benchmark else "")
    assert verdicts["channels_last"][0] is True
    assert verdicts["cublaslt"] == (False, "no matrix product")
    assert conv["settings"]["cudnn.benchmark"] is torch.backends.cudnn.benchmark
    session.load({"problem": os.path.join(EXAMPLES, "linear_bias_gelu.py"), "device": "cpu", "forward": False})
    linear = session.vendor_knobs({})
    verdicts = {k["name"]: k["applies"] for k in linear["knobs"]}
    assert linear["convolutions"] == 0 and linear["products"] == 1
    assert verdicts["cudnn_benchmark"] is False and verdicts["channels_last"] is False
    assert verdicts["addmm_epilogue"] is True  # Linear with bias, then tanh-GELU
    with pytest.raises(WorkerError, match="load"):
        Session().vendor_knobs({})


def test_capture_without_gpu_says_so():
    session = Session()
    session.load({"problem": problem("good_small.py"), "device": "cpu"})
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(WorkerError) as err:
        session.capture_graphs({"seeds": [0]})
    assert err.value.tag == "kernelopt.nogpu"


def test_gpu_ops_need_a_capture_first():
    with pytest.raises(WorkerError, match="send `load` first"):
        Session().capture_graphs({})
    with pytest.raises(WorkerError, match="send `capture` first"):
        Session().time_launches({"graph": 0, "path": "x", "marks": 2})


def test_seeds_give_different_inputs_and_the_same_seed_the_same():
    p = load_problem(problem("good_small.py"), "cpu")
    a, b, a2 = p.make_inputs(0)[0], p.make_inputs(1)[0], p.make_inputs(0)[0]
    assert torch.equal(a, a2)
    assert not torch.equal(a, b)


@pytest.mark.parametrize("example", sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py")))
def test_float64_reference_on_cpu_is_close_to_eager(example):
    p = load_problem(os.path.join(EXAMPLES, example), "cpu")
    inputs = p.make_inputs(0)
    eager = run_forward(p, inputs)
    ref = float64_reference(p, inputs)
    assert len(ref) == len(eager)
    for r, e in zip(ref, eager):
        # Float outputs in float64; integer outputs (argmax indices) keep their dtype, and the
        # same values: float32 -> float64 is exact, so the order of the inputs is unchanged.
        assert r.dtype == (torch.float64 if e.is_floating_point() else e.dtype)
        if not e.is_floating_point():
            assert torch.equal(r, e)
    scale = max(1.0, float(ref[0].abs().max()))
    assert _max_abs_err(eager, ref) < 1e-4 * scale
    # The reference is a different computation: a wrong model would be caught.
    wrong = [eager[0] + 1e-2]
    assert _max_abs_err(wrong, ref) > 5e-3


@pytest.mark.parametrize("example,op", [("softmax_eager_tanh_center.py", "softmax"),
                                        ("reverse_cumsum_eager_tanh.py", "cumsum")])
def test_the_graph_break_examples_leave_their_tanh_outside_two_graphs(example, op):
    # These examples exist to be searched with time outside their compiled graphs; that holds
    # only while torch.compile breaks around the eager tanh.
    p = load_problem(os.path.join(EXAMPLES, example), "cpu")
    small = [torch.randn(8, 64)]
    explained = torch._dynamo.explain(p.model)(*small)
    assert (explained.graph_count, explained.graph_break_count) == (2, 1)
    ops = [str(n.target) for g in explained.graphs for n in g.graph.nodes if n.op == "call_function"]
    assert not any("tanh" in o for o in ops)
    assert any(op in o for o in ops)


def test_cudagraphs_timing_that_cuda_graphs_cannot_run_is_unavailable_not_a_failure(monkeypatch):
    """A model CUDA graphs cannot run (an RNN that reads its last output as state) gets no
    whole-model CUDA-graph time and a reason; the problem is not failed for it."""
    session = Session()

    class Capture:
        inputs_by_seed = {0: []}

    def refuse(inputs):
        raise RuntimeError("Error: accessing tensor output of CUDAGraphs that has been overwritten")

    monkeypatch.setattr(session, "_problem", lambda: None)
    monkeypatch.setattr(session, "_capture", lambda: Capture())
    monkeypatch.setattr(session, "_cudagraph_model", refuse)
    reply = session.time_model({"variant": "cudagraphs"})
    assert reply["variant"] == "cudagraphs"
    assert "median_ms" not in reply
    assert reply["unavailable"].startswith("RuntimeError: Error: accessing tensor output of CUDAGraphs")
    with pytest.raises(WorkerError):
        session.time_model({"variant": "other"})


def test_probe_merges_a_segments_outputs_final_at_different_steps_and_keeps_its_first_run():
    """A segment whose outputs are final after different launches (a batch norm's running
    statistics before the segment's last launch) has several "out" probes; all of them belong to
    the run its "in" probe started. A second run of the segment in the same call is not kept."""
    from kernelopt.worker.segments import Probe

    store = {}
    probe = Probe([3], store)
    probe.seed = 0
    running, out = torch.zeros(2), torch.ones(4)
    probe(3, "in", {"x": torch.arange(4.0)})
    probe(3, "out", {"running_mean": running})
    probe(3, "out", {"buf16": out})
    probe(7, "out", {"other": out})  # not wanted
    probe(3, "in", {"x": torch.full((4,), 9.0)})  # the graph runs the segment again
    probe(3, "out", {"buf16": torch.full((4,), 9.0)})
    io = store[3][0]
    assert sorted(io["out"]) == ["buf16", "running_mean"]
    assert torch.equal(io["out"]["buf16"], out) and torch.equal(io["in"]["x"], torch.arange(4.0))
    assert 7 not in store


def test_autotuned_configs_are_read_from_the_graphs_loaded_module(tmp_path, monkeypatch):
    """The launch settings Inductor's autotuner left on each kernel of a graph's loaded module
    (one launcher after autotuning) are reported per graph; a module of other source (of another
    size, skipped unread, or of the same size), a kernel
    still holding several launchers and a non-kernel name are not."""
    import types

    from torch._inductor.codecache import PyCodeCache

    from kernelopt.worker.capture import Capture, Graph, _autotuned_configs

    def kernel(launchers):
        return types.SimpleNamespace(launchers=[types.SimpleNamespace(config=types.SimpleNamespace(
            kwargs=kw, num_warps=w, num_stages=1)) for kw, w in launchers])

    modules = []
    for name, source, attrs in (
            ("a", "# graph a\n", {"triton_poi_fused_relu_0": kernel([({"XBLOCK": 1024}, 4)]),
                                  "triton_red_fused_sum_1": kernel([({"XBLOCK": 1, "R0_BLOCK": 2048}, 8)]),
                                  "triton_per_fused_2": kernel([({"XBLOCK": 8}, 2), ({"XBLOCK": 16}, 4)]),
                                  "helper": kernel([({"XBLOCK": 1}, 1)])}),
            ("b", "# another graph\n", {"triton_poi_fused_relu_0": kernel([({"XBLOCK": 64}, 1)])}),
            # The size of graph a's file (read and compared), other text.
            ("c", "# graph c\n", {"triton_poi_fused_relu_0": kernel([({"XBLOCK": 32}, 1)])})):
        path = tmp_path / f"{name}.py"
        path.write_text(source)
        module = types.ModuleType(name)
        module.__file__ = str(path)
        module.__dict__.update(attrs)
        modules.append(module)
    monkeypatch.setattr(PyCodeCache, "modules", modules)
    capture = Capture(compiled=None)
    capture.graphs = [Graph(index=0, source="# graph a\n")]
    assert _autotuned_configs(capture) == {0: {
        "triton_poi_fused_relu_0": {"XBLOCK": 1024, "num_warps": 4, "num_stages": 1},
        "triton_red_fused_sum_1": {"XBLOCK": 1, "R0_BLOCK": 2048, "num_warps": 8, "num_stages": 1}}}


def test_a_cuda_error_outside_the_gates_says_the_worker_exits(monkeypatch):
    # The catch-all answer carries worker_exiting, so the engine lets this worker go before its
    # next request (a CUDA error leaves the context unusable; main() exits after answering).
    from kernelopt.worker import __main__ as worker_main

    def boom(session, req):
        raise RuntimeError("CUDA error: an illegal memory access was encountered")

    def fine(session, req):
        raise RuntimeError("an ordinary bug")

    monkeypatch.setitem(worker_main.OPS, "boom", boom)
    monkeypatch.setitem(worker_main.OPS, "fine", fine)
    session = Session()
    ordinary = handle(session, json.dumps({"id": 1, "op": "fine"}))
    assert ordinary["ok"] is False and ordinary["worker_exiting"] is False
    cuda = handle(session, json.dumps({"id": 2, "op": "boom"}))
    assert cuda["ok"] is False and cuda["worker_exiting"] is True and session.fatal is not None


def test_output_code_modules_load_once_per_content(tmp_path):
    # G3 and G4 of one set run the same recomposed file, and time_pair runs the original graphs
    # for every candidate: each is loaded once for a given content, a changed file afresh.
    session = Session()
    path = tmp_path / "recomposed.py"
    path.write_text("LOADS = []\nLOADS.append(1)\ndef call(args):\n    return args\n")
    first = session._output_code(str(path), "kernelopt_test")
    assert session._output_code(str(path), "kernelopt_test") is first and first.LOADS == [1]
    path.write_text("LOADS = []\ndef call(args):\n    return None\n")
    second = session._output_code(str(path), "kernelopt_test")
    assert second is not first and second.call([1]) is None
    for i in range(10):  # the oldest are let go past `keep`
        other = tmp_path / f"other{i}.py"
        other.write_text(f"X = {i}\n")
        session._output_code(str(other), "kernelopt_test")
    assert len(session._modules) == 8
    assert session._output_code(str(path), "kernelopt_test") is not second
    with pytest.raises(WorkerError):
        session._output_code(str(tmp_path / "missing.py"), "kernelopt_test")


def test_float64_reference_reaches_the_models_own_float32_tensors():
    # KernelBench's L3/35 LSTM makes its initial state in forward without a dtype: in float64 the
    # reference raised "Input and hidden tensors are not the same dtype" (H200).
    p = load_problem(problem("float32_state.py"), "cpu")
    inputs = p.make_inputs(0)
    eager = run_forward(p, inputs)
    ref = float64_reference(p, inputs)
    assert torch.get_default_dtype() == torch.float32  # restored
    assert [r.dtype for r in ref] == [torch.float64]
    # float32 scratch filled in place: the only float32 step left, so close to float64 at 1e-6
    assert _max_abs_err(eager, ref) < 1e-4
    assert _max_abs_err(eager, ref) > 0  # a different computation, not eager's own numbers


def test_float64_reference_restores_the_default_dtype_when_the_model_raises():
    class Broken(torch.nn.Module):
        def forward(self, x):
            assert torch.get_default_dtype() == torch.float64
            raise RuntimeError("boom")

    p = load_problem(problem("good_small.py"), "cpu")
    p.model = Broken()
    with pytest.raises(RuntimeError, match="boom"):
        float64_reference(p, p.make_inputs(0))
    assert torch.get_default_dtype() == torch.float32


def test_fp32_peak_rate_from_the_device_properties():
    from kernelopt.worker.env import fp32_peak_gflops

    # H100 / H200 SXM: 132 SMs x 128 FMA lanes x 2 at 1980 MHz, the spec sheets' 67 TFLOP/s.
    assert fp32_peak_gflops(9, 0, 132, 1980000) == pytest.approx(66908.16)
    # A100: 108 SMs x 64 lanes x 2 at 1410 MHz, 19.5 TFLOP/s.
    assert fp32_peak_gflops(8, 0, 108, 1410000) == pytest.approx(19491.84)
    # An unknown capability or clock gives no rate (no compute floor), not a guess.
    assert fp32_peak_gflops(12, 0, 170, 2500000) is None
    assert fp32_peak_gflops(9, 0, 132, 0) is None


def test_env_states_how_the_vendor_libraries_are_configured():
    from kernelopt.worker.env import describe

    config = describe()["vendor_config"]
    assert config["float32_matmul_precision"] == torch.get_float32_matmul_precision()
    assert config["cudnn.benchmark"] is torch.backends.cudnn.benchmark
    assert config["preferred_blas_library"] == torch.backends.cuda.preferred_blas_library().name


def test_env_states_the_fp32_rate_only_with_a_gpu():
    from kernelopt.worker.env import describe, fp32_peak_gflops

    info = describe()
    if info.get("cuda_available"):
        props = torch.cuda.get_device_properties(0)
        expected = fp32_peak_gflops(props.major, props.minor, props.multi_processor_count,
                                    props.clock_rate)
        assert info.get("fp32_gflops") == expected
    else:
        assert "fp32_gflops" not in info


def test_launch_kernels_are_grouped_by_the_range_they_ran_in():
    """`time_launches` with `kernels`: each profiler range's kernels, its operators' included, in
    launch order; device-side copies of a range and ranges past the launches are not launches."""
    from types import SimpleNamespace

    from torch.autograd import DeviceType
    from torch.autograd.profiler_util import Kernel

    from kernelopt.worker.timing import _RANGE, group_kernels

    def event(name, start, kernels=(), children=(), device=DeviceType.CPU):
        return SimpleNamespace(name=name, device_type=device, time_range=SimpleNamespace(start=start),
                               kernels=list(kernels), cpu_children=list(children))

    # Launch 0: a Triton kernel attached to the range itself. Launch 1: aten::mm inside the range,
    # whose cuBLAS kernels are attached to two nested operators, the later one listed first.
    split = event("aten::mm", 12, [Kernel("splitKreduce_kernel", 0, 5.0)])
    gemm = event("aten::mm", 11, [Kernel("sm90_xmma_gemm_f32f32", 0, 450.0)])
    events = [
        event(f"{_RANGE}0", 1, [Kernel("triton_poi_fused_relu_0", 0, 100.0)]),
        event(f"{_RANGE}1", 10, children=[event("aten::addmm", 10, children=[split, gemm])]),
        event(f"{_RANGE}1", 10, [Kernel("ghost", 0, 1.0)], device=DeviceType.CUDA),
        event(f"{_RANGE}2", 20, [Kernel("after_the_last_launch", 0, 1.0)]),
        event(f"{_RANGE}x", 30, [Kernel("not_a_range", 0, 1.0)]),
        event("aten::empty", 0),
    ]
    grouped = group_kernels(events, 2)
    assert grouped == [[{"name": "triton_poi_fused_relu_0", "ms": 0.1}],
                       [{"name": "sm90_xmma_gemm_f32f32", "ms": 0.45},
                        {"name": "splitKreduce_kernel", "ms": 0.005}]]
    assert group_kernels([], 3) == [[], [], []]


def test_launch_ranges_nest_operators_in_a_real_profile():
    """The ranges `Marks` opens are what the profiler's event tree nests each launch's operators
    under (on the CPU: the operators, no kernels)."""
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile, record_function

    from kernelopt.worker.timing import _RANGE, group_kernels

    a = torch.randn(16, 16)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for i in range(2):
            with record_function(f"{_RANGE}{i}"):
                torch.mm(a, a)
    ranges = [e for e in prof.events() if e.name.startswith(_RANGE) and e.device_type == DeviceType.CPU]
    assert [e.name for e in ranges] == [f"{_RANGE}0", f"{_RANGE}1"]
    assert all(any(c.name == "aten::mm" for c in e.cpu_children) for e in ranges)
    assert group_kernels(prof.events(), 2) == [[], []]
