#include "kernelopt/propose/kernel/kernel_proposer.hpp"

#include <algorithm>

#include "kernelopt/propose/registry.hpp"
#include "kernelopt/propose/transform/config.hpp"
#include "kernelopt/propose/transform/fuse.hpp"
#include "kernelopt/propose/transform/on_base.hpp"

namespace kernelopt::propose {

KnobSpace KernelProposer::knobs(const Match& match, const nlohmann::json& /*settings*/) const {
  KnobSpace space{{{"XBLOCK", 1, 4096},
                   {"YBLOCK", 1, 1024},
                   {"R0_BLOCK", 16, 8192},
                   {"num_warps", 1, 32},
                   {"num_stages", 1, 4},
                   {"SPLIT", 2, 256},         // a split launch's chunks a row
                   {"RESIDENT", 1, 8},        // a two-walk split's programs per SM
                   {"SB", 1, 1024},           // a retile's tile
                   {"CHUNK", 16, 1L << 24}},  // and chunk
                  {"XBLOCK", "YBLOCK", "R0_BLOCK"},
                  16384};
  if (match.params.contains("fixed")) {  // a persistent reduction's whole row per program
    space.max_elements =
        std::max<long>(1, space.max_elements / match.params.at("fixed").value("R0_BLOCK", 1L));
  }
  return space;
}

std::vector<nlohmann::json> KernelProposer::neighbours(const Match& match,
                                                       const nlohmann::json& settings) const {
  if (settings.contains("on")) {  // a split's or retile's further base: that base's neighbours
    const auto [on_base, own] = on_chosen_base(match, settings);
    std::vector<nlohmann::json> out = neighbours_of(on_base, own);
    for (auto& s : out) {
      s["on"] = settings.at("on");
    }
    return out;
  }
  if (match.recipe == "fuse" || match.params.contains("launches")) {
    return fuse_neighbours(match, settings);  // per launch of a whole segment
  }
  if (match.recipe == "config" && match.params.value("kind", "") == "template") {
    return {};  // a template inside a fused segment keeps Inductor's launch
  }
  return Proposer::neighbours(match, settings);
}

bool KernelProposer::fits(const Match& match, const nlohmann::json& settings) const {
  return config_fits(match, settings);
}

}  // namespace kernelopt::propose
