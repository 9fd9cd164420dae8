#!/usr/bin/env bash
# For each problem: `kernelopt optimize` (which times the module it writes as deployed), then
# `load_parity.py` on the run in a process of its own; one row a problem in OUT/table.md: the
# gate's ratio, optimize's deployed ratio, load's ratio here and how far apart they are, the same
# with the inputs in place, the like-for-like replayed parity, the input bytes copied per call.
#
# usage: scripts/gpu/deployed_suite.sh OUT PROBLEM.py...
#   env: KERNELOPT (the engine binary, default build/release/tools/kernelopt/kernelopt),
#        BUDGET (search seconds, 20), SAMPLES (load_parity's calls a variant, 150)
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUT PROBLEM.py..." >&2; exit 2; }
out=$1; shift
engine=${KERNELOPT:-build/release/tools/kernelopt/kernelopt}
[ -x "$engine" ] || { echo "deployed_suite: no engine at $engine (set KERNELOPT)" >&2; exit 2; }
mkdir -p "$out"
export KERNELOPT_PYTHON_DIR=${KERNELOPT_PYTHON_DIR:-$PWD/python} PYTHONUNBUFFERED=1
for problem in "$@"; do
  [ -f "$problem" ] || { echo "deployed_suite: $problem: no such file" >&2; continue; }
  tag=$(basename "$(dirname "$problem")")_$(basename "$problem" .py)
  run=$out/runs/$tag
  "$engine" optimize "$problem" -o "$run" --budget "${BUDGET:-20}" --no-cache \
    > "$out/$tag.optimize.txt" 2> "$out/$tag.optimize.err"
  if [ -f "$run/optimized/manifest.json" ]; then
    python3 scripts/gpu/load_parity.py "$run" --samples "${SAMPLES:-150}" --out "$out/$tag.parity.json" \
      > /dev/null 2> "$out/$tag.parity.err"
  fi
  tail -3 "$out/$tag.optimize.txt"
done
python3 - "$out" > "$out/table.md" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
def interval(d, key="ratio"):
    return f"{d[key]:.3f} [{d[key + '_low']:.3f}, {d[key + '_high']:.3f}]" if d.get(key) is not None else "-"
print("| problem | gate | optimize, as deployed | load here | apart | in place: optimize / here | replayed parity | input MB |")
print("|---|---|---|---|---|---|---|---|")
for run in sorted(glob.glob(os.path.join(out, "runs", "*"))):
    tag = os.path.basename(run)
    doc = json.load(open(os.path.join(run, "optimize.json"))) if os.path.isfile(os.path.join(run, "optimize.json")) else {}
    outcome, deployed = doc.get("outcome") or {}, doc.get("deployed") or {}
    path = os.path.join(out, tag + ".parity.json")
    parity = json.load(open(path)) if os.path.isfile(path) else {}
    variants = parity.get("variants") or {}
    apart = (parity.get("deployed_parity") or {}).get("module", {}).get("difference")
    here_in_place = variants.get("load (inputs in place)", {}).get("speedup")
    replayed = parity.get("parity") or {}
    print(f"| {tag} | {outcome.get('class', '-')} {interval(outcome)} | {interval(deployed) if 'ratio' in deployed else deployed.get('error', '-')} "
          f"| {interval(variants.get('load', {}), 'speedup')} | {'-' if apart is None else f'{apart * 100:+.1f}%'} "
          f"| {(deployed.get('in_place') or {}).get('ratio', float('nan')):.3f} / {here_in_place or float('nan'):.3f} "
          f"| {replayed.get('measured', float('nan')):.3f} vs {replayed.get('recorded', float('nan')):.3f} "
          f"| {parity.get('input_bytes', 0) / 1e6:.0f} |")
PY
cat "$out/table.md"
