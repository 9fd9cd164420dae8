#!/usr/bin/env bash
# clang-format (no diff allowed) and clang-tidy (no warning allowed) over the project's C++.
# clang-tidy reads the compile commands of build/lint, configured here and never built: each file
# is checked on its own, without the precompiled headers of the ci builds (which clang cannot read).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files -co --exclude-standard 'src/*.cpp' 'src/*.hpp' 'tools/*.cpp' \
                     'tests/*.cpp' | sort)
clang-format --dry-run --Werror "${files[@]}"
echo "lint: clang-format clean (${#files[@]} files)"
cmake --preset lint >/dev/null
# Largest files first, one per clang-tidy: the longest start early and the cores finish together.
mapfile -t units < <(printf '%s\n' "${files[@]}" | grep '\.cpp$' | xargs ls -S)
printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -n 1 clang-tidy -p build/lint --quiet 2>/dev/null \
  > build/lint/tidy.log || { grep -E 'warning|error' build/lint/tidy.log | head -50; exit 1; }
echo "lint: clang-tidy clean (${#units[@]} files)"
