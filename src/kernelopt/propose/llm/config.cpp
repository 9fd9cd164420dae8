// The llm proposer's settings, the check before any GPU work, and its helper process.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/propose/llm.hpp"

namespace kernelopt::propose {

std::string LlmConfig::key_env() const {
  return provider == "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
}

bool LlmConfig::key_required() const {
  return replay_dir.empty() && (provider == "anthropic" || base_url.empty());
}

std::string LlmConfig::label() const {
  return provider + ":" + model;
}

nlohmann::json LlmConfig::request() const {
  nlohmann::json out = {{"provider", provider},
                        {"model", model},
                        {"key_env", key_env()},
                        {"key_required", key_required()},
                        {"response_tokens", response_tokens},
                        {"timeout_s", timeout_s},
                        {"retries", retries},
                        {"backoff_s", backoff_s}};
  if (!base_url.empty()) out["base_url"] = base_url;
  if (!record_dir.empty()) out["record"] = record_dir;
  if (!replay_dir.empty()) out["replay"] = replay_dir;
  return out;
}

void parse_llm_spec(const std::string& spec, LlmConfig& config) {
  const auto colon = spec.find(':');
  const std::string provider = spec.substr(0, colon);
  if (colon == std::string::npos || colon + 1 >= spec.size() ||
      (provider != "anthropic" && provider != "openai")) {
    throw Error("kernelopt.usage",
                fmt::format("--llm {}: expected anthropic:MODEL or openai:MODEL", spec),
                ExitCode::kUsage);
  }
  config.provider = provider;
  config.model = spec.substr(colon + 1);
}

void require_llm_ready(const LlmConfig& config) {
  if (!config.replay_dir.empty() && !std::filesystem::is_directory(config.replay_dir)) {
    throw Error("kernelopt.usage",
                fmt::format("--llm-replay {}: no such folder", config.replay_dir),
                ExitCode::kUsage);
  }
  if (!config.key_required()) return;
  const char* key = std::getenv(config.key_env().c_str());
  if (key == nullptr || *key == '\0') {
    throw Error("kernelopt.usage",
                fmt::format("--llm {}: {} is not set (the key is read from the environment only; "
                            "--llm-replay DIR needs none)",
                            config.label(), config.key_env()),
                ExitCode::kUsage);
  }
}

namespace {

std::optional<LlmConfig>& configured() {
  static std::optional<LlmConfig> config;
  return config;
}

}  // namespace

void configure_llm(std::optional<LlmConfig> config) {
  configured() = std::move(config);
}

const std::optional<LlmConfig>& llm_config() {
  return configured();
}

LlmHelper::LlmHelper(LlmConfig config) : config_(std::move(config)) {}

nlohmann::json LlmHelper::ask(const nlohmann::json& request) {
  if (!process_) {
    worker::WorkerOptions options = worker::default_worker_options(config_.python_dir);
    options.argv.back() = "kernelopt.llm";
    process_ = std::make_unique<worker::Worker>(std::move(options));
  }
  // Every try may take its timeout, and each wait before a retry at most a minute.
  const auto deadline = std::chrono::milliseconds(static_cast<long>(
      1000 * (config_.timeout_s * (config_.retries + 1) + 60.0 * config_.retries + 30)));
  const worker::Reply reply = process_->request(request, deadline);
  if (reply.failure != worker::Failure::kNone) {
    throw Error("kernelopt.llm", fmt::format("the language-model helper {}: {}",
                                             worker::to_string(reply.failure), reply.detail));
  }
  if (!reply.response.value("ok", false)) {
    const nlohmann::json error = reply.response.value("error", nlohmann::json::object());
    throw Error(error.value("tag", std::string("kernelopt.llm")),
                error.value("message", std::string("the helper failed")));
  }
  return reply.response;
}

nlohmann::json LlmHelper::complete(const std::string& role,
                                   const nlohmann::json& context,
                                   const nlohmann::json& match) {
  return ask({{"op", "complete"},
              {"llm", config_.request()},
              {"role", role},
              {"context", context},
              {"match", match}});
}

nlohmann::json LlmHelper::render(const std::string& role, const nlohmann::json& context) {
  return ask({{"op", "render"}, {"role", role}, {"context", context}});
}

}  // namespace kernelopt::propose
