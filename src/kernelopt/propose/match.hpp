#pragma once
// A proposer's match on a segment: which proposer, with which parameters, and why.
#include <string>

#include <nlohmann/json.hpp>

namespace kernelopt::propose {

struct Match {
  // The proposer's name (registry.hpp): a recipe ("reduce_dim", "row_two_pass", "norm_dim",
  // "cross_entropy", "scan", "pool", "gemm", "group_norm") or a transformation of Inductor's
  // kernels ("config", "rewrite", "fuse", "split", "retile").
  std::string recipe;
  // What the candidate is written from. reduce_dim: {"op": "argmax", "dim": 1}; row_two_pass:
  // {"op": "softmax", "row_bytes": 1572864 when the row length is known}; cross_entropy:
  // {"reduction": "mean", "ignore_index": -100}; scan: {"x": "arg0_1", "mask": null or "arg1_1",
  // "reverse": false, "op": "sum", "minus": false, "scale": 0.25 when the result is divided by
  // 4}; pool: {"op": "max" or "avg", ...}; norm_dim: see match_norm; the kernel transformations:
  // the launches they relaunch (config_match.cpp).
  nlohmann::json params;
  std::string why;  // one line: what matched
};

}  // namespace kernelopt::propose
