"""The stress seeds (worker/stress.py, problem.seed_state), the float64 comparison's elementwise
count and exact integer comparison (compare.py), the reading of a profiler trace for work on other
streams (streams.py) and G4's alternation of static inputs (replays.py), on CPU tensors: the logic
is the same on the GPU."""

import os
import sys
import types

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt.worker import compare as cmp  # noqa: E402
from kernelopt.worker import stress  # noqa: E402
from kernelopt.worker.problem import Problem, named_state, seed_state  # noqa: E402
from kernelopt.worker.replays import Alternation  # noqa: E402
from kernelopt.worker.streams import off_stream_work  # noqa: E402


def _draw():
    g = torch.Generator().manual_seed(5)
    return [torch.randn(64, 300, generator=g), torch.randint(0, 10, (64,), generator=g), 3]


def test_plain_seeds_and_the_redrawn_seed_leave_inputs_alone():
    for seed in (0, 1, 2, stress.REDRAWN):
        x = _draw()
        out = stress.transform_inputs(seed, x)
        assert all(a is b for a, b in zip(out, x))


def test_shifted_inputs_sit_far_from_zero_against_their_spread():
    x, idx, k = _draw()
    y, idx2, k2 = stress.transform_inputs(101, [x, idx, k])
    assert torch.equal(idx2, idx) and k2 == 3 and y.dtype == x.dtype
    assert float(y.mean()) > 100 * float(y.std())


def test_discrete_inputs_are_ties_and_zeros():
    y = stress.transform_inputs(102, _draw())[0]
    assert bool((y >= 0).all()) and bool((torch.remainder(y * 2, 1) == 0).all())
    assert int((y == 0).sum()) > y.numel() // 3 and torch.unique(y).numel() < 20


