// Lenient reads of one field of a worker's answer, for the reply readers: a field that is missing
// or of another type gives the fallback instead of throwing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/worker/replies.hpp"

namespace kernelopt::worker::detail {

// A number; `absent` when `key` is missing; +infinity for anything else: the strings "nan", "inf"
// and "-inf" that stand for floats JSON cannot hold, or null (an error that was not measured).
double number(const nlohmann::json& j, const char* key, double absent);

// An integer (a float is truncated); `fallback` when missing or not a number.
long integer(const nlohmann::json& j, const char* key, long fallback);

// A boolean; `fallback` when missing or not a boolean.
bool flag(const nlohmann::json& j, const char* key, bool fallback);

// A string; `fallback` when missing or not a string.
std::string text(const nlohmann::json& j, const char* key, const std::string& fallback);

// A message that is there (not missing, not null): a string as it is, anything else as JSON.
std::optional<std::string> message(const nlohmann::json& j, const char* key);

// The entries of an array of names; an entry that is not a string as JSON; empty when missing.
std::vector<std::string> names(const nlohmann::json& j, const char* key);

// The entries of an array of numbers, each as number() reads it; empty when missing.
std::vector<double> numbers(const nlohmann::json& j, const char* key);

// An array of arrays of numbers (samples per instance); empty when missing.
std::vector<std::vector<double>> number_lists(const nlohmann::json& j, const char* key);

// The object under `key` as `{kind, message}`; nullopt when missing, null or not an object.
std::optional<RunError> run_error(const nlohmann::json& j, const char* key);

// The array under `key`, or an empty array.
const nlohmann::json& array(const nlohmann::json& j, const char* key);

// Each entry of the array under `key` as `read` reads it; empty when missing.
template <typename Read>
auto each(const nlohmann::json& j, const char* key, Read read) {
  std::vector<decltype(read(j))> out;
  for (const auto& entry : array(j, key)) {
    out.push_back(read(entry));
  }
  return out;
}

}  // namespace kernelopt::worker::detail
