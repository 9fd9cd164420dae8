"""The vendor knobs on the CPU: which knobs apply to which models (a convolution, a Linear followed
by an activation, elementwise work alone), the settings each knob changes only inside `apply()`
and restores on exit and on an exception, the precision rule (no knob touches TF32 or the float32
matmul precision, and one that tries is refused), the fused-epilogue rewrite's outputs against the
original model's, the measuring helpers' statistics and G3 verdict, and the probe script's
command line (help, a missing problem file, no GPU)."""

import contextlib
import json
import os
import subprocess
import sys

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt.vendor import KNOBS, Knob, PrecisionChanged, knob_named, precision_settings  # noqa: E402
from kernelopt.vendor.knobs import library_settings  # noqa: E402
from kernelopt.vendor.measure import judge, ratio_interval  # noqa: E402

SCRIPT = os.path.join(ROOT, "scripts", "gpu", "vendor_probe.py")
EXAMPLE = os.path.join(ROOT, "examples", "linear_bias_gelu.py")


class ConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3)

    def forward(self, x):
        return torch.relu(self.conv(x))


class LinearAct(torch.nn.Module):
    def __init__(self, act):
        super().__init__()
        self.linear = torch.nn.Linear(16, 32)
        self.act = act

    def forward(self, x):
        return self.act(self.linear(x))


class FunctionalMatmul(torch.nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b) * 2


class Elementwise(torch.nn.Module):
    def forward(self, x):
        return torch.sigmoid(x) * 2 + 1


def applying(model, inputs):
    return {k.name for k in KNOBS if k.applies(model, inputs)}


def test_applicability_follows_the_calls_the_model_makes():
    assert applying(ConvNet(), [torch.randn(2, 3, 8, 8)]) == {"cudnn_benchmark", "channels_last"}
    assert applying(LinearAct(torch.nn.GELU(approximate="tanh")), [torch.randn(4, 16)]) == {
        "cublaslt", "addmm_epilogue", "workspace"}
    assert applying(LinearAct(torch.nn.ReLU()), [torch.randn(4, 16)]) >= {"addmm_epilogue"}
    # A functional product counts as much as a module: the operators are recorded, not the modules.
    assert applying(FunctionalMatmul(), [torch.randn(4, 8), torch.randn(8, 4)]) == {"cublaslt", "workspace"}
    assert applying(Elementwise(), [torch.randn(64)]) == set()


def test_exact_gelu_is_not_fused_and_says_why():
    verdict = knob_named("addmm_epilogue").applies(LinearAct(torch.nn.GELU()), [torch.randn(4, 16)])
    assert not verdict and "tanh" in verdict.reason and "erf" in verdict.reason
    verdict = knob_named("channels_last").applies(Elementwise(), [torch.randn(4)])
    assert not verdict and verdict.reason == "no convolution"


def test_a_setting_the_user_already_chose_is_not_a_knob(monkeypatch):
    monkeypatch.setattr(torch.backends.cudnn, "benchmark", True)
    verdict = knob_named("cudnn_benchmark").applies(ConvNet(), [torch.randn(2, 3, 8, 8)])
    assert not verdict and "already" in verdict.reason


@pytest.mark.parametrize("knob", [k for k in KNOBS if k.in_process], ids=lambda k: k.name)
def test_apply_restores_every_setting_on_exit_and_on_an_exception(knob):
    before = library_settings()
    with knob.apply():
        inside = library_settings()
    assert library_settings() == before
    with pytest.raises(ValueError):
        with knob.apply():
            raise ValueError("a failing model call")
    assert library_settings() == before
    changed = {k for k in before if before[k] != inside[k]}
    expected = {"cudnn_benchmark": {"cudnn.benchmark"}, "cublaslt": {"preferred_blas_library"}}
    assert changed == expected.get(knob.name, set())


def test_no_knob_touches_precision_when_the_user_keeps_float32_highest():
    torch.set_float32_matmul_precision("highest")
    matmul_tf32, cudnn_tf32 = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    assert not matmul_tf32
    for knob in (k for k in KNOBS if k.in_process):
        with knob.apply():
            assert torch.get_float32_matmul_precision() == "highest"
            assert torch.backends.cuda.matmul.allow_tf32 == matmul_tf32
            assert torch.backends.cudnn.allow_tf32 == cudnn_tf32
    assert (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32) == (matmul_tf32, cudnn_tf32)


