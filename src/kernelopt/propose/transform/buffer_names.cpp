#include "kernelopt/propose/transform/buffer_names.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/inductor/graph_fragment.hpp"

namespace kernelopt::propose {

bool identifier(const std::string& text) {
  return inductor::detail::is_identifier(text);
}

// The root buffer a name holds just before step `step`, through reuses (`bufN = bufM; del bufM`,
// the same tensor under a new name); nullopt when the name is a view (its tensor is not the
// root's).
std::optional<std::string> reused_root(const inductor::OutputCode& code,
                                       int step,
                                       const std::string& name) {
  std::map<std::string, std::optional<std::string>> roots;  // name -> root; nullopt: a view
  for (int s = 0; s < step; ++s) {
    const inductor::Step& st = code.steps[static_cast<std::size_t>(s)];
    if (st.defines.empty()) continue;
    const std::string& defined = st.defines.front();
    if (st.kind == inductor::StepKind::kReuse) {
      const auto it = roots.find(st.alias_of);
      roots[defined] = it != roots.end() ? it->second : std::optional<std::string>(st.alias_of);
    } else if (st.kind == inductor::StepKind::kReinterpret) {
      roots[defined] = std::nullopt;
    } else {
      roots.erase(defined);  // a buffer of its own
    }
  }
  const auto it = roots.find(name);
  return it != roots.end() ? it->second : std::optional<std::string>(name);
}

}  // namespace kernelopt::propose
