#!/usr/bin/env bash
# Ray for a GPU machine that has no package access: `pack` (here, with network) downloads Ray and
# its dependencies for the GPU machine's Python and packs them small enough to travel with a run;
# `install` (there) unpacks them into a folder to put on PYTHONPATH.
#
# Ray's wheel is about 79 MiB. Unpacked without its Java jars and RLlib (neither is used by
# `bench --executor ray`) and packed with xz, it is about 31 MiB.
#
# Usage:
#   scripts/gpu/ray_bundle.sh pack BUNDLE_DIR [PYTHON_VERSION]   # default 3.12
#   scripts/gpu/ray_bundle.sh install BUNDLE_DIR TARGET_DIR      # then PYTHONPATH=TARGET_DIR:...
# The version of Ray is the one scripts/setup.sh installs.
set -euo pipefail
ray_version=2.60.0
usage() { sed -n '2,12p' "$0" >&2; exit 2; }
(($# >= 2)) || usage
step=$1
bundle=$2

pack() {
  local version=${1:-3.12} tag work
  tag=cp${version/./}
  work=$(mktemp -d)
  trap 'rm -rf "$work"' RETURN
  python3 -m pip download -q "ray==$ray_version" --python-version "$version" \
    --platform manylinux2014_x86_64 --only-binary=:all: -d "$work/wheels"
  mkdir -p "$bundle/deps" "$work/ray"
  unzip -q "$work"/wheels/ray-"$ray_version"-*.whl -d "$work/ray"  # unzip keeps the binaries executable
  tar cf - -C "$work/ray" --exclude=ray/jars --exclude=ray/rllib . | xz -T1 -6 > "$bundle/ray-$tag.tar.xz.tmp"
  mv "$bundle/ray-$tag.tar.xz.tmp" "$bundle/ray-$tag.tar.xz"
  find "$work/wheels" -name '*.whl' ! -name 'ray-*' -exec cp {} "$bundle/deps/" \;
  du -sh "$bundle"
}

install() {
  local target=$1 tag wheel module
  tag=$(python3 -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
  [[ -f $bundle/ray-$tag.tar.xz ]] || { echo "ray_bundle: no ray-$tag.tar.xz in $bundle" >&2; exit 1; }
  mkdir -p "$target"
  tar xJf "$bundle/ray-$tag.tar.xz" -C "$target"
  # A dependency the machine already has is left alone: torch's own packages stay as they are.
  for wheel in "$bundle"/deps/*.whl; do
    module=$(basename "$wheel" | cut -d- -f1 | tr 'A-Z' 'a-z')
    case $module in
      pyyaml) module=yaml ;;
      protobuf) module=google.protobuf ;;
      rpds_py) module=rpds ;;
      jsonschema_specifications) ;;
    esac
    python3 -c "import $module" 2>/dev/null && continue
    python3 -m zipfile -e "$wheel" "$target"
  done
  PYTHONPATH=$target${PYTHONPATH:+:$PYTHONPATH} python3 -c 'import ray; print("ray", ray.__version__)'
}

case $step in
  pack) pack "${3:-}" ;;
  install) (($# == 3)) || usage; install "$3" ;;
  *) usage ;;
esac
