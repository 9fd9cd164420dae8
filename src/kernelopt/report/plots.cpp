#include "kernelopt/report/plots.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/report/svg.hpp"

namespace kernelopt::report {

namespace {

constexpr double kWidth = 1000;
constexpr double kLeft = 300;  // room for problem names
constexpr double kRight = 40;
constexpr double kRowHeight = 16;

struct Bin {
  double low;
  double high;
  const char* label;
};

constexpr std::array<Bin, 9> kBins = {{{0, 0.9, "<0.9"},
                                       {0.9, 0.97, "0.9-0.97"},
                                       {0.97, 1.01, "0.97-1.01"},
                                       {1.01, 1.1, "1.01-1.1"},
                                       {1.1, 1.25, "1.1-1.25"},
                                       {1.25, 1.5, "1.25-1.5"},
                                       {1.5, 2, "1.5-2"},
                                       {2, 5, "2-5"},
                                       {5, INFINITY, ">=5"}}};

// A log10 axis from `low` to `high` mapped onto [x0, x1].
struct LogAxis {
  double low;
  double high;
  double x0;
  double x1;

  double x(double value) const {
    const double v = std::clamp(value, low, high);
    return x0 +
           (x1 - x0) * (std::log10(v) - std::log10(low)) / (std::log10(high) - std::log10(low));
  }

  // Ticks at 1, 2, 5 times powers of ten inside the axis (finer within one decade), with grid
  // lines down to `bottom`.
  void draw(Svg& svg, double top, double bottom) const {
    const bool narrow = high / low < 10;
    const std::vector<double> steps =
        narrow ? std::vector<double>{1, 1.25, 1.5, 2, 3, 5, 7} : std::vector<double>{1, 2, 5};
    for (int e = -3; e <= 6; ++e) {
      for (const double m : steps) {
        const double v = m * std::pow(10.0, e);
        if (v < low || v > high) continue;
        svg.line(x(v), top, x(v), bottom, v == 1.0 ? "#555" : "#ddd", v == 1.0 ? 1.5 : 1);
        svg.text(x(v), bottom + 14, fmt::format("{:g}x", v), Anchor::kMiddle, 11, "#444");
      }
    }
  }
};

double number(const nlohmann::json& row, const char* key) {
  return row.contains(key) && row.at(key).is_number() ? row.at(key).get<double>() : NAN;
}

std::string label(const nlohmann::json& row) {
  std::string name = fmt::format("L{} {}", row.value("level", 0), row.value("problem", "?"));
  return name.size() > 44 ? name.substr(0, 43) + "~" : name;
}

void legend(Svg& svg, double y) {
  double x = kLeft;
  for (const char* cls :
       {"optimized", "matched (optimized)", "matched (synthesis failed)", "fallback", "failed"}) {
    svg.rect(x, y - 10, 12, 12, class_colour(cls));
    svg.text(x + 16, y, cls, Anchor::kStart, 11);
    x += 30 + 6.5 * static_cast<double>(std::string(cls).size());
  }
}

std::vector<nlohmann::json> with_number(const nlohmann::json& rows, const char* key) {
  std::vector<nlohmann::json> out;
  for (const auto& row : rows) {
    if (!std::isnan(number(row, key))) out.push_back(row);
  }
  return out;
}

LogAxis axis_for(const std::vector<double>& values, double at_least_low, double at_least_high) {
  double low = at_least_low;
  double high = at_least_high;
  for (const double v : values) {
    if (v > 0) {
      low = std::min(low, v / 1.1);
      high = std::max(high, v * 1.1);
    }
  }
  return {low, high, kLeft, kWidth - kRight};
}

}  // namespace

std::string class_colour(const std::string& outcome_class) {
  if (outcome_class == "optimized") return "#2a9d3f";
  if (outcome_class == "matched (optimized)") return "#8cc084";
  if (outcome_class == "matched (synthesis failed)") return "#7b8fa6";
  if (outcome_class == "fallback") return "#e9a23b";
  return "#d1495b";
}

std::string speedup_histogram_svg(const nlohmann::json& rows) {
  std::array<int, kBins.size()> counts{};
  for (const auto& row : rows) {
    const double s = number(row, "speedup");
    for (std::size_t i = 0; i < kBins.size() && !std::isnan(s); ++i) {
      if (s >= kBins[i].low && s < kBins[i].high) ++counts[i];
    }
  }
  const int highest = *std::max_element(counts.begin(), counts.end());
  const int step = std::max(1, (highest + 3) / 4);  // four integer ticks at most
  const int most = 4 * step;
  const double top = 20;
  const double bottom = 260;
  const double left = 60;
  const double slot = (kWidth - left - kRight) / static_cast<double>(kBins.size());
  Svg svg(kWidth, bottom + 50);
  for (int t = 0; t <= 4; ++t) {
    const double y = bottom - (bottom - top) * t / 4.0;
    svg.line(left, y, kWidth - kRight, y, "#e5e5e5");
    svg.text(left - 6, y + 4, std::to_string(step * t), Anchor::kEnd, 11, "#444");
  }
  for (std::size_t i = 0; i < kBins.size(); ++i) {
    const double h = (bottom - top) * counts[i] / most;
    const double x = left + slot * static_cast<double>(i);
    const char* colour = kBins[i].high <= 0.97   ? "#d1495b"
                         : kBins[i].high <= 1.01 ? "#7b8fa6"
                                                 : "#2a9d3f";
    svg.rect(x + 6, bottom - h, slot - 12, h, colour,
             fmt::format("speedup {}: {} problems", kBins[i].label, counts[i]));
    if (counts[i] > 0) {
      svg.text(x + slot / 2, bottom - h - 4, std::to_string(counts[i]), Anchor::kMiddle, 12);
    }
    svg.text(x + slot / 2, bottom + 16, kBins[i].label, Anchor::kMiddle, 11, "#444");
  }
  svg.line(left, bottom, kWidth - kRight, bottom, "#444");
  svg.text((left + kWidth) / 2, bottom + 38, "speedup over the baseline (replay_ms / optimized ms)",
           Anchor::kMiddle, 12, "#444");
  svg.text(16, (top + bottom) / 2, "problems", Anchor::kMiddle, 12, "#444", -90);
  return svg.str();
}

std::string speedup_bars_svg(const nlohmann::json& rows) {
  std::vector<nlohmann::json> sorted = with_number(rows, "speedup");
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return number(a, "speedup") > number(b, "speedup");
  });
  std::vector<std::string> missing;
  for (const auto& row : rows) {
    if (std::isnan(number(row, "speedup"))) {
      missing.push_back(label(row) + ": " + row.value("class", "") + " (" +
                        row.value("reason", "") + ")");
    }
  }
  std::vector<double> values;
  for (const auto& row : sorted) {
    values.push_back(number(row, "speedup"));
    values.push_back(number(row, "speedup_low"));
    values.push_back(number(row, "speedup_high"));
  }
  const double top = 34;
  const double bottom = top + kRowHeight * static_cast<double>(sorted.size());
  const LogAxis axis = axis_for(values, 0.5, 2.0);
  Svg svg(kWidth, bottom + 40 + kRowHeight * static_cast<double>(missing.size()));
  legend(svg, 16);
  axis.draw(svg, top, bottom);
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const auto& row = sorted[i];
    const double y = top + kRowHeight * static_cast<double>(i);
    const double s = number(row, "speedup");
    const std::string colour = class_colour(row.value("class", ""));
    const std::string tip =
        fmt::format("{}: {:.3f}x, {}{}", label(row), s, row.value("class", ""),
                    row.value("reason", "").empty() ? "" : " (" + row.value("reason", "") + ")");
    svg.text(kLeft - 8, y + 12, label(row), Anchor::kEnd, 11);
    const double x1 = axis.x(1.0);
    const double xs = axis.x(s);
    svg.rect(std::min(x1, xs), y + 3, std::abs(xs - x1), kRowHeight - 6, colour, tip);
    const double lo = number(row, "speedup_low");
    const double hi = number(row, "speedup_high");
    if (!std::isnan(lo) && !std::isnan(hi)) {
      svg.line(axis.x(lo), y + kRowHeight / 2, axis.x(hi), y + kRowHeight / 2, "#222");
    }
    svg.circle(xs, y + kRowHeight / 2, 3.5, colour, tip);
  }
  for (std::size_t i = 0; i < missing.size(); ++i) {
    svg.text(kLeft, bottom + 34 + kRowHeight * static_cast<double>(i), missing[i], Anchor::kStart,
             11, class_colour("failed"));
  }
  return svg.str();
}

