"""A kernel as Inductor writes it (CachingAutotuner through triton_heuristics.pointwise; launched
with .run(..., stream=)): the static check compiles each of its configs instead of launching.
Inductor's `triton_helpers.set_driver_to_gpu()` line is left out: it needs a GPU at import."""
import triton
import triton.language as tl
from torch._inductor.runtime import triton_heuristics
from torch._inductor.runtime.hints import DeviceProperties


@triton_heuristics.pointwise(
    size_hints={'x': 1048576},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'},
                 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9,
                                            regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048,
                                            max_threads_per_block=1024, warp_size=32),
                 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]],
                                               (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_relu_0', 'mutated_arg_names': [],
                   'autotune_pointwise': True, 'max_autotune': True, 'max_autotune_pointwise': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_relu_0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    tmp0 = tl.load(in_ptr0 + xindex, None)
    tl.store(out_ptr0 + xindex, tl.maximum(tmp0, 0.0), None)


def run(inputs, outputs):
    x, out = inputs["x"], outputs["out"]
    triton_poi_fused_relu_0.run(x, out, x.numel(), stream=0)
