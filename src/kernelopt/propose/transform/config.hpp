#pragma once
// The config proposer: its match (Inductor's kernel relaunched with other launch settings), the
// settings it starts from and the limits they must fit, and its candidate file.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/propose/match.hpp"

namespace kernelopt::propose {

// config: a segment of one pointwise, reduction or persistent-reduction launch whose arguments are
// the segment's own tensors (under their names or a reuse's) and literal sizes, on a 1-D grid or
// a 2-D grid indexed by program_id(0) and program_id(1): Inductor's kernel relaunched with other
// XBLOCK / YBLOCK / R0_BLOCK / num_warps / num_stages (a persistent reduction keeps its R0_BLOCK).
// A strategy of its own next to the segment's recipe, if any.
std::optional<Match> match_config(const inductor::OutputCode& code,
                                  const analysis::DispatchMap& map,
                                  const analysis::Segment& segment);

// The smallest power of two >= n (1 for n <= 1): a whole row's R0_BLOCK.
std::int64_t next_power_of_two(std::int64_t n);

// Whether a relaunch's y programs (ynumel / YBLOCK) fit CUDA's 65535: the relaunch gives z one
// program, where Inductor's Grid2DWithYZOverflow spills the rest of y into z. True without ynumel.
bool y_grid_fits(const nlohmann::json& params, std::int64_t yblock);

// The smallest power-of-two YBLOCK for which y_grid_fits (1 without ynumel).
std::int64_t smallest_yblock(const nlohmann::json& params);

// Whether settings fit the launch: its y programs within CUDA's limit (y_grid_fits), and every
// block that must divide its size (a dimension whose mask Inductor dropped) dividing it.
bool config_fits(const Match& match, const nlohmann::json& settings);

// Writes each launch's potential_ms into the whole-segment matches (params "launches") of the
// segment: what tuning it could give, the order in which the search moves the launches' settings
// (config_match.cpp; 0 until set). It is the launch's time above its floor, from the profiler's
// times (`time_ms`, `floor_ms` and `name` per launch of the map, as the show document lists them);
// a template (its floor, bytes, says nothing of a product's arithmetic), or a launch without a
// floor, counts 5% of its time. A match's launch is the segment's next launch of its kernel (a
// fuse match has one launch fewer); one whose timed name differs from the map's is left as it was.
void set_launch_potentials(std::vector<Match>& matches,
                           const analysis::Segment& segment,
                           const analysis::DispatchMap& map,
                           const nlohmann::json& timed_launches);

// The config proposer's starting settings and its candidate file (config_match.cpp).
std::vector<nlohmann::json> config_settings(const Match& match);
std::string config_source(const Match& match, int segment, const nlohmann::json& settings);

}  // namespace kernelopt::propose
