#include "core/worked_examples.h"

#include <cmath>
#include <numbers>

namespace poslab {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

std::vector<double> toStd(const Vector& v) { return std::vector<double>(v.data(), v.data() + v.size()); }
std::vector<double> rowToStd(const Matrix& m, Eigen::Index r) {
    std::vector<double> out(static_cast<std::size_t>(m.cols()));
    for (Eigen::Index c = 0; c < m.cols(); ++c) out[static_cast<std::size_t>(c)] = m(r, c);
    return out;
}
std::vector<std::string> indexLabels(const std::string& prefix, std::size_t n, std::size_t first = 0) {
    std::vector<std::string> l;
    l.reserve(n);
    for (std::size_t i = 0; i < n; ++i) l.push_back(prefix + std::to_string(first + i));
    return l;
}
bool finite(double x) { return std::isfinite(x); }

// Channel indices (first, second) of rotary pair i for a layout with r rotated channels.
std::pair<int, int> pairChannels(RopeLayout layout, int r, int i) {
    return layout == RopeLayout::Interleaved ? std::pair{2 * i, 2 * i + 1} : std::pair{i, i + r / 2};
}

}  // namespace

const WorkedValues* WorkedStep::find(const std::string& name) const {
    for (const auto& v : values)
        if (v.name == name) return &v;
    return nullptr;
}

// ============================================================================ RoPE
Check RopeExampleInput::validate() const {
    if (dim < 2 || dim > 64 || dim % 2 != 0) return ParamError{"dim", "an even integer from 2 to 64", formatInt(dim)};
    if (position < 0 || position > kMaxPosition)
        return ParamError{"position", "an integer from 0 to " + formatInt(kMaxPosition), formatInt(position)};
    if (theta.size() != static_cast<std::size_t>(dim / 2))
        return ParamError{"theta", formatInt(dim / 2) + " numbers (dim/2)", formatInt(static_cast<std::int64_t>(theta.size())) + " numbers"};
    for (double t : theta)
        if (!finite(t) || t <= 0 || t > 1e6) return ParamError{"theta", "finite numbers in (0, 1e6]", formatNumber(t)};
    if (q.size() != static_cast<std::size_t>(dim))
        return ParamError{"q", formatInt(dim) + " numbers (dim)", formatInt(static_cast<std::int64_t>(q.size())) + " numbers"};
    for (double x : q)
        if (!finite(x) || std::abs(x) > 1e6) return ParamError{"q", "finite numbers with |x| <= 1e6", formatNumber(x)};
    return std::nullopt;
}

RopeParams RopeExampleInput::ropeParams(RopeLayout l) const {
    RopeParams p;
    p.head_dim = dim;
    p.base = 10000.0;
    p.theta = theta;
    p.layout = l;
    p.precision = precision;
    return p;
}

