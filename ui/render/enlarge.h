#pragma once
// Copying a picture drawn at logical resolution onto a high-DPI device, each of its pixels as a
// block of f × f device pixels (f: the painter's integer scale, 2 on a 4K laptop at 200 %).
//
// QPainter::drawImage(QRectF(rect), picture) without smoothing gives exactly these pixels, but
// Qt's scaled copy fetches and stores one device pixel at a time: at DPR 2 it was 60 % of the GUI
// thread's work per edit while edits stream (perf, bench_live_update). Here each source row is
// enlarged once, four device pixels per SIMD store, and copied to its f device rows: the same
// bytes at about half the time.
//
// Input: `picture`, Format_RGB32 (opaque: every pixel 0xffRRGGBB), drawn for the logical
// rectangle at `topLeft` of the size picture.size() / picture.devicePixelRatio() = its pixel
// size (devicePixelRatio 1). Output: the pixels written straight into the painter's image.
//
// It writes only into `into`, the image a window's backing store paints into
// (QBackingStore::paintDevice(), a QImage on the raster platforms), when the painter paints into
// it (a widget's paint, redirected there) and that is what the painter would draw: a raster
// engine, no smoothing hint, 32 bits per pixel (RGB32, ARGB32, ARGB32_Premultiplied:
// an opaque pixel has the same bits in each), a device transform that is a scale by a whole f ≥ 1
// and a whole-pixel offset, opacity 1, composition SourceOver or Source, no clip of the
// painter's own; within the engine's system clip (the region being repainted). Otherwise it
// draws nothing and returns false, and the caller draws with QPainter.
#include <QImage>
#include <QPoint>

class QPaintDevice;
class QPainter;

namespace poslab::ui {

bool copyEnlarged(QPainter& painter, const QImage& picture, const QPaintDevice* into, QPoint topLeft = {});

}  // namespace poslab::ui
