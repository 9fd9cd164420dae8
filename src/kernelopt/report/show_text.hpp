// The show document as text for the terminal and as a Markdown table row.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelopt::report {

// The launch table, the segments and the class, for a terminal of about 120 columns.
std::string format_show(const nlohmann::json& doc);

// A Markdown table over many show documents (one row a problem).
std::string format_show_table(const std::vector<nlohmann::json>& docs);

}  // namespace kernelopt::report
