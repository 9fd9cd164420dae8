// The config proposer: Inductor's kernels relaunched with other launch settings (XBLOCK, YBLOCK,
// R0_BLOCK, num_warps, num_stages) than its own tuning tried.
#include "kernelopt/propose/transform/config.hpp"

#include <memory>

#include "kernelopt/propose/kernel/kernel_proposer.hpp"

namespace kernelopt::propose {

namespace {

class Config final : public KernelProposer {
 public:
  std::string_view name() const override { return "config"; }

  std::string_view family() const override { return "config"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_config(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& match) const override {
    return config_settings(match);
  }

  std::string source(const Match& match,
                     int segment,
                     const nlohmann::json& settings) const override {
    return config_source(match, segment, settings);
  }
};

}  // namespace

std::unique_ptr<Proposer> make_config() {
  return std::make_unique<Config>();
}

}  // namespace kernelopt::propose
