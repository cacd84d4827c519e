#!/bin/sh
# Builds the libFuzzer targets (the `fuzz` CMake preset: clang, -fsanitize=fuzzer,address,undefined)
# and runs each one.
#
#   tests/fuzz/run_fuzzers.sh [-t SECONDS | -r RUNS] [-j JOBS] [TARGET...]
#
#   -t SECONDS  run each target for SECONDS (default 60)
#   -r RUNS     run each target for RUNS inputs instead
#   -j JOBS     parallel fuzzing processes per target (default 1)
#   TARGET      fuzz_session ... (default: every tests/fuzz/fuzz_*.cpp)
#
# Target fuzz_X starts from the seeds in tests/fuzz/corpus/X/ (read only) and keeps what it
# finds in build/fuzz/corpus/X/; it uses tests/fuzz/X.dict when there is one. A crash, a
# sanitizer report or a contract violation (the targets abort) leaves the input in
# build/fuzz/artifacts/X/ and makes this script exit 1. Each target's last status line
# (executions, coverage) is printed at the end.
#
# Builds take the shared build lock (/tmp/poslab-build.lock), as every build on the project
# machine must; fuzzing does not hold it (one process per target and job, run it briefly).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
seconds=60 runs= jobs=1
while getopts t:r:j: opt; do
    case $opt in
    t) seconds=$OPTARG ;;
    r) runs=$OPTARG ;;
    j) jobs=$OPTARG ;;
    *) echo "usage: $0 [-t SECONDS | -r RUNS] [-j JOBS] [TARGET...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
lock=/tmp/poslab-build.lock

cd "$src"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$src")}" CCACHE_NOHASHDIR=1
if command -v ccache >/dev/null 2>&1; then export CMAKE_CXX_COMPILER_LAUNCHER=ccache; fi
flock "$lock" cmake --preset fuzz >/dev/null
flock "$lock" cmake --build --preset fuzz

if [ $# -eq 0 ]; then
    set --
    for f in "$here"/fuzz_*.cpp; do set -- "$@" "$(basename "$f" .cpp)"; done
fi

status=0
summary=
for target in "$@"; do
    name=${target#fuzz_}
    exe="$src/build/fuzz/tests/fuzz/$target"
    [ -x "$exe" ] || { echo "$0: no fuzz target $target (tests/fuzz/$target.cpp)" >&2; exit 2; }
    work="$src/build/fuzz/corpus/$name" artifacts="$src/build/fuzz/artifacts/$name"
    log="$src/build/fuzz/$target.log"
    mkdir -p "$work" "$artifacts"
    set -- -artifact_prefix="$artifacts/" -print_final_stats=1 -max_len=65536
    [ -f "$here/$name.dict" ] && set -- "$@" -dict="$here/$name.dict"
    if [ -n "$runs" ]; then set -- "$@" -runs="$runs"; else set -- "$@" -max_total_time="$seconds"; fi
    [ "$jobs" -gt 1 ] && set -- "$@" -jobs="$jobs" -workers="$jobs"
    echo "== $target: $*"
    # detect_leaks=0: Qt keeps process-wide caches alive until exit.
    if ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
        "$exe" "$@" "$work" "$here/corpus/$name" >"$log" 2>&1; then
        result=ok
    else
        result="FAILED (see $log and $artifacts/)"
        status=1
    fi
    runs_done=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
    summary="$summary$target: $result; executions: ${runs_done:-?}; last: $last
"
done
printf '%s' "$summary"
exit $status
