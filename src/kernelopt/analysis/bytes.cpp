#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernelopt/analysis/dispatch.hpp"

namespace kernelopt::analysis {

namespace {

std::optional<std::int64_t> parse_int(const std::string& text) {
  std::int64_t value = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  while (begin < end && *begin == ' ') {
    ++begin;
  }
  while (end > begin && end[-1] == ' ') {
    --end;
  }
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

int dtype_size(const std::string& dtype) {
  static const std::map<std::string, int> sizes = {
      {"float64", 8},   {"double", 8},        {"int64", 8},       {"long", 8},
      {"complex64", 8}, {"float32", 4},       {"float", 4},       {"int32", 4},
      {"int", 4},       {"float16", 2},       {"half", 2},        {"bfloat16", 2},
      {"int16", 2},     {"uint16", 2},        {"int8", 1},        {"uint8", 1},
      {"bool", 1},      {"float8_e4m3fn", 1}, {"float8_e5m2", 1}, {"complex128", 16}};
  std::string name = dtype;
  if (name.rfind("torch.", 0) == 0) name = name.substr(6);
  auto it = sizes.find(name);
  return it == sizes.end() ? 0 : it->second;
}

std::optional<std::int64_t> storage_bytes(const std::vector<std::string>& shape,
                                          const std::vector<std::string>& stride,
                                          const std::string& dtype) {
  const int item = dtype_size(dtype);
  if (item == 0 || shape.size() != stride.size()) return std::nullopt;
  std::int64_t extent = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    auto size = parse_int(shape[i]);
    auto step = parse_int(stride[i]);
    if (!size || !step) return std::nullopt;
    if (*size == 0) return 0;
    extent += (*size - 1) * *step;
  }
  return extent * item;
}

}  // namespace kernelopt::analysis
