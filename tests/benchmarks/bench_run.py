#!/usr/bin/env python3
"""Times `poslab compute scores --summary` against the NumPy baseline on the same work, in the
same run, and cross-checks their numbers. Called by run_benchmarks.sh (which says how).

Wall time: median of --repeat runs of each process (start-up included: what a user waits for).
Peak memory: the child's own ru_maxrss from os.wait4 (the peak resident set of that process).
Cross-check: poslab with --precision double against NumPy's float64 — sum, min and max must agree
to a relative 1e-9 (small cases: every supported method and option; large: the timed cases).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def run_once(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"failed ({p.returncode}): {' '.join(cmd)}\n{err.decode()}")
    return wall, usage.ru_maxrss / 1024.0, json.loads(out)


def rel(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def agree(x, y, tol):
    return all(rel(x[k], y[k]) <= tol or abs(x[k] - y[k]) <= tol for k in ("sum", "min", "max"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--poslab", required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--length", type=int, default=4096)
    ap.add_argument("--dim", type=int, default=128)
    a = ap.parse_args()

    poslab = [a.poslab, "compute", "scores"]
    numpy = [a.python, a.baseline, "scores"]
    failures = 0

    # 1. Cross-check on small problems: every method/option the baseline supports.
    small = []
    for content in ("ones", "formula"):
        for extra in ([], ["--causal"], ["--softmax"], ["--causal", "--softmax"]):
            small += [
                ["--method", "nope", "--content", content] + extra,
                ["--method", "sinusoidal", "--content", content] + extra,
                ["--method", "sinusoidal", "--content", content, "--base", "500"] + extra,
                ["--method", "rope", "--content", content, "--layout", "half"] + extra,
                ["--method", "rope", "--content", content, "--layout", "interleaved", "--base", "500000"] + extra,
                ["--method", "alibi", "--content", content, "--heads", "8", "--head", "2"] + extra,
                ["--method", "alibi", "--content", content, "--heads", "12", "--head", "9"] + extra,
            ]
    print(f"Cross-check, N = 96, d = 16: {len(small)} cases (poslab --precision double vs NumPy float64, relative 1e-9)")
    for args in small:
        shape = ["--length", "96", "--dim", "16", "--summary"]
        _, _, p = run_once(poslab + args + shape + ["--precision", "double"])
        _, _, n = run_once(numpy + args + shape)
        if not agree(p, n, 1e-9):
            failures += 1
            print("  MISMATCH", " ".join(args), p, n)
    print(f"  {len(small) - failures} agree, {failures} differ\n")

    # 2. The timed cases, interleaved runs of both programs.
    cases = [
        ("rope, formula content", ["--method", "rope", "--content", "formula"]),
        ("rope, ones content", ["--method", "rope", "--content", "ones"]),
        ("nope, formula content", ["--method", "nope", "--content", "formula"]),
        ("alibi, formula content", ["--method", "alibi", "--content", "formula"]),
    ]
    shape = ["--length", str(a.length), "--dim", str(a.dim), "--summary"]
    rows = []
    for title, args in cases:
        pt, pm, nt, nm = [], [], [], []
        pres = nres = None
        for _ in range(a.repeat):
            w, m, pres = run_once(poslab + args + shape + ["--precision", "double"])
            pt.append(w)
            pm.append(m)
            w, m, nres = run_once(numpy + args + shape)
            nt.append(w)
            nm.append(m)
        ok = agree(pres, nres, 1e-9)
        failures += 0 if ok else 1
        rows.append((title, statistics.median(pt), statistics.median(nt), max(pm), max(nm), rel(pres["sum"], nres["sum"]), ok))

    print(f"Scores summary, N = {a.length}, d = {a.dim}, median of {a.repeat} runs (process start included)")
    print(f"{'case':26} {'poslab s':>9} {'NumPy s':>9} {'speed-up':>9} {'poslab MiB':>11} {'NumPy MiB':>10} {'sum rel diff':>13}")
    for title, p, n, pm, nm, d, ok in rows:
        print(f"{title:26} {p:9.3f} {n:9.3f} {n / p:8.1f}x {pm:11.1f} {nm:10.1f} {d:13.1e}{'' if ok else '  MISMATCH'}")
    print()
    if failures:
        print(f"{failures} cross-check(s) FAILED")
        return 1
    print("all cross-checks agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
