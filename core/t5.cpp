#include "core/t5.h"

#include <algorithm>
#include <cmath>

#include "core/random.h"

namespace poslab {

namespace {
constexpr int kMaxBuckets = 1024;
constexpr std::int64_t kMaxDistance = 1'000'000'000;
constexpr int kMaxHeads = 256;
constexpr std::uint64_t kStream = 3;
constexpr double kStddev = 1.0;

// Buckets per direction and the exact range, as _relative_position_bucket derives them.
struct Shape {
    std::int64_t nb;        // num_buckets, halved when bidirectional
    std::int64_t maxExact;  // nb // 2
};
Shape shapeOf(const T5Params& p) {
    const std::int64_t nb = p.bidirectional ? p.num_buckets / 2 : p.num_buckets;
    return {nb, nb / 2};
}

// The bucket of a distance magnitude n >= 0 within one direction.
// torch: max_exact + (torch.log(n.float() / max_exact) / math.log(max_distance / max_exact)
//                     * (num_buckets - max_exact)).to(torch.long), min with num_buckets − 1.
// Every tensor op is float32: n.float() rounds to float32; "/ max_exact" divides by the int
// scalar in float32; log is float32; math.log(...) is a Python double, rounded to float32 as
// the divisor; "* (nb − max_exact)" multiplies in float32; .to(long) truncates toward zero.
std::int64_t magnitudeBucket(std::uint64_t n, const Shape& s, float logRatio) {
    if (n < static_cast<std::uint64_t>(s.maxExact)) return static_cast<std::int64_t>(n);
    const float x = static_cast<float>(n);
    const float y = x / static_cast<float>(s.maxExact);
    const float l = static_cast<float>(std::log(static_cast<double>(y)));
    const float q = l / logRatio;
    const float r = q * static_cast<float>(s.nb - s.maxExact);
    const std::int64_t room = s.nb - 1 - s.maxExact;   // the cap, relative to max_exact
    // r >= 0 here (y >= 1); truncation toward zero; compare in float first so that a huge r
    // never reaches the integer conversion.
    if (!(r < static_cast<float>(room))) return s.nb - 1;
    return std::min(s.maxExact + static_cast<std::int64_t>(r), s.nb - 1);
}

float logRatioOf(const T5Params& p, const Shape& s) {
    // math.log(max_distance / max_exact): Python true division and log in double.
    return static_cast<float>(std::log(static_cast<double>(p.max_distance) / static_cast<double>(s.maxExact)));
}

std::int64_t bucketWith(std::int64_t relative, const T5Params& p, const Shape& s, float logRatio) {
    std::int64_t bucket = 0;
    std::uint64_t n;
    if (p.bidirectional) {
        if (relative > 0) bucket += s.nb;
        n = relative >= 0 ? static_cast<std::uint64_t>(relative)
                          : static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(relative);
    } else {
        // −min(rel, 0): future keys (rel > 0) have n = 0.
        n = relative >= 0 ? 0 : static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(relative);
    }
    return bucket + magnitudeBucket(n, s, logRatio);
}

// Saturating b − a for positions (no overflow for any int64).
std::int64_t difference(std::int64_t b, std::int64_t a) {
    std::int64_t d;
    if (__builtin_sub_overflow(b, a, &d)) return b > a ? INT64_MAX : INT64_MIN;
    return d;
}
}  // namespace

const ParamTable<T5Params>& t5ParamTable() {
    using K = ParamKind;
    static const ParamTable<T5Params> t = {
        field<&T5Params::num_buckets>({.name = "num_buckets", .kind = K::Int, .lo = 2, .hi = kMaxBuckets, .label = "Buckets",
                                       .help = "T5 relative_attention_num_buckets",
                                       .validNote = "(bidirectional: even and >= 4)"}),
        field<&T5Params::max_distance>({.name = "max_distance", .kind = K::Int, .lo = 2,
                                        .hi = static_cast<double>(kMaxDistance), .label = "Max distance",
                                        .help = "T5 relative_attention_max_distance", .unit = "tokens",
                                        .validNote = "(above max_exact)"}),
        field<&T5Params::bidirectional>({.name = "bidirectional", .kind = K::Bool, .label = "Bidirectional",
                                         .help = "encoder buckets (both directions) instead of decoder buckets",
                                         .flags = kParamShared}),
        field<&T5Params::heads>({.name = "heads", .kind = K::Int, .lo = 1, .hi = kMaxHeads, .label = "Heads",
                                 .help = "heads of the seeded bias table"}),
        field<&T5Params::seed>({.name = "seed", .kind = K::Seed, .label = "Table seed", .help = "seed of the bias table"}),
    };
    return t;
}

Check T5Params::validate() const {
    if (auto e = checkParams(t5ParamTable(), *this)) return e;
    if (bidirectional) {
        if (num_buckets < 4 || num_buckets > kMaxBuckets || num_buckets % 2 != 0)
            return ParamError{"num_buckets",
                              "an even integer from 4 to " + formatInt(kMaxBuckets) + " (bidirectional)",
                              formatInt(num_buckets)};
    } else if (num_buckets < 2 || num_buckets > kMaxBuckets) {
        return ParamError{"num_buckets", "an integer from 2 to " + formatInt(kMaxBuckets) + " (causal)",
                          formatInt(num_buckets)};
    }
    const std::int64_t maxExact = shapeOf(*this).maxExact;
    if (max_distance <= maxExact || max_distance > kMaxDistance)
        return ParamError{"max_distance",
                          "an integer from " + formatInt(maxExact + 1) + " to " + formatInt(kMaxDistance) +
                              " (above max_exact = " + formatInt(maxExact) + ")",
                          formatInt(max_distance)};
    return std::nullopt;
}

Check t5ValidateMatrix(std::int64_t query_length, std::int64_t key_length, std::int64_t past) {
    constexpr std::int64_t kMaxLength = 1'000'000;
    constexpr std::int64_t kMaxEntries = std::int64_t{1} << 26;
    if (query_length < 1 || query_length > kMaxLength)
        return ParamError{"query_length", "an integer from 1 to " + formatInt(kMaxLength), formatInt(query_length)};
    const std::int64_t maxK = std::min(kMaxLength, kMaxEntries / query_length);
    if (key_length < 1 || key_length > maxK)
        return ParamError{"key_length",
                          "an integer from 1 to " + formatInt(maxK) +
                              (maxK < kMaxLength ? " (query_length·key_length <= 67108864)" : ""),
                          formatInt(key_length)};
    if (past < 0 || past > kMaxPosition)
        return ParamError{"past", "an integer from 0 to " + formatInt(kMaxPosition), formatInt(past)};
    return std::nullopt;
}

std::int64_t t5Bucket(std::int64_t relative, const T5Params& params) {
    const Shape s = shapeOf(params);
    return bucketWith(relative, params, s, logRatioOf(params, s));
}

std::vector<std::int64_t> t5Buckets(const std::vector<std::int64_t>& relative, const T5Params& params) {
    const Shape s = shapeOf(params);
    const float lr = logRatioOf(params, s);
    std::vector<std::int64_t> out;
    out.reserve(relative.size());
    for (auto r : relative) out.push_back(bucketWith(r, params, s, lr));
    return out;
}

IntMatrix t5BucketMatrix(std::int64_t query_length, std::int64_t key_length, std::int64_t past,
                         const T5Params& params) {
    const Shape s = shapeOf(params);
    const float lr = logRatioOf(params, s);
    const std::int64_t q = std::max<std::int64_t>(query_length, 0);
    const std::int64_t k = std::max<std::int64_t>(key_length, 0);
    IntMatrix m(q, k);
    for (std::int64_t i = 0; i < q; ++i) {
        // context_position = arange(query_length)[:, None] + past; memory_position = arange(key_length)
        const std::int64_t qp = past + i;
        for (std::int64_t j = 0; j < k; ++j) m(i, j) = bucketWith(difference(j, qp), params, s, lr);
    }
    return m;
}

Matrix t5BiasTable(const T5Params& params) {
    return seededNormal(params.num_buckets, params.heads, params.seed, kStream, kStddev);
}

Matrix t5Bias(const T5Params& params, int head, const Positions& queries, const Positions& keys) {
    const Shape s = shapeOf(params);
    const float lr = logRatioOf(params, s);
    const Matrix table = t5BiasTable(params);
    const int h = std::clamp(head, 0, std::max(params.heads - 1, 0));
    Matrix out(static_cast<Eigen::Index>(queries.size()), static_cast<Eigen::Index>(keys.size()));
    for (std::size_t i = 0; i < queries.size(); ++i)
        for (std::size_t j = 0; j < keys.size(); ++j)
            out(Eigen::Index(i), Eigen::Index(j)) =
                table(bucketWith(difference(keys[j], queries[i]), params, s, lr), h);
    return out;
}

}  // namespace poslab
