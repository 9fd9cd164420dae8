#include "kernelopt/worker/fields.hpp"

namespace kernelopt::worker::detail {

namespace {

const nlohmann::json* find(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

double as_number(const nlohmann::json& value) {
  return value.is_number() ? value.get<double>() : kInfinity;
}

}  // namespace

double number(const nlohmann::json& j, const char* key, double absent) {
  const nlohmann::json* value = find(j, key);
  return value == nullptr ? absent : as_number(*value);
}

long integer(const nlohmann::json& j, const char* key, long fallback) {
  const nlohmann::json* value = find(j, key);
  return value != nullptr && value->is_number() ? value->get<long>() : fallback;
}

bool flag(const nlohmann::json& j, const char* key, bool fallback) {
  const nlohmann::json* value = find(j, key);
  return value != nullptr && value->is_boolean() ? value->get<bool>() : fallback;
}

std::string text(const nlohmann::json& j, const char* key, const std::string& fallback) {
  const nlohmann::json* value = find(j, key);
  return value != nullptr && value->is_string() ? value->get<std::string>() : fallback;
}

std::optional<std::string> message(const nlohmann::json& j, const char* key) {
  const nlohmann::json* value = find(j, key);
  if (value == nullptr || value->is_null()) return std::nullopt;
  return value->is_string() ? value->get<std::string>() : value->dump();
}

std::vector<std::string> names(const nlohmann::json& j, const char* key) {
  return each(j, key, [](const nlohmann::json& entry) {
    return entry.is_string() ? entry.get<std::string>() : entry.dump();
  });
}

std::vector<double> numbers(const nlohmann::json& j, const char* key) {
  return each(j, key, as_number);
}

std::vector<std::vector<double>> number_lists(const nlohmann::json& j, const char* key) {
  return each(j, key, [](const nlohmann::json& list) {
    std::vector<double> values;
    if (list.is_array()) {
      for (const auto& entry : list) {
        values.push_back(as_number(entry));
      }
    }
    return values;
  });
}

std::optional<RunError> run_error(const nlohmann::json& j, const char* key) {
  const nlohmann::json* value = find(j, key);
  if (value == nullptr || !value->is_object()) return std::nullopt;
  return RunError{text(*value, "kind", ""), text(*value, "message", "")};
}

const nlohmann::json& array(const nlohmann::json& j, const char* key) {
  static const nlohmann::json empty = nlohmann::json::array();
  const nlohmann::json* value = find(j, key);
  return value != nullptr && value->is_array() ? *value : empty;
}

}  // namespace kernelopt::worker::detail
