"""The gates' measurements on the CPU: segment_capture, check_candidate (Triton's interpreter, in a
process of its own), static_check (compiles for sm_90 without a GPU), model_check (a fake output
code class), and the worker's exit after a CUDA error."""

import json
import os
import subprocess
import sys

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gate_driver import session_with_fake_capture  # noqa: E402

from kernelopt.worker import capture, gates  # noqa: E402
from kernelopt.worker.buffers import bits, place, poison, span, still_poisoned  # noqa: E402
from kernelopt.worker.capture import Capture, Graph  # noqa: E402
from kernelopt.worker.errors import WorkerError, failure  # noqa: E402
from kernelopt.worker.problem import load_problem  # noqa: E402
from kernelopt.worker.session import Session  # noqa: E402

CPU = os.path.join(ROOT, "tests", "candidates", "cpu")
STATIC = os.path.join(ROOT, "tests", "candidates", "static")
PROBLEMS = os.path.join(ROOT, "tests", "fixtures", "problems")
ENV = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))


# --- segment_capture ------------------------------------------------------------------------------

def test_segment_capture_copies_each_segments_io_per_seed(tmp_path):
    session, path = session_with_fake_capture(str(tmp_path))
    args0 = [a.clone() for a in session.capture.graphs[0].args_by_seed[0]]
    result = session.segment_capture({"graph": 0, "path": path, "segments": [0, 1]})
    seg0, seg1 = result["segments"]
    assert seg0["id"] == 0 and seg0["seeds"] == [0, 1] and seg0["in_place"] == []
    assert seg0["inputs"]["arg1_1"] == {"shape": [64], "stride": [1], "dtype": "float32", "device": "cpu"}
    assert seg0["outputs"] == {"buf0": {"shape": [16, 64], "stride": [80, 1], "dtype": "float32", "device": "cpu"}}
    assert seg1["in_place"] == ["arg2_1"] and set(seg1["inputs"]) == {"buf0", "arg2_1"}
    assert set(session.segments) == {0, 1}  # segment 7 was probed but not requested
    io = session.segments[1][0]
    assert io["in"]["buf0"].stride() == (80, 1)
    # "in" is a copy taken before the in-place update, "out" one taken after it.
    assert torch.equal(io["in"]["arg2_1"], args0[2])
    assert torch.equal(io["out"]["arg2_1"], args0[2] + (args0[0] * 2 + args0[1])[0])


def test_segment_capture_needs_a_capture():
    with pytest.raises(WorkerError, match="send `capture` first"):
        Session().segment_capture({"graph": 0, "path": "x", "segments": [0]})


def test_check_candidate_needs_the_engines_tolerance(tmp_path):
    """G2 counts elements outside the tolerance the engine sends; the worker has none of its own."""
    session, path = session_with_fake_capture(str(tmp_path))
    session.segment_capture({"graph": 0, "path": path, "segments": [0]})
    for missing in ("rtol", "atol"):
        req = {"segment": 0, "candidate": "never_loaded.py", "rtol": 1e-3, "atol": 1e-3}
        del req[missing]
        with pytest.raises(WorkerError, match=f"lacks '{missing}'"):
            session.check_candidate(req)


# --- check_candidate (interpreter) ----------------------------------------------------------------

@pytest.fixture(scope="module")
def checks(tmp_path_factory):
    work = tmp_path_factory.mktemp("gates")
    candidates = sorted(os.path.join(CPU, f) for f in os.listdir(CPU) if f.endswith(".py"))
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "python", "gate_driver.py"), str(work),
                          *candidates], capture_output=True, text=True, env=ENV, timeout=300, check=True)
    return json.loads(out.stdout)["checks"]


def seeds_of(checks, name):
    result = checks[name]
    assert result["load_error"] is None, result
    assert [s["seed"] for s in result["seeds"]] == [0, 1]
    return result["seeds"]


CLEAN = {"error": None, "elements": 1024, "mismatched": 0, "unwritten": 0, "nan_mismatch": 0, "inf_mismatch": 0,
         "out_of_bounds": 0, "inputs_mutated": [], "replaced_outputs": [], "side_stream": False,
         "deterministic": True, "max_abs_err": 0.0, "max_rel_err": 0.0}


