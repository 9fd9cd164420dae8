// Assertion-style checks of the output-code parser on small inline modules and on the fixtures:
// the facts later stages rely on, stated directly rather than through a golden file.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/inductor/output_code.hpp"

namespace {

using kernelopt::inductor::KernelKind;
using kernelopt::inductor::OutputCode;
using kernelopt::inductor::parse_output_code;
using kernelopt::inductor::Step;
using kernelopt::inductor::StepKind;
using Strings = std::vector<std::string>;

OutputCode fixture(const std::string& name) {
  std::ifstream in(std::filesystem::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code" /
                   name);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_output_code(text.str());
}

std::vector<const Step*> steps_of(const OutputCode& code, StepKind kind) {
  std::vector<const Step*> out;
  for (const Step& step : code.steps) {
    if (step.kind == kind) out.push_back(&step);
  }
  return out;
}

constexpr const char* kSmall = R"(
k0 = async_compile.triton('k0', '''
@triton_heuristics.pointwise(
    size_hints={'x': 1024},
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32'}},
    inductor_meta={'mutated_arg_names': ['in_out_ptr0'], 'num_load': 2},
)
@triton.jit
def k0(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    pass
''', device_str='cuda')
k1 = async_compile.triton('k1', '''
@triton_heuristics.mystery_heuristic(size_hints={'x': 8})
@triton.jit
def k1(in_ptr0):
    pass
''', device_str='cuda')

def call(args):
    arg0_1, arg1_1, = args
    buf0 = empty_strided_cuda((1024, ), (1, ), torch.float32)
    buf0.copy_(arg0_1)
    buf1 = reinterpret_tensor(buf0, (32, 32), (32, 1), 0); del buf0  # reuse
    buf2 = buf1; del buf1  # reuse
    # Topologically Sorted Source Nodes: [x], Original ATen: [aten.add, aten.relu]
    k0.run(reinterpret_tensor(buf2, (1024, ), (1, ), 0), arg1_1, 1024, stream=stream0)
    buf2.zero_()
    buf3 = torch.ops.aten.index_put_.default(buf2, [arg1_1], arg0_1)
    return (reinterpret_tensor(buf2, (1024, ), (1, ), 0), )
)";

TEST(ParseOutputCode, NoCallIsAParseError) {
  try {
    parse_output_code("x = 1\ndef callback(args):\n    pass\n");
    FAIL() << "expected kernelopt::Error";
  } catch (const kernelopt::Error& error) {
    EXPECT_EQ(error.tag(), "kernelopt.parse");
  }
}

TEST(ParseOutputCode, UnknownDecoratorIsOther) {
  const OutputCode code = parse_output_code(kSmall);
  ASSERT_EQ(code.kernels.size(), 2U);
  EXPECT_EQ(code.kernels[0].kind, KernelKind::kPointwise);
  EXPECT_EQ(code.kernels[1].kind, KernelKind::kOther);
  EXPECT_EQ(code.kernels[0].num_load, 2);
  EXPECT_EQ(code.kernels[0].num_reduction, -1);
}

TEST(ParseOutputCode, InOutPointerIsReadAndWrittenThroughAliases) {
  const OutputCode code = parse_output_code(kSmall);
  const auto launches = steps_of(code, StepKind::kTritonLaunch);
  ASSERT_EQ(launches.size(), 1U);
  EXPECT_EQ(launches[0]->reads, (Strings{"buf0", "arg1_1"}));
  EXPECT_EQ(launches[0]->writes, (Strings{"buf0"}));
  EXPECT_EQ(launches[0]->aten_ops, (Strings{"aten.add", "aten.relu"}));
  EXPECT_EQ(code.returns, (Strings{"buf0"}));
}

TEST(ParseOutputCode, AliasStepsAndDeletes) {
  const OutputCode code = parse_output_code(kSmall);
  const auto reinterprets = steps_of(code, StepKind::kReinterpret);
  ASSERT_EQ(reinterprets.size(), 1U);
  EXPECT_EQ(reinterprets[0]->alias_of, "buf0");
  EXPECT_EQ(reinterprets[0]->defines, (Strings{"buf1"}));
  const auto reuses = steps_of(code, StepKind::kReuse);
  ASSERT_EQ(reuses.size(), 1U);
  EXPECT_EQ(reuses[0]->alias_of, "buf1");
  const auto dels = steps_of(code, StepKind::kDel);
  ASSERT_EQ(dels.size(), 2U);
  EXPECT_EQ(dels[0]->target, "buf0");
  EXPECT_EQ(dels[0]->line, reinterprets[0]->line);  // same line, after the ';'
}

