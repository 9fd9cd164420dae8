#include "kernelopt/engine/files.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("kernelopt.io", fmt::format("cannot read {}", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const fs::path& path, const std::string& text) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out.flush()) throw Error("kernelopt.io", fmt::format("cannot write {}", tmp.string()));
  }
  fs::rename(tmp, path);
}

}  // namespace kernelopt::engine
