#!/bin/bash
# Measures every CTest test's wall time on this machine (ctest --preset dev -j2, the two-core
# build machine's setting) and writes tests/test_times.cmake, from which tests/CMakeLists.txt
# sets each test's TIMEOUT (3× its time, at least 30 s) and the `fast` label (under 5 s).
# Run from anywhere (on a shared build machine, under its build lock).
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
start=$(date +%s.%N)
ctest --preset dev -j2 --timeout 900 2>&1 | tee "$log" || true
end=$(date +%s.%N)
{
  echo "# Each CTest test's wall time in seconds: ctest --preset dev -j2 on the two-core build machine,"
  echo "# $(date -u +%Y-%m-%d), the whole suite in $(printf '%.0f' "$(echo "$end - $start" | bc)") s. tests/CMakeLists.txt sets each test's TIMEOUT"
  echo "# to 3× its time (at least 30 s; ×10 under AddressSanitizer) and labels the tests under 5 s"
  echo "# \`fast\` (ctest --preset dev -L fast). Remeasure: tests/measure_test_times.sh"
  echo "set(poslab_test_seconds"
  grep -E 'Test +#[0-9]+: ' "$log" | sed -E 's/.*Test +#[0-9]+: ([A-Za-z0-9_]+) \.+.* ([0-9.]+) sec$/  \1 \2/' | sort
  echo ")"
} > tests/test_times.cmake
rm -f "$log"