Result<WorkedExample> ropeWorkedExample(const RopeExampleInput& in) {
    if (auto e = in.validate()) return *e;
    const RopeParams params = in.ropeParams(in.layout);
    if (auto e = params.validate()) return *e;
    const RopeLayout other = in.layout == RopeLayout::Interleaved ? RopeLayout::Half : RopeLayout::Interleaved;
    const RopeParams otherParams = in.ropeParams(other);

    const Positions pos{in.position};
    const RopeFrequencies freqs = ropeFrequencies(params);
    const Matrix angles = ropeAngles(params, freqs, pos);
    const RopeTables tables = ropeTables(params, freqs, pos);
    Matrix x(1, in.dim);
    for (int c = 0; c < in.dim; ++c) x(0, c) = in.q[static_cast<std::size_t>(c)];
    const Matrix out = ropeApply(params, tables, x);
    const RopeFrequencies freqsOther = ropeFrequencies(otherParams);
    const Matrix outOther = ropeApply(otherParams, ropeTables(otherParams, freqsOther, pos), x);

    const int r = freqs.rotary_dim;
    const int pairs = r / 2;
    const bool inter = in.layout == RopeLayout::Interleaved;
    const std::string otherName = inter ? "half-split" : "interleaved";
    const std::string m = formatInt(in.position);

    WorkedExample ex;
    ex.key = "rope";
    ex.facts = {{"dim", double(in.dim)}, {"position", double(in.position)}, {"interleaved", inter ? 1.0 : 0.0},
                {"float32", in.precision == Precision::Float32 ? 1.0 : 0.0}};

    // 1. Frequencies.
    {
        WorkedStep s;
        s.id = "frequencies";
        s.operation = "θ_i, i = 0 … d/2 − 1";
        s.formula = "\\theta_i,\\quad i = 0, \\ldots, \\frac{d}{2} - 1";
        s.values.push_back({"θ_i", toStd(freqs.inv_freq), indexLabels("i=", std::size_t(pairs))});
        ex.steps.push_back(std::move(s));
    }
    // 2. Angles.
    std::vector<double> a = rowToStd(angles, 0), amod, turns;
    for (double v : a) {
        double t = std::fmod(v, kTwoPi);
        if (t < 0) t += kTwoPi;
        amod.push_back(t);
        turns.push_back(v / kTwoPi);
    }
    {
        WorkedStep s;
        s.id = "angles";
        s.operation = "a_i = m · θ_i   (mod 2π)";
        s.formula = "a_i = m\\,\\theta_i \\bmod 2\\pi";
        s.values.push_back({"m·θ_i", a, indexLabels("i=", a.size())});
        s.values.push_back({"m·θ_i mod 2π", amod, indexLabels("i=", a.size())});
        s.values.push_back({"turns", turns, indexLabels("i=", a.size())});
        ex.steps.push_back(std::move(s));
    }
    // 3. cos and sin (from the tables the application uses).
    std::vector<double> cs, sn;
    for (int i = 0; i < pairs; ++i) {
        const int c = pairChannels(in.layout, r, i).first;
        cs.push_back(tables.cos(0, c));
        sn.push_back(tables.sin(0, c));
    }
    {
        WorkedStep s;
        s.id = "cos_sin";
        s.operation = "cos a_i, sin a_i";
        s.formula = "\\cos a_i,\\quad \\sin a_i";
        s.values.push_back({"cos a_i", cs, indexLabels("i=", cs.size())});
        s.values.push_back({"sin a_i", sn, indexLabels("i=", sn.size())});
        ex.steps.push_back(std::move(s));
    }
    // 4. Pairs of the layout.
    std::vector<double> px, py;
    std::vector<std::string> pl;
    for (int i = 0; i < pairs; ++i) {
        const auto [c0, c1] = pairChannels(in.layout, r, i);
        px.push_back(in.q[std::size_t(c0)]);
        py.push_back(in.q[std::size_t(c1)]);
        pl.push_back("(" + std::to_string(c0) + "," + std::to_string(c1) + ")");
    }
    {
        WorkedStep s;
        s.id = "pairs";
        s.operation = inter ? "pair i = (q[2i], q[2i+1])" : "pair i = (q[i], q[i + d/2])";
        s.formula = inter ? "(x_i, y_i) = (q_{2i},\\, q_{2i+1})" : "(x_i, y_i) = (q_{i},\\, q_{i+d/2})";
        s.values.push_back({"q", in.q, indexLabels("", in.q.size())});
        s.values.push_back({"x_i", px, pl});
        s.values.push_back({"y_i", py, pl});
        ex.steps.push_back(std::move(s));
    }
    // 5. Rotate each pair (numbers from ropeApply).
    std::vector<double> rx, ry;
    for (int i = 0; i < pairs; ++i) {
        const auto [c0, c1] = pairChannels(in.layout, r, i);
        rx.push_back(out(0, c0));
        ry.push_back(out(0, c1));
    }
    {
        WorkedStep s;
        s.id = "rotate";
        s.operation = "(x, y) → (x·cos a − y·sin a, x·sin a + y·cos a)";
        s.formula = "\\begin{pmatrix} x'_i \\\\ y'_i \\end{pmatrix} = \\begin{pmatrix} \\cos a_i & -\\sin a_i \\\\ \\sin a_i & \\cos a_i \\end{pmatrix} \\begin{pmatrix} x_i \\\\ y_i \\end{pmatrix}";
        s.values.push_back({"x'_i", rx, pl});
        s.values.push_back({"y'_i", ry, pl});
        ex.steps.push_back(std::move(s));
    }
    // 6. Result.
    ex.result = rowToStd(out, 0);
    {
        WorkedStep s;
        s.id = "result";
        s.operation = "R_m q";
        s.formula = "R_{" + m + "}\\, q";
        s.values.push_back({"R_m q", ex.result, indexLabels("", ex.result.size())});
        ex.steps.push_back(std::move(s));
    }
    // 7. Norm.
    {
        WorkedStep s;
        s.id = "norm";
        s.operation = "|R_m q| = |q|";
        s.formula = "\\lVert R_m q \\rVert = \\lVert q \\rVert";
        s.values.push_back({"|q|", {x.norm()}, {}});
        s.values.push_back({"|R_m q|", {out.norm()}, {}});
        ex.steps.push_back(std::move(s));
    }
    // 8. The other layout.
    {
        WorkedStep s;
        s.id = "other_layout";
        s.operation = "R_m q (" + otherName + ")";
        s.formula = "R^{\\mathrm{" + std::string(inter ? "half" : "inter") + "}}_{" + m + "}\\, q";
        const std::vector<double> o = rowToStd(outOther, 0);
        std::vector<double> diff;
        for (std::size_t i = 0; i < o.size(); ++i) diff.push_back(o[i] - ex.result[i]);
        s.values.push_back({"R_m q (" + otherName + ")", o, indexLabels("", o.size())});
        s.values.push_back({"difference", diff, indexLabels("", diff.size())});
        ex.steps.push_back(std::move(s));
    }
    return ex;
}

