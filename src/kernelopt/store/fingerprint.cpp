#include "kernelopt/store/fingerprint.hpp"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/store/sha256.hpp"

namespace kernelopt::store {
namespace {

constexpr std::string_view kHeader = "kernelopt-segment-key 1\n";
constexpr std::string_view kDeviceIndex = "index=";

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// The identifier that starts at `pos` in `text`.
std::string_view identifier_at(std::string_view text, std::size_t pos) {
  std::size_t end = pos;
  while (end < text.size() && is_identifier_char(text[end])) {
    ++end;
  }
  return text.substr(pos, end - pos);
}

// Appends one `NAME LENGTH:VALUE` line.
void put(std::string& out, std::string_view name, std::string_view value) {
  fmt::format_to(std::back_inserter(out), "{} {}:{}\n", name, value.size(), value);
}

void put_count(std::string& out, std::string_view name, std::size_t count) {
  put(out, name, std::to_string(count));
}

void put_tensors(std::string& out, std::string_view name, const std::vector<TensorSpec>& tensors) {
  put_count(out, name, tensors.size());
  for (const TensorSpec& t : tensors) {
    put(out, "shape", fmt::format("{}", fmt::join(t.shape, ",")));
    put(out, "stride", fmt::format("{}", fmt::join(t.stride, ",")));
    std::string_view dtype = t.dtype;
    if (dtype.starts_with("torch.")) dtype.remove_prefix(6);
    put(out, "dtype", dtype);
  }
}

// `source` with the device index inside each `DeviceProperties(...)` set to 0: a model compiled
// on cuda:1 generates the same kernel as on cuda:0.
std::string zero_device_index(std::string source) {
  std::size_t pos = 0;
  while ((pos = source.find("DeviceProperties(", pos)) != std::string::npos) {
    const std::size_t close = source.find(')', pos);
    const std::size_t index = source.find(kDeviceIndex, pos);
    pos += 1;
    if (index == std::string::npos || index > close) continue;
    const std::size_t digits = index + kDeviceIndex.size();
    std::size_t end = digits;
    while (end < source.size() && std::isdigit(static_cast<unsigned char>(source[end])) != 0) {
      ++end;
    }
    if (end > digits) source.replace(digits, end - digits, "0");
  }
  return source;
}

// Every kernel's source with the segment's kernel names replaced by their positions.
std::vector<std::string> normalised_sources(const std::vector<std::string>& sources) {
  std::vector<std::string> names;
  names.reserve(sources.size());
  for (const std::string& source : sources) {
    names.push_back(kernel_name(source));
  }
  std::vector<std::string> out;
  out.reserve(sources.size());
  for (const std::string& source : sources) {
    std::string text = source;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!names[i].empty()) {
        text = replace_identifier(text, names[i], fmt::format("<kernel {}>", i));
      }
    }
    out.push_back(zero_device_index(std::move(text)));
  }
  return out;
}

}  // namespace

std::string kernel_name(std::string_view source) {
  const std::size_t jit = source.find("@triton.jit");
  const std::string_view rest = source.substr(jit == std::string_view::npos ? 0 : jit);
  const std::size_t def = rest.starts_with("def ") ? 0 : rest.find("\ndef ");
  if (def == std::string_view::npos) return {};
  const std::size_t name = rest.find_first_not_of(' ', rest.find("def ", def) + 4);
  if (name == std::string_view::npos) return {};
  return std::string(identifier_at(rest, name));
}

std::string replace_identifier(std::string_view text, std::string_view from, std::string_view to) {
  std::string out;
  out.reserve(text.size());
  std::size_t done = 0;
  std::size_t pos = 0;
  while (!from.empty() && (pos = text.find(from, pos)) != std::string_view::npos) {
    const std::size_t end = pos + from.size();
    const bool starts = pos == 0 || !is_identifier_char(text[pos - 1]);
    const bool ends = end == text.size() || !is_identifier_char(text[end]);
    if (starts && ends) {
      out.append(text.substr(done, pos - done)).append(to);
      done = end;
    }
    pos = end;
  }
  out.append(text.substr(done));
  return out;
}

std::string canonical_text(const SegmentKey& key) {
  std::string out(kHeader);
  const std::vector<std::string> sources = normalised_sources(key.kernel_sources);
  put_count(out, "kernels", sources.size());
  for (const std::string& source : sources) {
    put(out, "kernel", source);
  }
  put_tensors(out, "inputs", key.inputs);
  put_tensors(out, "outputs", key.outputs);
  put(out, "gpu", key.gpu_name);
  put(out, "cc", fmt::format("{}.{}", key.cc_major, key.cc_minor));
  put(out, "torch", key.torch_version);
  put(out, "triton", key.triton_version);
  put(out, "kernelopt", key.kernelopt_version);
  return out;
}

std::string fingerprint(const SegmentKey& key) {
  return detail::sha256_hex(canonical_text(key));
}

}  // namespace kernelopt::store
