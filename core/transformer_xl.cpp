#include "core/transformer_xl.h"
#include "core/ensure.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/random.h"
#include "core/sinusoidal.h"

namespace poslab {

namespace {
constexpr int kMaxDim = 4096;
constexpr std::uint64_t kStreamU = 4, kStreamV = 5, kStreamWR = 6;

std::int64_t clampDistance(std::int64_t d, std::int64_t clamp_len) {
    return clamp_len > 0 ? std::min(d, clamp_len) : d;
}

std::int64_t difference(std::int64_t b, std::int64_t a) {
    std::int64_t d;
    if (__builtin_sub_overflow(b, a, &d)) return b > a ? INT64_MAX : INT64_MIN;
    return d;
}
}  // namespace

const ParamTable<TransformerXLParams>& transformerXLParamTable() {
    using K = ParamKind;
    static const ParamTable<TransformerXLParams> t = {
        field<&TransformerXLParams::dim>({.name = "dim", .kind = K::Int, .lo = 2, .hi = kMaxDim, .even = true,
                                          .label = "Dimension", .help = "model dimension (W_R is dim x dim)",
                                          .flags = kParamShared}),
        field<&TransformerXLParams::clamp_len>({.name = "clamp_len", .kind = K::Int, .lo = 1,
                                                .hi = static_cast<double>(kMaxPosition), .label = "Clamp length",
                                                .help = "clamp distances at C (0 = none)", .unit = "tokens",
                                                .unset = "0 (none)", .flags = kParamZeroUnset}),
        field<&TransformerXLParams::seed>({.name = "seed", .kind = K::Seed, .label = "Weights seed",
                                           .help = "seed of u, v and W_R"}),
    };
    return t;
}

Check TransformerXLParams::validate() const { return checkParams(transformerXLParamTable(), *this); }

Check transformerXLValidateKeyLength(std::int64_t key_length, int dim) {
    constexpr std::int64_t kMaxLength = 1'000'000;
    constexpr std::int64_t kMaxEntries = std::int64_t{1} << 26;
    const std::int64_t maxK = std::min<std::int64_t>(kMaxLength, kMaxEntries / std::max(dim, 1));
    if (key_length < 1 || key_length > maxK)
        return ParamError{"key_length",
                          "an integer from 1 to " + formatInt(maxK) +
                              (maxK < kMaxLength ? " (key_length·dim <= 67108864)" : ""),
                          formatInt(key_length)};
    return std::nullopt;
}

std::vector<std::int64_t> transformerXLDistances(std::int64_t key_length, std::int64_t clamp_len) {
    // pos_seq = torch.arange(klen-1, -1, -1.0); if clamp_len > 0: pos_seq.clamp_(max=clamp_len)
    std::vector<std::int64_t> d;
    if (key_length <= 0) return d;
    d.reserve(static_cast<std::size_t>(key_length));
    for (std::int64_t x = key_length - 1; x >= 0; --x) d.push_back(clampDistance(x, clamp_len));
    return d;
}

Matrix transformerXLPosEmb(int dim, const std::vector<std::int64_t>& distances) {
    POSLAB_ENSURE(dim >= 2 && dim % 2 == 0, "dim even >= 2");
    // PositionalEmbedding(demb): inv_freq = 1 / (10000 ** (arange(0.0, demb, 2.0) / demb)),
    // sinusoid_inp = ger(pos_seq, inv_freq), cat([sin, cos]) — all float32; this is the concat,
    // Vaswani, float32 sinusoidal table.
    return sinusoidalEncoding(transformerXLSinusoid(dim), distances);
}

SinusoidalParams transformerXLSinusoid(int dim) {
    SinusoidalParams sp;
    sp.dim = std::max(dim, 1);
    sp.base = 10000.0;
    sp.layout = SinusoidalLayout::Concat;
    sp.frequencies = SinusoidalFrequencies::Vaswani;
    sp.precision = Precision::Float32;
    return sp;
}

TransformerXLWeights transformerXLWeights(const TransformerXLParams& params) {
    TransformerXLWeights w;
    w.u = seededNormal(params.dim, 1, params.seed, kStreamU, 1.0).col(0);
    w.v = seededNormal(params.dim, 1, params.seed, kStreamV, 1.0).col(0);
    w.w_r = seededNormal(params.dim, params.dim, params.seed, kStreamWR, 1.0 / std::sqrt(double(params.dim)));
    return w;
}

TransformerXLTerms transformerXLTerms(const TransformerXLParams& params, const Positions& queries,
                                      const Positions& keys, const Matrix& q, const Matrix& k) {
    const auto nq = static_cast<Eigen::Index>(queries.size());
    const auto nk = static_cast<Eigen::Index>(keys.size());
    TransformerXLTerms t;
    if (q.rows() != nq || k.rows() != nk || q.cols() != params.dim || k.cols() != params.dim) return t;
    const auto w = transformerXLWeights(params);

    // Distances (query − key, clamped) and the projected sinusoid W_R R_d of each distinct one.
    std::map<std::int64_t, Eigen::Index> slot;
    IntMatrix dist(nq, nk);
    for (Eigen::Index i = 0; i < nq; ++i)
        for (Eigen::Index j = 0; j < nk; ++j) {
            const auto d = clampDistance(difference(queries[std::size_t(i)], keys[std::size_t(j)]), params.clamp_len);
            dist(i, j) = d;
            slot.emplace(d, 0);
        }
    std::vector<std::int64_t> unique;
    unique.reserve(slot.size());
    for (auto& [d, s] : slot) {
        s = static_cast<Eigen::Index>(unique.size());
        unique.push_back(d);
    }
    const Matrix r = transformerXLPosEmb(params.dim, unique);          // U × dim
    const Matrix projected = r * w.w_r.transpose();                     // row u: (W_R R_d)^T
    const Vector vr = projected * w.v;                                  // U: v · W_R R_d
    const Vector uk = k * w.u;                                          // nk: u · k_j
    const auto U = static_cast<Eigen::Index>(unique.size());
    // q_i · W_R R_d: one product q·projectedᵀ (nq × U) when the distinct distances are few per
    // query (a square block has U < 2·nk), else one dot product per pair (many distances against
    // one key, as the scores of every distance are computed: the product would be nq × U = nq²).
    const bool product = U <= 2 * nk;
    const Matrix qr = product ? Matrix(q * projected.transpose()) : Matrix();

    t.a = q * k.transpose();
    t.b.resize(nq, nk);
    t.c.resize(nq, nk);
    t.d.resize(nq, nk);
    for (Eigen::Index i = 0; i < nq; ++i)
        for (Eigen::Index j = 0; j < nk; ++j) {
            const Eigen::Index s = slot[dist(i, j)];
            t.b(i, j) = product ? qr(i, s) : q.row(i).dot(projected.row(s));
            t.c(i, j) = uk[j];
            t.d(i, j) = vr[s];
        }
    return t;
}

}  // namespace poslab
