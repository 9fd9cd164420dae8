// The rewrite proposer's one-pass transformation: on real H200 captures (an instance norm after a
// convolution, a causal-attention softmax, an L1 normalization of rows) the row loops are flattened
// and the second walk's loads reuse the first's, where the addresses are the same although Inductor
// wrote them differently; where a store, a reassigned index or a row too long stands between, it
// does nothing. The rewritten kernel computes what Inductor's does, under Triton's interpreter.
#include "kernelopt/propose/transform/rewrite.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "kernelopt/propose/registry.hpp"
#include "kernelopt/propose/transform/config.hpp"
#include "kernelopt/propose/transform/fuse.hpp"
#include "kernelopt/propose/transform/on_base.hpp"
#include "kernelopt/propose/transform/relaunch.hpp"
#include "kernelopt/propose/transform/retile.hpp"
#include "kernelopt/propose/transform/split.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Captured {
  analysis::GraphRun run;
  analysis::DispatchMap map;
};

Captured parse(const std::string& text) {
  Captured c;
  c.run.code = inductor::parse_output_code(text);
  c.map = analysis::build_dispatch_map({c.run}, {});
  return c;
}

std::string fixture(const std::string& name) {
  return read(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real" / name);
}

std::vector<propose::Match> rewrites(const Captured& c) {
  std::vector<propose::Match> out;
  for (const auto& segment : c.map.segments) {
    if (auto m = propose::match_rewrite(c.run.code, c.map, segment)) out.push_back(*m);
  }
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(Rewrite, InstanceNormAfterAConvolutionBecomesOnePass) {
  const auto found =
      rewrites(parse(fixture("h200_level2_17_Conv2d_InstanceNorm_Divide_graph_0.py")));
  ASSERT_EQ(found.size(), 1U);
  const auto& m = found.front();
  EXPECT_EQ(m.params.at("fixed").at("R0_BLOCK"), 16384);  // rows of 15876
  EXPECT_EQ(m.params.at("rewrite").at("loops"), 2);
  EXPECT_EQ(m.params.at("rewrite").at("reused_loads"), 1);
  const std::string source = m.params.at("source").get<std::string>();
  EXPECT_EQ(count(source, "for r0_offset"), 0U);
  EXPECT_EQ(count(source, "    r0_offset = 0\n"), 2U);
  // The second walk's `in_ptr0 + (x2 + 128*r0_1 + 2032128*x3)` is the first's
  // `in_ptr0 + (128*r0_1 + 2032128*(x0 // 128) + ((x0 % 128)))`; the bias load outside the loops
  // (x2 against (x0 % 128)) is the same too, but is not counted as a reused row.
  EXPECT_NE(source.find("    tmp10 = tmp0\n"), std::string::npos) << source;
  EXPECT_NE(source.find("    tmp11 = tmp1\n"), std::string::npos) << source;
  EXPECT_EQ(count(source, "tl.load(in_ptr0"), 1U);
  for (const auto& s : propose::initial_settings(m)) {
    EXPECT_EQ(s.count("R0_BLOCK"), 0U) << s;  // fixed, not tuned
    EXPECT_LE(s.at("XBLOCK").get<int>() * 16384 / (32 * s.at("num_warps").get<int>()), 32) << s;
  }
  const std::string candidate = propose::source_of(m, 3, propose::initial_settings(m).front());
  EXPECT_NE(candidate.find("R0_BLOCK=16384"), std::string::npos) << candidate;
  EXPECT_NE(candidate.find("rewrite proposer"), std::string::npos);
}

TEST(Rewrite, SoftmaxOverChannelsStoredTransposedStartsWithManyRowsAProgram) {
  // L2/91: a softmax over the 128 channels of a channels-last convolution output, stored to an
  // NCHW tensor (`out_ptr2 + (x0 + 16641*r0_2 + ...)`). One row a program writes 128 scattered
  // elements (measured 0.31x on the H200); 32 rows write 128 contiguous bytes per channel.
  const auto found = rewrites(
      parse(fixture("h200_level2_91_ConvTranspose2d_Softmax_BiasAdd_Scaling_Sigmoid_graph_0.py")));
  ASSERT_EQ(found.size(), 1U);
  const auto& m = found.front();
  ASSERT_EQ(m.params.at("rewrite").at("transform"), "one_pass");
  EXPECT_EQ(m.params.at("fixed").at("R0_BLOCK"), 128);
  const auto settings = propose::initial_settings(m);
  ASSERT_GE(settings.size(), 4U);
  EXPECT_EQ(settings.front().at("XBLOCK"), 32) << settings.front();
  std::set<int> rows;
  for (const auto& s : settings) {
    const int x = s.at("XBLOCK").get<int>();
    rows.insert(x);
    EXPECT_LE(x * 128 / (32 * s.at("num_warps").get<int>()), 32) << s;
  }
  EXPECT_TRUE(rows.count(64) == 1 && rows.count(16) == 1 && rows.count(1) == 1);
  const std::string candidate = propose::source_of(m, 0, settings.front());
  EXPECT_NE(candidate.find("XBLOCK=32"), std::string::npos) << candidate;
  // The online softmax (two exponentials an element) is a max then a sum of exp(x - max), the
  // exponential the second walk computes from the same operands.
  EXPECT_EQ(m.params.at("rewrite").at("softmax_in_registers"), 1);
  const std::string source = m.params.at("source").get<std::string>();
  EXPECT_EQ(count(source, "online_softmax"), 0U) << source;
  EXPECT_NE(source.find("    tmp4 = triton_helpers.max2(tl.where(r0_mask & xmask, tmp3, "
                        "float('-inf')), 1)\n"),
            std::string::npos)
      << source;
  EXPECT_NE(source.find("libdevice.exp(tmp3 - tmp4[:, None])"), std::string::npos) << source;
  EXPECT_NE(source.find("    tmp4 = tmp4[:, None]\n"), std::string::npos) << source;
}

TEST(Rewrite, LongStridedRowsKeepTheOneRowSettingsFirst) {
  // L2/17's rows of 15876 are strided too (`128*r0_1`), but two rows already fill 32 warps at
  // 32 elements a thread: no many-row settings, one row a program first.
  const auto found =
      rewrites(parse(fixture("h200_level2_17_Conv2d_InstanceNorm_Divide_graph_0.py")));
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(propose::initial_settings(found.front()).front().at("XBLOCK"), 1);
}

TEST(Rewrite, CausalSoftmaxReusesBothRowsAcrossItsInPlaceStore) {
  const Captured c = parse(fixture("h200_level3_43_MinGPTCausalAttention_graph_0.py"));
  const inductor::TritonKernel* kernel = nullptr;
  for (const auto& launch : c.map.launches) {
    if (launch.name.rfind("triton_red_fused__softmax", 0) == 0) {
      kernel = c.run.code.kernel(launch.name);
    }
  }
  ASSERT_NE(kernel, nullptr);
  const auto rewritten = propose::one_pass_source(kernel->source);
  ASSERT_TRUE(rewritten.has_value());
  EXPECT_EQ(rewritten->reused, 2);
  // The in-place store to in_out_ptr0 comes after the second walk's load of it: the first walk's
  // value is still the memory's.
  EXPECT_NE(rewritten->source.find("    tmp11 = tmp0\n"), std::string::npos) << rewritten->source;
  EXPECT_NE(rewritten->source.find("    tmp14 = tmp3\n"), std::string::npos) << rewritten->source;
  // Its masked-fill softmax is computed in registers too.
  EXPECT_EQ(rewritten->softmax, 1);
  EXPECT_EQ(count(rewritten->source, "online_softmax"), 0U) << rewritten->source;
  EXPECT_NE(rewritten->source.find("tl.where(r0_mask, tmp8, float('-inf'))"), std::string::npos)
      << rewritten->source;
}

// The one rewrite of a real capture, over a multi-launch segment, with the counts of each
// transformation it made.
std::optional<propose::Match> segment_rewrite(const std::string& name,
                                              int one_pass,
                                              int welford,
                                              int recomputed) {
  const auto found = rewrites(parse(fixture(name)));
  EXPECT_EQ(found.size(), 1U) << name;
  if (found.size() != 1) return std::nullopt;
  const auto& r = found.front().params.at("rewrite");
  EXPECT_EQ(r.at("transform"), "segment") << name;
  EXPECT_EQ(r.at("one_pass"), one_pass) << name;
  EXPECT_EQ(r.at("welford"), welford) << name;
  EXPECT_EQ(r.at("recomputed"), recomputed) << name;
  return found.front();
}

// Two L3 wins, on their own H200 captures: what the search proposed there.
TEST(Rewrite, InPlaceAttentionSoftmaxIsComputedInRegisters) {
  // L3/31: the softmax of attention rows of 16384, written in place before Inductor's matmul
  // template multiplies it by V: its second walk reloads the row, its first keeps an online
  // softmax (1.062x on the H200 once made one pass with the softmax in registers).
  const auto found = rewrites(parse(fixture("h200_level3_31_VisionAttention_graph_0.py")));
  const propose::Match* softmax = nullptr;
  for (const auto& m : found) {
    for (const auto& launch : m.params.value("launches", nlohmann::json::array())) {
      if (launch.at("kernel") == "triton_red_fused__softmax_exp_prepare_softmax_online_sub_4") {
        softmax = &m;
        EXPECT_EQ(launch.at("rewrite").at("loops"), 2);
        EXPECT_EQ(launch.at("rewrite").at("reused_loads"), 1);
        EXPECT_EQ(launch.at("rewrite").at("softmax_in_registers"), 1);
        EXPECT_EQ(launch.at("fixed").at("R0_BLOCK"), 16384);
        EXPECT_EQ(count(launch.at("source").get<std::string>(), "online_softmax"), 0U);
      }
    }
  }
  ASSERT_NE(softmax, nullptr);
  const auto settings = propose::initial_settings(*softmax);
  ASSERT_FALSE(settings.empty());
  const std::string source = propose::source_of(*softmax, 2, settings.front());
  EXPECT_NE(source.find("R0_BLOCK=16384"), std::string::npos) << source;
  EXPECT_NE(source.find("triton_tem_fused__softmax_bmm_exp_select_sub_transpose_view_5[("),
            std::string::npos);
}

TEST(Rewrite, VladNormalizationInsideATenLaunchSegmentBecomesOnePass) {
  // L3/47: the last reduction of a ten-launch segment walks rows of 16384 twice, loading the same
  // four inputs both times (1.128x on the H200 once made one pass).
  const auto found = segment_rewrite("h200_level3_47_NetVladNoGhostClusters_graph_0.py", 1, 1, 0);
  ASSERT_TRUE(found.has_value());
  int one_pass = 0;
  for (const auto& launch : found->params.at("launches")) {
    if (!launch.contains("rewrite")) continue;
    ++one_pass;
    EXPECT_EQ(launch.at("kernel"),
              "triton_red_fused__unsafe_view_clamp_min_clone_div_expand_linalg_vector_norm_mul_sub_"
              "transpose_8");
    EXPECT_EQ(launch.at("rewrite").at("reused_loads"), 4);
    EXPECT_EQ(count(launch.at("source").get<std::string>(), "tl.load("), 4U);
  }
  EXPECT_EQ(one_pass, 1);
}

TEST(Rewrite, OnePassKernelInsideAMultiLaunchSegment) {
  // The softmax's segment holds five launches, a matmul template among them: the softmax is made
  // one pass and launched with the one-pass settings; the other four are relaunched as Inductor's.
  const auto found = segment_rewrite("h200_level3_43_MinGPTCausalAttention_graph_0.py", 1, 0, 0);
  ASSERT_TRUE(found.has_value());
  const auto& m = *found;
  const auto& launches = m.params.at("launches");
  ASSERT_EQ(launches.size(), 5U);
  const auto& softmax = launches.at(4);
  EXPECT_EQ(softmax.at("fixed").at("R0_BLOCK"), 512);
  EXPECT_NE(softmax.at("source").get<std::string>().find("    tmp14 = tmp3\n"), std::string::npos);
  EXPECT_EQ(launches.at(3).at("kind"), "template");
  const auto settings = propose::initial_settings(m);
  ASSERT_FALSE(settings.empty());
  // The softmax's settings are the one-pass ones (a row of 512 per program, 1 or 2 warps first),
  // never an R0_BLOCK of its own.
  for (const auto& s : settings) {
    EXPECT_FALSE(s.contains("k4_R0_BLOCK")) << s;
    EXPECT_TRUE(s.contains("k4_XBLOCK")) << s;
  }
  EXPECT_EQ(settings.front().at("k4_XBLOCK"), 1);
  const std::string source = propose::source_of(m, 0, settings.front());
  EXPECT_NE(source.find("R0_BLOCK=512"), std::string::npos) << source;
  EXPECT_NE(source.find("    tmp11 = tmp0\n"), std::string::npos) << source;
  EXPECT_NE(source.find("triton_tem_fused__unsafe_view_addmm_bmm_clone_split_transpose_view_3[("),
            std::string::npos)
      << source;
}

TEST(Rewrite, NotWhereItDoesNotApply) {
  // Rows longer than kOnePassMaxRow: softmax over 393216, L2 norm over 65535.
  EXPECT_TRUE(rewrites(parse(fixture("h200_level1_23_Softmax_graph_0.py"))).empty());
  EXPECT_TRUE(rewrites(parse(fixture("h200_level1_39_L2Norm__graph_0.py"))).empty());
  // One row loop: nothing is walked twice.
  EXPECT_TRUE(
      rewrites(parse(fixture("h200_level1_47_Sum_reduction_over_a_dimension_graph_0.py"))).empty());
  EXPECT_TRUE(rewrites(parse(fixture("h200_level1_33_BatchNorm_graph_0.py"))).empty());

  const std::string head =
      "import triton\nimport triton.language as tl\n\n@triton.jit\n"
      "def k(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : "
      "tl.constexpr):\n"
      "    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]\n"
      "    x0 = xindex\n"
      "    r0_base = tl.arange(0, R0_BLOCK)[None, :]\n"
      "    _acc = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)\n"
      "    for r0_offset in range(0, r0_numel, R0_BLOCK):\n"
      "        r0_index = r0_offset + r0_base\n"
      "        r0_mask = r0_index < r0_numel\n"
      "        r0_1 = r0_index\n"
      "        tmp0 = tl.load(in_out_ptr0 + (r0_1 + 64*x0), r0_mask, other=0.0)\n"
      "        _acc = _acc + tmp0\n";
  const std::string second =
      "    tmp2 = tl.sum(_acc, 1)[:, None]\n"
      "    for r0_offset in range(0, r0_numel, R0_BLOCK):\n"
      "        r0_index = r0_offset + r0_base\n"
      "        r0_mask = r0_index < r0_numel\n"
      "        r0_1 = r0_index\n"
      "        tmp3 = tl.load(in_out_ptr0 + (64*x0 + r0_1), r0_mask, other=0.0)\n"
      "        tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp3 / tmp2, r0_mask)\n";
  // As written, the second walk reuses the first's load.
  const auto plain = propose::one_pass_source(head + second);
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->reused, 1);
  EXPECT_NE(plain->source.find("    tmp3 = tmp0\n"), std::string::npos) << plain->source;
  // A store to the same pointer between the walks: the memory changed, nothing is reused.
  EXPECT_FALSE(
      propose::one_pass_source(
          head + "        tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp0 * 2, r0_mask)\n" + second)
          .has_value());
  // Nor a store to another pointer: two pointer arguments may be one buffer.
  EXPECT_FALSE(
      propose::one_pass_source(
          head + "        tl.store(in_ptr0 + (r0_1 + 64*x0), tmp0 * 2, r0_mask)\n" + second)
          .has_value());
  // The index means something else in the second walk: a different address.
  std::string shifted = second;
  shifted.replace(shifted.find("        r0_1 = r0_index\n"), 24, "        r0_1 = r0_index + 1\n");
  EXPECT_FALSE(propose::one_pass_source(head + shifted).has_value());
  // Another mask, another `other`: not the same load.
  std::string masked = second;
  masked.replace(masked.find("r0_mask, other=0.0"), 18, "r0_mask, other=1.0");
  EXPECT_FALSE(propose::one_pass_source(head + masked).has_value());
  // A load converted in the same statement is not a plain load: not reused.
  std::string converted = second;
  converted.replace(converted.find("r0_mask, other=0.0)\n"), 20,
                    "r0_mask, other=0.0).to(tl.float16)\n");
  EXPECT_FALSE(propose::one_pass_source(head + converted).has_value());
  // An atomic, or a loop it does not know: left alone.
  EXPECT_FALSE(propose::one_pass_source(head + "        tl.atomic_add(in_ptr0, 1.0)\n" + second)
                   .has_value());
  EXPECT_FALSE(propose::one_pass_source(head + "    for i in range(4):\n        pass\n" + second)
                   .has_value());
}

std::string python() {
  const fs::path venv = fs::path(KERNELOPT_SOURCE_DIR) / ".venv/bin/python";
  return fs::exists(venv) ? venv.string() : "python3";
}

// The start of every check script here: its imports, and load(NAME), which imports NAME.py from
// the folder the script gets as its first argument.
constexpr const char* kCheckPrelude = R"(
import importlib.util, json, os, sys
import torch
import torch.nn.functional as F
def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(sys.argv[1], name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
def run_bound(name, args, tensors):
    """Runs candidate NAME with tensors bound in the order of args ([[from, root], ...]), each
    output filled with 7.0 first; returns the first output."""
    inputs, outputs = {}, {}
    for (side, root), t in zip(args, tensors):
        (outputs if side == "outputs" else inputs)[root] = t.clone() if side == "inputs" else torch.full_like(t, 7.0)
    load(name).run(inputs, outputs)
    return list(outputs.values())[0]
)";

// Runs DIR/check.py DIR [ARGS] under Triton's interpreter; expects exit 0 and "ok" printed.
void expect_interpreted_ok(const fs::path& dir, const std::string& args = "") {
  // PYTHONPATH: candidates that launch through the kernelopt package (a two-walk split) import it.
  const std::string command =
      "TRITON_INTERPRET=1 PYTHONPATH=" + (fs::path(KERNELOPT_SOURCE_DIR) / "python").string() +
      " " + python() + " " + (dir / "check.py").string() + " " + dir.string() + args + " > " +
      (dir / "log.txt").string() + " 2>&1";
  const int status = std::system(command.c_str());
  const std::string said = read(dir / "log.txt");
  EXPECT_EQ(status, 0) << said;
  EXPECT_NE(said.find("ok"), std::string::npos) << said;
}

// [[from, root], ...] of a candidate's arguments bound to the model's buffers, in order: what
// check.py's run_bound takes.
nlohmann::json bound_roots(const propose::Match& m) {
  nlohmann::json args = nlohmann::json::array();
  for (const auto& a : m.params.at("args")) {
    if (a.contains("root")) args.push_back({a.at("from"), a.at("root")});
  }
  return args;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// The instance norm's kernel with its sizes cut to 128 rows of 300 (so the interpreter runs it in
// seconds): Inductor's kernel looping over R0_BLOCK = 64 and the rewrite in one pass write the
// same output for the same input.
TEST(Rewrite, OnePassKernelComputesWhatInductorsDoesUnderTheInterpreter) {
  std::string text = fixture("h200_level2_17_Conv2d_InstanceNorm_Divide_graph_0.py");
  replace_all(text, "    xnumel = 16384\n    r0_numel = 15876\n",
              "    xnumel = 128\n    r0_numel = 300\n");
  replace_all(text, "buf6, 16384, 15876, stream", "buf6, 128, 300, stream");
  // Triton 3.6's interpreter has no libdevice.rsqrt (it returns None); tl.rsqrt is the same.
  replace_all(text, "libdevice.rsqrt(", "tl.rsqrt(");
  const Captured c = parse(text);
  const auto found = rewrites(c);
  ASSERT_EQ(found.size(), 1U);
  const auto& rewrite = found.front();
  EXPECT_EQ(rewrite.params.at("fixed").at("R0_BLOCK"), 512);
  std::optional<propose::Match> config;
  for (const auto& segment : c.map.segments) {
    if (auto m = propose::match_config(c.run.code, c.map, segment);
        m && m->params.value("kernel", "") == rewrite.params.at("kernel")) {
      config = m;
    }
  }
  ASSERT_TRUE(config.has_value());
  const fs::path dir =
      fs::temp_directory_path() / ("kernelopt_rewrite_interpreted_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "looped.py")
      << propose::source_of(*config, 0, {{"XBLOCK", 2}, {"R0_BLOCK", 64}, {"num_warps", 1}});
  std::ofstream(dir / "one_pass.py")
      << propose::source_of(rewrite, 0, {{"XBLOCK", 2}, {"num_warps", 1}});
  const nlohmann::json args = bound_roots(rewrite);
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
args = json.loads(sys.argv[2])   # [[from, root], ...]: in_ptr0 (conv out), in_ptr1 (bias), out_ptr2
torch.manual_seed(0)
sizes = [2032128, 128, 128 * 15876]
tensors = [torch.randn(n) * 3 + 1 for n in sizes]
results = [run_bound(name, args, tensors) for name in ("looped", "one_pass")]
written = results[0] != 7.0
assert written.sum() == 128 * 300, int(written.sum())
assert torch.allclose(results[0], results[1], rtol=1e-5, atol=1e-5), (results[0] - results[1]).abs().max()
print("ok")
)";
  expect_interpreted_ok(dir, " '" + args.dump() + "'");
  fs::remove_all(dir);
}

// L2/91's capture cut to 40 rows of 128, its exponentials in the fast-math form (Triton 3.6's
// interpreter has no libdevice.exp; tl_math.exp throughout).
std::string small_l2_91() {
  std::string text =
      fixture("h200_level2_91_ConvTranspose2d_Softmax_BiasAdd_Scaling_Sigmoid_graph_0.py");
  replace_all(text, "    xnumel = 2130048\n    r0_numel = 128\n",
              "    xnumel = 40\n    r0_numel = 128\n");
  replace_all(text, "buf5, 2130048, 128, stream", "buf5, 40, 128, stream");
  replace_all(text, "tmp3, False\n", "tmp3, True\n");
  replace_all(text, "_tmp4_sum, 1, False)", "_tmp4_sum, 1, True)");
  replace_all(text, "libdevice.exp(tmp9)", "tl_math.exp(tmp9)");
  return text;
}

// The rewrite of a capture's reduction and Inductor's kernel relaunched as it is (R0_BLOCK 32),
// written to DIR (a fresh one, named per process) as one_pass.py and looped.py, 4 rows a program.
struct LoopedAndRewritten {
  std::optional<propose::Match> rewrite;
  std::optional<propose::Match> config;
  fs::path dir;
};

LoopedAndRewritten looped_and_rewritten(const Captured& c, const std::string& dir_name) {
  LoopedAndRewritten out;
  for (const auto& segment : c.map.segments) {
    if (auto m = propose::match_rewrite(c.run.code, c.map, segment)) out.rewrite = m;
    if (auto m = propose::match_config(c.run.code, c.map, segment);
        m && m->params.value("kind", "") == "reduction") {
      out.config = m;
    }
  }
  if (!out.rewrite || !out.config) return out;
  out.dir = fs::temp_directory_path() / (dir_name + "_" + std::to_string(getpid()));
  fs::remove_all(out.dir);
  fs::create_directories(out.dir);
  std::ofstream(out.dir / "looped.py")
      << propose::source_of(*out.config, 0, {{"XBLOCK", 4}, {"R0_BLOCK", 32}, {"num_warps", 1}});
  std::ofstream(out.dir / "one_pass.py")
      << propose::source_of(*out.rewrite, 0, {{"XBLOCK", 4}, {"num_warps", 1}});
  return out;
}

// L2/91's softmax over 128 channels cut to 40 rows: Inductor's looped kernel (R0_BLOCK 32, the
// online softmax over four chunks) and the one-pass rewrite (the max, then the sum of exp(x - max),
// over the row in registers) write the same output, on rows of ordinary values, of values near
// float32's largest, a row of -inf (every exp NaN), one with a +inf and one with a NaN.
TEST(Rewrite, SoftmaxInRegistersComputesWhatTheOnlineSoftmaxDoesUnderTheInterpreter) {
  const auto pair = looped_and_rewritten(parse(small_l2_91()), "kernelopt_softmax_registers");
  ASSERT_TRUE(pair.rewrite.has_value() && pair.config.has_value());
  ASSERT_EQ(pair.rewrite->params.at("rewrite").at("softmax_in_registers"), 1);
  const fs::path& dir = pair.dir;
  const nlohmann::json args = bound_roots(*pair.rewrite);
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
args = json.loads(sys.argv[2])   # in_ptr0 (channels-last conv out), in_ptr1 (conv bias), in_ptr2 (bias), out_ptr2
torch.manual_seed(0)
x = torch.randn(40, 128) * 4
x[3] = x[3] * 1e37                      # exp(x - max) underflows to 0 for most, no overflow
x[5] = float("-inf")                    # max -inf: each element counts 1, outputs NaN
x[7, 11] = float("inf")                 # NaN sum
x[9, 20] = float("nan")
# rows x3 < 40 read 40 x 128 elements; the NCHW store reaches x0 + 16641 * 127 (x1 = 0)
tensors = [x.flatten(), torch.randn(128), torch.randn(128), torch.zeros(2130048)]
results = [run_bound(name, args, tensors) for name in ("looped", "one_pass")]
written = results[0] != 7.0
assert int(written.sum()) == 40 * 128, int(written.sum())
a, b = results
assert torch.equal(a.isnan(), b.isnan()), (a.isnan().sum(), b.isnan().sum())
assert int(a.isnan().sum()) >= 3 * 128, int(a.isnan().sum())
assert torch.allclose(a, b, rtol=1e-6, atol=1e-6, equal_nan=True), (a - b).abs().nan_to_num().max()
print("ok")
)";
  expect_interpreted_ok(dir, " '" + args.dump() + "'");
  fs::remove_all(dir);
}

// A softmax's statistics alone, in one walk (as Inductor writes them where a later kernel
// computes the softmax's output: L1/95's cross-entropy has one): L2/91's kernel with its second
// walk replaced by stores of the row's max and sum. One walk, nothing to reuse: made one pass for
// its softmax alone, and the max and sum are Inductor's.
TEST(Rewrite, OneWalkSoftmaxStatisticsAreComputedInRegistersUnderTheInterpreter) {
  std::string text = small_l2_91();
  const std::string from = "    tmp4 = tmp4[:, None]\n";
  const std::string last = "tmp16, r0_mask & xmask)\n";
  const auto begin = text.find(from);
  const auto end = text.find(last, begin);
  ASSERT_TRUE(begin != std::string::npos && end != std::string::npos);
  text.replace(begin, end + last.size() - begin,
               from +
                   "    tmp5 = tmp5[:, None]\n    tl.store(out_ptr2 + (x3), tmp4, xmask)\n"
                   "    tl.store(out_ptr2 + (40 + x3), tmp5, xmask)\n");
  // Without the softmax there is nothing to gain from one walk: no rewrite.
  std::string plain = text;
  replace_all(plain, "triton_helpers.online_softmax_combine(", "triton_helpers.other_combine(");
  const Captured without = parse(plain);
  for (const auto& segment : without.map.segments) {
    EXPECT_FALSE(propose::match_rewrite(without.run.code, without.map, segment).has_value());
  }
  const auto pair = looped_and_rewritten(parse(text), "kernelopt_softmax_one_walk");
  ASSERT_TRUE(pair.rewrite.has_value() && pair.config.has_value());
  const auto& r = pair.rewrite->params.at("rewrite");
  EXPECT_EQ(r.at("loops"), 1);
  EXPECT_EQ(r.at("reused_loads"), 0);
  EXPECT_EQ(r.at("softmax_in_registers"), 1);
  EXPECT_EQ(pair.rewrite->params.at("fixed").at("R0_BLOCK"), 128);
  const fs::path& dir = pair.dir;
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
args = json.loads(sys.argv[2])
torch.manual_seed(0)
x = torch.randn(40, 128) * 4
x[5] = float("-inf")
x[9, 20] = float("nan")
tensors = [x.flatten(), torch.randn(128), torch.randn(128), torch.zeros(2130048)]
a, b = [run_bound(name, args, tensors)[:80] for name in ("looped", "one_pass")]
assert torch.equal(a[:40].isnan(), b[:40].isnan()) and int(a[:40].isnan().sum()) == 1, (a[:40], b[:40])
assert torch.equal(a[:40].nan_to_num(), b[:40].nan_to_num()), (a[:40] - b[:40]).abs().max()
assert float(a[45]) == 128.0 and float(b[45]) == 128.0, (a[45], b[45])   # the -inf row: 128 ones
assert torch.allclose(a[40:], b[40:], rtol=1e-5, atol=0, equal_nan=True), (a[40:], b[40:])
print("ok")
)";
  expect_interpreted_ok(dir, " '" + bound_roots(*pair.rewrite).dump() + "'");
  fs::remove_all(dir);
}

