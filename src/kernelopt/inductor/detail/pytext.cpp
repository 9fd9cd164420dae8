#include "kernelopt/inductor/detail/pytext.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace kernelopt::inductor::detail {

namespace {

bool is_open(char c) {
  return c == '(' || c == '[' || c == '{';
}

bool is_close(char c) {
  return c == ')' || c == ']' || c == '}';
}

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Offset just past the quoted string that starts at `pos` (a quote), or text.size().
std::size_t skip_string(std::string_view text, std::size_t pos) {
  const char quote = text[pos];
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      return i + 1;
    }
  }
  return text.size();
}

// A recursive-descent reader of Python literals over one string_view.
class LiteralReader {
 public:
  explicit LiteralReader(std::string_view text) : text_(text) {}

  nlohmann::ordered_json value() {
    skip_space();
    if (pos_ >= text_.size()) return nullptr;
    const char c = text_[pos_];
    if (c == '{') return dict();
    if (c == '[' || c == '(') return sequence();
    if (c == '\'' || c == '"') {
      const std::size_t start = pos_;
      pos_ = skip_string(text_, pos_);
      // A string followed by more text (e.g. 'a' + b) is an expression: keep its text.
      skip_space();
      if (pos_ < text_.size() && !is_delimiter(text_[pos_])) return raw_from(start);
      return unquote(text_.substr(start, pos_ - start));
    }
    return scalar(raw_from(pos_));
  }

  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }

 private:
  static bool is_delimiter(char c) { return c == ',' || c == ':' || is_close(c); }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])) != 0) {
      ++pos_;
    }
  }

  // The text from `start` to the next top-level delimiter, trimmed; advances past it.
  std::string raw_from(std::size_t start) {
    std::size_t i = start;
    while (i < text_.size() && !is_delimiter(text_[i])) {
      if (text_[i] == '\'' || text_[i] == '"') {
        i = skip_string(text_, i);
      } else if (is_open(text_[i])) {
        const std::size_t close = find_closing(text_, i);
        i = close == std::string_view::npos ? text_.size() : close + 1;
      } else {
        ++i;
      }
    }
    pos_ = i;
    return std::string(trim(text_.substr(start, i - start)));
  }

  static nlohmann::ordered_json unquote(std::string_view quoted) {
    std::string out;
    for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
      if (quoted[i] == '\\' && i + 2 < quoted.size()) {
        const char next = quoted[++i];
        out += next == 'n' ? '\n' : next == 't' ? '\t' : next;
      } else {
        out += quoted[i];
      }
    }
    return out;
  }

  static nlohmann::ordered_json scalar(const std::string& raw) {
    if (raw == "True") return true;
    if (raw == "False") return false;
    if (raw == "None") return nullptr;
    std::int64_t as_int = 0;
    const char* end = raw.data() + raw.size();
    auto [ptr, ec] = std::from_chars(raw.data(), end, as_int);
    if (ec == std::errc() && ptr == end && !raw.empty()) return as_int;
    if (!raw.empty() &&
        (std::isdigit(static_cast<unsigned char>(raw[0])) != 0 || raw[0] == '-' || raw[0] == '.')) {
      char* float_end = nullptr;
      const double as_double = std::strtod(raw.c_str(), &float_end);
      if (float_end == raw.c_str() + raw.size() && std::isfinite(as_double)) return as_double;
    }
    return raw;
  }

  nlohmann::ordered_json dict() {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    ++pos_;  // '{'
    while (true) {
      skip_space();
      if (pos_ >= text_.size()) return out;
      if (text_[pos_] == '}') {
        ++pos_;
        return out;
      }
      const std::size_t key_start = pos_;
      nlohmann::ordered_json key = value();
      const std::string key_text =
          key.is_string() && text_[key_start] != '{' && text_[key_start] != '['
              ? key.get<std::string>()
              : std::string(trim(text_.substr(key_start, pos_ - key_start)));
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ':') ++pos_;
      out[key_text] = value();
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
    }
  }

  nlohmann::ordered_json sequence() {
    const char close = text_[pos_] == '(' ? ')' : ']';
    const bool tuple = close == ')';
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    bool saw_comma = false;
    ++pos_;
    while (true) {
      skip_space();
      if (pos_ >= text_.size()) return out;
      if (text_[pos_] == close) {
        ++pos_;
        break;
      }
      out.push_back(value());
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        saw_comma = true;
        ++pos_;
      } else if (pos_ < text_.size() && text_[pos_] != close) {
        ++pos_;  // unexpected character: skip it rather than loop forever
      }
    }
    // `(x)` is a parenthesized value, not a tuple.
    if (tuple && !saw_comma && out.size() == 1) return out[0];
    return out;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string_view trim(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])) != 0) {
    ++begin;
  }
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])) != 0) {
    --end;
  }
  return text.substr(begin, end - begin);
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    const std::size_t next = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    if (end > start && text[end - 1] == '\r') --end;
    if (nl == std::string_view::npos && start == text.size()) break;
    lines.push_back(text.substr(start, end - start));
    start = next;
  }
  return lines;
}

