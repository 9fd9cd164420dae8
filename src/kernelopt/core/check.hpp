// An invariant check that stays on in release builds.
#pragma once

#include <cstdio>
#include <cstdlib>

#define KO_CHECK(cond)                                                                            \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      std::fprintf(stderr, "kernelopt: internal invariant failed: %s (%s:%d)\n", #cond, __FILE__, \
                   __LINE__);                                                                     \
      std::abort();                                                                               \
    }                                                                                             \
  } while (false)