// ---- shifted sums: a Welford loop without a division per element ----

// L1/35's group norm cut to one sample (8 groups of 8 channels x 128): the whole segment (the
// statistics, then the normalization) relaunched as Inductor wrote it and with its Welford loop
// made shifted sums compute the same group norm as PyTorch on data whose mean (100) is large
// against its spread (2), where plain sums of squares in float32 would cancel.
TEST(Rewrite, ShiftedSumsComputeTheGroupNormUnderTheInterpreter) {
  std::string text = fixture("h200_level1_35_GroupNorm__graph_0.py");
  replace_all(text, "    xnumel = 896\n", "    xnumel = 8\n");
  replace_all(text, "2097152", "1024");
  replace_all(text, "1879048192", "8192");
  replace_all(text, "262144", "128");
  replace_all(text, "buf1, 896, 1024, stream", "buf1, 8, 1024, stream");
  replace_all(text, "libdevice.rsqrt(", "tl.rsqrt(");  // not in Triton 3.6's interpreter
  const Captured c = parse(text);
  const auto& segment = c.map.segments.at(0);
  const auto config = propose::match_config(c.run.code, c.map, segment);
  const auto rewrite = propose::match_rewrite(c.run.code, c.map, segment);
  ASSERT_TRUE(config.has_value() && rewrite.has_value());
  EXPECT_EQ(rewrite->params.at("rewrite").at("transform"), "shifted_sums");
  const std::string stats = rewrite->params.at("launches")[0].at("source").get<std::string>();
  EXPECT_EQ(stats.find("welford_reduce"), std::string::npos) << stats;
  EXPECT_NE(stats.find("tmp2_sq = tmp2_sq + tmp2_dx * tmp2_dx"), std::string::npos) << stats;
  EXPECT_NE(stats.find("triton_helpers.welford(tmp2_mean, tmp2_m2, tmp2_weight, 1)"),
            std::string::npos)
      << stats;
  const nlohmann::json settings = {{"k0_XBLOCK", 2},
                                   {"k0_R0_BLOCK", 256},
                                   {"k0_num_warps", 2},
                                   {"k1_XBLOCK", 512},
                                   {"k1_num_warps", 4}};
  const fs::path dir =
      fs::temp_directory_path() / ("kernelopt_shifted_sums_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "welford.py") << propose::source_of(*config, 0, settings);
  std::ofstream(dir / "sums.py") << propose::source_of(*rewrite, 0, settings);
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
torch.manual_seed(0)
x = torch.randn(1, 64, 128) * 2 + 100
w, b = torch.randn(64), torch.randn(64)
want = torch.nn.functional.group_norm(x.double(), 8, w.double(), b.double(), 1e-5).float()
got = {}
for name in ("welford", "sums"):
    out = torch.full((1, 64, 128), 7.0)
    load(name).run({"arg2_1": x, "arg0_1": w, "arg1_1": b}, {"buf3": out})
    got[name] = out
    assert torch.allclose(out, want, rtol=1e-4, atol=1e-4), (name, (out - want).abs().max())
assert torch.allclose(got["welford"], got["sums"], rtol=1e-4, atol=1e-4)
print("ok")
)";
  expect_interpreted_ok(dir);
  fs::remove_all(dir);
}