@pytest.mark.parametrize("name, expected", [
    ("seg0_correct", {}),
    ("seg0_partial", {"mismatched": 512, "unwritten": 512, "nan_mismatch": 512}),
    ("seg0_out_of_bounds", {"out_of_bounds": 64}),
    ("seg0_mutates_input", {"inputs_mutated": ["arg0_1"]}),
    ("seg0_replaces_output", {"replaced_outputs": ["buf0"], "mismatched": 1024, "unwritten": 1024,
                              "nan_mismatch": 1024}),
    ("seg0_side_stream", {"side_stream": True}),
    ("seg1_inplace", {"elements": 64}),
])
def test_check_candidate_counts(checks, name, expected):
    for seed in seeds_of(checks, name):
        for key, value in {**CLEAN, **expected}.items():
            assert seed[key] == value, (name, key, seed)
        assert seed["seconds"] > 0
    assert checks[name]["worker_exiting"] is False


def test_check_candidate_wrong_formula_and_nondeterminism(checks):
    for seed in seeds_of(checks, "seg0_wrong_formula"):
        assert seed["mismatched"] == 1024 and seed["unwritten"] == 0
        assert seed["max_abs_err"] == pytest.approx(1.0, abs=1e-5)
        assert seed["outputs"]["buf0"]["mismatched"] == 1024
    for seed in seeds_of(checks, "seg0_nondeterministic"):
        assert seed["deterministic"] is False and seed["mismatched"] == 0
        assert 0 < seed["max_abs_err"] < 2e-6  # 1e-6 noise plus float32 rounding
    assert seeds_of(checks, "seg0_side_stream")[0]["side_stream_detail"] == ["torch.cuda.Stream()"]


def test_check_candidate_reports_exceptions_and_exits_after_cuda_errors(checks):
    raised = checks["seg0_raises"]
    assert [s["error"] for s in raised["seeds"]] == [{"kind": "exception", "message": "ValueError: boom"}] * 2
    assert raised["fatal"] is None and "max_abs_err" not in raised["seeds"][0]
    cuda = checks["seg0_cuda_error"]
    assert [s["error"]["kind"] for s in cuda["seeds"]] == ["cuda"]  # stops at the first seed
    assert cuda["worker_exiting"] is True and "illegal memory access" in cuda["fatal"]
    assert checks["seg0_import_error"]["load_error"]["message"].startswith("ModuleNotFoundError")


def test_worker_answers_then_exits_after_a_cuda_error():
    script = ("import sys\nfrom kernelopt.worker import session, __main__ as m\n"
              "def boom(self, req):\n    self.fatal = 'CUDA error: an illegal memory access'\n"
              "    return {'seeds': []}\n"
              "session.OPS['boom'] = boom\nsys.exit(m.main())\n")
    text = '{"id": 1, "op": "boom"}\n{"id": 2, "op": "hello"}\n'
    out = subprocess.run([sys.executable, "-c", script], input=text, capture_output=True, text=True, env=ENV,
                         timeout=60, check=False)
    assert out.returncode == 3
    assert [json.loads(line)["id"] for line in out.stdout.splitlines()] == [1]
    assert "exiting after a CUDA error" in out.stderr


def test_failure_kinds():
    assert failure(ValueError("x")) == {"kind": "exception", "message": "ValueError: x"}
    assert failure(RuntimeError("Triton Error [CUDA]: misaligned address"))["kind"] == "cuda"
    assert failure(RuntimeError("CUDA out of memory. Tried to allocate 2 GiB"))["kind"] == "oom"


# --- buffers --------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int32,
                                   torch.int64, torch.bool])
def test_poison_is_seen_where_unwritten_and_guards_catch_writes(dtype):
    p = place((4, 5), (8, 1), dtype, "cpu", guard=16)
    poison(p)
    ref = torch.zeros(4, 5, dtype=dtype)
    assert int(still_poisoned(p.tensor, ref).sum()) == 20
    p.tensor[:2].copy_(ref[:2])
    assert int(still_poisoned(p.tensor, ref).sum()) == 10
    assert p.guard_changes() == 0
    p.flat[span((4, 5), (8, 1)) + 16 + 3] = p.flat[0]  # one element of the trailing band
    p.flat[15] = ref[0, 0]
    assert p.guard_changes() == 2


def test_the_float_poison_is_not_a_nan_arithmetic_makes():
    p = place((8,), (1,), torch.float32, "cpu", guard=0)
    poison(p)
    assert torch.isnan(p.tensor).all()
    computed = torch.full((8,), float("nan")) * 2
    assert not bits(computed).eq(bits(p.tensor)).any()


# --- static_check (sm_90, no GPU) -----------------------------------------------------------------