// ============================================================================ Sinusoidal
Check SinusoidalExampleInput::validate() const {
    if (dim < 2 || dim > 64 || dim % 2 != 0) return ParamError{"dim", "an even integer from 2 to 64", formatInt(dim)};
    if (position < 0 || position > kMaxPosition)
        return ParamError{"position", "an integer from 0 to " + formatInt(kMaxPosition), formatInt(position)};
    if (!finite(base) || base <= 1 || base > 1e12) return ParamError{"base", "a number in (1, 1e12]", formatNumber(base)};
    return params().validate();
}

SinusoidalParams SinusoidalExampleInput::params() const {
    SinusoidalParams p;
    p.dim = dim;
    p.base = base;
    p.layout = layout;
    p.frequencies = SinusoidalFrequencies::Vaswani;
    p.precision = precision;
    return p;
}

Result<WorkedExample> sinusoidalWorkedExample(const SinusoidalExampleInput& in) {
    if (auto e = in.validate()) return *e;
    const SinusoidalParams p = in.params();
    const Vector w = sinusoidalFrequencies(p);
    const Matrix row = sinusoidalEncoding(p, Positions{in.position});
    const int K = in.dim / 2;
    const bool inter = in.layout == SinusoidalLayout::Interleaved;

    WorkedExample ex;
    ex.key = "sinusoidal";
    ex.facts = {{"dim", double(in.dim)}, {"position", double(in.position)}, {"base", in.base}, {"interleaved", inter ? 1.0 : 0.0}};
    {
        WorkedStep s;
        s.id = "frequencies";
        s.operation = "w_i = base^(−2i/d)";
        s.formula = "w_i = \\mathrm{base}^{-2i/d}";
        s.values.push_back({"w_i", toStd(w), indexLabels("i=", std::size_t(w.size()))});
        ex.steps.push_back(std::move(s));
    }
    std::vector<double> ang, sn, cs, wl;
    for (int i = 0; i < K; ++i) {
        ang.push_back(double(in.position) * w[i]);
        sn.push_back(row(0, inter ? 2 * i : i));
        cs.push_back(row(0, inter ? 2 * i + 1 : K + i));
        wl.push_back(kTwoPi / w[i]);
    }
    {
        WorkedStep s;
        s.id = "angles";
        s.operation = "p · w_i";
        s.formula = "p\\, w_i";
        s.values.push_back({"p·w_i", ang, indexLabels("i=", ang.size())});
        ex.steps.push_back(std::move(s));
    }
    {
        WorkedStep s;
        s.id = "sines";
        s.operation = "sin(p · w_i)";
        s.formula = "\\sin(p\\, w_i)";
        s.values.push_back({"sin(p·w_i)", sn, indexLabels("i=", sn.size())});
        ex.steps.push_back(std::move(s));
    }
    {
        WorkedStep s;
        s.id = "cosines";
        s.operation = "cos(p · w_i)";
        s.formula = "\\cos(p\\, w_i)";
        s.values.push_back({"cos(p·w_i)", cs, indexLabels("i=", cs.size())});
        ex.steps.push_back(std::move(s));
    }
    ex.result = rowToStd(row, 0);
    {
        WorkedStep s;
        s.id = "row";
        s.operation = inter ? "PE[p, 2i] = sin(p·w_i), PE[p, 2i+1] = cos(p·w_i)" : "PE[p] = [sin(p·w) | cos(p·w)]";
        s.formula = inter ? "PE_{p,2i} = \\sin(p\\, w_i),\\quad PE_{p,2i+1} = \\cos(p\\, w_i)"
                          : "PE_p = \\left[ \\sin(p\\, w) \\mid \\cos(p\\, w) \\right]";
        s.values.push_back({"PE[p]", ex.result, indexLabels("", ex.result.size())});
        ex.steps.push_back(std::move(s));
    }
    {
        WorkedStep s;
        s.id = "wavelengths";
        s.operation = "λ_i = 2π / w_i";
        s.formula = "\\lambda_i = \\frac{2\\pi}{w_i}";
        s.values.push_back({"λ_i", wl, indexLabels("i=", wl.size())});
        ex.steps.push_back(std::move(s));
    }
    return ex;
}