// The other form Inductor writes for a split reduction with padding (L2/73's batch-norm statistics:
// `welford_combine(N_mean, N_m2, N_weight, V, M, W)`, each element a value with M2 zero and weight
// 1, or 0 past the end): weighted shifted sums. A kernel in that form (7 chunks of 16 positions of
// a 100 x 4 channels-last tensor, the last chunk padded) and its rewrite compute the same partial
// means, M2 and weights as float64 PyTorch, under Triton's interpreter, on data of mean 100. On
// the real L2/73 capture, the first stage is rewritten and the second (a combine of partial
// statistics, M2 not zero) is left alone.
TEST(Rewrite, ShiftedSumsOfPaddedElementsUnderTheInterpreter) {
  const std::string kernel = R"(import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers

@triton.jit
def stats(in_ptr0, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 28
    r0_numel = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x1 = xindex // 4
    x0 = (xindex % 4)
    tmp17_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp17_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp17_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = r0_2 + 16*x1
        tmp1 = tl.full([1, 1], 100, tl.int32)
        tmp2 = tmp0 < tmp1
        tmp3 = tl.load(in_ptr0 + (x0 + 4*(((r0_2 + 16*x1) % 100))), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0)
        tmp6 = tl.full(tmp3.shape, 0, tmp3.dtype)
        tmp7 = tl.where(tmp2, tmp3, tmp6)
        tmp8 = tl.full([1, 1], 0.0, tl.float32)
        tmp9 = tl.full(tmp8.shape, 0, tmp8.dtype)
        tmp10 = tl.where(tmp2, tmp8, tmp9)
        tmp11 = tl.full([1, 1], 1.0, tl.float32)
        tmp12 = tl.full(tmp11.shape, 0, tmp11.dtype)
        tmp13 = tl.where(tmp2, tmp11, tmp12)
        tmp14 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
        tmp15 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp16 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
        tmp17_mean_next, tmp17_m2_next, tmp17_weight_next = triton_helpers.welford_combine(
            tmp17_mean, tmp17_m2, tmp17_weight,
            tmp14, tmp15, tmp16
        )
        tmp17_mean = tl.where(r0_mask & xmask, tmp17_mean_next, tmp17_mean)
        tmp17_m2 = tl.where(r0_mask & xmask, tmp17_m2_next, tmp17_m2)
        tmp17_weight = tl.where(r0_mask & xmask, tmp17_weight_next, tmp17_weight)
    tmp18, tmp19, tmp20 = triton_helpers.welford(tmp17_mean, tmp17_m2, tmp17_weight, 1)
    tmp17 = tmp18[:, None]
    tmp21 = tmp19[:, None]
    tmp22 = tmp20[:, None]
    tl.store(out_ptr0 + (x3), tmp17, xmask)
    tl.store(out_ptr1 + (x3), tmp21, xmask)
    tl.store(out_ptr2 + (x3), tmp22, xmask)
)";
  const auto sums = propose::shifted_sums_source(kernel);
  ASSERT_TRUE(sums.has_value());
  EXPECT_EQ(sums->count, 1);
  EXPECT_EQ(sums->source.find("welford_combine"), std::string::npos) << sums->source;
  EXPECT_NE(sums->source.find("tmp17_w = tl.where(r0_mask & xmask, tmp16, 0.0)"), std::string::npos)
      << sums->source;
  // An M2 that is not zero (partial statistics being combined) is not rewritten.
  std::string partial = kernel;
  replace_all(partial, "tmp8 = tl.full([1, 1], 0.0, tl.float32)",
              "tmp8 = tl.full([1, 1], 0.5, tl.float32)");
  EXPECT_FALSE(propose::shifted_sums_source(partial).has_value());
  const fs::path dir =
      fs::temp_directory_path() / ("kernelopt_shifted_padded_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "welford.py") << kernel;
  std::ofstream(dir / "sums.py") << sums->source;
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
torch.manual_seed(0)
x = torch.randn(100, 4) * 2 + 100
want_mean, want_m2, want_n = [], [], []
for chunk in range(7):
    part = x[16 * chunk:16 * (chunk + 1)].double()
    want_mean.append(part.mean(0))
    want_m2.append(((part - part.mean(0)) ** 2).sum(0))
    want_n.append(torch.full((4,), float(part.shape[0]), dtype=torch.float64))
want = [torch.stack(w).reshape(28) for w in (want_mean, want_m2, want_n)]
for name in ("welford", "sums"):
    outs = [torch.full((28,), 7.0) for _ in range(3)]
    load(name).stats[(7,)](x.reshape(-1), *outs, 28, 16, XBLOCK=4, R0_BLOCK=8)
    for got, w, tol in zip(outs, want, (1e-4, 1e-3, 0)):
        assert torch.allclose(got.double(), w, rtol=1e-5, atol=tol), (name, (got.double() - w).abs().max())
print("ok")
)";
  expect_interpreted_ok(dir);
  fs::remove_all(dir);
  // The real capture: the first stage (elements) rewritten, the second (partials) kept.
  const Captured c = parse(fixture("h200_level2_73_Conv2d_BatchNorm_Scaling_graph_0.py"));
  const auto rewrite = propose::match_rewrite(c.run.code, c.map, c.map.segments.at(1));
  ASSERT_TRUE(rewrite.has_value());
  EXPECT_EQ(rewrite->params.at("rewrite").at("welford"), 1);
  const auto& launches = rewrite->params.at("launches");
  EXPECT_EQ(launches[0].at("source").get<std::string>().find("welford_combine"), std::string::npos);
  EXPECT_NE(launches[1].at("source").get<std::string>().find("welford_combine"), std::string::npos);
}

// Where the Welford update is not in the form Inductor writes (another mask on one of its three
// updates), nothing is rewritten.
TEST(Rewrite, ShiftedSumsLeaveOtherWelfordFormsAlone) {
  const std::string text = fixture("h200_level1_35_GroupNorm__graph_0.py");
  const Captured c = parse(text);
  const std::string source = propose::without_heuristics(
      c.run.code.kernel("triton_red_fused_native_group_norm_0")->source);
  ASSERT_TRUE(propose::shifted_sums_source(source).has_value());
  std::string other = source;
  replace_all(other, "tmp2_m2 = tl.where(xmask, tmp2_m2_next, tmp2_m2)",
              "tmp2_m2 = tl.where(xmask & (tmp1 > 0), tmp2_m2_next, tmp2_m2)");
  EXPECT_FALSE(propose::shifted_sums_source(other).has_value());
  EXPECT_FALSE(propose::shifted_sums_source(
                   propose::without_heuristics(
                       c.run.code.kernel("triton_poi_fused_native_group_norm_1")->source))
                   .has_value());
}

// ---- fuse: a pointwise producer inlined into its consumer ----

std::optional<propose::Match> first_fuse(const Captured& c) {
  for (const auto& segment : c.map.segments) {
    if (auto m = propose::match_fuse(c.run.code, c.map, segment)) return m;
  }
  return std::nullopt;
}

// L2/85: the group norm's output (the statistics' kernel, then the normalizing kernel writing
// the whole tensor in place) is read back by the 4 x 4 max pool at 16 addresses per output. The
// normalizing kernel goes; the pool computes it at each of its 16 loads.
// ---- recompute instead of reload ----

