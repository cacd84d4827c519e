// xPos core: an independent float transcription of torchscale's XPOS.forward (angles, scale,
// rotation, incremental-decoding offset), its relation to interleaved RoPE (scale 1 at centred
// position 0), relative-position and decay properties in double, xposApplyAt against xposApply,
// and validation of parameters and extents.
#include <QtTest>

#include <cmath>
#include <functional>

#include "core/rope.h"
#include "core/xpos.h"
#include "support/testsupport.h"

using namespace poslab;
using testsupport::maxAbsDiff;

namespace {

constexpr double kF32Ulp = 1.1920928955078125e-7;

const char* precTag(Precision p) { return p == Precision::Float32 ? "f32" : "f64"; }

// torchscale XPOS.forward, written from the upstream Python with float32 tensors:
//   scale buffer  (arange(0, d, 2) + 0.4 d) / (1.4 d)
//   min_pos = -(L + offset) // 2, max_pos = L + offset + min_pos
//   scale = scale_buf ** (arange(min_pos, max_pos) / scale_base)[:, None]
//   sin, cos = fixed_pos_embedding(scale): inv_freq = 1 / 10000 ** (arange(0, d/2) / (d/2)),
//              angles = arange(0, L + offset) ⊗ inv_freq
//   keep the last L rows; downscale → 1/scale; x*dup(cos*scale) + rotate_every_two(x)*dup(sin*scale)
struct RefXpos {
    Matrix out, scale, angle;
};
RefXpos refXpos(const Matrix& x, int d, double scaleBase, std::int64_t offset, bool downscale) {
    const int h = d / 2;
    const std::int64_t L = x.rows(), n = L + offset;
    const std::int64_t minPos = -((n + 1) / 2);  // Python floor division of a negative number
    std::vector<float> inv(h), zeta(h);
    for (int i = 0; i < h; ++i) {
        inv[i] = 1.0f / float(std::pow(10000.0, double(float(i) / float(h))));
        zeta[i] = (float(2 * i) + float(0.4 * d)) / float(1.4 * d);
    }
    RefXpos r{Matrix(L, d), Matrix(L, h), Matrix(L, h)};
    for (std::int64_t t = 0; t < L; ++t) {
        const std::int64_t g = offset + t;  // row of the full arange
        const float e = float(minPos + g) / float(scaleBase);
        for (int i = 0; i < h; ++i) {
            float s = float(std::pow(double(zeta[i]), double(e)));
            if (downscale) s = 1.0f / s;
            const float a = float(g) * inv[i];
            const float sn = std::sin(a) * s, cs = std::cos(a) * s;
            const float x0 = float(x(t, 2 * i)), x1 = float(x(t, 2 * i + 1));
            r.out(t, 2 * i) = x0 * cs + (-x1) * sn;
            r.out(t, 2 * i + 1) = x1 * cs + x0 * sn;
            r.scale(t, i) = s;
            r.angle(t, i) = a;
        }
    }
    return r;
}

Matrix formulaRows(Eigen::Index rows, Eigen::Index cols, double a, double b) {
    Matrix m(rows, cols);
    for (Eigen::Index n = 0; n < rows * cols; ++n) m(n / cols, n % cols) = std::sin(a + b * double(n));
    return m;
}

}  // namespace

