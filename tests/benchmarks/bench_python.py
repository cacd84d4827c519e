#!/usr/bin/env python3
"""`import poslab` against NumPy and against the command line's JSON, in one Python process.

  PYTHONPATH=build/release/python python3 tests/benchmarks/bench_python.py \
      --poslab build/release/app/poslab [--repeat 7] [--length 4096] [--dim 128]

Times, for the full N x N score matrix of RoPE (ones content, base 10000, half layout):
  poslab.scores(method="rope", dim=d, length=N)           the module's array (precision float32,
                                                          the default, and double)
  NumPy writing the same matrix in the same process       tests/benchmarks/numpy_baseline.py's
                                                          content() and rope(), then (q @ k.T) * s,
                                                          float64 (and float32 for reference)
  poslab compute scores ... | json.loads -> np.array      at N = 2048, the command line's largest
                                                          printed matrix (process start included)
Each figure is the min and median of --repeat runs (a fresh array each run: page faults
included for every contestant). Cross-check: poslab in double against NumPy float64 to a
relative 1e-12 of the largest score, float32 (angles and rows rounded to float32) to 1e-3, the
JSON path equal to the module's bit for bit.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_baseline  # noqa: E402  (the NumPy baseline's own content() and rope())

import poslab  # noqa: E402


def numpy_scores(n, d, dtype=np.float64):
    q, k = numpy_baseline.content("ones", n, d, 0)
    q, k = numpy_baseline.rope(q, 10000.0, "half"), numpy_baseline.rope(k, 10000.0, "half")
    q, k = q.astype(dtype, copy=False), k.astype(dtype, copy=False)
    return (q @ k.T) * dtype(1.0 / math.sqrt(d))


def json_scores(exe, n, d):
    out = subprocess.run([exe, "compute", "scores", "--method", "rope", "--dim", str(d), "--length", str(n)],
                         check=True, capture_output=True).stdout
    return np.array(json.loads(out)["scores"], dtype=np.float64)


def timed(f, repeat):
    seconds = []
    value = None
    for _ in range(repeat):
        value = None   # the previous result is freed before the next run, as for every contestant
        t0 = time.perf_counter()
        value = f()
        seconds.append(time.perf_counter() - t0)
    seconds.sort()
    return seconds[0], seconds[len(seconds) // 2], value


def row(name, t):
    return "| %s | %.3f s | %.3f s |" % (name, t[0], t[1])


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--poslab", required=True, help="the built poslab executable (for the JSON path)")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--length", type=int, default=4096)
    p.add_argument("--dim", type=int, default=128)
    a = p.parse_args()
    n, d, r = a.length, a.dim, a.repeat
    jn = min(n, 2048)

    print("poslab %s (module %s), NumPy %s, %d cores" % (
        subprocess.run([a.poslab, "--version"], capture_output=True, text=True).stdout.split()[-1],
        poslab.__file__, np.__version__, os.cpu_count()))
    print()
    results = []
    for length in sorted({n, jn}, reverse=True):
        t_py = timed(lambda: poslab.scores(method="rope", dim=d, length=length)["scores"], r)
        t_pyd = timed(lambda: poslab.scores(method="rope", dim=d, length=length, precision="double")["scores"], r)
        t_np = timed(lambda: numpy_scores(length, d), r)
        t_np32 = timed(lambda: numpy_scores(length, d, np.float32), r)
        results.append((length, t_py, t_pyd, t_np, t_np32))
        # Cross-checks.
        scale = np.abs(t_np[2]).max()
        assert t_py[2].shape == (length, length) and t_py[2].dtype == np.float64
        err_d = np.abs(t_pyd[2] - t_np[2]).max() / scale
        err_f = np.abs(t_py[2] - t_np[2]).max() / scale
        assert err_d < 1e-12, err_d
        assert err_f < 1e-3, err_f   # float32 angles i·θ and rows (the frameworks' float32 rounding)
        print("N = %d: poslab double vs NumPy float64: max relative difference %.1e; float32: %.1e" % (length, err_d, err_f))
    t_json = timed(lambda: json_scores(a.poslab, jn, d), r)
    same = [x for x in results if x[0] == jn][0]
    assert np.array_equal(t_json[2], same[1][2]), "the JSON path and the module differ"
    print("N = %d: poslab compute | json.loads equals poslab.scores bit for bit" % jn)
    print()
    print("| d = %d, min / median of %d | min | median |" % (d, r))
    print("| --- | ---: | ---: |")
    for length, t_py, t_pyd, t_np, t_np32 in results:
        print(row("N = %d: `poslab.scores(method=\"rope\", dim=%d, length=%d)` (float32 precision)" % (length, d, length), t_py))
        print(row("N = %d: the same, `precision=\"double\"`" % length, t_pyd))
        print(row("N = %d: NumPy float64 writing the same matrix" % length, t_np))
        print(row("N = %d: NumPy float32 (sgemm; float32 result, for reference)" % length, t_np32))
        if length == jn:
            print(row("N = %d: `poslab compute scores ... \\| json.loads` → np.array" % jn, t_json))
    slow = [(length, t_py[1], t_np[1]) for length, t_py, _, t_np, _ in results if t_py[1] > t_np[1]]
    for length, a_, b_ in slow:
        print("NOTE: at N = %d the module's median %.3f s is slower than NumPy float64's %.3f s" % (length, a_, b_))


if __name__ == "__main__":
    main()