VECTOR = {"inputs": {"x": {"shape": [1024], "stride": [1], "dtype": "float32"}},
          "outputs": {"out": {"shape": [1024], "stride": [1], "dtype": "float32"}}}
SEG0 = {"inputs": {"arg0_1": {"shape": [16, 64], "stride": [64, 1], "dtype": "float32"},
                   "arg1_1": {"shape": [64], "stride": [1], "dtype": "float32"}},
        "outputs": {"buf0": {"shape": [16, 64], "stride": [80, 1], "dtype": "float32"}}}


def static(path, interface):
    return Session().static_check({"candidate": path, "interface": interface, "arch": 90})


def test_static_check_compiles_a_good_kernel_for_sm90():
    result = static(os.path.join(CPU, "seg0_correct.py"), SEG0)
    assert result["loaded"] and result["has_run"] and result["run_error"] is None
    [k] = result["kernels"]
    assert k["name"] == "_k" and k["compiled"] and k["error"] is None
    assert k["shared_bytes"] == 0 and k["num_warps"] == 4 and k["constexprs"] == {"BLOCK": 64}
    assert k["grid"] == [16] and k["launches"] == 1
    assert k["signature"] == {"x_ptr": "*fp32", "b_ptr": "*fp32", "out_ptr": "*fp32", "n_cols": "i32",
                              "x_stride": "i32", "out_stride": "i32", "BLOCK": "constexpr"}
    assert k["registers"] > 0 and k["spill_stores"] == 0


def test_static_check_reports_a_kernel_that_does_not_compile():
    [k] = static(os.path.join(STATIC, "type_error.py"), VECTOR)["kernels"]
    assert k["compiled"] is False and k["shared_bytes"] is None
    assert "arange's arguments must be of type tl.constexpr" in k["error"]


def test_static_check_reports_the_shared_memory_of_a_kernel_too_big_for_the_gpu():
    interface = {"inputs": {"a": {"shape": [256, 256], "stride": [256, 1], "dtype": "float16"},
                            "b": {"shape": [256, 256], "stride": [256, 1], "dtype": "float16"}},
                 "outputs": {"c": {"shape": [256, 256], "stride": [256, 1], "dtype": "float32"}}}
    [k] = static(os.path.join(STATIC, "big_shared.py"), interface)["kernels"]
    assert k["compiled"] and k["shared_bytes"] > 232448  # the H200's per-block limit: the engine judges
    assert k["num_warps"] == 8 and k["num_stages"] == 4


def test_static_check_compiles_every_autotune_config():
    kernels = static(os.path.join(STATIC, "autotuned.py"), VECTOR)["kernels"]
    assert [(k["constexprs"]["BLOCK"], k["num_warps"], k["grid"]) for k in kernels] == [(128, 2, [8]),
                                                                                        (1024, 8, [1])]
    assert all(k["compiled"] for k in kernels)


def test_static_check_compiles_every_config_of_an_inductor_style_kernel():
    kernels = static(os.path.join(STATIC, "inductor_style.py"), {
        "inputs": {"x": {"shape": [1048576], "stride": [1], "dtype": "float32"}},
        "outputs": {"out": {"shape": [1048576], "stride": [1], "dtype": "float32"}}})["kernels"]
    assert len(kernels) >= 1 and all(k["compiled"] and k["name"] == "triton_poi_fused_relu_0" for k in kernels)
    assert all("XBLOCK" in k["constexprs"] and k["signature"]["xnumel"] == "i32" for k in kernels)


def test_static_check_reports_import_interface_and_run_errors():
    syntax = static(os.path.join(STATIC, "syntax_error.py"), VECTOR)
    assert not syntax["loaded"] and syntax["import_error_kind"] == "syntax"
    assert syntax["import_error"].startswith("SyntaxError: ") and "line 4" in syntax["import_error"]
    one = static(os.path.join(STATIC, "one_parameter.py"), VECTOR)
    assert one["loaded"] and not one["has_run"] and one["run_params"] == ["inputs"]
    item = static(os.path.join(STATIC, "uses_item.py"), VECTOR)
    assert item["kernels"] == [] and "meta tensors" in item["run_error"]
    assert item["run_error_kind"] == "exception"