class TestXpos : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesTorchscaleTranscription_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("scaleBase");
        QTest::addColumn<qint64>("length");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<bool>("downscale");
        for (int d : {2, 4, 64, 128})
            for (double sb : {512.0, 64.0})
                for (qint64 L : {1, 2, 5, 16, 257})
                    for (qint64 off : {0, 3, 1000})
                        for (bool down : {false, true})
                            QTest::newRow(qPrintable(QString("d%1_sb%2_len%3_off%4_%5")
                                                         .arg(d).arg(sb).arg(L).arg(off).arg(down ? "down" : "up")))
                                << d << sb << L << off << down;
    }
    void matchesTorchscaleTranscription() {
        QFETCH(int, d);
        QFETCH(double, scaleBase);
        QFETCH(qint64, length);
        QFETCH(qint64, offset);
        QFETCH(bool, downscale);
        XposParams p;
        p.head_dim = d;
        p.scale_base = scaleBase;
        QVERIFY(!p.validate());
        QVERIFY(!xposCheckExtent(p, length, offset));
        const Matrix x = formulaRows(length, d, 0.5, 0.7);
        const RefXpos ref = refXpos(x, d, scaleBase, offset, downscale);
        QCOMPARE(xposScale(p, length, offset, downscale), ref.scale);
        QCOMPARE(xposAngles(p, length, offset), ref.angle);
        const Matrix got = xposApply(p, x, offset, downscale);
        // sinf/cosf vs correctly rounded sin/cos: at most an ulp each, times the scale.
        for (Eigen::Index t = 0; t < length; ++t)
            for (int i = 0; i < d / 2; ++i) {
                const double tol = 4 * kF32Ulp * ref.scale(t, i) * (std::abs(x(t, 2 * i)) + std::abs(x(t, 2 * i + 1)));
                QVERIFY2(std::abs(got(t, 2 * i) - ref.out(t, 2 * i)) <= tol, qPrintable(QString("row %1 pair %2").arg(t).arg(i)));
                QVERIFY(std::abs(got(t, 2 * i + 1) - ref.out(t, 2 * i + 1)) <= tol);
            }
    }

    // Python's floor division for the centring.
    void centredPositions_data() {
        QTest::addColumn<qint64>("length");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<QList<qint64>>("want");
        QTest::newRow("len5_off0") << qint64(5) << qint64(0) << QList<qint64>{-3, -2, -1, 0, 1};
        QTest::newRow("len4_off0") << qint64(4) << qint64(0) << QList<qint64>{-2, -1, 0, 1};
        QTest::newRow("len1_off0") << qint64(1) << qint64(0) << QList<qint64>{-1};
        QTest::newRow("len1_off4_decoding") << qint64(1) << qint64(4) << QList<qint64>{1};  // -(5)//2 = -3, last row
        QTest::newRow("len2_off3") << qint64(2) << qint64(3) << QList<qint64>{0, 1};        // arange(-3, 2)[-2:]
    }
    void centredPositions() {
        QFETCH(qint64, length);
        QFETCH(qint64, offset);
        QFETCH(QList<qint64>, want);
        for (qint64 t = 0; t < length; ++t) QCOMPARE(xposCentredPosition(length, offset, t), want[t]);
    }

    // Incremental decoding: a call with offset o gives the last rows of the full call.
    void offsetIsLastRowsOfFullCall_data() {
        QTest::addColumn<qint64>("length");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<int>("prec");
        for (qint64 L : {1, 3, 8})
            for (qint64 off : {1, 4, 31})
                for (Precision pr : {Precision::Float32, Precision::Double})
                    QTest::newRow(qPrintable(QString("len%1_off%2_%3").arg(L).arg(off).arg(precTag(pr))))
                        << L << off << int(pr);
    }
    void offsetIsLastRowsOfFullCall() {
        QFETCH(qint64, length);
        QFETCH(qint64, offset);
        QFETCH(int, prec);
        XposParams p;
        p.head_dim = 16;
        p.precision = Precision(prec);
        const Matrix full = formulaRows(length + offset, 16, 0.3, 1.1);
        const Matrix last = full.bottomRows(length);
        for (bool down : {false, true}) {
            const Matrix a = xposApply(p, last, offset, down);
            const Matrix b = xposApply(p, full, 0, down).bottomRows(length);
            QCOMPARE(a, b);
        }
    }

    // At centred position 0 the scale is 1 and xPos is interleaved RoPE with θ_i = 10000^(−2i/d)
    // (torchscale's apply_rotary_pos_emb with scale = 1, the seed example's third path).
    void scaleOneIsInterleavedRope_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<qint64>("length");
        QTest::addColumn<int>("prec");
        for (int d : {4, 8, 64})
            for (qint64 L : {1, 5, 64, 1001})
                for (Precision pr : {Precision::Float32, Precision::Double})
                    QTest::newRow(qPrintable(QString("d%1_len%2_%3").arg(d).arg(L).arg(precTag(pr)))) << d << L << int(pr);
    }
    void scaleOneIsInterleavedRope() {
        QFETCH(int, d);
        QFETCH(qint64, length);
        QFETCH(int, prec);
        XposParams p;
        p.head_dim = d;
        p.precision = Precision(prec);
        // the row with c = 0 is t = ceil(L/2) (L = 1 has none: c = −1)
        const qint64 t0 = (length + 1) / 2;
        if (t0 >= length) {
            QCOMPARE(xposCentredPosition(length, 0, 0), qint64(-1));
            return;
        }
        QCOMPARE(xposCentredPosition(length, 0, t0), qint64(0));
        const Matrix sc = xposScale(p, length, 0, false);
        for (int i = 0; i < d / 2; ++i) QCOMPARE(sc(t0, i), 1.0);
        RopeParams r;
        r.head_dim = d;
        r.base = 10000.0;
        r.layout = RopeLayout::Interleaved;
        r.precision = p.precision;
        QVERIFY(!r.validate());
        const Matrix x = formulaRows(1, d, 0.5, 0.7);
        const Matrix want = ropeRotate(r, {t0}, x);
        if (p.precision == Precision::Double) {
            QCOMPARE(xposApplyAt(p, x, {t0}, length, false), want);
            QCOMPARE(xposApplyAt(p, x, {t0}, length, true), want);
            QCOMPARE(xposInvFreq(p), ropeFrequencies(r).inv_freq);
        } else {
            // float32: RoPE uses torch's own pow/cos/sin (SLEEF, core/precision.h), xPos a correctly
            // rounded pow/cos/sin: they agree to a float32 ulp or two, not bit for bit.
            QVERIFY(testsupport::maxAbsDiff(xposApplyAt(p, x, {t0}, length, false), want) <= 5e-7);
            QVERIFY(testsupport::maxAbsDiff(xposApplyAt(p, x, {t0}, length, true), want) <= 5e-7);
            QVERIFY(testsupport::maxRelDiff(xposInvFreq(p), ropeFrequencies(r).inv_freq) <= 2.5e-7);
        }
        // The seed example's vector q = [1, 0, 1, 0] at m = 2 of a length-4 sequence (c = 0).
        if (d == 4) {
            const Matrix q{{1.0, 0.0, 1.0, 0.0}};
            const Matrix out = xposApplyAt(p, q, {2}, 4, false);
            QVERIFY(std::abs(out(0, 0) - std::cos(2.0)) < 1e-7 && std::abs(out(0, 1) - std::sin(2.0)) < 1e-7);
            QVERIFY(std::abs(out(0, 2) - std::cos(0.02)) < 1e-7 && std::abs(out(0, 3) - std::sin(0.02)) < 1e-7);
        }
    }

    // Double precision: q·k carries ζ_i^((m−n)/scale_base) per pair; depends only on m − n.
    void relativeDecay_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("scaleBase");
        for (int d : {4, 16, 64, 128})
            for (double sb : {512.0, 32.0})
                QTest::newRow(qPrintable(QString("d%1_sb%2").arg(d).arg(sb))) << d << sb;
    }
    void relativeDecay() {
        QFETCH(int, d);
        QFETCH(double, scaleBase);
        XposParams p;
        p.head_dim = d;
        p.scale_base = scaleBase;
        p.precision = Precision::Double;
        QVERIFY(!p.validate());
        const std::int64_t L = 2000;
        QVERIFY(!xposCheckExtent(p, L, 0));
        const Matrix q = formulaRows(1, d, 0.5, 0.7), k = formulaRows(1, d, 0.3, 1.1);
        const Vector zeta = xposZeta(p);
        for (int i = 0; i < d / 2; ++i) QVERIFY(std::abs(zeta[i] - (2.0 * i + 0.4 * d) / (1.4 * d)) <= 1e-16);
        RopeParams r;
        r.head_dim = d;
        r.layout = RopeLayout::Interleaved;
        r.precision = Precision::Double;
        auto score = [&](std::int64_t m, std::int64_t n) {
            const Matrix a = xposApplyAt(p, q, {m}, L, false), b = xposApplyAt(p, k, {n}, L, true);
            return a.row(0).dot(b.row(0));
        };
        auto expected = [&](std::int64_t m, std::int64_t n) {
            const Matrix a = ropeRotate(r, {m}, q), b = ropeRotate(r, {n}, k);
            double s = 0;
            for (int i = 0; i < d / 2; ++i)
                s += std::pow(zeta[i], double(m - n) / scaleBase) *
                     (a(0, 2 * i) * b(0, 2 * i) + a(0, 2 * i + 1) * b(0, 2 * i + 1));
            return s;
        };
        const double norm = q.norm() * k.norm();
        for (auto [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{{10, 3}, {3, 10}, {999, 0}, {1500, 1499}}) {
            const double s = score(m, n);
            QVERIFY2(std::abs(s - expected(m, n)) <= 1e-12 * norm * 4,
                     qPrintable(QString("m %1 n %2: %3 vs %4").arg(m).arg(n).arg(s).arg(expected(m, n))));
            for (std::int64_t delta : {1, 250, 400}) QVERIFY(std::abs(score(m + delta, n + delta) - s) <= 1e-11 * norm);
        }
        // Decay: with q = k = ones-like pair content, the per-pair factor shrinks with distance.
        const Matrix s0 = xposScale(p, L, 0, false), s1 = xposScale(p, L, 0, true);
        for (Eigen::Index t = 0; t < L; t += 97)
            for (int i = 0; i < d / 2; ++i) {
                QVERIFY(std::abs(s0(t, i) * s1(t, i) - 1) <= 1e-15);  // downscale is the reciprocal
                if (t > 0) QVERIFY(s0(t, i) < s0(t - 1, i));        // ζ < 1: the up-scale shrinks with position
            }
    }

    // xposApplyAt gives exactly the rows of the full call.
    void applyAtMatchesApply_data() {
        QTest::addColumn<int>("prec");
        QTest::newRow("len37_f32") << int(Precision::Float32);
        QTest::newRow("len37_f64") << int(Precision::Double);
    }
    void applyAtMatchesApply() {
        QFETCH(int, prec);
        XposParams p;
        p.head_dim = 8;
        p.scale_base = 16;
        p.precision = Precision(prec);
        const std::int64_t L = 37;
        const Matrix X = formulaRows(L, 8, 0.5, 0.7);
        const Positions pos{0, 5, 36, 17, 5};
        Matrix sel(Eigen::Index(pos.size()), 8);
        for (std::size_t k = 0; k < pos.size(); ++k) sel.row(Eigen::Index(k)) = X.row(pos[k]);
        for (bool down : {false, true}) {
            const Matrix full = xposApply(p, X, 0, down);
            const Matrix at = xposApplyAt(p, sel, pos, L, down);
            const Matrix fullScale = xposScale(p, L, 0, down);
            const Matrix atScale = xposScaleAt(p, pos, L, down);
            for (std::size_t k = 0; k < pos.size(); ++k) {
                QCOMPARE(Matrix(at.row(Eigen::Index(k))), Matrix(full.row(pos[k])));
                QCOMPARE(Matrix(atScale.row(Eigen::Index(k))), Matrix(fullScale.row(pos[k])));
            }
        }
    }

    void validation_data() {
        using M = std::function<void(XposParams&)>;
        QTest::addColumn<M>("mutate");
        QTest::addColumn<QString>("field");
        QTest::newRow("head_dim_odd_7") << M([](XposParams& p) { p.head_dim = 7; }) << "head_dim";
        QTest::newRow("head_dim_0") << M([](XposParams& p) { p.head_dim = 0; }) << "head_dim";
        QTest::newRow("head_dim_65538") << M([](XposParams& p) { p.head_dim = 65538; }) << "head_dim";
        QTest::newRow("scale_base_0") << M([](XposParams& p) { p.scale_base = 0; }) << "scale_base";
        QTest::newRow("scale_base_negative") << M([](XposParams& p) { p.scale_base = -512; }) << "scale_base";
        QTest::newRow("scale_base_nan") << M([](XposParams& p) { p.scale_base = std::nan(""); }) << "scale_base";
        QTest::newRow("scale_base_inf") << M([](XposParams& p) { p.scale_base = INFINITY; }) << "scale_base";
        QTest::newRow("scale_base_1e13") << M([](XposParams& p) { p.scale_base = 1e13; }) << "scale_base";
    }
    void validation() {
        using M = std::function<void(XposParams&)>;
        QFETCH(M, mutate);
        QFETCH(QString, field);
        XposParams p;
        QVERIFY(!p.validate());
        mutate(p);
        const Check e = p.validate();
        QVERIFY(e.has_value());
        QCOMPARE(QString::fromStdString(e->parameter), field);
        QVERIFY(!e->valid.empty() && !e->got.empty());
    }

    // Extent: |c|/scale_base·ln(7/2) <= 60; with scale_base 512, |c| <= 24521 (length+offset <= 49042).
    void extent_data() {
        QTest::addColumn<qint64>("length");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<QString>("field");  // empty = valid
        QTest::newRow("len1_off0") << qint64(1) << qint64(0) << QString();
        QTest::newRow("len49042_off0") << qint64(49042) << qint64(0) << QString();
        QTest::newRow("len49044_off0") << qint64(49044) << qint64(0) << QString("length");
        QTest::newRow("len100_off48942") << qint64(100) << qint64(48942) << QString();
        QTest::newRow("len100_off49000") << qint64(100) << qint64(49000) << QString("offset");
        QTest::newRow("len0_off0") << qint64(0) << qint64(0) << QString("length");
        QTest::newRow("len5_off-1") << qint64(5) << qint64(-1) << QString("offset");
        QTest::newRow("len2^41_off0") << (qint64(1) << 41) << qint64(0) << QString("length");
    }
    void extent() {
        QFETCH(qint64, length);
        QFETCH(qint64, offset);
        QFETCH(QString, field);
        XposParams p;
        const Check e = xposCheckExtent(p, length, offset);
        if (field.isEmpty()) {
            QVERIFY2(!e, e ? e->message().c_str() : "");
            // the extreme kept rows really stay inside float32 with room to spare
            const std::int64_t c = xposCentredPosition(length, offset, 0);
            QVERIFY(std::abs(double(c)) / p.scale_base * std::log(3.5) <= 60);
        } else {
            QVERIFY(e.has_value());
            QCOMPARE(QString::fromStdString(e->parameter), field);
        }
    }

    void checkPositions() {
        XposParams p;
        QVERIFY(!xposCheckPositions(p, {0, 10, 4999}, 5000));
        const Check far = xposCheckPositions(p, {0, 60000}, 5000);
        QVERIFY(far.has_value());
        QCOMPARE(QString::fromStdString(far->parameter), QString("positions"));
        const Check neg = xposCheckPositions(p, {-1}, 5000);
        QVERIFY(neg.has_value());
        QCOMPARE(QString::fromStdString(neg->parameter), QString("positions"));
        QVERIFY(xposCheckPositions(p, {}, 5000).has_value());
        QCOMPARE(QString::fromStdString(xposCheckPositions(p, {0}, 0)->parameter), QString("length"));
    }

    // Outside the extent (a violated precondition) the functions still return finite numbers.
    void finiteBeyondExtent() {
        for (Precision pr : {Precision::Float32, Precision::Double}) {
            XposParams p;
            p.scale_base = 1.0;
            p.precision = pr;
            QVERIFY(xposCheckExtent(p, 1000, 0).has_value());
            QVERIFY(xposScale(p, 1000, 0, false).allFinite());
            QVERIFY(xposScale(p, 1000, 0, true).allFinite());
            QVERIFY(xposApply(p, formulaRows(1000, 64, 0.5, 0.7), 0, true).allFinite());
            QVERIFY(xposApplyAt(p, formulaRows(1, 64, 0.5, 0.7), {kMaxPosition}, 3, false).allFinite());
        }
    }
};

QTEST_APPLESS_MAIN(TestXpos)
#include "test_xpos.moc"
