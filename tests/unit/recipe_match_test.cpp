// The reduce_dim recipe is matched on real H200 captures, and only where it applies; the candidate
// it writes is Python that calls the recipe with the matched op and dim.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>
#include <unistd.h>

#include <gtest/gtest.h>

#include "kernelopt/propose/recipes/fragment.hpp"
#include "kernelopt/propose/recipes/matchers.hpp"
#include "kernelopt/propose/registry.hpp"
#include "kernelopt/propose/transform/config.hpp"
#include "kernelopt/propose/transform/fuse.hpp"
#include "kernelopt/propose/transform/retile.hpp"
#include "kernelopt/propose/transform/rewrite.hpp"
#include "kernelopt/propose/transform/split.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;

// The worker's interpreter: the repository's .venv where there is one.
std::string python() {
  const fs::path venv = fs::path(KERNELOPT_SOURCE_DIR) / ".venv/bin/python";
  return fs::exists(venv) ? venv.string() : "python3";
}

// Runs DIR/check.py with ARGUMENT under ENV (e.g. "TRITON_INTERPRET=1"), the repository's python/
// importable; expects exit 0 and EXPECTED among what it printed, then removes DIR.
void expect_check_says(const fs::path& dir,
                       const std::string& env,
                       const std::string& argument,
                       const std::string& expected) {
  const std::string command =
      env + " PYTHONPATH=" + (fs::path(KERNELOPT_SOURCE_DIR) / "python").string() + " " + python() +
      " " + (dir / "check.py").string() + " " + argument + " > " + (dir / "log.txt").string() +
      " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream log(dir / "log.txt");
  std::ostringstream said;
  said << log.rdbuf();
  EXPECT_EQ(status, 0) << said.str();
  EXPECT_NE(said.str().find(expected), std::string::npos) << said.str();
  fs::remove_all(dir);
}

// A recipe's candidate: launch() of the recipe's module (python/kernelopt/recipes/, whose tests
// check how each turns params and settings into its call) with the match's params and the
// settings as Python literals.
void expect_recipe_source(const std::string& text,
                          const propose::Match& m,
                          const nlohmann::json& settings) {
  EXPECT_NE(text.find("from kernelopt.recipes import " + m.recipe + "\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("PARAMS = " + propose::python_literal(m.params) + "\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("SETTINGS = " + propose::python_literal(settings) + "\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("    " + m.recipe + ".launch(inputs, outputs, PARAMS, SETTINGS)\n"),
            std::string::npos)
      << text;
}

struct Captured {
  analysis::GraphRun run;
  analysis::DispatchMap map;
};

// A real capture's output code as text, to be parsed as is or edited first.
std::string real_text(const std::string& name) {
  std::ifstream in(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real" / name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Captured parsed(const std::string& text) {
  Captured c;
  c.run.code = inductor::parse_output_code(text);
  c.map = analysis::build_dispatch_map({c.run}, {});
  return c;
}

Captured real(const std::string& name) {
  return parsed(real_text(name));
}

std::optional<propose::Match> first_match(const Captured& c) {
  for (const auto& segment : c.map.segments) {
    if (auto m = propose::match_reduce_dim(c.run.code, c.map, segment)) return m;
  }
  return std::nullopt;
}

TEST(Match, ReductionsOverAMiddleDimension) {
  const auto argmax = first_match(real("h200_level1_51_Argmax_over_a_dimension_graph_0.py"));
  ASSERT_TRUE(argmax.has_value());
  EXPECT_EQ(argmax->recipe, "reduce_dim");
  EXPECT_EQ(argmax->params, (nlohmann::json{{"op", "argmax"}, {"dim", 1}, {"columns", 4095}}));
  const auto sum = first_match(real("h200_level1_47_Sum_reduction_over_a_dimension_graph_0.py"));
  ASSERT_TRUE(sum.has_value());  // sum.dim_IntList(x, [1], True): keepdim is fine
  EXPECT_EQ(sum->params, (nlohmann::json{{"op", "sum"}, {"dim", 1}, {"columns", 4095}}));
  // 4095 columns: the tiles the H200 chose (8 x 128 first).
  EXPECT_EQ(propose::initial_settings(*sum).front(),
            (nlohmann::json{{"rows_per_step", 8}, {"cols_per_program", 128}, {"num_warps", 4}}));
  // Seven columns (a reduction over the channels of [N, C, 7]): 16-column tiles, 32 rows a step.
  propose::Match narrow = *sum;
  narrow.params["columns"] = 7;
  EXPECT_EQ(propose::initial_settings(narrow).front(),
            (nlohmann::json{{"rows_per_step", 32}, {"cols_per_program", 16}, {"num_warps", 4}}));
}

TEST(Match, NotWhereItDoesNotApply) {
  // Elementwise, a norm (several ops), softmax over the innermost dim, a pooling, a scan.
  for (const char* name :
       {"h200_level1_19_ReLU_graph_0.py", "h200_level1_35_GroupNorm__graph_0.py",
        "h200_level1_23_Softmax_graph_0.py", "h200_level1_41_Max_Pooling_1D_graph_0.py",
        "h200_level1_89_cumsum_graph_0.py", "h200_level1_95_CrossEntropyLoss_graph_0.py"}) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(first_match(real(name)).has_value());
  }
}

std::optional<propose::Match> first_row_match(const Captured& c) {
  for (const auto& segment : c.map.segments) {
    if (auto m = propose::match_row_two_pass(c.run.code, c.map, segment)) return m;
  }
  return std::nullopt;
}

TEST(Match, RowTwoPassOnOnlineSoftmax) {
  const Captured c = real("h200_level1_23_Softmax_graph_0.py");
  const auto m = first_row_match(c);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->recipe, "row_two_pass");
  EXPECT_EQ(m->params, (nlohmann::json{{"op", "softmax"}, {"row_bytes", 393216 * 4}}));
  EXPECT_NE(m->why.find("f32[4096, 393216]"), std::string::npos) << m->why;
  // match_recipe tries reduce_dim first, which refuses softmax, then row_two_pass.
  const auto any = propose::match_recipe(c.run.code, c.map, c.map.segments.at(0));
  ASSERT_TRUE(any.has_value());
  EXPECT_EQ(any->recipe, "row_two_pass");
  // Rows of 1.5 MB: a fourth setting splits each row among programs (split 0: the recipe sizes
  // it), and its neighbours do not double an automatic split.
  const auto settings = propose::initial_settings(*any);
  ASSERT_EQ(settings.size(), 4U);
  EXPECT_EQ(settings.back().at("split"), 0);
  for (const auto& next : propose::neighbours_of(*any, settings.back())) {
    EXPECT_EQ(next.at("split"), 0) << next;
  }
  nlohmann::json fixed = settings.back();
  fixed["split"] = 8;
  bool halves = false;
  for (const auto& next : propose::neighbours_of(*any, fixed)) {
    halves = halves || next.at("split") == 4;
  }
  EXPECT_TRUE(halves);
  EXPECT_EQ(settings.back(), (nlohmann::json{{"block", 4096},
                                             {"num_warps", 8},
                                             {"programs_per_sm", 4},
                                             {"reverse", 1},
                                             {"split", 0}}));
  expect_recipe_source(propose::source_of(*any, 0, settings.back()), *any, settings.back());
}

TEST(Match, RowTwoPassOnL2NormalizationAsPowers) {
  // torch.norm(x, p=2, dim=1, keepdim=True) on the GPU: pow 2, sum, pow 0.5, div (the first
  // optimize run on the H200 found no match: the matcher knew only linalg_vector_norm).
  const auto m = first_row_match(real("h200_level1_39_L2Norm__graph_0.py"));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->params, (nlohmann::json{{"op", "l2_normalize"}, {"row_bytes", 65535 * 4}}));
  EXPECT_NE(m->why.find("f32[32768, 65535]"), std::string::npos) << m->why;
  // Frobenius normalization divides by the norm of the whole tensor: not a row operation.
  EXPECT_FALSE(first_row_match(real("h200_level1_37_FrobeniusNorm__graph_0.py")).has_value());
}

TEST(Match, RowTwoPassNotWhereItDoesNotApply) {
  // Elementwise, a norm over groups, a reduction over a middle dim, a scan, a loss (softmax
  // followed by a gather and a mean), a pooling.
  for (const char* name :
       {"h200_level1_19_ReLU_graph_0.py", "h200_level1_35_GroupNorm__graph_0.py",
        "h200_level1_51_Argmax_over_a_dimension_graph_0.py", "h200_level1_89_cumsum_graph_0.py",
        "h200_level1_95_CrossEntropyLoss_graph_0.py", "h200_level1_41_Max_Pooling_1D_graph_0.py",
        "h200_level1_37_FrobeniusNorm__graph_0.py"}) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(first_row_match(real(name)).has_value());
  }
}

TEST(Match, CrossEntropyOverThreeLaunches) {
  const Captured c = real("h200_level1_95_CrossEntropyLoss_graph_0.py");
  ASSERT_EQ(c.map.segments.size(), 1U);
  ASSERT_EQ(c.map.segments[0].launches.size(), 3U);
  const auto m = propose::match_cross_entropy(c.run.code, c.map, c.map.segments[0]);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->params, (nlohmann::json{{"reduction", "mean"}, {"ignore_index", -100}}));
  EXPECT_NE(m->why.find("f32[32768, 4096] logits, i64 targets"), std::string::npos) << m->why;
  const auto any = propose::match_recipe(c.run.code, c.map, c.map.segments[0]);
  ASSERT_TRUE(any.has_value());
  EXPECT_EQ(any->recipe, "cross_entropy");
  // Softmax alone, a norm, an arg-reduction, a scan, elementwise: not a cross-entropy.
  for (const char* name :
       {"h200_level1_23_Softmax_graph_0.py", "h200_level1_35_GroupNorm__graph_0.py",
        "h200_level1_51_Argmax_over_a_dimension_graph_0.py", "h200_level1_89_cumsum_graph_0.py",
        "h200_level1_19_ReLU_graph_0.py"}) {
    SCOPED_TRACE(name);
    const Captured other = real(name);
    for (const auto& segment : other.map.segments) {
      EXPECT_FALSE(propose::match_cross_entropy(other.run.code, other.map, segment).has_value());
    }
  }
}

TEST(Match, ScanForwardAndMasked) {
  const Captured plain = real("h200_level1_89_cumsum_graph_0.py");
  const auto m = propose::match_scan(plain.run.code, plain.map, plain.map.segments.at(0));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->params, (nlohmann::json{{"x", "arg0_1"},
                                       {"mask", nullptr},
                                       {"reverse", false},
                                       {"op", "sum"},
                                       {"minus", false},
                                       {"columns", 32768}}));
  const Captured masked = real("h200_level1_93_masked_cumsum_graph_0.py");
  const auto mm = propose::match_recipe(masked.run.code, masked.map, masked.map.segments.at(0));
  ASSERT_TRUE(mm.has_value());
  EXPECT_EQ(mm->recipe, "scan");
  EXPECT_EQ(mm->params, (nlohmann::json{{"x", "arg0_1"},
                                        {"mask", "arg1_1"},
                                        {"reverse", false},
                                        {"op", "sum"},
                                        {"minus", false},
                                        {"columns", 32768}}));
  EXPECT_NE(mm->why.find("times a b8 mask"), std::string::npos) << mm->why;
  for (const char* name :
       {"h200_level1_23_Softmax_graph_0.py", "h200_level1_51_Argmax_over_a_dimension_graph_0.py",
        "h200_level1_95_CrossEntropyLoss_graph_0.py", "h200_level1_19_ReLU_graph_0.py"}) {
    SCOPED_TRACE(name);
    const Captured other = real(name);
    for (const auto& segment : other.map.segments) {
      EXPECT_FALSE(propose::match_scan(other.run.code, other.map, segment).has_value());
    }
  }
}