TEST(ParseOutputCode, TensorMethodsAndInPlaceAten) {
  const OutputCode code = parse_output_code(kSmall);
  const auto fallbacks = steps_of(code, StepKind::kAtenFallback);
  ASSERT_EQ(fallbacks.size(), 3U);
  EXPECT_EQ(fallbacks[0]->target, "Tensor.copy_");
  EXPECT_EQ(fallbacks[0]->writes, (Strings{"buf0"}));
  EXPECT_EQ(fallbacks[0]->reads, (Strings{"arg0_1"}));
  EXPECT_EQ(fallbacks[1]->target, "Tensor.zero_");
  EXPECT_EQ(fallbacks[1]->writes, (Strings{"buf0"}));
  EXPECT_TRUE(fallbacks[1]->reads.empty());
  EXPECT_EQ(fallbacks[2]->target, "aten.index_put_.default");
  EXPECT_EQ(fallbacks[2]->writes, (Strings{"buf0", "buf3"}));
}

TEST(ParseOutputCode, GraphInputsAndBuffers) {
  const OutputCode code = parse_output_code(kSmall);
  EXPECT_EQ(code.call_style, "def call");
  EXPECT_EQ(code.graph_inputs, (Strings{"arg0_1", "arg1_1"}));
  ASSERT_NE(code.buffer("buf0"), nullptr);
  EXPECT_EQ(code.buffer("buf0")->shape, (Strings{"1024"}));
  EXPECT_EQ(code.buffer("buf0")->dtype, "torch.float32");
  EXPECT_EQ(code.buffer("buf0")->device, "cuda");
  EXPECT_EQ(code.buffer("buf1"), nullptr);  // an alias, not a buffer
}

TEST(ParseOutputCode, AssertOnPlainAliasFillsTheRootShape) {
  const OutputCode code = parse_output_code(R"(
def call(args):
    (arg0_1,) = args
    s0 = arg0_1
    buf0 = torch.ops.prims.normal.default([1, 50, 32], mean=0.0, std=1.0, dtype=torch.float32)
    buf1 = buf0
    assert_size_stride(buf1, (1, 50, 32), (1600, 32, 1), 'torch.ops.prims.normal.default')
    del buf0
    return (buf1, )
)");
  EXPECT_EQ(code.graph_inputs, (Strings{"arg0_1"}));
  ASSERT_NE(code.buffer("buf0"), nullptr);
  EXPECT_EQ(code.buffer("buf0")->shape, (Strings{"1", "50", "32"}));
  EXPECT_TRUE(steps_of(code, StepKind::kReuse).size() == 1U);  // buf1, not the size symbol s0
  EXPECT_EQ(steps_of(code, StepKind::kAtenFallback)[0]->target, "prims.normal.default");
  EXPECT_EQ(code.returns, (Strings{"buf0"}));
}

// Combo kernels carry a benchmark harness with its own `def call(args):` inside the source.
TEST(ParseOutputCode, CallInsideKernelSourceIsIgnored) {
  const OutputCode code = parse_output_code(R"(
# Unsorted Source Nodes: [], Original ATen: []
triton_poi_fused_1 = async_compile.triton('triton_poi_fused_1', '''
@triton_heuristics.pointwise(
    size_hints={'x': 33554432}, tile_hint=TileHint.DEFAULT,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel_0': 'i32'}},
)
@triton.jit
def triton_poi_fused_1(in_ptr0, out_ptr0, xnumel_0, XBLOCK : tl.constexpr):
    pass


def call(args):
    triton_poi_fused_1.run(*args, stream=stream0)
''', device_str='cuda')

class Runner:
    def call(self, args):
        arg0_1, arg1_1 = args
        s72 = arg1_1
        buf0 = empty_strided_cuda((s72, 3584), (3584, 1), torch.bfloat16)
        triton_poi_fused_1_xnumel_0 = 512*s72
        triton_poi_fused_1.run(arg0_1, buf0, triton_poi_fused_1_xnumel_0, stream=stream0)
        return (buf0, )
)");
  EXPECT_EQ(code.call_style, "Runner.call");
  EXPECT_EQ(code.call_line, 18);
  ASSERT_EQ(code.steps.size(), 3U);  // alloc, launch, return
  EXPECT_EQ(code.buffer("buf0")->shape, (Strings{"s72", "3584"}));
  EXPECT_EQ(code.steps[1].reads, (Strings{"arg0_1"}));
  EXPECT_EQ(code.steps[1].writes, (Strings{"buf0"}));
  EXPECT_TRUE(code.steps[1].aten_ops.empty());
}

