"""kernelopt.load on the CPU of a folder written before runtime.json existed: an optimized folder
whose graph module is Inductor's own output code (compiled here for the CPU) with a counting
wrapper; the loaded callable must say that nothing is checked, run that module under
torch.compile (routed to it, with Inductor's class left alone) and give the eager result."""

import json
import os
import shutil
import sys

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Under KERNELOPT_WHEEL_TESTS the installed package is the one tested (scripts/test.sh wheel-test).
if not os.environ.get("KERNELOPT_WHEEL_TESTS"):
    sys.path.insert(0, os.path.join(ROOT, "python"))

import kernelopt  # noqa: E402
from kernelopt.worker.problem import load_problem, run_forward  # noqa: E402

PROBLEM = os.path.join(ROOT, "tests", "fixtures", "problems", "good_small.py")

COUNTER = """

KO_CALLS = []
_ko_inductor_call = call


def call(args):
    KO_CALLS.append(len(args))
    return _ko_inductor_call(args)
"""


def test_load_runs_the_folders_graph_modules(tmp_path):
    from torch._inductor.utils import run_and_get_code

    problem = load_problem(PROBLEM, "cpu")
    inputs = problem.make_inputs(0)
    torch._dynamo.reset()
    compiled = torch.compile(problem.model)
    with torch.no_grad():
        _, sources = run_and_get_code(compiled, *inputs)
    assert len(sources) == 1
    folder = tmp_path / "optimized"
    folder.mkdir()
    shutil.copy(PROBLEM, folder / "problem.py")
    (folder / "graph_0.py").write_text(sources[0] + COUNTER)
    (folder / "manifest.json").write_text(json.dumps(
        {"schema": "kernelopt.optimized/1", "problem": "problem.py", "mode": "default",
         "graphs": ["graph_0.py"]}))
    torch._dynamo.reset()
    from torch._inductor.output_code import CompiledFxGraph

    before = CompiledFxGraph.__call__
    with pytest.warns(RuntimeWarning, match="has no runtime.json"):
        model = kernelopt.load(str(folder), device="cpu")
    out = model(*inputs)
    assert CompiledFxGraph.__call__ is before
    expected = run_forward(problem, inputs)[0]
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-6)
    module = model.graphs[0]
    assert module.KO_CALLS == [1]  # our module ran, with the one graph input
    model(*problem.make_inputs(1))
    assert module.KO_CALLS == [1, 1]


def test_load_refuses_a_folder_that_is_not_an_optimized_module(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps({"schema": "something/else"}))
    with pytest.raises(ValueError, match="not a kernelopt optimized module"):
        kernelopt.load(str(tmp_path), device="cpu")
