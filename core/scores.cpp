// Attention scores of every method for any content (see scores.h for the formulas).
//
// One small engine serves both entry points:
//   * side rows   the transformed query rows Q̃ (|queries| × dim) and key rows K̃ for explicit
//                 positions: content rows plus the method's absolute part (sinusoidal PE,
//                 learned E), or rotated (rope, xpos), or the raw content (the others);
//   * a block     s·Q̃·K̃ᵀ plus the method's relative term (shaw, t5, alibi), or the four
//                 Transformer-XL terms, for any query/key position lists.
// scores() evaluates the requested block (and, for softmax, streams over all keys 0..N−1 in
// chunks for the exact row normaliser). scoresSummary() streams over row blocks of the full
// matrix with a fast dot-product kernel, or — when the matrix is a function of i − j only —
// evaluates that function once per distance and aggregates with the distance counts.
#include "core/scores.h"
#include "core/parallel.h"
#include "core/precision.h"

#include "core/random.h"
#include "core/scores_kernel.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <cstdint>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <new>

namespace poslab {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
constexpr std::uint64_t kStreamQ = 11, kStreamK = 12;

// Memory and work guards (the limits are part of the error messages).
constexpr std::int64_t kMaxBlockEntries = std::int64_t{1} << 25;       // one scores() result
constexpr std::int64_t kMaxSideEntries = std::int64_t{1} << 26;        // N·dim rows held at once
constexpr std::int64_t kMaxWork = std::int64_t{1} << 34;               // N²·(dim + cost): a few seconds
constexpr std::int64_t kMaxSummaryLength = std::int64_t{1} << 16;      // full N² summary
constexpr std::int64_t kMaxStructuredLength = std::int64_t{1} << 24;   // function-of-(i−j) summary
constexpr std::int64_t kMaxStructuredWork = std::int64_t{1} << 31;    // length·(per-distance work)
constexpr std::int64_t kMaxSoftmaxSpan = std::int64_t{1} << 31;        // length·|queries|

bool isPositionalOnly(const ScoreParams& p);

// Work per score entry beyond the dim multiply-adds (relative terms, softmax exponentials), in
// multiply-add equivalents, for the work guard N²·(dim + cost) <= kMaxWork (2^34: about 3 s on
// one core of this project's machine at 5.6·10^9 a second, measured with random content and
// softmax at N = 4096, d = 128). Transformer-XL's four terms cost about eight multiply-adds per
// dimension beyond the content dot product (measured: 4.1 s at N = 4096, d = 128 with softmax).
std::int64_t entryCost(const ScoreParams& p) {
    std::int64_t c = p.softmax ? 16 : 0;
    switch (p.method) {
    case Method::Alibi:
    case Method::Shaw: c += 4; break;
    case Method::T5: c += 32; break;
    case Method::TransformerXL: c += 256 + 8 * static_cast<std::int64_t>(p.dim); break;
    default: break;
    }
    return c;
}

std::int64_t satMul(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return std::numeric_limits<std::int64_t>::max();
    return r;
}

// The parameters a computation runs on: the method in effect (nope on a NoPE layer).
ScoreParams effective(const ScoreParams& params) {
    ScoreParams p = params;
    p.method = params.effectiveMethod();
    return p;
}

// A large result block on 2 MiB pages where the system gives them on request (Linux transparent
// huge pages in "madvise" mode, as NumPy asks for its arrays): a 4096 × 4096 matrix then costs 64
// page faults instead of 32 768 (a third of poslab.scores' time at N = 4096 went to them).
// Advice only: nothing changes where it is not taken. Before the buffer's first touch.
void adviseHugePages(double* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t huge = std::uintptr_t{1} << 21;
    const auto at = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (at + huge - 1) & ~(huge - 1), end = (at + bytes) & ~(huge - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

// Runs body(b) for b in [0, blocks) on the caller's threads (core/parallel.h).
template <class F>
void parallelBlocks(std::int64_t blocks, F&& body) {
    parallelFor(static_cast<std::size_t>(std::max<std::int64_t>(blocks, 0)), [&](std::size_t b0, std::size_t b1) {
        for (std::size_t b = b0; b < b1; ++b) body(static_cast<std::int64_t>(b));
    });
}

class Engine {
public:
    // `params` with the method in effect (effective()).
    Engine(const ScoreParams& params, std::int64_t length) : p_(params), length_(length) {
        s_ = scoreScale(p_.attention, p_.dim);
    }

    // Method-specific preparation; errors that depend on the sequence length.
    Check prepare() {
        switch (p_.method) {
        case Method::Rope: {
            rope_ = p_.ropeParams();
            // The runtime rule: the call's sequence is 0..length−1 (dynamic, longrope).
            freqs_ = ropeFrequencies(rope_, rope_.seq_len ? rope_.seq_len : std::optional<std::int64_t>(length_));
            break;
        }
        case Method::Xpos: {
            xpos_ = p_.xposParams();
            if (satMul(length_, p_.dim) > kMaxSideEntries)
                return ParamError{"length", "length·dim at most " + formatInt(kMaxSideEntries) + " for xpos",
                                  formatInt(length_)};
            // The centred scale exponent depends on the whole sequence (offset 0, length N).
            xposUp_ = xposScale(xpos_, length_, 0, false);
            xposDown_ = xposScale(xpos_, length_, 0, true);
            break;
        }
        case Method::Sinusoidal: sin_ = p_.sinusoidalParams(); break;
        case Method::Learned:
            learned_ = p_.learnedParams();
            if (length_ > learned_.table_size)
                return ParamError{"length",
                                  "at most the learned table size " + formatInt(learned_.table_size) +
                                      " (a learned table has no embedding past its last row)",
                                  formatInt(length_)};
            break;
        case Method::Shaw: {
            // Only the rows |j − i| <= min(k, N − 1) can occur: generate those rows of the key table
            // (seededNormal(2k+1, dim, seed, 1, 1/sqrt(dim)), shaw.h) and remember the first one.
            shaw_ = p_.shawParams();
            const std::int64_t k = shaw_.max_relative_position;
            const std::int64_t m = std::min(k, length_ - 1);
            shawFirst_ = k - m;
            shawKey_ = shawKeyRows(shaw_, arangePositions(k - m, k + m + 1));
            shawPacked_ = packKeys(shawKey_.data(), shawKey_.rows(), shaw_.dim);
            break;
        }
        case Method::T5: t5_ = p_.t5Params(); break;
        case Method::TransformerXL: txl_ = p_.transformerXLParams(); break;
        case Method::Alibi: alibi_ = p_.alibiParams(); break;
        case Method::NoPE: break;
        }
        return std::nullopt;
    }

    double scale() const { return s_; }

    // Transformed rows for the query side (key = false) or the key side (key = true): content,
    // q/k norm before, the method's transformation, q/k norm after, then the query's temperature.
    Result<Matrix> side(bool key, const Positions& pos) const {
        Matrix x = contentRows(p_, key, pos);
        const AttentionParams& at = p_.attention;
        if (at.qk_norm == QkNorm::Before) rmsNormRows(x, at.norm_eps, p_.precision);
        switch (p_.method) {
        case Method::Sinusoidal: x += sinusoidalEncoding(sin_, pos); break;
        case Method::Learned: {
            auto e = learnedEncoding(learned_, pos);
            if (!e) return ParamError{"length", e.error().valid, e.error().got};
            x += e.value();
            break;
        }
        case Method::Rope: {
            const RopeTables t = ropeTables(rope_, freqs_, pos);
            x = ropeApply(rope_, t, x);
            break;
        }
        case Method::Xpos: x = xposRows(x, pos, key); break;
        default: break;
        }
        if (at.qk_norm == QkNorm::After) rmsNormRows(x, at.norm_eps, p_.precision);
        if (!key && queryScaled(at))
            for (Eigen::Index r = 0; r < x.rows(); ++r) {
                const double t = queryScale(at, pos[static_cast<std::size_t>(r)], p_.precision);
                for (Eigen::Index c = 0; c < x.cols(); ++c) x(r, c) = roundTo(p_.precision, x(r, c) * t);
            }
        return x;
    }

    // Whether side(false, pos) and side(true, pos) are the same rows: ones content for both, no
    // query scaling, and a method that transforms queries and keys alike (not xPos's up/down scale).
    bool sidesAlike() const {
        return p_.content == Content::Ones && !p_.source && !queryScaled(p_.attention) && p_.method != Method::Xpos;
    }

    // s·Q̃·K̃ᵀ plus the relative term. rowsInParallel: the kernel's query rows in pieces on the
    // caller's threads (core/parallel.h; each row's dots are the same whichever thread computes
    // them) — for the one block of scores(), not for blocks already run in parallel pieces.
    // `finite` (when given) is set when every entry is known to be finite or −∞ already (the
    // kernel checked its stores and nothing was added after them): checkFinite() has nothing to do.
    Matrix block(const Matrix& qs, const Positions& qpos, const Matrix& ks, const Positions& kpos,
                 bool rowsInParallel = false, bool* finite = nullptr) const {
        if (finite) *finite = false;
        if (p_.method == Method::TransformerXL) {
            const TransformerXLTerms t = transformerXLTerms(txl_, qpos, kpos, qs, ks);
            Matrix out = s_ * (t.a + t.b + t.c + t.d);
            cap(out);
            return out;
        }
        Matrix out;
        if (halfDots()) {
            // bfloat16/float16: float32 accumulation, rounded to the dtype (core/precision.h).
            out = precisionScores(p_.precision, qs, ks, s_);
        } else if (ks.rows() > 1 && qs.rows() * ks.rows() * qs.cols() >= (Eigen::Index{1} << 20)) {
            // Large blocks (softmax normalisers of long sequences): the packed SIMD kernel. (Not
            // for one key against many queries, the scores of every distance: the kernel would
            // pad that key to a whole panel of keys.)
            out.resize(qs.rows(), ks.rows());
            if (out.size() >= (Eigen::Index{1} << 19)) adviseHugePages(out.data(), static_cast<std::size_t>(out.size()) * sizeof(double));
            const PackedKeys packed = packKeys(ks.data(), ks.rows(), p_.dim);
            const std::int64_t rows = qs.rows(), piece = 64;
            const std::int64_t pieces = rowsInParallel ? (rows + piece - 1) / piece : 1;
            std::vector<char> below(static_cast<std::size_t>(pieces), 0);   // per piece: no NaN, no +∞
            parallelBlocks(pieces, [&](std::int64_t b) {
                const std::int64_t r0 = rowsInParallel ? b * piece : 0, r1 = rowsInParallel ? std::min(rows, r0 + piece) : rows;
                below[static_cast<std::size_t>(b)] =
                    scaledDots(qs.data() + r0 * p_.dim, r1 - r0, packed, ks.rows(), s_, out.data() + r0 * ks.rows());
            });
            if (finite && !hasRelativeTerm() && !capped())
                *finite = std::all_of(below.begin(), below.end(), [](char c) { return c != 0; });
        } else {
            out = s_ * (qs * ks.transpose());
        }
        addRelative(out, qs, qpos, kpos);
        cap(out);
        return out;
    }

    // The logit soft-cap on a block of scaled scores (with their relative term), before any mask.
    void cap(Matrix& s) const { softcapScores(p_.attention, s, p_.precision); }
    bool capped() const { return p_.attention.softcap.has_value(); }

    // Whether the transformed rows are the same at every position: ones content with a method that
    // does not transform q and k by position (nope, alibi, t5, shaw) and no query scaling.
    bool positionFreeSides() const {
        return p_.content == Content::Ones && !p_.source && !queryScaled(p_.attention) &&
               (p_.method == Method::NoPE || p_.method == Method::Alibi || p_.method == Method::T5 ||
                p_.method == Method::Shaw);
    }

    // block() when positionFreeSides(): q0 and k0 the single rows every query and key has, so the
    // content part s·q0·k0 is one number and only the relative term varies (O(|qpos|·|kpos|), no
    // per-position rows).
    Matrix positionFreeBlock(const Matrix& q0, const Positions& qpos, const Matrix& k0, const Positions& kpos) const {
        const double c = s_ * q0.row(0).dot(k0.row(0));
        Matrix out = Matrix::Constant(static_cast<Eigen::Index>(qpos.size()), static_cast<Eigen::Index>(kpos.size()), c);
        addRelative(out, q0, qpos, kpos);
        cap(out);
        return out;
    }

    // The relative term alone (shaw, t5, alibi), added to `out` (|qpos| × |kpos|; qs has |qpos|
    // rows, or one row shared by every query).
    void addRelative(Matrix& out, const Matrix& qs, const Positions& qpos, const Positions& kpos) const {
        switch (p_.method) {
        case Method::Shaw: {
            Matrix qa(qs.rows(), shawKey_.rows());   // s·q_i·a^K_r for the table rows in use
            scaledDots(qs.data(), qs.rows(), shawPacked_, shawKey_.rows(), s_, qa.data());
            const IntMatrix idx = shawIndexAt(qpos, kpos, shaw_.max_relative_position);
            // One query row stands for every query when the rows do not depend on position.
            const bool shared = qs.rows() == 1;
            for (Eigen::Index i = 0; i < out.rows(); ++i)
                for (Eigen::Index j = 0; j < out.cols(); ++j) out(i, j) += qa(shared ? 0 : i, idx(i, j) - shawFirst_);
            break;
        }
        case Method::T5: out += t5Bias(t5_, p_.head, qpos, kpos); break;
        case Method::Alibi: out += alibiBias(alibi_, p_.head, qpos, kpos); break;
        default: break;
        }
    }

    // The scores' dot products are a reduced dtype's (rope in bfloat16/float16).
    bool halfDots() const { return p_.method == Method::Rope && isHalfPrecision(p_.precision); }

    bool hasRelativeTerm() const {
        return p_.method == Method::Shaw || p_.method == Method::T5 || p_.method == Method::Alibi;
    }

private:
    // xPos rows: interleaved rotation by the token angle, times the sequence-centred scale
    // (queries ζ^(+c/sb), keys 1/ζ^(c/sb)), applied through ropeApply with xPos's tables
    // (torchscale multiplies sin and cos by the scale before duplicate_interleave).
    Matrix xposRows(const Matrix& x, const Positions& pos, bool key) const {
        const int half = p_.dim / 2;
        RopeTables t;
        t.cos.resize(static_cast<Eigen::Index>(pos.size()), p_.dim);
        t.sin.resize(static_cast<Eigen::Index>(pos.size()), p_.dim);
        const Matrix& scale = key ? xposDown_ : xposUp_;
        const Precision pr = xpos_.precision;
        for (std::size_t r = 0; r < pos.size(); ++r) {
            const Matrix angle = xposAngles(xpos_, 1, pos[r]);   // 1 × half, position pos[r]
            for (int i = 0; i < half; ++i) {
                const double sc = scale(pos[r], i);
                const double c = roundTo(pr, roundTo(pr, std::cos(angle(0, i))) * sc);
                const double s = roundTo(pr, roundTo(pr, std::sin(angle(0, i))) * sc);
                const auto row = static_cast<Eigen::Index>(r);
                t.cos(row, 2 * i) = t.cos(row, 2 * i + 1) = c;
                t.sin(row, 2 * i) = t.sin(row, 2 * i + 1) = s;
            }
        }
        RopeParams rp;
        rp.head_dim = p_.dim;
        rp.layout = RopeLayout::Interleaved;
        rp.precision = pr;
        return ropeApply(rp, t, x);
    }

    const ScoreParams p_;
    std::int64_t length_;
    double s_ = 1;
    RopeParams rope_;
    RopeFrequencies freqs_;
    XposParams xpos_;
    Matrix xposUp_, xposDown_;
    SinusoidalParams sin_;
    LearnedParams learned_;
    ShawParams shaw_;
    Matrix shawKey_;
    std::int64_t shawFirst_ = 0;
    PackedKeys shawPacked_;
    T5Params t5_;
    TransformerXLParams txl_;
    AlibiParams alibi_;
};

Check checkFinite(const Matrix& m) {
    // One branch-free pass (it vectorises), then the first offending entry when there is one.
    bool bad = false;
    for (Eigen::Index i = 0; i < m.size(); ++i) bad |= !(m.data()[i] < std::numeric_limits<double>::infinity());
    if (!bad) return std::nullopt;
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        const double v = m.data()[i];
        if (std::isnan(v) || v == std::numeric_limits<double>::infinity())
            return ParamError{"result", "parameters for which every score is finite", formatNumber(v)};
    }
    return std::nullopt;
}

// The content part of the score is a constant and the positional part a function of i − j.
bool isPositionalOnly(const ScoreParams& p) {
    if (p.content != Content::Ones || p.source) return false;
    // Masks other than causal, the query's temperature and sinks depend on more than i − j.
    const AttentionParams& a = p.attention;
    if (a.window || a.chunk || queryScaled(a) || !a.sink.empty()) return false;
    switch (p.method) {
    case Method::NoPE:
    case Method::Alibi:
    case Method::T5:
    case Method::Shaw:
    case Method::TransformerXL: return true;
    // Exact only in double: float32 rounds each position's angle separately.
    case Method::Rope:
    case Method::Xpos: return p.precision == Precision::Double;
    default: return false;
    }
}

struct Accumulator {
    double sum = 0, min = std::numeric_limits<double>::infinity(), max = -std::numeric_limits<double>::infinity();
    bool bad = false;
    void add(double v) {
        sum += v;
        if (v < min) min = v;
        if (v > max) max = v;
        if (!std::isfinite(v)) bad = true;
    }
    void merge(const Accumulator& o) {
        sum += o.sum;
        min = std::min(min, o.min);
        max = std::max(max, o.max);
        bad = bad || o.bad;
    }
};

// Summary of one row of scores (length n, unmasked entries only); a softmax row's normaliser
// includes the sink logit when there is one.
void reduceRow(const double* row, Eigen::Index n, bool softmax, Accumulator& acc, std::optional<double> sink = std::nullopt) {
    if (!softmax) {
        double sum = 0, mn = row[0], mx = row[0];
        for (Eigen::Index j = 0; j < n; ++j) {
            const double v = row[j];
            sum += v;
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
        }
        acc.sum += sum;
        acc.min = std::min(acc.min, mn);
        acc.max = std::max(acc.max, mx);
        if (!std::isfinite(sum) || !std::isfinite(mn) || !std::isfinite(mx)) acc.bad = true;
        return;
    }
    double mx = row[0], mn = row[0];
    for (Eigen::Index j = 1; j < n; ++j) {
        mx = std::max(mx, row[j]);
        mn = std::min(mn, row[j]);
    }
    if (!std::isfinite(mx) || !std::isfinite(mn)) { acc.bad = true; return; }
    const double m = sink ? std::max(mx, *sink) : mx;
    double z = sink ? std::exp(*sink - m) : 0.0;
    for (Eigen::Index j = 0; j < n; ++j) z += std::exp(row[j] - m);
    double sum = 0;
    for (Eigen::Index j = 0; j < n; ++j) sum += std::exp(row[j] - m) / z;
    acc.sum += sum;
    acc.min = std::min(acc.min, std::exp(mn - m) / z);
    acc.max = std::max(acc.max, std::exp(mx - m) / z);
}

ScoreSummary toSummary(std::int64_t n, const Accumulator& a) {
    ScoreSummary s;
    s.rows = s.cols = n;
    s.sum = a.sum;
    s.min = a.min;
    s.max = a.max;
    return s;
}

// Pieces a sweep of distances is cut into (each at least 256 distances): enough for the threads a
// caller's pool has; the values never depend on it.
constexpr std::int64_t kDistancePieces = 8;

// f(δ) = score of a query at δ and a key at 0 (δ >= 0), or of a query at 0 and a key at −δ
// (δ < 0), for δ in [lo, hi]: the whole matrix when the scores depend on i − j only.
// `mirror`: f(−δ) = f(δ) exactly (the query and key sides are the same function of position, e.g.
// ones content with rope, nope or symmetric alibi), so only δ >= 0 is evaluated.
Result<std::vector<double>> distanceScores(const Engine& e, std::int64_t lo, std::int64_t hi, bool mirror) {
    std::vector<double> f(static_cast<std::size_t>(hi - lo + 1));
    const Positions zero{0};
    auto zeroQ = e.side(false, zero);
    auto zeroK = e.side(true, zero);
    if (!zeroQ) return zeroQ.error();
    if (!zeroK) return zeroK.error();
    const std::int64_t evalLo = mirror ? std::max<std::int64_t>(lo, 0) : lo;
    const bool free = e.positionFreeSides();
    const std::int64_t total = hi - evalLo + 1;
    const std::int64_t chunk = std::clamp<std::int64_t>((total + kDistancePieces - 1) / kDistancePieces, 256, 8192);
    const std::int64_t chunks = (total + chunk - 1) / chunk;
    std::vector<std::optional<ParamError>> errors(static_cast<std::size_t>(chunks));
    parallelBlocks(chunks, [&](std::int64_t c) {
        const std::int64_t a = evalLo + c * chunk;
        const std::int64_t b = std::min(hi, a + chunk - 1);
        // Non-negative part: queries δ, key 0.
        const std::int64_t pa = std::max<std::int64_t>(a, 0);
        if (pa <= b) {
            const Positions qp = arangePositions(pa, b + 1);
            Matrix m;
            if (free) {
                m = e.positionFreeBlock(zeroQ.value(), qp, zeroK.value(), zero);
            } else {
                auto q = e.side(false, qp);
                if (!q) {
                    errors[static_cast<std::size_t>(c)] = q.error();
                    return;
                }
                m = e.block(q.value(), qp, zeroK.value(), zero);
            }
            for (Eigen::Index i = 0; i < m.rows(); ++i) f[static_cast<std::size_t>(pa + i - lo)] = m(i, 0);
        }
        // Negative part: query 0, keys −δ.
        const std::int64_t nb = std::min<std::int64_t>(b, -1);
        if (a <= nb) {
            const Positions kp = arangePositions(-nb, -a + 1);   // −nb .. −a
            Matrix m;
            if (free) {
                m = e.positionFreeBlock(zeroQ.value(), zero, zeroK.value(), kp);
            } else {
                auto k = e.side(true, kp);
                if (!k) {
                    errors[static_cast<std::size_t>(c)] = k.error();
                    return;
                }
                m = e.block(zeroQ.value(), zero, k.value(), kp);
            }
            for (Eigen::Index j = 0; j < m.cols(); ++j) f[static_cast<std::size_t>(-kp[std::size_t(j)] - lo)] = m(0, j);
        }
    });
    for (const auto& err : errors)
        if (err) return *err;
    if (mirror)
        for (std::int64_t d = lo; d < 0; ++d) f[static_cast<std::size_t>(d - lo)] = f[static_cast<std::size_t>(-d - lo)];
    return f;
}

Result<ScoreSummary> structuredSummary(const ScoreParams& p, const Engine& e, std::int64_t n) {
    const std::int64_t lo = p.causal ? 0 : -(n - 1);
    // Ones content makes q and k the same rows; rope and nope then score (i, j) and (j, i)
    // alike, and so does alibi without the causal mask.
    const bool mirror = p.content == Content::Ones && !p.source &&
                        (p.method == Method::Rope || p.method == Method::NoPE || (p.method == Method::Alibi && !p.causal));
    auto fr = distanceScores(e, lo, n - 1, mirror);
    if (!fr) return fr.error();
    const std::vector<double>& f = fr.value();
    auto at = [&](std::int64_t d) { return f[static_cast<std::size_t>(d - lo)]; };
    Accumulator acc;
    if (!p.softmax) {
        for (std::int64_t d = lo; d <= n - 1; ++d) {
            const double v = at(d);
            acc.sum += static_cast<double>(n - std::abs(d)) * v;
            acc.min = std::min(acc.min, v);
            acc.max = std::max(acc.max, v);
            if (!std::isfinite(v)) acc.bad = true;
        }
    } else {
        // Row i holds f(i − j) for the keys j of the row: δ from i − (n−1) (or 0) to i.
        const std::int64_t blocks = (n + 255) / 256;
        std::vector<Accumulator> part(static_cast<std::size_t>(blocks));
        parallelBlocks(blocks, [&](std::int64_t b) {
            std::vector<double> row(static_cast<std::size_t>(n));
            for (std::int64_t i = b * 256; i < std::min(n, (b + 1) * 256); ++i) {
                const std::int64_t dlo = p.causal ? 0 : i - (n - 1);
                const std::int64_t cnt = i - dlo + 1;
                // Keys in order j = 0.. (δ = i − j descending), as the full matrix holds them.
                for (std::int64_t t = 0; t < cnt; ++t) row[static_cast<std::size_t>(t)] = at(i - t);
                reduceRow(row.data(), cnt, true, part[static_cast<std::size_t>(b)]);
            }
        });
        for (const auto& a : part) acc.merge(a);
    }
    if (acc.bad) return ParamError{"result", "parameters for which every score is finite", "a non-finite score"};
    return toSummary(n, acc);
}

Result<ScoreSummary> blockedSummary(const ScoreParams& p, const Engine& e, std::int64_t n) {
    const Positions all = arangePositions(0, n);
    // The query and key sides are independent: two pieces for the caller's threads.
    std::optional<Result<Matrix>> qr, kr;
    parallelFor(2, [&](std::size_t s0, std::size_t s1) {
        for (std::size_t side = s0; side < s1; ++side) (side == 0 ? qr : kr).emplace(e.side(side == 1, all));
    });
    if (!qr->ok()) return qr->error();
    if (!kr->ok()) return kr->error();
    const Matrix& q = qr->value();
    const Matrix& k = kr->value();
    const bool txl = p.method == Method::TransformerXL;
    const AttentionParams& at = p.attention;
    const bool causal = at.causalWith(p.causal);
    const bool local = at.window || at.chunk;
    const std::optional<double> sink = p.softmax ? p.sinkLogit() : std::nullopt;
    const bool fused = !txl && !p.softmax && !e.hasRelativeTerm() && !e.halfDots() && !local && !e.capped();
    // Rows per block: a stored block of scores stays within ~1 MiB (the L2 cache); the fused
    // kernel stores nothing and takes more rows per pass over the keys.
    const std::int64_t rowsPerBlock =
        fused ? 64 : std::clamp<std::int64_t>((std::int64_t{1} << 17) / n / 8 * 8, 8, 256);
    const std::int64_t blocks = (n + rowsPerBlock - 1) / rowsPerBlock;
    std::vector<Accumulator> part(static_cast<std::size_t>(blocks));
    const PackedKeys packed = txl ? PackedKeys{} : packKeys(k.data(), n, p.dim);
    parallelBlocks(blocks, [&](std::int64_t b) {
        const std::int64_t r0 = b * rowsPerBlock;
        const std::int64_t r1 = std::min(n, r0 + rowsPerBlock);
        // The keys the block's rows see: [c0, c1) (the first and last of the visible ranges, which
        // move forward with the query): causal rows need keys 0..r1−1 only, a window or chunk its own.
        const std::int64_t c0 = visibleKeys(at, causal, r0, n).first;
        const std::int64_t c1 = visibleKeys(at, causal, r1 - 1, n).last + 1;
        const std::int64_t cols = c1 - c0;
        Accumulator& acc = part[static_cast<std::size_t>(b)];
        if (fused) {
            // Plain dot products: summarise in the kernel without storing the block.
            const DotSummary d = scaledDotsSummary(q.data() + r0 * p.dim, r1 - r0, r0, packed, cols, e.scale(), causal);
            if (d.count > 0) {
                acc.sum += d.sum;
                acc.min = std::min(acc.min, d.min);
                acc.max = std::max(acc.max, d.max);
                if (!std::isfinite(d.sum) || !std::isfinite(d.min) || !std::isfinite(d.max)) acc.bad = true;
            }
            return;
        }
        const Positions qp = arangePositions(r0, r1);
        const Positions kp = arangePositions(c0, c1);
        Matrix s;
        if (txl || e.halfDots()) {
            s = e.block(q.middleRows(r0, r1 - r0), qp, k.middleRows(c0, cols), kp);
        } else {
            s.resize(r1 - r0, cols);
            if (c0 == 0) {
                scaledDots(q.data() + r0 * p.dim, r1 - r0, packed, cols, e.scale(), s.data());
            } else {
                const PackedKeys pk = packKeys(k.data() + c0 * p.dim, cols, p.dim);
                scaledDots(q.data() + r0 * p.dim, r1 - r0, pk, cols, e.scale(), s.data());
            }
            if (e.hasRelativeTerm()) e.addRelative(s, q.middleRows(r0, r1 - r0), qp, kp);
            e.cap(s);
        }
        for (std::int64_t i = r0; i < r1; ++i) {
            const KeyRange kr = visibleKeys(at, causal, i, n);
            reduceRow(s.data() + (i - r0) * s.cols() + (kr.first - c0), kr.last - kr.first + 1, p.softmax, acc, sink);
        }
    });
    Accumulator acc;
    for (const auto& a : part) acc.merge(a);
    if (acc.bad) return ParamError{"result", "parameters for which every score is finite", "a non-finite score"};
    return toSummary(n, acc);
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::string_view contentKey(Content c) { return enumKey(c); }
std::optional<Content> contentFromKey(std::string_view key) { return enumFromKey<Content>(key); }

const ParamTable<ScoreParams>& scoreParamTable() {
    static const ParamTable<ScoreParams> table = [] {
        using K = ParamKind;
        ParamTable<ScoreParams> t = {
            field<&ScoreParams::method>({.name = "method", .kind = K::Choice, .label = "Method",
                                         .help = "positional method",
                                         .choiceLabels = {"NoPE (no position)", "Sinusoidal (absolute)", "Learned (absolute)",
                                                          "Shaw et al. (relative)", "T5 (relative buckets)",
                                                          "Transformer-XL (relative)", "ALiBi (linear bias)", "RoPE (rotary)",
                                                          "xPos (rotary with decay)"}}),
            field<&ScoreParams::dim>({.name = "dim", .kind = K::Int, .lo = 1, .hi = 65536, .label = "Head dimension d",
                                      .help = "query/key dimension (the head dimension for rope and xpos)",
                                      .flags = kParamSlider | kParamSliderEven, .sliderLo = 2, .sliderHi = 256}),
            field<&ScoreParams::content>({.name = "content", .kind = K::Choice, .label = "Query/key content",
                                          .help = "query and key rows: every entry 1, seeded normal, or the golden formula",
                                          .choiceLabels = {"ones", "random (seeded)", "formula"}}),
            // Read by random content and by the methods with seeded tables (their seeds follow it).
            field<&ScoreParams::seed>({.name = "seed", .kind = K::Seed, .label = "Seed", .help = "seed of random content"})
                .when([](const ScoreParams& s) {
                    return (s.content == Content::Random && !s.source) || s.method == Method::Learned || s.method == Method::Shaw ||
                           s.method == Method::T5 || s.method == Method::TransformerXL;
                }),
            // Read by the methods with a bias per head, by query/key files of several heads and by sinks per head.
            field<&ScoreParams::head>({.name = "head", .kind = K::Int, .lo = 0, .hi = 4095, .label = "Head",
                                       .help = "ALiBi / T5 head shown"})
                .when([](const ScoreParams& s) {
                    return s.method == Method::Alibi || s.method == Method::T5 || s.source || s.attention.sink.size() > 1;
                }),
            field<&ScoreParams::causal>({.name = "causal", .kind = K::Bool, .label = "Causal", .help = "mask keys after the query (j > i)"}),
            field<&ScoreParams::softmax>({.name = "softmax", .kind = K::Bool, .label = "Softmax", .help = "row-wise softmax weights instead of scores"}),
            field<&ScoreParams::precision>({.name = "precision", .kind = K::Choice, .label = "Precision",
                                            .help = "float32 reproduces the frameworks' float32 rounding; double is exact; "
                                                    "bfloat16/float16: the model in that dtype (rope)",
                                            .choiceLabels = {"float32 (as the frameworks)", "double (exact)",
                                                             "bfloat16 (model dtype)", "float16 (model dtype)"}})
                // Read by the methods that round in float32 (their angles, tables or slopes) and by the
                // layer's q/k norm, query scaling and soft-cap; nope, learned, Shaw, T5 and
                // Transformer-XL score in double whatever it says.
                .when([](const ScoreParams& s) {
                    const Method m = s.effectiveMethod();
                    const AttentionParams& a = s.attention;
                    return m == Method::Rope || m == Method::Xpos || m == Method::Sinusoidal || m == Method::Alibi ||
                           a.qk_norm != QkNorm::None || queryScaled(a) || a.softcap.has_value();
                }),
        };
        appendNested(t, methodParamGroup(Method::Rope), &ScoreParams::rope, ropeParamTable());
        appendNested(t, methodParamGroup(Method::Xpos), &ScoreParams::xpos, xposParamTable());
        appendNested(t, methodParamGroup(Method::Sinusoidal), &ScoreParams::sinusoidal, sinusoidalParamTable());
        appendNested(t, methodParamGroup(Method::Learned), &ScoreParams::learned, learnedParamTable());
        appendNested(t, methodParamGroup(Method::Shaw), &ScoreParams::shaw, shawParamTable());
        appendNested(t, methodParamGroup(Method::T5), &ScoreParams::t5, t5ParamTable());
        appendNested(t, methodParamGroup(Method::TransformerXL), &ScoreParams::transformer_xl, transformerXLParamTable());
        appendNested(t, methodParamGroup(Method::Alibi), &ScoreParams::alibi, alibiParamTable());
        appendNested(t, "attention", &ScoreParams::attention, attentionParamTable());
        appendNested(t, "model", &ScoreParams::model, layerPatternTable());
        // The model's RoPE parameters per layer type, one group each (model_rope_full, ...).
        const std::pair<std::string_view, RopeParams LayerPattern::*> perType[] = {
            {"model_rope_full", &LayerPattern::rope_full},
            {"model_rope_sliding", &LayerPattern::rope_sliding},
            {"model_rope_chunked", &LayerPattern::rope_chunked}};
        for (const auto& [key, member] : perType)
            for (const auto& e : ropeParamTable()) {
                Param<ScoreParams> p;
                p.info = e.info;
                p.group = key;
                p.get = [m = member, g = e.get](const ScoreParams& s) { return g(s.model.*m); };
                p.set = [m = member, st = e.set](ScoreParams& s, const ParamValue& v) { st(s.model.*m, v); };
                p.relevant = [m = member, r = e.relevant](const ScoreParams& s) {
                    return !s.model.empty() && (!r || r(s.model.*m));
                };
                t.push_back(std::move(p));
            }
        return t;
    }();
    return table;
}

Check ScoreParams::validate() const {
    for (const auto& p : scoreParamTable())
        if (p.group.empty())
            if (auto e = p.info.check(p.get(*this))) return e;
    if ((precision == Precision::BFloat16 || precision == Precision::Float16) && method != Method::Rope)
        return ParamError{"precision", "float32 or double for this method (bfloat16 and float16 are modelled for rope)",
                          std::string(enumKey(precision))};
    if (source && source->dim() != dim)
        return ParamError{"dim", "the d of the query/key file (" + source->name() + ") = " + formatInt(source->dim()),
                          formatInt(dim)};
    auto checkHead = [&](int heads) -> Check {
        if (head < 0 || head >= heads)
            return ParamError{"head", "an integer from 0 to " + formatInt(heads - 1) + " (heads − 1)", formatInt(head)};
        return std::nullopt;
    };
    if (auto e = attention.validate()) return e;
    if (auto e = model.validate()) return e;
    if (!attention.sink.empty() && (head < 0 || head >= static_cast<int>(attention.sink.size())))
        return ParamError{"head", "an integer from 0 to " + formatInt(static_cast<std::int64_t>(attention.sink.size()) - 1) +
                                      " (one sink logit per head)",
                          formatInt(head)};
    switch (method) {
    case Method::NoPE: return std::nullopt;
    case Method::Sinusoidal: return sinusoidalParams().validate();
    case Method::Learned: return learnedParams().validate();
    case Method::Shaw: return shawParams().validate();
    case Method::T5: {
        if (auto e = t5Params().validate()) return e;
        return checkHead(t5.heads);
    }
    case Method::TransformerXL: return transformerXLParams().validate();
    case Method::Alibi: {
        if (auto e = alibiParams().validate()) return e;
        return checkHead(alibi.heads);
    }
    case Method::Rope:
        if (dim < 2 || dim % 2 != 0)
            return ParamError{"dim", "an even integer from 2 to 65536 (the rope head dimension)", formatInt(dim)};
        return ropeParams().validate();
    case Method::Xpos:
        if (dim < 2 || dim % 2 != 0)
            return ParamError{"dim", "an even integer from 2 to 65536 (the xpos head dimension)", formatInt(dim)};
        return xposParams().validate();
    }
    return std::nullopt;
}

void ScoreParams::applyLayer(std::int64_t layer) {
    if (model.validate() || layer < 0 || layer >= layerCount(model)) {
        model.layer = layer;
        return;
    }
    const LayerParams lp = layerParams(model, layer);
    model.layer = layer;
    method = Method::Rope;
    rope = lp.ropeParams;
    rope.head_dim = dim;
    rope.precision = precision;
    attention = lp.attention;
}

std::optional<double> ScoreParams::sinkLogit() const {
    if (attention.sink.empty() || head < 0 || head >= static_cast<int>(attention.sink.size())) return std::nullopt;
    return attention.sink[static_cast<std::size_t>(head)];
}

RopeParams ScoreParams::ropeParams() const {
    RopeParams r = rope;
    r.head_dim = dim;
    r.precision = precision;
    return r;
}
XposParams ScoreParams::xposParams() const {
    XposParams x = xpos;
    x.head_dim = dim;
    x.precision = precision;
    return x;
}
SinusoidalParams ScoreParams::sinusoidalParams() const {
    SinusoidalParams s = sinusoidal;
    s.dim = dim;
    s.precision = precision;
    return s;
}
LearnedParams ScoreParams::learnedParams() const {
    LearnedParams l = learned;
    l.dim = dim;
    return l;
}
ShawParams ScoreParams::shawParams() const {
    ShawParams s = shaw;
    s.dim = dim;
    return s;
}
T5Params ScoreParams::t5Params() const {
    T5Params t = t5;
    t.bidirectional = !causal;
    return t;
}
TransformerXLParams ScoreParams::transformerXLParams() const {
    TransformerXLParams t = transformer_xl;
    t.dim = dim;
    return t;
}
AlibiParams ScoreParams::alibiParams() const {
    AlibiParams a = alibi;
    a.symmetric = !causal;
    a.precision = precision;
    return a;
}

Matrix contentRows(Content content, bool key, const Positions& positions, int dim, std::uint64_t seed) {
    const auto rows = static_cast<Eigen::Index>(positions.size());
    switch (content) {
    case Content::Ones: return Matrix::Ones(rows, dim);
    case Content::Random: return seededNormalRows(positions, dim, seed, key ? kStreamK : kStreamQ);
    case Content::Formula: {
        Matrix m(rows, dim);
        const double a = key ? 0.3 : 0.5;
        const double b = key ? 1.1 : 0.7;
        for (Eigen::Index r = 0; r < rows; ++r) {
            const double base = static_cast<double>(positions[static_cast<std::size_t>(r)]) * dim;
            for (int c = 0; c < dim; ++c) m(r, c) = std::sin(a + b * (base + c));
        }
        return m;
    }
    }
    return Matrix::Ones(rows, dim);
}

Matrix contentRows(const ScoreParams& params, bool key, const Positions& positions) {
    if (params.source) return params.source->rows(key, positions);
    return contentRows(params.content, key, positions, params.dim, params.seed);
}

namespace {
Check checkSourceLength(const ScoreParams& params, std::int64_t length) {
    if (params.source && length > params.source->length())
        return ParamError{"length", "at most the N of the query/key file (" + params.source->name() + ") = " +
                                        formatInt(params.source->length()),
                          formatInt(length)};
    return std::nullopt;
}
}  // namespace

Result<DiagonalMeans> diagonalMeans(const ScoreParams& params, const std::vector<std::int64_t>& distances,
                                    std::int64_t length) {
    if (auto e = params.validate()) return *e;
    if (length < 1 || length > kMaxPosition)
        return ParamError{"length", "an integer from 1 to " + formatInt(kMaxPosition), formatInt(length)};
    if (auto e = checkSourceLength(params, length)) return *e;
    if (distances.empty()) return ParamError{"max_distance", "at least one distance", "none"};
    std::int64_t maxD = 0;
    for (auto d : distances) {
        if (d < 0 || d >= length)
            return ParamError{"max_distance", "distances from 0 to length − 1 = " + formatInt(length - 1), formatInt(d)};
        maxD = std::max(maxD, d);
    }
    constexpr std::int64_t kBlock = 256;
    if (satMul(kBlock + maxD, params.dim) > kMaxSideEntries)
        return ParamError{"max_distance", "(256 + max distance)·dim at most " + formatInt(kMaxSideEntries),
                          formatInt(maxD)};
    if (satMul(satMul(length, kBlock + maxD), params.dim + entryCost(params)) > kMaxWork)
        return ParamError{"length",
                          "length·(256 + max distance)·(dim + " + formatInt(entryCost(params)) + ") at most " +
                              formatInt(kMaxWork) + " (a few seconds of work)",
                          formatInt(length)};
    ScoreParams p = params;
    p.softmax = false;
    Engine e(p, length);
    if (auto err = e.prepare()) return *err;
    // Block rows [a, b) against keys [max(0, a − maxD), b): every (i, i − d) with d <= maxD.
    std::vector<double> sum(static_cast<std::size_t>(maxD + 1), 0.0);
    for (std::int64_t a = 0; a < length; a += kBlock) {
        const std::int64_t b = std::min(length, a + kBlock);
        const std::int64_t k0 = std::max<std::int64_t>(0, a - maxD);
        const Positions qp = arangePositions(a, b), kp = arangePositions(k0, b);
        auto qs = e.side(false, qp);
        if (!qs) return qs.error();
        auto ks = e.side(true, kp);
        if (!ks) return ks.error();
        const Matrix m = e.block(qs.value(), qp, ks.value(), kp);
        if (auto err = checkFinite(m)) return *err;
        for (std::int64_t i = a; i < b; ++i)
            for (std::int64_t j = std::max(k0, i - maxD); j <= i; ++j)
                sum[static_cast<std::size_t>(i - j)] += m(static_cast<Eigen::Index>(i - a), static_cast<Eigen::Index>(j - k0));
    }
    DiagonalMeans out;
    out.distance = distances;
    out.value.resize(static_cast<Eigen::Index>(distances.size()));
    for (std::size_t t = 0; t < distances.size(); ++t) {
        const std::int64_t d = distances[t];
        out.count.push_back(length - d);
        out.value[static_cast<Eigen::Index>(t)] = sum[static_cast<std::size_t>(d)] / static_cast<double>(length - d);
    }
    return out;
}

Result<Matrix> scores(const ScoreParams& params, const Positions& queries, const Positions& keys,
                      std::int64_t length, std::vector<double>* sinkMass) {
    if (auto e = params.validate()) return *e;
    if (length < 1 || length > kMaxPosition)
        return ParamError{"length", "an integer from 1 to " + formatInt(kMaxPosition), formatInt(length)};
    if (auto e = checkSourceLength(params, length)) return *e;
    if (auto e = validatePositions(queries, "queries")) return *e;
    if (auto e = validatePositions(keys, "keys")) return *e;
    for (auto q : queries)
        if (q >= length) return ParamError{"queries", "positions from 0 to length − 1 = " + formatInt(length - 1), formatInt(q)};
    for (auto k : keys)
        if (k >= length) return ParamError{"keys", "positions from 0 to length − 1 = " + formatInt(length - 1), formatInt(k)};
    const auto nq = static_cast<std::int64_t>(queries.size());
    const auto nk = static_cast<std::int64_t>(keys.size());
    if (satMul(nq, nk) > kMaxBlockEntries)
        return ParamError{"queries", "|queries|·|keys| at most " + formatInt(kMaxBlockEntries),
                          formatInt(nq) + "·" + formatInt(nk)};
    if (satMul(nq + nk, params.dim) > kMaxSideEntries)
        return ParamError{"dim", "(|queries| + |keys|)·dim at most " + formatInt(kMaxSideEntries), formatInt(params.dim)};
    if (params.softmax) {
        // The normaliser's work: every visible key of every query (length·|queries| without a
        // window or chunk).
        std::int64_t span = 0;
        for (auto q : queries) {
            const KeyRange r = visibleKeys(params.attention, params.attention.causalWith(params.causal), q, length);
            span = std::min(span + (r.last - r.first + 1), std::numeric_limits<std::int64_t>::max() / 2);
        }
        if (!params.attention.window && !params.attention.chunk) span = satMul(length, nq);
        if (span > kMaxSoftmaxSpan || satMul(span, params.dim + entryCost(params)) > kMaxWork)
            return ParamError{"length",
                              "length·|queries| at most " + formatInt(kMaxSoftmaxSpan) + " and length·|queries|·(dim + " +
                                  formatInt(entryCost(params)) + ") at most " + formatInt(kMaxWork) + " for an exact softmax",
                              formatInt(length)};
    }

    const ScoreParams eff = effective(params);
    const AttentionParams& at = eff.attention;
    const bool causal = at.causalWith(eff.causal);
    Engine e(eff, length);
    if (auto err = e.prepare()) return *err;
    auto qs = e.side(false, queries);
    if (!qs) return qs.error();
    // The same positions with the same rows on both sides: the keys' side is the queries' (the
    // rotary tables and rotation of N rows once, not twice).
    const bool alike = queries == keys && e.sidesAlike();
    Result<Matrix> ks = alike ? Result<Matrix>(Matrix()) : e.side(true, keys);
    if (!ks) return ks.error();
    const Matrix& keyRows = alike ? qs.value() : ks.value();
    std::vector<KeyRange> ranges(static_cast<std::size_t>(nq));
    for (std::size_t i = 0; i < ranges.size(); ++i) ranges[i] = visibleKeys(at, causal, queries[i], length);
    auto masked = [&](Eigen::Index i, Eigen::Index j) {
        return !ranges[static_cast<std::size_t>(i)].contains(keys[static_cast<std::size_t>(j)]);
    };
    bool finite = false;   // the kernel found every entry finite already
    Matrix s = e.block(qs.value(), queries, keyRows, keys, true, &finite);
    std::int64_t keyLo = length, keyHi = -1;   // a row whose range holds every key masks nothing
    for (auto k : keys) keyLo = std::min(keyLo, k), keyHi = std::max(keyHi, k);
    for (Eigen::Index i = 0; i < s.rows(); ++i) {
        const KeyRange& r = ranges[static_cast<std::size_t>(i)];
        if (r.first <= keyLo && r.last >= keyHi) continue;
        for (Eigen::Index j = 0; j < s.cols(); ++j)
            if (masked(i, j)) s(i, j) = kNegInf;
    }
    // Masking wrote −∞ only, which checkFinite() accepts.
    if (!finite)
        if (auto err = checkFinite(s)) return *err;
    if (!eff.softmax) return s;

    // Exact row normaliser over the visible keys of each query (and nothing else: a key chunk
    // no query sees is never computed, and a query only takes the keys of its own range),
    // streamed in chunks with the running-maximum (online softmax) update.
    std::vector<double> rowMax(static_cast<std::size_t>(nq), kNegInf), rowSum(static_cast<std::size_t>(nq), 0.0);
    std::int64_t keyBegin = length, keyEnd = 0;
    for (const auto& r : ranges) keyBegin = std::min(keyBegin, r.first), keyEnd = std::max(keyEnd, r.last + 1);
    const auto reach = visibleTo(at, causal);
    std::int64_t chunk = std::max<std::int64_t>(1, std::min<std::int64_t>(4096, (std::int64_t{1} << 22) / nq));
    if (reach) chunk = std::clamp<std::int64_t>(*reach + 1, 64, chunk);
    std::vector<Eigen::Index> rows;
    for (std::int64_t a = keyBegin; a < keyEnd; a += chunk) {
        const std::int64_t b = std::min(keyEnd, a + chunk);
        rows.clear();
        for (Eigen::Index i = 0; i < nq; ++i) {
            const KeyRange& r = ranges[static_cast<std::size_t>(i)];
            if (r.first < b && r.last >= a) rows.push_back(i);
        }
        if (rows.empty()) continue;
        const Positions kp = arangePositions(a, b);
        auto kr = e.side(true, kp);
        if (!kr) return kr.error();
        Matrix qsel(static_cast<Eigen::Index>(rows.size()), eff.dim);
        Positions qpos(rows.size());
        for (std::size_t t = 0; t < rows.size(); ++t) {
            qsel.row(static_cast<Eigen::Index>(t)) = qs.value().row(rows[t]);
            qpos[t] = queries[static_cast<std::size_t>(rows[t])];
        }
        const Matrix c = e.block(qsel, qpos, kr.value(), kp);
        if (auto err = checkFinite(c)) return *err;
        for (std::size_t t = 0; t < rows.size(); ++t) {
            const auto i = static_cast<std::size_t>(rows[t]);
            const KeyRange& r = ranges[i];
            const Eigen::Index j0 = std::max(r.first, a) - a, j1 = std::min(r.last + 1, b) - a;
            const auto row = static_cast<Eigen::Index>(t);
            double m = rowMax[i];
            for (Eigen::Index j = j0; j < j1; ++j) m = std::max(m, c(row, j));
            double z = rowMax[i] == kNegInf ? 0.0 : rowSum[i] * std::exp(rowMax[i] - m);
            for (Eigen::Index j = j0; j < j1; ++j) z += std::exp(c(row, j) - m);
            rowMax[i] = m;
            rowSum[i] = z;
        }
    }
    // The sink joins each row's normaliser: Z' = Z·e^(m − M) + e^(σ − M), M = max(m, σ).
    const std::optional<double> sink = eff.sinkLogit();
    if (sink) {
        if (sinkMass) sinkMass->assign(static_cast<std::size_t>(nq), 0.0);
        for (std::size_t i = 0; i < rowMax.size(); ++i) {
            const double M = std::max(rowMax[i], *sink);
            rowSum[i] = rowSum[i] * std::exp(rowMax[i] - M) + std::exp(*sink - M);
            rowMax[i] = M;
            if (sinkMass) (*sinkMass)[i] = std::exp(*sink - M) / rowSum[i];
        }
    }
    for (Eigen::Index i = 0; i < s.rows(); ++i)
        for (Eigen::Index j = 0; j < s.cols(); ++j)
            s(i, j) = masked(i, j) ? 0.0 : std::exp(s(i, j) - rowMax[std::size_t(i)]) / rowSum[std::size_t(i)];
    return s;
}

Result<ScoreSummary> scoresSummary(const ScoreParams& params, std::int64_t length) {
    if (auto e = params.validate()) return *e;
    if (auto e = checkSourceLength(params, length)) return *e;
    const bool structured = isPositionalOnly(effective(params));
    const std::int64_t maxLength = structured && !params.softmax ? kMaxStructuredLength : kMaxSummaryLength;
    if (length < 1 || length > maxLength)
        return ParamError{"length",
                          "an integer from 1 to " + formatInt(maxLength) +
                              (structured && !params.softmax ? std::string{}
                                                              : " (up to " + formatInt(kMaxStructuredLength) +
                                                                    " for ones content with a relative method, no softmax)"),
                          formatInt(length)};
    if (structured) {
        // One evaluation per distance: about length·dim work, more for rotations (sin/cos per
        // pair) and Transformer-XL (a dim × dim projection per distance).
        const std::int64_t perDistance = params.method == Method::TransformerXL ? satMul(params.dim, params.dim)
                                         : (params.method == Method::Rope || params.method == Method::Xpos) ? 16 * std::int64_t(params.dim)
                                                                                                               : params.dim;
        if (satMul(length, perDistance) > kMaxStructuredWork)
            return ParamError{"length",
                              "length·" + std::string(params.method == Method::TransformerXL ? "dim²" : "dim") + " at most " +
                                  formatInt(kMaxStructuredWork / (perDistance / std::max(1, params.method == Method::TransformerXL
                                                                                              ? params.dim * params.dim
                                                                                              : params.dim))) +
                                  " for this method",
                              formatInt(length)};
    } else {
        if (satMul(length, params.dim) > kMaxSideEntries)
            return ParamError{"length", "length·dim at most " + formatInt(kMaxSideEntries), formatInt(length)};
        if (satMul(satMul(length, length), params.dim + entryCost(params)) > kMaxWork)
            return ParamError{"length",
                              "length²·(dim + " + formatInt(entryCost(params)) + " for the method's per-entry work) at most " +
                                  formatInt(kMaxWork) + " (a few seconds of work)",
                              formatInt(length)};
    }
    const ScoreParams eff = effective(params);
    Engine e(eff, length);
    if (auto err = e.prepare()) return *err;
    return structured ? structuredSummary(eff, e, length) : blockedSummary(eff, e, length);
}

}  // namespace poslab

namespace poslab {

bool scoresAreDistanceFunction(const ScoreParams& params) { return !params.softmax && isPositionalOnly(params); }

Result<std::vector<double>> scoresByDistance(const ScoreParams& params, std::int64_t length, std::int64_t lo,
                                            std::int64_t hi) {
    if (auto e = params.validate()) return *e;
    if (length < 1 || length > kMaxStructuredLength)
        return ParamError{"length", "an integer from 1 to " + formatInt(kMaxStructuredLength), formatInt(length)};
    if (lo > hi || lo < -(length - 1) || hi > length - 1)
        return ParamError{"distances", "a range within ±(length − 1) = ±" + formatInt(length - 1),
                          formatInt(lo) + ".." + formatInt(hi)};
    const bool txl = params.method == Method::TransformerXL;
    const bool rotates = params.method == Method::Rope || params.method == Method::Xpos;
    const std::int64_t perDistance = txl ? satMul(params.dim, params.dim) : (rotates ? 16 : 1) * std::int64_t(params.dim);
    if (satMul(hi - lo + 1, perDistance) > kMaxStructuredWork)
        return ParamError{"length",
                          "distances·" + std::string(txl ? "dim²" : "dim") + " at most " +
                              formatInt(kMaxStructuredWork / (rotates ? 16 : 1)) + " for this method",
                          formatInt(length)};
    Engine e(params, length);
    if (auto err = e.prepare()) return *err;
    const bool mirror = params.content == Content::Ones &&
                        (params.method == Method::Rope || params.method == Method::NoPE ||
                         (params.method == Method::Alibi && !params.causal)) &&
                        -lo <= hi;   // the mirrored half must lie in the evaluated one
    auto f = distanceScores(e, lo, hi, mirror);
    if (!f) return f.error();
    for (double v : f.value())
        if (!std::isfinite(v)) return ParamError{"result", "parameters for which every score is finite", formatNumber(v)};
    return f;
}

std::int64_t scoresWork(const ScoreParams& params, std::int64_t length, std::int64_t rows, std::int64_t cols) {
    const std::int64_t per = params.dim + entryCost(params);
    std::int64_t w = satMul(satMul(rows, cols), per);
    if (params.softmax) w = std::max(w, satMul(satMul(rows, length), per));
    // Transformer-XL's side rows: a dim × dim projection per position.
    if (params.method == Method::TransformerXL) w = std::max(w, satMul(rows + cols, satMul(params.dim, params.dim)));
    return w;
}

}  // namespace poslab
