#!/usr/bin/env bash
# PosLab set-up: install what is missing (Debian 12 / Ubuntu), configure, build, then
#   packaging/setup.sh run     start PosLab on its default scene
#   packaging/setup.sh test    run the whole test suite (what .ci/run calls)
#   packaging/setup.sh bench   build the release preset and run the benchmarks
# Idempotent: installs nothing that is present, re-configures only when needed, and the
# build is incremental. Extra arguments after `run` are passed to poslab.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
action=${1:-run}
[ $# -gt 0 ] && shift

packages=(build-essential cmake ninja-build pkg-config libeigen3-dev libsleef-dev
          qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-svg-dev qt6-tools-dev libgl1-mesa-dev
          desktop-file-utils appstream xvfb xauth openbox x11-utils python3-numpy libopenblas0-pthread
          pybind11-dev python3-dev python3-pytest)

install_missing() {
  local missing=()
  if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: this script installs dependencies with apt on Debian 12 or Ubuntu 22.04+." >&2
    echo "setup: on other systems install: CMake >= 3.21, Ninja, a C++20 compiler, Eigen 3.4, SLEEF 3.5," >&2
    echo "setup: Qt >= 6.4 (Core, Gui, Widgets, Svg, Concurrent, PrintSupport, Test), then re-run." >&2
    command -v cmake >/dev/null && return 0 || exit 1
  fi
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  local preset=$1
  if [ ! -f "build/$preset/build.ninja" ]; then
    cmake --preset "$preset" >/dev/null
  fi
  cmake --build --preset "$preset" -j "$(nproc)"
}

install_missing
case "$action" in
  run)
    build dev
    exec ./build/dev/app/poslab "$@"
    ;;
  test)
    build dev
    ctest --preset dev -j "$(nproc)" "$@"
    ;;
  test-asan)
    build asan
    ctest --preset asan -j "$(nproc)" "$@"
    ;;
  bench)
    build release
    exec tests/benchmarks/run_benchmarks.sh "$@"
    ;;
  *)
    echo "usage: packaging/setup.sh run|test|test-asan|bench" >&2
    exit 2
    ;;
esac
