#pragma once
// A minimal animated-GIF (GIF89a) encoder: Qt reads GIFs but cannot write them.
//   * one global colour table, a fixed 256-colour palette: the 6×6×6 colour cube (0, 51, … 255)
//     plus 40 extra greys, so plots on white or black keep exact black, white and greys;
//     every pixel maps to the nearest palette entry (no dithering: lines and text stay crisp)
//   * LZW compression with variable code size (9 … 12 bits), clear codes when the table is full
//   * the NETSCAPE2.0 application extension for looping, a graphic control extension per frame
//     with its delay in hundredths of a second
// Frames of a different size than the first are scaled to it.
#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QVector>

#include <vector>

QT_BEGIN_NAMESPACE
class QIODevice;
QT_END_NAMESPACE

namespace poslab::ui {

class GifWriter {
public:
    // Writes to `out` (must be open for writing). `loops` = 0: repeat forever; n: play n+1 times.
    GifWriter(QIODevice* out, QSize size, int loops = 0);
    // Appends one frame shown for `delayCs` hundredths of a second (>= 2 recommended).
    bool addFrame(const QImage& frame, int delayCs);
    // Writes the trailer; no frame can be added afterwards. Called by the destructor if needed.
    bool finish();
    ~GifWriter();

    int frameCount() const { return frames_; }
    bool ok() const { return ok_; }

    // The fixed palette (256 entries) and the index of the nearest entry to a colour.
    static const QVector<QRgb>& palette();
    static int paletteIndex(QRgb c);

    // LZW data of one image (the bytes after the image descriptor: the minimum code size byte,
    // the sub-blocks and the block terminator), exposed for tests.
    static QByteArray lzwImageData(const std::vector<unsigned char>& indices, int minCodeSize = 8);

private:
    bool write(const QByteArray& b);
    QIODevice* out_;
    QSize size_;
    int frames_ = 0;
    bool ok_ = true;
    bool finished_ = false;
};

// All frames as one GIF in memory.
QByteArray encodeGif(const std::vector<QImage>& frames, int delayCs, int loops = 0);

}  // namespace poslab::ui
