#!/usr/bin/python3
"""Runs the file-writing part of docs/HANDBOOK.md's q/k dump snippet (between "# --- write" and
"# --- end ---") on arrays shaped like a q_proj / k_proj output, in the directory given.

    check_readme_snippet.py docs/HANDBOOK.md OUTDIR

got["q"] is [1, N, H·head_dim] with q[0, n, h·head_dim + c] = sin(0.1 + 0.01·(n·1000 + h·100 + c)),
got["k"] the same with cos, and H_k = H/2 (grouped-query attention); head_dim = 8, N = 6, H = 4.
The snippet writes layer0.npz and layer0.safetensors (what tests/ui/test_qkfile.cpp reads).
"""
import os
import sys

import numpy as np

readme, out = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
start = text.index("# --- write")
end = text.index("# --- end ---", start)
code = text[start:end]
N, H, head_dim = 6, 4, 8
n = np.arange(N)[:, None, None]
h = np.arange(H)[None, :, None]
c = np.arange(head_dim)[None, None, :]
x = 0.1 + 0.01 * (n * 1000 + h * 100 + c)
got = {"q": np.sin(x).reshape(1, N, H * head_dim).astype(np.float32),
       "k": np.cos(x[:, : H // 2, :]).reshape(1, N, H // 2 * head_dim).astype(np.float32)}
os.chdir(out)
exec(compile(code, readme + " snippet", "exec"), {"np": np, "got": got, "head_dim": head_dim})
