// The verify document as text: each candidate's gates with their verdicts, each model attempt,
// and the outcome class.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kernelopt::report {

std::string format_verify(const nlohmann::json& doc);

}  // namespace kernelopt::report
