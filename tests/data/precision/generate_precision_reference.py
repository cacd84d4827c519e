#!/usr/bin/python3
"""Reference numbers for PosLab's precision lab (issue #14), computed by PyTorch on CPU.

Run with Debian's python3-torch 1.13.1 (AVX2 kernels, Debian's libsleef3 3.5.1):
    /usr/bin/python3 tests/data/precision/generate_precision_reference.py
It writes tests/data/precision/rope_precision_reference.json, which tests/core/test_precision.cpp
checks bit for bit against ropeFrequencies/ropeTables/ropeApply (what `poslab compute rope
--precision P --angle-precision A` prints) and, for bfloat16/float16, the attention scores
q·kᵀ·head_dim^-0.5 against precisionScores (what `poslab compute scores --precision P` uses).

Code paths (each for dtype bfloat16, float16, float32 and a few head dims):
  * "main":   transformers main: inv_freq and the angles in float32 (autocast off), cos/sin in
              float32 times attention_scaling, cast to the model dtype; q in the dtype
              (poslab: --precision DTYPE, --angle-precision float32).
  * "legacy": the angles built in the model dtype, as a model whose inv_freq buffer was cast with
              model.to(dtype) and whose positions follow it (type_as): positions and inv_freq in
              the dtype, their product rounded to it, cos/sin of that
              (poslab: --precision DTYPE --angle-precision DTYPE).

  * "meta":   Meta llama's complex64 path (precompute_freqs_cis, apply_rotary_emb from
              facebookresearch/llama llama/model.py, copied verbatim below): inv_freq and angles in
              float32, freqs_cis = torch.polar(1, angles) (complex64), x.float() viewed as complex
              (interleaved pairs 2i, 2i+1), the complex64 product, .type_as(x) back to the dtype
              (poslab: --precision DTYPE --code-path meta-complex64 --layout interleaved). Its
              "cos"/"sin" are freqs_cis' real/imaginary parts laid out as poslab's interleaved table
              (each pair's value twice). No scores: Meta divides q·kᵀ by sqrt(head_dim) instead
              of multiplying by head_dim^-0.5, which poslab does not model.

rotate_half, apply_rotary_pos_emb, the forward of LlamaRotaryEmbedding and the default inv_freq
are copied verbatim from huggingface/transformers src/transformers/models/llama/modeling_llama.py
(read at commit 002272831fba584eb30dca9729c1be456836960a; rotate_half and apply_rotary_pos_emb are
unchanged on main @ decba1d2ea4ed3cbf0495d1828abad4b2dba1846, whose forward multiplies cos and sin
by self.attention_scaling — 1.0 for the default rope type — as added below). The legacy cos/sin
cache is the same file's __init__ (`t = torch.arange(...).type_as(self.inv_freq)`,
`freqs = torch.outer(t, self.inv_freq)`, `emb.cos()`), with inv_freq in the model dtype.
"""
import json
import os

import torch


# ---- verbatim from transformers (modeling_llama.py) ------------------------------------------
def rotate_half(x):
    """Rotates half the hidden dims of the input."""
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, position_ids=None, unsqueeze_dim=1):
    cos = cos.unsqueeze(unsqueeze_dim)
    sin = sin.unsqueeze(unsqueeze_dim)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


class LlamaRotaryEmbedding(torch.nn.Module):
    def __init__(self, dim, base=10000, device=None):
        super().__init__()
        self.dim = dim
        self.base = base
        inv_freq = 1.0 / (self.base ** (torch.arange(0, self.dim, 2, dtype=torch.int64).float().to(device) / self.dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.attention_scaling = 1.0  # main: the default rope type's attention factor

    @torch.no_grad()
    def forward(self, x, position_ids):
        # x: [bs, num_attention_heads, seq_len, head_size]
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        # Force float32 since bfloat16 loses precision on long contexts
        # See https://github.com/huggingface/transformers/pull/29285
        device_type = x.device.type
        device_type = device_type if isinstance(device_type, str) else "cpu"
        with torch.autocast(device_type=device_type, enabled=False):
            freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos = emb.cos() * self.attention_scaling
            sin = emb.sin() * self.attention_scaling
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)

    def legacy_cos_sin(self, position_ids, dtype):
        # The cache of the same file's __init__, after model.to(dtype) cast the inv_freq buffer.
        inv_freq = self.inv_freq.to(dtype)
        t = position_ids.type_as(inv_freq)
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        if dtype == torch.float16:
            # torch 1.13 has no float16 cos/sin on CPU ("cos_vml_cpu" not implemented for 'Half'):
            # computed in float32 from the float16 angles, then cast.
            return emb.float().cos().to(dtype), emb.float().sin().to(dtype)
        return emb.cos().to(dtype), emb.sin().to(dtype)
# ------------------------------------------------------------------------------------------------


# ---- verbatim from facebookresearch/llama llama/model.py ---------------------------------------
def precompute_freqs_cis(dim: int, end: int, theta: float = 10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)  # type: ignore
    freqs = torch.outer(t, freqs).float()  # type: ignore
    freqs_cis = torch.polar(torch.ones_like(freqs), freqs)  # complex64
    return freqs_cis


def reshape_for_broadcast(freqs_cis: torch.Tensor, x: torch.Tensor):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(
    xq: torch.Tensor,
    xk: torch.Tensor,
    freqs_cis: torch.Tensor,
):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)
# ------------------------------------------------------------------------------------------------


def freqs_cis_at(dim, positions, theta):
    """precompute_freqs_cis(dim, max(positions) + 1, theta)[positions] without the table of every
    position up to 10^6: the same code with t = the positions (outer and polar are elementwise, so
    each entry is the same number; checked below on the positions up to 4097)."""
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.tensor(positions, dtype=torch.int64)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32}

