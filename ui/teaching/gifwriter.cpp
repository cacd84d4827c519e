#include "ui/teaching/gifwriter.h"

#include <QBuffer>
#include <QIODevice>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace poslab::ui {

namespace {

void put16(QByteArray& b, int v) {
    b.append(char(v & 0xFF));
    b.append(char((v >> 8) & 0xFF));
}

constexpr int kCubeLevels[6] = {0, 51, 102, 153, 204, 255};

// Bit packer for LZW codes: LSB first, then cut into sub-blocks of at most 255 bytes.
class BitWriter {
public:
    void put(int code, int bits) {
        acc_ |= std::uint32_t(code) << n_;
        n_ += bits;
        while (n_ >= 8) {
            bytes_.push_back(char(acc_ & 0xFF));
            acc_ >>= 8;
            n_ -= 8;
        }
    }
    QByteArray finish() {
        if (n_ > 0) bytes_.push_back(char(acc_ & 0xFF));
        QByteArray out;
        for (qsizetype i = 0; i < bytes_.size(); i += 255) {
            const qsizetype len = std::min<qsizetype>(255, bytes_.size() - i);
            out.append(char(len));
            out.append(bytes_.constData() + i, len);
        }
        out.append(char(0));  // block terminator
        return out;
    }

private:
    QByteArray bytes_;
    std::uint32_t acc_ = 0;
    int n_ = 0;
};

}  // namespace

const QVector<QRgb>& GifWriter::palette() {
    static const QVector<QRgb> pal = [] {
        QVector<QRgb> p;
        p.reserve(256);
        for (int r = 0; r < 6; ++r)
            for (int g = 0; g < 6; ++g)
                for (int b = 0; b < 6; ++b) p.push_back(qRgb(kCubeLevels[r], kCubeLevels[g], kCubeLevels[b]));
        // 40 greys evenly between black and white (none coincides with the cube's six greys).
        for (int k = 1; k <= 40; ++k) {
            const int v = int(std::lround(k * 255.0 / 41.0));
            p.push_back(qRgb(v, v, v));
        }
        return p;
    }();
    return pal;
}

int GifWriter::paletteIndex(QRgb c) {
    const int r = qRed(c), g = qGreen(c), b = qBlue(c);
    auto level = [](int v) { return std::clamp((v + 25) / 51, 0, 5); };
    const int ri = level(r), gi = level(g), bi = level(b);
    const int cube = ri * 36 + gi * 6 + bi;
    auto err = [&](QRgb p) {
        const int dr = qRed(p) - r, dg = qGreen(p) - g, db = qBlue(p) - b;
        return dr * dr + dg * dg + db * db;
    };
    const auto& pal = palette();
    int best = cube, bestErr = err(pal[cube]);
    if (bestErr == 0) return best;
    // Nearest grey among the extra greys (they are sorted).
    const int mean = (r + g + b) / 3;
    for (int i = 216; i < 256; ++i) {
        if (std::abs(qRed(pal[i]) - mean) > 8) continue;
        const int e = err(pal[i]);
        if (e < bestErr) {
            bestErr = e;
            best = i;
        }
    }
    return best;
}

QByteArray GifWriter::lzwImageData(const std::vector<unsigned char>& idx, int minCodeSize) {
    QByteArray out;
    out.append(char(minCodeSize));
    BitWriter bw;
    const int clear = 1 << minCodeSize, eoi = clear + 1;
    int codeSize = minCodeSize + 1;
    int next = eoi + 1;
    // Dictionary: (prefix code, byte) → code, open addressing; entries of older generations are empty.
    constexpr int kHash = 1 << 14;
    std::vector<std::int32_t> keys(kHash, -1);
    std::vector<std::int16_t> codes(kHash, 0);
    auto reset = [&] {
        std::fill(keys.begin(), keys.end(), -1);
        codeSize = minCodeSize + 1;
        next = eoi + 1;
    };
    auto find = [&](std::int32_t key) -> int {
        std::uint32_t h = (std::uint32_t(key) * 2654435761u) >> 18;
        for (;;) {
            if (keys[h] == -1) return -int(h) - 1;
            if (keys[h] == key) return codes[h];
            h = (h + 1) & (kHash - 1);
        }
    };
    bw.put(clear, codeSize);
    if (idx.empty()) {
        bw.put(eoi, codeSize);
        out.append(bw.finish());
        return out;
    }
    int prefix = idx[0] & (clear - 1);
    for (std::size_t i = 1; i < idx.size(); ++i) {
        const int c = idx[i] & (clear - 1);
        const std::int32_t key = (prefix << 8) | c;
        const int f = find(key);
        if (f >= 0) {
            prefix = f;
            continue;
        }
        bw.put(prefix, codeSize);
        if (next < 4096) {
            const int slot = -f - 1;
            keys[std::size_t(slot)] = key;
            codes[std::size_t(slot)] = std::int16_t(next);
            if (next == (1 << codeSize) && codeSize < 12) ++codeSize;
            ++next;
        } else {
            bw.put(clear, codeSize);
            reset();
        }
        prefix = c;
    }
    bw.put(prefix, codeSize);
    // The decoder adds one more entry on reading `prefix`; keep the widths in step.
    if (next < 4096 && next == (1 << codeSize) && codeSize < 12) ++codeSize;
    bw.put(eoi, codeSize);
    out.append(bw.finish());
    return out;
}