// The reversed scan, cumsum(x.flip(1), 1).flip(1), as Inductor compiles it on the H200: a scan
// kernel reading prims.rev(x) and a pointwise kernel writing prims.rev(scan) (two launches).
TEST(Match, ScanReversedOnTheRealCapture) {
  const Captured c = real("h200_level1_91_cumsum_reverse_graph_0.py");
  ASSERT_EQ(c.map.segments.size(), 1U);
  EXPECT_EQ(c.map.segments[0].launches.size(), 2U);
  const auto m = propose::match_recipe(c.run.code, c.map, c.map.segments[0]);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->recipe, "scan");
  EXPECT_EQ(m->params, (nlohmann::json{{"x", "arg0_1"},
                                       {"mask", nullptr},
                                       {"reverse", true},
                                       {"op", "sum"},
                                       {"minus", false},
                                       {"columns", 32768}}));
}

// The same with aten.flip nodes (the form before decomposition), written into the real cumsum
// capture's fragment; a flip over another dimension is refused.
TEST(Match, ScanReversedByTwoFlips) {
  const std::string original = real_text("h200_level1_89_cumsum_graph_0.py");
  const std::string type = R"(Tensor "f32[32768, 32768][32768, 1]cuda:0"[num_users=1])";
  const std::string scan_line =
      "#   %cumsum : " + type +
      " = call_function[target=torch.ops.aten.cumsum.default](args = (%arg0_1, 1), kwargs = {})";
  ASSERT_NE(original.find(scan_line), std::string::npos);
  const auto with = [&](const std::string& first_dim, const std::string& second_dim) {
    std::string text = original;
    const std::string lines =
        "#   %flip : " + type +
        " = call_function[target=torch.ops.aten.flip.default](args = " + "(%arg0_1, [" + first_dim +
        "]), kwargs = {})\n#   %cumsum : " + type +
        " = call_function[target=torch.ops.aten.cumsum.default](args = (%flip, 1), kwargs = {})" +
        "\n#   %flip_1 : " + type +
        " = call_function[target=torch.ops.aten.flip.default](args = (%cumsum, [" + second_dim +
        "]), kwargs = {})";
    text.replace(text.find(scan_line), scan_line.size(), lines);
    const Captured c = parsed(text);
    return propose::match_scan(c.run.code, c.map, c.map.segments.at(0));
  };
  const auto reversed = with("1", "-1");
  ASSERT_TRUE(reversed.has_value());
  EXPECT_EQ(reversed->params, (nlohmann::json{{"x", "arg0_1"},
                                              {"mask", nullptr},
                                              {"reverse", true},
                                              {"op", "sum"},
                                              {"minus", false},
                                              {"columns", 32768}}));
  EXPECT_FALSE(with("0", "1").has_value());  // a flip over another dimension
}

// A scaled reversed scan, cumsum(x.flip(1), 1).flip(1) / c: the division by a literal fused
// into the kernel that flips the result back (as Inductor fused it for
// examples/reverse_cumsum_eager_tanh.py on the H100), written into the real L1/91 capture. The
// recipe multiplies by 1 / c after the scan; a division by a tensor, a second epilogue or one
// that does not take the scan's result is refused.
TEST(Match, ScanWithAConstantEpilogue) {
  const std::string original = real_text("h200_level1_91_cumsum_reverse_graph_0.py");
  const std::string type = R"(Tensor "f32[32768, 32768][32768, 1]cuda:0"[num_users=1])";
  const std::string rev_line = "#   %rev_1 : " + type +
                               " = call_function[target=torch.ops.prims.rev.default](args = "
                               "(%cumsum, [1]), kwargs = {})\n";
  const std::string flip_back = rev_line + "#   return %rev_1";
  ASSERT_NE(original.find(flip_back), std::string::npos);
  const auto node = [&](const std::string& name, const std::string& target,
                        const std::string& args) {
    return "#   %" + name + " : " + type + " = call_function[target=torch.ops.aten." + target +
           "](args = (" + args + "), kwargs = {})\n";
  };
  const auto with = [&](const std::string& epilogue, const std::string& returned) {
    std::string text = original;
    const std::string lines = rev_line + epilogue + "#   return %" + returned;
    text.replace(text.find(flip_back), flip_back.size(), lines);
    const Captured c = parsed(text);
    return propose::match_scan(c.run.code, c.map, c.map.segments.at(0));
  };
  const auto over = with(node("div", "div.Tensor", "%rev_1, 4.0"), "div");
  ASSERT_TRUE(over.has_value());
  EXPECT_EQ(over->params, (nlohmann::json{{"x", "arg0_1"},
                                          {"mask", nullptr},
                                          {"reverse", true},
                                          {"op", "sum"},
                                          {"minus", false},
                                          {"scale", 0.25},
                                          {"columns", 32768}}));
  EXPECT_NE(over->why.find("over 4"), std::string::npos) << over->why;
  EXPECT_EQ(over->params.at("scale"), 0.25);
  EXPECT_FALSE(over->params.value("minus", false));
  const auto times = with(node("mul", "mul.Tensor", "%rev_1, -2.5"), "mul");
  ASSERT_TRUE(times.has_value());
  EXPECT_EQ(times->params.at("scale"), -2.5);
  // Without an epilogue there is no scale (the plain capture's parameters stay as they were).
  EXPECT_FALSE(with("", "rev_1")->params.contains("scale"));
  // Refused: over a tensor, over zero, by inf, over a number whose reciprocal overflows, two
  // epilogues, a constant applied to the input.
  EXPECT_FALSE(with(node("div", "div.Tensor", "%rev_1, %arg0_1"), "div").has_value());
  EXPECT_FALSE(with(node("div", "div.Tensor", "%rev_1, 0.0"), "div").has_value());
  EXPECT_FALSE(with(node("mul", "mul.Tensor", "%rev_1, inf"), "mul").has_value());
  EXPECT_FALSE(with(node("div", "div.Tensor", "%rev_1, 1e-320"), "div").has_value());
  EXPECT_FALSE(
      with(node("div", "div.Tensor", "%rev_1, 4.0") + node("mul", "mul.Tensor", "%div, 2.0"), "mul")
          .has_value());
  EXPECT_FALSE(with(node("mul", "mul.Tensor", "%arg0_1, 2.0"), "rev_1").has_value());
}

TEST(Match, MaxPoolOfAnUnsqueezedInput) {
  // KernelBench L1/41, MaxPool1d(8, stride 1, padding 4, dilation 3) on the H200: a 2-D low-memory
  // max pool of x.unsqueeze(-2).
  const Captured c = real("h200_level1_41_Max_Pooling_1D_graph_0.py");
  const auto m = propose::match_recipe(c.run.code, c.map, c.map.segments.at(0));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->recipe, "pool");
  EXPECT_EQ(m->params, (nlohmann::json{{"op", "max"},
                                       {"x", "arg0_1"},
                                       {"unsqueeze", -2},
                                       {"kernel", {1, 8}},
                                       {"stride", {1, 1}},
                                       {"padding", {0, 4}},
                                       {"dilation", {1, 3}},
                                       {"ceil_mode", false},
                                       {"columns", 65523}}));
  // Stride 1 and a window of 8 along the last dim: the running-max form's two settings first, one
  // output row a program, 256 and 1024 windows of each phase.
  const auto settings = propose::initial_settings(*m);
  ASSERT_EQ(settings.size(), 5U);
  EXPECT_EQ(settings.at(0),
            (nlohmann::json{{"rows", 1}, {"block", 256}, {"num_warps", 4}, {"sliding", 1}}));
  expect_recipe_source(propose::source_of(*m, 0, settings.at(0)), *m, settings.at(0));
  EXPECT_EQ(settings.at(1).value("sliding", 0), 1);
  // Its neighbours keep one row a program: they move the windows and the warps only.
  for (const auto& next : propose::neighbours_of(*m, settings.at(0))) {
    EXPECT_EQ(next.at("rows"), 1) << next.dump();
    EXPECT_EQ(next.at("sliding"), 1) << next.dump();
  }
  // Then the direct form: rows of 65523 output columns, 1024 and then 256 columns a program; sizes
  // unknown (256 assumed): 4 x 256 once, not twice.
  EXPECT_EQ(settings.at(2).value("sliding", 0), 0);
  EXPECT_EQ(settings.at(2), (nlohmann::json{{"rows", 1}, {"block", 1024}, {"num_warps", 4}}));
  propose::Match unknown = *m;
  unknown.params.erase("columns");
  const auto unknown_settings = propose::initial_settings(unknown);
  EXPECT_EQ(std::vector<nlohmann::json>(unknown_settings.begin() + 2, unknown_settings.end()),
            (std::vector<nlohmann::json>{{{"rows", 4}, {"block", 256}, {"num_warps", 4}},
                                         {{"rows", 8}, {"block", 256}, {"num_warps", 8}}}));
  // A window of 3 or a stride of 2 along the last dim: the direct form only.
  for (const auto& [kernel, stride] : {std::pair{3, 1}, std::pair{8, 2}}) {
    propose::Match other = *m;
    other.params["kernel"] = {1, kernel};
    other.params["stride"] = {1, stride};
    for (const auto& s : propose::initial_settings(other)) {
      EXPECT_EQ(s.value("sliding", 0), 0) << kernel << " " << stride;
    }
  }
  // Reductions, softmax: not a pool.
  for (const char* name : {"h200_level1_47_Sum_reduction_over_a_dimension_graph_0.py",
                           "h200_level1_23_Softmax_graph_0.py"}) {
    SCOPED_TRACE(name);
    const Captured other = real(name);
    for (const auto& segment : other.map.segments) {
      EXPECT_FALSE(propose::match_pool(other.run.code, other.map, segment).has_value());
    }
  }
}