// Inductor's shape of L2/15's normalize-then-subtract-the-mean kernel, cut small: the first walk
// stores tmp15 to a padded buffer and sums it; the second loads it back.
constexpr const char* kReloadKernel =
    R"(def reload(in_ptr0, in_ptr1, out_ptr0, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 6
    r0_numel = 300
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x4 = xindex
    x0 = (xindex % 3)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    _tmp17 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_5 = r0_index
        r0_2 = (r0_index % 100)
        r0_3 = r0_index // 100
        tmp0 = tl.load(in_ptr0 + (r0_5 + 300*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp6 = tl.full([1, 1], 0.5, tl.float32)
        tmp15 = tmp2 * tmp6
        tmp16 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
        tmp18 = _tmp17 + tmp16
        _tmp17 = tl.where(r0_mask & xmask, tmp18, _tmp17)
        tl.store(out_ptr0 + (r0_2 + 104*r0_3 + 312*x4), tmp15, r0_mask & xmask)
    tmp17 = tl.sum(_tmp17, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = (r0_index % 100)
        r0_3 = r0_index // 100
        r0_5 = r0_index
        tmp19 = tl.load(out_ptr0 + (r0_2 + 104*r0_3 + 312*x4), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp20 = tl.full([1, 1], 300.0, tl.float32)
        tmp21 = (tmp17 / tmp20)
        tmp22 = tmp19 - tmp21
        tl.store(out_ptr2 + (r0_5 + 300*x4), tmp22, r0_mask & xmask)
)";

TEST(Recompute, SecondWalkComputesTheStoredValueAgainUnderTheInterpreter) {
  const auto kept = propose::recompute_reloads_source(kReloadKernel, {});
  const auto dropped = propose::recompute_reloads_source(kReloadKernel, {"out_ptr0"});
  ASSERT_TRUE(kept.has_value() && dropped.has_value());
  EXPECT_EQ(kept->count, 1);
  EXPECT_TRUE(kept->dropped.empty());
  EXPECT_EQ(dropped->dropped, std::vector<std::string>{"out_ptr0"});
  for (const auto* r : {&*kept, &*dropped}) {
    EXPECT_EQ(r->source.find("tl.load(out_ptr0"), std::string::npos) << r->source;
    EXPECT_NE(r->source.find("        tmp19 = tl.where(r0_mask & xmask, tmp15, 0.0)\n"),
              std::string::npos)
        << r->source;
  }
  EXPECT_NE(kept->source.find("tl.store(out_ptr0"), std::string::npos) << kept->source;
  EXPECT_EQ(dropped->source.find("tl.store(out_ptr0"), std::string::npos) << dropped->source;
  const fs::path dir =
      fs::temp_directory_path() / ("kernelopt_recompute_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string head = "import triton\nimport triton.language as tl\n\n@triton.jit\n";
  std::ofstream(dir / "inductor.py") << head << kReloadKernel;
  std::ofstream(dir / "kept.py") << head << kept->source;
  std::ofstream(dir / "dropped.py") << head << dropped->source;
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
torch.manual_seed(0)
x, bias = torch.randn(6 * 300) * 2 + 1, torch.randn(3)
out = {}
for name in ("inductor", "kept", "dropped"):
    padded, result = torch.full((6 * 312,), 7.0), torch.full((6 * 300,), 7.0)
    load(name).reload[(3,)](x, bias, padded, result, 6, 300, XBLOCK=2, R0_BLOCK=64)
    out[name] = (padded, result)
y = ((x.view(6, 300) + bias.repeat(2)[:, None]) * 0.5)
want = y - y.mean(1, keepdim=True)
for name in out:
    assert torch.allclose(out[name][1].view(6, 300), want, atol=1e-5), name
assert torch.equal(out["kept"][0], out["inductor"][0])
assert (out["dropped"][0] == 7.0).all()   # the padded buffer is never written
print("ok")
)";
  expect_interpreted_ok(dir);
  fs::remove_all(dir);
}

TEST(Recompute, NotWhereItDoesNotApply) {
  const std::string kernel = kReloadKernel;
  // The second walk's address differs from the store's: not the same value.
  std::string other_address = kernel;
  replace_all(other_address, "tmp19 = tl.load(out_ptr0 + (r0_2 + 104*r0_3 + 312*x4)",
              "tmp19 = tl.load(out_ptr0 + (1 + r0_2 + 104*r0_3 + 312*x4)");
  EXPECT_FALSE(propose::recompute_reloads_source(other_address, {}).has_value());
  // The value reads a pointer the kernel also writes.
  std::string reads_output = kernel;
  replace_all(reads_output, "tmp0 = tl.load(in_ptr0 + (r0_5", "tmp0 = tl.load(out_ptr2 + (r0_5");
  EXPECT_FALSE(propose::recompute_reloads_source(reads_output, {}).has_value());
  // The value depends on the reduction's accumulator.
  std::string reads_accumulator = kernel;
  replace_all(reads_accumulator, "tmp15 = tmp2 * tmp6", "tmp15 = tmp2 * _tmp17");
  EXPECT_FALSE(propose::recompute_reloads_source(reads_accumulator, {}).has_value());
  // A name the value needs is reassigned between the walks.
  std::string reassigned = kernel;
  replace_all(reassigned, "    tmp17 = tl.sum(_tmp17, 1)[:, None]\n",
              "    tmp17 = tl.sum(_tmp17, 1)[:, None]\n    tmp1 = tmp1 + 1\n");
  EXPECT_FALSE(propose::recompute_reloads_source(reassigned, {}).has_value());
  // One walk only.
  EXPECT_FALSE(propose::recompute_reloads_source(
                   "def k(in_ptr0, out_ptr0):\n    tmp0 = tl.load(in_ptr0 + (x0), xmask)\n", {})
                   .has_value());
}

TEST(Recompute, BatchNormOutputMinusItsMeanReadsTheConvolutionTwiceAndWritesOnce) {
  // L2/15's segment: the statistics kernel's Welford loop made shifted sums, and the normalize-
  // then-subtract kernel computes the normalized value again instead of storing it to buf7 (only
  // that kernel names buf7) and loading it back.
  const auto found =
      segment_rewrite("h200_level2_15_ConvTranspose3d_BatchNorm_Subtract_graph_0.py", 0, 1, 1);
  ASSERT_TRUE(found.has_value());
  const auto& m = *found;
  const std::string sub = m.params.at("launches").at(2).at("source").get<std::string>();
  EXPECT_EQ(sub.find("tl.load(out_ptr0"), std::string::npos) << sub;
  EXPECT_EQ(sub.find("tl.store(out_ptr0"), std::string::npos) << sub;
  EXPECT_NE(sub.find("tmp19 = tl.where(r0_mask & xmask, tmp15, 0.0)"), std::string::npos) << sub;
  EXPECT_EQ(count(sub, "tl.load(in_ptr0 + (r0_5 + 123039*x4)"), 2U) << sub;
  const auto settings = propose::initial_settings(m);
  ASSERT_FALSE(settings.empty());
  const std::string source = propose::source_of(m, 0, settings.front());
  EXPECT_NE(source.find("torch.empty_strided((16, 32, 31, 63, 63,)"), std::string::npos) << source;
}

TEST(Fuse, NormOutputInlinedIntoThePoolThatRereadsIt) {
  const Captured c =
      parse(fixture("h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py"));
  const auto m = first_fuse(c);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->recipe, "fuse");
  EXPECT_EQ(m->params.at("producer"), "triton_poi_fused_convolution_mul_native_group_norm_3");
  EXPECT_EQ(
      m->params.at("consumers"),
      nlohmann::json::array(
          {"triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_group_norm_4"}));
  EXPECT_EQ(m->params.at("buffer"), "buf2");
  EXPECT_EQ(m->params.at("loads"), 16);
  const auto& launches = m->params.at("launches");
  ASSERT_EQ(launches.size(), 2U);  // the statistics, then the fused pool
  EXPECT_EQ(launches[0].at("kernel"), "triton_red_fused_convolution_native_group_norm_2");
  // The statistics' buffers live inside the segment: the candidate allocates them.
  EXPECT_EQ(launches[0].at("args")[2].at("from"), "internal");
  const std::string fused = launches[1].at("source").get<std::string>();
  EXPECT_EQ(count(fused, "tl.load(in_ptr0 + "), 16U) << fused;  // the conv output, 16 taps
  // The group means, once: every tap's channel and sample are the tile's row (straight_line.cpp),
  // loaded [YBLOCK, 1] since they depend on y alone.
  EXPECT_EQ(count(fused, "tl.load(fused_in_ptr1 + "), 1U);
  EXPECT_NE(fused.find("f0_tmp3 = tl.load(fused_in_ptr1 + (16*y1 + (y0 // 4)), None, "
                       "eviction_policy='evict_last')"),
            std::string::npos)
      << fused;
  EXPECT_EQ(count(fused, "libdevice.rsqrt("), 1U);
  EXPECT_EQ(count(fused, "tl.store("), 1U);
  EXPECT_NE(fused.find("def triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_"
                       "group_norm_4_fused(in_ptr0, out_ptr1, fused_in_ptr0, fused_in_ptr1, "
                       "fused_in_ptr2, fused_in_ptr3, fused_in_ptr4, fused_in_ptr5, ynumel, "
                       "xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):"),
            std::string::npos)
      << fused;
  // The second tap: the producer's load of the intermediate at the tap's address and the pool's
  // mask, its arithmetic on the first tap's statistics, its value cast to the intermediate's type.
  EXPECT_EQ(fused.find("f1_x0 ="), std::string::npos) << fused;  // (64 + y0 + ...) % 64 is y0
  EXPECT_NE(fused.find("f1_tmp0 = tl.load(in_ptr0 + ((64 + y0 + 256*x2 + 32256*x3 + 1016064*y1)), "
                       "xmask)"),
            std::string::npos)
      << fused;
  EXPECT_NE(fused.find("f1_tmp4 = f1_tmp2 - f0_tmp3"), std::string::npos) << fused;
  EXPECT_NE(fused.find("tmp1 = f1_tmp17.to(tl.float32)"), std::string::npos) << fused;
  const std::string source = propose::source_of(*m, 1, propose::initial_settings(*m).front());
  EXPECT_NE(source.find("torch.empty_strided((128, 16, 1, 1,), (16, 1, 2048, 2048,), "
                        "dtype=torch.float32, device=_device)"),
            std::string::npos)
      << source;
  EXPECT_EQ(count(source, "triton_poi_fused_convolution_mul_native_group_norm_3["), 0U);
  for (const auto& next : propose::neighbours_of(*m, propose::initial_settings(*m).front())) {
    EXPECT_TRUE(next.contains("k0_XBLOCK") && next.contains("k1_YBLOCK")) << next;
  }
}

TEST(Fuse, NotWhereItDoesNotApply) {
  // One launch; a norm whose statistics are read by a pointwise kernel (the producer is a
  // reduction); an instance norm in one launch; a softmax; a batch norm whose output is returned.
  for (const char* name :
       {"h200_level1_19_ReLU_graph_0.py", "h200_level1_35_GroupNorm__graph_0.py",
        "h200_level2_17_Conv2d_InstanceNorm_Divide_graph_0.py", "h200_level1_23_Softmax_graph_0.py",
        "h200_level1_33_BatchNorm_graph_0.py"}) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(first_fuse(parse(fixture(name))).has_value());
  }
  // A producer whose value leaves the segment, or that stores twice, is not inlined.
  const std::string producer = R"(
@triton.jit
def p(in_ptr0, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tl.store(out_ptr0 + (xindex), tmp0, xmask)
    tl.store(out_ptr1 + (xindex), tmp0, xmask)
)";
  const std::string consumer = R"(
@triton.jit
def c(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (2*xindex), xmask)
    tl.store(out_ptr0 + (xindex), tmp0, xmask)
)";
  EXPECT_FALSE(propose::inline_producer("'out_ptr0': '*fp32'\n" + producer, consumer, "in_ptr0"));
  // One store, under a mask of its own: the elements it skips keep an older value.
  std::string partial = producer;
  const std::string second = "    tl.store(out_ptr1 + (xindex), tmp0, xmask)\n";
  partial.erase(partial.find(second), second.size());
  const std::string first = "tl.store(out_ptr0 + (xindex), tmp0, xmask)";
  EXPECT_TRUE(propose::inline_producer("'out_ptr0': '*fp32'\n" + partial, consumer, "in_ptr0"));
  partial.replace(partial.find(first), first.size(),
                  "tl.store(out_ptr0 + (xindex), tmp0, xmask & (tmp0 > 0))");
  EXPECT_FALSE(propose::inline_producer("'out_ptr0': '*fp32'\n" + partial, consumer, "in_ptr0"));
}

// L2/85 cut to 2 samples of 64 channels of 8 x 8 (the pool's output 2 x 2) so that the
// interpreter runs it: the fused candidate computes, from the convolution's output, what PyTorch
// computes for the same model (bias, group norm of 16 groups, scale, 4 x 4 max pool, clamp).
TEST(Fuse, FusedCandidateComputesTheModelUnderTheInterpreter) {
  std::string text = fixture("h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py");
  const std::vector<std::pair<std::string, std::string>> cuts = {
      {"    xnumel = 2048\n    r0_numel = 63504\n", "    xnumel = 32\n    r0_numel = 256\n"},
      {"64*r0_3 + 1016064*x1", "64*r0_3 + 4096*x1"},
      {"    xnumel = 130056192\n", "    xnumel = 8192\n"},
      {"x2 = xindex // 1016064", "x2 = xindex // 4096"},
      {"63504.0", "256.0"},
      {"    ynumel = 8192\n    xnumel = 961\n", "    ynumel = 128\n    xnumel = 4\n"},
      {"x2 = (xindex % 31)", "x2 = (xindex % 2)"},
      {"x3 = xindex // 31", "x3 = xindex // 2"},
      {"256*x2 + 32256*x3 + 1016064*y1", "256*x2 + 2048*x3 + 4096*y1"},
      {"(8064 + y0", "(512 + y0"},
      {"(8128 + y0", "(576 + y0"},
      {"(8192 + y0", "(640 + y0"},
      {"(8256 + y0", "(704 + y0"},
      {"(16128 + y0", "(1024 + y0"},
      {"(16192 + y0", "(1088 + y0"},
      {"(16256 + y0", "(1152 + y0"},
      {"(16320 + y0", "(1216 + y0"},
      {"(24192 + y0", "(1536 + y0"},
      {"(24256 + y0", "(1600 + y0"},
      {"(24320 + y0", "(1664 + y0"},
      {"(24384 + y0", "(1728 + y0"},
      {"x4 + 961*y5", "x4 + 4*y5"},
      {"buf3, buf4, 2048, 63504, stream", "buf3, buf4, 32, 256, stream"},
      {"arg5_1, 130056192, stream", "arg5_1, 8192, stream"},
      {"buf6, buf8, 8192, 961, stream", "buf6, buf8, 128, 4, stream"},
      {"((128, 16, 1, 1), (16, 1, 2048, 2048)", "((2, 16, 1, 1), (16, 1, 32, 32)"},
      {"((128, 64, 31, 31), (61504, 961, 31, 1)", "((2, 64, 2, 2), (256, 4, 2, 1)"},
      {"(128, 64, 126, 126), (1016064, 1, 8064, 64)", "(2, 64, 8, 8), (4096, 1, 512, 64)"},
      // Triton 3.6's interpreter has no libdevice.rsqrt (it returns None); tl.rsqrt is the same.
      {"libdevice.rsqrt(", "tl.rsqrt("}};
  for (const auto& [from, to] : cuts) {
    ASSERT_NE(text.find(from), std::string::npos) << from;
    replace_all(text, from, to);
  }
  const auto m = first_fuse(parse(text));
  ASSERT_TRUE(m.has_value());
  const fs::path dir =
      fs::temp_directory_path() / ("kernelopt_fuse_interpreted_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "fused.py") << propose::source_of(*m, 1,
                                                        {{"k0_XBLOCK", 8},
                                                         {"k0_R0_BLOCK", 64},
                                                         {"k0_num_warps", 1},
                                                         {"k1_XBLOCK", 4},
                                                         {"k1_YBLOCK", 16},
                                                         {"k1_num_warps", 1}});
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
fused = load("fused")
torch.manual_seed(0)
conv = torch.randn(8192) * 2 + 0.5          # the convolution's output, channels last
bias, weight, shift, scale = torch.randn(64), torch.randn(64), torch.randn(64), torch.rand(64) + 0.5
inputs = {"buf2": conv.clone(), "arg1_1": bias, "arg3_1": weight, "arg4_1": shift, "arg5_1": scale}
outputs = {"buf8": torch.full((512,), 7.0)}
fused.run(inputs, outputs)
x = torch.as_strided(conv, (2, 64, 8, 8), (4096, 1, 512, 64)).double() + bias.double()[None, :, None, None]
y = F.group_norm(x, 16, weight.double(), shift.double(), 1e-5) * scale.double()[None, :, None, None]
want = F.max_pool2d(y, 4, 4).clamp(0, 1).reshape(-1)
got = outputs["buf8"].double()
assert torch.equal(inputs["buf2"], conv), "the convolution's output was written"
assert torch.allclose(got, want, rtol=1e-4, atol=1e-4), (got - want).abs().max()
print("ok")
)";
  expect_interpreted_ok(dir);
  fs::remove_all(dir);
}

// L2/3: a layer norm over rows of 64 (the last dimension), applied in place to the convolution's
// output, then read by a 2 x 2 x 2 average pool. The norm kernel is split: it stores each row's
// sum and reciprocal deviation, and the pool computes the normalized values it reads.
TEST(Fuse, PersistentNormSplitIntoItsStatisticsAndThePoolThatReadsIt) {
  std::string text = fixture("h200_level2_3_ConvTranspose3d_Sum_LayerNorm_AvgPool_GELU_graph_0.py");
  const auto m = first_fuse(parse(text));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->params.at("split"), nlohmann::json::array({"tmp10", "tmp24"}));
  EXPECT_EQ(m->params.at("loads"), 8);
  const auto& launches = m->params.at("launches");
  ASSERT_EQ(launches.size(), 2U);
  const std::string stats = launches[0].at("source").get<std::string>();
  EXPECT_EQ(stats.find("tl.store(in_out_ptr0"), std::string::npos) << stats;
  EXPECT_NE(stats.find("tl.store(out_ptr_stats1 + (xindex), tmp24, xmask)"), std::string::npos)
      << stats;
  const std::string pool = launches[1].at("source").get<std::string>();
  // One load of a row's statistics per row the 2 x 2 x 2 window reads (its two taps along the
  // last dimension share their row: the copies' loads of it are one, straight_line.cpp).
  EXPECT_EQ(count(pool, "tl.load(fused_in_ptr_stats1 + ("), 4U) << pool;
  // Not split: a normalized value that uses the row mask, or a store elsewhere than its row.
  const Captured full = parse(text);
  const inductor::TritonKernel* norm =
      full.run.code.kernel("triton_per_fused_add_convolution_native_layer_norm_0");
  ASSERT_NE(norm, nullptr);
  std::string masked = norm->source;
  replace_all(masked, "tmp29 = tmp27 + tmp28", "tmp29 = tl.where(r0_mask, tmp27 + tmp28, 0.0)");
  EXPECT_FALSE(propose::split_persistent(masked, masked).has_value());
  std::string elsewhere = norm->source;
  replace_all(elsewhere, "tl.store(in_out_ptr0 + (r0_3 + 64*x4)", "tl.store(in_out_ptr0 + (x4)");
  EXPECT_FALSE(propose::split_persistent(elsewhere, elsewhere).has_value());
  EXPECT_TRUE(propose::split_persistent(norm->source, norm->source).has_value());
  // Cut to one sample (131072 rows) and run whole under Triton's interpreter: the model's layer
  // norm, pool and GELU in float64.
  for (const auto& [from, to] :
       std::vector<std::pair<std::string, std::string>>{{"4194304", "131072"},
                                                        {"33554432", "1048576"},
                                                        {"libdevice.rsqrt(", "tl.rsqrt("},
                                                        {"libdevice.erf(", "tl.erf("}}) {
    ASSERT_NE(text.find(from), std::string::npos) << from;
    replace_all(text, from, to);
  }
  const auto small = first_fuse(parse(text));
  ASSERT_TRUE(small.has_value());
  const fs::path dir =
      fs::temp_directory_path() / ("kernelopt_fuse_split_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "fused.py") << propose::source_of(
      *small, 0,
      {{"k0_XBLOCK", 2048}, {"k0_num_warps", 4}, {"k1_XBLOCK", 16384}, {"k1_num_warps", 4}});
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
fused = load("fused")
torch.manual_seed(0)
conv = torch.randn(64 * 32 * 64 * 64) * 2 + 0.5
bias, gamma, beta = torch.randn(64), torch.rand(64) + 0.5, torch.randn(64)
weight = torch.tensor(1.0)
inputs = {"buf0": conv.clone(), "arg1_1": bias, "arg3_1": weight, "arg4_1": gamma, "arg5_1": beta}
outputs = {"buf5": torch.full((64 * 16 * 32 * 32,), 7.0)}
fused.run(inputs, outputs)
x = conv.view(1, 64, 32, 64, 64).double() + bias.double()[None, :, None, None, None] + 1.0
y = F.layer_norm(x, (64,), gamma.double(), beta.double(), 1e-5)
want = F.gelu(F.avg_pool3d(y, 2)).reshape(-1)
got = outputs["buf5"].double()
assert torch.allclose(got, want, rtol=1e-4, atol=1e-4), (got - want).abs().max()
print("ok")
)";
  expect_interpreted_ok(dir);
  fs::remove_all(dir);
}

