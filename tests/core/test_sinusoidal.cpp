// Sinusoidal absolute encoding: golden tables (DistilBERT interleaved, fairseq concat),
// independent float32 re-implementations of the other references, shift/rotation properties in
// double precision, odd dimensions and validation.
#include <QtTest>

#include <cmath>

#include "core/sinusoidal.h"
#include "support/testsupport.h"

using namespace poslab;

namespace {

SinusoidalLayout layoutOf(const QString& s) {
    return s == "concat" ? SinusoidalLayout::Concat : SinusoidalLayout::Interleaved;
}
SinusoidalFrequencies freqOf(const QString& s) {
    return s == "t2t" ? SinusoidalFrequencies::Tensor2Tensor : SinusoidalFrequencies::Vaswani;
}
Precision precOf(const QString& s) { return s == "double" ? Precision::Double : Precision::Float32; }

// ---- Independent re-implementations of the references (float maths via the float overloads
// of <cmath>, i.e. expf/powf/sinf), written from the upstream Python. ----

// DistilBERT create_sinusoidal_embeddings: numpy double maths, stored as float32.
//   position_enc[pos, j] = pos / np.power(10000, 2 * (j // 2) / dim); sin at even j, cos at odd j.
Matrix refDistilbert(const Positions& pos, int dim, double base) {
    Matrix m(Eigen::Index(pos.size()), dim);
    for (std::size_t r = 0; r < pos.size(); ++r)
        for (int j = 0; j < dim; ++j) {
            const double a = double(pos[r]) / std::pow(base, double(2 * (j / 2)) / double(dim));
            m(Eigen::Index(r), j) = double(float(j % 2 == 0 ? std::sin(a) : std::cos(a)));
        }
    return m;
}

// Transformer-XL PositionalEmbedding / GPT-J table: inv_freq = 1 / (base ** (arange(0., d, 2.) / d))
// in float32, angle = float32(pos) * inv_freq, cat([sin, cos]). (Odd d: the product's own rule
// is floor(d/2) frequencies plus a zero column.)
Matrix refTransformerXL(const Positions& pos, int dim, float base) {
    const int half = dim / 2;
    Matrix m = Matrix::Zero(Eigen::Index(pos.size()), dim);
    for (int i = 0; i < half; ++i) {
        const float e = float(2 * i) / float(dim);
        // float32 pow, correctly rounded (via double): glibc's runtime powf is 1 ulp off at a
        // near-tie (d=768, i=53), and torch's vectorised powf is neither of them.
        const float inv = 1.0f / float(std::pow(double(base), double(e)));
        for (std::size_t r = 0; r < pos.size(); ++r) {
            const float a = float(pos[r]) * inv;
            m(Eigen::Index(r), i) = std::sin(a);
            m(Eigen::Index(r), half + i) = std::cos(a);
        }
    }
    return m;
}

// fairseq get_embedding: emb = math.log(10000) / (half - 1) (double), exp(arange(half).float() * -emb)
// in float32, arange(n).float() * emb, cat([sin, cos]), zero column for odd d.
Matrix refFairseq(const Positions& pos, int dim) {
    const int half = dim / 2;
    const double embD = std::log(10000.0) / (half - 1);
    const float negEmb = -float(embD);
    Matrix m = Matrix::Zero(Eigen::Index(pos.size()), dim);
    for (int i = 0; i < half; ++i) {
        const float w = std::exp(float(i) * negEmb);
        for (std::size_t r = 0; r < pos.size(); ++r) {
            const float a = float(pos[r]) * w;
            m(Eigen::Index(r), i) = std::sin(a);
            m(Eigen::Index(r), half + i) = std::cos(a);
        }
    }
    return m;
}

// tensor2tensor get_timing_signal_1d: log_timescale_increment = math.log(max/min) /
// tf.maximum(tf.to_float(num_timescales) - 1, 1) (the Python double becomes a float32 constant);
// inv_timescales = min_timescale * tf.exp(tf.to_float(tf.range(n)) * -increment); pad odd d.
Matrix refTensor2Tensor(const Positions& pos, int dim, double minTs, double maxTs) {
    const int half = dim / 2;
    const float inc = float(std::log(maxTs / minTs)) / std::max(float(half) - 1.0f, 1.0f);
    Matrix m = Matrix::Zero(Eigen::Index(pos.size()), dim);
    for (int i = 0; i < half; ++i) {
        const float w = float(minTs) * std::exp(float(i) * -inc);
        for (std::size_t r = 0; r < pos.size(); ++r) {
            const float a = float(pos[r]) * w;
            m(Eigen::Index(r), i) = std::sin(a);
            m(Eigen::Index(r), half + i) = std::cos(a);
        }
    }
    return m;
}

Positions mixedPositions() {
    Positions p = arangePositions(0, 70);
    for (std::int64_t x : {127, 128, 511, 512, 1000, 2047, 4096, 10000, 65535, 100000}) p.push_back(x);
    return p;
}

}  // namespace

