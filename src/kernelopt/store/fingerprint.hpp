// A segment's fingerprint: the name under which the cross-run cache (cache.hpp) keeps what was
// verified for a segment, so that a later run (of this model or of another one) that meets the
// same segment on the same machine and software starts from what won before.
//
// The fingerprint is the SHA-256 of canonical_text(key) in hex. Two segments get the same one
// exactly when the same kernels would run on tensors of the same layout, on the same kind of GPU,
// under the same torch, Triton and kernelopt. Names do not count: buffer names are absent, and
// each kernel's own name is replaced inside its source by its position in the segment, so the
// same fused kernel under another numbered name in another model matches.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kernelopt::store {

// One tensor a segment reads or writes, without its name.
struct TensorSpec {
  // Sizes: the kernels' index arithmetic, masks and grid follow them, and so does the best block
  // size; a replacement verified at one shape is neither proven correct nor fast at another.
  std::vector<std::int64_t> shape;
  // In elements: contiguity decides which loads coalesce or vectorise, and a rewrite may assume a
  // layout that another stride breaks.
  std::vector<std::int64_t> stride;
  // As torch prints it, "torch.float32" (a leading "torch." is ignored): precision decides what
  // passes the correctness gates, bytes per element decide memory traffic.
  std::string dtype;
};

// Everything a segment's fingerprint is made of.
struct SegmentKey {
  // The Triton module text of each kernel of the segment, in launch order, as Inductor wrote it:
  // the code that is replaced. Any change in what Inductor generated is another segment.
  std::vector<std::string> kernel_sources;
  std::vector<TensorSpec> inputs;   // in the segment's argument order
  std::vector<TensorSpec> outputs;  // in the segment's output order
  // torch.cuda.get_device_name(), e.g. "NVIDIA H100 80GB HBM3": GPUs of one architecture differ
  // in SM count, memory bandwidth and clocks, which move the fastest configuration.
  std::string gpu_name;
  // The compute capability Triton compiles for: instructions, shared memory and register limits
  // change what compiles, what fits and what is correct.
  int cc_major = 0;
  int cc_minor = 0;
  // torch.__version__: Inductor's code generation, the wrapper around the kernels and the
  // reference the gates compare with.
  std::string torch_version;
  // triton.__version__: the same source compiles to other machine code under another compiler.
  std::string triton_version;
  // This build's version: newer gates may reject what older ones accepted, so a result is re-earned
  // under each kernelopt.
  std::string kernelopt_version = KERNELOPT_VERSION;
};

// The text that is hashed, defined so that no two keys share it. It starts with the line
// "kernelopt-segment-key 1"; then every field is one line `NAME LENGTH:VALUE` with LENGTH the byte
// length of VALUE (so a VALUE may hold newlines or colons). Lists are a line `NAME COUNT:N` (N the
// number of items, as text) followed by their items. In order: "kernels" and each kernel's source
// (normalised as below) as "kernel"; "inputs" then "outputs", each tensor as "shape" (sizes joined
// by ','), "stride" (the same) and "dtype" (without "torch."); "gpu"; "cc" ("9.0"); "torch";
// "triton"; "kernelopt". A kernel's source is normalised by replacing each kernel's name (see
// kernel_name) wherever it stands as a whole identifier, in every source of the segment, by
// "<kernel I>" with I its position, and the device index in `DeviceProperties(... index=N` by 0.
std::string canonical_text(const SegmentKey& key);

// The hex SHA-256 (64 lowercase digits) of canonical_text(key).
std::string fingerprint(const SegmentKey& key);

// The name of the function `source` defines under `@triton.jit` (else its first top-level `def`);
// "" when it defines none.
std::string kernel_name(std::string_view source);

// `text` with every occurrence of the identifier `from` that is not part of a longer identifier
// ([A-Za-z0-9_]) replaced by `to`. Also renames a cached candidate's kernel to the name of the
// kernel it replaces in this run.
std::string replace_identifier(std::string_view text, std::string_view from, std::string_view to);

}  // namespace kernelopt::store
