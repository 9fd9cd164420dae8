// The report's three plots as inline SVG, drawn from summary.json's problem rows.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kernelopt::report {

// The colour of an outcome class in every plot and legend.
std::string class_colour(const std::string& outcome_class);

// A histogram of the speedups over fixed bins (<0.9, 0.9-0.97, 0.97-1.01, ..., >=5).
std::string speedup_histogram_svg(const nlohmann::json& rows);

// One horizontal bar per problem, sorted by speedup, on a log axis around 1.0, with the interval
// as a whisker and the bar coloured by class; problems without a speedup are listed below.
std::string speedup_bars_svg(const nlohmann::json& rows);

// Per problem, headroom (time / floor) before and after on a log axis: how far each stays from
// its floor. Problems without a floor are left out.
std::string headroom_svg(const nlohmann::json& rows);

}  // namespace kernelopt::report
