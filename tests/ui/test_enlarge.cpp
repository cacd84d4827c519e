// copyEnlarged (ui/render/enlarge.h): a logical picture copied onto a device at a whole pixel
// ratio gives exactly the pixels of QPainter's scaled copy without smoothing (each picture pixel
// a block of f × f device pixels), within the painter's system clip; and it draws nothing where
// QPainter would draw something else.
#include "ui/render/enlarge.h"

#include <QPaintEngine>
#include <QPainter>
#include <QRandomGenerator>

#include <QtTest>

#include <cmath>

using namespace poslab::ui;

namespace {
// A picture of random opaque pixels (any difference in a block shows).
QImage noise(QSize size, quint32 seed) {
    QImage img(size, QImage::Format_RGB32);
    QRandomGenerator rng(seed);
    for (int y = 0; y < img.height(); ++y) {
        auto* row = reinterpret_cast<quint32*>(img.scanLine(y));
        for (int x = 0; x < img.width(); ++x) row[x] = 0xff000000u | (rng.generate() & 0xffffffu);
    }
    return img;
}
// The device: `deviceSize` pixels of `format` at `ratio`, grey to start with.
QImage device(QSize deviceSize, QImage::Format format, int ratio) {
    QImage img(deviceSize, format);
    img.fill(QColor(128, 128, 128));
    img.setDevicePixelRatio(ratio);
    return img;
}
}  // namespace