// The other real captures where it applies: L2/11 (the batch norm's output, tanh applied in
// place, read by the group norm's statistics over the max pool and by its output kernel: both
// compute it) and L2/65 (the convolution's bias added in place, read by a 4 x 4 average pool).
TEST(Fuse, BatchNormOutputInlinedIntoBothReadersAndBiasIntoAnAveragePool) {
  const auto bn = first_fuse(
      parse(fixture("h200_level2_11_ConvTranspose2d_BatchNorm_Tanh_MaxPool_GroupNorm_graph_0.py")));
  ASSERT_TRUE(bn.has_value());
  EXPECT_EQ(bn->params.at("producer"),
            "triton_poi_fused__native_batch_norm_legit_functional_convolution_tanh_5");
  EXPECT_EQ(bn->params.at("consumers").size(), 2U);
  EXPECT_EQ(bn->params.at("loads"), 8);
  EXPECT_EQ(bn->params.at("launches").size(), 6U);  // 7 launches, the producer gone
  // In the statistics' loop, a masked load with other=0.0 keeps its value where masked off.
  const std::string stats = bn->params.at("launches")[3].at("source").get<std::string>();
  EXPECT_NE(stats.find("tmp0 = tl.where(r0_mask, f0_tmp16.to(tl.float32), 0.0)"), std::string::npos)
      << stats;
  const auto avg =
      first_fuse(parse(fixture("h200_level2_65_Conv2d_AvgPool_Sigmoid_Sum_graph_0.py")));
  ASSERT_TRUE(avg.has_value());
  EXPECT_EQ(avg->params.at("producer"), "triton_poi_fused_convolution_2");
  EXPECT_EQ(avg->params.at("loads"), 16);
}

// L2/43: the convolution's bias, added in place, is read by the 2 x 2 x 2 max pool inside a
// persistent logsumexp over the channels, which writes `buf5 = reinterpret_tensor(buf4, ..., 0)`.
// A reinterpret at offset 0 addresses its buffer, so the reduction relaunches with buf4 as its
// output and computes the bias at each of its 8 loads; the bias kernel goes.
TEST(Fuse, BiasInlinedIntoAPooledReductionThatWritesAReinterpretedBuffer) {
  const Captured c = parse(fixture("h200_level2_43_Conv3d_Max_LogSumExp_ReLU_graph_0.py"));
  const auto m = first_fuse(c);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->params.at("producer"), "triton_poi_fused_convolution_0");
  EXPECT_EQ(m->params.at("loads"), 8);
  const auto& launches = m->params.at("launches");
  ASSERT_EQ(launches.size(), 1U);
  EXPECT_EQ(launches[0].at("kind"), "persistent_reduction");
  EXPECT_EQ(launches[0].at("args")[0],
            (nlohmann::json{{"param", "in_out_ptr0"}, {"from", "outputs"}, {"root", "buf4"}}));
  const std::string fused = launches[0].at("source").get<std::string>();
  // The bias, once: every tap of the window is in the same channel (straight_line.cpp).
  EXPECT_EQ(count(fused, "tl.load(fused_in_ptr0 + "), 1U) << fused;
  const std::string source = propose::source_of(*m, 0, propose::initial_settings(*m).front());
  EXPECT_NE(source.find("outputs[\"buf4\"]"), std::string::npos) << source;
  EXPECT_EQ(count(source, "triton_poi_fused_convolution_0["), 0U) << source;
  // A reinterpret at another offset is a view of another address: no relaunch.
  std::string shifted = fixture("h200_level2_43_Conv3d_Max_LogSumExp_ReLU_graph_0.py");
  const std::string view = "(65536, 65536, 4096, 64, 1), 0); del buf4";
  ASSERT_NE(shifted.find(view), std::string::npos);
  shifted.replace(shifted.find(view), view.size(), "(65536, 65536, 4096, 64, 1), 64); del buf4");
  EXPECT_FALSE(first_fuse(parse(shifted)).has_value());
}

// With the launch settings Inductor's autotuner chose (read at capture), config and fuse start
// there: the unfused launches exactly as the baseline ran them, the fused kernel's tile shrunk
// for its 16 copies of the producer, counted at what is left of them once tidied (each keeps
// its load and five multiply-adds: about 6 whole copies), its warps at two elements a thread.
TEST(Fuse, StartsFromInductorsAutotunedSettings) {
  Captured c = parse(fixture("h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py"));
  for (auto& kernel : c.run.code.kernels) {
    if (kernel.name == "triton_red_fused_convolution_native_group_norm_2") {
      kernel.autotuned = {{"XBLOCK", 16}, {"R0_BLOCK", 256}, {"num_warps", 8}, {"num_stages", 1}};
    }
    if (kernel.name ==
        "triton_poi_fused_clamp_convolution_max_pool2d_with_indices_mul_native_group_norm_4") {
      kernel.autotuned = {{"XBLOCK", 32}, {"YBLOCK", 64}, {"num_warps", 4}, {"num_stages", 1}};
    }
  }
  const auto m = first_fuse(c);
  ASSERT_TRUE(m.has_value());
  const auto settings = propose::initial_settings(*m);
  ASSERT_FALSE(settings.empty());
  EXPECT_EQ(settings.front().at("k0_XBLOCK"), 16);
  EXPECT_EQ(settings.front().at("k0_R0_BLOCK"), 256);
  EXPECT_EQ(settings.front().at("k0_num_warps"), 8);
  const long cost = m->params.at("launches")[1].at("inlined_cost").get<long>();
  EXPECT_GT(cost, 1);
  EXPECT_LT(cost, 16);
  for (const auto& s : settings) {
    const long tile = s.at("k1_XBLOCK").get<long>() * s.at("k1_YBLOCK").get<long>();
    EXPECT_LE(tile, 4096 / cost) << s;
    EXPECT_LE(s.at("k1_num_warps").get<long>() * 64, tile) << s;
  }
  // Inductor's 32 x 64 halved twice, to 16 x 32.
  EXPECT_EQ(settings.front().at("k1_XBLOCK"), 16);
  EXPECT_EQ(settings.front().at("k1_YBLOCK"), 32);
  // The config proposer on the statistics' kernel alone (split segments) starts at Inductor's.
  analysis::AnalysisOptions split;
  split.split_launches = true;
  const auto map = analysis::build_dispatch_map({c.run}, split);
  bool found = false;
  for (const auto& segment : map.segments) {
    const auto config = propose::match_config(c.run.code, map, segment);
    if (!config ||
        config->params.at("kernel") != "triton_red_fused_convolution_native_group_norm_2") {
      continue;
    }
    found = true;
    EXPECT_EQ(
        propose::initial_settings(*config).front(),
        (nlohmann::json{{"XBLOCK", 16}, {"R0_BLOCK", 256}, {"num_warps", 8}, {"num_stages", 1}}));
  }
  EXPECT_TRUE(found);
}

// L2/65's fused average pool has 1155200 rows in y. Inductor spills y programs past 65535 into z
// (Grid2DWithYZOverflow); the relaunch gives z one program, so every fused tile keeps YBLOCK at 32
// or more (36100 programs) while it shrinks for the 16 inlined copies, even from an autotuned
// YBLOCK of 1. Before this, every starting tile shrank below that, the launch took its defaults
// and G2 failed it on the H200.
TEST(Fuse, FusedTilesKeepTheYGridWithinCudasLimit) {
  Captured c = parse(fixture("h200_level2_65_Conv2d_AvgPool_Sigmoid_Sum_graph_0.py"));
  for (auto& kernel : c.run.code.kernels) {
    if (kernel.name == "triton_poi_fused_avg_pool2d_convolution_3") {
      kernel.autotuned = {{"XBLOCK", 64}, {"YBLOCK", 1}, {"num_warps", 4}, {"num_stages", 1}};
    }
  }
  const auto m = first_fuse(c);
  ASSERT_TRUE(m.has_value());
  ASSERT_EQ(m->params.at("launches")[0].at("inlined_loads"), 16);
  const auto settings = propose::initial_settings(*m);
  ASSERT_FALSE(settings.empty());
  for (const auto& s : settings) {
    const long y = s.at("k0_YBLOCK").get<long>();
    EXPECT_LE((1155200 + y - 1) / y, 65535) << s;
    EXPECT_LE(y * s.at("k0_XBLOCK").get<long>(), 256) << s;
  }
  EXPECT_EQ(settings.front().at("k0_YBLOCK"), 32);
  EXPECT_EQ(settings.front().at("k0_XBLOCK"), 8);
  for (const auto& next : propose::neighbours_of(*m, settings.front())) {
    const long y = next.at("k0_YBLOCK").get<long>();
    EXPECT_LE((1155200 + y - 1) / y, 65535) << next;
  }
}

// examples/conv_groupnorm_maxpool.py as the H200 compiled it: max-autotune chose its own Triton
// convolution template, so the template sits in the one segment with the group norm and the pool.
// The normalized tensor is written in place and reread by the pool's nine loads: fuse matches, and
// relaunches the template exactly as Inductor did (its fixed grid, warps and stages; the search
// does not tune them).
Captured example_capture() {
  std::string text = fixture("h200_example_conv_groupnorm_maxpool_graph_0.py");
  // Triton 3.6's interpreter has no libdevice.rsqrt (it returns None); tl.rsqrt is the same.
  replace_all(text, "libdevice.rsqrt(", "tl.rsqrt(");
  return parse(text);
}

TEST(Fuse, RelaunchesATritonTemplateAsInductorDid) {
  const Captured c = example_capture();
  ASSERT_EQ(c.map.segments.size(), 1U);
  const auto& segment = c.map.segments.front();
  ASSERT_EQ(segment.launches.size(), 8U);
  // config leaves a template alone; fuse takes it.
  EXPECT_FALSE(propose::relaunch_params(c.run.code, c.map, segment, 2, false).has_value());
  const auto launch = propose::relaunch_params(c.run.code, c.map, segment, 2, true);
  ASSERT_TRUE(launch.has_value());
  EXPECT_EQ(launch->at("kind"), "template");
  EXPECT_EQ(launch->at("fixed_grid"), nlohmann::json::array({242, 1, 1}));
  EXPECT_EQ(launch->at("inductor"), (nlohmann::json{{"num_warps", 4}, {"num_stages", 2}}));
  const auto m = propose::match_fuse(c.run.code, c.map, segment);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->params.at("producer"), "triton_poi_fused_convolution_mul_native_group_norm_6");
  EXPECT_EQ(m->params.at("loads"), 9);
  const auto settings = propose::initial_settings(*m);
  ASSERT_FALSE(settings.empty());
  for (const auto& s : settings) {
    EXPECT_EQ(s.at("k2_num_warps"), 4) << s;
    EXPECT_EQ(s.at("k2_num_stages"), 2) << s;
  }
  for (const auto& next : propose::neighbours_of(*m, settings.front())) {
    EXPECT_EQ(next.at("k2_num_warps"), 4) << next;
    EXPECT_EQ(next.at("k2_num_stages"), 2) << next;
  }
  const std::string source = propose::source_of(*m, 0, settings.front());
  EXPECT_NE(source.find("triton_tem_fused_convolution_2[(242, 1, 1)](_t1, _t3, _t4, num_warps=4, "
                        "num_stages=2)"),
            std::string::npos)
      << source;
}

// The same candidate run whole under Triton's interpreter, the template's convolution included,
// computes what PyTorch computes for the model in float64. About 8 minutes on a CPU core (the
// interpreter's Welford reductions over 3M elements), so it runs only with KERNELOPT_SLOW_TESTS=1;
// the launch settings are chosen for few programs.
TEST(Fuse, TemplateCandidateComputesTheModelUnderTheInterpreter) {
  if (std::getenv("KERNELOPT_SLOW_TESTS") == nullptr) {
    GTEST_SKIP() << "set KERNELOPT_SLOW_TESTS=1 to run (about 8 minutes)";
  }
  const Captured c = example_capture();
  const auto m = propose::match_fuse(c.run.code, c.map, c.map.segments.front());
  ASSERT_TRUE(m.has_value());
  nlohmann::json settings = propose::initial_settings(*m).front();
  const nlohmann::json few_programs = {{"k0_XBLOCK", 64}, {"k0_YBLOCK", 64}, {"k3_XBLOCK", 64},
                                       {"k4_XBLOCK", 64}, {"k5_XBLOCK", 32}, {"k6_XBLOCK", 64},
                                       {"k6_YBLOCK", 64}};
  settings.update(few_programs);
  const std::string source = propose::source_of(*m, 0, settings);
  const fs::path dir = fs::temp_directory_path() /
                       ("kernelopt_fuse_template_interpreted_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "fused.py") << source;
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
fused = load("fused")
torch.manual_seed(0)
x = torch.randn(8, 16, 90, 90)
w = torch.randn(48, 16, 3, 3) * 0.1
b, gw, gb, scale = torch.randn(48), torch.randn(48), torch.randn(48), torch.rand(48, 1, 1) + 0.5
inputs = {"arg0_1": w, "arg1_1": b, "arg2_1": x, "arg3_1": gw, "arg4_1": gb, "arg5_1": scale}
out = torch.full((8, 48, 29, 29), 7.0)
outputs = {"buf14": out}
fused.run(inputs, outputs)
y = F.conv2d(x.double(), w.double(), b.double())
y = F.group_norm(y, 12, gw.double(), gb.double(), 1e-5) * scale.double()
want = F.max_pool2d(y, 3).clamp(-1, 1)
assert torch.allclose(out.double(), want, rtol=1e-4, atol=1e-4), (out.double() - want).abs().max()
print("ok")
)";
  expect_interpreted_ok(dir);
}

// ---- cheaper arithmetic: Mish with one exponential ----