def test_nonfinite_inputs_hold_each_kind_and_are_drawn_again_alike():
    x = _draw()[0]
    a = stress.transform_inputs(103, [x])[0]
    b = stress.transform_inputs(103, [x.clone()])[0]
    assert int(torch.isnan(a).sum()) >= 1 and int(torch.isposinf(a).sum()) >= 1 and int(torch.isneginf(a).sum()) >= 1
    assert torch.equal(a.view(torch.int32), b.view(torch.int32))  # the same places: a seed is reproducible
    assert int((~torch.isfinite(a)).sum()) == max(3, x.numel() // 512)
    assert torch.equal(a[torch.isfinite(a)], x[torch.isfinite(a)])


def _norm_problem():
    model = torch.nn.Sequential(torch.nn.LayerNorm(16), torch.nn.BatchNorm1d(16))
    model.eval()
    return Problem(path="p.py", name="p", device="cpu", module=None, model=model)


def test_the_redrawn_seed_changes_every_floating_parameter_and_buffer_and_puts_them_back():
    problem = _norm_problem()
    before = {n: t.detach().clone() for n, t in named_state(problem).items()}
    cache: dict = {}
    with seed_state(problem, stress.REDRAWN, cache):
        during = {n: t.detach().clone() for n, t in named_state(problem).items()}
    after = named_state(problem)
    for name, value in before.items():
        assert torch.equal(after[name], value), name
        if value.is_floating_point():
            assert not torch.equal(during[name], value), name
        else:  # num_batches_tracked
            assert torch.equal(during[name], value), name
    assert bool((during["buffer 1.running_var"] >= 0).all())  # a variance stays one
    assert not torch.equal(during["parameter 0.weight"], torch.ones(16))
    with seed_state(problem, stress.REDRAWN, cache):  # the same values on every use
        again = {n: t.detach().clone() for n, t in named_state(problem).items()}
    assert all(torch.equal(again[n], during[n]) for n in during)
    with seed_state(problem, 0, cache):  # a plain seed leaves the model alone
        assert all(torch.equal(t, before[n]) for n, t in named_state(problem).items())


def test_integer_outputs_match_exactly_whatever_their_size():
    ref = torch.tensor([5000, 7, 123456], dtype=torch.int64)
    out = ref.clone()
    out[0] += 1  # within rtol 1e-3 of 5000, still another index
    assert cmp.compare(out, ref, 1e-3, 1e-3)["mismatched"] == 1
    assert cmp.compare(ref.clone(), ref, 1e-3, 1e-3)["mismatched"] == 0


def test_float64_comparisons_count_small_elements_and_match_nonfinite_alike():
    ref = torch.tensor([1e7, 2e-4, 5e-4, float("nan"), float("inf")], dtype=torch.float64)
    good = ref.float()
    flushed = good.clone()
    flushed[1:3] = 0
    assert cmp.max_abs_err([good], [ref]) < 1.0  # NaN against NaN and equal infinities count 0
    assert cmp.max_abs_err([flushed], [ref]) < 1.0  # the largest error hides the flushed ones
    assert cmp.rel_exceed([good], [ref]) == 0
    assert cmp.rel_exceed([flushed], [ref]) == 2
    lost = good.clone()
    lost[3] = 1.0  # a NaN that became a number
    assert cmp.rel_exceed([lost], [ref]) == 1 and cmp.max_abs_err([lost], [ref]) == float("inf")


def _event(name, stream, cat="kernel"):
    return {"ph": "X", "cat": cat, "name": name, "args": {"stream": stream}}


def test_a_trace_shows_work_on_other_streams_than_the_marker_kernel():
    home = [_event("at::cuda::spin_kernel(long)", 7), _event("_row_sum", 7), _event("Memcpy DtoD", 7, "gpu_memcpy")]
    assert off_stream_work({"traceEvents": home}) == (True, [])
    side = home + [_event("_row_sum", 13), {"ph": "X", "cat": "cpu_op", "name": "aten::sum", "args": {}}]
    assert off_stream_work({"traceEvents": side}) == (True, ["stream 13: _row_sum"])
    assert off_stream_work({"traceEvents": [_event("_row_sum", 13)]}) == (False, [])  # no marker: no verdict


def test_alternation_swaps_another_seeds_values_into_the_static_inputs_and_restores_them():
    weight = torch.randn(4)
    a, b = torch.randn(3, 4), torch.randn(3, 4)
    graph = types.SimpleNamespace(args_by_seed={0: [a, weight], 1: [b, weight], 101: [b + 1, weight]})
    cap = types.SimpleNamespace(inputs_by_seed={0: [a], 1: [b], 101: [b + 1]}, order=[0, 0], graphs=[graph])
    first = a.clone()
    alt = Alternation(cap, 0)
    assert alt.other == 1  # a plain seed, never a stress seed
    alt.turn(1)
    assert torch.equal(a, b) and graph.args_by_seed[0][1] is weight  # shared tensors stay as they are
    alt.turn(2)
    assert torch.equal(a, first)
    alt.load(1)
    alt.load(0)
    assert torch.equal(a, first)
    lone = types.SimpleNamespace(inputs_by_seed={0: [a]}, order=[0], graphs=[graph])
    assert Alternation(lone, 0).other is None


def test_a_copy_with_no_room_on_the_device_is_kept_in_host_memory(monkeypatch):
    from kernelopt.worker import replays

    class Full(torch.Tensor):
        def clone(self, *args, **kwargs):
            raise torch.cuda.OutOfMemoryError("no room")

    t = torch.randn(3, 4).as_subclass(Full)
    copy = replays._copy(t)
    assert copy.device.type == "cpu" and torch.equal(copy.as_subclass(torch.Tensor), t.as_subclass(torch.Tensor))
    a, b = torch.randn(3, 4), torch.randn(3, 4)
    graph = types.SimpleNamespace(args_by_seed={0: [a], 1: [b]})
    cap = types.SimpleNamespace(inputs_by_seed={0: [a], 1: [b]}, order=[0], graphs=[graph])
    assert Alternation(cap, 0).alternates
    monkeypatch.setattr(replays, "_copy", lambda x: x.to("meta"))  # a copy that is not on a's device
    alt = Alternation(cap, 0)
    first = a.clone()
    assert alt.other == 1 and alt.on_host and not alt.alternates
    alt.turn(1)  # the timed turns leave the static inputs alone
    assert torch.equal(a, first)
