// Tidying of a kernel body that a rewrite has pasted code into (fuse.cpp inlines a producer at
// each load of its output). Each pasted copy repeats the producer's index arithmetic at another
// address, and its loads of per-channel parameters and statistics take the whole tile: a 4 x 4
// max pool over a group norm's output did 96 such loads and 16 rsqrt an element. Three passes
// over the straight-line statements take that back to what one copy costs:
// - index simplification: `(64 + y0 + 256*x2 + 1016064*y1) % 64` is `y0` when y0 < 64, and
//   `// 1016064` is `y1` when the rest stays below 1016064, from the ranges the kernel's own
//   index definitions give (`y0 = (yindex % 64)`, `x3 = xindex // 31` with xnumel 961);
// - mask narrowing: a pasted load whose address depends only on the y index loads [YBLOCK, 1]
//   under the y part of its mask instead of the whole tile (every program has a valid x lane, so
//   it reads only addresses that a lane of the original load read);
// - common statements merged: a pasted statement whose right side (in the names kept so far)
//   is one already computed in the same block is dropped and its name replaced by the first.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace kernelopt::propose::detail {

// `line` with every identifier outside quotes that is not an attribute (`tl.load` keeps `load`)
// replaced by `visit(identifier)`; numbers (1e-05 too) are kept whole.
std::string map_identifiers(const std::string& line,
                            const std::function<std::string(const std::string&)>& visit);

struct Tidied {
  std::vector<std::string> body;  // the lines kept, renamed
  int simplified = 0;             // pasted index definitions simplified
  int narrowed = 0;               // pasted loads narrowed to the dimensions of their address
  int merged = 0;                 // pasted statements dropped as repeats of an earlier one
  int pasted_kept = 0;            // pasted statements left
};

// The three passes over `body` (a kernel's indented body lines); `pasted[i]` says which lines a
// rewrite inserted: only those are simplified, narrowed or dropped, while every line's
// statements are known and renamed. `pasted` has the size of `body`.
Tidied tidy_pasted(const std::vector<std::string>& body, const std::vector<bool>& pasted);

}  // namespace kernelopt::propose::detail