// The norm forms models write, on the real L1/39 capture (pow 2, sum, pow 0.5, div over the rows)
// with its fragment edited into each form: the mean with eps inside the root (an RMS norm), rsqrt
// and a multiply, F.normalize's clamp, a weight along the row; and the forms the recipe does not
// compute, refused.
TEST(Match, NormFormsOnTheEditedL2NormCapture) {
  const std::string original = real_text("h200_level1_39_L2Norm__graph_0.py");
  const std::string big = R"(Tensor "f32[32768, 65535][65535, 1]cuda:0"[num_users=1])";
  const std::string small = R"(Tensor "f32[32768, 1][1, 1]cuda:0"[num_users=1])";
  const std::string first = "#   %pow_1 : ";
  const std::string last = "#   return %sum_1,%div";
  ASSERT_NE(original.find(first), std::string::npos);
  ASSERT_NE(original.find(last), std::string::npos);
  const auto node = [](const std::string& name, const std::string& type, const std::string& target,
                       const std::string& args) {
    return "#   %" + name + " : " + type + " = call_function[target=torch.ops." + target +
           "](args = (" + args + "), kwargs = {})\n";
  };
  // The fragment's nodes from pow_1 to the return replaced by `lines` (a weight placeholder
  // first when asked).
  const auto with = [&](const std::string& lines, const std::string& placeholder = "") {
    std::string text = original;
    const std::size_t from = text.find(first);
    const std::size_t to = text.find(last) + last.size();
    text.replace(from, to - from, placeholder + lines + "#   return %out");
    const Captured c = parsed(text);
    return propose::match_norm(c.run.code, c.map, c.map.segments.at(0));
  };
  const std::string square = node("pow_1", big, "aten.pow.Tensor_Scalar", "%arg0_1, 2");
  const std::string total = node("sum_1", small, "aten.sum.dim_IntList", "%pow_1, [1], True");
  const std::string average = node("sum_1", small, "aten.mean.dim", "%pow_1, [1], True");
  const std::string root = node("pow_2", small, "aten.pow.Tensor_Scalar", "%sum_1, 0.5");
  const std::string out_div = node("out", big, "aten.div.Tensor", "%arg0_1, %pow_2");

  // As captured (x / torch.norm(x, dim=1, keepdim=True)): L2 over the last dim.
  const auto plain = with(square + total + root + out_div);
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->recipe, "norm_dim");
  EXPECT_EQ(plain->params, (nlohmann::json{{"x", "arg0_1"},
                                           {"dim", 1},
                                           {"size", 65535},
                                           {"p", 2},
                                           {"mean", false},
                                           {"eps", 0.0},
                                           {"clamp", 0.0},
                                           {"weight", nullptr},
                                           {"last", true},
                                           {"row_bytes", 65535 * 4}}));
  // The unedited capture is the same form (row_two_pass takes it first in match_recipe).
  const Captured c39 = real("h200_level1_39_L2Norm__graph_0.py");
  EXPECT_EQ(propose::match_norm(c39.run.code, c39.map, c39.map.segments.at(0))->params,
            plain->params);

  // RMS: mean of squares + eps, rsqrt, x * that, times a weight of the row's length (nn.RMSNorm).
  const std::string weight =
      "#   %arg1_1 : Tensor \"f32[65535][1]cuda:0\" = PlaceHolder[target=arg1_1]\n";
  const std::string rms_body =
      node("pow_1", big, "aten.pow.Tensor_Scalar", "%arg0_1, 2") + average +
      node("add", small, "aten.add.Scalar", "%sum_1, 9.999999747378752e-06") +
      node("rsqrt", small, "aten.rsqrt.default", "%add") +
      node("mul", big, "aten.mul.Tensor", "%arg0_1, %rsqrt");
  const auto rms = with(rms_body + node("out", big, "aten.mul.Tensor", "%mul, %arg1_1"), weight);
  ASSERT_TRUE(rms.has_value());
  EXPECT_EQ(rms->params.at("mean"), true);
  EXPECT_EQ(rms->params.at("eps"), 9.999999747378752e-06);
  EXPECT_EQ(rms->params.at("weight"), "arg1_1");
  EXPECT_NE(rms->why.find("RMS normalization over dim 1"), std::string::npos) << rms->why;
  // The weight on either side of the multiply; x * x for the square; sqrt and a division.
  EXPECT_TRUE(with(rms_body + node("out", big, "aten.mul.Tensor", "%arg1_1, %mul"), weight));
  const auto by_mul = with(node("pow_1", big, "aten.mul.Tensor", "%arg0_1, %arg0_1") + average +
                           node("add", small, "aten.add.Tensor", "%sum_1, 1e-06") +
                           node("pow_2", small, "aten.sqrt.default", "%add") + out_div);
  ASSERT_TRUE(by_mul.has_value());
  EXPECT_EQ(by_mul->params.at("eps"), 1e-06);
  // F.normalize: the norm clamped from below, through an expand.
  const auto clamped =
      with(square + total + node("pow_3", small, "aten.pow.Tensor_Scalar", "%sum_1, 0.5") +
           node("clamp_min", small, "aten.clamp_min.default", "%pow_3, 1e-12") +
           node("pow_2", big, "aten.expand.default", "%clamp_min, [32768, 65535]") + out_div);
  ASSERT_TRUE(clamped.has_value());
  EXPECT_EQ(clamped->params.at("clamp"), 1e-12);
  EXPECT_EQ(clamped->params.at("eps"), 0.0);
  // L1 over the mean of absolute values, eps added.
  const auto l1 = with(node("pow_1", big, "aten.abs.default", "%arg0_1") + average +
                       node("pow_2", small, "aten.add.Tensor", "%sum_1, 0.5") + out_div);
  ASSERT_TRUE(l1.has_value());
  EXPECT_EQ(l1->params.at("p"), 1);
  EXPECT_EQ(l1->params.at("eps"), 0.5);

  // Rows that are not contiguous as a whole (a padded row stride) are not row_two_pass's.
  {
    std::string padded = original;
    const std::string from = R"(PlaceHolder[target=arg0_1])";
    const std::string x_type = R"("f32[32768, 65535][65535, 1]cuda:0" = )" + from;
    ASSERT_NE(padded.find(x_type), std::string::npos);
    padded.replace(padded.find(x_type), x_type.size(),
                   R"("f32[32768, 65535][65536, 1]cuda:0" = )" + from);
    const Captured c = parsed(padded);
    EXPECT_FALSE(propose::match_norm(c.run.code, c.map, c.map.segments.at(0)));
  }
  // Refused: eps outside the root (norm + eps), a cube, no keepdim, x / rsqrt, a negative or
  // infinite eps, a clamp of rsqrt, a weight of the wrong length or a graph input's own square,
  // a step the form does not know, two reductions.
  EXPECT_FALSE(with(square + total + node("pow_3", small, "aten.pow.Tensor_Scalar", "%sum_1, 0.5") +
                    node("pow_2", small, "aten.add.Tensor", "%pow_3, 1e-06") + out_div));
  EXPECT_FALSE(
      with(node("pow_1", big, "aten.pow.Tensor_Scalar", "%arg0_1, 3") + total + root + out_div));
  EXPECT_FALSE(
      with(square + node("sum_1", small, "aten.sum.dim_IntList", "%pow_1, [1]") + root + out_div));
  EXPECT_FALSE(
      with(square + total + node("pow_2", small, "aten.rsqrt.default", "%sum_1") + out_div));
  for (const char* eps : {"%sum_1, -1e-06", "%sum_1, inf"}) {
    std::string lines = square;
    lines += average;
    lines += node("add", small, "aten.add.Tensor", eps);
    lines += node("pow_2", small, "aten.sqrt.default", "%add");
    lines += out_div;
    EXPECT_FALSE(with(lines)) << eps;
  }
  EXPECT_FALSE(with(square + average + node("r", small, "aten.rsqrt.default", "%sum_1") +
                    node("clamp_min", small, "aten.clamp_min.default", "%r, 1e-12") +
                    node("out", big, "aten.mul.Tensor", "%arg0_1, %clamp_min")));
  EXPECT_FALSE(with(rms_body + node("out", big, "aten.mul.Tensor", "%mul, %arg1_1"),
                    "#   %arg1_1 : Tensor \"f32[65534][1]cuda:0\" = PlaceHolder[target=arg1_1]\n"));
  EXPECT_FALSE(with(rms_body + node("out", big, "aten.mul.Tensor", "%mul, %mul")));
  EXPECT_FALSE(
      with(square + total + root + out_div + node("tanh", big, "aten.tanh.default", "%out")));
  EXPECT_FALSE(with(square + total + root +
                    node("out1", big, "aten.div.Tensor", "%arg0_1, %pow_2") +
                    node("sum_2", small, "aten.sum.dim_IntList", "%out1, [1], True") +
                    node("out", big, "aten.div.Tensor", "%out1, %sum_2")));
}

// The norm examples as Inductor compiled them on an H100: an RMS norm over the
// channels (pow, mean, add, sqrt, div), F.normalize over the channels (pow, sum, pow 0.5,
// clamp_min, expand, div) and nn.RMSNorm over long rows (pow, mean, add, rsqrt, mul, mul by the
// weight, in Inductor's `_fused_rms_norm` kernel): each a norm_dim match with its form.
TEST(Match, NormDimOnTheRealCaptures) {
  struct Case {
    const char* file;
    nlohmann::json params;
  };

  const std::vector<Case> cases = {{"h100_example_rms_norm_channels_graph_0.py",
                                    {{"x", "arg0_1"},
                                     {"dim", 1},
                                     {"size", 80},
                                     {"p", 2},
                                     {"mean", true},
                                     {"eps", 1e-06},
                                     {"clamp", 0.0},
                                     {"weight", nullptr},
                                     {"last", false},
                                     {"columns", 96 * 96}}},
                                   {"h100_example_normalize_channels_graph_0.py",
                                    {{"x", "arg0_1"},
                                     {"dim", 1},
                                     {"size", 144},
                                     {"p", 2},
                                     {"mean", false},
                                     {"eps", 0.0},
                                     {"clamp", 1e-12},
                                     {"weight", nullptr},
                                     {"last", false},
                                     {"columns", 80 * 72}}},
                                   {"h100_example_rms_norm_rows_graph_0.py",
                                    {{"x", "arg1_1"},
                                     {"dim", 1},
                                     {"size", 40000},
                                     {"p", 2},
                                     {"mean", true},
                                     {"eps", 1e-05},
                                     {"clamp", 0.0},
                                     {"weight", "arg0_1"},
                                     {"last", true},
                                     {"row_bytes", 160000}}}};
  for (const auto& [file, params] : cases) {
    SCOPED_TRACE(file);
    const Captured c = real(file);
    ASSERT_EQ(c.map.segments.size(), 1U);
    const auto m = propose::match_recipe(c.run.code, c.map, c.map.segments.at(0));
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->recipe, "norm_dim");
    EXPECT_EQ(m->params, params);
    // No other recipe claims them first, and the norm matcher claims none of the other captures'
    // segments it should not: reductions, softmax, group norms, scans, pools.
    EXPECT_FALSE(propose::match_reduce_dim(c.run.code, c.map, c.map.segments.at(0)));
  }
  for (const char* other :
       {"h200_level1_47_Sum_reduction_over_a_dimension_graph_0.py",
        "h200_level1_23_Softmax_graph_0.py", "h200_level1_35_GroupNorm__graph_0.py",
        "h200_level1_37_FrobeniusNorm__graph_0.py", "h200_level1_33_BatchNorm_graph_0.py",
        "h200_example_mean_middle_graph_0.py", "h200_level1_91_cumsum_reverse_graph_0.py"}) {
    SCOPED_TRACE(other);
    const Captured c = real(other);
    for (const auto& segment : c.map.segments) {
      EXPECT_FALSE(propose::match_norm(c.run.code, c.map, segment));
    }
  }
}

