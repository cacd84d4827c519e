#include "core/visionrope.h"
#include "core/ensure.h"

#include "core/mrope.h"
#include "core/rope.h"

#include <charconv>
#include <cmath>

namespace poslab {

namespace {
constexpr double kMaxTheta = 1e12;

bool parsePositive(std::string_view s, std::int64_t& out) {
    if (s.empty() || s.size() > 8) return false;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size() && out >= 1 && out <= kMaxLayoutTokens;
}

// The default-RoPE frequencies 1/θ^(2i/dim), i < dim/2, as torch computes them (float32).
Vector defaultFrequencies(int dim, double theta, Precision precision) {
    RopeParams r;
    r.head_dim = dim;
    r.base = theta;
    r.precision = precision == Precision::Double ? Precision::Double : Precision::Float32;
    return ropeFrequencies(r).inv_freq;
}
}  // namespace

const ParamTable<VisionRopeParams>& visionRopeParamTable() {
    using K = ParamKind;
    static const ParamTable<VisionRopeParams> t = {
        field<&VisionRopeParams::encoder>({.name = "vision", .kind = K::Choice, .label = "Vision encoder",
                                           .help = "the vision encoder's 2-D RoPE: Qwen2-VL's or Pixtral's",
                                           .choiceLabels = {"Qwen2-VL", "Pixtral"}}),
        field<&VisionRopeParams::grid>({.name = "grid", .kind = K::Text, .label = "Patch grid",
                                        .help = "the patch grid TxHxW", .unset = "none", .maxChars = 64}),
        field<&VisionRopeParams::merge>({.name = "merge", .kind = K::Int, .lo = 1, .hi = 64, .label = "Merge size",
                                         .help = "vision spatial_merge_size (divides H and W)"})
            .when([](const VisionRopeParams& s) { return s.encoder == VisionRope::Qwen; }),
        field<&VisionRopeParams::patches_per_side>({.name = "patches_per_side", .kind = K::Int, .lo = 1, .hi = 4096,
                                                    .label = "Patches per side",
                                                    .help = "Pixtral image_size // patch_size: the row stride of position ids"})
            .when([](const VisionRopeParams& s) { return s.encoder == VisionRope::Pixtral; }),
        field<&VisionRopeParams::head_dim>({.name = "head_dim", .kind = K::Int, .lo = 4, .hi = 65536, .label = "Head dimension",
                                            .help = "the vision encoder's head dimension (a multiple of 4)"}),
        field<&VisionRopeParams::theta>({.name = "base", .kind = K::Real, .lo = 1, .hi = kMaxTheta, .loOpen = true,
                                         .label = "Base θ", .help = "the vision rotary base"}),
        field<&VisionRopeParams::precision>({.name = "precision", .kind = K::Choice, .label = "Precision",
                                             .help = "float32 as the encoders compute, or double",
                                             .flags = kParamShared, .choices = {"float32", "double"}}),
    };
    return t;
}

Result<VisionGrid> parseVisionGrid(std::string_view text) {
    const std::string valid = "TxHxW with positive integers T, H, W (T·H·W at most 4194304)";
    VisionGrid g;
    const std::size_t x1 = text.find('x');
    const std::size_t x2 = x1 == std::string_view::npos ? x1 : text.find('x', x1 + 1);
    if (x2 == std::string_view::npos || text.find('x', x2 + 1) != std::string_view::npos || !parsePositive(text.substr(0, x1), g.t) ||
        !parsePositive(text.substr(x1 + 1, x2 - x1 - 1), g.h) || !parsePositive(text.substr(x2 + 1), g.w) ||
        g.t * g.h * g.w > kMaxLayoutTokens)
        return ParamError{"grid", valid, text.empty() ? "none" : std::string(text.substr(0, 64))};
    return g;
}

Check VisionRopeParams::validate() const {
    if (auto e = checkParams(visionRopeParamTable(), *this)) return e;
    if (head_dim % 4 != 0) return ParamError{"head_dim", "a multiple of 4 from 4 to 65536", formatInt(head_dim)};
    if (grid.empty()) return std::nullopt;
    auto g = parseVisionGrid(grid);
    if (!g) return g.error();
    const VisionGrid v = g.value();
    if (encoder == VisionRope::Qwen && (v.h % merge != 0 || v.w % merge != 0))
        return ParamError{"grid", "H and W that the merge size " + std::to_string(merge) + " divides", grid};
    if (encoder == VisionRope::Pixtral && (v.h > patches_per_side || v.w > patches_per_side))
        return ParamError{"grid", "H and W at most the patches per side " + formatInt(patches_per_side), grid};
    return std::nullopt;
}

std::vector<std::array<std::int64_t, 2>> qwenVisionPositionIds(const VisionGrid& g, int merge) {
    POSLAB_ENSURE(merge >= 1 && g.h % merge == 0 && g.w % merge == 0, "the merge size m divides H and W");
    std::vector<std::array<std::int64_t, 2>> out;
    out.reserve(static_cast<std::size_t>(g.t * g.h * g.w));
    const std::int64_t m = merge;
    for (std::int64_t t = 0; t < g.t; ++t)
        for (std::int64_t bh = 0; bh < g.h / m; ++bh)
            for (std::int64_t bw = 0; bw < g.w / m; ++bw)
                for (std::int64_t i = 0; i < m; ++i)
                    for (std::int64_t j = 0; j < m; ++j) out.push_back({bh * m + i, bw * m + j});
    return out;
}

Positions pixtralPositionIds(const VisionGrid& g, std::int64_t patchesPerSide) {
    POSLAB_ENSURE(g.h <= patchesPerSide && g.w <= patchesPerSide, "H, W <= P (patches per side)");
    Positions out;
    out.reserve(static_cast<std::size_t>(g.h * g.w));
    for (std::int64_t r = 0; r < g.h; ++r)
        for (std::int64_t c = 0; c < g.w; ++c) out.push_back(r * patchesPerSide + c);
    return out;
}

VisionFrequencies visionFrequencies(const VisionRopeParams& p) {
    const int half = p.head_dim / 2;
    VisionFrequencies out{Vector(half), std::vector<int>(static_cast<std::size_t>(half))};
    if (p.encoder == VisionRope::Qwen) {
        const Vector f = defaultFrequencies(half, p.theta, p.precision);   // head_dim/4
        for (int j = 0; j < half; ++j) {
            out.inv_freq[j] = f[j % (half / 2)];
            out.axis[static_cast<std::size_t>(j)] = j < half / 2 ? 1 : 2;
        }
    } else {
        const Vector f = defaultFrequencies(p.head_dim, p.theta, p.precision);   // head_dim/2
        const int rows = (half + 1) / 2;   // len(f[0::2])
        for (int j = 0; j < half; ++j) {
            out.inv_freq[j] = j < rows ? f[2 * j] : f[2 * (j - rows) + 1];
            out.axis[static_cast<std::size_t>(j)] = j < rows ? 1 : 2;
        }
    }
    return out;
}

Matrix visionAngles(const VisionRopeParams& params, const std::vector<std::int64_t>& rows, const std::vector<std::int64_t>& cols) {
    const VisionFrequencies f = visionFrequencies(params);
    const auto n = static_cast<Eigen::Index>(rows.size());
    Matrix a(n, f.inv_freq.size());
    for (Eigen::Index k = 0; k < n; ++k)
        for (Eigen::Index j = 0; j < f.inv_freq.size(); ++j) {
            const auto p = static_cast<double>(f.axis[static_cast<std::size_t>(j)] == 1 ? rows[static_cast<std::size_t>(k)]
                                                                                          : cols[static_cast<std::size_t>(k)]);
            a(k, j) = roundTo(params.precision, roundTo(params.precision, p) * f.inv_freq[j]);
        }
    return a;
}

Matrix pixtralAngleTable(const VisionRopeParams& params) {
    const std::int64_t P = params.patches_per_side;
    std::vector<std::int64_t> rows, cols;
    for (std::int64_t r = 0; r < P; ++r)
        for (std::int64_t c = 0; c < P; ++c) rows.push_back(r), cols.push_back(c);
    VisionRopeParams p = params;
    p.encoder = VisionRope::Pixtral;
    const Matrix a = visionAngles(p, rows, cols);
    Matrix out(a.rows(), 2 * a.cols());
    out << a, a;
    return out;
}

}  // namespace poslab

