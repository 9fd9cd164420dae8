#include "kernelopt/inductor/graph_fragment.hpp"

#include <cctype>

#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::inductor {

namespace {

using detail::split_top_level;
using detail::trim;

std::string without_percent(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '%') text.remove_prefix(1);
  return std::string(text);
}

// "f32[128, 4096][4096, 1]cuda:0" -> dtype, shape, stride.
void parse_tensor_type(std::string_view type, FragmentNode& node) {
  const std::size_t open = type.find('[');
  if (open == std::string_view::npos) return;
  node.dtype = std::string(trim(type.substr(0, open)));
  const std::size_t close = type.find(']', open);
  if (close == std::string_view::npos) return;
  node.shape = split_top_level(type.substr(open + 1, close - open - 1));
  const std::size_t open2 = type.find('[', close);
  if (open2 != close + 1) return;
  const std::size_t close2 = type.find(']', open2);
  if (close2 == std::string_view::npos) return;
  node.stride = split_top_level(type.substr(open2 + 1, close2 - open2 - 1));
}

// "(%arg0_1, 1)" -> its top-level pieces.
std::vector<std::string> tuple_items(std::string_view text) {
  text = trim(text);
  if (text.size() >= 2 && text.front() == '(' && text.back() == ')') {
    text = text.substr(1, text.size() - 2);
  }
  return split_top_level(text);
}

std::vector<std::string> dict_items(std::string_view text) {
  text = trim(text);
  if (text.size() >= 2 && text.front() == '{' && text.back() == '}') {
    text = text.substr(1, text.size() - 2);
  }
  return split_top_level(text);
}

bool parse_node(std::string_view line, FragmentNode& node) {
  if (line.empty() || line.front() != '%') return false;
  const std::size_t colon = line.find(" : ");
  const std::size_t equals = line.find(" = ");
  if (equals == std::string_view::npos) return false;
  const std::size_t name_end = colon != std::string_view::npos && colon < equals ? colon : equals;
  node.name = without_percent(line.substr(0, name_end));
  if (colon != std::string_view::npos && colon < equals) {
    const std::string_view type = line.substr(colon + 3, equals - colon - 3);
    const std::size_t q1 = type.find('"');
    const std::size_t q2 = q1 == std::string_view::npos ? q1 : type.find('"', q1 + 1);
    if (q2 != std::string_view::npos) parse_tensor_type(type.substr(q1 + 1, q2 - q1 - 1), node);
  }
  std::string_view rhs = trim(line.substr(equals + 3));
  const std::size_t bracket = rhs.find('[');
  if (bracket == std::string_view::npos) return false;
  std::string op(trim(rhs.substr(0, bracket)));
  for (char& c : op) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  node.op = op;
  const std::size_t close = detail::find_closing(rhs, bracket);
  if (close == std::string_view::npos) return false;
  const std::string_view meta = rhs.substr(bracket + 1, close - bracket - 1);
  if (meta.rfind("target=", 0) == 0) node.target = std::string(trim(meta.substr(7)));
  rhs = rhs.substr(close + 1);
  const std::size_t paren = rhs.find('(');
  if (paren == std::string_view::npos) return true;  // a placeholder
  const std::size_t end = detail::find_closing(rhs, paren);
  if (end == std::string_view::npos) return true;
  for (const std::string& part : split_top_level(rhs.substr(paren + 1, end - paren - 1))) {
    const auto [key, value] = detail::split_keyword(part);
    if (key == "args") node.args = tuple_items(value);
    if (key == "kwargs") node.kwargs = dict_items(value);
  }
  return true;
}

}  // namespace

GraphFragment parse_graph_fragment(std::string_view text) {
  GraphFragment fragment;
  for (std::string_view line : detail::split_lines(text)) {
    line = trim(line);
    if (line.rfind("return ", 0) == 0) {
      for (const std::string& name : split_top_level(line.substr(7))) {
        fragment.returns.push_back(without_percent(name));
      }
      continue;
    }
    FragmentNode node;
    if (parse_node(line, node)) fragment.nodes.push_back(std::move(node));
  }
  return fragment;
}

const FragmentNode* find_node(const GraphFragment& fragment, std::string_view name) {
  for (const FragmentNode& node : fragment.nodes) {
    if (node.name == name) return &node;
  }
  return nullptr;
}

}  // namespace kernelopt::inductor
