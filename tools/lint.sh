#!/usr/bin/env bash
# clang-format (no diff allowed) and clang-tidy (no warning allowed) over the project's C++.
# Needs a configured build folder for compile_commands.json (default build/ci).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
mapfile -t files < <(git ls-files -co --exclude-standard 'src/*.cpp' 'src/*.hpp' 'tools/*.cpp' \
                     'tests/*.cpp' | sort)
clang-format --dry-run --Werror "${files[@]}"
echo "lint: clang-format clean (${#files[@]} files)"
mapfile -t units < <(printf '%s\n' "${files[@]}" | grep '\.cpp$')
printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet 2>/dev/null \
  > "$build/tidy.log" || { grep -E 'warning|error' "$build/tidy.log" | head -50; exit 1; }
echo "lint: clang-tidy clean (${#units[@]} files)"
