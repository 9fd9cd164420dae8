// Dispatch of one `call` statement to its kind, and the alias bookkeeping.
#include "kernelopt/inductor/detail/call_statements.hpp"

#include <algorithm>

#include "kernelopt/inductor/detail/parsers.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::inductor::detail {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool is_dotted_name(std::string_view text) {
  if (text.empty()) return false;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t dot = std::min(text.find('.', start), text.size());
    if (!is_identifier(text.substr(start, dot - start))) return false;
    start = dot + 1;
  }
  return true;
}

// Sympy size symbols (s0, u1, ks0, ps2) are assigned in call too, but name no buffer.
bool is_size_symbol(std::string_view name) {
  const std::size_t digits = name.find_first_of("0123456789");
  const std::string_view prefix = name.substr(0, digits);
  return digits != std::string_view::npos && digits > 0 &&
         name.find_first_not_of("0123456789", digits) == std::string_view::npos &&
         (prefix == "s" || prefix == "u" || prefix == "ks" || prefix == "ps");
}

bool is_aten_callee(std::string_view callee) {
  return starts_with(callee, "torch.ops.") || starts_with(callee, "aten.");
}

}  // namespace

std::optional<CallExpr> as_call(std::string_view text) {
  text = trim(text);
  const std::size_t open = text.find('(');
  if (open == std::string_view::npos || find_closing(text, open) != text.size() - 1) {
    return std::nullopt;
  }
  CallExpr call;
  call.callee = trim(text.substr(0, open));
  if (!is_dotted_name(call.callee)) return std::nullopt;
  call.args = split_top_level(text.substr(open + 1, text.size() - open - 2));
  return call;
}

std::optional<std::vector<std::string>> call_args(std::string_view text, std::string_view callee) {
  auto call = as_call(text);
  if (!call || call->callee != callee) return std::nullopt;
  return std::move(call->args);
}

void add_unique(std::vector<std::string>& names, const std::string& name) {
  if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) {
    names.push_back(name);
  }
}

void CallStatements::comment(std::string_view text) {
  if (text.find("Original ATen:") != std::string_view::npos) pending_aten_ = original_aten(text);
}

void CallStatements::statement(std::string_view text, int line, int end_line) {
  text = trim(text);
  if (text.empty()) return;
  Step step;
  step.line = line;
  step.end_line = end_line;
  step.text = text;
  if (text == "return" || starts_with(text, "return ") || starts_with(text, "return(")) {
    returns(text.substr(6), std::move(step));
    return;
  }
  if (starts_with(text, "del ")) {
    dels(text.substr(4), std::move(step));
    return;
  }
  if (text.back() == ':') return;  // with / if / else headers: their bodies are statements
  const auto [lhs, rhs] = split_keyword(text);
  if (lhs.empty()) {
    expression(text, std::move(step));
    return;
  }
  std::vector<std::string> names = split_top_level(strip_brackets(lhs));
  const bool all_names = std::all_of(names.begin(), names.end(),
                                     [](const std::string& name) { return is_identifier(name); });
  if (!names.empty() && all_names) assignment(names, rhs, std::move(step));
}

void CallStatements::assignment(const std::vector<std::string>& names,
                                std::string_view rhs,
                                Step step) {
  if (rhs == "args") {
    unpack_args(names, step.line);
    return;
  }
  const std::string& name = names.front();
  if (is_size_symbol(name)) return;
  if (is_identifier(rhs) && known(std::string(rhs)) && names.size() == 1) {
    same_tensor_.insert(name);
    alias(StepKind::kReuse, name, std::string(rhs), std::move(step));
    return;
  }
  const std::size_t bracket = rhs.find('[');
  if (bracket != std::string_view::npos && rhs.back() == ']' && names.size() == 1) {
    const std::string base(trim(rhs.substr(0, bracket)));
    if (!known(base)) return;
    // An element of a multi-output op's result (a tuple: no assert gave it a shape, and its
    // first element took its buffer) is a tensor of its own; anything else indexed is a view.
    const Buffer* buffer = find_buffer(base);
    if (op_outputs_.count(base) > 0 && (buffer == nullptr || !buffer->shape_known)) {
      item(name, base, std::move(step));
    } else {
      alias(StepKind::kReinterpret, name, base, std::move(step));
    }
    return;
  }
  const std::optional<CallExpr> call = as_call(rhs);
  if (!call) return;
  if (starts_with(call->callee, "empty_strided") && names.size() == 1) {
    alloc(name, *call, std::move(step));
  } else if (ends_with(call->callee, "alloc_from_pool") && names.size() == 1) {
    pool_alloc(name, *call, std::move(step));
  } else if (call->callee == "reinterpret_tensor" && names.size() == 1 && !call->args.empty()) {
    alias(StepKind::kReinterpret, name, buffer_ref(call->args.front()), std::move(step));
  } else if (starts_with(call->callee, "extern_kernels.")) {
    extern_call(names, *call, std::move(step));
  } else if (is_aten_callee(call->callee)) {
    fallback(names, *call, std::move(step));
  }
}

void CallStatements::expression(std::string_view text, Step step) {
  const std::optional<CallExpr> call = as_call(text);
  if (!call) return;
  const std::string& callee = call->callee;
  const std::size_t dot = callee.rfind('.');
  const std::string object = dot == std::string::npos ? "" : callee.substr(0, dot);
  const std::string method = dot == std::string::npos ? "" : callee.substr(dot + 1);
  if (method == "run" && code_.kernel(object) != nullptr) {
    launch(*code_.kernel(object), *call, std::move(step));
  } else if (starts_with(callee, "extern_kernels.")) {
    extern_call({}, *call, std::move(step));
  } else if (is_aten_callee(callee)) {
    fallback({}, *call, std::move(step));
  } else if (known(object) && !method.empty() && method.back() == '_') {
    tensor_method(object, *call, std::move(step));
  } else if (callee == "assert_size_stride") {
    assert_size(*call);
  }
}

std::string CallStatements::root(const std::string& name) const {
  std::string current = name;
  for (std::size_t hops = 0; hops <= alias_.size(); ++hops) {
    const auto it = alias_.find(current);
    if (it == alias_.end()) break;
    current = it->second;
  }
  return current;
}

std::string CallStatements::buffer_ref(std::string_view arg) {
  arg = trim(arg);
  if (starts_with(arg, "reinterpret_tensor(")) {
    const std::optional<CallExpr> call = as_call(arg);
    if (!call || call->args.empty()) return {};
    return buffer_ref(call->args.front());
  }
  if (!is_identifier(arg) || arg == "None" || arg == "True" || arg == "False") return {};
  return std::string(arg);
}

std::vector<std::string> CallStatements::buffers_in(std::string_view text) const {
  std::vector<std::string> roots;
  for (const std::string& name : identifiers(text)) {
    if (known(name)) add_unique(roots, root(name));
  }
  return roots;
}

Buffer* CallStatements::find_buffer(const std::string& name) {
  const auto it = std::find_if(code_.buffers.begin(), code_.buffers.end(),
                               [&](const Buffer& buffer) { return buffer.name == name; });
  return it == code_.buffers.end() ? nullptr : &*it;
}

std::vector<std::string> CallStatements::take_aten() {
  std::vector<std::string> ops;
  ops.swap(pending_aten_);
  return ops;
}

}  // namespace kernelopt::inductor::detail