// L2/35's pool-and-Mish kernel (its real capture): the tanh of the softplus becomes n / (n + 2)
// with n = e^x (e^x + 2), the kernel's own exponential reused. Under Triton's interpreter the
// rewritten kernel's Mish gives float64 PyTorch's F.mish within float32 rounding on values across
// the range: very negative, around zero, at and past the softplus threshold of 20, where the
// exponential overflows, +-inf and NaN (the same NaNs). The rewrite, fuse and split strategies
// all carry it; config does not.
TEST(CheapMath, MishWithOneExponentialUnderTheInterpreter) {
  const std::string text =
      fixture("h200_level2_35_Conv2d_Subtract_HardSwish_MaxPool_Mish_graph_0.py");
  const Captured c = parse(text);
  const std::string kernel =
      "triton_poi_fused_convolution_hardswish_max_pool2d_with_indices_mish_sub_3";
  const std::string source = propose::without_heuristics(c.run.code.kernel(kernel)->source);
  const auto cheap = propose::cheaper_math_source(source);
  ASSERT_TRUE(cheap.has_value());
  EXPECT_EQ(cheap->mish, 1);
  EXPECT_EQ(cheap->source.find("libdevice.tanh("), std::string::npos) << cheap->source;
  EXPECT_NE(cheap->source.find("tmp12_n = tmp9 * (tmp9 + 2.0)\n"), std::string::npos);
  EXPECT_NE(cheap->source.find("tmp12 = tl.where(tmp8, 1.0, tmp12_n / (tmp12_n + 2.0))\n"),
            std::string::npos);
  // Another threshold (softplus with threshold 10), or another operand of the exponential: left.
  std::string other = source;
  replace_all(other, "tl.full([1, 1], 20.0, tl.float32)", "tl.full([1, 1], 10.0, tl.float32)");
  EXPECT_FALSE(propose::cheaper_math_source(other).has_value());
  other = source;
  replace_all(other, "tmp9 = libdevice.exp(tmp6)", "tmp9 = libdevice.exp(tmp4)");
  EXPECT_FALSE(propose::cheaper_math_source(other).has_value());
  // The strategies that carry it.
  int carried = 0;
  for (const auto& segment : c.map.segments) {
    for (const auto& m : propose::match_strategies(c.run.code, c.map, segment)) {
      const std::string all = m.params.dump();
      const bool has = all.find("tmp12_n / (tmp12_n + 2.0)") != std::string::npos;
      EXPECT_EQ(has, m.recipe == "rewrite" || m.recipe == "fuse") << m.recipe;
      carried += has ? 1 : 0;
    }
  }
  EXPECT_EQ(carried, 2);
  // The rewritten kernel run on one row of values (Triton 3.6's interpreter has no libdevice.exp
  // or log1p: tl.exp and tl.log(1 + x), which the rewrite leaves without a reader).
  std::string runnable = cheap->source;
  replace_all(runnable, "libdevice.exp(", "tl.exp(");
  replace_all(runnable, "libdevice.log1p(", "tl.log(1.0 + ");
  const fs::path dir = fs::temp_directory_path() / ("kernelopt_mish_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "mish.py") << runnable;
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
k = getattr(load("mish"), sys.argv[2])
values = [float("-inf"), -1e4, -100.0, -30.0, -20.0, -5.0, -1.0, -1e-3, 0.0, 1e-6, 1e-3, 0.5, 1.0,
          3.0, 9.0, 9.5, 15.0, 19.99, 20.0, 20.01, 30.0, 88.0, 89.0, 1e4, float("inf"), float("nan")]
values += torch.linspace(-25, 25, 1001).tolist()
v = torch.tensor(values)
# The kernel reads a 2 x 2 max pool of a channels-last [N=1, C=128, 126, 126] input and writes
# [1, 128, 63, 63]: one value per pooling window, in window (0, 0) of each channel and position.
n = len(values)
x = torch.full((1, 126, 126, 128), float("-inf"))
for i, value in enumerate(values):
    x[0, 2 * (i // 63), 2 * (i % 63), i % 128] = value
out = torch.full((128 * 3969,), 7.0)
k[(8, 63, 1)](x.reshape(-1), out, 3969, 128, YBLOCK=64, XBLOCK=16)
got = out.reshape(128, 63, 63).permute(1, 2, 0).reshape(-1, 128)
got = torch.stack([got[i, i % 128] for i in range(n)])
want = F.mish(v.double())
assert torch.equal(torch.isnan(got), torch.isnan(want)), (v[torch.isnan(got) != torch.isnan(want)])
ok = torch.isclose(got.double(), want, rtol=1e-6, atol=1e-30, equal_nan=True)
assert ok.all(), (v[~ok], got[~ok], want[~ok])
print("ok")
)";
  // The grid in the check: programs of 16 channels (x) by 64 positions (y).
  expect_interpreted_ok(dir, " " + kernel);
  fs::remove_all(dir);
}

// ---- split: a looped reduction's rows split among programs ----

// A kernel in Inductor's form with three reductions of one loop over rows of 1000 (a sum, a max and
// a Welford mean and M2) and an epilogue that loads a per-row weight.
constexpr const char* kThreeReductions = R"(import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math

@triton.jit
def triton_red_fused_three_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 6
    r0_numel = 1000
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp4 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    tmp6_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp6_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp6_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 1000*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
        tmp5 = triton_helpers.maximum(_tmp4, tmp1)
        _tmp4 = tl.where(r0_mask & xmask, tmp5, _tmp4)
        tmp6_mean_next, tmp6_m2_next, tmp6_weight_next = triton_helpers.welford_reduce(
            tmp1, tmp6_mean, tmp6_m2, tmp6_weight, roffset == 0
        )
        tmp6_mean = tl.where(r0_mask & xmask, tmp6_mean_next, tmp6_mean)
        tmp6_m2 = tl.where(r0_mask & xmask, tmp6_m2_next, tmp6_m2)
        tmp6_weight = tl.where(r0_mask & xmask, tmp6_weight_next, tmp6_weight)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tmp4 = triton_helpers.max2(_tmp4, 1)[:, None]
    tmp7, tmp8, tmp9 = triton_helpers.welford(tmp6_mean, tmp6_m2, tmp6_weight, 1)
    tmp6 = tmp7[:, None]
    tmp10 = tmp8[:, None]
    tmp11 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tmp12 = tl.full([1, 1], 1000.0, tl.float32)
    tmp13 = (tmp10 / tmp12) * tmp11
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tl.store(out_ptr1 + (x0), tmp4, xmask)
    tl.store(out_ptr2 + (x0), tmp6, xmask)
    tl.store(out_ptr3 + (x0), tmp13, xmask)
)";

// The launch of kThreeReductions (or a transformation of it) as config relaunches it: x [6, 1000]
// and w [6] in, sum, max, mean and w * variance out.
nlohmann::json three_reductions_launch(const std::string& source) {
  nlohmann::json args = nlohmann::json::array();
  for (const auto& [param, side, root] :
       {std::tuple{"in_ptr0", "inputs", "x"}, std::tuple{"in_ptr1", "inputs", "w"},
        std::tuple{"out_ptr0", "outputs", "sum"}, std::tuple{"out_ptr1", "outputs", "max"},
        std::tuple{"out_ptr2", "outputs", "mean"}, std::tuple{"out_ptr3", "outputs", "var"}}) {
    args.push_back({{"param", param}, {"from", side}, {"root", root}});
  }
  args.push_back({{"param", "xnumel"}, {"literal", 6}});
  args.push_back({{"param", "r0_numel"}, {"literal", 1000}});
  return {{"kernel", "triton_red_fused_three_0"},
          {"kind", "reduction"},
          {"grid", 1},
          {"args", args},
          {"numels", {{"xnumel", 6}, {"r0_numel", 1000}}},
          {"constexprs", {"XBLOCK", "R0_BLOCK"}},
          {"divides", nlohmann::json::object()},
          {"source", source}};
}

// Split, with and without shifted sums, at chunk counts from 1 to 16 (rows of 1000 are not a
// multiple of any R0_BLOCK: the last chunk's last block is masked), the candidates compute what
// Inductor's kernel does, under Triton's interpreter: on ordinary rows (mean 50), and on rows
// with a NaN, with a +inf, and of all -inf, the same values and the same NaNs.
TEST(Split, ThreeReductionsSplitComputeWhatInductorsKernelDoesUnderTheInterpreter) {
  const auto split = propose::split_reduction_source(kThreeReductions);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->reductions, 3);
  EXPECT_EQ(split->partials, 5);  // a sum, a max, a Welford triple
  EXPECT_EQ(split->dtype, "torch.float32");
  const std::string& text = split->source;
  EXPECT_NE(text.find("r0_mask = r0_index < r0_end"), std::string::npos) << text;
  EXPECT_NE(text.find("for r0_offset in tl.range(r0_start, r0_end, R0_BLOCK):"), std::string::npos);
  EXPECT_NE(text.find("tmp2 = tl.sum(tl.where(split_mask, part0, 0.0), 1)[:, None]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("tmp7, tmp8, tmp9 = triton_helpers.welford(part2, part3, "
                      "tl.where(split_mask, part4, 0.0), 1)"),
            std::string::npos)
      << text;
  // The epilogue (the per-row load, the stores) only in the combine kernel.
  EXPECT_EQ(count(text, "tl.load(in_ptr1 + (x0)"), 1U);
  EXPECT_GT(text.find("tl.load(in_ptr1 + (x0)"), text.find("_split_combine("));
  const auto sums = propose::shifted_sums_source(kThreeReductions);
  ASSERT_TRUE(sums.has_value());
  const auto split_sums = propose::split_reduction_source(sums->source);
  ASSERT_TRUE(split_sums.has_value());
  EXPECT_EQ(split_sums->reductions, 3);

  const fs::path dir = fs::temp_directory_path() / ("kernelopt_split_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const propose::Match inductor{"config", three_reductions_launch(kThreeReductions), ""};
  std::ofstream(dir / "inductor.py")
      << propose::source_of(inductor, 0, {{"XBLOCK", 2}, {"R0_BLOCK", 256}, {"num_warps", 2}});
  const std::vector<nlohmann::json> settings = {
      {{"k0_XBLOCK", 4}, {"k0_R0_BLOCK", 128}, {"k0_SPLIT", 3}, {"k0_num_warps", 2}},
      {{"k0_XBLOCK", 1}, {"k0_R0_BLOCK", 256}, {"k0_SPLIT", 2}, {"k0_num_warps", 4}},
      {{"k0_XBLOCK", 8}, {"k0_R0_BLOCK", 256}, {"k0_SPLIT", 1}, {"k0_num_warps", 1}},
      {{"k0_XBLOCK", 8}, {"k0_R0_BLOCK", 64}, {"k0_SPLIT", 64}, {"k0_num_warps", 2}}};
  std::vector<std::string> names;
  for (std::size_t form = 0; form < 2; ++form) {
    nlohmann::json launch = three_reductions_launch((form == 0 ? split : split_sums)->source);
    launch["split_reduction"] = {{"partials", 5}, {"dtype", "torch.float32"}};
    const propose::Match m{
        "split", {{"kind", "segment"}, {"launches", nlohmann::json::array({launch})}}, "test"};
    for (std::size_t k = 0; k < settings.size(); ++k) {
      names.push_back(fmt::format("split_{}_{}", form == 0 ? "welford" : "sums", k));
      std::ofstream(dir / (names.back() + ".py")) << propose::source_of(m, 0, settings[k]);
    }
  }
  // Sixteen chunks of 64 where 64 were asked (the last ones would be empty), one where 1 was.
  const std::string many = read(dir / "split_welford_3.py");
  EXPECT_NE(many.find("[(triton.cdiv(6, 8), 16, 1)]"), std::string::npos) << many;
  EXPECT_NE(many.find("SPLIT_BLOCK=16"), std::string::npos) << many;
  EXPECT_NE(read(dir / "split_welford_2.py").find("[(triton.cdiv(6, 8), 1, 1)]"),
            std::string::npos);
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
names = json.loads(sys.argv[2])
torch.manual_seed(0)
x = torch.randn(6, 1000) * 3 + 50
x[3, 17] = float("nan")
x[4, 987] = float("inf")
x[5] = float("-inf")
w = torch.rand(6) + 0.5
def outputs():
    return {k: torch.full((6,), 7.0) for k in ("sum", "max", "mean", "var")}
want = outputs()
load("inductor").run({"x": x, "w": w}, want)
d = x[:3].double()
assert torch.allclose(want["sum"][:3].double(), d.sum(1), rtol=1e-5)
assert torch.allclose(want["var"][:3].double(), d.var(1, unbiased=False) * w[:3].double(), rtol=1e-4)
for name in names:
    got = outputs()
    load(name).run({"x": x, "w": w}, got)
    for k in want:
        assert torch.equal(torch.isnan(got[k]), torch.isnan(want[k])), (name, k, got[k], want[k])
        assert torch.allclose(got[k], want[k], rtol=1e-5, atol=1e-3, equal_nan=True), (name, k, got[k], want[k])
print("ok")
)";
  expect_interpreted_ok(dir, " '" + nlohmann::json(names).dump() + "'");
  fs::remove_all(dir);
}

// Writes candidate `m` (segment `segment`, `settings`) as split.py and `script` (after
// kCheckPrelude) as check.py into a fresh folder, and runs the check under the interpreter.
void expect_candidate_checks(const std::string& folder,
                             const propose::Match& m,
                             int segment,
                             const nlohmann::json& settings,
                             const std::string& script) {
  const fs::path dir = fs::temp_directory_path() / (folder + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "split.py") << propose::source_of(m, segment, settings);
  std::ofstream(dir / "check.py") << kCheckPrelude << script;
  expect_interpreted_ok(dir);
  fs::remove_all(dir);
}

// The real L1/35 group norm cut to 8 groups of 8 x 512 (so the interpreter runs it in seconds):
// the split strategy makes its Welford loop shifted sums and splits it; the whole segment
// (statistics, then the normalization) computes the group norm of float64 PyTorch.
TEST(Split, GroupNormSegmentSplitUnderTheInterpreter) {
  std::string text = fixture("h200_level1_35_GroupNorm__graph_0.py");
  replace_all(text, "    xnumel = 896\n", "    xnumel = 8\n");
  replace_all(text, "2097152", "4096");
  replace_all(text, "1879048192", "32768");
  replace_all(text, "262144", "512");
  replace_all(text, "buf1, 896, 4096, stream", "buf1, 8, 4096, stream");
  replace_all(text, "libdevice.rsqrt(", "tl.rsqrt(");  // not in Triton 3.6's interpreter
  const Captured c = parse(text);
  const auto m = propose::match_split(c.run.code, c.map, c.map.segments.at(0));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(propose::strategy_of(*m), "split");
  EXPECT_EQ(propose::proposer_of(*m), "rewrite");
  const auto& stats = m->params.at("launches")[0];
  EXPECT_TRUE(stats.at("split_reduction").at("shifted_sums").get<bool>());
  EXPECT_FALSE(m->params.at("launches")[1].contains("split_reduction"));
  // Starting settings: each with SPLIT; later rounds move SPLIT too.
  const auto start = propose::initial_settings(*m);
  ASSERT_FALSE(start.empty());
  for (const auto& s : start) {
    EXPECT_GE(s.value("k0_SPLIT", 0), 2) << s.dump();
  }
  const auto next = propose::neighbours_of(*m, start.front());
  EXPECT_TRUE(std::any_of(next.begin(), next.end(), [&](const nlohmann::json& s) {
    return s.at("k0_SPLIT") != start.front().at("k0_SPLIT");
  }));
  expect_candidate_checks("kernelopt_split_group_norm", *m, 0,
                          {{"k0_XBLOCK", 2},
                           {"k0_R0_BLOCK", 512},
                           {"k0_SPLIT", 3},
                           {"k0_num_warps", 2},
                           {"k1_XBLOCK", 512},
                           {"k1_num_warps", 4}},
                          R"(
torch.manual_seed(0)
x = torch.randn(1, 64, 512) * 2 + 100
w, b = torch.randn(64), torch.randn(64)
want = torch.nn.functional.group_norm(x.double(), 8, w.double(), b.double(), 1e-5).float()
out = torch.full((1, 64, 512), 7.0)
load("split").run({"arg2_1": x, "arg0_1": w, "arg1_1": b}, {"buf3": out})
assert torch.allclose(out, want, rtol=1e-4, atol=1e-4), (out - want).abs().max()
print("ok")
)");
}

// The real L2/17 instance norm (one looped kernel that walks each row twice: the statistics,
// then the normalized output, read channels-last and written NCHW) cut to 2 x 8 channels of 4096:
// the split makes one kernel of both walks over each chunk (under the interpreter its two phases
// as two launches), and it computes the instance norm of float64 PyTorch at several settings,
// with chunks that do and do not divide the row.
TEST(Split, TwoWalkInstanceNormUnderTheInterpreter) {
  std::string text = fixture("h200_level2_17_Conv2d_InstanceNorm_Divide_graph_0.py");
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"    xnumel = 16384\n    r0_numel = 15876\n", "    xnumel = 16\n    r0_numel = 4096\n"},
           {"(x0 % 128)", "(x0 % 8)"},
           {"128*r0_1 + 2032128*(x0 // 128)", "8*r0_1 + 32768*(x0 // 8)"},
           {"x2 = (xindex % 128)", "x2 = (xindex % 8)"},
           {"x3 = xindex // 128", "x3 = xindex // 8"},
           {"x2 + 128*r0_1 + 2032128*x3", "x2 + 8*r0_1 + 32768*x3"},
           {"15876.0", "4096.0"},
           {"r0_1 + 15876*x0", "r0_1 + 4096*x0"},
           {"buf6, 16384, 15876, stream", "buf6, 16, 4096, stream"},
           {"libdevice.rsqrt(", "tl.rsqrt("}}) {  // not in Triton 3.6's interpreter
    ASSERT_NE(text.find(from), std::string::npos) << from;
    replace_all(text, from, to);
  }
  const Captured c = parse(text);
  const auto m = propose::match_split(c.run.code, c.map, c.map.segments.at(1));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(propose::strategy_of(*m), "split");
  const auto& launch = m->params.at("launches")[0];
  EXPECT_TRUE(launch.at("split_reduction").at("walks").get<bool>());
  const std::string& source = launch.at("source").get<std::string>();
  EXPECT_EQ(count(source, "for r0_offset in tl.range(r0_start, r0_end, R0_BLOCK):"), 2U) << source;
  EXPECT_EQ(count(source, "kernelopt_row_barrier(count_ptr, x_block, SPLIT)"), 1U) << source;
  EXPECT_EQ(source.find("_split_combine"), std::string::npos);
  // The starting settings: what the resident programs hold between their walks within
  // kSplitWalkResident x kSplitWalkBytes (or one program an SM), the combine's tile within 4096.
  const auto start = propose::initial_settings(*m);
  ASSERT_FALSE(start.empty());
  for (const auto& s : start) {
    const auto xblock = s.value("k0_XBLOCK", 1L);
    const auto block = s.value("k0_R0_BLOCK", 1L);
    const auto split = s.value("k0_SPLIT", 0L);
    const auto resident = s.value("k0_RESIDENT", 0L);
    ASSERT_GE(split, 2) << s.dump();
    const auto chunk = ((4096 + split - 1) / split + block - 1) / block * block;
    EXPECT_LE(xblock * split, 4096) << s.dump();
    EXPECT_GE(resident, 1) << s.dump();
    EXPECT_TRUE(resident == 1 || resident * 4 * xblock * chunk <=
                                     propose::kSplitWalkResident * propose::kSplitWalkBytes)
        << s.dump();
  }
  const std::string check = R"(