// ============================================================================ ALiBi
Check AlibiExampleInput::validate() const {
    if (heads < 1 || heads > 1024) return ParamError{"heads", "an integer from 1 to 1024", formatInt(heads)};
    if (!finite(bias_max) || bias_max <= 0 || bias_max > 1024)
        return ParamError{"bias_max", "a number in (0, 1024]", formatNumber(bias_max)};
    if (query_position < 0 || query_position > 4096)
        return ParamError{"query_position", "an integer from 0 to 4096", formatInt(query_position)};
    return params(heads).validate();
}

AlibiParams AlibiExampleInput::params(int h) const {
    AlibiParams p;
    p.heads = h;
    p.bias_max = bias_max;
    p.precision = precision;
    p.symmetric = false;
    return p;
}

Result<WorkedExample> alibiWorkedExample(const AlibiExampleInput& in) {
    if (auto e = in.validate()) return *e;
    const int H = in.heads;
    int p = 1;
    while (p * 2 <= H) p *= 2;
    const bool pow2 = p == H;
    const Vector slopesP = alibiSlopes(in.params(p));
    const Vector slopes = alibiSlopes(in.params(H));

    WorkedExample ex;
    ex.key = "alibi";
    ex.facts = {{"heads", double(H)}, {"p", double(p)}, {"power_of_two", pow2 ? 1.0 : 0.0}, {"query", double(in.query_position)}};
    {
        WorkedStep s;
        s.id = "power_of_two";
        s.operation = "p = 2^⌊log2 H⌋";
        s.formula = "p = 2^{\\lfloor \\log_2 H \\rfloor}";
        s.values.push_back({"H", {double(H)}, {}});
        s.values.push_back({"p", {double(p)}, {}});
        ex.steps.push_back(std::move(s));
    }
    {
        WorkedStep s;
        s.id = "slopes_p";
        s.operation = "m_h = 2^(−B(h+1)/p), h = 0 … p−1";
        s.formula = "m_h = 2^{-B(h+1)/p}";
        s.values.push_back({"B", {in.bias_max}, {}});
        s.values.push_back({"2^(−B/p)", {std::pow(2.0, -in.bias_max / p)}, {}});
        s.values.push_back({"m_h (p heads)", toStd(slopesP), indexLabels("h=", std::size_t(slopesP.size()))});
        ex.steps.push_back(std::move(s));
    }
    if (!pow2) {
        const Vector slopes2p = alibiSlopes(in.params(2 * p));
        std::vector<double> picked;
        std::vector<std::string> pickedLabels;
        for (int k = 0; k < H - p; ++k) {
            picked.push_back(slopes2p[2 * k]);
            pickedLabels.push_back("h=" + std::to_string(2 * k));
        }
        WorkedStep s;
        s.id = "other_heads";
        s.operation = "slopes(2p)[0::2][: H − p]";
        s.formula = "m_{p+k} = 2^{-B(2k+1)/(2p)},\\quad k = 0, \\ldots, H - p - 1";
        s.values.push_back({"m_h (2p heads)", toStd(slopes2p), indexLabels("h=", std::size_t(slopes2p.size()))});
        s.values.push_back({"every other", picked, pickedLabels});
        ex.steps.push_back(std::move(s));
    }
    ex.result = toStd(slopes);
    {
        WorkedStep s;
        s.id = "all_slopes";
        s.operation = "m_0 … m_{H−1}";
        s.formula = "m_0, \\ldots, m_{H-1}";
        s.values.push_back({"m_h", ex.result, indexLabels("h=", ex.result.size())});
        ex.steps.push_back(std::move(s));
    }
    {
        const std::int64_t i = in.query_position;
        const Positions q{i};
        const Positions keys = arangePositions(0, i + 1);
        const Matrix b0 = alibiBias(in.params(H), 0, q, keys);
        const Matrix bl = alibiBias(in.params(H), H - 1, q, keys);
        WorkedStep s;
        s.id = "bias_row";
        s.operation = "b_h(i, j) = −m_h · (i − j)";
        s.formula = "b_h(i,j) = -m_h\\,(i - j)";
        s.values.push_back({"head 0", rowToStd(b0, 0), indexLabels("j=", keys.size())});
        s.values.push_back({"head " + formatInt(H - 1), rowToStd(bl, 0), indexLabels("j=", keys.size())});
        ex.steps.push_back(std::move(s));
    }
    return ex;
}

