#include "kernelopt/report/svg.hpp"

#include <fmt/format.h>

namespace kernelopt::report {

namespace {

std::string title(std::string_view tooltip) {
  return tooltip.empty() ? "" : fmt::format("<title>{}</title>", xml_escape(tooltip));
}

const char* anchor_name(Anchor anchor) {
  switch (anchor) {
    case Anchor::kStart:
      return "start";
    case Anchor::kMiddle:
      return "middle";
    case Anchor::kEnd:
      return "end";
  }
  return "start";
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

Svg::Svg(double width, double height) : width_(width), height_(height) {}

void Svg::rect(
    double x, double y, double w, double h, std::string_view fill, std::string_view tooltip) {
  body_ += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}">)",
                       x, y, std::max(w, 0.0), std::max(h, 0.0), xml_escape(fill));
  body_ += title(tooltip) + "</rect>\n";
}

void Svg::line(double x1,
               double y1,
               double x2,
               double y2,
               std::string_view stroke,
               double width,
               std::string_view dash) {
  body_ += fmt::format(
      R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="{:.1f}")",
      x1, y1, x2, y2, xml_escape(stroke), width);
  if (!dash.empty()) body_ += fmt::format(R"( stroke-dasharray="{}")", xml_escape(dash));
  body_ += "/>\n";
}

void Svg::circle(double cx, double cy, double r, std::string_view fill, std::string_view tooltip) {
  body_ += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="{:.1f}" fill="{}">)", cx, cy, r,
                       xml_escape(fill));
  body_ += title(tooltip) + "</circle>\n";
}

void Svg::text(double x,
               double y,
               std::string_view content,
               Anchor anchor,
               double size,
               std::string_view fill,
               double rotate) {
  body_ += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="{:.0f}" fill="{}" )"
                       R"(text-anchor="{}")",
                       x, y, size, xml_escape(fill), anchor_name(anchor));
  if (rotate != 0) {
    body_ += fmt::format(" transform=\"rotate({:.0f} {:.1f} {:.1f})\"", rotate, x, y);
  }
  body_ += fmt::format(">{}</text>\n", xml_escape(content));
}

std::string Svg::str() const {
  return fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}" )"
                     R"(viewBox="0 0 {:.0f} {:.0f}" font-family="sans-serif">)"
                     "\n{}</svg>\n",
                     width_, height_, width_, height_, body_);
}

}  // namespace kernelopt::report
