// Whole-file reads and atomic writes (write a .tmp, then rename): nothing half-written is left.
#pragma once

#include <filesystem>
#include <string>

namespace kernelopt::engine {

// The file's bytes; throws Error("kernelopt.io") when it cannot be read.
std::string read_file(const std::filesystem::path& path);

// Writes `text` to `path` atomically, creating its folder; throws Error("kernelopt.io").
void write_file(const std::filesystem::path& path, const std::string& text);

}  // namespace kernelopt::engine