namespace poslab {

Result<std::array<std::int64_t, 2>> parsePatch(std::string_view text) {
    const std::string valid = "R,C: the chosen patch's row and column, non-negative integers";
    const std::size_t comma = text.find(',');
    std::array<std::int64_t, 2> rc{};
    const auto num = [](std::string_view s, std::int64_t& out) {
        if (s.empty() || s.size() > 8) return false;
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc{} && p == s.data() + s.size() && out >= 0;
    };
    if (comma == std::string_view::npos || !num(text.substr(0, comma), rc[0]) || !num(text.substr(comma + 1), rc[1]))
        return ParamError{"patch", valid, text.empty() ? "none" : std::string(text.substr(0, 64))};
    return rc;
}

Result<VisionDecay> visionDecay(const VisionRopeParams& params, std::int64_t row, std::int64_t col) {
    if (auto e = params.validate()) return *e;
    if (params.grid.empty()) return ParamError{"grid", "TxHxW with positive integers T, H, W", "none"};
    const VisionGrid g = parseVisionGrid(params.grid).value();
    if (params.encoder == VisionRope::Pixtral && g.t != 1)
        return ParamError{"grid", "1xHxW (Pixtral numbers one image's patches)", params.grid};
    if (row < 0 || row >= g.h || col < 0 || col >= g.w)
        return ParamError{"patch",
                          "R,C with 0 <= R < " + formatInt(g.h) + " and 0 <= C < " + formatInt(g.w) + " (the grid's rows and columns)",
                          formatInt(row) + "," + formatInt(col)};
    VisionDecay d;
    d.grid = g;
    d.row = row;
    d.col = col;
    d.scale = 1.0 / std::sqrt(double(params.head_dim));
    // The angles of every row (as a patch in column 0) and every column (as a patch in row 0):
    // a row pair's angle reads the row alone, a column pair's the column alone.
    const std::int64_t n = std::max(g.h, g.w);
    std::vector<std::int64_t> ks(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) ks[static_cast<std::size_t>(k)] = k;
    const Matrix a = visionAngles(params, ks, ks);   // n × head_dim/2: pair j at row = col = k
    const VisionFrequencies f = visionFrequencies(params);
    const auto term = [&](int axis, std::int64_t count, std::int64_t chosen) {
        Vector v = Vector::Zero(count);
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
            if (f.axis[static_cast<std::size_t>(j)] != axis) continue;
            const double at = a(chosen, j);
            for (std::int64_t k = 0; k < count; ++k) v[k] += 2.0 * std::cos(at - a(k, j));
        }
        return Vector(v * d.scale);
    };
    d.rowTerm = term(1, g.h, row);
    d.colTerm = term(2, g.w, col);
    return d;
}

}  // namespace poslab
