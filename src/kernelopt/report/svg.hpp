// A minimal SVG writer for the report's plots: shapes and text appended in order, every attribute
// value and text escaped, one well-formed <svg> element out. No scripts, no external references.
#pragma once

#include <string>
#include <string_view>

namespace kernelopt::report {

// Escapes &, <, >, " and ' for XML text and attribute values.
std::string xml_escape(std::string_view text);

// Where a text's x coordinate is: its start, middle or end.
enum class Anchor { kStart, kMiddle, kEnd };

class Svg {
 public:
  // A drawing of `width` x `height` user units (pixels at 100% zoom).
  Svg(double width, double height);

  // A filled rectangle; `tooltip` (when not empty) becomes its <title>, shown on hover.
  void rect(
      double x, double y, double w, double h, std::string_view fill, std::string_view tooltip = "");

  // A line; `dash` is an SVG stroke-dasharray such as "4 3", or empty for a solid line.
  void line(double x1,
            double y1,
            double x2,
            double y2,
            std::string_view stroke,
            double width = 1,
            std::string_view dash = "");

  // A circle with a tooltip.
  void circle(double cx, double cy, double r, std::string_view fill, std::string_view tooltip = "");

  // Text at (x, y) (y is the baseline); `rotate` in degrees about (x, y).
  void text(double x,
            double y,
            std::string_view content,
            Anchor anchor = Anchor::kStart,
            double size = 12,
            std::string_view fill = "#222",
            double rotate = 0);

  // The whole <svg> element.
  std::string str() const;

 private:
  double width_;
  double height_;
  std::string body_;  // the elements so far
};

}  // namespace kernelopt::report