// ============================================================================ T5
Check T5ExampleInput::validate() const {
    if (relative < -1'000'000'000'000LL || relative > 1'000'000'000'000LL)
        return ParamError{"relative", "an integer with |relative| <= 1e12", formatInt(relative)};
    return params().validate();
}

T5Params T5ExampleInput::params() const {
    T5Params p;
    p.num_buckets = num_buckets;
    p.max_distance = max_distance;
    p.bidirectional = bidirectional;
    return p;
}

T5BucketRange t5BucketRange(std::int64_t relative, const T5Params& params) {
    T5BucketRange out;
    out.bucket = t5Bucket(relative, params);
    const bool positive = relative > 0;
    const std::int64_t sign = positive ? 1 : -1;
    const std::int64_t lo = positive ? 1 : 0;
    const std::int64_t hi = 2'000'000'000'000LL;
    auto f = [&](std::int64_t n) { return t5Bucket(sign * n, params); };
    // first: smallest n in [lo, hi] with f(n) >= bucket.
    std::int64_t a = lo, b = std::max<std::int64_t>(std::abs(relative), lo);
    while (a < b) {
        const std::int64_t mid = a + (b - a) / 2;
        if (f(mid) >= out.bucket) b = mid; else a = mid + 1;
    }
    out.first = a;
    if (f(hi) <= out.bucket) {
        out.last = -1;
        return out;
    }
    // last: largest n with f(n) <= bucket.
    a = std::max<std::int64_t>(std::abs(relative), lo);
    b = hi;
    while (a < b) {
        const std::int64_t mid = a + (b - a + 1) / 2;
        if (f(mid) <= out.bucket) a = mid; else b = mid - 1;
    }
    out.last = a;
    return out;
}

