// The rewrite proposer: source rewrites of Inductor's reduction kernels (one pass where a row fits
// on chip, shifted sums for Welford, recomputed reloads, cheaper math), launched as config launches
// them.
#include "kernelopt/propose/transform/rewrite.hpp"

#include <memory>

#include "kernelopt/propose/kernel/kernel_proposer.hpp"
#include "kernelopt/propose/transform/config.hpp"

namespace kernelopt::propose {

namespace {

class Rewrite final : public KernelProposer {
 public:
  std::string_view name() const override { return "rewrite"; }

  std::string_view family() const override { return "rewrite"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_rewrite(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& match) const override {
    return rewrite_settings(match);
  }

  std::string source(const Match& match,
                     int segment,
                     const nlohmann::json& settings) const override {
    return config_source(match, segment, settings);
  }
};

}  // namespace

std::unique_ptr<Proposer> make_rewrite() {
  return std::make_unique<Rewrite>();
}

}  // namespace kernelopt::propose
