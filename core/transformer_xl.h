#pragma once
// Transformer-XL relative positional encoding (Dai et al. 2019), as kimiyoung/transformer-xl.
// Relative sinusoid R_d = [sin(d·w) | cos(d·w)], w_i = 10000^(−2i/dim) (concat, Vaswani,
// float32), fed descending distances klen−1 … 0, clamped to clamp_len when clamp_len > 0.
// Score of query i (position i + mlen) and key j, distance d = (i + klen − qlen) − j:
//   A_ij = (q_i + u)·k_j + (q_i + v)·(W_R R_d)
//        = q_i·k_j  (a, content)  + q_i·W_R R_d  (b, content→position)
//        + u·k_j    (c, global content bias) + v·W_R R_d (d, global position bias)
// u, v (dim) and W_R (dim × dim) are seeded: u = N(0,1) (stream 4), v = N(0,1) (stream 5),
// W_R = N(0, 1/dim) (stream 6), each via seededNormal(·, ·, seed, stream, stddev).
// For explicit positions the distance is d = query position − key position, clamped to
// clamp_len from above when clamp_len > 0 (negative d, keys after the query, are left as they
// are — the causal mask hides them; pos_emb is defined for them).
#include "core/param.h"
#include "core/sinusoidal.h"
#include "core/types.h"

namespace poslab {

struct TransformerXLParams {
    int dim = 64;                 // 2 .. 4096, even (W_R is dim × dim)
    std::int64_t clamp_len = 0;   // 0 = none, else 1 .. 2^40
    std::uint64_t seed = 0;
    Check validate() const;
    bool operator==(const TransformerXLParams&) const = default;
};
// Every parameter of TransformerXLParams declared once (core/param.h): validate() checks each one's
// range first, the command line, sessions and the panel are generated from it.
const ParamTable<TransformerXLParams>& transformerXLParamTable();


// The distances fed to the positional embedding for key length K: K−1 … 0, clamped.
std::vector<std::int64_t> transformerXLDistances(std::int64_t key_length, std::int64_t clamp_len);

// Key length for transformerXLDistances/PosEmb (the command line's --key-length):
// 1 .. 1'000'000 with key_length·dim <= 2^26. Errors name "key_length".
Check transformerXLValidateKeyLength(std::int64_t key_length, int dim);

// Relative sinusoid rows for the given distances, |distances| × dim (float32 rounding, exactly
// sinusoidalEncoding with concat layout, Vaswani frequencies, base 10000, Float32).
// Precondition: dim even >= 2.
Matrix transformerXLPosEmb(int dim, const std::vector<std::int64_t>& distances);

// The sinusoid of those rows: concat layout, Vaswani frequencies, base 10000, float32
// (PositionalEmbedding(demb) of the reference). inv_freq_k = 1 / 10000^(2k/dim), k < dim/2.
SinusoidalParams transformerXLSinusoid(int dim);

struct TransformerXLWeights {
    Vector u, v;     // dim
    Matrix w_r;      // dim × dim
};
TransformerXLWeights transformerXLWeights(const TransformerXLParams& params);

// The four terms for explicit query/key positions and content rows q (|queries| × dim),
// k (|keys| × dim); each |queries| × |keys|, unscaled (multiply by 1/sqrt(dim) for scores).
// a = q_i·k_j, b = q_i·W_R R_d, c = u·k_j, d = v·W_R R_d. Shapes that do not match return
// empty (0 × 0) terms.
struct TransformerXLTerms {
    Matrix a, b, c, d;
};
TransformerXLTerms transformerXLTerms(const TransformerXLParams& params, const Positions& queries,
                                      const Positions& keys, const Matrix& q, const Matrix& k);

}  // namespace poslab