Result<WorkedExample> t5WorkedExample(const T5ExampleInput& in) {
    if (auto e = in.validate()) return *e;
    const T5Params p = in.params();
    const std::int64_t rel = in.relative;
    const std::int64_t nb = in.bidirectional ? in.num_buckets / 2 : in.num_buckets;
    const std::int64_t offset = (in.bidirectional && rel > 0) ? nb : 0;
    const std::int64_t n = in.bidirectional ? (rel < 0 ? -rel : rel) : (rel < 0 ? -rel : 0);
    const std::int64_t maxExact = nb / 2;
    const std::int64_t bucket = t5Bucket(rel, p);
    const T5BucketRange range = t5BucketRange(rel, p);

    WorkedExample ex;
    ex.key = "t5";
    ex.facts = {{"relative", double(rel)}, {"buckets", double(in.num_buckets)}, {"max_distance", double(in.max_distance)},
                {"bidirectional", in.bidirectional ? 1.0 : 0.0}, {"nb", double(nb)}, {"max_exact", double(maxExact)},
                {"bucket", double(bucket)}, {"first", double(range.first)}, {"last", double(range.last)}};
    {
        WorkedStep s;
        s.id = "direction";
        s.operation = in.bidirectional ? "nb = num_buckets / 2; base = nb if rel > 0 else 0" : "nb = num_buckets; base = 0";
        s.formula = in.bidirectional ? "nb = \\frac{\\mathrm{buckets}}{2},\\quad \\mathrm{base} = nb\\cdot[\\mathrm{rel} > 0]"
                                     : "nb = \\mathrm{buckets},\\quad \\mathrm{base} = 0";
        s.values.push_back({"rel = key − query", {double(rel)}, {}});
        s.values.push_back({"nb", {double(nb)}, {}});
        s.values.push_back({"base", {double(offset)}, {}});
        ex.steps.push_back(std::move(s));
    }
    {
        WorkedStep s;
        s.id = "distance";
        s.operation = in.bidirectional ? "n = |rel|" : "n = −min(rel, 0)";
        s.formula = in.bidirectional ? "n = |\\mathrm{rel}|" : "n = -\\min(\\mathrm{rel}, 0)";
        s.values.push_back({"n", {double(n)}, {}});
        ex.steps.push_back(std::move(s));
    }
    const bool exact = n < maxExact;
    {
        WorkedStep s;
        s.id = "exact";
        s.operation = "max_exact = nb / 2; exact if n < max_exact";
        s.formula = "\\mathrm{max\\_exact} = \\frac{nb}{2},\\quad n < \\mathrm{max\\_exact}\\ ?";
        s.values.push_back({"max_exact", {double(maxExact)}, {}});
        s.values.push_back({"n < max_exact", {exact ? 1.0 : 0.0}, {}});
        ex.steps.push_back(std::move(s));
    }
    if (!exact) {
        // Intermediate numbers of the logarithmic rule, in the reference's float32 arithmetic; the
        // bucket itself is t5Bucket's (the test checks both agree).
        const float lnN = std::log(static_cast<float>(n) / static_cast<float>(maxExact));
        const double lnMax = std::log(static_cast<double>(in.max_distance) / static_cast<double>(maxExact));
        const float ratio = lnN / static_cast<float>(lnMax);
        const float scaled = ratio * static_cast<float>(nb - maxExact);
        const std::int64_t large = maxExact + static_cast<std::int64_t>(scaled);
        const std::int64_t capped = std::min<std::int64_t>(large, nb - 1);
        WorkedStep s;
        s.id = "logarithmic";
        s.operation = "max_exact + ⌊ln(n/max_exact) / ln(max_distance/max_exact) · (nb − max_exact)⌋, capped at nb − 1";
        s.formula = "\\mathrm{max\\_exact} + \\left\\lfloor \\frac{\\ln(n / \\mathrm{max\\_exact})}{\\ln(\\mathrm{max\\_distance} / \\mathrm{max\\_exact})} (nb - \\mathrm{max\\_exact}) \\right\\rfloor";
        s.values.push_back({"ln(n/max_exact)", {double(lnN)}, {}});
        s.values.push_back({"ln(max_distance/max_exact)", {lnMax}, {}});
        s.values.push_back({"ratio", {double(ratio)}, {}});
        s.values.push_back({"× (nb − max_exact)", {double(scaled)}, {}});
        s.values.push_back({"max_exact + ⌊·⌋", {double(large)}, {}});
        s.values.push_back({"capped at nb − 1", {double(capped)}, {}});
        ex.steps.push_back(std::move(s));
    }
    ex.result = {double(bucket)};
    {
        WorkedStep s;
        s.id = "bucket";
        s.operation = "bucket = base + (n or the logarithmic bucket)";
        s.formula = "\\mathrm{bucket} = \\mathrm{base} + b(n) = " + formatInt(bucket);
        s.values.push_back({"bucket", {double(bucket)}, {}});
        s.values.push_back({"first distance in bucket", {double(range.first)}, {}});
        s.values.push_back({"last distance in bucket", {double(range.last)}, {range.last < 0 ? "∞" : ""}});
        ex.steps.push_back(std::move(s));
    }
    return ex;
}

}  // namespace poslab