torch.manual_seed(0)
n, c, s = 2, 8, 4096
x = torch.randn(n, s, c) * 2 + 30  # channels-last: [n, spatial, channel] in memory
b = torch.rand(c)
v = (x + b).permute(0, 2, 1).double()
want = (v - v.mean(-1, keepdim=True)) / torch.sqrt(v.var(-1, unbiased=False, keepdim=True) + 1e-5) * 0.5
out = torch.full((n * c * s,), 7.0)
load("split").run({"buf2": x.reshape(-1), "arg1_1": b}, {"buf6": out})
assert torch.allclose(out.view(n, c, s).double(), want, rtol=1e-4, atol=1e-4), (out.view(n, c, s) - want).abs().max()
print("ok")
)";
  for (const auto& settings : std::vector<nlohmann::json>{
           {{"k0_XBLOCK", 1}, {"k0_R0_BLOCK", 512}, {"k0_SPLIT", 3}, {"k0_num_warps", 2}},
           {{"k0_XBLOCK", 4}, {"k0_R0_BLOCK", 256}, {"k0_SPLIT", 8}, {"k0_num_warps", 4}},
           {{"k0_XBLOCK", 16}, {"k0_R0_BLOCK", 1024}, {"k0_SPLIT", 2}, {"k0_num_warps", 4}}}) {
    expect_candidate_checks("kernelopt_split_walks", *m, 1, settings, check);
  }
}

// L2/85 cut to 2 x 64 channels of 32 x 32 (16 groups of 4 x 1024: rows long enough to split),
// the capture's text.
std::string l2_85_cut() {
  std::string text = fixture("h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py");
  std::vector<std::pair<std::string, std::string>> cuts = {
      {"    xnumel = 2048\n    r0_numel = 63504\n", "    xnumel = 32\n    r0_numel = 4096\n"},
      {"64*r0_3 + 1016064*x1", "64*r0_3 + 65536*x1"},
      {"    xnumel = 130056192\n", "    xnumel = 131072\n"},
      {"x2 = xindex // 1016064", "x2 = xindex // 65536"},
      {"63504.0", "4096.0"},
      {"    ynumel = 8192\n    xnumel = 961\n", "    ynumel = 128\n    xnumel = 64\n"},
      {"x2 = (xindex % 31)", "x2 = (xindex % 8)"},
      {"x3 = xindex // 31", "x3 = xindex // 8"},
      {"256*x2 + 32256*x3 + 1016064*y1", "256*x2 + 8192*x3 + 65536*y1"},
      {"x4 + 961*y5", "x4 + 64*y5"},
      {"buf3, buf4, 2048, 63504, stream", "buf3, buf4, 32, 4096, stream"},
      {"arg5_1, 130056192, stream", "arg5_1, 131072, stream"},
      {"buf6, buf8, 8192, 961, stream", "buf6, buf8, 128, 64, stream"},
      {"((128, 16, 1, 1), (16, 1, 2048, 2048)", "((2, 16, 1, 1), (16, 1, 32, 32)"},
      {"((128, 64, 31, 31), (61504, 961, 31, 1)", "((2, 64, 8, 8), (4096, 64, 8, 1)"},
      {"(128, 64, 126, 126), (1016064, 1, 8064, 64)", "(2, 64, 32, 32), (65536, 1, 2048, 64)"},
      {"libdevice.rsqrt(", "tl.rsqrt("}};
  // The pool's window rows: 8064 (a row of 126 positions of 64 channels) becomes 2048.
  for (const int row : {1, 2, 3}) {
    for (const int col : {0, 1, 2, 3}) {
      cuts.emplace_back(fmt::format("({} + y0", row * 8064 + col * 64),
                        fmt::format("({} + y0", row * 2048 + col * 64));
    }
  }
  for (const auto& [from, to] : cuts) {
    EXPECT_NE(text.find(from), std::string::npos) << from;
    replace_all(text, from, to);
  }
  return text;
}

// check.py's body for a candidate of the cut L2/85's segment 1 (as split.py): the convolution's
// bias, group norm, scale, pool and clamp of float64 PyTorch, and the convolution's output left
// as it was.
constexpr const char* kCutL285Check = R"(
torch.manual_seed(0)
conv = torch.randn(131072) * 2 + 0.5          # the convolution's output, channels last
bias, weight, shift, scale = torch.randn(64), torch.randn(64), torch.randn(64), torch.rand(64) + 0.5
inputs = {"buf2": conv.clone(), "arg1_1": bias, "arg3_1": weight, "arg4_1": shift, "arg5_1": scale}
outputs = {"buf8": torch.full((8192,), 7.0)}
load("split").run(inputs, outputs)
x = torch.as_strided(conv, (2, 64, 32, 32), (65536, 1, 2048, 64)).double() + bias.double()[None, :, None, None]
y = F.group_norm(x, 16, weight.double(), shift.double(), 1e-5) * scale.double()[None, :, None, None]
want = F.max_pool2d(y, 4, 4).clamp(0, 1).reshape(-1)
got = outputs["buf8"].double()
assert torch.equal(inputs["buf2"], conv), "the convolution's output was written"
assert torch.allclose(got, want, rtol=1e-4, atol=1e-4), (got - want).abs().max()
print("ok")
)";

// The cut L2/85,
// its statistics split on top of the fuse rewrite (the group norm computed inside the max pool):
// the whole segment computes the convolution's bias, group norm, scale, pool and clamp of float64
// PyTorch under the interpreter, and leaves the convolution's output as it was.
TEST(Split, OnTopOfFuseComputesTheModelUnderTheInterpreter) {
  const Captured c = parse(l2_85_cut());
  const auto m = propose::match_split(c.run.code, c.map, c.map.segments.at(1));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->params.at("split_on"), "fuse");
  const auto& launches = m->params.at("launches");
  ASSERT_EQ(launches.size(), 2U);  // the statistics, split; the pool with the norm inside
  EXPECT_TRUE(launches[0].contains("split_reduction"));
  EXPECT_TRUE(launches[1].value("fused", false)) << launches[1].dump();
  expect_candidate_checks("kernelopt_split_fuse", *m, 1,
                          {{"k0_XBLOCK", 8},
                           {"k0_R0_BLOCK", 256},
                           {"k0_SPLIT", 4},
                           {"k0_num_warps", 2},
                           {"k1_XBLOCK", 16},
                           {"k1_YBLOCK", 32},
                           {"k1_num_warps", 2}},
                          kCutL285Check);
}

// Where the split does not apply, nothing is split: an arg-reduction, a second walk, a store of
// the lanes, an epilogue that uses the loop's values, integer accumulators, another constexpr.
TEST(Split, NotWhereItDoesNotApply) {
  const std::string base = kThreeReductions;
  const auto changed = [&](const std::string& from, const std::string& to) {
    std::string text = base;
    replace_all(text, from, to);
    EXPECT_NE(text, base) << from;
    return propose::split_reduction_source(text).has_value();
  };
  EXPECT_FALSE(changed("    tmp4 = triton_helpers.max2(_tmp4, 1)[:, None]\n",
                       "    tmp4_val, tmp4 = triton_helpers.max_with_index(_tmp4, _tmp4, 1)\n"));
  EXPECT_FALSE(changed("    tl.store(out_ptr0 + (x0), tmp2, xmask)\n",
                       "    tl.store(out_ptr0 + (x0), tmp2, xmask)\n"
                       "    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):\n"
                       "        pass\n"));
  EXPECT_FALSE(changed("    tl.store(out_ptr0 + (x0), tmp2, xmask)\n",
                       "    tl.store(out_ptr0 + (x0), tl.sum(_tmp2, 1)[:, None], xmask)\n"));
  EXPECT_FALSE(changed("    tmp12 = tl.full([1, 1], 1000.0, tl.float32)\n",
                       "    tmp12 = tl.sum(tmp1, 1)[:, None]\n"));
  EXPECT_FALSE(changed("_tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)",
                       "_tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.int64)"));
  EXPECT_FALSE(
      changed("R0_BLOCK : tl.constexpr):", "R0_BLOCK : tl.constexpr, OTHER : tl.constexpr):"));
  // A one-launch pointwise segment, and the L1/95 cross-entropy (an online softmax): none.
  const Captured relu = parse(fixture("h200_level1_19_ReLU_graph_0.py"));
  EXPECT_FALSE(propose::match_split(relu.run.code, relu.map, relu.map.segments.at(0)).has_value());
  const Captured ce = parse(fixture("h200_level1_95_CrossEntropyLoss_graph_0.py"));
  for (const auto& segment : ce.map.segments) {
    EXPECT_FALSE(propose::match_split(ce.run.code, ce.map, segment).has_value());
  }
}

// ---- retile: a reduction over a channels-last tensor read in memory order ----

// A kernel in Inductor's form over a channels-last [2, 250, 12] tensor: rows x = n * 3 + g of 250 x
// 4 elements r = s * 4 + j (channel 4 g + j), a sum, a max and a Welford mean and M2, and an
// epilogue that loads a per-row weight. 12 channels: the tile's 16 lanes, 4 of them padding.
constexpr const char* kChannelsLastThree = R"(import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math