// norm_dim's candidates: a short middle dim is first held whole in registers, then walked in
// reduce_dim's tiles; the innermost gets row_two_pass's settings; all are Python that calls the
// recipe with the form's parameters.
TEST(Match, NormDimCandidates) {
  const propose::Match middle{"norm_dim",
                              {{"x", "arg0_1"},
                               {"dim", 1},
                               {"size", 80},
                               {"p", 2},
                               {"mean", true},
                               {"eps", 1e-06},
                               {"clamp", 0.0},
                               {"weight", nullptr},
                               {"last", false},
                               {"columns", 9216}},
                              "RMS"};
  const auto settings = propose::initial_settings(middle);
  ASSERT_EQ(settings.size(), 4U);
  // 80 rows padded to 128: 32 and 16 columns make 4096 and 2048 elements.
  EXPECT_EQ(settings.at(0),
            (nlohmann::json{{"rows_per_step", 0}, {"cols_per_program", 32}, {"num_warps", 8}}));
  EXPECT_EQ(settings.at(1),
            (nlohmann::json{{"rows_per_step", 0}, {"cols_per_program", 16}, {"num_warps", 4}}));
  EXPECT_EQ(settings.at(2).at("rows_per_step"), 8);
  // Held whole, the neighbours vary the columns and warps only, within 32768 elements.
  const auto resident = propose::neighbours_of(middle, settings.at(0));
  ASSERT_FALSE(resident.empty());
  for (const auto& n : resident) {
    EXPECT_EQ(n.at("rows_per_step"), 0) << n;
    EXPECT_LE(n.at("cols_per_program").get<long>() * 128, 32768) << n;
  }
  const std::string resident_text = propose::source_of(middle, 2, settings.at(0));
  expect_recipe_source(resident_text, middle, settings.at(0));
  // A long dimension is walked only.
  nlohmann::json long_params = middle.params;
  long_params["size"] = 5000;
  EXPECT_EQ(propose::initial_settings({"norm_dim", long_params, "RMS"}).at(0).at("rows_per_step"),
            8);
  EXPECT_EQ(settings.at(2),
            (nlohmann::json{{"rows_per_step", 8}, {"cols_per_program", 128}, {"num_warps", 4}}));
  const std::string text = propose::source_of(middle, 2, settings.at(2));
  expect_recipe_source(text, middle, settings.at(2));
  for (const auto& n : propose::neighbours_of(middle, settings.at(2))) {
    EXPECT_NE(n.at("rows_per_step"), 0) << n;
  }
  // Few columns after the dimension: tiles as wide as they are, held whole or walked.
  nlohmann::json narrow_params = middle.params;
  narrow_params["columns"] = 20;
  const auto narrow = propose::initial_settings({"norm_dim", narrow_params, "RMS"});
  EXPECT_EQ(narrow.at(0).at("cols_per_program"), 32);
  EXPECT_EQ(narrow.at(2).at("cols_per_program"), 32);
  EXPECT_NE(narrow.at(2).at("rows_per_step"), 0);
  nlohmann::json row_params = middle.params;
  row_params["last"] = true;
  row_params["weight"] = "arg1_1";
  row_params["row_bytes"] = 160000;
  const propose::Match row{"norm_dim", row_params, "RMS"};
  const auto row_settings = propose::initial_settings(row);
  // Rows of 160 kB: the split setting is among the starts.
  EXPECT_TRUE(std::any_of(row_settings.begin(), row_settings.end(),
                          [](const auto& s) { return s.contains("split"); }));
  EXPECT_EQ(
      row_settings.at(0),
      (nlohmann::json{{"block", 4096}, {"num_warps", 16}, {"programs_per_sm", 0}, {"reverse", 1}}));
  const std::string row_text = propose::source_of(row, 0, row_settings.at(0));
  expect_recipe_source(row_text, row, row_settings.at(0));
  const fs::path tmp =
      fs::temp_directory_path() / ("kernelopt_norm_candidate_" + std::to_string(getpid()) + ".py");
  for (const std::string& source : {text, resident_text, row_text}) {
    std::ofstream(tmp) << source;
    const std::string command =
        "python3 -c \"import ast,sys; ast.parse(open(sys.argv[1]).read())\" " + tmp.string();
    EXPECT_EQ(std::system(command.c_str()), 0) << source;
  }
  fs::remove(tmp);
}

// The shifted-input idioms of an exclusive scan, as Inductor compiled them on an H100:
// cumsum(cat([zeros, x[:, :-1]]), 1) and cumsum(pad(x[:, :-1], (1, 0)), 1) are the recipe's
// exclusive scan; cumsum(cat([zeros, x]), 1) its inclusive scan with the zero in front (one more
// column). Edited captures: the shifts the recipe does not compute are refused.
TEST(Match, ScanOfAShiftedInput) {
  const auto scan_of = [](const std::string& text) {
    const Captured c = parsed(text);
    return propose::match_scan(c.run.code, c.map, c.map.segments.at(0));
  };
  const std::string cat_text = real_text("h100_example_exclusive_cumsum_cat_graph_0.py");
  const auto cat = scan_of(cat_text);
  ASSERT_TRUE(cat.has_value());
  EXPECT_EQ(cat->params, (nlohmann::json{{"x", "arg0_1"},
                                         {"mask", nullptr},
                                         {"reverse", false},
                                         {"op", "sum"},
                                         {"minus", false},
                                         {"exclusive", true},
                                         {"columns", 24000}}));
  const auto pad = scan_of(real_text("h100_example_exclusive_cumsum_pad_graph_0.py"));
  ASSERT_TRUE(pad.has_value());
  EXPECT_EQ(pad->params.at("exclusive"), true);
  EXPECT_NE(pad->why.find("constant_pad_nd"), std::string::npos) << pad->why;
  const std::string prepend_text = real_text("h100_example_cumsum_prepend_zero_graph_0.py");
  const auto prepend = scan_of(prepend_text);
  ASSERT_TRUE(prepend.has_value());
  EXPECT_EQ(prepend->params.at("prepend"), true);
  EXPECT_FALSE(prepend->params.contains("exclusive"));
  EXPECT_EQ(prepend->params.at("columns"), 30001);
  // The candidates carry the flags to the recipe's launch().
  const auto cat_settings = propose::initial_settings(*cat).at(0);
  expect_recipe_source(propose::source_of(*cat, 0, cat_settings), *cat, cat_settings);
  const auto prepend_settings = propose::initial_settings(*prepend).at(0);
  expect_recipe_source(propose::source_of(*prepend, 0, prepend_settings), *prepend,
                       prepend_settings);
  // Refused: a lead that is not the neutral element, a slice that drops two elements or starts
  // at one, a cumprod of a zero-led input, a pad of two or of ones.
  const auto edited = [&](const std::string& text, const std::string& from, const std::string& to) {
    std::string out = text;
    const auto at = out.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) out.replace(at, from.size(), to);
    return out;
  };
  EXPECT_FALSE(scan_of(edited(cat_text, "args = ([3000, 1], 0)", "args = ([3000, 1], 1)")));
  EXPECT_FALSE(
      scan_of(edited(cat_text, "args = (%arg0_1, 1, 0, -1)", "args = (%arg0_1, 1, 0, -2)")));
  EXPECT_FALSE(
      scan_of(edited(cat_text, "args = (%arg0_1, 1, 0, -1)", "args = (%arg0_1, 1, 1, 24000)")));
  EXPECT_FALSE(scan_of(edited(cat_text, "aten.cumsum.default](args = (%cat, 1)",
                              "aten.cumprod.default](args = (%cat, 1)")));
  const std::string pad_text = real_text("h100_example_exclusive_cumsum_pad_graph_0.py");
  EXPECT_FALSE(scan_of(edited(pad_text, "(%slice_1, [1, 0], 0.0)", "(%slice_1, [2, 0], 0.0)")));
  EXPECT_FALSE(scan_of(edited(pad_text, "(%slice_1, [1, 0], 0.0)", "(%slice_1, [1, 0], 1.0)")));
  // The plain scans keep their parameters: no exclusive or prepend key appears.
  const Captured plain = real("h200_level1_89_cumsum_graph_0.py");
  const auto inclusive = propose::match_scan(plain.run.code, plain.map, plain.map.segments.at(0));
  ASSERT_TRUE(inclusive.has_value());
  EXPECT_FALSE(inclusive->params.contains("exclusive"));
  EXPECT_FALSE(inclusive->params.contains("prepend"));
}

