#pragma once
// What the proposers of Inductor's own kernels share (config, rewrite, fuse, split, retile):
// their settings are launch settings of Inductor's kernels (XBLOCK, R0_BLOCK, num_warps, ...),
// moved by the generic rule; a whole segment's launches move per launch (fuse_neighbours); a
// split or retile built on another strategy's launches moves as that base does.
#include <memory>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/propose/proposer.hpp"

namespace kernelopt::propose {

class KernelProposer : public Proposer {
 public:
  [[nodiscard]] KnobSpace knobs(const Match& match, const nlohmann::json& settings) const override;
  [[nodiscard]] std::vector<nlohmann::json> neighbours(
      const Match& match, const nlohmann::json& settings) const override;
  [[nodiscard]] bool fits(const Match& match, const nlohmann::json& settings) const override;
};

}  // namespace kernelopt::propose
