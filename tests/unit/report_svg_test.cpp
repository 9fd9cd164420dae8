// The report's SVG is well-formed XML (a tiny checker: balanced tags, quoted attributes, no raw
// '<' or stray '&' in text) with the expected number of elements, and text is escaped.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernelopt/report/plots.hpp"
#include "kernelopt/report/report.hpp"
#include "kernelopt/report/summary.hpp"
#include "kernelopt/report/svg.hpp"

namespace kernelopt::report {
namespace {

using nlohmann::json;

// Empty when `xml` is well-formed, else what is wrong.
std::string xml_problem(const std::string& xml) {
  std::vector<std::string> open;
  std::size_t i = 0;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const std::size_t semi = xml.find(';', i);
      const std::string entity = xml.substr(i, semi == std::string::npos ? 8 : semi - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
          entity != "&#39;") {
        return "stray & at " + std::to_string(i);
      }
    }
    if (xml[i] != '<') {
      ++i;
      continue;
    }
    const std::size_t end = xml.find('>', i);
    if (end == std::string::npos) return "unterminated tag";
    const std::string tag = xml.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return "'<' inside a tag: " + tag;
    if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) return "unbalanced quotes: " + tag;
    if (tag.front() == '/') {
      if (open.empty() || open.back() != tag.substr(1)) {
        return "mismatched </" + tag.substr(1) + ">";
      }
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    i = end + 1;
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

json row(const std::string& name, const std::string& cls, json speedup, json headroom) {
  return {{"problem", name},
          {"level", 1},
          {"class", cls},
          {"reason", cls == "failed" ? "timed out" : ""},
          {"speedup", speedup},
          {"speedup_low", speedup},
          {"speedup_high", speedup},
          {"headroom_before", headroom},
          {"headroom_after", headroom.is_number() && speedup.is_number()
                                 ? json(headroom.get<double>() / speedup.get<double>())
                                 : json(nullptr)}};
}

json rows() {
  return json::array({row("1_<Conv&\"Relu\">", "optimized", 2.5, 3.0),
                      row("2_a", "matched (synthesis failed)", 1.0, 1.2),
                      row("3_b", "fallback", 0.95, nullptr), row("4_c", "failed", nullptr, nullptr),
                      row("5_d", "optimized", 12.0, 40.0)});
}

TEST(Svg, EscapesTextAndAttributes) {
  Svg svg(100, 50);
  svg.text(1, 2, "a < b & \"c\"");
  svg.rect(0, 0, 10, 10, "#fff", "tip <x>");
  const std::string out = svg.str();
  EXPECT_EQ(xml_problem(out), "") << out;
  EXPECT_NE(out.find("a &lt; b &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_NE(out.find("<title>tip &lt;x&gt;</title>"), std::string::npos);
  EXPECT_EQ(xml_escape("'"), "&#39;");
}

TEST(Svg, CheckerCatchesBrokenXml) {
  EXPECT_NE(xml_problem("<svg><g></svg>"), "");
  EXPECT_NE(xml_problem("<svg>a & b</svg>"), "");
  EXPECT_NE(xml_problem("<svg><text>"), "");
}

TEST(Plots, HistogramHasOneBarPerBin) {
  const std::string svg = speedup_histogram_svg(rows());
  EXPECT_EQ(xml_problem(svg), "") << svg;
  EXPECT_EQ(count(svg, "<svg"), 1);
  EXPECT_EQ(count(svg, "<rect"), 9);
  EXPECT_NE(svg.find("speedup 2-5: 1 problems"), std::string::npos);
  EXPECT_NE(svg.find("speedup &gt;=5: 1 problems"), std::string::npos);
}

TEST(Plots, BarsHaveOneMarkerPerProblemWithASpeedup) {
  const std::string svg = speedup_bars_svg(rows());
  EXPECT_EQ(xml_problem(svg), "") << svg;
  EXPECT_EQ(count(svg, "<circle"), 4);
  EXPECT_EQ(count(svg, "<rect"), 4 + 5);  // bars plus the legend's swatches
  EXPECT_NE(svg.find("L1 4_c: failed (timed out)"), std::string::npos);
  EXPECT_NE(svg.find("1_&lt;Conv&amp;&quot;Relu&quot;&gt;"), std::string::npos);
  EXPECT_LT(svg.find("L1 5_d"), svg.find("L1 1_&lt;"));  // sorted by speedup, highest first
}

TEST(Plots, HeadroomHasTwoMarkersPerProblemWithAFloor) {
  const std::string svg = headroom_svg(rows());
  EXPECT_EQ(xml_problem(svg), "") << svg;
  EXPECT_EQ(count(svg, "<circle"), 2 + 2 * 3);  // legend plus before and after
}

TEST(Html, OneOfflineFileWithThreePlots) {
  const std::string html = format_report_html(summarize({}), "run <1>");
  EXPECT_EQ(count(html, "<svg"), 3);
  const std::size_t body = html.find("<body>");
  EXPECT_EQ(xml_problem(html.substr(body, html.find("</body>") + 7 - body)), "");
  for (const char* banned : {"<script", "src=", "href=", "<link", "url("}) {
    EXPECT_EQ(html.find(banned), std::string::npos) << banned;
  }
  EXPECT_NE(html.find("run &lt;1&gt;"), std::string::npos);
}

}  // namespace
}  // namespace kernelopt::report
