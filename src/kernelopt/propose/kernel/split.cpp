// The split proposer: a reduction split among more programs (partials, then a combine), built on
// the launches that fuse, rewrite or config matched.
#include "kernelopt/propose/transform/split.hpp"

#include <memory>

#include "kernelopt/propose/kernel/kernel_proposer.hpp"
#include "kernelopt/propose/transform/fuse.hpp"
#include "kernelopt/propose/transform/on_base.hpp"

namespace kernelopt::propose {

namespace {

class Split final : public KernelProposer {
 public:
  std::string_view name() const override { return "split"; }

  std::string_view family() const override { return "rewrite"; }

  std::optional<Match> match(const SegmentView& view) const override {
    const auto earlier = [&](const char* name) -> std::optional<Match> {
      for (const Match& m : view.earlier) {
        if (m.recipe == name) return m;
      }
      return std::nullopt;
    };
    return split_of(earlier("fuse"), earlier("rewrite"), earlier("config"));
  }

  std::vector<nlohmann::json> initial(const Match& match) const override {
    return on_bases_settings(match, fuse_settings);
  }

  std::vector<nlohmann::json> neighbours(const Match& match,
                                         const nlohmann::json& settings) const override {
    if (!settings.contains("on") && !match.params.contains("launches")) return {};
    return KernelProposer::neighbours(match, settings);
  }

  std::string source(const Match& match,
                     int segment,
                     const nlohmann::json& settings) const override {
    const auto [on_base, own] = on_chosen_base(match, settings);
    return fuse_source(on_base, segment, own);
  }
};

}  // namespace

std::unique_ptr<Proposer> make_split() {
  return std::make_unique<Split>();
}

}  // namespace kernelopt::propose
