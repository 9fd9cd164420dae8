// Instrumented output code: a `_ko_mark()` call before the first launch of `call` and after every
// launch, so that the worker can time each launch with CUDA events. Everything else stays byte for
// byte; the worker injects `_ko_mark` into the module's globals.
#pragma once

#include <string>

#include "kernelopt/inductor/output_code.hpp"

namespace kernelopt::recompose {

struct Instrumented {
  std::string text;  // the patched module
  int marks = 0;     // how many _ko_mark() calls one run of `call` makes (launches + 1, or 0)
  int launches = 0;  // how many launches are timed
};

// Inserts the marks; `code` must be the parse of `text`.
Instrumented instrument_launches(const std::string& text, const inductor::OutputCode& code);

}  // namespace kernelopt::recompose
