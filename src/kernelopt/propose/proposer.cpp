#include "kernelopt/propose/proposer.hpp"

namespace kernelopt::propose {

std::vector<nlohmann::json> neighbours_in(const KnobSpace& space,
                                          const nlohmann::json& settings,
                                          const std::function<bool(const nlohmann::json&)>& fits) {
  const auto within = [&](const nlohmann::json& s) {
    long product = 1;
    for (const char* key : space.elements) {
      product *= s.value(key, 1L);
    }
    return product <= space.max_elements && fits(s);
  };
  std::vector<nlohmann::json> out;
  for (const Knob& knob : space.knobs) {
    const bool toggle = knob.kind == Knob::Kind::kToggle;
    if (!settings.contains(knob.key) && !(toggle && knob.absent >= 0)) continue;
    const long value = settings.value(knob.key, knob.absent);
    if (toggle) {
      nlohmann::json s = settings;
      s[knob.key] = value != 0 ? 0 : 1;
      out.push_back(std::move(s));
      continue;
    }
    for (const long next : {value * 2, value / 2}) {
      if (value == 0 || next < knob.low || next > knob.high) continue;
      nlohmann::json s = settings;
      s[knob.key] = next;
      if (within(s)) out.push_back(std::move(s));
    }
  }
  return out;
}

KnobSpace Proposer::knobs(const Match& /*match*/, const nlohmann::json& /*settings*/) const {
  return {};
}

std::vector<nlohmann::json> Proposer::neighbours(const Match& match,
                                                 const nlohmann::json& settings) const {
  return neighbours_in(knobs(match, settings), settings,
                       [&](const nlohmann::json& s) { return fits(match, s); });
}

bool Proposer::fits(const Match& /*match*/, const nlohmann::json& /*settings*/) const {
  return true;
}

void Proposer::observe(const Match& /*match*/,
                       const nlohmann::json& /*settings*/,
                       const search::Attempt& /*attempt*/) {}

std::optional<nlohmann::json> Proposer::retry(const Match& /*match*/,
                                              const nlohmann::json& /*settings*/,
                                              const search::Attempt& /*attempt*/) {
  return std::nullopt;
}

nlohmann::json Proposer::usage() const {
  return nullptr;
}

std::string Proposer::strategy() const {
  return family() == "recipe" ? "recipe:" + std::string(name()) : std::string(name());
}

}  // namespace kernelopt::propose
