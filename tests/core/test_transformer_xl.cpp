// Transformer-XL relative encoding (kimiyoung/transformer-xl pytorch/mem_transformer.py):
// distances, the float32 relative sinusoid, seeded u/v/W_R, and the four score terms checked
// against a transcription of RelPartialLearnableMultiHeadAttn (AC + _rel_shift(BD)).
#include <QtTest>

#include <cmath>

#include "core/random.h"
#include "core/sinusoidal.h"
#include "core/transformer_xl.h"
#include "support/testsupport.h"

using namespace poslab;

namespace {
// PositionalEmbedding(demb): inv_freq = 1 / (10000 ** (torch.arange(0.0, demb, 2.0) / demb));
// pos_emb = cat([sin(ger(pos_seq, inv_freq)), cos(...)]), all float32.
Matrix referencePosEmb(int dim, const std::vector<std::int64_t>& distances) {
    const int half = dim / 2;
    Matrix m(Eigen::Index(distances.size()), dim);
    for (int i = 0; i < half; ++i) {
        const float e = float(2 * i) / float(dim);
        const float inv = 1.0f / float(std::pow(10000.0, double(e)));  // correctly rounded powf
        for (std::size_t r = 0; r < distances.size(); ++r) {
            const float a = float(distances[r]) * inv;
            m(Eigen::Index(r), i) = std::sin(a);
            m(Eigen::Index(r), half + i) = std::cos(a);
        }
    }
    return m;
}

// Content rows with the golden inputs' formula x.flat[n] = sin(a + b·n).
Matrix formulaRows(Eigen::Index rows, int dim, double a, double b) {
    Matrix m(rows, dim);
    for (Eigen::Index n = 0; n < m.size(); ++n) m.data()[n] = std::sin(a + b * double(n));
    return m;
}
}  // namespace

