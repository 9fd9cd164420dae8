#pragma once
// The seam every proposer plugs into. A proposer turns a strategy into candidate files for one
// segment, ask/tell as TVM MetaSchedule's SearchStrategy: `match` says whether it applies (and
// with which parameters), `initial` and `neighbours` propose launch settings (round 1, then the
// settings next to the beam's best), `source` writes a candidate for a setting, and `observe` is
// told what the gates made of it. The search (search/beam.hpp) drives them; the registry
// (registry.hpp) lists them. Adding a proposer is one file and one line in registry.cpp
// (docs/architecture.md walks through it).
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/propose/match.hpp"
#include "kernelopt/search/roles.hpp"

namespace kernelopt::propose {

// What a proposer sees of a segment when asked whether it applies.
struct SegmentView {
  const inductor::OutputCode& code;  // the graph's output code
  const analysis::DispatchMap& map;  // every launch and segment of the model
  const analysis::Segment& segment;  // the segment asked about
  // The matches of the proposers asked before this one (registry order): split and retile build
  // on the launches that fuse, rewrite and config matched.
  const std::vector<Match>& earlier;
};

// One launch setting the search moves: its key in the settings object and its bounds.
struct Knob {
  enum class Kind {
    kScale,  // doubled and halved within [low, high] (a value of 0 stays 0: "computed")
    kToggle  // 0 <-> 1
  };
  const char* key = "";
  long low = 1;
  long high = 1;
  Kind kind = Kind::kScale;
  // A toggle's value where the settings lack the key (-1: the knob moves only a present key).
  long absent = -1;
};

// The knobs of a proposer's settings, with the limit on what one program holds.
struct KnobSpace {
  std::vector<Knob> knobs;
  // Knobs whose product is the elements one program holds, and its most before registers spill.
  std::vector<const char*> elements;
  long max_elements = 16384;
};

// The one neighbour rule (Inductor's coordinate descent, radius 1): every knob present in
// `settings` moved one step (scaled x2 and /2 within its bounds, a toggle flipped), keeping the
// product of the element knobs within the limit and `fits` true. In knob order.
std::vector<nlohmann::json> neighbours_in(const KnobSpace& space,
                                          const nlohmann::json& settings,
                                          const std::function<bool(const nlohmann::json&)>& fits);

class Proposer {
 public:
  Proposer() = default;
  Proposer(const Proposer&) = delete;
  Proposer& operator=(const Proposer&) = delete;
  Proposer(Proposer&&) = delete;
  Proposer& operator=(Proposer&&) = delete;
  virtual ~Proposer() = default;

  // Its name: the registry's key and the `recipe` of its matches ("config", "scan", ...).
  [[nodiscard]] virtual std::string_view name() const = 0;
  // The planner's family: "recipe" (an op family's template), "config" (Inductor's kernel
  // relaunched), "rewrite" (Inductor's kernel transformed) or "agent" (a language model writes
  // the segment: the llm proposer, asked after the others).
  [[nodiscard]] virtual std::string_view family() const = 0;
  // Whether it applies to the segment: its match, or nullopt.
  [[nodiscard]] virtual std::optional<Match> match(const SegmentView& view) const = 0;
  // Round 1: the starting settings, most promising first.
  [[nodiscard]] virtual std::vector<nlohmann::json> initial(const Match& match) const = 0;
  // The knobs the generic neighbour rule moves from `settings` (none by default).
  [[nodiscard]] virtual KnobSpace knobs(const Match& match, const nlohmann::json& settings) const;
  // Later rounds: the settings next to `settings`. By default the generic rule over knobs(),
  // keeping those that fit(); a proposer adds moves the rule does not know by overriding it.
  [[nodiscard]] virtual std::vector<nlohmann::json> neighbours(
      const Match& match, const nlohmann::json& settings) const;
  // Whether settings can launch at all for the match (true by default).
  [[nodiscard]] virtual bool fits(const Match& match, const nlohmann::json& settings) const;
  // The candidate file (Python: `def run(inputs, outputs)`) for the settings.
  [[nodiscard]] virtual std::string source(const Match& match,
                                           int segment,
                                           const nlohmann::json& settings) const = 0;
  // Tell: what the gates and G4 made of a candidate it proposed. Nothing by default: today's
  // proposers leave what to try next to the planner and the summarizer's memory.
  virtual void observe(const Match& match,
                       const nlohmann::json& settings,
                       const search::Attempt& attempt);

  // A directed retry (the paper's executor, told the gate's error): the settings of a corrected
  // candidate after `attempt` failed a gate, which the search judges next; nullopt (the default)
  // for no retry. observe() has been told of the failure first.
  [[nodiscard]] virtual std::optional<nlohmann::json> retry(const Match& match,
                                                            const nlohmann::json& settings,
                                                            const search::Attempt& attempt);
  // What it spent besides GPU time, for the run's documents (a language model's requests,
  // tokens and cost); null (the default) for the offline proposers.
  [[nodiscard]] virtual nlohmann::json usage() const;

  // The strategy name the planner and the memory use: "recipe:NAME" for a recipe, else name().
  [[nodiscard]] std::string strategy() const;
};

}  // namespace kernelopt::propose
