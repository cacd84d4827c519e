#!/usr/bin/python3
"""Writes the q/k files of tests/ui/test_qkfile.cpp and the scores NumPy computes from them.

Run with /usr/bin/python3 (NumPy only; safetensors are written by hand, as the format states:
u64 little-endian header length, the JSON header, the raw little-endian data).

Every case holds pre-RoPE rows q, k of one dtype and shape, in one format. expected.json gives,
for each case and the chosen head, NumPy's RoPE-then-dot computed in float64 on the values as
stored (the file's float16/bfloat16/float32 values widened exactly):
    scores[i][j] = (R_i q_i) . (R_j k_j) / sqrt(d)
with transformers' rotate_half layout (pairs j, j + d/2), inv_freq = 1 / base^(2i/d), base 10000,
and decay[t] = mean over i >= t of scores[i][i - t] (and its count N - t).
"""
import json
import os
import struct
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
N, D, H = 5, 8, 2
BASE = 10000.0


def bf16_bits(x32):
    """float32 array → bfloat16 bits (round to nearest even), as torch.bfloat16 does."""
    b = x32.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def bf16_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def rope(x, d, base=BASE):
    """x: [N, d] float64 → rotated rows, half layout."""
    n = x.shape[0]
    inv = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
    ang = np.outer(np.arange(n, dtype=np.float64), inv)
    emb = np.concatenate([ang, ang], axis=1)
    rot = np.concatenate([-x[:, d // 2:], x[:, : d // 2]], axis=1)
    return x * np.cos(emb) + rot * np.sin(emb)


def scores(q, k):
    d = q.shape[1]
    return rope(q, d) @ rope(k, d).T / np.sqrt(d)


def decay(s):
    n = s.shape[0]
    return [float(np.mean([s[i, i - t] for i in range(t, n)])) for t in range(n)], [n - t for t in range(n)]


def write_safetensors(path, tensors):
    """tensors: {name: (dtype string, shape, raw bytes)}"""
    header, blobs, off = {}, [], 0
    for name, (dt, shape, raw) in tensors.items():
        header[name] = {"dtype": dt, "shape": list(shape), "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    header["__metadata__"] = {"format": "pt"}
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def main():
    rng = np.random.default_rng(20261124)
    base_q = rng.standard_normal((H, N, D))
    base_k = rng.standard_normal((H, N, D))
    shapes = {"2d": lambda a: a[1], "3d": lambda a: a, "4d": lambda a: a[None]}
    heads = {"2d": 0, "3d": 1, "4d": 1}
    cases = []
    for shape_key, shape_of in shapes.items():
        head = heads[shape_key]
        for dtype in ("float16", "bfloat16", "float32", "float64"):
            if dtype == "bfloat16":
                qb, kb = bf16_bits(base_q.astype(np.float32)), bf16_bits(base_k.astype(np.float32))
                qv, kv = bf16_values(qb), bf16_values(kb)
                q_arr, k_arr = shape_of(qb), shape_of(kb)
                formats = ["safetensors"]           # npy has no bfloat16
            else:
                q_arr = shape_of(base_q.astype(dtype))
                k_arr = shape_of(base_k.astype(dtype))
                qv = base_q.astype(dtype).astype(np.float64)
                kv = base_k.astype(dtype).astype(np.float64)
                formats = ["npy", "npz", "npz-deflate", "safetensors"]
            hq = head if shape_key != "2d" else 1
            s = scores(qv[hq], kv[hq])
            dec, cnt = decay(s)
            for fmt in formats:
                stem = f"{shape_key}_{dtype}"
                case = {"head": head if shape_key != "2d" else 0, "dtype": dtype, "shape": list(q_arr.shape),
                        "format": fmt, "scores": s.tolist(), "decay": dec, "count": cnt}
                if fmt == "npy":
                    np.save(os.path.join(HERE, stem + "_q.npy"), q_arr)
                    np.save(os.path.join(HERE, stem + "_k.npy"), k_arr)
                    case.update(q=stem + "_q.npy", k=stem + "_k.npy")
                elif fmt == "npz":
                    np.savez(os.path.join(HERE, stem + ".npz"), q=q_arr, k=k_arr)
                    case.update(q=stem + ".npz", k=stem + ".npz")
                elif fmt == "npz-deflate":
                    np.savez_compressed(os.path.join(HERE, stem + "_deflate.npz"), q=q_arr, k=k_arr)
                    case.update(q=stem + "_deflate.npz", k=stem + "_deflate.npz")
                else:
                    st = {"F16": "float16", "F32": "float32", "F64": "float64"}
                    dt = "BF16" if dtype == "bfloat16" else {v: k for k, v in st.items()}[dtype]
                    to_bytes = lambda a: np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
                    write_safetensors(os.path.join(HERE, stem + ".safetensors"),
                                      {"k": (dt, k_arr.shape, to_bytes(k_arr)), "q": (dt, q_arr.shape, to_bytes(q_arr))})
                    case.update(q=stem + ".safetensors", k=stem + ".safetensors")
                cases.append(case)
    # Grouped-query attention: 4 query heads, 2 key heads; query head 3 uses key head 1.
    gq = rng.standard_normal((4, N, D)).astype(np.float32)
    gk = rng.standard_normal((2, N, D)).astype(np.float32)
    np.savez(os.path.join(HERE, "gqa.npz"), q=gq, k=gk)
    s = scores(gq[3].astype(np.float64), gk[1].astype(np.float64))
    dec, cnt = decay(s)
    cases.append({"head": 3, "dtype": "float32", "shape": [4, N, D], "format": "npz", "q": "gqa.npz", "k": "gqa.npz",
                  "scores": s.tolist(), "decay": dec, "count": cnt})
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump({"n": N, "d": D, "base": BASE, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