// Recipe candidates run: the files source_of writes for four recipes, run under Triton's
// interpreter on small tensors, compute what PyTorch computes (the match's params and the
// settings reach each recipe's launch()).
TEST(Match, RecipeCandidatesRunUnderTheInterpreter) {
  const std::vector<std::pair<propose::Match, nlohmann::json>> candidates = {
      {{"reduce_dim", {{"op", "min"}, {"dim", 1}}, "aten.amin over dim 1"},
       {{"rows_per_step", 2}, {"cols_per_program", 16}}},
      {{"row_two_pass", {{"op", "log_softmax"}}, "log_softmax"},
       {{"block", 64}, {"num_warps", 4}, {"reverse", 0}}},
      {{"cross_entropy", {{"reduction", "sum"}, {"ignore_index", 3}}, "cross-entropy"},
       {{"rows", 4}}},
      {{"scan", {{"x", "arg0_1"}, {"mask", "arg1_1"}, {"reverse", true}}, "reversed cumsum"},
       {{"block", 32}}}};
  const fs::path dir =
      fs::temp_directory_path() / ("kernelopt_recipe_candidates_" + std::to_string(getpid()));
  fs::create_directories(dir);
  for (const auto& [match, settings] : candidates) {
    const std::string text = propose::source_of(match, 0, settings);
    expect_recipe_source(text, match, settings);
    std::ofstream(dir / (match.recipe + ".py")) << text;
  }
  std::ofstream(dir / "check.py") << R"(
import importlib.util, os, sys
import torch

def run(name, inputs, outputs):
    spec = importlib.util.spec_from_file_location(name, os.path.join(sys.argv[1], name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.run(inputs, outputs)
    return next(iter(outputs.values()))

torch.manual_seed(0)
x = torch.randn(3, 40, 24)
assert torch.equal(run("reduce_dim", {"arg0_1": x}, {"buf0": torch.empty(3, 24)}), x.amin(1))
x = torch.randn(6, 300)
out = run("row_two_pass", {"arg0_1": x}, {"buf0": torch.empty(6, 300)})
torch.testing.assert_close(out, torch.log_softmax(x, -1))
x, t = torch.randn(8, 10), torch.randint(0, 10, (8,))
out = run("cross_entropy", {"arg0_1": x, "arg1_1": t}, {"buf0": torch.empty(())})
torch.testing.assert_close(out, torch.nn.functional.cross_entropy(x, t, reduction="sum",
                                                                  ignore_index=3))
x, m = torch.randn(5, 70), (torch.rand(5, 70) > 0.5).float()
out = run("scan", {"arg0_1": x, "arg1_1": m}, {"buf0": torch.empty(5, 70)})
torch.testing.assert_close(out, (x * m).flip(-1).cumsum(-1).flip(-1))
print("ok")
)";
  expect_check_says(dir, "TRITON_INTERPRET=1", dir.string(), "ok");
}

// Average pooling on real H200 captures: 1-D (a 2-D pool of x.unsqueeze(-2)), 2-D with padding
// (KernelBench L1/45 and an example of ours) and 3-D; the candidate calls avg_pool with ATen's
// defaults for the flags the graph leaves out.
TEST(Match, AveragePools) {
  struct Case {
    const char* file;
    nlohmann::json params;
    nlohmann::json settings;  // the first starting setting
  };

  const std::vector<Case> cases = {
      {"h200_example_avg_pool_1d_graph_0.py",
       {{"op", "avg"},
        {"x", "arg0_1"},
        {"unsqueeze", -2},
        {"kernel", {1, 5}},
        {"stride", {1, 3}},
        {"padding", {0, 0}},
        {"dilation", {1, 1}},
        {"ceil_mode", false},
        {"count_include_pad", true},
        {"divisor_override", nullptr},
        {"columns", 9999}},
       {{"rows", 1}, {"block", 1024}, {"num_warps", 4}}},
      {"h200_example_avg_pool_2d_graph_0.py",
       {{"op", "avg"},
        {"x", "arg0_1"},
        {"unsqueeze", nullptr},
        {"kernel", {3, 3}},
        {"stride", {2, 2}},
        {"padding", {1, 1}},
        {"dilation", {1, 1}},
        {"ceil_mode", false},
        {"count_include_pad", true},
        {"divisor_override", nullptr},
        {"columns", 76}},
       {{"rows", 8}, {"block", 128}, {"num_warps", 4}}},
      {"h200_example_avg_pool_3d_graph_0.py",
       {{"op", "avg"},
        {"x", "arg0_1"},
        {"unsqueeze", nullptr},
        {"kernel", {2, 2, 2}},
        {"stride", {2, 2, 2}},
        {"padding", {0, 0, 0}},
        {"dilation", {1, 1, 1}},
        {"ceil_mode", false},
        {"count_include_pad", true},
        {"divisor_override", nullptr},
        {"columns", 45}},
       // Rows of 45 columns: 64 columns and 16 rows a program, not a quarter of 256 columns.
       {{"rows", 16}, {"block", 64}, {"num_warps", 4}}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const Captured cap = real(c.file);
    ASSERT_EQ(cap.map.segments.size(), 1U);
    const auto m = propose::match_recipe(cap.run.code, cap.map, cap.map.segments[0]);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->recipe, "pool");
    EXPECT_EQ(m->params, c.params);
    EXPECT_EQ(propose::initial_settings(*m).at(0), c.settings);
    expect_recipe_source(propose::source_of(*m, 0, c.settings), *m, c.settings);
  }
  const auto l45 = real("h200_level1_45_Average_Pooling_2D_graph_0.py");
  const auto m45 = propose::match_recipe(l45.run.code, l45.map, l45.map.segments.at(0));
  ASSERT_TRUE(m45.has_value());
  EXPECT_EQ(m45->params.at("op"), "avg");
}

// Reductions over a middle dimension beyond sum/max/argmax: mean.dim, prod.dim_int, argmin.
TEST(Match, MeanProdArgminOverAMiddleDimension) {
  const std::vector<std::tuple<const char*, const char*, int>> cases = {
      {"h200_example_mean_middle_graph_0.py", "mean", 2100},
      {"h200_example_prod_middle_graph_0.py", "prod", 30000},
      {"h200_example_argmin_middle_graph_0.py", "argmin", 6001}};
  for (const auto& [file, op, columns] : cases) {
    SCOPED_TRACE(file);
    const auto m = first_match(real(file));
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->params, (nlohmann::json{{"op", op}, {"dim", 1}, {"columns", columns}}));
  }
}

// cumprod, and cumsum(x) - x (an exclusive sum as a model writes it), on real H200 captures.
TEST(Match, CumprodAndCumsumMinusTheElement) {
  const auto prod = real("h200_example_cumprod_rows_graph_0.py");
  const auto mp = propose::match_recipe(prod.run.code, prod.map, prod.map.segments.at(0));
  ASSERT_TRUE(mp.has_value());
  EXPECT_EQ(mp->recipe, "scan");
  EXPECT_EQ(mp->params, (nlohmann::json{{"x", "arg0_1"},
                                        {"mask", nullptr},
                                        {"reverse", false},
                                        {"op", "prod"},
                                        {"minus", false},
                                        {"columns", 12000}}));
  const auto ex = real("h200_example_exclusive_cumsum_graph_0.py");
  const auto me = propose::match_recipe(ex.run.code, ex.map, ex.map.segments.at(0));
  ASSERT_TRUE(me.has_value());
  EXPECT_EQ(me->params, (nlohmann::json{{"x", "arg0_1"},
                                        {"mask", nullptr},
                                        {"reverse", false},
                                        {"op", "sum"},
                                        {"minus", true},
                                        {"columns", 15000}}));
  const auto settings = propose::initial_settings(*me).at(0);
  expect_recipe_source(propose::source_of(*me, 0, settings), *me, settings);
}

// Scans of short rows: a chunk as long as the row and several rows a program (rows of 100: chunks
// of 128, 16, 32 and 8 rows); long rows keep one row a program in wide chunks.
TEST(Match, ScanSettingsFitShortRows) {
  propose::Match m{"scan",
                   {{"x", "arg0_1"},
                    {"mask", nullptr},
                    {"reverse", false},
                    {"op", "sum"},
                    {"minus", false},
                    {"columns", 100}},
                   "cumsum"};
  const auto short_rows = propose::initial_settings(m);
  ASSERT_EQ(short_rows.size(), 3U);
  for (const auto& s : short_rows) {
    EXPECT_EQ(s.at("block"), 128) << s;
  }
  EXPECT_EQ(short_rows[0].at("rows"), 16);
  EXPECT_EQ(short_rows[1].at("rows"), 32);
  EXPECT_EQ(short_rows[2].at("rows"), 8);
  for (const auto& next : propose::neighbours_of(m, short_rows[0])) {
    EXPECT_LE(next.at("rows").get<int>() * next.at("block").get<int>(), 16384) << next;
  }
  m.params["columns"] = 5;  // at least 16 columns a chunk, at most 64 rows
  EXPECT_EQ(propose::initial_settings(m).front(),
            (nlohmann::json{{"rows", 64}, {"block", 16}, {"num_warps", 4}}));
  m.params["columns"] = 32768;
  EXPECT_EQ(propose::initial_settings(m).front(),
            (nlohmann::json{{"rows", 1}, {"block", 2048}, {"num_warps", 8}}));
  const auto settings = propose::initial_settings(m).front();
  expect_recipe_source(propose::source_of(m, 0, settings), m, settings);
}

// nn.GroupNorm on the real L1/35 capture (a statistics launch and a normalization launch): one
// group_norm match over both, with weight, bias and eps; its candidate calls the recipe on the
// segment's tensors by name. Not matched: a norm whose variance is unbiased, BatchNorm, the
// Frobenius norm, L2/85's GroupNorm followed by a scale and a pool (other nodes in the segment).
TEST(Match, GroupNormOverBothLaunches) {
  const Captured c = real("h200_level1_35_GroupNorm__graph_0.py");
  ASSERT_EQ(c.map.segments.size(), 1U);
  ASSERT_EQ(c.map.segments[0].launches.size(), 2U);
  const auto m = propose::match_recipe(c.run.code, c.map, c.map.segments[0]);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->recipe, "group_norm");
  EXPECT_EQ(m->params, (nlohmann::json{{"kind", "group"},
                                       {"x", "arg2_1"},
                                       {"weight", "arg0_1"},
                                       {"bias", "arg1_1"},
                                       {"groups", 8},
                                       {"eps", "1e-05"},
                                       {"row_bytes", 8L * 262144 * 4}}));
  const auto settings = propose::initial_settings(*m);
  ASSERT_EQ(settings.size(), 3U);
  EXPECT_EQ(settings.front(), (nlohmann::json{{"block", 4096},
                                              {"num_warps", 8},
                                              {"programs_per_sm", 4},
                                              {"split", 0},
                                              {"reverse", 1}}));
  expect_recipe_source(propose::source_of(*m, 0, settings.front()), *m, settings.front());
  bool halves_split = false;
  nlohmann::json fixed = settings.front();
  fixed["split"] = 16;
  for (const auto& next : propose::neighbours_of(*m, fixed)) {
    halves_split = halves_split || next.at("split") == 8;
  }
  EXPECT_TRUE(halves_split);

  std::ifstream in(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real" /
                   "h200_level1_35_GroupNorm__graph_0.py");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string unbiased = buffer.str();
  for (std::size_t at = 0; (at = unbiased.find("correction: 0", at)) != std::string::npos;) {
    unbiased.replace(at, 13, "correction: 1");
  }
  Captured other;
  other.run.code = inductor::parse_output_code(unbiased);
  other.map = analysis::build_dispatch_map({other.run}, {});
  EXPECT_FALSE(
      propose::match_group_norm(other.run.code, other.map, other.map.segments.at(0)).has_value());
  for (const char* name :
       {"h200_level1_33_BatchNorm_graph_0.py", "h200_level1_37_FrobeniusNorm__graph_0.py",
        "h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py",
        "h200_level1_39_L2Norm__graph_0.py"}) {
    SCOPED_TRACE(name);
    const Captured n = real(name);
    for (const auto& segment : n.map.segments) {
      EXPECT_FALSE(propose::match_group_norm(n.run.code, n.map, segment).has_value());
    }
  }
}

// The instance and layer forms of Inductor's decompositions (as make_fx with Inductor's table
// writes them), made from the real L1/35 capture's text: instance norm reads x viewed as
// [1, N * C, *spatial] over [0, 2, 3] (group_norm with C groups); layer norm reads x itself over
// its trailing dims, with parameters of those dims' shape (layer_norm), and is refused when the
// parameters are per channel.
std::string replaced(std::string text,
                     const std::vector<std::pair<std::string, std::string>>& subs) {
  for (const auto& [from, to] : subs) {
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) {
      text.replace(at, from.size(), to);
    }
  }
  return text;
}

std::optional<propose::Match> norm_match(const std::string& text) {
  Captured c;
  c.run.code = inductor::parse_output_code(text);
  c.map = analysis::build_dispatch_map({c.run}, {});
  return propose::match_recipe(c.run.code, c.map, c.map.segments.at(0));
}