std::vector<bool> lines_in_triple_quotes(const std::vector<std::string_view>& lines) {
  std::vector<bool> inside(lines.size(), false);
  std::string_view open;  // the delimiter we are inside, or empty
  for (std::size_t n = 0; n < lines.size(); ++n) {
    inside[n] = !open.empty();
    const std::string_view line = lines[n];
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (open.empty() && line[i] == '#') break;
      const std::string_view three = line.substr(i, 3);
      if (open.empty() && (three == "'''" || three == R"(""")")) {
        open = three;
        i += 2;
      } else if (!open.empty() && three == open) {
        open = {};
        i += 2;
      }
    }
  }
  return inside;
}

std::size_t comment_start(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\'' || line[i] == '"') {
      i = skip_string(line, i) - 1;
    } else if (line[i] == '#') {
      return i;
    }
  }
  return std::string_view::npos;
}

int bracket_balance(std::string_view line) {
  int balance = 0;
  const std::string_view code = line.substr(0, comment_start(line));
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '\'' || code[i] == '"') {
      i = skip_string(code, i) - 1;
    } else if (is_open(code[i])) {
      ++balance;
    } else if (is_close(code[i])) {
      --balance;
    }
  }
  return balance;
}

std::size_t find_closing(std::string_view text, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '\'' || text[i] == '"') {
      i = skip_string(text, i) - 1;
    } else if (is_open(text[i])) {
      ++depth;
    } else if (is_close(text[i]) && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

std::vector<std::string> split_top_level(std::string_view text, char sep) {
  std::vector<std::string> pieces;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\'' || text[i] == '"') {
      i = skip_string(text, i) - 1;
    } else if (is_open(text[i])) {
      ++depth;
    } else if (is_close(text[i])) {
      --depth;
    } else if (text[i] == sep && depth == 0) {
      pieces.emplace_back(trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  const std::string_view last = trim(text.substr(start));
  if (!last.empty()) pieces.emplace_back(last);
  return pieces;
}

std::pair<std::string, std::string> split_keyword(std::string_view text) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      i = skip_string(text, i) - 1;
    } else if (is_open(c)) {
      ++depth;
    } else if (is_close(c)) {
      --depth;
    } else if (c == '=' && depth == 0) {
      const bool doubled = i + 1 < text.size() && text[i + 1] == '=';
      const bool compound =
          i > 0 && std::string_view("=!<>+-*/%&|^").find(text[i - 1]) != std::string_view::npos;
      if (doubled || compound) return {"", std::string(trim(text))};
      return {std::string(trim(text.substr(0, i))), std::string(trim(text.substr(i + 1)))};
    }
  }
  return {"", std::string(trim(text))};
}

std::vector<std::string> assigned_names(std::string_view statement, std::string* rhs) {
  auto [left, right] = split_keyword(statement);
  if (left.empty()) return {};
  std::vector<std::string> names = split_top_level(left);
  for (const auto& name : names) {
    if (!is_identifier(name)) return {};
  }
  *rhs = std::move(right);
  return names;
}

std::size_t indentation(std::string_view line) {
  const auto first = line.find_first_not_of(' ');
  return first == std::string_view::npos ? line.size() : first;
}

std::string joined_statement(const std::vector<std::string>& lines, std::size_t& i) {
  std::string text(trim(lines[i]));
  int depth = bracket_balance(lines[i]);
  while (depth > 0 && i + 1 < lines.size()) {
    ++i;
    text += " " + std::string(trim(lines[i]));
    depth += bracket_balance(lines[i]);
  }
  return text;
}

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool is_identifier(std::string_view text) {
  if (text.empty() || !is_ident_start(text[0])) return false;
  for (const char c : text) {
    if (!is_ident_char(c)) return false;
  }
  return true;
}

std::vector<std::string> identifiers(std::string_view text) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '\'' || text[i] == '"') {
      i = skip_string(text, i);
    } else if (is_ident_start(text[i]) && (i == 0 || !is_ident_char(text[i - 1]))) {
      std::size_t end = i;
      while (end < text.size() && is_ident_char(text[end])) {
        ++end;
      }
      names.emplace_back(text.substr(i, end - i));
      i = end;
    } else {
      ++i;
    }
  }
  return names;
}

std::string_view strip_brackets(std::string_view text) {
  text = trim(text);
  if (!text.empty() && is_open(text[0]) && find_closing(text, 0) == text.size() - 1) {
    return trim(text.substr(1, text.size() - 2));
  }
  return text;
}

nlohmann::ordered_json parse_literal(std::string_view text) {
  LiteralReader reader(text);
  nlohmann::ordered_json value = reader.value();
  if (!reader.at_end()) return std::string(trim(text));
  return value;
}

}  // namespace kernelopt::inductor::detail
