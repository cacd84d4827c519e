#include "core/learned.h"

#include <algorithm>

#include "core/random.h"

namespace poslab {

namespace {
constexpr int kMaxDim = 65536;
constexpr std::int64_t kMaxTableSize = 1'048'576;
constexpr std::int64_t kMaxTableEntries = std::int64_t{1} << 26;
constexpr std::uint64_t kStream = 0;
constexpr double kStddev = 0.02;
}  // namespace

const ParamTable<LearnedParams>& learnedParamTable() {
    using K = ParamKind;
    static const ParamTable<LearnedParams> t = {
        field<&LearnedParams::dim>({.name = "dim", .kind = K::Int, .lo = 1, .hi = kMaxDim, .label = "Dimension",
                                    .help = "model dimension", .flags = kParamShared}),
        field<&LearnedParams::table_size>({.name = "table_size", .kind = K::Int, .lo = 1,
                                           .hi = static_cast<double>(kMaxTableSize), .label = "Table size",
                                           .help = "learned table rows (max_position_embeddings)", .unit = "positions",
                                           .validNote = "(table_size*dim <= 67108864)"}),
        field<&LearnedParams::seed>({.name = "seed", .kind = K::Seed, .label = "Table seed", .help = "seed of the table"}),
    };
    return t;
}

Check LearnedParams::validate() const {
    if (auto e = checkParams(learnedParamTable(), *this)) return e;
    const std::int64_t maxRows = std::min(kMaxTableSize, kMaxTableEntries / dim);
    if (table_size < 1 || table_size > maxRows)
        return ParamError{"table_size",
                          "an integer from 1 to " + formatInt(maxRows) +
                              (maxRows < kMaxTableSize ? " (table_size·dim <= 67108864)" : ""),
                          formatInt(table_size)};
    return std::nullopt;
}

Matrix learnedTable(const LearnedParams& params) {
    return seededNormal(params.table_size, params.dim, params.seed, kStream, kStddev);
}

Result<Matrix> learnedEncoding(const LearnedParams& params, const Positions& positions) {
    if (positions.empty()) return ParamError{"positions", "at least one position", "an empty list"};
    for (auto p : positions) {
        if (p < 0 || p >= params.table_size)
            return ParamError{"positions",
                              "integers from 0 to " + formatInt(params.table_size - 1) +
                                  " (the learned table has " + formatInt(params.table_size) + " rows)",
                              formatInt(p)};
    }
    return seededNormalRows(positions, params.dim, params.seed, kStream, kStddev);
}

}  // namespace poslab