GifWriter::GifWriter(QIODevice* out, QSize size, int loops) : out_(out), size_(size) {
    if (!out_ || !out_->isWritable() || size.width() < 1 || size.height() < 1 || size.width() > 65535 || size.height() > 65535) {
        ok_ = false;
        return;
    }
    QByteArray h("GIF89a");
    put16(h, size.width());
    put16(h, size.height());
    h.append(char(0xF7));  // global colour table, 8 bits colour resolution, 256 entries
    h.append(char(0));     // background colour index
    h.append(char(0));     // pixel aspect ratio
    for (QRgb c : palette()) {
        h.append(char(qRed(c)));
        h.append(char(qGreen(c)));
        h.append(char(qBlue(c)));
    }
    // NETSCAPE2.0 looping extension.
    h.append(char(0x21));
    h.append(char(0xFF));
    h.append(char(11));
    h.append("NETSCAPE2.0", 11);
    h.append(char(3));
    h.append(char(1));
    put16(h, std::clamp(loops, 0, 65535));
    h.append(char(0));
    ok_ = write(h);
}

GifWriter::~GifWriter() {
    if (!finished_) finish();
}

bool GifWriter::write(const QByteArray& b) { return out_->write(b) == b.size(); }

bool GifWriter::addFrame(const QImage& frame, int delayCs) {
    if (!ok_ || finished_ || frame.isNull()) return false;
    QImage img = frame.size() == size_ ? frame : frame.scaled(size_, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    img = img.convertToFormat(QImage::Format_RGB32);
    std::vector<unsigned char> idx(std::size_t(size_.width()) * std::size_t(size_.height()));
    // Cache of the last colours seen (plots have few distinct colours).
    QRgb lastC = 0;
    int lastI = -1;
    std::size_t k = 0;
    for (int y = 0; y < size_.height(); ++y) {
        const QRgb* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < size_.width(); ++x) {
            const QRgb c = line[x] | 0xFF000000u;
            if (lastI < 0 || c != lastC) {
                lastC = c;
                lastI = paletteIndex(c);
            }
            idx[k++] = static_cast<unsigned char>(lastI);
        }
    }
    QByteArray b;
    // Graphic control extension: no transparency, disposal "do not dispose", the delay.
    b.append(char(0x21));
    b.append(char(0xF9));
    b.append(char(4));
    b.append(char(0x04));
    put16(b, std::clamp(delayCs, 0, 65535));
    b.append(char(0));
    b.append(char(0));
    // Image descriptor: whole canvas, no local table, not interlaced.
    b.append(char(0x2C));
    put16(b, 0);
    put16(b, 0);
    put16(b, size_.width());
    put16(b, size_.height());
    b.append(char(0));
    b.append(lzwImageData(idx, 8));
    ok_ = write(b);
    if (ok_) ++frames_;
    return ok_;
}

bool GifWriter::finish() {
    if (finished_) return ok_;
    finished_ = true;
    if (!ok_) return false;
    ok_ = write(QByteArray(1, char(0x3B)));
    return ok_;
}

QByteArray encodeGif(const std::vector<QImage>& frames, int delayCs, int loops) {
    QByteArray bytes;
    if (frames.empty()) return bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    {
        GifWriter w(&buf, frames.front().size(), loops);
        for (const auto& f : frames) w.addFrame(f, delayCs);
        w.finish();
    }
    buf.close();
    return bytes;
}

}  // namespace poslab::ui
