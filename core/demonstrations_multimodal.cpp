// The multimodal demonstrations' own computations (core/demonstrations.h): how Qwen2-VL numbers an
// image (core/mrope.h mropePositions), and which frequencies each axis follows in the sectioned
// and interleaved layouts, with the decay along each axis (mropeAxes, mropeRotate).
#include "core/demonstrations.h"

#include "core/rope.h"

#include <algorithm>
#include <cmath>

namespace poslab {

// ============================================================================ an image's ids
MropeParams MropeImageInput::params() const {
    MropeParams p;
    p.tokens = tokens;
    p.model = model;
    p.merge = merge;
    return p;
}

Check MropeImageInput::validate() const {
    if (auto e = params().validate()) return e;
    auto layout = parseTokenLayout(tokens);
    if (!layout) return layout.error();
    const TokenLayout& l = layout.value();
    int images = 0, videos = 0;
    for (const auto& s : l) {
        images += s.kind == TokenKind::Image;
        videos += s.kind == TokenKind::Video;
    }
    const bool framed = l.size() == 3 && l[0].kind == TokenKind::Text && l[1].kind == TokenKind::Image && l[2].kind == TokenKind::Text;
    if (images != 1 || videos != 0 || !framed)
        return ParamError{"tokens", "one image between two text runs (text:N,image:TxHxW,text:M)", tokens};
    return std::nullopt;
}

Result<MropeImageResult> demoMropeImage(const MropeImageInput& in) {
    if (auto e = in.validate()) return *e;
    auto pos = mropePositions(in.params());
    if (!pos) return pos.error();
    MropeImageResult r;
    r.positions = std::move(pos.value());
    const IntMatrix& ids = r.positions.ids;
    const auto& kinds = r.positions.kinds;
    r.tokens = std::int64_t(kinds.size());
    r.imageBegin = std::find(kinds.begin(), kinds.end(), TokenKind::Image) - kinds.begin();
    r.imageEnd = r.imageBegin;
    while (r.imageEnd < r.tokens && kinds[std::size_t(r.imageEnd)] == TokenKind::Image) ++r.imageEnd;
    const auto image = ids.middleCols(Eigen::Index(r.imageBegin), Eigen::Index(r.imageEnd - r.imageBegin));
    r.tFirst = image.row(0).minCoeff();
    r.tLast = image.row(0).maxCoeff();
    r.hFirst = image.row(1).minCoeff();
    r.hLast = image.row(1).maxCoeff();
    r.wFirst = image.row(2).minCoeff();
    r.wLast = image.row(2).maxCoeff();
    r.rows = r.hLast - r.hFirst + 1;
    r.cols = r.wLast - r.wFirst + 1;
    r.largestImageId = image.maxCoeff();
    r.textBeforeLast = r.imageBegin > 0 ? ids(0, Eigen::Index(r.imageBegin - 1)) : -1;
    r.textAfterFirst = r.imageEnd < r.tokens ? ids(0, Eigen::Index(r.imageEnd)) : -1;
    r.lastId = ids.maxCoeff();
    return r;
}

// ============================================================================ sections or interleaving
Check MropeSectionsInput::validate() const {
    if (auto e = rope.validate()) return e;
    const int half = rope.rotaryDim() / 2;
    for (const auto* s : {&sectioned, &interleaved})
        if (auto a = mropeAxes(half, *s, MropeLayout::Sectioned); !a) return a.error();
    if (distances.empty() || distances.size() > 64)
        return ParamError{"distances", "1 to 64 increasing distances", formatInt(std::int64_t(distances.size())) + " distances"};
    std::int64_t prev = 0;
    for (auto d : distances) {
        if (d <= prev || d > 1'000'000) return ParamError{"distances", "increasing distances from 1 to 1000000", formatInt(d)};
        prev = d;
    }
    return std::nullopt;
}

namespace {

Result<MropeLayoutSummary> layoutSummary(const MropeSectionsInput& in, MropeLayout layout, const std::vector<std::int64_t>& section) {
    const int half = in.rope.rotaryDim() / 2;
    auto axes = mropeAxes(half, section, layout);
    if (!axes) return axes.error();
    MropeLayoutSummary s;
    s.layout = layout;
    s.section = section;
    s.axes = axes.value();
    const Vector theta = ropeFrequencies(in.rope).inv_freq;
    for (int a = 0; a < 3; ++a) {
        MropeAxisSummary& ax = s.axis[std::size_t(a)];
        bool first = true;
        for (int i = 0; i < half; ++i) {
            if (s.axes[std::size_t(i)] != a) continue;
            ++ax.count;
            if (first) ax.firstIndex = i, ax.fastest = theta[i], ax.slowest = theta[i];
            first = false;
            ax.lastIndex = i;
            ax.fastest = std::max(ax.fastest, theta[i]);
            ax.slowest = std::min(ax.slowest, theta[i]);
        }
    }
    // Two tokens of equal content (ones), at (0, 0, 0) and d along one axis, rotated by their ids.
    const Matrix ones = Matrix::Ones(2, in.rope.head_dim);
    for (int a = 0; a < 3; ++a) {
        MropeAxisSummary& ax = s.axis[std::size_t(a)];
        for (auto d : in.distances) {
            IntMatrix ids = IntMatrix::Zero(3, 2);
            ids(a, 1) = d;
            IntMatrix same = IntMatrix::Zero(3, 2);
            const Matrix x = mropeRotate(in.rope, ids, s.axes, ones), x0 = mropeRotate(in.rope, same, s.axes, ones);
            const double S = x.row(0).dot(x.row(1)), S0 = x0.row(0).dot(x0.row(1));
            const double share = ax.count ? 1.0 + (S - S0) / (2.0 * ax.count) : 1.0;
            ax.decay.push_back(share);
            double mean = 0;
            for (int i = 0; i < half; ++i)
                if (s.axes[std::size_t(i)] == a) mean += std::cos(double(d) * theta[i]);
            if (ax.count) mean /= ax.count;
            else mean = 1;
            s.identityError = std::max(s.identityError, std::abs(share - mean));
        }
    }
    return s;
}

}  // namespace

Result<MropeSectionsResult> demoMropeSections(const MropeSectionsInput& in) {
    if (auto e = in.validate()) return *e;
    auto a = layoutSummary(in, MropeLayout::Sectioned, in.sectioned);
    if (!a) return a.error();
    auto b = layoutSummary(in, MropeLayout::Interleaved, in.interleaved);
    if (!b) return b.error();
    return MropeSectionsResult{std::move(a.value()), std::move(b.value())};
}

}  // namespace poslab
