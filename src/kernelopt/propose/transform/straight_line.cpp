// Tidying of pasted kernel code: index simplification, mask narrowing, common statements merged
// (detail/straight_line.hpp says what and why).
#include "kernelopt/propose/detail/straight_line.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/detail/affine_index.hpp"

namespace kernelopt::propose::detail {

namespace {

namespace py = inductor::detail;

// ---- dimensions of a tile: x, y, z and the reduction dimensions ----

using Dims = std::set<std::string>;

// The dimension an index base or a dimension's mask stands for, or "".
std::string base_dim(const std::string& name, bool mask) {
  static const std::map<std::string, std::string> index_dims = {
      {"xindex", "x"},    {"yindex", "y"},    {"zindex", "z"},
      {"r0_index", "r0"}, {"r1_index", "r1"}, {"rindex", "r0"},
      {"r0_base", "r0"},  {"r1_base", "r1"},  {"rbase", "r0"}};
  static const std::map<std::string, std::string> mask_dims = {{"xmask", "x"},    {"ymask", "y"},
                                                               {"zmask", "z"},    {"r0_mask", "r0"},
                                                               {"r1_mask", "r1"}, {"rmask", "r0"}};
  const auto& table = mask ? mask_dims : index_dims;
  const auto it = table.find(name);
  return it == table.end() ? "" : it->second;
}

// "a & (b) & c": its conjuncts, or none when a conjunct is not a name.
std::optional<std::vector<std::string>> conjuncts(const std::string& mask) {
  std::vector<std::string> out;
  for (const auto& piece : py::split_top_level(mask, '&')) {
    std::string name(py::strip_brackets(piece));
    if (!py::is_identifier(name)) return std::nullopt;
    out.push_back(name);
  }
  return out;
}

// How many // and % the text holds.
int divisions(const std::string& text) {
  int n = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%') ++n;
    if (text.compare(i, 2, "//") == 0) {
      ++n;
      ++i;
    }
  }
  return n;
}

bool barrier(const std::string& text) {
  for (const char* op : {"tl.store", "tl.atomic", "tl.debug_barrier", "tl.inline_asm"}) {
    if (text.find(op) != std::string::npos) return true;
  }
  return false;
}

bool pure(const std::string& rhs) {
  for (const char* op :
       {"tl.atomic", "inline_asm", "print", "device_assert", "tl.rand", "debug_barrier"}) {
    if (rhs.find(op) != std::string::npos) return false;
  }
  return true;
}

}  // namespace

