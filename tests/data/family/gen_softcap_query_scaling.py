#!/usr/bin/env python3
"""Reference numbers for a layer's logit soft-cap and position-dependent query scaling.

An independent plain-Python (double precision) transcription of what the families' own code does
(huggingface/transformers @ decba1d2ea4ed3cbf0495d1828abad4b2dba1846):
  * gemma2/modeling_gemma2.py eager_attention_forward: w = (q @ k^T) * scaling; if softcap:
    w = tanh(w / softcap) * softcap; then + mask; softmax over the visible keys.
  * ministral3/modeling_ministral3.py get_llama_4_attn_scale: query_states *= 1 + beta *
    log(1 + floor(position_ids / original_max_position_embeddings)), after RoPE, keys untouched.
RoPE: Llama's rotate_half (pairs i, i + d/2), inv_freq_i = base^(-2i/d). Content: PosLab's
"formula" rows, q.flat[n] = sin(0.5 + 0.7 n), k.flat[n] = sin(0.3 + 1.1 n), n = p*dim + c.
Decay (PosLab's decay view): query at position t with the position-0 content row, key at 0.
Contributions: the same, per rotary pair; capped_total = C*tanh(total/C).

Run: python3 gen_softcap_query_scaling.py > softcap_query_scaling.json
"""
import json
import math


def content(key, p, dim):
    a, b = (0.3, 1.1) if key else (0.5, 0.7)
    return [math.sin(a + b * (p * dim + c)) for c in range(dim)]


def rope(x, p, base):
    d = len(x)
    h = d // 2
    inv = [base ** (-2.0 * i / d) for i in range(h)]
    out = [0.0] * d
    for i in range(h):
        c, s = math.cos(p * inv[i]), math.sin(p * inv[i])
        out[i] = x[i] * c - x[i + h] * s
        out[i + h] = x[i + h] * c + x[i] * s
    return out


def qscale(p, qs):
    if not qs:
        return 1.0
    n, beta = qs
    return 1.0 + beta * math.log(1.0 + math.floor(p / n))


def cap(s, c):
    return s if c is None else c * math.tanh(s / c)


def case(name, dim, base, length, scale, softcap, query_scaling, causal):
    sc = scale if scale is not None else dim ** -0.5
    q = [[v * qscale(i, query_scaling) for v in rope(content(False, i, dim), i, base)] for i in range(length)]
    k = [rope(content(True, j, dim), j, base) for j in range(length)]
    scores, weights = [], []
    for i in range(length):
        row = [cap(sum(a * b for a, b in zip(q[i], k[j])) * sc, softcap) for j in range(length)]
        vis = [j for j in range(length) if not causal or j <= i]
        m = max(row[j] for j in vis)
        z = sum(math.exp(row[j] - m) for j in vis)
        scores.append([row[j] if j in vis else None for j in range(length)])
        weights.append([math.exp(row[j] - m) / z if j in vis else 0.0 for j in range(length)])
    # Decay and contributions: query row of position 0 rotated to t, key row of position 0 at 0.
    q0, k0 = content(False, 0, dim), content(True, 0, dim)
    rk = rope(k0, 0, base)
    h = dim // 2
    decay, pairs, capped = [], [], []
    for t in range(length):
        rq = [v * qscale(t, query_scaling) for v in rope(q0, t, base)]
        per = [sc * (rq[p] * rk[p] + rq[p + h] * rk[p + h]) for p in range(h)]
        pairs.append(per)
        total = sum(per)
        decay.append(cap(total, softcap))
        capped.append(cap(total, softcap))
    return {"name": name,
            "params": {"dim": dim, "base": base, "length": length, "softmax_scale": scale, "softcap": softcap,
                       "query_scaling": query_scaling, "causal": causal, "content": "formula", "layout": "half"},
            "output": {"scores": scores, "softmax": weights, "decay": decay, "contributions": pairs,
                       "capped_total": capped}}


cases = [
    case("softcap_only", 8, 10000.0, 6, None, 0.5, None, True),
    case("softcap_gemma2_scale", 8, 100.0, 6, 1.0 / 12.0, 0.05, None, True),
    case("query_scaling_only", 8, 10000.0, 6, None, None, [2.0, 0.1], True),
    case("query_scaling_bidirectional", 8, 500.0, 6, None, None, [3.0, 0.7], False),
    case("softcap_and_query_scaling", 8, 10000.0, 6, 0.25, 0.3, [2.0, 0.5], True),
    # Gemma 2 27B's full layers (tests/data/config/real/gemma-2-27b.json): head_dim 128, rope_theta
    # 10000, query_pre_attn_scalar 144, attn_logit_softcapping 50.
    case("gemma_2_27b_full_layer", 128, 10000.0, 6, 144 ** -0.5, 50.0, None, True),
]
print(json.dumps({"source": "tests/data/family/gen_softcap_query_scaling.py (plain Python, double)",
                  "cases": cases}, indent=1))