POSITIONS = [0, 1, 2, 3, 7, 100, 255, 256, 257, 258, 511, 512, 513, 1000, 1044, 2047, 2048, 2049, 4095, 4096,
             4097, 8191, 10000, 32767, 65504, 65535, 65536, 100000, 131071, 262144, 500000, 999999, 1000000]


def floats(t):
    return [float(v) for v in t.double().flatten().tolist()]


def rows(t):
    t = t.double()
    return [[float(v) for v in r] for r in t.tolist()]


def meta_case(dtype_name, head_dim, base, positions, gen):
    dtype = DTYPES[dtype_name]
    n = len(positions)
    q = torch.randn(1, n, 1, head_dim, generator=gen, dtype=torch.float64)   # [bsz, seqlen, heads, head_dim]
    qd = q.to(dtype)
    freqs_cis = freqs_cis_at(head_dim, positions, base)
    small = [p for p in positions if p <= 4097]
    full = precompute_freqs_cis(head_dim, max(small) + 1, base)
    assert torch.equal(full[small], freqs_cis[: len(small)])
    q_embed, _ = apply_rotary_emb(qd, qd, freqs_cis)
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2)[: (head_dim // 2)].float() / head_dim))
    return {
        "path": "meta",
        "precision": dtype_name,
        "angle_precision": "float32",
        "code_path": "meta-complex64",
        "layout": "interleaved",
        "head_dim": head_dim,
        "base": base,
        "positions": positions,
        "inv_freq": floats(inv_freq),
        "q": rows(qd[0, :, 0]),
        "cos": rows(freqs_cis.real.repeat_interleave(2, dim=-1)),
        "sin": rows(freqs_cis.imag.repeat_interleave(2, dim=-1)),
        "rotated": rows(q_embed[0, :, 0]),
    }


def case(path, dtype_name, head_dim, base, positions, gen):
    dtype = DTYPES[dtype_name]
    rope = LlamaRotaryEmbedding(head_dim, base=base)
    n = len(positions)
    q = torch.randn(1, 1, n, head_dim, generator=gen, dtype=torch.float64)
    qd = q.to(dtype)
    pos = torch.tensor([positions], dtype=torch.int64)
    if path == "main":
        cos, sin = rope(qd, pos)                         # [1, n, head_dim]
    else:
        cos, sin = rope.legacy_cos_sin(pos[0], dtype)     # [n, head_dim]
        cos, sin = cos[None], sin[None]
    k = torch.randn(1, 1, n, head_dim, generator=gen, dtype=torch.float64)
    kd = k.to(dtype)
    q_embed, k_embed = apply_rotary_pos_emb(qd, kd, cos, sin)
    out = {
        "path": path,
        "precision": dtype_name,
        "angle_precision": "float32" if path == "main" else dtype_name,
        "head_dim": head_dim,
        "base": base,
        "positions": positions,
        "inv_freq": floats(rope.inv_freq),
        "q": rows(qd[0, 0]),
        "cos": rows(cos[0]),
        "sin": rows(sin[0]),
        "rotated": rows(q_embed[0, 0]),
    }
    if dtype != torch.float32:
        # The attention scores of transformers main's eager_attention_forward (modeling_llama.py):
        # `attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling`, scaling =
        # head_dim ** -0.5. torch 1.13 has no float16 matmul on CPU ("addmm_impl_cpu_" not
        # implemented for 'Half'): for float16 the product is accumulated as torch's bfloat16 CPU
        # matmul does (checked: it equals this for bfloat16 on every case here): float32 sums in
        # channel order of the exact float32 products, one rounding to the dtype. (A float32
        # sgemm of the cast tensors sums in another order: 1 score in ~1000 rounds differently.)
        scaling = head_dim ** -0.5
        qa, ka = q_embed[0, 0].float(), k_embed[0, 0].float()
        acc = torch.zeros(n, n, dtype=torch.float32)
        for c in range(head_dim):
            acc = acc + qa[:, c, None] * ka[None, :, c]
        if dtype == torch.float16:
            prod = acc.to(dtype)[None, None]
        else:
            assert torch.equal(acc.to(dtype), torch.matmul(q_embed, k_embed.transpose(2, 3))[0, 0])
            prod = torch.matmul(q_embed, k_embed.transpose(2, 3))
        attn_weights = prod * scaling
        out["k"] = rows(kd[0, 0])
        out["scores"] = rows(attn_weights[0, 0])
    return out


def main():
    torch.set_num_threads(1)
    gen = torch.Generator().manual_seed(14)
    cases = []
    for path in ("main", "legacy"):
        for dtype_name in ("bfloat16", "float16", "float32"):
            if path == "legacy" and dtype_name == "float32":
                continue  # the same as main
            positions = POSITIONS
            if path == "legacy" and dtype_name == "float16":
                # float16 holds no position above 65504: larger ones become inf and cos/sin NaN
                # (poslab rejects them for --angle-precision float16).
                positions = [p for p in POSITIONS if p <= 65504]
            for head_dim, base in ((8, 10000.0), (32, 10000.0), (64, 10000.0), (128, 500000.0)):
                cases.append(case(path, dtype_name, head_dim, base, positions, gen))
    for dtype_name in ("bfloat16", "float16", "float32"):
        for head_dim, base in ((8, 10000.0), (32, 10000.0), (64, 10000.0), (128, 500000.0)):
            cases.append(meta_case(dtype_name, head_dim, base, POSITIONS, gen))
    out = {
        "generator": "tests/data/precision/generate_precision_reference.py",
        "torch": torch.__version__,
        "cases": cases,
    }
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "rope_precision_reference.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