class TestEnlarge : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameAsQPaintersScaledCopy_data() {
        QTest::addColumn<QSize>("picture");
        QTest::addColumn<int>("ratio");
        QTest::addColumn<QPoint>("origin");     // the painter's translation (logical)
        QTest::addColumn<QPoint>("topLeft");    // where the picture goes (logical)
        QTest::addColumn<int>("format");
        QTest::newRow("ratio2_even") << QSize(64, 40) << 2 << QPoint(0, 0) << QPoint(0, 0) << int(QImage::Format_RGB32);
        QTest::newRow("ratio2_odd_width_offset") << QSize(37, 23) << 2 << QPoint(5, 3) << QPoint(1, 2) << int(QImage::Format_RGB32);
        QTest::newRow("ratio2_argb32pm") << QSize(41, 9) << 2 << QPoint(3, 7) << QPoint(0, 0) << int(QImage::Format_ARGB32_Premultiplied);
        QTest::newRow("ratio2_argb32") << QSize(9, 41) << 2 << QPoint(0, 1) << QPoint(2, 0) << int(QImage::Format_ARGB32);
        QTest::newRow("ratio2_one_pixel") << QSize(1, 1) << 2 << QPoint(0, 0) << QPoint(0, 0) << int(QImage::Format_RGB32);
        QTest::newRow("ratio2_past_the_right_edge") << QSize(80, 60) << 2 << QPoint(20, 10) << QPoint(-3, -4) << int(QImage::Format_RGB32);
        QTest::newRow("ratio2_past_the_left_and_top_edges") << QSize(80, 60) << 2 << QPoint(0, 0) << QPoint(-3, -4) << int(QImage::Format_RGB32);
        QTest::newRow("ratio3_past_the_left_edge_odd") << QSize(21, 15) << 3 << QPoint(0, 0) << QPoint(-5, 2) << int(QImage::Format_RGB32);
        QTest::newRow("ratio3_odd") << QSize(31, 17) << 3 << QPoint(2, 1) << QPoint(0, 0) << int(QImage::Format_RGB32);
        QTest::newRow("ratio1") << QSize(50, 30) << 1 << QPoint(4, 4) << QPoint(1, 1) << int(QImage::Format_RGB32);
    }
    void sameAsQPaintersScaledCopy() {
        QFETCH(QSize, picture);
        QFETCH(int, ratio);
        QFETCH(QPoint, origin);
        QFETCH(QPoint, topLeft);
        QFETCH(int, format);
        const QImage pic = noise(picture, 7 + picture.width());
        const QSize deviceSize(ratio * 90, ratio * 70);
        QImage ours = device(deviceSize, QImage::Format(format), ratio), qts = ours;
        ours.detach();
        {
            QPainter p(&ours);
            p.translate(origin);
            QVERIFY(copyEnlarged(p, pic, &ours, topLeft));
        }
        {
            QPainter p(&qts);
            p.translate(origin);
            p.drawImage(QRectF(QPointF(topLeft), QSizeF(picture)), pic);
        }
        QVERIFY(ours == qts);
    }

    // Within the engine's system clip only (a widget's repaint region): a region of two
    // rectangles, in device pixels, with odd edges (half a picture pixel); with the painter
    // translated too, as a widget's paint into its window's backing store is.
    void keepsWithinTheSystemClip_data() {
        QTest::addColumn<QPoint>("origin");
        QTest::addColumn<QPoint>("topLeft");
        QTest::newRow("untranslated") << QPoint(0, 0) << QPoint(0, 0);
        QTest::newRow("translated_painter") << QPoint(7, 5) << QPoint(0, 0);
        QTest::newRow("translated_painter_and_picture") << QPoint(7, 5) << QPoint(-2, 1);
    }
    void keepsWithinTheSystemClip() {
        QFETCH(QPoint, origin);
        QFETCH(QPoint, topLeft);
        const QImage pic = noise(QSize(60, 40), 3);
        QImage ours = device(QSize(140, 100), QImage::Format_RGB32, 2), qts = ours;
        ours.detach();
        const QRegion clip = QRegion(QRect(3, 5, 41, 17)) + QRegion(QRect(70, 31, 33, 40));
        for (QImage* img : {&ours, &qts}) {
            img->paintEngine()->setSystemClip(clip);   // (set before the painter begins, as a widget's paint does)
            QPainter p(img);
            p.translate(origin);
            if (img == &ours)
                QVERIFY(copyEnlarged(p, pic, img, topLeft));
            else
                p.drawImage(QRectF(QPointF(topLeft), QSizeF(60, 40)), pic);
        }
        QVERIFY(ours == qts);
        QCOMPARE(QColor(ours.pixel(0, 0)), QColor(128, 128, 128));   // outside the clip: untouched
    }

    // Where QPainter would draw something else (or onto another device), nothing is written.
    void refusesWhatItCannotCopy_data() {
        QTest::addColumn<QString>("what");
        for (const char* w : {"ratio_1.5", "rotated", "opacity", "own_clip", "multiply", "other_device", "rgb16_device",
                              "argb_picture", "half_pixel_offset", "offset_past_int", "nan_offset", "smooth"})
            QTest::newRow(w) << QString::fromLatin1(w);
    }
    void refusesWhatItCannotCopy() {
        QFETCH(QString, what);
        QImage pic = noise(QSize(20, 10), 1);
        QImage img(QSize(60, 40), what == QLatin1String("rgb16_device") ? QImage::Format_RGB16 : QImage::Format_RGB32);
        img.fill(Qt::gray);
        img.setDevicePixelRatio(what == QLatin1String("ratio_1.5") ? 1.5 : 2.0);
        const QImage before = img.copy();
        QImage other(QSize(60, 40), QImage::Format_RGB32);
        {
            QPainter p(&img);
            if (what == QLatin1String("rotated")) p.rotate(90);
            if (what == QLatin1String("opacity")) p.setOpacity(0.5);
            if (what == QLatin1String("own_clip")) p.setClipRect(0, 0, 5, 5);
            if (what == QLatin1String("multiply")) p.setCompositionMode(QPainter::CompositionMode_Multiply);
            if (what == QLatin1String("argb_picture")) pic = pic.convertToFormat(QImage::Format_ARGB32);
            if (what == QLatin1String("half_pixel_offset")) p.translate(0.25, 0);
            if (what == QLatin1String("offset_past_int")) p.translate(3e9, 0);
            if (what == QLatin1String("nan_offset")) p.translate(std::nan(""), 0);
            if (what == QLatin1String("smooth")) p.setRenderHint(QPainter::SmoothPixmapTransform);
            QVERIFY(!copyEnlarged(p, pic, what == QLatin1String("other_device") ? &other : &img));
        }
        QVERIFY(img == before);
    }
};

QTEST_MAIN(TestEnlarge)
#include "test_enlarge.moc"