class TestSinusoidal : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void goldenDistilbertInterleaved() {
        const auto c = testsupport::goldenCase("sinusoidal_distilbert_interleaved.json", "distilbert_d16");
        const auto params = c.value("params").toObject();
        const int dim = params.value("dim").toInt();
        const int nPos = params.value("n_pos").toInt();
        SinusoidalParams p;
        p.dim = dim;
        p.layout = SinusoidalLayout::Interleaved;
        p.frequencies = SinusoidalFrequencies::Vaswani;
        p.precision = Precision::Float32;
        QVERIFY(!p.validate());
        const Matrix expected = testsupport::toMatrix(c.value("output"));
        const Matrix got = sinusoidalEncoding(p, arangePositions(0, nPos));
        // Required 5e-6; the reference is double maths rounded once to float32, which we match
        // to within one float32 rounding (6e-8 at |x| <= 1).
        POSLAB_VERIFY_ABS(got, expected, 1.2e-7);
    }

    void goldenFairseqConcat() {
        const auto c = testsupport::goldenCase("sinusoidal_fairseq_concat.json", "fairseq_d16_no_padding_idx");
        const auto params = c.value("params").toObject();
        SinusoidalParams p;
        p.dim = params.value("embedding_dim").toInt();
        p.layout = SinusoidalLayout::Concat;
        p.frequencies = SinusoidalFrequencies::Tensor2Tensor;
        p.precision = Precision::Float32;
        QVERIFY(!p.validate());
        const Matrix expected = testsupport::toMatrix(c.value("output"));
        const Matrix got = sinusoidalEncoding(p, arangePositions(0, params.value("num_embeddings").toInt()));
        POSLAB_VERIFY_ABS(got, expected, 5e-6);
        // float32 frequencies: the last one is float32(1e-4) as torch's exp gives it.
        const Vector w = sinusoidalFrequencies(p);
        QCOMPARE(w.size(), Eigen::Index(p.dim / 2));
        QVERIFY(std::abs(w[w.size() - 1] - 1e-4) <= 1e-4 * 1e-6);
    }

    // Every float32 variant against an independent float32 re-implementation of its reference.
    void float32MatchesReference_data() {
        QTest::addColumn<QString>("reference");
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("minTimescale");
        for (int d : {1, 2, 3, 16, 17, 64, 65, 128, 768}) {
            if (d >= 1) QTest::addRow("distilbert_d%d", d) << "distilbert" << d << 10000.0 << 1.0;
            if (d >= 2) QTest::addRow("transformerxl_d%d", d) << "transformerxl" << d << 10000.0 << 1.0;
            if (d >= 4) QTest::addRow("fairseq_d%d", d) << "fairseq" << d << 10000.0 << 1.0;
            if (d >= 2) QTest::addRow("t2t_d%d_min1", d) << "t2t" << d << 10000.0 << 1.0;
        }
        QTest::addRow("distilbert_d64_base500000") << "distilbert" << 64 << 500000.0 << 1.0;
        QTest::addRow("transformerxl_d128_base500000") << "transformerxl" << 128 << 500000.0 << 1.0;
        QTest::addRow("transformerxl_d20_base10000") << "transformerxl" << 20 << 10000.0 << 1.0;
        QTest::addRow("t2t_d64_min2_max1e4") << "t2t" << 64 << 10000.0 << 2.0;
        QTest::addRow("t2t_d32_min0.5_max100") << "t2t" << 32 << 100.0 << 0.5;
        QTest::addRow("t2t_d20_min1_max1e4") << "t2t" << 20 << 10000.0 << 1.0;
    }
    void float32MatchesReference() {
        QFETCH(QString, reference);
        QFETCH(int, dim);
        QFETCH(double, base);
        QFETCH(double, minTimescale);
        SinusoidalParams p;
        p.dim = dim;
        p.base = base;
        p.min_timescale = minTimescale;
        p.precision = Precision::Float32;
        Matrix expected;
        Positions pos = mixedPositions();
        if (reference == "distilbert") {
            p.layout = SinusoidalLayout::Interleaved;
            expected = refDistilbert(pos, dim, base);
        } else if (reference == "transformerxl") {
            p.layout = SinusoidalLayout::Concat;
            expected = refTransformerXL(pos, dim, float(base));
        } else if (reference == "fairseq") {
            p.layout = SinusoidalLayout::Concat;
            p.frequencies = SinusoidalFrequencies::Tensor2Tensor;
            expected = refFairseq(pos, dim);
        } else {
            p.layout = SinusoidalLayout::Concat;
            p.frequencies = SinusoidalFrequencies::Tensor2Tensor;
            // With min_timescale = 1 the product follows fairseq's increment (double division),
            // which can be 1 float32 ulp from tensor2tensor's float32 division (e.g. d=20): the two
            // references agree to 5e-6 only at small positions, so compare those.
            if (minTimescale == 1.0) pos = arangePositions(0, 70);
            expected = refTensor2Tensor(pos, dim, minTimescale, base);
        }
        QVERIFY(!p.validate());
        const Matrix got = sinusoidalEncoding(p, pos);
        QVERIFY(got.allFinite());
        POSLAB_VERIFY_ABS(got, expected, 5e-6);
    }

    // The float32 references round the angle p·w to float32: at large positions that is visible
    // against exact double maths (the difference is what the Precision option shows).
    void float32AngleRoundingIsVisible_data() {
        QTest::addColumn<int>("position");
        QTest::addColumn<double>("minDiff");
        QTest::addColumn<double>("maxDiff");
        // |Δangle| <= ulp(p)/2 ≈ p·6e-8; at p = 1e5 that is up to 4e-3.
        QTest::addRow("pos1000") << 1000 << 1e-6 << 1e-4;
        QTest::addRow("pos100000") << 100000 << 1e-4 << 1e-2;
    }
    void float32AngleRoundingIsVisible() {
        QFETCH(int, position);
        QFETCH(double, minDiff);
        QFETCH(double, maxDiff);
        SinusoidalParams p;
        p.dim = 128;
        p.base = 500000.0;
        p.layout = SinusoidalLayout::Concat;
        p.precision = Precision::Float32;
        const Matrix f = sinusoidalEncoding(p, {position});
        p.precision = Precision::Double;
        const Matrix d = sinusoidalEncoding(p, {position});
        const double diff = testsupport::maxAbsDiff(f, d);
        QVERIFY2(diff >= minDiff && diff <= maxDiff, qPrintable(QString::number(diff)));
    }

    // Interleaved float32 has no float32 angle: it is exact double maths rounded at the end.
    void interleavedFloat32IsRoundedDouble() {
        SinusoidalParams p;
        p.dim = 64;
        p.layout = SinusoidalLayout::Interleaved;
        const Positions pos = mixedPositions();
        const Matrix f = sinusoidalEncoding(p, pos);
        p.precision = Precision::Double;
        const Matrix d = sinusoidalEncoding(p, pos);
        POSLAB_VERIFY_ABS(f, d, 6e-8);
    }

    // PE(p+Δ) = R(Δ)·PE(p) for every (sin, cos) pair, R(Δ) the rotation by Δ·w_i (double, 1e-9).
    void shiftIsRotation_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("freq");
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("base");
        QTest::addColumn<int>("position");
        QTest::addColumn<int>("delta");
        for (QString layout : {"interleaved", "concat"})
            for (QString freq : {"vaswani", "t2t"})
                for (int dim : {2, 7, 16, 64})
                    for (double base : {100.0, 10000.0, 1e6})
                        for (auto [pos, delta] : {std::pair{0, 1}, std::pair{5, 17}, std::pair{1000, -300},
                                                  std::pair{123456, 789}})
                            QTest::addRow("%s_%s_d%d_base%g_pos%d_delta%d", qPrintable(layout), qPrintable(freq), dim,
                                          base, pos, delta)
                                << layout << freq << dim << base << pos << delta;
    }
    void shiftIsRotation() {
        QFETCH(QString, layout);
        QFETCH(QString, freq);
        QFETCH(int, dim);
        QFETCH(double, base);
        QFETCH(int, position);
        QFETCH(int, delta);
        SinusoidalParams p;
        p.dim = dim;
        p.base = base;
        p.layout = layoutOf(layout);
        p.frequencies = freqOf(freq);
        p.precision = Precision::Double;
        QVERIFY(!p.validate());
        const Vector w = sinusoidalFrequencies(p);
        const Matrix pe = sinusoidalEncoding(p, {position, position + delta});
        const bool inter = p.layout == SinusoidalLayout::Interleaved;
        const int pairs = dim / 2;  // complete (sin, cos) pairs
        for (int i = 0; i < pairs; ++i) {
            const int cs = inter ? 2 * i : i, cc = inter ? 2 * i + 1 : pairs + i;
            const double b = delta * w[i];
            const double s0 = pe(0, cs), c0 = pe(0, cc);
            const double s1 = std::cos(b) * s0 + std::sin(b) * c0;   // sin(a + b)
            const double c1 = -std::sin(b) * s0 + std::cos(b) * c0;  // cos(a + b)
            QVERIFY2(std::abs(pe(1, cs) - s1) <= 1e-9 && std::abs(pe(1, cc) - c1) <= 1e-9,
                     qPrintable(QString("pair %1: %2 vs %3, %4 vs %5").arg(i).arg(pe(1, cs)).arg(s1).arg(pe(1, cc)).arg(c1)));
        }
    }

    // PE(p)·PE(q) depends only on p − q (even dims: every column is in a pair), and equals
    // Σ cos((p − q)·w_i).
    void dotDependsOnlyOnDistance_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("freq");
        QTest::addColumn<int>("dim");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("q");
        QTest::addColumn<int>("shift");
        for (QString layout : {"interleaved", "concat"})
            for (QString freq : {"vaswani", "t2t"})
                for (int dim : {2, 16, 64, 512})
                    for (auto [a, b, s] : {std::tuple{0, 3, 10}, std::tuple{40, 7, 1000}, std::tuple{9999, 10001, 54321}})
                        QTest::addRow("%s_%s_d%d_p%d_q%d_shift%d", qPrintable(layout), qPrintable(freq), dim, a, b, s)
                            << layout << freq << dim << a << b << s;
    }
    void dotDependsOnlyOnDistance() {
        QFETCH(QString, layout);
        QFETCH(QString, freq);
        QFETCH(int, dim);
        QFETCH(int, p);
        QFETCH(int, q);
        QFETCH(int, shift);
        SinusoidalParams sp;
        sp.dim = dim;
        sp.layout = layoutOf(layout);
        sp.frequencies = freqOf(freq);
        sp.precision = Precision::Double;
        const Matrix pe = sinusoidalEncoding(sp, {p, q, p + shift, q + shift});
        const double d0 = pe.row(0).dot(pe.row(1));
        const double d1 = pe.row(2).dot(pe.row(3));
        const Vector w = sinusoidalFrequencies(sp);
        double expected = 0;
        for (Eigen::Index i = 0; i < w.size(); ++i) expected += std::cos(double(p - q) * w[i]);
        QVERIFY2(std::abs(d0 - d1) <= 1e-9, qPrintable(QString("%1 vs %2").arg(d0, 0, 'g', 17).arg(d1, 0, 'g', 17)));
        QVERIFY2(std::abs(d0 - expected) <= 1e-9, qPrintable(QString("%1 vs %2").arg(d0).arg(expected)));
    }

    void frequencies_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("freq");
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("minTimescale");
        for (QString layout : {"interleaved", "concat"})
            for (QString freq : {"vaswani", "t2t"})
                for (int dim : {2, 3, 9, 64, 65})
                    for (double base : {10.0, 10000.0, 5e5})
                        QTest::addRow("%s_%s_d%d_base%g", qPrintable(layout), qPrintable(freq), dim, base)
                            << layout << freq << dim << base << 1.0;
        QTest::addRow("concat_t2t_d64_base1e4_min2") << "concat" << "t2t" << 64 << 1e4 << 2.0;
        QTest::addRow("interleaved_t2t_d10_base1e3_min0.1") << "interleaved" << "t2t" << 10 << 1e3 << 0.1;
    }
    // Count ceil(d/2) (interleaved) / floor(d/2) (concat); values from the header's formulas,
    // computed here in double (float32 precision is compared at 1e-6 relative).
    void frequencies() {
        QFETCH(QString, layout);
        QFETCH(QString, freq);
        QFETCH(int, dim);
        QFETCH(double, base);
        QFETCH(double, minTimescale);
        for (Precision prec : {Precision::Double, Precision::Float32}) {
            SinusoidalParams p;
            p.dim = dim;
            p.base = base;
            p.min_timescale = minTimescale;
            p.layout = layoutOf(layout);
            p.frequencies = freqOf(freq);
            p.precision = prec;
            QVERIFY(!p.validate());
            const Vector w = sinusoidalFrequencies(p);
            const int k = p.layout == SinusoidalLayout::Interleaved ? (dim + 1) / 2 : dim / 2;
            QCOMPARE(w.size(), Eigen::Index(k));
            Vector expected(k);
            for (int i = 0; i < k; ++i)
                expected[i] = p.frequencies == SinusoidalFrequencies::Vaswani
                                  ? std::pow(base, -2.0 * i / dim)
                                  : minTimescale * std::exp(-i * std::log(base / minTimescale) / std::max(k - 1, 1));
            // float32: the spec's 2e-6 relative on frequencies
            const double tol = prec == Precision::Double ? 1e-14 : 2e-6;
            QVERIFY2(testsupport::maxRelDiff(w, expected) <= tol,
                     qPrintable(QString("rel %1").arg(testsupport::maxRelDiff(w, expected))));
            // strictly decreasing; the first Vaswani frequency is exactly 1
            for (int i = 1; i < k; ++i) QVERIFY(w[i] < w[i - 1]);
            if (k > 0 && p.frequencies == SinusoidalFrequencies::Vaswani) QCOMPARE(w[0], 1.0);
        }
    }

    // Odd dims: interleaved ends with a sine column, concat with a zero column.
    void oddDims_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("freq");
        QTest::addColumn<int>("dim");
        for (QString layout : {"interleaved", "concat"})
            for (QString freq : {"vaswani", "t2t"})
                for (int dim : {1, 3, 5, 65, 129}) {
                    QTest::addRow("%s_%s_d%d", qPrintable(layout), qPrintable(freq), dim) << layout << freq << dim;
                }
    }
    void oddDims() {
        QFETCH(QString, layout);
        QFETCH(QString, freq);
        QFETCH(int, dim);
        for (Precision prec : {Precision::Double, Precision::Float32}) {
            SinusoidalParams p;
            p.dim = dim;
            p.layout = layoutOf(layout);
            p.frequencies = freqOf(freq);
            p.precision = prec;
            QVERIFY(!p.validate());
            const Positions pos = {0, 1, 2, 7, 100, 5000};
            const Matrix pe = sinusoidalEncoding(p, pos);
            QCOMPARE(pe.rows(), Eigen::Index(pos.size()));
            QCOMPARE(pe.cols(), Eigen::Index(dim));
            QVERIFY(pe.allFinite());
            const Vector w = sinusoidalFrequencies(p);
            if (dim == 1 && p.frequencies == SinusoidalFrequencies::Tensor2Tensor) {
                // tensor2tensor's one timescale (interleaved) is min_timescale; concat has none.
                QCOMPARE(w.size(), Eigen::Index(p.layout == SinusoidalLayout::Interleaved ? 1 : 0));
                if (w.size() == 1) QCOMPARE(w[0], p.min_timescale);
            }
            for (std::size_t r = 0; r < pos.size(); ++r) {
                const double last = pe(Eigen::Index(r), dim - 1);
                if (p.layout == SinusoidalLayout::Concat) {
                    QCOMPARE(last, 0.0);
                } else {
                    const double expected = std::sin(double(pos[r]) * w[w.size() - 1]);
                    QVERIFY2(std::abs(last - expected) <= 1e-6, qPrintable(QString("%1 vs %2").arg(last).arg(expected)));
                }
            }
        }
    }

    // Row 0 is [0, 1, 0, 1, …] (interleaved) / [0…0 | 1…1] (concat) in every precision.
    void positionZero_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("precision");
        for (QString layout : {"interleaved", "concat"})
            for (QString prec : {"float32", "double"})
                QTest::addRow("%s_%s", qPrintable(layout), qPrintable(prec)) << layout << prec;
    }
    void positionZero() {
        QFETCH(QString, layout);
        QFETCH(QString, precision);
        SinusoidalParams p;
        p.dim = 10;
        p.layout = layoutOf(layout);
        p.precision = precOf(precision);
        const Matrix pe = sinusoidalEncoding(p, {0});
        for (int j = 0; j < 10; ++j) {
            const bool isCos = p.layout == SinusoidalLayout::Interleaved ? (j % 2 == 1) : (j >= 5);
            QCOMPARE(pe(0, j), isCos ? 1.0 : 0.0);
        }
    }

    // Extreme but valid parameters still give finite numbers.
    void extremesAreFinite_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("freq");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("minTimescale");
        for (QString layout : {"interleaved", "concat"}) {
            QTest::addRow("%s_vaswani_base1e30", qPrintable(layout)) << layout << "vaswani" << 1e30 << 1.0;
            QTest::addRow("%s_vaswani_base1.0001", qPrintable(layout)) << layout << "vaswani" << 1.0001 << 1.0;
            QTest::addRow("%s_t2t_min1e6_base1e30", qPrintable(layout)) << layout << "t2t" << 1e30 << 1e6;
            QTest::addRow("%s_t2t_min1e-6_base1e30", qPrintable(layout)) << layout << "t2t" << 1e30 << 1e-6;
        }
    }
    void extremesAreFinite() {
        QFETCH(QString, layout);
        QFETCH(QString, freq);
        QFETCH(double, base);
        QFETCH(double, minTimescale);
        for (Precision prec : {Precision::Double, Precision::Float32}) {
            SinusoidalParams p;
            p.dim = 33;
            p.base = base;
            p.min_timescale = minTimescale;
            p.layout = layoutOf(layout);
            p.frequencies = freqOf(freq);
            p.precision = prec;
            QVERIFY(!p.validate());
            const Matrix pe = sinusoidalEncoding(p, {0, 1, kMaxPosition, std::int64_t{1} << 62});
            QVERIFY(pe.allFinite());
            QVERIFY(sinusoidalFrequencies(p).allFinite());
        }
    }

    void validation_data() {
        QTest::addColumn<QString>("freq");
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("minTimescale");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("got");
        const double nan = std::nan(""), inf = INFINITY;
        QTest::addRow("dim0") << "vaswani" << 0 << 1e4 << 1.0 << "dim" << "0";
        QTest::addRow("dim-4") << "vaswani" << -4 << 1e4 << 1.0 << "dim" << "-4";
        QTest::addRow("dim65537") << "vaswani" << 65537 << 1e4 << 1.0 << "dim" << "65537";
        QTest::addRow("t2t_dim0") << "t2t" << 0 << 1e4 << 1.0 << "dim" << "0";
        QTest::addRow("base1") << "vaswani" << 64 << 1.0 << 1.0 << "base" << "1";
        QTest::addRow("base0.5") << "vaswani" << 64 << 0.5 << 1.0 << "base" << "0.5";
        QTest::addRow("base_nan") << "vaswani" << 64 << nan << 1.0 << "base" << "nan";
        QTest::addRow("base_inf") << "vaswani" << 64 << inf << 1.0 << "base" << "inf";
        QTest::addRow("base1e31") << "vaswani" << 64 << 1e31 << 1.0 << "base" << "1e+31";
        QTest::addRow("t2t_min0") << "t2t" << 64 << 1e4 << 0.0 << "min_timescale" << "0";
        QTest::addRow("t2t_min-1") << "t2t" << 64 << 1e4 << -1.0 << "min_timescale" << "-1";
        QTest::addRow("t2t_min_eq_base") << "t2t" << 64 << 1e4 << 1e4 << "min_timescale" << "10000";
        QTest::addRow("t2t_min2e6") << "t2t" << 64 << 1e10 << 2e6 << "min_timescale" << "2e+06";
        QTest::addRow("vaswani_min_nan") << "vaswani" << 64 << 1e4 << nan << "min_timescale" << "nan";
    }
    void validation() {
        QFETCH(QString, freq);
        QFETCH(int, dim);
        QFETCH(double, base);
        QFETCH(double, minTimescale);
        QFETCH(QString, field);
        QFETCH(QString, got);
        SinusoidalParams p;
        p.dim = dim;
        p.base = base;
        p.min_timescale = minTimescale;
        p.frequencies = freqOf(freq);
        const Check c = p.validate();
        QVERIFY(c.has_value());
        QCOMPARE(QString::fromStdString(c->parameter), field);
        QCOMPARE(QString::fromStdString(c->got), got);
        QVERIFY(!c->valid.empty());
        QVERIFY(QString::fromStdString(c->message()).startsWith(field + ": "));
    }

    void validAccepted_data() {
        QTest::addColumn<QString>("freq");
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("base");
        QTest::addColumn<double>("minTimescale");
        QTest::addRow("defaults") << "vaswani" << 64 << 1e4 << 1.0;
        QTest::addRow("vaswani_dim1") << "vaswani" << 1 << 1e4 << 1.0;
        QTest::addRow("vaswani_dim65536") << "vaswani" << 65536 << 1e4 << 1.0;
        QTest::addRow("vaswani_min_ignored5") << "vaswani" << 64 << 2.0 << 5.0;
        QTest::addRow("t2t_dim1") << "t2t" << 1 << 1e4 << 1.0;
        QTest::addRow("t2t_dim2") << "t2t" << 2 << 1e4 << 1.0;
        QTest::addRow("t2t_min_just_below_base") << "t2t" << 8 << 10.0 << 9.99;
    }
    void validAccepted() {
        QFETCH(QString, freq);
        QFETCH(int, dim);
        QFETCH(double, base);
        QFETCH(double, minTimescale);
        SinusoidalParams p;
        p.dim = dim;
        p.base = base;
        p.min_timescale = minTimescale;
        p.frequencies = freqOf(freq);
        const Check c = p.validate();
        QVERIFY2(!c.has_value(), c ? c->message().c_str() : "");
    }
};

QTEST_APPLESS_MAIN(TestSinusoidal)
#include "test_sinusoidal.moc"
