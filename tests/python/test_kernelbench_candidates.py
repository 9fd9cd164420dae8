"""The hand-written KernelBench candidates compute what PyTorch computes, on small shapes, under
Triton's interpreter (a subprocess, so TRITON_INTERPRET is set before triton is imported)."""

import os

import pytest
from interpreted import ROOT, run_interpreted

MAX_POOL = """
import importlib.util, torch
spec = importlib.util.spec_from_file_location("c", {path!r})
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
for shape in [(2, 3, 700), (1, 5, 64), (3, 1, 1025)]:
    x = torch.randn(*shape)
    ref = torch.nn.functional.max_pool1d(x, m.KERNEL_SIZE, m.STRIDE, m.PADDING, m.DILATION)
    # Inductor's buffer is (batch, features, 1, length): MaxPool1d lowers to a 2D pool.
    out4 = torch.full(ref.shape[:-1] + (1,) + ref.shape[-1:], float("nan"))
    m.run({{"arg0_1": x}}, {{"buf0": out4}})
    out = out4.squeeze(-2)
    assert not torch.isnan(out).any(), shape
    assert torch.equal(out, ref), (shape, (out - ref).abs().max())
print("ok")
"""

ARGMAX = """
import importlib.util, torch
spec = importlib.util.spec_from_file_location("c", {path!r})
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
for shape in [(3, 37, 45), (2, 5, 300), (1, 8, 1)]:
    x = torch.randn(*shape)
    x[0, 3 % shape[1], 0] = x[0, 1 % shape[1], 0]            # a tie: the first index wins
    if shape[2] > 2:
        x[1 % shape[0], 2 % shape[1], 2] = float("nan")      # NaN is the maximum
    ref = torch.argmax(x, dim=1)
    out = torch.full(ref.shape, -7, dtype=torch.int64)
    m.run({{"arg0_1": x}}, {{"buf0": out}})
    assert torch.equal(out, ref), (shape, out, ref)
print("ok")
"""

MAX_DIM1 = """
import importlib.util, torch
spec = importlib.util.spec_from_file_location("c", {path!r})
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
for shape in [(3, 37, 45), (2, 5, 300), (1, 8, 1)]:
    x = torch.randn(*shape)
    if shape[2] > 2:
        x[1 % shape[0], 2 % shape[1], 2] = float("nan")      # NaN propagates
    ref = torch.max(x, dim=1)[0]
    out = torch.full(ref.shape, -7.0)
    m.run({{"arg0_1": x}}, {{"buf0": out}})
    assert torch.equal(out.nan_to_num(5.0), ref.nan_to_num(5.0)), (shape, out, ref)
print("ok")
"""

GROUP_NORM = """
import importlib.util, torch
spec = importlib.util.spec_from_file_location("c", {path!r})
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
torch.manual_seed(0)
# One program (the interpreter runs programs one after another, so programs that wait for each
# other cannot run here); several groups, samples and load steps, ragged last steps.
for shape, groups, sub in [((3, 8, 5, 7), 4, 8192), ((2, 6, 33), 3, 16), ((2, 4, 16, 16), 2, 32)]:
    x = torch.randn(*shape) * 3 + 1
    w, b = torch.randn(shape[1]), torch.randn(shape[1])
    ref = torch.nn.functional.group_norm(x, groups, w, b, 1e-5)
    y = torch.full_like(x, float("nan"))
    m.group_norm(x, w, b, y, groups, 1e-5, programs=1, sub=sub)
    assert torch.allclose(y, ref, atol=1e-5, rtol=1e-5), (shape, (y - ref).abs().max())
print("ok")
"""

CROSS_ENTROPY = """
import importlib.util, torch
spec = importlib.util.spec_from_file_location("c", {path!r})
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
torch.manual_seed(0)
for (n, c), rows, dtype in [((37, 100), 1, torch.float32), ((64, 33), 4, torch.float32),
                            ((5, 7), 2, torch.float16), ((1500, 20), 8, torch.bfloat16)]:
    x = (torch.randn(n, c) * 4).to(dtype)
    t = torch.randint(0, c, (n,))
    t[1] = -100                                   # ignore_index: left out of the mean
    ref = torch.nn.functional.cross_entropy(x.float(), t)
    out = torch.full((), float("nan"), dtype=dtype)
    m.cross_entropy_mean(x, t, out, rows=rows, num_warps=4)
    tol = 1e-5 if dtype == torch.float32 else 1e-2
    assert torch.allclose(out.float(), ref, rtol=tol, atol=1e-5), (n, c, dtype, out, ref)
# run() finds the logits and the targets by dtype, whatever the root buffers are called.
x, t = torch.randn(9, 12), torch.randint(0, 12, (9,))
out = torch.empty(())
m.run({{"arg1_1": t, "arg0_1": x}}, {{"buf4": out}})
assert torch.allclose(out, torch.nn.functional.cross_entropy(x, t), rtol=1e-5)
print("ok")
"""

ROW_TWO_PASS = """
import importlib.util, torch
spec = importlib.util.spec_from_file_location("c", {path!r})
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
torch.manual_seed(0)
model = {{"l2_normalize": lambda x: x / torch.norm(x, p=2, dim=1, keepdim=True),
         "softmax": lambda x: torch.softmax(x, dim=1)}}[m.OP]
for shape in [(5, 37), (3, 4099), (2, 3)]:
    x = torch.randn(*shape) * 3
    out = torch.full(shape, float("nan"))
    m.run({{"arg0_1": x}}, {{"buf1": out}})
    assert torch.allclose(out, model(x), rtol=1e-5, atol=1e-6), (shape, (out - model(x)).abs().max())
print("ok")
"""


CASES = [("level1_41_max_pooling_1d_seg0.py", MAX_POOL),
         ("level1_51_argmax_over_a_dimension_seg0.py", ARGMAX),
         ("level1_49_max_reduction_over_a_dimension_seg0.py", MAX_DIM1),
         ("level1_35_group_norm_seg0.py", GROUP_NORM),
         ("level1_95_cross_entropy_loss_seg0.py", CROSS_ENTROPY),
         ("level1_39_l2_norm_seg0_row_two_pass.py", ROW_TWO_PASS),
         ("level1_23_softmax_seg0_row_two_pass.py", ROW_TWO_PASS)]


@pytest.mark.parametrize("name,script", CASES, ids=[name for name, _ in CASES])
def test_candidate_matches_pytorch(name, script):
    path = os.path.join(ROOT, "candidates", "kernelbench", name)
    assert run_interpreted(script.format(path=path)).strip() == "ok"
