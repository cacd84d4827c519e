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
exec "$python" "$here/tests/benchmarks/bench_run.py" --poslab "$poslab" \
  --baseline "$here/tests/benchmarks/numpy_baseline.py" --python "$python" "$@"
