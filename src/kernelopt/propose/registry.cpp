#include "kernelopt/propose/registry.hpp"

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"

namespace kernelopt::propose {

// The registry: one line per proposer, in the order they are asked. Each proposer's file defines
// its make_NAME().
#define KERNELOPT_PROPOSERS(X) \
  X(gemm)                      \
  X(reduce_dim)                \
  X(row_two_pass)              \
  X(norm_dim)                  \
  X(cross_entropy)             \
  X(scan)                      \
  X(group_norm)                \
  X(pool)                      \
  X(config)                    \
  X(rewrite)                   \
  X(fuse)                      \
  X(split)                     \
  X(retile)                    \
  X(llm)

#define KERNELOPT_DECLARE(name) std::unique_ptr<Proposer> make_##name();
KERNELOPT_PROPOSERS(KERNELOPT_DECLARE)
#undef KERNELOPT_DECLARE

std::vector<std::unique_ptr<Proposer>> make_proposers() {
  std::vector<std::unique_ptr<Proposer>> all;
#define KERNELOPT_MAKE(name) all.push_back(make_##name());
  KERNELOPT_PROPOSERS(KERNELOPT_MAKE)
#undef KERNELOPT_MAKE
  return all;
}

namespace {

const std::vector<std::unique_ptr<Proposer>>& shared() {
  static const std::vector<std::unique_ptr<Proposer>> all = make_proposers();
  return all;
}

}  // namespace

const Proposer& proposer(std::string_view name) {
  for (const auto& p : shared()) {
    if (p->name() == name) return *p;
  }
  throw Error("kernelopt.proposer", fmt::format("no proposer is named '{}'", name));
}

std::vector<std::string> proposer_names() {
  std::vector<std::string> names;
  for (const auto& p : shared()) {
    names.emplace_back(p->name());
  }
  return names;
}

std::vector<Match> match_strategies(const inductor::OutputCode& code,
                                    const analysis::DispatchMap& map,
                                    const analysis::Segment& segment) {
  std::vector<Match> out;
  bool recipe = false;
  for (const auto& p : shared()) {
    const bool is_recipe = p->family() == "recipe";
    if (is_recipe && recipe) continue;
    auto m = p->match(SegmentView{code, map, segment, out});
    if (!m) continue;
    recipe = recipe || is_recipe;
    out.push_back(std::move(*m));
  }
  return out;
}

std::optional<Match> match_recipe(const inductor::OutputCode& code,
                                  const analysis::DispatchMap& map,
                                  const analysis::Segment& segment) {
  const std::vector<Match> none;
  for (const auto& p : shared()) {
    if (p->family() != "recipe") continue;
    if (auto m = p->match(SegmentView{code, map, segment, none})) return m;
  }
  return std::nullopt;
}

std::string proposer_of(const Match& match) {
  return std::string(proposer(match.recipe).family());
}

std::string strategy_of(const Match& match) {
  return proposer(match.recipe).strategy();
}

std::vector<nlohmann::json> initial_settings(const Match& match) {
  return proposer(match.recipe).initial(match);
}

std::vector<nlohmann::json> neighbours_of(const Match& match, const nlohmann::json& settings) {
  return proposer(match.recipe).neighbours(match, settings);
}

std::string source_of(const Match& match, int segment, const nlohmann::json& settings) {
  return proposer(match.recipe).source(match, segment, settings);
}

}  // namespace kernelopt::propose