TEST(Match, InstanceAndLayerNormForms) {
  std::ifstream in(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real" /
                   "h200_level1_35_GroupNorm__graph_0.py");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string group = buffer.str();

  const auto instance = norm_match(replaced(group, {{"[112, 8, 8, 262144]", "[1, 7168, 512, 512]"},
                                                    {"(%view, [2, 3])", "(%view, [0, 2, 3])"}}));
  ASSERT_TRUE(instance.has_value());
  EXPECT_EQ(instance->recipe, "group_norm");
  EXPECT_EQ(instance->params.at("kind"), "instance");
  EXPECT_EQ(instance->params.at("groups"), 64);
  EXPECT_EQ(instance->params.at("row_bytes"), 262144L * 4);
  EXPECT_EQ(instance->params.at("x"), "arg2_1");
  EXPECT_EQ(instance->params.at("eps"), "1e-05");

  const std::string layer_text = replaced(group, {{"(%view, [2, 3])", "(%arg2_1, [2, 3])"}});
  EXPECT_FALSE(norm_match(layer_text).has_value());  // [64] parameters: not a layer's
  const auto layer = norm_match(replaced(
      layer_text,
      {{"\"f32[64][1]cuda:0\" = PlaceHolder", "\"f32[512, 512][512, 1]cuda:0\" = PlaceHolder"}}));
  ASSERT_TRUE(layer.has_value());
  EXPECT_EQ(layer->params.at("kind"), "layer");
  EXPECT_EQ(layer->params.at("dims"), 2);
  EXPECT_EQ(layer->params.at("x"), "arg2_1");
  EXPECT_EQ(layer->params.at("weight"), "arg0_1");
  EXPECT_EQ(layer->params.at("bias"), "arg1_1");
  // Statistics over a leading dim are neither form.
  EXPECT_FALSE(norm_match(replaced(group, {{"(%view, [2, 3])", "(%view, [1, 2])"}})).has_value());
}

