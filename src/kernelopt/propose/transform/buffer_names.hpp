#pragma once
// Names in Inductor's output code: whether a text is a buffer or parameter name, and the root
// buffer a name holds through reuses.
#include <optional>
#include <string>

#include "kernelopt/inductor/output_code.hpp"

namespace kernelopt::propose {

// Whether `text` is a Python identifier (a buffer or parameter name).
bool identifier(const std::string& text);

// The root buffer a name holds just before step `step`, through reuses (`bufN = bufM; del bufM`,
// the same tensor under a new name); nullopt when the name is a view (its tensor is not the
// root's).
std::optional<std::string> reused_root(const inductor::OutputCode& code,
                                       int step,
                                       const std::string& name);

}  // namespace kernelopt::propose