@triton.jit
def triton_red_fused_cl_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 6
    r0_numel = 1000
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 3)
    x1 = xindex // 3
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp4 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    tmp6_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp6_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp6_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x4 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = (r0_index % 4)
        r0_3 = r0_index // 4
        tmp0 = tl.load(in_ptr0 + (r0_2 + 4*x0 + 12*r0_3 + 3000*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
        tmp5 = triton_helpers.maximum(_tmp4, tmp1)
        _tmp4 = tl.where(r0_mask & xmask, tmp5, _tmp4)
        tmp6_mean_next, tmp6_m2_next, tmp6_weight_next = triton_helpers.welford_reduce(
            tmp1, tmp6_mean, tmp6_m2, tmp6_weight, roffset == 0
        )
        tmp6_mean = tl.where(r0_mask & xmask, tmp6_mean_next, tmp6_mean)
        tmp6_m2 = tl.where(r0_mask & xmask, tmp6_m2_next, tmp6_m2)
        tmp6_weight = tl.where(r0_mask & xmask, tmp6_weight_next, tmp6_weight)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tmp4 = triton_helpers.max2(_tmp4, 1)[:, None]
    tmp7, tmp8, tmp9 = triton_helpers.welford(tmp6_mean, tmp6_m2, tmp6_weight, 1)
    tmp6 = tmp7[:, None]
    tmp10 = tmp8[:, None]
    tmp11 = tl.load(in_ptr1 + (x4), xmask, eviction_policy='evict_last')
    tmp12 = tl.full([1, 1], 1000.0, tl.float32)
    tmp13 = (tmp10 / tmp12) * tmp11
    tl.store(out_ptr0 + (x4), tmp2, xmask)
    tl.store(out_ptr1 + (x4), tmp4, xmask)
    tl.store(out_ptr2 + (x4), tmp6, xmask)
    tl.store(out_ptr3 + (x4), tmp13, xmask)
)";

// Retiled, with and without shifted sums, at tiles of 1 to 16 spatial rows and chunks that do
// and do not divide the 250 rows, the candidates compute what Inductor's kernel does under Triton's
// interpreter: on ordinary rows, and on rows with a NaN, with a +inf, and of all -inf (the same
// values and the same NaNs).
TEST(Retile, ChannelsLastReductionsComputeWhatInductorsKernelDoesUnderTheInterpreter) {
  // Groups of 4 channels (a power of two: the partial kernel combines a group's channels, one
  // partial a chunk) and of 3 (one partial a chunk and channel): [2, 250, 12] and [2, 250, 9].
  std::string three = kChannelsLastThree;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"r0_numel = 1000", "r0_numel = 750"},
           {"% 4)", "% 3)"},
           {"r0_index // 4", "r0_index // 3"},
           {"4*x0 + 12*r0_3 + 3000*x1", "3*x0 + 9*r0_3 + 2250*x1"},
           {"1000.0", "750.0"}}) {
    ASSERT_NE(three.find(from), std::string::npos) << from;
    replace_all(three, from, to);
  }
  const fs::path dir = fs::temp_directory_path() / ("kernelopt_retile_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::string> names;
  for (const int cg : {4, 3}) {
    const std::string kernel = cg == 4 ? kChannelsLastThree : three;
    const auto tile = propose::retile_reduction_source(kernel);
    ASSERT_TRUE(tile.has_value()) << cg;
    EXPECT_EQ(tile->groups, 3);
    EXPECT_EQ(tile->channels, 3 * cg);
    EXPECT_EQ(tile->samples, 2);
    EXPECT_EQ(tile->spatial, 250);
    EXPECT_EQ(tile->per_chunk, cg == 4 ? 1 : 3);
    EXPECT_EQ(tile->split.partials, 5);
    const std::string& text = tile->split.source;
    EXPECT_NE(text.find(fmt::format("xindex = tile_n * 3 + tile_c // {}", cg)), std::string::npos)
        << text;
    EXPECT_NE(text.find(fmt::format("r0_index = tile_sc * {0} + tile_c % {0}", cg)),
              std::string::npos);
    // The channel within the group plus the group's first channel, written as the channel.
    EXPECT_NE(
        text.find(fmt::format("tl.load(in_ptr0 + (tile_c + {}*r0_3 + {}*x1)", 3 * cg, 750 * cg)),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("tile_c = tl.minimum(tl.arange(0, CB), "), std::string::npos);  // padded
    if (cg == 4) {
      EXPECT_NE(text.find("tmp2_c = tl.sum(_tmp2, 0)"), std::string::npos) << text;
      EXPECT_NE(text.find("tmp2 = tl.sum(tl.reshape(tmp2_c, [CB // 4, 4]), 1)"), std::string::npos);
    } else {
      EXPECT_NE(text.find("tmp7, tmp8, tmp9 = triton_helpers.welford(tmp6_mean, tmp6_m2, "
                          "tmp6_weight, 0)"),
                std::string::npos)
          << text;
    }
    EXPECT_NE(text.find("tl.load(part_ptr0 + (xindex * n_split + split_index)"), std::string::npos);
    EXPECT_EQ(count(text, "tl.load(in_ptr1 + (x4)"), 1U);  // the epilogue: the combine's alone
    EXPECT_GT(text.find("tl.load(in_ptr1 + (x4)"), text.find("_split_combine("));
    const auto sums = propose::shifted_sums_source(kernel);
    ASSERT_TRUE(sums.has_value());
    const auto tile_sums = propose::retile_reduction_source(sums->source);
    ASSERT_TRUE(tile_sums.has_value());

    nlohmann::json base = three_reductions_launch(kernel);
    base["kernel"] = "triton_red_fused_cl_0";
    base["numels"]["r0_numel"] = 250 * cg;
    base["args"][7]["literal"] = 250 * cg;
    std::ofstream(dir / fmt::format("inductor_{}.py", cg))
        << propose::source_of(propose::Match{"config", base, ""}, 0,
                              {{"XBLOCK", 2}, {"R0_BLOCK", 256}, {"num_warps", 2}});
    const std::vector<nlohmann::json> settings = {
        {{"k0_SB", 16}, {"k0_CHUNK", 100}, {"k0_num_warps", 2}},
        {{"k0_SB", 1}, {"k0_CHUNK", 16}, {"k0_num_warps", 1}},
        {{"k0_SB", 8}, {"k0_CHUNK", 256}, {"k0_num_warps", 4}},
        {{"k0_SB", 4}, {"k0_CHUNK", 37}, {"k0_num_warps", 2}}};
    for (std::size_t form = 0; form < 2; ++form) {
      nlohmann::json launch = base;
      const auto& t = form == 0 ? *tile : *tile_sums;
      launch["source"] = t.split.source;
      launch["split_reduction"] = {{"partials", t.split.partials},
                                   {"dtype", t.split.dtype},
                                   {"retile",
                                    {{"groups", 3},
                                     {"channels", 3 * cg},
                                     {"samples", 2},
                                     {"spatial", 250},
                                     {"per_chunk", t.per_chunk},
                                     {"channel_block", 16}}}};
      const propose::Match m{
          "retile", {{"kind", "segment"}, {"launches", nlohmann::json::array({launch})}}, "test"};
      for (std::size_t k = 0; k < settings.size(); ++k) {
        EXPECT_TRUE(propose::retile_fits(
            launch, {{"SB", settings[k].at("k0_SB")}, {"CHUNK", settings[k].at("k0_CHUNK")}}));
        names.push_back(fmt::format("retile_{}_{}_{}", cg, form == 0 ? "welford" : "sums", k));
        std::ofstream(dir / (names.back() + ".py")) << propose::source_of(m, 0, settings[k]);
      }
    }
  }
  // 3 chunks of 100 rows: 3 partials a row (groups of 4), 9 (groups of 3); 250 / 37: 7 chunks.
  const std::string first = read(dir / "retile_4_welford_0.py");
  EXPECT_NE(first.find("_retile_partial[(6, 1, 1)]"), std::string::npos) << first;
  EXPECT_NE(first.find("SPLIT_BLOCK=4"), std::string::npos) << first;
  EXPECT_NE(read(dir / "retile_3_welford_0.py").find("SPLIT_BLOCK=16"), std::string::npos);
  EXPECT_NE(read(dir / "retile_4_welford_3.py").find("_retile_partial[(14, 1, 1)]"),
            std::string::npos);
  std::ofstream(dir / "check.py") << kCheckPrelude << R"(
names = json.loads(sys.argv[2])
for cg in (4, 3):
    torch.manual_seed(cg)
    x = torch.randn(2, 250, 3 * cg) * 3 + 50        # channels last: row (n, g) is x[n, :, g cg:(g + 1) cg]
    x[1, 17, 2] = float("nan")                      # row 3
    x[1, 200, cg + 1] = float("inf")                # row 4
    x[1, :, 2 * cg:] = float("-inf")                # row 5
    x = x.reshape(-1)
    w = torch.rand(6) + 0.5
    def outputs():
        return {k: torch.full((6,), 7.0) for k in ("sum", "max", "mean", "var")}
    want = outputs()
    load(f"inductor_{cg}").run({"x": x, "w": w}, want)
    rows = x.reshape(2, 250, 3, cg).permute(0, 2, 1, 3).reshape(6, 250 * cg).double()
    assert torch.allclose(want["sum"][:3].double(), rows[:3].sum(1), rtol=1e-5)
    assert torch.allclose(want["var"][:3].double(), rows[:3].var(1, unbiased=False) * w[:3].double(), rtol=1e-4)
    for name in names:
        if not name.startswith(f"retile_{cg}_"):
            continue
        got = outputs()
        load(name).run({"x": x, "w": w}, got)
        for k in want:
            assert torch.equal(torch.isnan(got[k]), torch.isnan(want[k])), (name, k, got[k], want[k])
            assert torch.allclose(got[k], want[k], rtol=1e-5, atol=1e-3, equal_nan=True), (name, k, got[k], want[k])
print("ok")
)";
  expect_interpreted_ok(dir, " '" + nlohmann::json(names).dump() + "'");
  fs::remove_all(dir);
}

// The cut L2/85's statistics retiled on top of the fuse rewrite: the whole segment computes the
// model's bias, group norm, scale, pool and clamp of float64 PyTorch under the interpreter.
TEST(Retile, OnTopOfFuseComputesTheModelUnderTheInterpreter) {
  const Captured c = parse(l2_85_cut());
  const auto m = propose::match_retile(c.run.code, c.map, c.map.segments.at(1));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(propose::strategy_of(*m), "retile");
  EXPECT_EQ(propose::proposer_of(*m), "rewrite");
  EXPECT_EQ(m->params.at("retile_on"), "fuse");
  const auto& launches = m->params.at("launches");
  ASSERT_EQ(launches.size(), 2U);
  const auto& t = launches[0].at("split_reduction").at("retile");
  EXPECT_EQ(t.at("groups"), 16);
  EXPECT_EQ(t.at("channels"), 64);
  EXPECT_EQ(t.at("samples"), 2);
  EXPECT_EQ(t.at("spatial"), 1024);
  EXPECT_TRUE(launches[0].at("split_reduction").at("shifted_sums").get<bool>());
  // Starting settings fit, and the beam moves SB and CHUNK.
  const auto start = propose::initial_settings(*m);
  ASSERT_FALSE(start.empty());
  for (const auto& s : start) {
    EXPECT_GE(s.value("k0_SB", 0), 1) << s.dump();
    EXPECT_LE(s.value("k0_SB", 0) * 64, propose::kRetileMostTile) << s.dump();
  }
  const auto next = propose::neighbours_of(*m, start.front());
  EXPECT_TRUE(std::any_of(next.begin(), next.end(), [&](const nlohmann::json& s) {
    return s.at("k0_CHUNK") != start.front().at("k0_CHUNK");
  }));
  EXPECT_TRUE(std::any_of(next.begin(), next.end(), [&](const nlohmann::json& s) {
    return s.at("k0_SB") != start.front().at("k0_SB");
  }));
  expect_candidate_checks("kernelopt_retile_fuse", *m, 1,
                          {{"k0_SB", 8},
                           {"k0_CHUNK", 200},
                           {"k0_num_warps", 2},
                           {"k1_XBLOCK", 16},
                           {"k1_YBLOCK", 32},
                           {"k1_num_warps", 2}},
                          kCutL285Check);
  // The retile on the segment's further bases, the rewrite's launches (shifted sums, not fused)
  // and config's (Inductor's own): each base's first start follows fuse's, marked with its "on";
  // its neighbours keep it, and its candidate computes the model too.
  const auto& others = m->params.at("other_bases");
  ASSERT_EQ(others.size(), 2U);
  EXPECT_EQ(others[0].at("on"), "rewrite");
  EXPECT_EQ(others[1].at("on"), "config");
  ASSERT_GE(start.size(), 3U);
  EXPECT_FALSE(start[0].contains("on"));
  EXPECT_EQ(start[1].value("on", ""), "rewrite");
  EXPECT_EQ(start[2].value("on", ""), "config");
  const auto [on_rewrite, own] = propose::on_chosen_base(*m, start[1]);
  EXPECT_EQ(on_rewrite.params.at("retile_on"), "rewrite");
  EXPECT_FALSE(on_rewrite.params.contains("other_bases"));
  EXPECT_FALSE(own.contains("on"));
  EXPECT_NE(propose::source_of(*m, 1, start[1]), propose::source_of(*m, 1, start[0]));
  const auto moved = propose::neighbours_of(*m, start[1]);
  ASSERT_FALSE(moved.empty());
  for (const auto& s : moved) {
    EXPECT_EQ(s.value("on", ""), "rewrite") << s.dump();
  }
  EXPECT_THROW(propose::on_chosen_base(*m, {{"on", "nowhere"}}), std::invalid_argument);
  nlohmann::json small = start[1];
  small["k0_SB"] = 4;
  small["k0_CHUNK"] = 300;
  // Unfused, the pool's kernel writes the normalized values over the convolution's output, as
  // Inductor's does (a buffer the segment reuses): the model's result alone is checked.
  std::string unfused = kCutL285Check;
  replace_all(unfused,
              "assert torch.equal(inputs[\"buf2\"], conv), \"the convolution's output was "
              "written\"\n",
              "");
  ASSERT_NE(unfused, kCutL285Check);
  expect_candidate_checks("kernelopt_retile_rewrite", *m, 1, small, unfused);
}

// The retile reads the captures' channels-last statistics (L2/85's and L2/19's group norms) and
// nothing where the reduction already reads its rows in order, walks them twice, or is no
// channels-last tensor's: a contiguous group norm (L1/35), an instance norm's two walks (L2/17),
// a softmax (L1/23), the kernel above with its channel stride broken.
TEST(Retile, WhereItApplies) {
  for (const char* name : {"h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py",
                           "h200_level2_19_ConvTranspose2d_GELU_GroupNorm_graph_0.py"}) {
    const Captured c = parse(fixture(name));
    const auto& segment = c.map.segments.back();
    const auto m = propose::match_retile(c.run.code, c.map, segment);
    ASSERT_TRUE(m.has_value()) << name;
    EXPECT_EQ(m->params.at("launches")[0].at("split_reduction").at("retile").at("samples"), 128);
  }
  for (const char* name : {"h200_level1_35_GroupNorm__graph_0.py",
                           "h200_level2_17_Conv2d_InstanceNorm_Divide_graph_0.py",
                           "h200_level1_23_Softmax_graph_0.py", "h200_level1_19_ReLU_graph_0.py"}) {
    const Captured c = parse(fixture(name));
    for (const auto& segment : c.map.segments) {
      EXPECT_FALSE(propose::match_retile(c.run.code, c.map, segment).has_value()) << name;
    }
  }
  std::string strided = kChannelsLastThree;
  replace_all(strided, "12*r0_3", "13*r0_3");
  EXPECT_FALSE(propose::retile_reduction_source(strided).has_value());
  std::string unmasked = kChannelsLastThree;
  replace_all(unmasked, "_tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)", "_tmp2 = tmp3");
  EXPECT_FALSE(propose::retile_reduction_source(unmasked).has_value());
}

// The retiled statistics of the real L2/85 capture, compiled for sm_90 on the CPU, load the
// convolution's output 16 bytes at a time (ld.global...v4): through Inductor's own divisions of
// xindex and r0_index Triton saw no contiguity and loaded 4 bytes (0.49-0.57x on the H200).
TEST(Retile, TheRealL285StatisticsLoadSixteenBytesAtATime) {
  const Captured c =
      parse(fixture("h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py"));
  const auto m = propose::match_retile(c.run.code, c.map, c.map.segments.at(1));
  ASSERT_TRUE(m.has_value());
  const fs::path dir =
      fs::temp_directory_path() / ("kernelopt_retile_ptx_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "partial.py") << m->params.at("launches")[0].at("source").get<std::string>();
  std::ofstream(dir / "check.py") << R"(
import importlib.util, re, sys
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
spec = importlib.util.spec_from_file_location("partial", sys.argv[1] + "/partial.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
fn = module.triton_red_fused_convolution_native_group_norm_2_retile_partial
constexprs = {"SB": 16, "CB": 64}
signature = {a: "constexpr" if a in constexprs else "*fp32" if "ptr" in a else "i32" for a in fn.arg_names}
attrs = {(i,): [["tt.divisibility", 16]] for i, a in enumerate(fn.arg_names) if "ptr" in a}
ptx = triton.compile(ASTSource(fn, signature, constexprs, attrs), target=GPUTarget("cuda", 90, 32),
                     options={"num_warps": 4}).asm["ptx"]
loads = re.findall(r"ld\.global\S*", ptx)
assert loads and all(".v4." in l for l in loads), sorted(set(loads))
print("ok")
)";
  const std::string command = python() + " " + (dir / "check.py").string() + " " + dir.string() +
                              " > " + (dir / "log.txt").string() + " 2>&1";
  const int status = std::system(command.c_str());
  const std::string said = read(dir / "log.txt");
  EXPECT_EQ(status, 0) << said;
  EXPECT_NE(said.find("ok"), std::string::npos) << said;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kernelopt