// A scan's combine function is a @triton.jit helper defined before the heuristics decorator.
TEST(ParseOutputCode, HelperBeforeTheDecoratorIsSkipped) {
  const OutputCode code = parse_output_code(R"(
triton_red_fused_cumsum_0 = async_compile.triton('triton_red_fused_cumsum_0', '''
@triton.jit
def _triton_helper_fn_add0(arg0_0, arg1_0):
    return arg0_0 + arg1_0

@triton_heuristics.cooperative_reduction(
    size_hints={'x': 64, 'r0_': 128},
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32'}},
)
@triton.jit
def triton_red_fused_cumsum_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    tmp4, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0)
''', device_str='cuda')

def call(args):
    arg0_1, = args
    buf0 = empty_strided_cuda((64, 128), (128, 1), torch.float32)
    triton_red_fused_cumsum_0.run(arg0_1, buf0, 64, stream=stream0)
    return (buf0, )
)");
  ASSERT_EQ(code.kernels.size(), 1U);
  EXPECT_EQ(code.kernels[0].kind, KernelKind::kCooperativeReduction);
  EXPECT_EQ(code.kernels[0].size_hints.at("r0_"), 128);
  ASSERT_EQ(code.kernels[0].signature.size(), 3U);
  EXPECT_EQ(code.steps[1].reads, (Strings{"arg0_1"}));
  EXPECT_EQ(code.steps[1].writes, (Strings{"buf0"}));
}

constexpr const char* kExternOutputs = R"(
k0 = async_compile.triton('k0', '''
@triton_heuristics.pointwise(
    size_hints={'x': 1024},
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32'}},
)
@triton.jit
def k0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    pass
''', device_str='cuda')

def call(args):
    arg0_1, arg1_1 = args
    assert_size_stride(arg0_1, (8, 3, 32, 32), (3072, 1024, 32, 1))
    buf0 = extern_kernels.convolution(arg0_1, arg1_1, stride=(1, 1), bias=None)
    assert_size_stride(buf0, (8, 16, 32, 32), (16384, 1, 512, 16), 'unknown_op')
    buf1 = extern_kernels.convolution(buf0, arg1_1, stride=(1, 1), bias=None)
    buf2 = empty_strided_cuda((131072, ), (1, ), torch.float32)
    k0.run(buf0, buf1, buf2, 131072, stream=stream0)
    buf3 = torch.ops.aten.max.dim(buf2, 0)
    buf4 = buf3[0]
    assert_size_stride(buf4, (), (), 'torch.ops.aten.max.dim')
    buf5 = buf3[1]
    del buf3
    return (buf2, buf4, buf5, )

def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((8, 3, 32, 32), (3072, 1024, 32, 1), device='cuda:0', dtype=torch.bfloat16)
    arg1_1 = rand_strided((16, 3, 3, 3), (27, 9, 3, 1),
                          device='cuda:0', dtype=torch.bfloat16)
    return [arg0_1, arg1_1]
)";

// An extern output's dtype is not written; a Triton launch's pointer type states it, but only
// once an assert gave the shape: an unknown shape stays unknown (shape_known false, no dtype).
TEST(ParseOutputCode, ExternOutputDtypeFromTheLaunchSignature) {
  const OutputCode code = parse_output_code(kExternOutputs);
  ASSERT_NE(code.buffer("buf0"), nullptr);
  EXPECT_TRUE(code.buffer("buf0")->shape_known);
  EXPECT_EQ(code.buffer("buf0")->dtype, "torch.bfloat16");
  ASSERT_NE(code.buffer("buf1"), nullptr);
  EXPECT_FALSE(code.buffer("buf1")->shape_known);
  EXPECT_TRUE(code.buffer("buf1")->dtype.empty());
}

