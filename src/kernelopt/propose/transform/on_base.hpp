#pragma once
// A strategy built on top of the segment's other rewrites (split, retile): its match on each base
// (fuse's launches, the rewrite's, config's relaunch), the base a setting picks, the starting
// settings.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/propose/match.hpp"

namespace kernelopt::propose {

// A rewrite of a segment's launches made on top of another strategy's match `base` (named `on`:
// "fuse", "rewrite", or "" for config): base's params (a whole segment's) with `launches`, kind
// "segment" and RECIPE_on, and `why` followed by base's.
Match on_base_match(const std::optional<Match>& base,
                    const std::string& on,
                    nlohmann::json launches,
                    const std::string& recipe,
                    const std::string& why);

// `on_base` applied to fuse's match, then the rewrite's, then config's relaunch (split and retile
// add to what the other rewrites did): the first match it gives, with the matches on the further
// bases in params "other_bases" ([{"on": "rewrite" or "config", "params", "why"}]), which a
// setting "on" picks (on_chosen_base). A launch's parameters in a form it does not expect give
// nothing from that base, not a failed search.
using OnBase = std::function<std::optional<Match>(const std::optional<Match>&, const std::string&)>;
std::optional<Match> first_on_base(const std::optional<Match>& fuse,
                                   const std::optional<Match>& rewrite,
                                   const std::optional<Match>& config,
                                   const OnBase& on_base);

// The match a setting's "on" picks among a split's or retile's bases (the first base where the
// settings have none), and the settings without it. Throws std::invalid_argument for a base the
// match does not have.
std::pair<Match, nlohmann::json> on_chosen_base(const Match& match, const nlohmann::json& settings);

// The starting settings of a match on several bases: `settings_of` of each base's match, the
// further bases' marked with their "on", interleaved (each base's first, then each one's second).
std::vector<nlohmann::json> on_bases_settings(
    const Match& match,
    const std::function<std::vector<nlohmann::json>(const Match&)>& settings_of);

}  // namespace kernelopt::propose
