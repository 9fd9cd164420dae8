// The lines of a candidate's run() that launch one relaunch: its arguments bound to the
// segment's tensors (or allocated), and the launch statement with the settings' blocks and warps.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/propose/transform/relaunch.hpp"
#include "kernelopt/propose/transform/split.hpp"

namespace kernelopt::propose {

std::vector<std::string> bind_args(const nlohmann::json& p,
                                   std::map<std::string, std::string>& tensors,
                                   std::string& body) {
  std::vector<std::string> call_args;
  for (const auto& arg : p.at("args")) {
    if (arg.contains("literal")) {
      call_args.push_back(std::to_string(arg.at("literal").get<std::int64_t>()));
      continue;
    }
    const std::string root = arg.at("root").get<std::string>();
    if (const auto bound = tensors.find(root); bound != tensors.end()) {
      call_args.push_back(bound->second);  // a buffer an earlier launch already bound
      continue;
    }
    const std::string var = fmt::format("_t{}", tensors.size());
    tensors[root] = var;
    if (arg.at("from") == "internal") {
      // A Python tuple: "()" for a 0-dim buffer (a whole-tensor norm's statistic), "(n,)" else.
      const auto tuple = [](const std::vector<std::string>& items) {
        return items.empty() ? std::string("()") : fmt::format("({},)", fmt::join(items, ", "));
      };
      body += fmt::format("    {} = torch.empty_strided({}, {}, dtype={}, device=_device)\n", var,
                          tuple(arg.at("shape").get<std::vector<std::string>>()),
                          tuple(arg.at("stride").get<std::vector<std::string>>()),
                          arg.at("dtype").get<std::string>());
    } else {
      body += fmt::format("    {} = {}[\"{}\"]\n", var, arg.at("from").get<std::string>(),
                          arg.at("root").get<std::string>());
    }
    call_args.push_back(var);
  }
  return call_args;
}

std::string launch_text(const nlohmann::json& p,
                        const nlohmann::json& settings,
                        const std::string& prefix,
                        std::map<std::string, std::string>& tensors,
                        std::string& body) {
  if (p.contains("split_reduction")) return split_launch_text(p, settings, prefix, tensors, body);
  const std::vector<std::string> call_args = bind_args(p, tensors, body);
  const auto value = [&](const std::string& name, std::int64_t fallback) {
    if (p.contains("fixed") && p.at("fixed").contains(name)) {
      return p.at("fixed").at(name).get<std::int64_t>();
    }
    return settings.value(prefix + name, fallback);
  };
  std::vector<std::string> keywords;
  for (const auto& name : p.at("constexprs")) {
    const std::string key = name.get<std::string>();
    keywords.push_back(fmt::format("{}={}", key, value(key, 1)));
  }
  keywords.push_back(fmt::format("num_warps={}", settings.value(prefix + "num_warps", 4)));
  keywords.push_back(fmt::format("num_stages={}", settings.value(prefix + "num_stages", 1)));
  if (p.at("grid") == "fixed") {  // a template: Inductor's own grid
    const auto grid = p.at("fixed_grid").get<std::vector<std::int64_t>>();
    return fmt::format("    {}[({})]({}, {})\n", p.at("kernel").get<std::string>(),
                       fmt::join(grid, ", "), fmt::join(call_args, ", "),
                       fmt::join(keywords, ", "));
  }
  const auto& numels = p.at("numels");
  const bool has_x = std::find(p.at("constexprs").begin(), p.at("constexprs").end(), "XBLOCK") !=
                     p.at("constexprs").end();
  const std::string x_programs =
      has_x ? fmt::format("triton.cdiv({}, {})", numels.at("xnumel").get<std::int64_t>(),
                          value("XBLOCK", 1))
            : std::to_string(numels.at("xnumel").get<std::int64_t>());
  const std::string y_programs =
      p.at("grid") == 2 ? fmt::format("triton.cdiv({}, {})",
                                      numels.at("ynumel").get<std::int64_t>(), value("YBLOCK", 1))
                        : "1";
  return fmt::format("    {}[({}, {}, 1)]({}, {})\n", p.at("kernel").get<std::string>(), x_programs,
                     y_programs, fmt::join(call_args, ", "), fmt::join(keywords, ", "));
}

}  // namespace kernelopt::propose
