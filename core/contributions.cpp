#include "core/contributions.h"

#include <cmath>
#include <numbers>

namespace poslab {

namespace {
constexpr std::int64_t kMaxDistances = std::int64_t{1} << 16;
constexpr std::int64_t kMaxDistance = std::int64_t{1} << 31;
constexpr std::int64_t kMaxWork = std::int64_t{1} << 34;
}  // namespace

Result<Contributions> pairContributions(const ScoreParams& params, const std::vector<std::int64_t>& distances) {
    if (auto e = params.validate()) return *e;
    if (params.method != Method::Rope)
        return ParamError{"method", "rope (per-pair contributions need rotary pairs)", std::string(methodKey(params.method))};
    if (distances.empty()) return ParamError{"max_distance", "at least one distance", "none"};
    if (static_cast<std::int64_t>(distances.size()) > kMaxDistances)
        return ParamError{"max_distance", "at most " + formatInt(kMaxDistances) + " distances",
                          formatInt(static_cast<std::int64_t>(distances.size()))};
    const std::int64_t n = params.source ? params.source->length() : 0;
    std::int64_t maxD = 0;
    for (auto t : distances) {
        const std::int64_t hi = params.source ? n - 1 : kMaxDistance;
        if (t < 0 || t > hi)
            return ParamError{"max_distance",
                              params.source ? "distances from 0 to the file's N − 1 = " + formatInt(n - 1)
                                            : "distances from 0 to " + formatInt(kMaxDistance),
                              formatInt(t)};
        maxD = std::max(maxD, t);
    }
    const auto nd = static_cast<std::int64_t>(distances.size());
    if (params.source && nd * n > kMaxWork / std::max(1, params.dim))
        return ParamError{"max_distance", "distances × N × dim at most " + formatInt(kMaxWork),
                          formatInt(nd) + " distances × " + formatInt(n)};
    if (!params.source && nd * params.dim > kMaxWork / 64)
        return ParamError{"max_distance", "distances × dim at most " + formatInt(kMaxWork / 64), formatInt(nd)};

    const RopeParams rp = params.ropeParams();
    const std::int64_t seqLen = rp.seq_len ? *rp.seq_len : params.source ? n : maxD + 1;
    const RopeFrequencies after = ropeFrequencies(rp, seqLen);
    const RopeFrequencies before = ropeDefaultFrequencies(rp);
    const int r = after.rotary_dim, half = r / 2, dim = params.dim;
    // The layer's softmax scale (Gemma 2's query_pre_attn_scalar, DeepSeek's mscale), not 1/√dim.
    const AttentionParams& at = params.attention;
    const double s = scoreScale(at, dim);
    auto chanA = [&](int p) { return rp.layout == RopeLayout::Half ? p : 2 * p; };
    auto chanB = [&](int p) { return rp.layout == RopeLayout::Half ? p + half : 2 * p + 1; };

    Contributions out;
    out.distance = distances;
    out.value = Matrix::Zero(half, nd);
    out.rest = Vector::Zero(nd);
    if (params.source) {
        // Every row rotated once; then, per distance, the mean over the diagonal of each pair.
        const Positions all = arangePositions(0, n);
        const RopeTables t = ropeTables(rp, after, all);
        Matrix qr = params.source->rows(false, all), kr = params.source->rows(true, all);
        // A q/k RMS norm before or after the rotation is the same (a rotation keeps the norm).
        if (at.qk_norm != QkNorm::None) rmsNormRows(qr, at.norm_eps, params.precision), rmsNormRows(kr, at.norm_eps, params.precision);
        Matrix q = ropeApply(rp, t, qr);
        const Matrix k = ropeApply(rp, t, kr);
        if (queryScaled(at))
            for (std::int64_t i = 0; i < n; ++i) q.row(static_cast<Eigen::Index>(i)) *= queryScale(at, i, params.precision);
        for (std::int64_t c = 0; c < nd; ++c) {
            const std::int64_t d = distances[static_cast<std::size_t>(c)];
            const auto rows = static_cast<Eigen::Index>(n - d);
            const auto qb = q.bottomRows(rows);
            const auto kb = k.topRows(rows);
            for (int p = 0; p < half; ++p) {
                const double sum = qb.col(chanA(p)).dot(kb.col(chanA(p))) + qb.col(chanB(p)).dot(kb.col(chanB(p)));
                out.value(p, static_cast<Eigen::Index>(c)) = s * sum / static_cast<double>(rows);
            }
            double rest = 0;
            for (int ch = r; ch < dim; ++ch) rest += qb.col(ch).dot(kb.col(ch));
            out.rest[static_cast<Eigen::Index>(c)] = s * rest / static_cast<double>(rows);
            out.count.push_back(n - d);
        }
    } else {
        const Positions zero{0};
        Matrix q0 = contentRows(params, false, zero);
        Matrix k0 = contentRows(params, true, zero);
        if (at.qk_norm != QkNorm::None) rmsNormRows(q0, at.norm_eps, params.precision), rmsNormRows(k0, at.norm_eps, params.precision);
        const Matrix k = ropeApply(rp, ropeTables(rp, after, zero), k0);
        const Positions pos(distances.begin(), distances.end());
        Matrix q = ropeApply(rp, ropeTables(rp, after, pos), q0.replicate(static_cast<Eigen::Index>(nd), 1));
        // The query sits at position t (the key at 0): its scaling at t.
        if (queryScaled(at))
            for (Eigen::Index c = 0; c < nd; ++c) q.row(c) *= queryScale(at, distances[static_cast<std::size_t>(c)], params.precision);
        for (Eigen::Index c = 0; c < nd; ++c) {
            for (int p = 0; p < half; ++p)
                out.value(p, c) = s * (q(c, chanA(p)) * k(0, chanA(p)) + q(c, chanB(p)) * k(0, chanB(p)));
            double rest = 0;
            for (int ch = r; ch < dim; ++ch) rest += q(c, ch) * k(0, ch);
            out.rest[c] = s * rest;
        }
    }
    out.total = out.value.colwise().sum().transpose() + out.rest;
    if (at.softcap) {
        out.capped = out.total;
        for (Eigen::Index i = 0; i < out.capped->size(); ++i) (*out.capped)[i] = softcapScore(at, (*out.capped)[i], Precision::Double);
    }
    const Vector absSum = out.value.cwiseAbs().rowwise().sum();
    const double all = absSum.sum();
    out.share = all > 0 ? Vector(absSum / all) : Vector::Zero(half);
    out.wavelengthAfter = after.wavelength();
    out.wavelengthBefore = before.wavelength();
    const bool scaled = rp.scaling != RopeScaling::None;
    out.context = rp.max_positions;
    out.trainingContext = scaled ? rp.originalMaxPositions() : rp.max_positions;
    for (Eigen::Index i = 0; i < out.value.size(); ++i)
        if (!std::isfinite(out.value.data()[i]))
            return ParamError{"result", "parameters for which every contribution is finite", formatNumber(out.value.data()[i])};
    return out;
}

}  // namespace poslab
