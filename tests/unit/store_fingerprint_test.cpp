// Segment fingerprints: SHA-256 against the standard's vectors, the canonical text, and which
// changes of a segment change its fingerprint (every field) and which do not (kernel names).
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "kernelopt/store/fingerprint.hpp"
#include "kernelopt/store/sha256.hpp"

namespace kernelopt::store {
namespace {

// An Inductor pointwise kernel as the output code holds it, under the name `name`, applying
// triton_helpers.`op` on `device`.
std::string pointwise_kernel(const std::string& name, const std::string& op, int device = 0) {
  return fmt::format(R"PY(
import triton
import triton.language as tl

@triton_heuristics.pointwise(
    size_hints={{'x': 32768}},
    filename=__file__,
    triton_meta={{'signature': {{'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32'}}, 'device': DeviceProperties(type='cuda', index={2}, multi_processor_count=132, cc=90)}},
    inductor_meta={{'kernel_name': '{0}', 'backend_hash': '24393E16EE255EA1', 'num_load': 1}},
)
@triton.jit
def {0}(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    x0 = xoffset + tl.arange(0, XBLOCK)[:]
    tmp0 = tl.load(in_ptr0 + (x0), None)
    tl.store(out_ptr0 + (x0), triton_helpers.{1}(0, tmp0), None)
)PY",
                     name, op, device);
}

SegmentKey sample_key() {
  SegmentKey key;
  key.kernel_sources = {pointwise_kernel("triton_poi_fused_relu_0", "maximum"),
                        pointwise_kernel("triton_poi_fused_clamp_1", "minimum")};
  key.inputs = {{{16, 2048}, {2048, 1}, "torch.float32"}};
  key.outputs = {{{16, 2048}, {2048, 1}, "torch.float32"}, {{16}, {1}, "torch.int64"}};
  key.gpu_name = "NVIDIA H100 80GB HBM3";
  key.cc_major = 9;
  key.cc_minor = 0;
  key.torch_version = "2.9.0+cu128";
  key.triton_version = "3.5.0";
  key.kernelopt_version = "0.4.0";
  return key;
}

TEST(Sha256, MatchesTheStandardVectors) {
  EXPECT_EQ(detail::sha256_hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(detail::sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(detail::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(detail::sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // 55, 56 and 64 bytes: the padding fits one block, needs a second, starts a new one.
  EXPECT_EQ(detail::sha256_hex(std::string(55, 'a')),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(detail::sha256_hex(std::string(56, 'a')),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(detail::sha256_hex(std::string(64, 'a')),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(Fingerprint, IsStableAndFollowsTheCanonicalText) {
  const SegmentKey key = sample_key();
  EXPECT_EQ(fingerprint(key), fingerprint(sample_key()));
  EXPECT_EQ(fingerprint(key).size(), 64U);
  EXPECT_EQ(fingerprint(key), detail::sha256_hex(canonical_text(key)));

  const std::string text = canonical_text(key);
  EXPECT_TRUE(text.starts_with("kernelopt-segment-key 1\nkernels 1:2\nkernel ")) << text;
  EXPECT_NE(text.find("inputs 1:1\nshape 7:16,2048\nstride 6:2048,1\ndtype 7:float32\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("outputs 1:2\n"), std::string::npos);
  EXPECT_TRUE(
      text.ends_with("gpu 21:NVIDIA H100 80GB HBM3\ncc 3:9.0\ntorch 11:2.9.0+cu128\n"
                     "triton 5:3.5.0\nkernelopt 5:0.4.0\n"))
      << text;
  EXPECT_EQ(text.find("triton_poi_fused"), std::string::npos) << "a kernel name was kept";
  EXPECT_NE(text.find("def <kernel 1>(in_ptr0"), std::string::npos);
  EXPECT_NE(text.find("'kernel_name': '<kernel 0>'"), std::string::npos);
}

TEST(Fingerprint, ChangesWithEveryField) {
  const std::string base = fingerprint(sample_key());
  const std::vector<std::function<void(SegmentKey&)>> changes = {
      [](SegmentKey& k) { k.kernel_sources[1] += "# one more line\n"; },
      [](SegmentKey& k) { k.kernel_sources.pop_back(); },
      [](SegmentKey& k) { std::swap(k.kernel_sources[0], k.kernel_sources[1]); },
      [](SegmentKey& k) {
        k.inputs[0].shape = {32, 1024};
      },
      [](SegmentKey& k) {
        k.inputs[0].stride = {1, 16};
      },
      [](SegmentKey& k) { k.inputs[0].dtype = "torch.bfloat16"; },
      [](SegmentKey& k) { k.outputs[1].dtype = "torch.int32"; },
      [](SegmentKey& k) { k.inputs.push_back(k.outputs[1]); },
      [](SegmentKey& k) {
        k.inputs.push_back(k.outputs.back());
        k.outputs.pop_back();
      },
      [](SegmentKey& k) { k.gpu_name = "NVIDIA H200"; },
      [](SegmentKey& k) { k.cc_major = 10; },
      [](SegmentKey& k) { k.cc_minor = 9; },
      [](SegmentKey& k) { k.torch_version = "2.10.0"; },
      [](SegmentKey& k) { k.triton_version = "3.6.0"; },
      [](SegmentKey& k) { k.kernelopt_version = "0.5.0"; },
  };
  for (std::size_t i = 0; i < changes.size(); ++i) {
    SegmentKey key = sample_key();
    changes[i](key);
    EXPECT_NE(fingerprint(key), base) << "change " << i << " kept the fingerprint";
  }
}

TEST(Fingerprint, IgnoresKernelNamesTheDeviceIndexAndTheTorchPrefix) {
  const std::string base = fingerprint(sample_key());
  SegmentKey renamed = sample_key();
  renamed.kernel_sources = {pointwise_kernel("triton_poi_fused_relu_view_7", "maximum"),
                            pointwise_kernel("triton_poi_fused_clamp_12", "minimum", 1)};
  renamed.inputs[0].dtype = "float32";
  EXPECT_EQ(fingerprint(renamed), base);
}

TEST(Fingerprint, FindsAndReplacesKernelNamesAsWholeIdentifiers) {
  EXPECT_EQ(kernel_name(pointwise_kernel("triton_red_fused_sum_3", "maximum")),
            "triton_red_fused_sum_3");
  EXPECT_EQ(kernel_name("def helper(x):\n    return x\n"), "helper");
  EXPECT_EQ(kernel_name("x = 1\n"), "");
  EXPECT_EQ(replace_identifier("k_1(k_10, k_1); 'k_1' xk_1", "k_1", "K"), "K(k_10, K); 'K' xk_1");
  EXPECT_EQ(replace_identifier("abc", "", "K"), "abc");
}

}  // namespace
}  // namespace kernelopt::store
