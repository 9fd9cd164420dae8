// Lists taken in turn: each one's first element, then each one's second, ... (the beam's first
// round over its strategies' starts, and a split's or retile's starts over its bases), so that a
// budget that ends early has tried something of every list.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace kernelopt::search::detail {

template <typename T>
std::vector<T> interleaved(const std::vector<std::vector<T>>& lists) {
  std::size_t longest = 0;
  std::size_t total = 0;
  for (const auto& list : lists) {
    longest = std::max(longest, list.size());
    total += list.size();
  }
  std::vector<T> out;
  out.reserve(total);
  for (std::size_t k = 0; k < longest; ++k) {
    for (const auto& list : lists) {
      if (k < list.size()) out.push_back(list[k]);
    }
  }
  return out;
}

}  // namespace kernelopt::search::detail
