// The "# Graph fragment:" comments of output code captured on the H200, parsed into FX nodes.
#include "kernelopt/inductor/graph_fragment.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "kernelopt/inductor/output_code.hpp"

namespace kernelopt {
namespace {

inductor::OutputCode real(const std::string& name) {
  std::ifstream in(std::filesystem::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real" /
                   name);
  std::ostringstream text;
  text << in.rdbuf();
  return inductor::parse_output_code(text.str());
}

TEST(GraphFragment, ArgmaxOverTheMiddleDimension) {
  const auto code = real("h200_level1_51_Argmax_over_a_dimension_graph_0.py");
  ASSERT_EQ(code.kernels.size(), 1U);
  const auto fragment = inductor::parse_graph_fragment(code.kernels[0].graph_fragment);
  ASSERT_EQ(fragment.nodes.size(), 2U);
  const auto& input = fragment.nodes[0];
  EXPECT_EQ(input.name, "arg0_1");
  EXPECT_EQ(input.op, "placeholder");
  EXPECT_EQ(input.dtype, "f32");
  EXPECT_EQ(input.shape, (std::vector<std::string>{"128", "4096", "4095"}));
  EXPECT_EQ(input.stride, (std::vector<std::string>{"16773120", "4095", "1"}));
  const auto* argmax = inductor::find_node(fragment, "argmax");
  ASSERT_NE(argmax, nullptr);
  EXPECT_EQ(argmax->op, "call_function");
  EXPECT_EQ(argmax->target, "torch.ops.aten.argmax.default");
  EXPECT_EQ(argmax->dtype, "i64");
  EXPECT_EQ(argmax->shape, (std::vector<std::string>{"128", "4095"}));
  EXPECT_EQ(argmax->args, (std::vector<std::string>{"%arg0_1", "1"}));
  EXPECT_TRUE(argmax->kwargs.empty());
  EXPECT_EQ(fragment.returns, std::vector<std::string>{"argmax"});
}

TEST(GraphFragment, KeywordArgumentsAndListArguments) {
  const auto code = real("h200_level1_35_GroupNorm__graph_0.py");
  const auto fragment = inductor::parse_graph_fragment(code.kernels.back().graph_fragment);
  const auto* var_mean = inductor::find_node(fragment, "var_mean");
  ASSERT_NE(var_mean, nullptr);
  EXPECT_EQ(var_mean->target, "torch.ops.aten.var_mean.correction");
  EXPECT_EQ(var_mean->args, (std::vector<std::string>{"%view", "[2, 3]"}));
  EXPECT_EQ(var_mean->kwargs, (std::vector<std::string>{"correction: 0", "keepdim: True"}));
  EXPECT_TRUE(var_mean->dtype.empty());  // a tuple-valued node has no tensor type
  EXPECT_EQ(fragment.returns, std::vector<std::string>{"add_1"});
}

TEST(GraphFragment, EveryRealCaptureParses) {
  int nodes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real")) {
    if (entry.path().extension() != ".py") continue;
    for (const auto& kernel : real(entry.path().filename().string()).kernels) {
      const auto fragment = inductor::parse_graph_fragment(kernel.graph_fragment);
      for (const auto& node : fragment.nodes) {
        EXPECT_FALSE(node.name.empty());
        EXPECT_FALSE(node.op.empty()) << node.name;
        ++nodes;
      }
    }
  }
  EXPECT_GT(nodes, 50);
}

TEST(GraphFragment, NoiseIsSkipped) {
  const auto fragment = inductor::parse_graph_fragment(
      "not a node\n%x : Tensor \"f32[4][1]cuda:0\" = "
      "PlaceHolder[target=x]\n%broken = call_function[\n");
  ASSERT_EQ(fragment.nodes.size(), 1U);
  EXPECT_EQ(fragment.nodes[0].target, "x");
  EXPECT_EQ(fragment.nodes[0].shape, std::vector<std::string>{"4"});
}

}  // namespace
}  // namespace kernelopt
