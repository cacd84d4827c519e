#!/usr/bin/env python3
"""Reference numbers for DeepSeek-V2/V3 multi-head latent attention (MLA): a head's q and k are
cat(q_nope, q_pe), qk_nope_head_dim + qk_rope_head_dim channels, RoPE rotates only q_pe and
k_pe, and the softmax scale is (qk_nope_head_dim + qk_rope_head_dim)**-0.5 * mscale**2.

An independent plain-Python (double precision) transcription of huggingface/transformers @
decba1d2ea4ed3cbf0495d1828abad4b2dba1846:
  * deepseek_v2/modeling_deepseek_v2.py DeepseekV2Attention.forward: q_nope, q_pe = split(q,
    [qk_nope_head_dim, qk_rope_head_dim]); apply_rotary_emb on q_pe, k_pe as complex numbers
    (pairs 2i, 2i+1) times freqs_cis = polar(1, p * inv_freq) * attention_scaling;
    query_states = cat(q_nope, q_pe), key_states = cat(k_nope, k_pe); scores * self.scaling,
    scaling = yarn_apply_mscale(rope_parameters, qk_head_dim**-0.5): times mscale**2 with
    mscale = 0.1 * mscale_all_dim * ln(factor) + 1 when rope_type != default, mscale_all_dim
    truthy and factor > 1.
  * configuration_deepseek_v2.py: head_dim = qk_rope_head_dim (the RoPE frequencies' dim).
  * modeling_rope_utils.py _compute_yarn_parameters (truncate): inv_freq blends 1/base^(2i/d) and
    that / factor over the correction ramp; attention_factor = get_mscale(f, mscale) /
    get_mscale(f, mscale_all_dim).
  * causal mask j <= i, softmax over the visible keys.
Content: PosLab's "formula" rows of the whole head, c.flat[n] = sin(0.5 + 0.7 n) (q) and
sin(0.3 + 1.1 n) (k), n = p*dim + ch, dim = nope + rope. PosLab rotates the first rotary_dim
channels of its row (docs/spec/conventions.md, "Added in 0.4"), so the row is handed to the
modeling code as q_pe = c[:rope], q_nope = c[rope:] (query_states = cat(q_nope, q_pe)); with
synthetic content the order of the two blocks in PosLab's row is a convention, q.k is the sum.
Decay (PosLab's decay view): the position-0 query row rotated to t, the key row at 0.
Contributions: per rotary pair, and the unrotated channels' term ("rest").

Run: python3 gen_mla_unrotated.py > mla_unrotated.json
"""
import json
import math


def content(key, p, dim):
    a, b = (0.3, 1.1) if key else (0.5, 0.7)
    return [math.sin(a + b * (p * dim + c)) for c in range(dim)]


def get_mscale(scale, mscale=1.0):
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def yarn_inv_freq(dim, base, factor, orig, beta_fast=32.0, beta_slow=1.0):
    pos = [base ** (2.0 * i / dim) for i in range(dim // 2)]
    extra = [1.0 / x for x in pos]
    inter = [1.0 / (factor * x) for x in pos]

    def corr_dim(rot):
        return (dim * math.log(orig / (rot * 2 * math.pi))) / (2 * math.log(base))

    low = max(math.floor(corr_dim(beta_fast)), 0)
    high = min(math.ceil(corr_dim(beta_slow)), dim - 1)
    if low == high:
        high += 0.001
    out = []
    for i in range(dim // 2):
        ramp = min(max((i - low) / (high - low), 0.0), 1.0)
        ext_factor = 1.0 - ramp
        out.append(inter[i] * (1 - ext_factor) + extra[i] * ext_factor)
    return out


def rotate_pe(x, p, inv, att):
    # view_as_complex(x.reshape(-1, 2)) * polar(1, p * inv) * att, view_as_real
    out = []
    for i, f in enumerate(inv):
        a, b = x[2 * i], x[2 * i + 1]
        c, s = math.cos(p * f) * att, math.sin(p * f) * att
        out += [a * c - b * s, a * s + b * c]
    return out


def head(key, p, nope, rope, inv, att, content_p=None):
    c = content(key, p if content_p is None else content_p, nope + rope)
    q_pe, q_nope = c[:rope], c[rope:]
    return q_nope + rotate_pe(q_pe, p, inv, att)   # cat(q_nope, q_pe)


def case(name, nope, rope, base, length, yarn=None):
    if yarn:
        factor, orig, mscale, mscale_all = yarn
        inv = yarn_inv_freq(rope, base, factor, orig)
        att = get_mscale(factor, mscale) / get_mscale(factor, mscale_all)
        scale = (nope + rope) ** -0.5
        if mscale_all:
            scale *= get_mscale(factor, mscale_all) ** 2
    else:
        inv = [base ** (-2.0 * i / rope) for i in range(rope // 2)]
        att, scale = 1.0, (nope + rope) ** -0.5
    q = [head(False, i, nope, rope, inv, att) for i in range(length)]
    k = [head(True, j, nope, rope, inv, att) for j in range(length)]
    scores, weights = [], []
    for i in range(length):
        row = [scale * sum(a * b for a, b in zip(q[i], k[j])) for j in range(length)]
        vis = list(range(i + 1))
        m = max(row[j] for j in vis)
        z = sum(math.exp(row[j] - m) for j in vis)
        scores.append([row[j] if j <= i else None for j in range(length)])
        weights.append([math.exp(row[j] - m) / z if j <= i else 0.0 for j in range(length)])
    k0 = head(True, 0, nope, rope, inv, att)
    decay, pairs, rest = [], [], []
    for t in range(length):
        qt = head(False, t, nope, rope, inv, att, content_p=0)
        prod = [a * b for a, b in zip(qt, k0)]
        rest.append(scale * sum(prod[:nope]))
        pairs.append([scale * (prod[nope + 2 * i] + prod[nope + 2 * i + 1]) for i in range(rope // 2)])
        decay.append(scale * sum(prod))
    return {"name": name,
            "params": {"qk_nope_head_dim": nope, "qk_rope_head_dim": rope, "base": base, "length": length,
                       "yarn": yarn, "softmax_scale": scale, "attention_factor": att, "content": "formula",
                       "layout": "interleaved", "causal": True},
            "output": {"scores": scores, "softmax": weights, "decay": decay, "contributions": pairs,
                       "rest": rest}}


cases = [
    case("mla_small", 6, 4, 100.0, 6),
    # DeepSeek-V2-Lite (tests/data/config/real/deepseek-v2-lite.json): qk_nope_head_dim 128,
    # qk_rope_head_dim 64, rope_theta 10000, yarn factor 40, original 4096, mscale 0.707,
    # mscale_all_dim 0.707.
    case("deepseek_v2_lite", 128, 64, 10000.0, 6, [40.0, 4096.0, 0.707, 0.707]),
]
print(json.dumps({"source": "tests/data/family/gen_mla_unrotated.py (plain Python, double)",
                  "cases": cases}, indent=1))