def test_static_check_refuses_the_interpreter(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    with pytest.raises(WorkerError, match="TRITON_INTERPRET"):
        static(os.path.join(CPU, "seg0_correct.py"), SEG0)


# --- model_check with a fake output code class; time_pair needs a GPU ----------------------------

class FakeCompiledGraph:
    """Stands for CompiledFxGraph: calling it runs its module's `call`."""

    def __init__(self, module):
        self.module = module

    def __call__(self, inputs):
        return self.module.call(inputs)


BASELINE = ("import torch\nCALLS = [0]\ndef call(args):\n    CALLS[0] += 1\n    (x,) = args\n"
            "    args.clear()\n    return (torch.softmax(x * 0.5, -1),)\n")
GOOD = ("import torch\ndef call(args):\n    (x,) = args\n    args.clear()\n"
        "    e = torch.exp(x * 0.5 - (x * 0.5).amax(-1, True))\n    return (e / e.sum(-1, keepdim=True),)\n")
WRONG = "import torch\ndef call(args):\n    (x,) = args\n    args.clear()\n    return (x * 0.5,)\n"


def fake_model_session(tmp_path, monkeypatch, module_name, **candidates):
    """A Session whose capture is BASELINE's fake compiled graph on good_small.py (seeds 0 and 1),
    and the files of BASELINE and of each named candidate text."""
    from kernelopt.worker.session import _load_module

    monkeypatch.setattr(gates, "_output_code_class", lambda: FakeCompiledGraph)
    files = {}
    for name, text in (("baseline", BASELINE), *candidates.items()):
        files[name] = tmp_path / f"{name}.py"
        files[name].write_text(text)
    graph = FakeCompiledGraph(_load_module(str(files["baseline"]), module_name, {}))
    session = Session()
    session.problem = load_problem(os.path.join(PROBLEMS, "good_small.py"), "cpu")
    inputs = {s: session.problem.make_inputs(s) for s in (0, 1)}
    session.capture = Capture(graphs=[Graph(index=0, source=BASELINE, path=str(files["baseline"]))], order=[0],
                              compiled=lambda x: graph([x]), inputs_by_seed=inputs, graph_ids={id(graph): 0})
    return session, graph, files, inputs


KNOB_SEEN = ("import threading\nimport torch\nSEEN = []\ndef call(args):\n    (x,) = args\n    args.clear()\n"
             "    SEEN.append((torch.backends.cudnn.benchmark, threading.current_thread().name))\n"
             "    return (torch.softmax(x * 0.5, -1),)\n")


def test_model_check_runs_the_recomposed_forward_alone_under_the_vendor_knobs(tmp_path, monkeypatch):
    session, graph, files, inputs = fake_model_session(tmp_path, monkeypatch, "fake_baseline_knob", seen=KNOB_SEEN)
    [plain] = session.model_check({"recomposed": {"0": str(files["seen"])}, "seeds": [0]})["seeds"]
    [knob] = session.model_check({"recomposed": {"0": str(files["seen"])}, "seeds": [0],
                                  "vendor": ["cudnn_benchmark"]})["seeds"]
    assert plain["error"] is None and knob["error"] is None and knob["tol_vs_eager"] < 1e-6
    seen = session._output_code(str(files["seen"]), "unused").SEEN
    assert [on for on, _ in seen] == [False, True]  # the baseline's forward runs the graph's own code
    assert seen[1][1].startswith("kernelopt-vendor") and torch.backends.cudnn.benchmark is False
    with pytest.raises(WorkerError, match="transforms the model"):
        session.model_check({"recomposed": {}, "seeds": [0], "vendor": ["channels_last"]})


def test_model_check_redirects_graphs_and_measures(tmp_path, monkeypatch):
    session, graph, files, inputs = fake_model_session(tmp_path, monkeypatch, "fake_baseline",
                                                        good=GOOD, wrong=WRONG)
    good = session.model_check({"recomposed": {"0": str(files["good"])}, "seeds": [0, 1]})
    assert [s["seed"] for s in good["seeds"]] == [0, 1] and good["worker_exiting"] is False
    for s in good["seeds"]:
        assert s["error"] is None and s["nonfinite_match"] and s["baseline_nonfinite_match"]
        assert s["tol_vs_eager"] < 1e-6 and s["baseline_tol_vs_eager"] < 1e-6
        assert s["max_abs_vs_eager"] < 1e-6 and s["candidate_err_f64"] < 1e-6 and s["baseline_err_f64"] < 1e-6
    [wrong] = session.model_check({"recomposed": {"0": str(files["wrong"])}, "seeds": [0]})["seeds"]
    assert wrong["tol_vs_eager"] > 0.1 and wrong["max_abs_vs_eager"] > 0.1 and wrong["candidate_err_f64"] > 0.1
    assert wrong["baseline_err_f64"] < 1e-6
    files["raises"] = tmp_path / "raises.py"
    files["raises"].write_text("def call(args):\n    raise RuntimeError('recomposed call failed')\n")
    [raised] = session.model_check({"recomposed": {"0": str(files["raises"])}, "seeds": [1]})["seeds"]
    assert raised["error"] == {"kind": "exception", "message": "RuntimeError: recomposed call failed"}
    assert raised["tol_vs_eager"] == float("inf") and raised["nonfinite_match"] is False
    assert raised["candidate_err_f64"] == float("inf")
    # The baseline's own numbers are measured once a seed, not again for every candidate.
    assert graph.module.CALLS == [2] and raised["baseline_err_f64"] == good["seeds"][1]["baseline_err_f64"]
    assert FakeCompiledGraph.__call__ is not None and graph([inputs[0][0]])[0].shape == (16, 64)


MUTATES = ("import torch\ndef call(args):\n    (x,) = args\n    args.clear()\n"
           "    out = torch.softmax(x * 0.5, -1)\n    x[0, 0] = 0.0\n    return (out,)\n")
IN_PLACE = ("import torch\ndef call(args):\n    (x,) = args\n    args.clear()\n"
            "    return (x.copy_(torch.softmax(x * 0.5, -1)),)\n")


def test_model_check_reports_side_effects_beside_the_compilers(tmp_path, monkeypatch):
    """What a forward pass changed besides its outputs, and which outputs share an input's storage,
    for the recomposed model and for the compiled one: values right, effects not."""
    session, _, files, _ = fake_model_session(tmp_path, monkeypatch, "fake_effects", good=GOOD,
                                               mutates=MUTATES, in_place=IN_PLACE)
    [good] = session.model_check({"recomposed": {"0": str(files["good"])}, "seeds": [0]})["seeds"]
    assert good["state_changed"] == [] and good["baseline_state_changed"] == []
    assert good["outputs_sharing_inputs"] == [] and good["baseline_outputs_sharing_inputs"] == []
    [mutates] = session.model_check({"recomposed": {"0": str(files["mutates"])}, "seeds": [0]})["seeds"]
    assert mutates["tol_vs_eager"] < 1e-6 and mutates["state_changed"] == ["input 0"]
    [in_place] = session.model_check({"recomposed": {"0": str(files["in_place"])}, "seeds": [1]})["seeds"]
    assert in_place["tol_vs_eager"] < 1e-6
    assert in_place["state_changed"] == ["input 0"] and in_place["outputs_sharing_inputs"] == [0]
    assert in_place["baseline_outputs_sharing_inputs"] == []


def test_model_check_puts_back_what_a_candidate_changed(tmp_path, monkeypatch):
    """Inputs too large to keep on the host are drawn again from the seed and checked against
    their first digest; when they cannot be put back, the worker says so and exits after answering
    (a fresh one captures again)."""
    monkeypatch.setattr(gates, "_HOST_INPUTS_LIMIT", 0)
    session, _, files, inputs = fake_model_session(tmp_path, monkeypatch, "fake_restore", good=GOOD,
                                                    mutates=MUTATES)
    first = inputs[0][0].clone()
    [mutates] = session.model_check({"recomposed": {"0": str(files["mutates"])}, "seeds": [0]})["seeds"]
    assert mutates["state_changed"] == ["input 0"] and "state_not_restored" not in mutates
    assert torch.equal(inputs[0][0], first) and session.fatal is None
    [good] = session.model_check({"recomposed": {"0": str(files["good"])}, "seeds": [0]})["seeds"]
    assert good["tol_vs_eager"] < 1e-6 and good["state_changed"] == []
    monkeypatch.setattr(session.problem, "make_inputs", lambda seed: [torch.zeros_like(first)])
    answer = session.model_check({"recomposed": {"0": str(files["mutates"])}, "seeds": [0]})
    assert answer["seeds"][0]["state_not_restored"] == ["input 0"] and answer["worker_exiting"] is True


def test_model_check_with_no_replacement_is_the_compiled_models_own_check(tmp_path, monkeypatch):
    """G2's deferral asks `model_check` with an empty `recomposed`: the compiled model against eager,
    as G3 measures it. A baseline that misses eager at 1e-4 (here a softmax of x * 0.55 for one of
    x * 0.5) says so; the exact one does not."""
    from kernelopt.worker.session import _load_module

    monkeypatch.setattr(gates, "_output_code_class", lambda: FakeCompiledGraph)
    for label, text, close in (("exact", BASELINE, True),
                               ("off", BASELINE.replace("x * 0.5", "x * 0.55"), False)):
        path = tmp_path / f"{label}.py"
        path.write_text(text)
        graph = FakeCompiledGraph(_load_module(str(path), f"fake_{label}", {}))
        session = Session()
        session.problem = load_problem(os.path.join(PROBLEMS, "good_small.py"), "cpu")
        inputs = {s: session.problem.make_inputs(s) for s in (0, 1)}
        session.capture = Capture(graphs=[Graph(index=0, source=text, path=str(path))], order=[0],
                                  compiled=lambda x, g=graph: g([x]), inputs_by_seed=inputs,
                                  graph_ids={id(graph): 0})
        answer = session.model_check({"recomposed": {}, "seeds": [0, 1]})
        assert [s["seed"] for s in answer["seeds"]] == [0, 1] and answer["worker_exiting"] is False
        for s in answer["seeds"]:
            assert s["error"] is None and s["baseline_nonfinite_match"] and s["nonfinite_match"]
            assert (s["baseline_tol_vs_eager"] <= 1e-4) is close and (s["tol_vs_eager"] <= 1e-4) is close
            assert s["tol_vs_eager"] == s["baseline_tol_vs_eager"]
            assert s["candidate_err_f64"] == s["baseline_err_f64"]
            assert (s["baseline_max_abs_vs_eager"] < 1e-6) is close


def test_model_check_without_a_float64_reference_says_why(tmp_path, monkeypatch):
    """A model that does not run in float64 leaves G3 without its fallback: the numbers against
    float64 are null and `float64_error` says why (the engine then fails a candidate off from eager);
    eager is still compared, and the float64 run is not tried again for the next seed."""
    tries = []

    def no_float64(problem, inputs):
        tries.append(1)
        raise RuntimeError("Input and hidden tensors are not the same dtype")

    monkeypatch.setattr(capture, "float64_reference", no_float64)
    session, _, files, _ = fake_model_session(tmp_path, monkeypatch, "fake_baseline_nof64", wrong=WRONG)
    seeds = session.model_check({"recomposed": {"0": str(files["wrong"])}, "seeds": [0, 1]})["seeds"]
    for s in seeds:
        assert s["error"] is None and s["tol_vs_eager"] > 1e-4 and s["max_abs_vs_eager"] > 0.1
        assert s["candidate_err_f64"] is None and s["baseline_err_f64"] is None
        assert s["float64_error"] == "RuntimeError: Input and hidden tensors are not the same dtype"
    assert tries == [1]


def test_capture_order_mirrors_its_turns():
    from kernelopt.worker.gates import capture_order

    assert capture_order(1) == ["b", "c"]
    assert capture_order(3) == ["b", "c", "c", "b", "b", "c"]
    order = capture_order(4)
    assert order.count("b") == order.count("c") == 4
    # neither side is always captured first: each position of a turn goes to both sides
    assert {order[0], order[2], order[4], order[6]} == {"b", "c"}


def test_pool_instances_keeps_the_order_samples_were_taken_in():
    from kernelopt.worker.gates import pool_instances

    assert pool_instances([[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]) == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert pool_instances([[7.0]]) == [7.0]


def test_time_pair_needs_a_gpu():
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(WorkerError) as err:
        Session().time_pair({"recomposed": {}})
    assert err.value.tag == "kernelopt.nogpu"


def test_g2_sees_writes_into_the_tensors_it_never_hands_over():
    """A candidate that finds the reference outputs (here: is given them by the test) and writes
    its own wrong result there too would pass the value checks; the digests of what the worker
    holds catch it. A candidate that behaves passes clean."""
    from kernelopt.worker.harness import Segment, check_seed

    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    seg = Segment({"in": {"arg0_1": x}, "out": {"buf0": x.sum(1)}})

    class Honest:
        @staticmethod
        def run(inputs, outputs):
            outputs["buf0"].copy_(inputs["arg0_1"].sum(1))

    class Forger:
        @staticmethod
        def run(inputs, outputs):
            outputs["buf0"].fill_(7.0)
            seg.outs["buf0"].fill_(7.0)  # the reference made to agree

    honest = check_seed(Honest, seg, 1e-3, 1e-3, 16)
    assert honest["stray_writes"] == [] and honest["mismatched"] == 0
    forged = check_seed(Forger, seg, 1e-3, 1e-3, 16)
    assert forged["mismatched"] == 0 and forged["stray_writes"] == ["out buf0"]