// x / sum(abs(x), 1, keepdim=True) on a real H200 capture; the same with the sum's input not
// abs(x) (x / sum(x)) is not an L1 normalization.
TEST(Match, RowTwoPassOnL1Normalization) {
  const std::string file = "h200_example_l1_norm_rows_graph_0.py";
  const auto c = real(file);
  const auto m = propose::match_recipe(c.run.code, c.map, c.map.segments.at(0));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->recipe, "row_two_pass");
  EXPECT_EQ(m->params, (nlohmann::json{{"op", "l1_normalize"}, {"row_bytes", 20000 * 4}}));
  // Rows of 80 kB: 132 in flight fit in L2, no split setting.
  for (const auto& settings : propose::initial_settings(*m)) {
    EXPECT_FALSE(settings.contains("split")) << settings;
  }
  std::ifstream in(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real" / file);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  const std::string from = "sum.dim_IntList](args = (%abs_1,";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), "sum.dim_IntList](args = (%arg0_1,");
  Captured other;
  other.run.code = inductor::parse_output_code(text);
  other.map = analysis::build_dispatch_map({other.run}, {});
  EXPECT_FALSE(
      propose::match_row_two_pass(other.run.code, other.map, other.map.segments.at(0)).has_value());
}

// --no-dispatch-aware: the real L3/1 MLP capture's extern mm and addmm (a transposed weight view,
// a stride-0 bias view) become gemm matches whose candidates rebuild each view and call the recipe;
// dispatch-aware, the same capture has no extern segment to match.
TEST(Match, GemmOnExternProductsWhenNotDispatchAware) {
  std::ifstream in(fs::path(KERNELOPT_SOURCE_DIR) /
                   "tests/fixtures/output_code/real/h200_level3_1_MLP_graph_0.py");
  std::ostringstream text;
  text << in.rdbuf();
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(text.str());
  analysis::AnalysisOptions options;
  options.dispatch_aware = false;
  const auto map = analysis::build_dispatch_map({run}, options);
  std::vector<propose::Match> gemms;
  for (const auto& segment : map.segments) {
    const auto m = propose::match_recipe(run.code, map, segment);
    EXPECT_EQ(m.has_value() && m->recipe == "gemm", segment.extern_call) << segment.id;
    if (m && m->recipe == "gemm") gemms.push_back(*m);
  }
  ASSERT_EQ(gemms.size(), 3U);
  EXPECT_EQ(gemms[0].params.at("op"), "mm");
  EXPECT_EQ(gemms[0].params.at("out"), "buf0");
  EXPECT_EQ(
      gemms[0].params.at("operands"),
      (nlohmann::json::array(
          {{{"name", "arg2_1"}, {"view", nullptr}},
           {{"name", "arg0_1"},
            {"view", {{"size", "(16384, 16384)"}, {"stride", "(1, 16384)"}, {"offset", 0}}}}})));
  EXPECT_EQ(gemms[2].params.at("op"), "addmm");
  EXPECT_EQ(gemms[2].params.at("operands").size(), 3U);
  // addmm's bias (a broadcast view) comes first, then the two factors.
  const auto& addmm = gemms[2].params.at("operands");
  EXPECT_EQ(
      addmm[0],
      (nlohmann::json{{"name", "arg6_1"},
                      {"view", {{"size", "(128, 8192)"}, {"stride", "(0, 1)"}, {"offset", 0}}}}));
  EXPECT_EQ(addmm[2],
            (nlohmann::json{
                {"name", "arg5_1"},
                {"view", {{"size", "(16384, 8192)"}, {"stride", "(1, 16384)"}, {"offset", 0}}}}));
  EXPECT_EQ(gemms[2].params.at("alpha"), "1");
  EXPECT_EQ(gemms[2].params.at("beta"), "1");
  const nlohmann::json settings = {{"block_m", 32}};
  expect_recipe_source(propose::source_of(gemms[2], 5, settings), gemms[2], settings);
  // Dispatch-aware (the default) the products are not segments at all.
  const auto aware = analysis::build_dispatch_map({run}, {});
  for (const auto& segment : aware.segments) {
    const auto m = propose::match_recipe(run.code, aware, segment);
    EXPECT_FALSE(m.has_value() && m->recipe == "gemm");
  }
  // Neighbours stay within the register budget: 256 x 256 tiles are never proposed.
  for (const auto& next : propose::neighbours_of(
           gemms[0], {{"block_m", 256}, {"block_n", 128}, {"block_k", 32}, {"num_warps", 8}})) {
    EXPECT_LE(next.at("block_m").get<long>() * next.at("block_n").get<long>(), 32768);
  }
}

// Max-autotune's own Triton matrix product (a template kernel) alone in a segment is a gemm match
// too, dispatch-aware or not: its operands are the placeholders, the output is viewed as the
// product's shape. A template with an epilogue launch after it in the segment, and the real L3/43
// template whose fragment also computes clones and views, are not.
TEST(Match, GemmOnATritonTemplateAlone) {
  std::ifstream in(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/e_template_mm.py");
  std::ostringstream text;
  text << in.rdbuf();
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(text.str());
  const auto map = analysis::build_dispatch_map({run}, {});
  ASSERT_EQ(map.segments.size(), 1U);
  ASSERT_EQ(map.segments[0].launches.size(), 2U);  // template + gelu
  EXPECT_FALSE(propose::match_recipe(run.code, map, map.segments[0]).has_value());
  analysis::Segment alone = map.segments[0];
  alone.launches = {0};
  const auto m = propose::match_recipe(run.code, map, alone);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->recipe, "gemm");
  EXPECT_EQ(m->params.at("op"), "mm");
  EXPECT_EQ(m->params.at("out"), "buf0");
  EXPECT_EQ(m->params.at("out_shape"), "(512, 1024)");
  EXPECT_EQ(m->params.at("operands"),
            (nlohmann::json::array({{{"name", "arg0_1"}, {"view", nullptr}},
                                    {{"name", "arg1_1"}, {"view", nullptr}}})));
  EXPECT_EQ(m->params.at("out"), "buf0");

  const Captured gpt = real("h200_level3_43_MinGPTCausalAttention_graph_0.py");
  for (const auto& segment : gpt.map.segments) {
    const auto other = propose::match_recipe(gpt.run.code, gpt.map, segment);
    EXPECT_FALSE(other.has_value() && other->recipe == "gemm") << segment.id;
  }
}

// The config proposer relaunches Inductor's own kernels: the mixed fixture's pointwise ReLU (a
// segment of its own) and its persistent softmax (in place on buf1: an output that is also an
// input), each written into a candidate file that runs under Triton's interpreter on the CPU and
// matches PyTorch with launch settings Inductor did not use. The two-launch segment (the softmax,
// then a row sum into `buf3 = reinterpret_tensor(buf2, ..., 0)`) is relaunched whole, each launch
// with settings of its own, the sum's pointer being buf2's.
TEST(Match, ConfigRelaunchesInductorsKernels) {
  std::ifstream in(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/a_runner_mixed.py");
  std::ostringstream text;
  text << in.rdbuf();
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(text.str());
  const auto map = analysis::build_dispatch_map({run}, {});
  ASSERT_EQ(map.segments.size(), 2U);
  const auto both = propose::match_config(run.code, map, map.segments[1]);
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ(both->params.at("kind"), "segment");
  ASSERT_EQ(both->params.at("launches").size(), 2U);
  EXPECT_EQ(both->params.at("launches")[1].at("args")[1],
            (nlohmann::json{{"param", "out_ptr0"}, {"from", "outputs"}, {"root", "buf2"}}));
  const auto both_settings = propose::initial_settings(*both);
  ASSERT_FALSE(both_settings.empty());
  EXPECT_TRUE(both_settings.front().contains("k0_XBLOCK") &&
              both_settings.front().contains("k1_R0_BLOCK"))
      << both_settings.front();
  for (const auto& next : propose::neighbours_of(*both, both_settings.front())) {
    EXPECT_EQ(next.size(), both_settings.front().size()) << next;  // one knob of one launch moved
  }
  const auto relu = propose::match_config(run.code, map, map.segments[0]);
  ASSERT_TRUE(relu.has_value());
  EXPECT_EQ(relu->params.at("args"),
            (nlohmann::json::array({{{"param", "in_ptr0"}, {"from", "inputs"}, {"root", "arg0_1"}},
                                    {{"param", "out_ptr0"}, {"from", "outputs"}, {"root", "buf0"}},
                                    {{"param", "xnumel"}, {"literal", 32768}}})));
  EXPECT_EQ(relu->params.at("constexprs"), nlohmann::json::array({"XBLOCK"}));
  EXPECT_EQ(propose::initial_settings(*relu).size(), 3U);
  analysis::Segment softmax_alone;
  softmax_alone.launches = {2};
  softmax_alone.inputs = {"buf1"};
  softmax_alone.outputs = {"buf1"};
  const auto softmax = propose::match_config(run.code, map, softmax_alone);
  ASSERT_TRUE(softmax.has_value());
  EXPECT_EQ(softmax->params.at("kind"), "persistent_reduction");
  for (const auto& next : propose::neighbours_of(*softmax, {{"XBLOCK", 8}, {"num_warps", 4}})) {
    EXPECT_LE(next.value("XBLOCK", 1), 16) << next;  // 1024-wide rows: 16 rows at most
  }

  const fs::path dir =
      fs::temp_directory_path() / ("kernelopt_config_candidates_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "relu.py") << propose::source_of(
      *relu, 0, {{"XBLOCK", 4096}, {"num_warps", 2}, {"num_stages", 1}});
  std::ofstream(dir / "softmax.py")
      << propose::source_of(*softmax, 1, {{"XBLOCK", 8}, {"num_warps", 2}});
  std::ofstream(dir / "both.py") << propose::source_of(*both, 1,
                                                       {{"k0_XBLOCK", 2},
                                                        {"k0_num_warps", 4},
                                                        {"k1_XBLOCK", 4},
                                                        {"k1_R0_BLOCK", 512},
                                                        {"k1_num_warps", 2}});
  std::ofstream(dir / "check.py") << R"(
import importlib.util, os, sys
import torch
def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(sys.argv[1], name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
torch.manual_seed(0)
x = torch.randn(32, 1024)
out = torch.full((32, 1024), 7.0)
load("relu").run({"arg0_1": x}, {"buf0": out})
assert torch.equal(out, torch.relu(x))
y = torch.randn(32, 1024)
t = y.clone()
load("softmax").run({"buf1": t}, {"buf1": t})
assert torch.allclose(t, torch.softmax(y, -1), atol=1e-6)
t = y.clone()
z = torch.randn(32, 8192)
s = torch.full((32,), 7.0)
load("both").run({"buf1": t, "arg2_1": z}, {"buf1": t, "buf2": s})
assert torch.allclose(t, torch.softmax(y, -1), atol=1e-6)
assert torch.allclose(s, z.sum(-1), atol=1e-3), (s - z.sum(-1)).abs().max()
print("ok")
)";
  expect_check_says(dir, "TRITON_INTERPRET=1", dir.string(), "ok");
}

// --split-segments gives the config proposer the kernels that sit among others: on the real
// captures it matches 62 segments split against 25 whole (when written).
TEST(Match, SplitSegmentsLetConfigReachKernelsAmongOthers) {
  int whole = 0;
  int split = 0;
  for (const auto& entry :
       fs::directory_iterator(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real")) {
    if (entry.path().extension() != ".py") continue;
    Captured c = real(entry.path().filename().string());
    for (const auto& segment : c.map.segments) {
      whole += propose::match_config(c.run.code, c.map, segment) ? 1 : 0;
    }
    analysis::AnalysisOptions options;
    options.split_launches = true;
    c.map = analysis::build_dispatch_map({c.run}, options);
    for (const auto& segment : c.map.segments) {
      split += propose::match_config(c.run.code, c.map, segment) ? 1 : 0;
    }
  }
  EXPECT_GT(split, whole + 5) << whole << " whole, " << split << " split";
}

// A buffer of known shape as the static check's interface describes a tensor.
nlohmann::json tensor_json(const inductor::Buffer& b) {
  nlohmann::json t = {{"shape", nlohmann::json::array()},
                      {"stride", nlohmann::json::array()},
                      {"dtype", b.dtype.substr(b.dtype.rfind('.') + 1)}};
  for (const auto& v : b.shape) {
    t["shape"].push_back(std::stoll(v));
  }
  for (const auto& v : b.stride) {
    t["stride"].push_back(std::stoll(v));
  }
  return t;
}

// The static check's interface of a segment, or null if a buffer's shape is not known.
nlohmann::json known_interface(const inductor::OutputCode& code, const analysis::Segment& segment) {
  nlohmann::json interface = {{"inputs", nlohmann::json::object()},
                              {"outputs", nlohmann::json::object()}};
  for (const auto& [key, roots] :
       {std::pair{"inputs", segment.inputs}, std::pair{"outputs", segment.outputs}}) {
    for (const auto& root : roots) {
      const inductor::Buffer* b = code.buffer(root);
      if (b == nullptr || !b->shape_known) return nullptr;
      interface[key][root] = tensor_json(*b);
    }
  }
  return interface;
}

// Every config and rewrite candidate the real H200 captures give (each one-launch segment's kernel)
// compiles for sm_90 through G1's static check, on the CPU: the decorator-free (and rewritten)
// source is a valid Triton module, the launch binds every argument, and the settings are legal.
TEST(Match, ConfigCandidatesOfTheRealCapturesCompileForSm90) {
  const fs::path dir =
      fs::temp_directory_path() / ("kernelopt_config_static_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  nlohmann::json jobs = nlohmann::json::array();
  for (const auto& entry :
       fs::directory_iterator(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real")) {
    if (entry.path().extension() != ".py") continue;
    const Captured c = real(entry.path().filename().string());
    std::vector<std::pair<analysis::Segment, propose::Match>> matches;
    for (const auto& segment : c.map.segments) {
      for (auto m : {propose::match_config(c.run.code, c.map, segment),
                     propose::match_rewrite(c.run.code, c.map, segment),
                     propose::match_fuse(c.run.code, c.map, segment),
                     propose::match_split(c.run.code, c.map, segment),
                     propose::match_retile(c.run.code, c.map, segment)}) {
        if (m) matches.emplace_back(segment, *m);
      }
    }
    for (const auto& [segment, match] : matches) {
      const auto* m = &match;
      const nlohmann::json interface = known_interface(c.run.code, segment);
      if (interface.is_null()) continue;
      const std::string name =
          entry.path().stem().string() + "_seg" + std::to_string(segment.id) + "_" + m->recipe;
      // The first start, and a split's or retile's first on each of its further bases.
      std::set<std::string> bases;
      for (const auto& s : propose::initial_settings(*m)) {
        const std::string on = s.value("on", "");
        if (!bases.insert(on).second) continue;
        std::string file = name;
        if (!on.empty()) file += ".on-" + on;
        file += ".py";
        std::ofstream(dir / file) << propose::source_of(*m, segment.id, s);
        jobs.push_back({{"candidate", (dir / file).string()}, {"interface", interface}});
      }
    }
  }
  ASSERT_GE(jobs.size(), 15U);  // most of the 47 captures are one-launch segments
  // The rewrite's nineteen: one pass for the L1 normalization of rows (20000), the RMS norm and
  // F.normalize over the channels of examples/rms_norm_channels.py (80) and
  // examples/normalize_channels.py (144), L2/17's instance
  // norm (15876), L2/91's softmax over 128 channels, L3/43's causal softmax (512, a kernel among
  // five launches), L3/31's in-place attention softmax (16384), L1/95's softmax statistics (one
  // walk over rows of 4096, for its online softmax alone) and L3/47's VLAD normalization (16384,
  // among ten launches, with shifted sums in a batch norm of the same segment); shifted sums for
  // L3/31's layer norm and the Welford loops of L1/33, L1/35, L2/11, L2/19, L2/73 (its padded first
  // stage) and L2/85; L2/15's shifted sums with its batch norm's output computed again instead of
  // reloaded; Mish with one exponential in L2/35's pool and L2/29's GEMM epilogue (two).
  EXPECT_EQ(std::count_if(jobs.begin(), jobs.end(),
                          [](const nlohmann::json& j) {
                            return j.at("candidate").get<std::string>().find("_rewrite.py") !=
                                   std::string::npos;
                          }),
            19);
  // The fuse rewrite's seven: L2/11, L2/65 and L2/85 (a norm or a bias inlined into a pool), L2/35
  // (the subtract and hardswish inlined into the pool, whose Mish takes one exponential), L2/43
  // (a bias inlined into a pooled logsumexp that writes a reinterpreted buffer), L2/3 (a layer
  // norm split into its rows' statistics and the pool that computes the rows it reads), and
  // examples/conv_groupnorm_maxpool.py, whose segment relaunches a Triton convolution template.
  EXPECT_EQ(std::count_if(jobs.begin(), jobs.end(),
                          [](const nlohmann::json& j) {
                            return j.at("candidate").get<std::string>().find("_fuse.py") !=
                                   std::string::npos;
                          }),
            7);
  // The split's fourteen: the looped statistics of few long rows in L1/33 and L1/35 (a norm's
  // Welford loop, as shifted sums), L1/37 (a sum of squares, Inductor's first stage of its own
  // split), L2/11, L2/15, L2/19, L2/85 and L3/13 (Welford loops among other launches) and L2/65 (a
  // sum after a pool): partial and combine kernels both compile. And the kernels that walk their
  // rows twice, split as one kernel (all three phases compile, the barrier's too): L1/39's L2
  // normalization, L2/17's instance norm, L3/47's normalization,
  // examples/l1_norm_rows.py's and examples/rms_norm_rows.py's nn.RMSNorm.
  EXPECT_EQ(std::count_if(jobs.begin(), jobs.end(),
                          [](const nlohmann::json& j) {
                            return j.at("candidate").get<std::string>().find("_split.py") !=
                                   std::string::npos;
                          }),
            14);
  // The retile's four: the channels-last statistics of L2/19 and L2/85 (group norms), L2/11's
  // batch-norm partials and L3/47's: partial and combine kernels both compile. (L2/73's
  // second-stage statistics, 68 000 elements, are too small to retile.)
  EXPECT_EQ(std::count_if(jobs.begin(), jobs.end(),
                          [](const nlohmann::json& j) {
                            return j.at("candidate").get<std::string>().find("_retile.py") !=
                                   std::string::npos;
                          }),
            4);
  // And the split's and retile's first starts on their further bases, fifteen: the rewrite's
  // launches and config's of L2/11's and L2/85's split and retile, and config's of L1/35's,
  // L2/15's, L2/19's, L2/65's and L3/13's split and of L2/19's and L3/47's retile.
  EXPECT_EQ(std::count_if(jobs.begin(), jobs.end(),
                          [](const nlohmann::json& j) {
                            return j.at("candidate").get<std::string>().find(".on-") !=
                                   std::string::npos;
                          }),
            15);
  // And the gemm candidates of the real L3/1 MLP's extern products (--no-dispatch-aware), each
  // starting setting: the views rebuilt on meta tensors, the fp32 GEMM compiled.
  {
    Captured mlp = real("h200_level3_1_MLP_graph_0.py");
    analysis::AnalysisOptions options;
    options.dispatch_aware = false;
    mlp.map = analysis::build_dispatch_map({mlp.run}, options);
    int settings_index = 0;
    for (const auto& segment : mlp.map.segments) {
      const auto m = propose::match_recipe(mlp.run.code, mlp.map, segment);
      if (!m || m->recipe != "gemm") continue;
      const nlohmann::json interface = known_interface(mlp.run.code, segment);
      ASSERT_FALSE(interface.is_null());
      const auto all = propose::initial_settings(*m);
      const std::string name = "mlp_gemm_seg" + std::to_string(segment.id);
      std::ofstream(dir / (name + ".py"))
          << propose::source_of(*m, segment.id, all[settings_index++ % all.size()]);
      jobs.push_back({{"candidate", (dir / (name + ".py")).string()}, {"interface", interface}});
    }
    EXPECT_EQ(settings_index, 3);
  }
  // The recipes whose rows are split among programs: L1/35's group norm and L1/23's softmax at
  // their split settings (the static check's tensors are not on a GPU: the two-launch form).
  for (const auto& [file, recipe] :
       {std::pair{"h200_level1_35_GroupNorm__graph_0.py", "group_norm"},
        std::pair{"h200_level1_23_Softmax_graph_0.py", "row_two_pass"}}) {
    const Captured n = real(file);
    const auto& segment = n.map.segments.at(0);
    const auto m = propose::match_recipe(n.run.code, n.map, segment);
    ASSERT_TRUE(m.has_value() && m->recipe == recipe) << file;
    const nlohmann::json interface = known_interface(n.run.code, segment);
    ASSERT_FALSE(interface.is_null()) << file;
    const auto all = propose::initial_settings(*m);
    const auto split = std::find_if(
        all.begin(), all.end(), [](const nlohmann::json& s) { return s.value("split", 1) == 0; });
    ASSERT_NE(split, all.end()) << file;
    const std::string name = std::string(recipe) + "_split";
    std::ofstream(dir / (name + ".py")) << propose::source_of(*m, segment.id, *split);
    jobs.push_back({{"candidate", (dir / (name + ".py")).string()}, {"interface", interface}});
  }
  // The pool recipe's running-max form on L1/41 (stride 1, a window of 8 dilated by 3), at both
  // of its starting settings: the scans over [Q / 8, 8, 4] tiles compile.
  {
    const Captured pool = real("h200_level1_41_Max_Pooling_1D_graph_0.py");
    const auto& segment = pool.map.segments.at(0);
    const auto m = propose::match_recipe(pool.run.code, pool.map, segment);
    ASSERT_TRUE(m.has_value() && m->recipe == "pool");
    const nlohmann::json interface = known_interface(pool.run.code, segment);
    ASSERT_FALSE(interface.is_null());
    int sliding = 0;
    for (const auto& s : propose::initial_settings(*m)) {
      if (s.value("sliding", 0) == 0) continue;
      const std::string name = "pool_sliding_" + std::to_string(sliding++);
      std::ofstream(dir / (name + ".py")) << propose::source_of(*m, segment.id, s);
      jobs.push_back({{"candidate", (dir / (name + ".py")).string()}, {"interface", interface}});
    }
    EXPECT_EQ(sliding, 2);
  }
  std::ofstream(dir / "jobs.json") << jobs.dump();
  std::ofstream(dir / "check.py") << R"(
import json, sys
from kernelopt.worker.session import Session
bad = []
for job in json.load(open(sys.argv[1])):
    result = Session().static_check({"candidate": job["candidate"], "interface": job["interface"], "arch": 90})
    kernels = result.get("kernels", [])
    if not result.get("loaded") or result.get("run_error") or not kernels or not all(k["compiled"] for k in kernels):
        bad.append((job["candidate"], result.get("run_error"), [k.get("error") for k in kernels]))
print("bad", len(bad), bad[:3])
)";
  expect_check_says(dir, "env -u TRITON_INTERPRET", (dir / "jobs.json").string(), "bad 0 []");
}

// Inductor drops a mask when every block it would try divides the size (xmask = tl.full(...));
// the config proposer keeps such a block dividing it: starting settings halve until they do, and
// neighbours that would not are not proposed.
TEST(Match, ConfigKeepsBlocksDividingWhereInductorDroppedTheMask) {
  const Captured relu = real("h200_level1_19_ReLU_graph_0.py");
  ASSERT_EQ(relu.map.segments.size(), 1U);
  auto m = propose::match_config(relu.run.code, relu.map, relu.map.segments[0]);
  ASSERT_TRUE(m.has_value());
  ASSERT_TRUE(m->params.at("divides").contains("XBLOCK"));
  m->params["divides"]["XBLOCK"] = 96;  // as if xnumel were 96
  for (const auto& settings : propose::initial_settings(*m)) {
    EXPECT_EQ(96 % settings.at("XBLOCK").get<int>(), 0) << settings;
  }
  for (const auto& next : propose::neighbours_of(*m, {{"XBLOCK", 32}, {"num_warps", 4}})) {
    EXPECT_NE(next.at("XBLOCK"), 64) << next;
  }
  EXPECT_FALSE(propose::config_fits(*m, {{"XBLOCK", 64}}));
  EXPECT_TRUE(propose::config_fits(*m, {{"XBLOCK", 32}}));
}

// The generic starting settings fit the kernel's sizes: L2/91's softmax rows of 128 get R0_BLOCK
// 128 with the cut elements handed to more rows a program (not 2048 lanes for 128 elements), and
// a pointwise kernel of 96 elements gets no block past 128.
TEST(Match, ConfigStartingSettingsFitTheKernelsSizes) {
  const Captured c =
      real("h200_level2_91_ConvTranspose2d_Softmax_BiasAdd_Scaling_Sigmoid_graph_0.py");
  ASSERT_EQ(c.map.segments.size(), 2U);
  const auto m = propose::match_config(c.run.code, c.map, c.map.segments[1]);
  ASSERT_TRUE(m.has_value());
  ASSERT_EQ(m->params.at("numels").at("r0_numel"), 128);
  const auto settings = propose::initial_settings(*m);
  ASSERT_EQ(settings.size(), 3U);
  EXPECT_EQ(
      settings[0],
      (nlohmann::json{{"XBLOCK", 16}, {"R0_BLOCK", 128}, {"num_warps", 8}, {"num_stages", 1}}));
  EXPECT_EQ(
      settings[1],
      (nlohmann::json{{"XBLOCK", 32}, {"R0_BLOCK", 128}, {"num_warps", 8}, {"num_stages", 1}}));
  EXPECT_EQ(
      settings[2],
      (nlohmann::json{{"XBLOCK", 64}, {"R0_BLOCK", 64}, {"num_warps", 4}, {"num_stages", 1}}));
  const Captured relu = real("h200_level1_19_ReLU_graph_0.py");
  auto p = propose::match_config(relu.run.code, relu.map, relu.map.segments.at(0));
  ASSERT_TRUE(p.has_value());
  p->params["numels"]["xnumel"] = 96;
  p->params["divides"] = nlohmann::json::object();
  for (const auto& s : propose::initial_settings(*p)) {
    EXPECT_LE(s.at("XBLOCK").get<int>(), 128) << s;
  }
  // A 2-D pointwise kernel with 8258048 rows in y (L2/87's Mish epilogue): no starting tile asks
  // for more than CUDA's 65535 programs in y (a YBLOCK of 64 gave 129032, and the launch failed).
  const propose::Match tall{"config",
                            {{"kind", "pointwise"},
                             {"grid", 2},
                             {"constexprs", {"XBLOCK", "YBLOCK"}},
                             {"numels", {{"xnumel", 64}, {"ynumel", 8258048}}},
                             {"divides", nlohmann::json::object()}},
                            ""};
  const auto tall_settings = propose::config_settings(tall);
  ASSERT_FALSE(tall_settings.empty());
  for (const auto& s : tall_settings) {
    EXPECT_TRUE(propose::y_grid_fits(tall.params, s.at("YBLOCK").get<std::int64_t>())) << s;
  }
}

}  // namespace

// A whole segment's relaunch moves the settings of the launch with the most time above its floor
// first: the search's budget runs out before a ten-launch segment's last neighbours (L3/47).
TEST(ConfigMatch, SegmentNeighboursStartWithTheLaunchFurthestFromItsFloor) {
  std::ifstream in(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real" /
                   "h200_level2_19_ConvTranspose2d_GELU_GroupNorm_graph_0.py");
  std::ostringstream text;
  text << in.rdbuf();
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(text.str());
  run.args = {analysis::TensorInfo{{64, 64, 3, 3}, {576, 9, 3, 1}, "float32"},
              analysis::TensorInfo{{64}, {1}, "float32"},
              analysis::TensorInfo{{128, 64, 256, 256}, {4194304, 65536, 256, 1}, "float32"},
              analysis::TensorInfo{{64}, {1}, "float32"},
              analysis::TensorInfo{{64}, {1}, "float32"}};
  analysis::AnalysisOptions options;
  options.bandwidth_gbps = 4000;
  // The search matches on an untimed map, then sets the potentials from the profiler's times
  // (the show document's launches), by launch, where the names agree.
  const auto map = analysis::build_dispatch_map({run}, options);
  const analysis::Segment* pair = nullptr;
  for (const auto& segment : map.segments) {
    if (segment.launches.size() == 2) pair = &segment;
  }
  ASSERT_NE(pair, nullptr);
  const auto moved_after = [&](const nlohmann::json& timed) {
    std::vector<propose::Match> matches = {*propose::match_config(run.code, map, *pair)};
    propose::set_launch_potentials(matches, *pair, map, timed);
    const auto start = propose::initial_settings(matches.front()).front();
    const auto next = propose::neighbours_of(matches.front(), start);
    EXPECT_FALSE(next.empty());
    std::string moved;
    if (next.empty()) return moved;
    for (const auto& [key, value] : next.front().items()) {
      if (start.at(key) != value) moved = key.substr(0, 3);
    }
    return moved;
  };
  // The segment's statistics kernel (launch 3) and its normalization (launch 4): which one is
  // further from its floor decides whose knobs move first. The times as the profiler lists them
  // when it measures them itself (a timed map's launches).
  const auto first_moved = [&](std::vector<double> times) {
    analysis::GraphRun timed_run = run;
    timed_run.launch_ms = std::move(times);
    const auto timed = analysis::build_dispatch_map({timed_run}, options);
    for (const int l : pair->launches) {
      const auto& launch = timed.launches[static_cast<std::size_t>(l)];
      EXPECT_TRUE(launch.floor_ms.has_value()) << launch.name;
    }
    return moved_after(analysis::to_json(timed).at("launches"));
  };
  // Floors at 4000 GB/s: about 0.55 ms (the statistics read 2.18 GB) and 1.09 ms.
  EXPECT_EQ(first_moved({1.0, 0.006, 2.5, 1.40, 1.10}), "k0_");
  EXPECT_EQ(first_moved({1.0, 0.006, 2.5, 0.60, 1.40}), "k1_");
  // The longer launch is not the one to tune when it is nearer its floor.
  EXPECT_EQ(first_moved({1.0, 0.006, 2.5, 1.20, 1.30}), "k0_");
  // Untimed (offline): the segment's order.
  EXPECT_EQ(first_moved({}), "k0_");
  EXPECT_EQ(moved_after(nlohmann::json::array()), "k0_");
  nlohmann::json timed = nlohmann::json::array();
  for (const auto& launch : map.launches) {
    timed.push_back({{"name", launch.name}, {"time_ms", 1.0}, {"floor_ms", 0.9}});
  }
  timed[4]["time_ms"] = 2.0;  // the normalization, 1.1 ms above its floor
  EXPECT_EQ(moved_after(timed), "k1_");
  timed[4]["name"] = "another_kernel";  // not this map's launch: not used
  EXPECT_EQ(moved_after(timed), "k0_");
  timed[4]["name"] = map.launches[4].name;
  timed[3]["time_ms"] = 1.2;       // the statistics, 0.3 ms above their floor
  timed[4]["floor_ms"] = nullptr;  // no floor: 5% of its 2 ms, under the statistics' 0.3 ms
  EXPECT_EQ(moved_after(timed), "k0_");
}

}  // namespace kernelopt
