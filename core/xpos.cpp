#include "core/xpos.h"
#include "core/ensure.h"

#include <algorithm>
#include <cmath>

namespace poslab {
namespace {

struct Rounder {
    bool f32;
    double operator()(double x) const { return f32 ? static_cast<double>(static_cast<float>(x)) : x; }
};

// ln(1/ζ_0) = ln(7/2): the largest |ln ζ_i| (ζ_0 = 0.4d/1.4d = 2/7 is the smallest base).
const double kLnSevenHalves = std::log(3.5);

// floor(−n/2) for n >= 0 (Python's −n // 2).
std::int64_t pyNegHalfFloor(std::int64_t n) { return -((n + 1) / 2); }

// Largest |c| allowed for this scale base.
double maxCentred(const XposParams& p) { return kXposMaxLogScale * p.scale_base / kLnSevenHalves; }

// One row of scale: ζ_i^(c/scale_base) (or its reciprocal), exponent clamped to the safe range.
void scaleRow(const XposParams& p, const Vector& zeta, std::int64_t c, bool downscale, double* out) {
    const Rounder rd{p.precision == Precision::Float32};
    double e = rd(rd(static_cast<double>(c)) / rd(p.scale_base));
    const double lim = kXposMaxLogScale / kLnSevenHalves;
    e = std::clamp(e, -lim, lim);  // only active when the extent precondition is violated
    for (Eigen::Index i = 0; i < zeta.size(); ++i) {
        double s = rd(std::pow(zeta[i], e));
        if (downscale) s = rd(1.0 / s);
        out[i] = s;
    }
}

// Rotate one row x (head_dim) at position pos with the given scale row into out.
void applyRow(const XposParams& p, const Vector& inv, const double* scale, std::int64_t pos, const double* x,
              double* out) {
    const Rounder rd{p.precision == Precision::Float32};
    const double pf = rd(static_cast<double>(pos));
    for (Eigen::Index i = 0; i < inv.size(); ++i) {
        const double a = rd(pf * inv[i]);
        const double c = rd(rd(std::cos(a)) * scale[i]);
        const double s = rd(rd(std::sin(a)) * scale[i]);
        const double x0 = rd(x[2 * i]), x1 = rd(x[2 * i + 1]);
        out[2 * i] = rd(rd(x0 * c) + rd(-x1 * s));
        out[2 * i + 1] = rd(rd(x1 * c) + rd(x0 * s));
    }
}

}  // namespace

const ParamTable<XposParams>& xposParamTable() {
    using K = ParamKind;
    static const ParamTable<XposParams> t = {
        field<&XposParams::head_dim>({.name = "head_dim", .kind = K::Int, .lo = 2, .hi = 65536, .even = true,
                                      .label = "Head dimension", .help = "head dimension", .flags = kParamShared}),
        field<&XposParams::scale_base>({.name = "scale_base", .kind = K::Real, .lo = 0, .hi = 1e12, .loOpen = true,
                                        .label = "Scale base", .help = "xPos scale_base", .flags = kParamSlider,
                                        .sliderLo = 10, .sliderHi = 1e6}),
        field<&XposParams::precision>({.name = "precision", .kind = K::Choice, .label = "Precision",
                                       .help = "float32 rounds as torchscale", .flags = kParamShared,
                                       .choices = {"float32", "double"}}),
    };
    return t;
}

Check XposParams::validate() const { return checkParams(xposParamTable(), *this); }

std::int64_t xposCentredPosition(std::int64_t length, std::int64_t offset, std::int64_t t) {
    return pyNegHalfFloor(length + offset) + offset + t;
}

Check xposCheckExtent(const XposParams& params, std::int64_t length, std::int64_t offset) {
    if (length < 1 || length > kMaxPosition)
        return ParamError{"length", "an integer from 1 to " + formatInt(kMaxPosition), formatInt(length)};
    if (offset < 0 || offset > kMaxPosition - length)
        return ParamError{"offset", "an integer from 0 to " + formatInt(kMaxPosition) + " − length",
                          formatInt(offset)};
    // The kept rows have c from cFirst to cLast; |c| is largest at one of the ends.
    const std::int64_t cFirst = xposCentredPosition(length, offset, 0);
    const std::int64_t cLast = xposCentredPosition(length, offset, length - 1);
    const double worst = static_cast<double>(std::max(std::abs(cFirst), std::abs(cLast)));
    const double lim = maxCentred(params);
    if (worst > lim) {
        const std::string valid = "length + offset with |centred position|/scale_base·ln(7/2) <= 60 (about |c| <= " +
                                  formatInt(static_cast<std::int64_t>(std::floor(lim))) + ")";
        if (offset > 0) {
            const std::int64_t c0 = xposCentredPosition(length, 0, 0);
            const std::int64_t c1 = xposCentredPosition(length, 0, length - 1);
            if (static_cast<double>(std::max(std::abs(c0), std::abs(c1))) <= lim)
                return ParamError{"offset", valid, formatInt(offset)};
        }
        return ParamError{"length", valid, formatInt(length)};
    }
    return std::nullopt;
}

Check xposCheckPositions(const XposParams& params, const Positions& positions, std::int64_t length) {
    if (length < 1 || length > kMaxPosition)
        return ParamError{"length", "an integer from 1 to " + formatInt(kMaxPosition), formatInt(length)};
    if (auto e = validatePositions(positions)) return e;
    const double lim = maxCentred(params);
    const std::int64_t minPos = pyNegHalfFloor(length);
    for (auto p : positions) {
        const double c = std::abs(static_cast<double>(p + minPos));
        if (c > lim)
            return ParamError{"positions",
                              "positions p with |p − ⌈length/2⌉|/scale_base·ln(7/2) <= 60 (about |c| <= " +
                                  formatInt(static_cast<std::int64_t>(std::floor(lim))) + ")",
                              formatInt(p)};
    }
    return std::nullopt;
}

Vector xposInvFreq(const XposParams& params) {
    const Rounder rd{params.precision == Precision::Float32};
    const int h = params.head_dim / 2;
    Vector inv(h);
    for (int i = 0; i < h; ++i) {
        // 1.0 / (10000 ** (arange(0, dim) / dim)), dim = head_dim/2
        const double e = rd(rd(static_cast<double>(i)) / rd(static_cast<double>(h)));
        inv[i] = rd(1.0 / rd(std::pow(10000.0, e)));
    }
    return inv;
}

Vector xposZeta(const XposParams& params) {
    const Rounder rd{params.precision == Precision::Float32};
    const int h = params.head_dim / 2;
    const double d = params.head_dim;
    Vector z(h);
    for (int i = 0; i < h; ++i) z[i] = rd(rd(rd(2.0 * i) + rd(0.4 * d)) / rd(1.4 * d));
    return z;
}

Matrix xposScale(const XposParams& params, std::int64_t length, std::int64_t offset, bool downscale) {
    POSLAB_ENSURE(length >= 1 && offset >= 0, "length >= 1, offset >= 0");
    const Vector zeta = xposZeta(params);
    Matrix s(length, zeta.size());
    for (std::int64_t t = 0; t < length; ++t)
        scaleRow(params, zeta, xposCentredPosition(length, offset, t), downscale, s.row(t).data());
    return s;
}

Matrix xposAngles(const XposParams& params, std::int64_t length, std::int64_t offset) {
    const Rounder rd{params.precision == Precision::Float32};
    const Vector inv = xposInvFreq(params);
    Matrix a(length, inv.size());
    for (std::int64_t t = 0; t < length; ++t) {
        const double pf = rd(static_cast<double>(offset + t));
        for (Eigen::Index i = 0; i < inv.size(); ++i) a(t, i) = rd(pf * inv[i]);
    }
    return a;
}

Matrix xposApply(const XposParams& params, const Matrix& x, std::int64_t offset, bool downscale) {
    const std::int64_t length = x.rows();
    const Vector inv = xposInvFreq(params);
    const Vector zeta = xposZeta(params);
    Matrix out(x.rows(), x.cols());
    Vector scale(zeta.size());
    for (std::int64_t t = 0; t < length; ++t) {
        scaleRow(params, zeta, xposCentredPosition(length, offset, t), downscale, scale.data());
        applyRow(params, inv, scale.data(), offset + t, x.row(t).data(), out.row(t).data());
    }
    return out;
}

Matrix xposScaleAt(const XposParams& params, const Positions& positions, std::int64_t length, bool downscale) {
    const Vector zeta = xposZeta(params);
    const std::int64_t minPos = pyNegHalfFloor(length);
    Matrix s(static_cast<Eigen::Index>(positions.size()), zeta.size());
    for (std::size_t k = 0; k < positions.size(); ++k)
        scaleRow(params, zeta, positions[k] + minPos, downscale, s.row(static_cast<Eigen::Index>(k)).data());
    return s;
}

Matrix xposApplyAt(const XposParams& params, const Matrix& x, const Positions& positions, std::int64_t length,
                   bool downscale) {
    POSLAB_ENSURE(length >= 1, "length >= 1");
    POSLAB_ENSURE(x.rows() == static_cast<Eigen::Index>(positions.size()), "x.rows() == positions.size()");
    POSLAB_ENSURE(x.cols() == params.head_dim, "x.cols() == head_dim");
    const Vector inv = xposInvFreq(params);
    const Matrix scale = xposScaleAt(params, positions, length, downscale);
    Matrix out(x.rows(), x.cols());
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const auto r = static_cast<Eigen::Index>(k);
        applyRow(params, inv, scale.row(r).data(), positions[k], x.row(r).data(), out.row(r).data());
    }
    return out;
}

}  // namespace poslab
