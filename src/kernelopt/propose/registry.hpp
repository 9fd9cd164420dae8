#pragma once
// Every proposer, in the order they are asked about a segment, and the search's view of them:
// the strategies that apply to a segment, and a match's settings, neighbours and candidate
// source by the proposer that made it.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/propose/proposer.hpp"

namespace kernelopt::propose {

// A fresh instance of every proposer, in registry order: the recipes (gemm, reduce_dim,
// row_two_pass, norm_dim, cross_entropy, scan, group_norm, pool), then config, rewrite, fuse,
// split and retile, and llm (a language model; it matches only where --llm configured it). Fresh
// instances, so that what one run's proposers observe stays in that run.
std::vector<std::unique_ptr<Proposer>> make_proposers();

// The registry's shared, stateless instance of the proposer named `name` (Match::recipe);
// throws Error("kernelopt.proposer") for a name no proposer has.
const Proposer& proposer(std::string_view name);

// Every proposer's name, in registry order.
std::vector<std::string> proposer_names();

// Every strategy the proposers offer for a segment, in registry order, each where it matches;
// of the recipes only the first that matches (a recipe's match names the op family it computes,
// one per segment).
std::vector<Match> match_strategies(const inductor::OutputCode& code,
                                    const analysis::DispatchMap& map,
                                    const analysis::Segment& segment);

// The first recipe that matches the segment, in registry order.
std::optional<Match> match_recipe(const inductor::OutputCode& code,
                                  const analysis::DispatchMap& map,
                                  const analysis::Segment& segment);

// A match's family ("recipe", "config" or "rewrite") and strategy name ("recipe:scan", "fuse").
std::string proposer_of(const Match& match);
std::string strategy_of(const Match& match);

// Its proposer's starting settings, neighbours and candidate file for a match.
std::vector<nlohmann::json> initial_settings(const Match& match);
std::vector<nlohmann::json> neighbours_of(const Match& match, const nlohmann::json& settings);
std::string source_of(const Match& match, int segment, const nlohmann::json& settings);

}  // namespace kernelopt::propose
