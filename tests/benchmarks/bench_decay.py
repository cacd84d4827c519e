#!/usr/bin/env python3
"""Decay curves: poslab's decayCurve() (bench_decay, timed in process) for every method, beside
NumPy computing the same curve in the same run, with the results cross-checked.

NumPy does what a user would write: angles d·θ for every distance and pair (in chunks of 65 536
distances so that memory stays bounded), np.cos/np.sin, and the sum over pairs, float64:
  rope (half layout, base 10000, formula content)   s·Σ_i [A_i cos(dθ_i) + B_i sin(dθ_i)]
  sinusoidal (interleaved, Vaswani, double)         s·Σ_i cos(d·w_i)
Each timing is the median of --repeat runs inside one process (no start-up, no printing):
the computation only, for both. Cross-check: sum, min and max agree to a relative 1e-9.
  bench_decay.py --bench build/release/tests/benchmarks/bench_decay [--repeat N]
"""
import argparse
import json
import math
import subprocess
import sys
import time

import numpy as np

CHUNK = 65536


def formula_row(dim, offset):
    n = np.arange(dim, dtype=np.float64)
    return np.sin(offset[0] + offset[1] * n)


def numpy_rope(D, dim, base):
    q = formula_row(dim, (0.5, 0.7))
    k = formula_row(dim, (0.3, 1.1))
    h = dim // 2
    theta = base ** (-np.arange(0, dim, 2, dtype=np.float64) / dim)
    A = q[:h] * k[:h] + q[h:] * k[h:]
    B = q[:h] * k[h:] - q[h:] * k[:h]
    out = np.empty(D + 1)
    for a in range(0, D + 1, CHUNK):
        d = np.arange(a, min(D + 1, a + CHUNK), dtype=np.float64)[:, None]
        ang = d * theta[None, :]
        out[a : a + d.shape[0]] = np.cos(ang) @ A + np.sin(ang) @ B
    return out / math.sqrt(dim)


def numpy_sinusoidal(D, dim, base):
    w = base ** (-2.0 * np.arange(dim // 2, dtype=np.float64) / dim)
    out = np.empty(D + 1)
    for a in range(0, D + 1, CHUNK):
        d = np.arange(a, min(D + 1, a + CHUNK), dtype=np.float64)[:, None]
        out[a : a + d.shape[0]] = np.cos(d * w[None, :]).sum(axis=1)
    return out / math.sqrt(dim)


def timed(f, repeat):
    ms = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        v = f()
        ms.append((time.perf_counter() - t0) * 1000)
    ms.sort()
    return ms[len(ms) // 2], v


def rel(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--dim", type=int, default=128)
    a = ap.parse_args()
    failures = 0
    for D, target in ((131072, 16.0), (1048575, 200.0)):
        rows = []
        for pr in ("double", "float32"):
            out = subprocess.run([a.bench, "--max-distance", str(D), "--dim", str(a.dim), "--repeat", str(a.repeat),
                                  "--precision", pr], check=True, capture_output=True, text=True).stdout
            rows += [json.loads(line) for line in out.splitlines() if line.strip()]
        ref = {}
        ref["rope"] = timed(lambda: numpy_rope(D, a.dim, 10000.0), a.repeat)
        ref["sinusoidal"] = timed(lambda: numpy_sinusoidal(D, a.dim, 10000.0), a.repeat)
        print(f"D = {D}, d = {a.dim} (target {target:g} ms for every method, both precisions; exit status: double):")
        print(f"  {'method':<16} {'precision':<9} {'poslab':>10} {'NumPy':>10} {'speed-up':>9}  check")
        for r in rows:
            m, pr = r["method"], r["precision"]
            if "refused" in r:
                print(f"  {m:<16} {pr:<9} refused at once: {r['refused']}")
                failures += pr == "double"
                continue
            npms, check = "", ""
            if m in ref and pr == "double":
                t, v = ref[m]
                npms = f"{t:.1f} ms"
                ok = all(rel(r[key], float(f(v))) <= 1e-9 for key, f in (("sum", np.sum), ("min", np.min), ("max", np.max)))
                check = "agrees (1e-9)" if ok else f"DIFFERS: poslab {r['sum']} NumPy {float(np.sum(v))}"
                failures += not ok
                speed = f"{t / r['ms_median']:.1f}x"
            else:
                speed = ""
            met = "  met" if r["ms_median"] <= target else "  NOT MET"
            print(f"  {m:<16} {pr:<9} {r['ms_median']:>7.1f} ms {npms:>10} {speed:>9}  {check}{met}")
        print()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