def test_a_knob_that_would_enable_tf32_is_refused_and_undone():
    class Sneaky(Knob):
        name = "sneaky"

        @contextlib.contextmanager
        def _settings(self):
            previous = torch.backends.cuda.matmul.allow_tf32
            torch.backends.cuda.matmul.allow_tf32 = True
            try:
                yield
            finally:
                torch.backends.cuda.matmul.allow_tf32 = previous

    before = precision_settings()
    with pytest.raises(PrecisionChanged, match="matmul.allow_tf32"):
        with Sneaky().apply():
            pytest.fail("the body must not run under a changed precision")
    assert precision_settings() == before


def test_the_workspace_knob_runs_only_where_its_environment_was_set_at_start(monkeypatch):
    knob = knob_named("workspace")
    for name in knob.env():
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(RuntimeError, match="before CUDA"):
        with knob.apply():
            pass
    for name, value in knob.env().items():
        monkeypatch.setenv(name, value)
    with knob.apply():
        pass


@pytest.mark.parametrize("act", [torch.nn.ReLU(), torch.nn.GELU(approximate="tanh")], ids=["relu", "gelu_tanh"])
def test_epilogue_rewrite_computes_what_the_model_computed(act):
    torch.manual_seed(0)
    model = LinearAct(act)
    x = torch.randn(3, 5, 16)  # a leading batch of rank 2: flattened for the product, restored after
    fused, inputs = knob_named("addmm_epilogue").transform(model, [x])
    assert "linear_act" in fused.code and fused is not model
    with torch.no_grad():
        torch.testing.assert_close(fused(*inputs), model(x), rtol=1e-6, atol=1e-6)
        compiled = torch.compile(fused, backend="aot_eager")  # the op survives Dynamo and AOT
        torch.testing.assert_close(compiled(*inputs), model(x), rtol=1e-6, atol=1e-6)


def test_channels_last_transform_changes_layout_not_values():
    model, x = ConvNet(), torch.randn(2, 3, 8, 8)
    cl_model, (cl_x,) = knob_named("channels_last").transform(model, [x])
    assert cl_x.is_contiguous(memory_format=torch.channels_last)
    assert cl_model.conv.weight.is_contiguous(memory_format=torch.channels_last)
    assert model.conv.weight.is_contiguous()  # the original is left alone
    with torch.no_grad():
        torch.testing.assert_close(cl_model(cl_x), model(x))


def test_ratio_interval_and_g3_verdict():
    ratio, lo, hi = ratio_interval([2.0, 2.1, 1.9, 2.0], [1.0, 1.05, 0.95, 1.0])
    assert ratio == pytest.approx(2.0) and lo <= ratio <= hi
    close = {"tol": 5e-5, "nonfinite_match": True, "err64": 1e-3}
    assert judge(close, {"err64": 1e-7})["pass"]
    loose = {"tol": 1e-3, "nonfinite_match": True, "err64": 5e-6}
    assert judge(loose, {"err64": 1e-6})["pass"] and "float64" in judge(loose, {"err64": 1e-6})["by"]
    assert not judge(loose, {"err64": 1e-7})["pass"]
    assert not judge(dict(loose, err64=None), {"err64": 1e-6})["pass"]


def run_script(*args, **kw):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=120,
                          env=env, **kw)


def test_script_help_names_its_options():
    done = run_script("--help")
    assert done.returncode == 0
    for option in ("--problems", "--out", "--samples", "--warmup", "--knobs", "--timeout"):
        assert option in done.stdout


def test_script_missing_problem_file_is_a_clear_error(tmp_path):
    done = run_script("--problems", str(tmp_path / "nope.py"), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "no such problem file" in done.stderr and "nope.py" in done.stderr


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
def test_script_without_a_gpu_says_so(tmp_path):
    done = run_script("--problems", EXAMPLE, "--out", str(tmp_path / "out"))
    assert done.returncode == 3 and "no CUDA GPU" in done.stderr


def test_script_detection_child_reports_the_example_verdicts(tmp_path):
    """The child that detects applicability, run on the CPU on a small copy of the example."""
    small = tmp_path / "small.py"
    small.write_text(open(EXAMPLE).read().replace("BATCH = 8192", "BATCH = 8")
                     .replace("IN_FEATURES = 4096", "IN_FEATURES = 16").replace("OUT_FEATURES = 4096", "OUT_FEATURES = 8"))
    result = tmp_path / "r.json"
    done = run_script("--child", "detect", "--problem", str(small), "--result", str(result), "--device", "cpu")
    assert done.returncode == 0, done.stderr
    verdicts = json.loads(result.read_text())["verdicts"]
    assert {k for k, v in verdicts.items() if v["applies"]} == {"cublaslt", "addmm_epilogue", "workspace"}
    assert verdicts["cudnn_benchmark"]["reason"] == "no convolution"
