#!/usr/bin/env bash
# PosLab benchmark: `poslab compute scores --summary` against the NumPy (OpenBLAS) baseline on the
# same work, in the same run, with cross-checked results. Builds nothing: `packaging/setup.sh bench`
# builds the release preset and then runs this. Options are passed to bench_run.py
# (--repeat N, --length N, --dim d). POSLAB=/path/to/poslab overrides the executable.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
poslab=${POSLAB:-$here/build/release/app/poslab}
python=/usr/bin/python3
if [ ! -x "$poslab" ]; then
  echo "run_benchmarks: $poslab is missing; build it first (packaging/setup.sh bench does)" >&2
  exit 1
fi
if ! "$python" -c 'import numpy' 2>/dev/null; then
  echo "run_benchmarks: $python cannot import numpy (Debian: apt-get install python3-numpy libopenblas0-pthread)" >&2
  exit 1
fi
echo "poslab: $poslab ($("$poslab" --version))"
echo "NumPy:  $("$python" -c 'import numpy; print(numpy.__version__)') with $("$python" -c 'import numpy; c = numpy.__config__; print("OpenBLAS" if "openblas" in str(getattr(c, "blas_opt_info", "")).lower() or "openblas" in str(c.__dict__).lower() else "its BLAS")' 2>/dev/null || echo "its BLAS")"
echo "CPU:    $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') ($(nproc) cores)"
echo
baseline="$here/tests/benchmarks/numpy_baseline.py"
"$python" "$here/tests/benchmarks/bench_run.py" --poslab "$poslab" \
  --baseline "$baseline" --python "$python" "$@"
decay="$(dirname "$poslab")/../tests/benchmarks/bench_decay"
if [ -x "$decay" ]; then
  echo
  echo "Decay curves (decayCurve in process, median of 7; NumPy the same curve in the same run):"
  "$python" "$here/tests/benchmarks/bench_decay.py" --bench "$decay"
else
  echo "run_benchmarks: $decay is missing; build the release preset (packaging/setup.sh bench)" >&2
  exit 1
fi
heat="$(dirname "$poslab")/../tests/benchmarks/bench_heatmap"
if [ -x "$heat" ]; then
  echo
  echo "Heatmap at N = 65536 (computeHeatmap, 512 × 512 pixels, exact mean/max per block, median of 9; target 16.7 ms):"
  "$heat"
else
  echo "run_benchmarks: $heat is missing; build the release preset (packaging/setup.sh bench)" >&2
  exit 1
fi
prec="$(dirname "$poslab")/../tests/benchmarks/bench_precision"
if [ -x "$prec" ]; then
  echo
  echo "Precision view at N = 8192 (computePrecision + renderPrecision at the window's 1075 × 291, median of 9; target 33 ms):"
  "$prec"
else
  echo "run_benchmarks: $prec is missing; build the release preset (packaging/setup.sh bench)" >&2
  exit 1
fi
live="$(dirname "$poslab")/../tests/benchmarks/bench_live_update"
if [ -x "$live" ]; then
  echo
  echo "Live update of the main window (offscreen on one 3840x2160 screen, all four views):"
  # (the window keeps within its screen: the offscreen default, 800x800, would shrink it)
  QT_QPA_PLATFORM="offscreen:configfile=$here/tests/ui/data/one-screen-3840.json" "$live"
else
  echo "run_benchmarks: $live is missing; build the release preset (packaging/setup.sh bench)" >&2
  exit 1
fi
enl="$(dirname "$poslab")/../tests/benchmarks/bench_enlarge"
if [ -x "$enl" ]; then
  echo
  QT_QPA_PLATFORM=offscreen "$enl"
else
  echo "run_benchmarks: $enl is missing; build the release preset (packaging/setup.sh bench)" >&2
  exit 1
fi
positions="$(dirname "$poslab")/../tests/benchmarks/bench_positions"
if [ -x "$positions" ]; then
  echo
  echo "Multimodal positions (1000 text tokens, image:1x74x74, video:30x40x40; target 50 ms):"
  echo "  in process (layout, ids, JSON; median of 9): $("$positions")"
  # End to end: the whole command as a user runs it (process start, parse, compute, print).
  "$python" - "$poslab" <<'PY'
import subprocess, sys, time
cmd = [sys.argv[1], "compute", "positions", "--tokens", "text:1000,image:1x74x74,video:30x40x40"]
ms = []
for _ in range(9):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    ms.append((time.perf_counter() - t) * 1000)
ms.sort()
print(f"  poslab compute positions, end to end: median {ms[4]:.1f} ms, min {ms[0]:.1f} ms (of 9)")
PY
else
  echo "run_benchmarks: $positions is missing; build the release preset (packaging/setup.sh bench)" >&2
  exit 1
fi
pymod="$(dirname "$poslab")/../python"
if [ -d "$pymod/poslab" ]; then
  echo
  echo "import poslab: poslab.scores(method=\"rope\", dim=128, length=4096) against NumPy and the command line's JSON:"
  PYTHONPATH="$pymod" QT_QPA_PLATFORM=offscreen "$python" "$here/tests/benchmarks/bench_python.py" --poslab "$poslab"
else
  echo "run_benchmarks: $pymod/poslab is missing (the release preset builds it when pybind11-dev and python3-dev are installed)" >&2
  exit 1
fi
