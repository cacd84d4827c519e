// Decay with distance (see decay.h). Exact definitions, for a distance d >= 0 (query at
// position d, key at position 0, so that d = i − j), s = 1/sqrt(dim), and the content's fixed
// rows q = contentRows(content, query, {0}) and k = contentRows(content, key, {0}) (position 0's
// rows: the content is held fixed while the position moves):
//   nope           s·q·k                                     (constant)
//   sinusoidal     s·PE_d·PE_0                               (sinusoidalEncoding, params.sinusoidal)
//   learned        s·E_d·E_0                                 (error past the table, naming max_distance)
//   shaw           s·q·a^K[clip(−d, −k, k) + k]              (key table row of relative position −d)
//   t5             table[bucket(−d)][head]                   (t5Bias at query d, key 0; unscaled)
//   transformer-xl s·(b + d) = s·(q + v)·W_R R_d            (transformerXLTerms at query d, key 0)
//   alibi          −m_head·d                                 (alibiBias at query d, key 0)
//   rope           s·(R_d q)·(R_0 k)                         (ropeTables/ropeApply at positions d and 0;
//                  dynamic/longrope use seq_len = params.rope.seq_len or max(distances)+1).
//                  With ones content and full rotary this is s·Σ_i 2cos(d·θ_i).
//                  bound(d) = (1/(r/2))·Σ_{j=1..r/2} |S_j|,  S_j = Σ_{k=0..j−1} e^{i·d·θ_k}, θ the
//                  frequencies actually used (RoFormer §3.4.3: |Σ_i h_i e^{i(m−n)θ_i}| <=
//                  max_i |h_{i+1} − h_i| · Σ_j |S_j|; their Figure 2 plots this relative bound).
//   xpos           s·(ξ_d(q))·k with ξ_d the interleaved rotation by d·θ_i times ζ_i^(d/scale_base):
//                  the product of the query's ζ^(+c/sb) and the key's ζ^(−c'/sb) for c − c' = d,
//                  i.e. rope's value with each pair damped by its explicit decay. No bound.
#include "core/decay.h"

#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