class TestTransformerXL : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void distances_data() {
        QTest::addColumn<qint64>("klen");
        QTest::addColumn<qint64>("clamp");
        QTest::addColumn<QList<qint64>>("expected");
        QTest::addRow("k5_clamp0") << qint64(5) << qint64(0) << QList<qint64>{4, 3, 2, 1, 0};
        QTest::addRow("k5_clamp2") << qint64(5) << qint64(2) << QList<qint64>{2, 2, 2, 1, 0};
        QTest::addRow("k1_clamp0") << qint64(1) << qint64(0) << QList<qint64>{0};
        QTest::addRow("k4_clamp10") << qint64(4) << qint64(10) << QList<qint64>{3, 2, 1, 0};
        QTest::addRow("k3_clamp1") << qint64(3) << qint64(1) << QList<qint64>{1, 1, 0};
        QTest::addRow("k0") << qint64(0) << qint64(0) << QList<qint64>{};
    }
    void distances() {
        QFETCH(qint64, klen);
        QFETCH(qint64, clamp);
        QFETCH(QList<qint64>, expected);
        const auto d = transformerXLDistances(klen, clamp);
        QCOMPARE(QList<qint64>(d.begin(), d.end()), expected);
    }

    void posEmbMatchesReference_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<qint64>("klen");
        QTest::addColumn<qint64>("clamp");
        QTest::addRow("d16_k64") << 16 << qint64(64) << qint64(0);
        QTest::addRow("d64_k200_clamp100") << 64 << qint64(200) << qint64(100);
        QTest::addRow("d2_k10") << 2 << qint64(10) << qint64(0);
        QTest::addRow("d410_k1600") << 410 << qint64(1600) << qint64(0);
        QTest::addRow("d512_k4096") << 512 << qint64(4096) << qint64(0);
    }
    void posEmbMatchesReference() {
        QFETCH(int, dim);
        QFETCH(qint64, klen);
        QFETCH(qint64, clamp);
        const auto d = transformerXLDistances(klen, clamp);
        const Matrix got = transformerXLPosEmb(dim, d);
        POSLAB_VERIFY_ABS(got, referencePosEmb(dim, d), 5e-6);
        // the same table as the concat / Vaswani / float32 sinusoidal encoding
        SinusoidalParams sp;
        sp.dim = dim;
        sp.layout = SinusoidalLayout::Concat;
        sp.precision = Precision::Float32;
        POSLAB_VERIFY_ABS(got, sinusoidalEncoding(sp, d), 0.0);
    }

    void weights_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<quint64>("seed");
        QTest::addRow("d64_seed0") << 64 << quint64(0);
        QTest::addRow("d2_seed9") << 2 << quint64(9);
        QTest::addRow("d128_seed1") << 128 << quint64(1);
    }
    void weights() {
        QFETCH(int, dim);
        QFETCH(quint64, seed);
        const TransformerXLParams p{dim, 0, seed};
        const auto w = transformerXLWeights(p);
        QCOMPARE(w.u.size(), Eigen::Index(dim));
        QCOMPARE(w.v.size(), Eigen::Index(dim));
        QCOMPARE(w.w_r.rows(), Eigen::Index(dim));
        QCOMPARE(w.w_r.cols(), Eigen::Index(dim));
        POSLAB_VERIFY_ABS(Matrix(w.u), Matrix(seededNormal(dim, 1, seed, 4, 1.0)), 0.0);
        POSLAB_VERIFY_ABS(Matrix(w.v), Matrix(seededNormal(dim, 1, seed, 5, 1.0)), 0.0);
        POSLAB_VERIFY_ABS(w.w_r, seededNormal(dim, dim, seed, 6, 1.0 / std::sqrt(double(dim))), 0.0);
        QVERIFY((w.u - w.v).cwiseAbs().minCoeff() > 0);
        const auto again = transformerXLWeights(p);
        QVERIFY(again.w_r == w.w_r && again.u == w.u && again.v == w.v);
    }

    // RelPartialLearnableMultiHeadAttn for one head and batch 1, with memory of length mlen:
    //   AC = (q + r_w_bias)·k;  BD = _rel_shift((q + r_r_bias)·r_net(r));  r = pos_emb(klen−1 … 0)
    // After the shift, BD[i][j] for j <= i + mlen is the score for distance (i + mlen) − j.
    // The terms for query positions mlen + i and key positions j must reproduce AC and BD there.
    void termsMatchRelShift_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<int>("qlen");
        QTest::addColumn<int>("mlen");
        QTest::addColumn<qint64>("clamp");
        QTest::addRow("d16_q6_m0") << 16 << 6 << 0 << qint64(0);
        QTest::addRow("d8_q4_m3") << 8 << 4 << 3 << qint64(0);
        QTest::addRow("d32_q10_m10_clamp5") << 32 << 10 << 10 << qint64(5);
        QTest::addRow("d4_q1_m7") << 4 << 1 << 7 << qint64(0);
        QTest::addRow("d64_q12_m20_clamp100") << 64 << 12 << 20 << qint64(100);
    }
    void termsMatchRelShift() {
        QFETCH(int, dim);
        QFETCH(int, qlen);
        QFETCH(int, mlen);
        QFETCH(qint64, clamp);
        const int klen = qlen + mlen;
        const TransformerXLParams p{dim, clamp, 42};
        QVERIFY(!p.validate());
        const auto w = transformerXLWeights(p);
        const Matrix q = formulaRows(qlen, dim, 0.5, 0.7);
        const Matrix k = formulaRows(klen, dim, 0.3, 1.1);

        // --- transcription of the reference ---
        const Matrix r = transformerXLPosEmb(dim, transformerXLDistances(klen, clamp));  // klen × dim
        const Matrix rHeadK = r * w.w_r.transpose();                                      // r_net(r)
        Matrix ac(qlen, klen), bd(qlen, klen);
        for (int i = 0; i < qlen; ++i)
            for (int j = 0; j < klen; ++j) {
                ac(i, j) = (q.row(i) + w.u.transpose()).dot(k.row(j));
                bd(i, j) = (q.row(i) + w.v.transpose()).dot(rHeadK.row(j));
            }
        // _rel_shift: pad a zero column on the left, view as (klen+1) × qlen, drop the first
        // row, view back as qlen × klen (row-major flat buffers, as torch's view).
        std::vector<double> padded;
        for (int i = 0; i < qlen; ++i) {
            padded.push_back(0.0);
            for (int j = 0; j < klen; ++j) padded.push_back(bd(i, j));
        }
        Matrix shifted(qlen, klen);
        for (int n = 0; n < qlen * klen; ++n) shifted.data()[n] = padded[std::size_t(qlen + n)];

        // --- the product's terms at explicit positions ---
        const Positions queries = arangePositions(mlen, mlen + qlen);
        const Positions keys = arangePositions(0, klen);
        const auto t = transformerXLTerms(p, queries, keys, q, k);
        QCOMPARE(t.a.rows(), Eigen::Index(qlen));
        QCOMPARE(t.a.cols(), Eigen::Index(klen));
        const Matrix sumAC = t.a + t.c, sumBD = t.b + t.d;
        for (int i = 0; i < qlen; ++i)
            for (int j = 0; j <= i + mlen; ++j) {
                QVERIFY2(std::abs(sumAC(i, j) - ac(i, j)) <= 1e-12 * (1 + std::abs(ac(i, j))),
                         qPrintable(QString("AC %1,%2").arg(i).arg(j)));
                QVERIFY2(std::abs(sumBD(i, j) - shifted(i, j)) <= 1e-12 * (1 + std::abs(shifted(i, j))),
                         qPrintable(QString("BD %1,%2: %3 vs %4").arg(i).arg(j).arg(sumBD(i, j)).arg(shifted(i, j))));
            }
    }

    // The four terms one by one, from their definitions.
    void termsByDefinition() {
        const TransformerXLParams p{8, 3, 7};
        const auto w = transformerXLWeights(p);
        const Positions queries = {5, 9, 100}, keys = {0, 5, 7, 9, 150};
        const Matrix q = formulaRows(3, 8, 0.5, 0.7), k = formulaRows(5, 8, 0.3, 1.1);
        const auto t = transformerXLTerms(p, queries, keys, q, k);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 5; ++j) {
                const std::int64_t d = std::min<std::int64_t>(queries[std::size_t(i)] - keys[std::size_t(j)], 3);
                const Vector wr = w.w_r * transformerXLPosEmb(8, {d}).row(0).transpose();
                QVERIFY(std::abs(t.a(i, j) - q.row(i).dot(k.row(j))) <= 1e-12);
                QVERIFY(std::abs(t.b(i, j) - q.row(i).dot(wr)) <= 1e-12);
                QVERIFY(std::abs(t.c(i, j) - w.u.dot(k.row(j))) <= 1e-12);
                QVERIFY(std::abs(t.d(i, j) - w.v.dot(wr)) <= 1e-12);
            }
        // clamp: distances 95 and 100 (both >= 3) share b and d
        QCOMPARE(t.d(2, 0), t.d(2, 1));
    }

    // Position terms depend on the distance only: shifting every position keeps b and d.
    void shiftInvariance() {
        const TransformerXLParams p{16, 0, 3};
        const Matrix q = formulaRows(4, 16, 0.5, 0.7), k = formulaRows(6, 16, 0.3, 1.1);
        const Positions qs = {3, 4, 8, 10}, ks = {0, 1, 2, 3, 9, 10};
        Positions qs2 = qs, ks2 = ks;
        for (auto& x : qs2) x += 5000;
        for (auto& x : ks2) x += 5000;
        const auto t1 = transformerXLTerms(p, qs, ks, q, k);
        const auto t2 = transformerXLTerms(p, qs2, ks2, q, k);
        POSLAB_VERIFY_ABS(t1.b, t2.b, 0.0);
        POSLAB_VERIFY_ABS(t1.d, t2.d, 0.0);
        POSLAB_VERIFY_ABS(t1.a, t2.a, 0.0);
    }

    void mismatchedShapesGiveEmpty() {
        const TransformerXLParams p{8, 0, 0};
        const auto t = transformerXLTerms(p, {0, 1}, {0, 1}, Matrix::Zero(3, 8), Matrix::Zero(2, 8));
        QCOMPARE(t.a.size(), Eigen::Index(0));
        QCOMPARE(t.d.size(), Eigen::Index(0));
    }

    void validation_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<qint64>("clamp");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("got");
        QTest::addRow("dim0") << 0 << qint64(0) << "dim" << "0";
        QTest::addRow("dim7_odd") << 7 << qint64(0) << "dim" << "7";
        QTest::addRow("dim4098") << 4098 << qint64(0) << "dim" << "4098";
        QTest::addRow("clamp-1") << 64 << qint64(-1) << "clamp_len" << "-1";
        QTest::addRow("clamp_past_max") << 64 << qint64(kMaxPosition + 1) << "clamp_len" << "1099511627777";
    }
    void validation() {
        QFETCH(int, dim);
        QFETCH(qint64, clamp);
        QFETCH(QString, field);
        QFETCH(QString, got);
        const Check c = TransformerXLParams{dim, clamp, 0}.validate();
        QVERIFY(c.has_value());
        QCOMPARE(QString::fromStdString(c->parameter), field);
        QCOMPARE(QString::fromStdString(c->got), got);
        QVERIFY(!c->valid.empty());
    }

    void keyLengthValidation_data() {
        QTest::addColumn<qint64>("klen");
        QTest::addColumn<int>("dim");
        QTest::addColumn<bool>("valid");
        QTest::addRow("k64_d64") << qint64(64) << 64 << true;
        QTest::addRow("k1000000_d64") << qint64(1'000'000) << 64 << true;
        QTest::addRow("k1000001_d2") << qint64(1'000'001) << 2 << false;
        QTest::addRow("k16385_d4096") << qint64(16385) << 4096 << false;
        QTest::addRow("k0_d64") << qint64(0) << 64 << false;
    }
    void keyLengthValidation() {
        QFETCH(qint64, klen);
        QFETCH(int, dim);
        QFETCH(bool, valid);
        const Check c = transformerXLValidateKeyLength(klen, dim);
        QCOMPARE(!c.has_value(), valid);
        if (c) QCOMPARE(QString::fromStdString(c->parameter), QString("key_length"));
    }

    void validAccepted() {
        for (auto [dim, clamp] : {std::pair{2, qint64(0)}, std::pair{64, qint64(1)}, std::pair{4096, qint64(kMaxPosition)}}) {
            const Check c = TransformerXLParams{dim, clamp, 0}.validate();
            QVERIFY2(!c, c ? c->message().c_str() : "");
        }
    }
};

QTEST_APPLESS_MAIN(TestTransformerXL)
#include "test_transformer_xl.moc"