// A multi-output op returns a tuple; its items are the tensors the op writes.
TEST(ParseOutputCode, TupleItemsAreBuffersOfTheirOwn) {
  const OutputCode code = parse_output_code(kExternOutputs);
  const auto fallbacks = steps_of(code, StepKind::kAtenFallback);
  ASSERT_EQ(fallbacks.size(), 1U);
  EXPECT_EQ(fallbacks[0]->writes, (Strings{"buf4", "buf5"}));
  EXPECT_EQ(steps_of(code, StepKind::kItem).size(), 2U);
  EXPECT_EQ(code.buffer("buf3"), nullptr);
  EXPECT_TRUE(code.buffer("buf4")->shape_known);
  EXPECT_EQ(code.returns, (Strings{"buf2", "buf4", "buf5"}));
}

// get_args' rand_strided states the graph inputs' dtype and device, and a shape where call has
// no assert; an assert's shape wins.
TEST(ParseOutputCode, GraphInputsFromRandStrided) {
  const OutputCode code = parse_output_code(kExternOutputs);
  const auto* input = code.buffer("arg1_1");
  ASSERT_NE(input, nullptr);
  EXPECT_EQ(input->dtype, "torch.bfloat16");
  EXPECT_EQ(input->device, "cuda");
  EXPECT_TRUE(input->shape_known);
  EXPECT_EQ(input->stride, (Strings{"27", "9", "3", "1"}));
  EXPECT_EQ(code.buffer("arg0_1")->dtype, "torch.bfloat16");
}

// Memory planning carves buffers from a pool; each is a buffer of its own with its shape.
TEST(ParseOutputCode, AllocFromPoolIsABuffer) {
  const OutputCode code = parse_output_code(R"(
k0 = async_compile.triton('k0', '''
@triton_heuristics.pointwise(triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp16'}})
@triton.jit
def k0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    pass
''', device_str='cuda')

def call(args):
    arg0_1, = args
    pool1 = empty_strided_cuda((4096, ), (1, ), torch.uint8)
    buf0 = alloc_from_pool(pool1, 0, torch.float16, (32, 64), (64, 1))
    k0.run(arg0_1, buf0, 2048, stream=stream0)
    return (buf0, )
)");
  const auto* buffer = code.buffer("buf0");
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(buffer->dtype, "torch.float16");
  EXPECT_EQ(buffer->shape, (Strings{"32", "64"}));
  EXPECT_EQ(buffer->device, "cuda");
  EXPECT_EQ(code.steps[1].kind, StepKind::kAlloc);
  EXPECT_EQ(code.steps[1].alias_of, "pool1");
  EXPECT_EQ(code.steps[2].writes, (Strings{"buf0"}));
}

TEST(Fixtures, RunnerStyleKindsAndLaunches) {
  const OutputCode code = fixture("a_runner_mixed.py");
  EXPECT_EQ(code.call_style, "Runner.call");
  ASSERT_EQ(code.kernels.size(), 3U);
  EXPECT_EQ(code.kernels[0].kind, KernelKind::kPointwise);
  EXPECT_EQ(code.kernels[1].kind, KernelKind::kPersistentReduction);
  EXPECT_EQ(code.kernels[2].kind, KernelKind::kReduction);
  EXPECT_EQ(code.kernels[2].size_hints.at("r0_"), 8192);
  EXPECT_EQ(code.kernels[1].reduction_hint, "INNER");
  const auto externs = steps_of(code, StepKind::kExternCall);
  ASSERT_EQ(externs.size(), 1U);
  EXPECT_EQ(externs[0]->target, "mm");
  EXPECT_EQ(externs[0]->reads, (Strings{"buf0", "arg1_1"}));
  EXPECT_EQ(externs[0]->writes, (Strings{"buf1"}));
  const auto launches = steps_of(code, StepKind::kTritonLaunch);
  ASSERT_EQ(launches.size(), 3U);
  EXPECT_EQ(launches[1]->reads, (Strings{"buf1"}));  // buf4 reuses buf1
  EXPECT_EQ(launches[1]->writes, (Strings{"buf1"}));
  EXPECT_EQ(launches[2]->writes, (Strings{"buf2"}));  // buf3 views buf2
  EXPECT_EQ(code.returns, (Strings{"buf1", "buf2"}));
}