std::string headroom_svg(const nlohmann::json& rows) {
  std::vector<nlohmann::json> sorted = with_number(rows, "headroom_before");
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return number(a, "headroom_before") > number(b, "headroom_before");
  });
  std::vector<double> values;
  for (const auto& row : sorted) {
    values.push_back(number(row, "headroom_before"));
    values.push_back(number(row, "headroom_after"));
  }
  const double top = 34;
  const double bottom =
      top + kRowHeight * static_cast<double>(std::max<std::size_t>(1, sorted.size()));
  const LogAxis axis = axis_for(values, 0.9, 2.0);
  Svg svg(kWidth, bottom + 40);
  svg.circle(kLeft + 6, 12, 6, "#f4c27a");
  svg.text(kLeft + 16, 16, "before (the baseline)", Anchor::kStart, 11);
  svg.circle(kLeft + 186, 12, 3.5, "#1f5fa8");
  svg.text(kLeft + 196, 16, "after (the returned module)", Anchor::kStart, 11);
  axis.draw(svg, top, bottom);
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const auto& row = sorted[i];
    const double y = top + kRowHeight * static_cast<double>(i) + kRowHeight / 2;
    const double before = number(row, "headroom_before");
    const double after = number(row, "headroom_after");
    svg.text(kLeft - 8, y + 4, label(row), Anchor::kEnd, 11);
    svg.line(axis.x(1.0), y, axis.x(before), y, "#eee", 6);
    svg.circle(axis.x(before), y, 6, "#f4c27a",
               fmt::format("{}: before {:.2f}x of its floor", label(row), before));
    if (!std::isnan(after)) {
      svg.line(axis.x(before), y, axis.x(after), y, "#1f5fa8", 1.5);
      svg.circle(axis.x(after), y, 3.5, "#1f5fa8",
                 fmt::format("{}: after {:.2f}x of its floor", label(row), after));
    }
  }
  svg.text((kLeft + kWidth) / 2, bottom + 34, "headroom: time / floor (1x = at the floor)",
           Anchor::kMiddle, 12, "#444");
  return svg.str();
}

}  // namespace kernelopt::report
