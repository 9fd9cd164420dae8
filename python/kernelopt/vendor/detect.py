"""What a model asks of the vendor libraries: the ATen operators one eager forward runs (recorded
below autograd, so functional calls such as `torch.matmul` or `F.conv2d` count as much as
modules), grouped into convolutions and matrix products."""

from __future__ import annotations

from dataclasses import dataclass, field

# Operator packets (ATen names without overload) that reach cuDNN or cuBLAS on a CUDA device.
CONV_OPS = frozenset({"convolution", "_convolution", "cudnn_convolution", "conv2d", "conv3d", "conv1d",
                      "convolution_overrideable", "cudnn_convolution_transpose", "conv_transpose2d"})
MATMUL_OPS = frozenset({"mm", "addmm", "bmm", "baddbmm", "addbmm", "matmul", "linear", "_addmm_activation",
                        "addmv", "mv", "dot"})


@dataclass
class OpSummary:
    """The operators of one forward: their names in call order, and the ranks of convolution inputs
    (4 for a 2-d convolution, 5 for 3-d) that decide which channels-last format fits."""

    ops: list = field(default_factory=list)
    conv_ranks: set = field(default_factory=set)

    @property
    def has_conv(self) -> bool:
        return any(op in CONV_OPS for op in self.ops)

    @property
    def has_matmul(self) -> bool:
        return any(op in MATMUL_OPS for op in self.ops)


def record_ops(model, inputs) -> OpSummary:
    """Runs one forward under no_grad and records every ATen operator it dispatches."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    summary = OpSummary()

    class _Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = func.overloadpacket.__name__
            summary.ops.append(name)
            if name in CONV_OPS and args and isinstance(args[0], torch.Tensor):
                summary.conv_ranks.add(args[0].dim())
            return func(*args, **(kwargs or {}))

    with torch.no_grad(), _Recorder():
        model(*inputs)
    return summary
