"""Recipes against PyTorch on the CPU under Triton's interpreter (a subprocess: TRITON_INTERPRET
must be set before triton is imported), on shapes KernelBench does not use, with NaN, ties,
ragged blocks and half-precision inputs."""

from interpreted import run_interpreted

REDUCE_DIM = """
import torch
from kernelopt.recipes.reduce_dim import OPS, reduce_dim, reference
torch.manual_seed(0)
cases = [((3, 37, 45), 1), ((2, 5, 7, 9), 1), ((2, 5, 7, 9), 2), ((6, 33), 0), ((4, 3, 5), 0),
         ((1, 300, 3), 1), ((2, 1, 4), 1)]
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    for shape, dim in cases:
        x = torch.randint(-3, 4, shape).to(dtype)          # small integers: many ties
        if x.numel() > 20:
            x.view(-1)[7] = float("nan")
        for op in OPS:
            ref = reference(x.float(), dim, op)
            out = torch.full(ref.shape, -7, dtype=ref.dtype if op.startswith("arg") else dtype)
            reduce_dim(x, out, dim, op, rows_per_step=4, cols_per_program=16)
            got = out.float() if not op.startswith("arg") else out
            want = ref.to(got.dtype) if not op.startswith("arg") else ref
            same = torch.equal(got.nan_to_num(99.0), want.nan_to_num(99.0)) if op != "sum" else \\
                torch.allclose(got, want.to(got.dtype), equal_nan=True, atol=0.05, rtol=0.01)
            assert same, (dtype, shape, dim, op, got, want)
# A size-1 leading dimension may have any stride; the others must collapse into one batch stride.
x = torch.randn(5, 7, 9)
odd = x.as_strided((1, 5, 7, 9), (12345, 63, 9, 1))
for op in OPS:
    out = torch.empty(reference(odd, 2, op).shape, dtype=torch.int64 if op.startswith("arg") else x.dtype)
    reduce_dim(odd, out, 2, op)
    assert torch.allclose(out.double(), reference(odd, 2, op).double()), op
# The innermost dimension, columns that are not contiguous and leading dimensions that do not
# collapse are refused with a clear error.
for bad in [(torch.zeros(3, 4), 1), (torch.zeros(4, 3).t(), 0),
            (torch.zeros(3, 4, 5, 6).permute(1, 0, 2, 3), 2)]:
    try:
        reduce_dim(bad[0], torch.zeros(3), bad[1], "sum")
    except ValueError as e:
        assert "reduce_dim" in str(e)
    else:
        raise AssertionError("accepted " + str(bad[0].stride()))
print("ok")
"""


def test_reduce_dim_matches_pytorch_for_every_op_and_dtype():
    assert run_interpreted(REDUCE_DIM, timeout=600).strip() == "ok"