std::string map_identifiers(const std::string& line,
                            const std::function<std::string(const std::string&)>& visit) {
  std::string out;
  char quote = 0;
  for (std::size_t i = 0; i < line.size();) {
    const char c = line[i];
    if (quote != 0) {
      out += c;
      if (c == quote) quote = 0;
      ++i;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      out += c;
      ++i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_') {
      std::size_t j = i;
      while (j < line.size() && py::is_ident_char(line[j])) {
        ++j;
      }
      const std::string name = line.substr(i, j - i);
      const bool attribute = i > 0 && line[i - 1] == '.';
      out += attribute ? name : visit(name);
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {  // a number (1e-05 stays whole)
      std::size_t j = i;
      while (j < line.size() &&
             (py::is_ident_char(line[j]) || line[j] == '.' ||
              ((line[j] == '-' || line[j] == '+') && (line[j - 1] == 'e' || line[j - 1] == 'E')))) {
        ++j;
      }
      out += line.substr(i, j - i);
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

Tidied tidy_pasted(const std::vector<std::string>& body, const std::vector<bool>& pasted) {
  Tidied out;
  // Names assigned more than once (loop accumulators) are never merged nor merged into.
  std::map<std::string, int> assigned;
  for (const auto& line : body) {
    const std::string t(py::trim(line));
    std::string rhs;
    for (const auto& name : py::assigned_names(t, &rhs)) {
      ++assigned[name];
    }
    const auto [lhs, value] = py::split_keyword(t);
    if (lhs.empty() && t.find("= ") != std::string::npos) {  // `a += b` and the like
      const std::size_t end =
          t.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
      if (end != std::string::npos && end > 0) assigned[t.substr(0, end)] += 2;
    }
  }
  const auto single = [&](const std::string& name) {
    const auto it = assigned.find(name);
    return it == assigned.end() || it->second == 1;
  };
  Known known;
  std::map<std::string, long long> numel;  // x, y, ... -> its numel
  std::map<std::string, Dims> dims;
  std::set<std::string> trivial_masks;  // `ymask = tl.full([YBLOCK], True, tl.int1)[:, None]`
  std::map<std::string, std::string> renames;
  std::map<std::string, std::string> seen;  // right side -> the first name that holds it
  std::size_t block_indent = std::string::npos;
  const auto dims_of = [&](const std::string& text) {
    Dims d;
    for (const auto& id : py::identifiers(text)) {
      if (const auto b = base_dim(id, false); !b.empty()) d.insert(b);
      if (const auto b = base_dim(id, true); !b.empty()) d.insert(b);
      if (const auto it = dims.find(id); it != dims.end()) {
        d.insert(it->second.begin(), it->second.end());
      }
    }
    return d;
  };
  for (std::size_t i = 0; i < body.size(); ++i) {
    const std::string& raw = body[i];
    const std::string t(py::trim(raw));
    if (t.empty() || t[0] == '#') {
      out.body.push_back(raw);
      continue;
    }
    const std::size_t indent = py::indentation(raw);
    if (indent != block_indent || t.back() == ':') seen.clear();
    block_indent = t.back() == ':' ? std::string::npos : indent;
    std::string line = map_identifiers(raw, [&](const std::string& id) {
      const auto it = renames.find(id);
      return it == renames.end() ? id : it->second;
    });
    if (barrier(t)) seen.clear();
    std::string rhs;
    const auto names = py::assigned_names(py::trim(line), &rhs);
    if (names.size() != 1) {
      out.body.push_back(line);
      if (pasted[i]) ++out.pasted_kept;
      continue;
    }
    const std::string& name = names.front();
    const std::string pad = raw.substr(0, indent);
    // Numels and index ranges.
    if (name.size() > 5 && name.substr(name.size() - 5) == "numel") {
      const std::string dim = name.substr(0, name.size() - 5);
      if (!rhs.empty() && rhs.size() <= 15 && std::all_of(rhs.begin(), rhs.end(), [](char ch) {
            return std::isdigit(static_cast<unsigned char>(ch)) != 0;
          })) {
        numel[dim == "r" ? "r0_" : dim] = std::stoll(rhs);
      }
    }
    const std::string dim = base_dim(name, false);
    if (!dim.empty()) {
      dims[name] = {dim};
      const std::string key = dim == "x" || dim == "y" || dim == "z" ? dim : dim + "_";
      if (const auto it = numel.find(key);
          it != numel.end() && name.find("base") == std::string::npos) {
        known.ranges[name] = Range{0, it->second - 1};
      }
      out.body.push_back(line);
      if (pasted[i]) ++out.pasted_kept;
      continue;
    }
    if (!base_dim(name, true).empty() && rhs.rfind("tl.full(", 0) == 0 &&
        rhs.find("True") != std::string::npos) {
      trivial_masks.insert(name);
    }
    // What the name holds, as an index: its affine form, its range.
    IndexParser parser(rhs, known);
    auto index = parser.parse();
    if (index && pasted[i] && index->affine && index->divides) {  // index simplification
      const std::string text = affine_text(*index->affine);
      if (divisions(text) < divisions(rhs)) {
        rhs = text;
        index->range = affine_range(*index->affine, parser.ranges());  // the range of the text
        ++out.simplified;
      }
    }
    if (index) {
      for (const auto& [atom, range] : parser.ranges()) {
        known.ranges.emplace(atom, range);
      }
      if (index->range) known.ranges[name] = *index->range;
      if (pasted[i] && index->affine) known.aliases[name] = *index->affine;
    }
    if (pasted[i]) {
      // Mask narrowing (a load is no index: what the parser read of it is nothing).
      if (const auto args = py::call_args(rhs, "tl.load"); args && args->size() >= 2) {
        const auto parts = conjuncts((*args)[1]);
        if (parts) {
          const Dims address = dims_of((*args)[0]);
          std::vector<std::string> kept;
          bool known_masks = true;
          for (const auto& part : *parts) {
            const std::string d = base_dim(part, true);
            if (d.empty()) known_masks = false;
            if (address.count(d) != 0 && trivial_masks.count(part) == 0) kept.push_back(part);
          }
          if (known_masks && kept.size() < parts->size()) {
            auto narrowed = *args;
            narrowed[1] =
                kept.empty() ? std::string("None") : fmt::format("{}", fmt::join(kept, " & "));
            rhs = fmt::format("tl.load({})", fmt::join(narrowed, ", "));
            ++out.narrowed;
          }
        }
      }
    }
    dims[name] = dims_of(rhs);
    // Common statements.
    bool mergeable = single(name) && pure(rhs);
    for (const auto& id : py::identifiers(rhs)) {
      mergeable = mergeable && single(id);
    }
    if (mergeable) {
      const bool literal = rhs == "None" || rhs == "True" || rhs == "False";
      if (pasted[i] && py::is_identifier(rhs) && !literal && rhs != name) {  // a copy
        renames[name] = rhs;
        ++out.merged;
        continue;
      }
      if (const auto it = seen.find(rhs); it != seen.end()) {
        if (pasted[i]) {
          renames[name] = it->second;
          ++out.merged;
          continue;
        }
      } else {
        seen[rhs] = name;
      }
    }
    std::string kept = pad;
    kept.append(name).append(" = ").append(rhs);
    out.body.push_back(std::move(kept));
    if (pasted[i]) ++out.pasted_kept;
  }
  return out;
}

}  // namespace kernelopt::propose::detail
