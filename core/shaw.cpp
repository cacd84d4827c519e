#include "core/shaw.h"
#include "core/ensure.h"

#include <algorithm>
#include <cmath>

#include "core/random.h"

namespace poslab {

namespace {
constexpr int kMaxDim = 65536;
constexpr std::int64_t kMaxRelative = 1'000'000;
constexpr std::int64_t kMaxEntries = std::int64_t{1} << 26;

// clip(key − query, −k, k) + k without overflow for any int64 inputs (k >= 0).
std::int64_t clippedIndex(std::int64_t query, std::int64_t key, std::int64_t k) {
    if (key >= query) {
        const std::uint64_t d = static_cast<std::uint64_t>(key) - static_cast<std::uint64_t>(query);
        return d >= static_cast<std::uint64_t>(k) ? 2 * k : static_cast<std::int64_t>(d) + k;
    }
    const std::uint64_t d = static_cast<std::uint64_t>(query) - static_cast<std::uint64_t>(key);
    return d >= static_cast<std::uint64_t>(k) ? 0 : k - static_cast<std::int64_t>(d);
}

constexpr std::uint64_t kKeyStream = 1, kValueStream = 2;

double stddev(const ShawParams& p) { return 1.0 / std::sqrt(static_cast<double>(p.dim)); }

Matrix table(const ShawParams& p, std::uint64_t stream) {
    return seededNormal(2 * p.max_relative_position + 1, p.dim, p.seed, stream, stddev(p));
}
}  // namespace

const ParamTable<ShawParams>& shawParamTable() {
    using K = ParamKind;
    static const ParamTable<ShawParams> t = {
        field<&ShawParams::max_relative_position>({.name = "max_relative_position", .kind = K::Int, .lo = 1,
                                                   .hi = static_cast<double>(kMaxRelative),
                                                   .label = "Max relative position k", .help = "Shaw clipping distance",
                                                   .unit = "tokens", .validNote = "((2k+1)*dim <= 67108864)",
                                                   .flags = kParamSlider}),
        field<&ShawParams::dim>({.name = "dim", .kind = K::Int, .lo = 1, .hi = kMaxDim, .label = "Dimension",
                                 .help = "table width", .flags = kParamShared}),
        field<&ShawParams::seed>({.name = "seed", .kind = K::Seed, .label = "Table seed", .help = "seed of the table"}),
    };
    return t;
}

Check ShawParams::validate() const {
    if (auto e = checkParams(shawParamTable(), *this)) return e;
    // (2k+1)·dim table entries at most 2^26.
    const std::int64_t maxK = std::min(kMaxRelative, (kMaxEntries / dim - 1) / 2);
    if (max_relative_position < 1 || max_relative_position > maxK)
        return ParamError{"max_relative_position",
                          "an integer from 1 to " + formatInt(maxK) +
                              (maxK < kMaxRelative ? " ((2k+1)·dim <= 67108864)" : ""),
                          formatInt(max_relative_position)};
    return std::nullopt;
}

Check shawValidateLengths(std::int64_t query_length, std::int64_t key_length, bool cache) {
    constexpr std::int64_t kMaxLength = 1'000'000;
    if (key_length < 1 || key_length > kMaxLength)
        return ParamError{"key_length", "an integer from 1 to " + formatInt(kMaxLength), formatInt(key_length)};
    if (cache) return std::nullopt;
    const std::int64_t maxQ = std::min(key_length, kMaxEntries / key_length);
    if (query_length < 1 || query_length > maxQ)
        return ParamError{"query_length",
                          "an integer from 1 to " + formatInt(maxQ) +
                              (maxQ < key_length ? " (query_length·key_length <= 67108864)"
                                                 : " (key_length)"),
                          formatInt(query_length)};
    return std::nullopt;
}

IntMatrix shawIndex(std::int64_t query_length, std::int64_t key_length, std::int64_t max_relative_position,
                    bool cache) {
    POSLAB_ENSURE(query_length >= 1 && key_length >= 1, "1 <= query_length, 1 <= key_length");
    const std::int64_t k = std::max<std::int64_t>(max_relative_position, 0);
    if (key_length < 1) return IntMatrix(cache ? 1 : 0, 0);
    if (cache) {
        // tf.range(-length_k + 1, 1): distances −(K−1) … 0 (query at the last position).
        IntMatrix m(1, key_length);
        for (std::int64_t j = 0; j < key_length; ++j) m(0, j) = clippedIndex(key_length - 1, j, k);
        return m;
    }
    // range_vec_q = range_vec_k[-length_q:]: the last Q key positions (all K when Q >= K).
    const std::int64_t q = std::clamp<std::int64_t>(query_length, 0, key_length);
    IntMatrix m(q, key_length);
    for (std::int64_t i = 0; i < q; ++i) {
        const std::int64_t qi = key_length - q + i;
        for (std::int64_t j = 0; j < key_length; ++j) m(i, j) = clippedIndex(qi, j, k);
    }
    return m;
}

IntMatrix shawIndexAt(const Positions& queries, const Positions& keys, std::int64_t max_relative_position) {
    const std::int64_t k = std::max<std::int64_t>(max_relative_position, 0);
    IntMatrix m(static_cast<Eigen::Index>(queries.size()), static_cast<Eigen::Index>(keys.size()));
    for (std::size_t i = 0; i < queries.size(); ++i)
        for (std::size_t j = 0; j < keys.size(); ++j)
            m(Eigen::Index(i), Eigen::Index(j)) = clippedIndex(queries[i], keys[j], k);
    return m;
}

Matrix shawKeyTable(const ShawParams& params) { return table(params, kKeyStream); }
Matrix shawValueTable(const ShawParams& params) { return table(params, kValueStream); }

Matrix shawKeyRows(const ShawParams& params, const std::vector<std::int64_t>& rows) {
    POSLAB_ENSURE(std::all_of(rows.begin(), rows.end(),
                              [k = params.max_relative_position](std::int64_t r) { return r >= 0 && r <= 2 * k; }),
                  "every row in [0, 2k]");
    return seededNormalRows(rows, params.dim, params.seed, kKeyStream, stddev(params));
}

}  // namespace poslab