TEST(Fixtures, OldStyleIntegerSignatureAndListHints) {
  const OutputCode code = fixture("b_def_call_grid.py");
  EXPECT_EQ(code.call_style, "def call");
  ASSERT_EQ(code.kernels.size(), 3U);
  EXPECT_EQ(code.kernels[0].signature[2].name, "out_ptr0");
  EXPECT_EQ(code.kernels[0].signature[2].type, "*fp32");
  EXPECT_EQ(code.kernels[1].size_hints,
            (std::map<std::string, std::int64_t>{{"x", 1024}, {"r0_", 2048}}));
  EXPECT_EQ(code.kernels[2].size_hints,
            (std::map<std::string, std::int64_t>{{"y", 64}, {"x", 4096}}));
  const auto launches = steps_of(code, StepKind::kTritonLaunch);
  ASSERT_EQ(launches.size(), 3U);
  EXPECT_EQ(launches[0]->reads, (Strings{"arg0_1", "arg1_1"}));
  EXPECT_EQ(launches[0]->writes, (Strings{"buf0"}));
  EXPECT_EQ(launches[2]->aten_ops, (Strings{"aten.clone"}));  // no comment: the kernel's own
}

TEST(Fixtures, ConvolutionEpilogueMutatesTheExternOutput) {
  const OutputCode code = fixture("c_conv_epilogue.py");
  const auto externs = steps_of(code, StepKind::kExternCall);
  ASSERT_EQ(externs.size(), 1U);
  EXPECT_EQ(externs[0]->target, "convolution");
  EXPECT_EQ(externs[0]->writes, (Strings{"buf0"}));
  ASSERT_NE(code.buffer("buf0"), nullptr);
  EXPECT_EQ(code.buffer("buf0")->shape, (Strings{"8", "16", "32", "32"}));
  const auto launches = steps_of(code, StepKind::kTritonLaunch);
  ASSERT_EQ(launches.size(), 1U);
  EXPECT_EQ(launches[0]->reads, (Strings{"buf0", "arg2_1"}));
  EXPECT_EQ(launches[0]->writes, (Strings{"buf0"}));
}

TEST(Fixtures, FallbacksIndexingAndRunningStatCopies) {
  const OutputCode code = fixture("d_aten_fallback_bn.py");
  const auto fallbacks = steps_of(code, StepKind::kAtenFallback);
  ASSERT_EQ(fallbacks.size(), 4U);
  EXPECT_EQ(fallbacks[0]->target, "aten.max_pool2d_with_indices.default");
  EXPECT_EQ(fallbacks[1]->target, "aten.cumsum.default");
  EXPECT_EQ(fallbacks[0]->writes, (Strings{"buf7", "buf8"}));  // the tuple's items, not buf6
  EXPECT_EQ(fallbacks[1]->reads, (Strings{"buf7"}));           // buf7 = buf6[0]
  EXPECT_EQ(fallbacks[2]->target, "Tensor.copy_");
  EXPECT_EQ(fallbacks[2]->writes, (Strings{"arg0_1"}));
  EXPECT_EQ(fallbacks[2]->aten_ops, (Strings{"aten.copy_"}));
  EXPECT_EQ(fallbacks[3]->writes, (Strings{"arg1_1"}));
  EXPECT_EQ(code.returns, (Strings{"buf9", "buf8", "buf0", "buf1"}));
  EXPECT_EQ(code.buffer("buf6"), nullptr);                   // a tuple, not a tensor
  EXPECT_EQ(code.buffer("arg4_1")->dtype, "torch.float32");  // from get_args
}

TEST(Fixtures, TemplateAndExternOnly) {
  const OutputCode tem = fixture("e_template_mm.py");
  ASSERT_EQ(tem.kernels.size(), 2U);
  EXPECT_EQ(tem.kernels[0].kind, KernelKind::kTemplate);
  EXPECT_TRUE(tem.kernels[0].size_hints.empty());
  const auto launches = steps_of(tem, StepKind::kTritonLaunch);
  ASSERT_EQ(launches.size(), 2U);
  EXPECT_EQ(launches[0]->reads, (Strings{"arg0_1", "arg1_1"}));
  EXPECT_EQ(launches[0]->writes, (Strings{"buf0"}));
  const OutputCode ext = fixture("f_extern_only.py");
  EXPECT_TRUE(ext.kernels.empty());
  const auto externs = steps_of(ext, StepKind::kExternCall);
  ASSERT_EQ(externs.size(), 2U);
  EXPECT_EQ(externs[1]->target, "addmm");
  EXPECT_EQ(externs[1]->reads, (Strings{"arg2_1", "buf0", "arg3_1"}));
  EXPECT_EQ(externs[1]->line + 3, externs[1]->end_line);
}

}  // namespace
