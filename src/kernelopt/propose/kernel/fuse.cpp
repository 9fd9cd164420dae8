// The fuse proposer: a segment's launches fused into fewer kernels (a producer inlined into its
// consumer).
#include "kernelopt/propose/transform/fuse.hpp"

#include <memory>

#include "kernelopt/propose/kernel/kernel_proposer.hpp"

namespace kernelopt::propose {

namespace {

class Fuse final : public KernelProposer {
 public:
  std::string_view name() const override { return "fuse"; }

  std::string_view family() const override { return "rewrite"; }

  std::optional<Match> match(const SegmentView& view) const override {
    return match_fuse(view.code, view.map, view.segment);
  }

  std::vector<nlohmann::json> initial(const Match& match) const override {
    return fuse_settings(match);
  }

  std::string source(const Match& match,
                     int segment,
                     const nlohmann::json& settings) const override {
    return fuse_source(match, segment, settings);
  }
};

}  // namespace

std::unique_ptr<Proposer> make_fuse() {
  return std::make_unique<Fuse>();
}

}  // namespace kernelopt::propose
