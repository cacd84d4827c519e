#include "ui/render/enlarge.h"

#include <QPaintEngine>
#include <QPainter>
#include <QRegion>

#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace poslab::ui {

namespace {

// Device pixels [x0, x1) of the enlarged row of `src` (source pixel k covers [k f, k f + f)),
// written to dst[0 .. x1 − x0).
void enlargeRow(const quint32* src, int f, int x0, int x1, quint32* dst) {
    int x = x0;
    if (f == 2) {
        if (x < x1 && (x & 1)) *dst++ = src[x++ >> 1];   // the right half of a block
#if defined(__SSE2__)
        for (; x + 8 <= x1; x += 8, dst += 8) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + (x >> 1)));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_unpacklo_epi32(v, v));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 4), _mm_unpackhi_epi32(v, v));
        }
#endif
        for (; x + 2 <= x1; x += 2, dst += 2) dst[0] = dst[1] = src[x >> 1];
        if (x < x1) *dst = src[x >> 1];
        return;
    }
    for (; x < x1; ++x) *dst++ = src[x / f];
}

}  // namespace

bool copyEnlarged(QPainter& p, const QImage& picture, const QPaintDevice* into, QPoint topLeft) {
    if (picture.isNull() || picture.format() != QImage::Format_RGB32 || picture.devicePixelRatio() != 1.0) return false;
    QPaintEngine* engine = p.paintEngine();
    if (!engine || engine->type() != QPaintEngine::Raster || p.opacity() != 1.0 || p.hasClipping() ||
        p.testRenderHint(QPainter::SmoothPixmapTransform))   // (QPainter would smooth the blocks)
        return false;
    const auto mode = p.compositionMode();
    if (mode != QPainter::CompositionMode_SourceOver && mode != QPainter::CompositionMode_Source) return false;
    QPaintDevice* device = engine->paintDevice();
    if (!device || device != into || device->devType() != QInternal::Image) return false;
    auto* target = static_cast<QImage*>(device);
    const auto format = target->format();
    if (format != QImage::Format_RGB32 && format != QImage::Format_ARGB32 && format != QImage::Format_ARGB32_Premultiplied)
        return false;
    // Written in place: no other QImage may hold a reference to this image's data (the high-DPI
    // wrapper QBackingStore paints through shares the platform image's memory by design).
    if (!target->isDetached()) return false;
    const QTransform t = p.deviceTransform();
    // (NaN fails every comparison here; whole offsets within ±2^24 and the enlarged picture's
    // size within int keep the rectangles below exact.)
    constexpr double kFar = 16777216.0;
    if (t.type() > QTransform::TxScale || t.m11() != t.m22() || !(t.m11() >= 1.0 && t.m11() <= 16.0) || t.m11() != std::floor(t.m11()) ||
        !(std::abs(t.dx()) <= kFar && std::abs(t.dy()) <= kFar) || t.dx() != std::floor(t.dx()) || t.dy() != std::floor(t.dy()))
        return false;
    const int f = static_cast<int>(t.m11());
    if (std::abs(double(topLeft.x())) > kFar / f || std::abs(double(topLeft.y())) > kFar / f || picture.width() > kFar / f ||
        picture.height() > kFar / f)
        return false;
    // The picture's device rectangle, and what of it the engine lets this paint reach.
    const QRect block(static_cast<int>(t.dx()) + f * topLeft.x(), static_cast<int>(t.dy()) + f * topLeft.y(), f * picture.width(),
                      f * picture.height());
    const QRegion system = engine->systemClip();
    QRegion reach = QRegion(block).intersected(target->rect());
    if (!system.isEmpty()) reach = reach.intersected(system);
    // The pixels the painter draws into, written without detaching (as Qt's own
    // qt_scrollRectInImage does).
    auto* bits = const_cast<uchar*>(target->constBits());
    const qsizetype stride = target->bytesPerLine();
    for (const QRect& r : reach) {
        const int x0 = r.left() - block.left(), x1 = r.right() + 1 - block.left();
        const std::size_t bytes = std::size_t(r.width()) * 4;
        for (int y = r.top(); y <= r.bottom();) {
            const int sy = (y - block.top()) / f;
            const int rows = std::min(block.top() + (sy + 1) * f, r.bottom() + 1) - y;   // device rows of source row sy
            auto* first = reinterpret_cast<quint32*>(bits + y * stride) + r.left();
            enlargeRow(reinterpret_cast<const quint32*>(picture.constScanLine(sy)), f, x0, x1, first);
            for (int k = 1; k < rows; ++k) std::memcpy(reinterpret_cast<quint32*>(bits + (y + k) * stride) + r.left(), first, bytes);
            y += rows;
        }
    }
    return true;
}

}  // namespace poslab::ui
