// A strategy on the segment's other rewrites (split, retile): its match on each base, the base a
// setting picks, and the starting settings interleaved across the bases.
#include "kernelopt/propose/transform/on_base.hpp"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/search/detail/interleave.hpp"

namespace kernelopt::propose {

Match on_base_match(const std::optional<Match>& base,
                    const std::string& on,
                    nlohmann::json launches,
                    const std::string& recipe,
                    const std::string& why) {
  nlohmann::json params =
      base->params.contains("launches") ? base->params : nlohmann::json::object();
  params["kind"] = "segment";
  params["launches"] = std::move(launches);
  params[recipe + "_on"] = on.empty() ? "config" : on;
  return Match{
      recipe, params,
      why + (on.empty() ? "" : fmt::format(" (on top of the {} rewrite: {})", on, base->why))};
}

std::optional<Match> first_on_base(const std::optional<Match>& fuse,
                                   const std::optional<Match>& rewrite,
                                   const std::optional<Match>& config,
                                   const OnBase& on_base) {
  std::optional<Match> first;
  nlohmann::json others = nlohmann::json::array();
  for (const auto& [base, on] :
       {std::pair{&fuse, "fuse"}, std::pair{&rewrite, "rewrite"}, std::pair{&config, ""}}) {
    std::optional<Match> m;
    try {
      m = on_base(*base, on);
    } catch (const nlohmann::json::exception&) {
      continue;
    }
    if (!m) continue;
    if (!first) {
      first = std::move(m);
    } else {
      others.push_back({{"on", std::string(on).empty() ? "config" : on},
                        {"params", std::move(m->params)},
                        {"why", std::move(m->why)}});
    }
  }
  if (first && !others.empty()) first->params["other_bases"] = std::move(others);
  return first;
}

namespace {

// The match on a further base, from its entry in params "other_bases".
Match match_on(const Match& match, const nlohmann::json& other) {
  return Match{match.recipe, other.at("params"), other.at("why").get<std::string>()};
}

}  // namespace

std::pair<Match, nlohmann::json> on_chosen_base(const Match& match,
                                                const nlohmann::json& settings) {
  nlohmann::json own = settings;
  Match chosen = match;
  chosen.params.erase("other_bases");
  if (!settings.is_object() || !settings.contains("on")) return {chosen, own};
  const std::string on = settings.at("on").get<std::string>();
  own.erase("on");
  for (const auto& other : match.params.value("other_bases", nlohmann::json::array())) {
    if (other.at("on") == on) return {match_on(match, other), own};
  }
  throw std::invalid_argument(
      fmt::format("the {} match has no launches on the {} base", match.recipe, on));
}

std::vector<nlohmann::json> on_bases_settings(
    const Match& match,
    const std::function<std::vector<nlohmann::json>(const Match&)>& settings_of) {
  // Interleaved: each base's first start, then each one's second, so that a round cut short by
  // the budget has tried the strategy on every base (L2/85: the retile on fuse's
  // launches lost with fuse at 0.72x while the rewrite, a base it did not try, won alone).
  std::vector<std::vector<nlohmann::json>> each{settings_of(on_chosen_base(match, {}).first)};
  for (const auto& other : match.params.value("other_bases", nlohmann::json::array())) {
    std::vector<nlohmann::json>& starts = each.emplace_back(settings_of(match_on(match, other)));
    for (auto& s : starts) {
      s["on"] = other.at("on");
    }
  }
  return search::detail::interleaved(each);
}

}  // namespace kernelopt::propose