namespace poslab {

namespace {

constexpr std::int64_t kMaxDecayPoints = std::int64_t{1} << 24;
constexpr std::int64_t kMaxDecayDistance = std::int64_t{1} << 31;
constexpr std::int64_t kChunk = 4096;

// Rotation of one row x at positions `pos` (rows of the result), interleaved xPos with the
// explicit decay ζ^(d/scale_base) for the query at distance d.
Matrix xposQueryRows(const XposParams& xp, const Matrix& x, const Positions& pos) {
    const int half = xp.head_dim / 2;
    RopeTables t;
    t.cos.resize(static_cast<Eigen::Index>(pos.size()), xp.head_dim);
    t.sin.resize(static_cast<Eigen::Index>(pos.size()), xp.head_dim);
    for (std::size_t r = 0; r < pos.size(); ++r) {
        const Matrix angle = xposAngles(xp, 1, pos[r]);
        // One token at offset o has the centred exponent o + min_pos, min_pos = −(1+o)//2 (Python
        // floor division): o = 2d + 1 gives 2d + 1 − (d + 1) = d.
        const Matrix scale = xposScale(xp, 1, 2 * pos[r] + 1, false);
        const auto row = static_cast<Eigen::Index>(r);
        for (int i = 0; i < half; ++i) {
            const double c = roundTo(xp.precision, roundTo(xp.precision, std::cos(angle(0, i))) * scale(0, i));
            const double s = roundTo(xp.precision, roundTo(xp.precision, std::sin(angle(0, i))) * scale(0, i));
            t.cos(row, 2 * i) = t.cos(row, 2 * i + 1) = c;
            t.sin(row, 2 * i) = t.sin(row, 2 * i + 1) = s;
        }
    }
    RopeParams rp;
    rp.head_dim = xp.head_dim;
    rp.layout = RopeLayout::Interleaved;
    rp.precision = xp.precision;
    return ropeApply(rp, t, x.replicate(static_cast<Eigen::Index>(pos.size()), 1));
}

Vector roformerBound(const Vector& theta, const std::vector<std::int64_t>& distances) {
    const Eigen::Index half = theta.size();
    Vector b(static_cast<Eigen::Index>(distances.size()));
    for (std::size_t n = 0; n < distances.size(); ++n) {
        const double d = static_cast<double>(distances[n]);
        std::complex<double> s(0, 0);
        double total = 0;
        for (Eigen::Index j = 0; j < half; ++j) {
            s += std::polar(1.0, std::fmod(d * theta[j], 2 * std::numbers::pi));   // S_{j+1}
            total += std::abs(s);
        }
        b[static_cast<Eigen::Index>(n)] = half > 0 ? total / static_cast<double>(half) : 0.0;
    }
    return b;
}

}  // namespace

Result<DecayCurve> decayCurve(const ScoreParams& params, std::int64_t max_distance) {
    if (max_distance < 0 || max_distance >= kMaxDecayPoints)
        return ParamError{"max_distance", "an integer from 0 to " + formatInt(kMaxDecayPoints - 1), formatInt(max_distance)};
    std::vector<std::int64_t> d(static_cast<std::size_t>(max_distance + 1));
    for (std::int64_t i = 0; i <= max_distance; ++i) d[static_cast<std::size_t>(i)] = i;
    return decayCurveAt(params, d);
}

Result<DecayCurve> decayCurveAt(const ScoreParams& params, const std::vector<std::int64_t>& distances) {
    if (auto e = params.validate()) return *e;
    if (distances.empty()) return ParamError{"distances", "at least one distance", "an empty list"};
    if (static_cast<std::int64_t>(distances.size()) > kMaxDecayPoints)
        return ParamError{"distances", "at most " + formatInt(kMaxDecayPoints) + " distances",
                          formatInt(static_cast<std::int64_t>(distances.size()))};
    std::int64_t maxD = 0;
    for (auto x : distances) {
        if (x < 0 || x > kMaxDecayDistance)
            return ParamError{"max_distance", "distances from 0 to " + formatInt(kMaxDecayDistance), formatInt(x)};
        maxD = std::max(maxD, x);
    }

    const double s = 1.0 / std::sqrt(static_cast<double>(params.dim));
    const Positions zero{0};
    const Matrix q = contentRows(params.content, false, zero, params.dim, params.seed);
    const Matrix k = contentRows(params.content, true, zero, params.dim, params.seed);

    DecayCurve curve;
    curve.distance = distances;
    curve.value.resize(static_cast<Eigen::Index>(distances.size()));

    // Per-method setup.
    RopeParams rp;
    RopeFrequencies freqs;
    Matrix rotatedKey;
    if (params.method == Method::Rope) {
        rp = params.ropeParams();
        freqs = ropeFrequencies(rp, rp.seq_len ? rp.seq_len : std::optional<std::int64_t>(maxD + 1));
        rotatedKey = ropeApply(rp, ropeTables(rp, freqs, zero), k);
    }
    Matrix pe0;
    if (params.method == Method::Sinusoidal) pe0 = sinusoidalEncoding(params.sinusoidalParams(), zero);
    Matrix e0;
    if (params.method == Method::Learned) {
        auto r = learnedEncoding(params.learnedParams(), zero);
        if (!r) return r.error();
        e0 = r.value();
    }

    for (std::size_t a = 0; a < distances.size(); a += kChunk) {
        const std::size_t b = std::min(distances.size(), a + kChunk);
        const Positions pos(distances.begin() + static_cast<std::ptrdiff_t>(a),
                            distances.begin() + static_cast<std::ptrdiff_t>(b));
        const auto n = static_cast<Eigen::Index>(pos.size());
        Vector v(n);
        switch (params.method) {
        case Method::NoPE: v.setConstant(s * q.row(0).dot(k.row(0))); break;
        case Method::Sinusoidal: v = s * (sinusoidalEncoding(params.sinusoidalParams(), pos) * pe0.row(0).transpose()); break;
        case Method::Learned: {
            auto r = learnedEncoding(params.learnedParams(), pos);
            if (!r) return ParamError{"max_distance", r.error().valid, r.error().got};
            v = s * (r.value() * e0.row(0).transpose());
            break;
        }
        case Method::Shaw: {
            const ShawParams sp = params.shawParams();
            const IntMatrix idx = shawIndexAt(pos, zero, sp.max_relative_position);   // clip(0 − d) + k
            const Matrix rows = shawKeyRows(sp, Positions(idx.data(), idx.data() + idx.size()));
            for (Eigen::Index i = 0; i < n; ++i) v[i] = s * q.row(0).dot(rows.row(i));
            break;
        }
        case Method::T5: v = t5Bias(params.t5Params(), params.head, pos, zero).col(0); break;
        case Method::TransformerXL: {
            const TransformerXLTerms t =
                transformerXLTerms(params.transformerXLParams(), pos, zero, q.replicate(n, 1), k);
            v = s * (t.b + t.d).col(0);
            break;
        }
        case Method::Alibi: v = alibiBias(params.alibiParams(), params.head, pos, zero).col(0); break;
        case Method::Rope: {
            const Matrix rq = ropeApply(rp, ropeTables(rp, freqs, pos), q.replicate(n, 1));
            v = s * (rq * rotatedKey.row(0).transpose());
            break;
        }
        case Method::Xpos: {
            const Matrix rq = xposQueryRows(params.xposParams(), q, pos);
            v = s * (rq * k.row(0).transpose());
            break;
        }
        }
        curve.value.segment(static_cast<Eigen::Index>(a), n) = v;
    }
    if (params.method == Method::Rope) curve.bound = roformerBound(freqs.inv_freq, distances);
    for (Eigen::Index i = 0; i < curve.value.size(); ++i)
        if (!std::isfinite(curve.value[i]))
            return ParamError{"result", "parameters for which every value is finite", formatNumber(curve.value[i])};
    return curve;
}

}  // namespace poslab
