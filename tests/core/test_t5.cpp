// T5 relative position buckets (transformers T5Attention._relative_position_bucket / compute_bias):
// golden ids, an independent float32 transcription over many settings, monotonicity and
// saturation, bucket matrices with past, the per-head bias and validation.
#include <QtTest>

#include <cmath>

#include "core/random.h"
#include "core/t5.h"
#include "support/testsupport.h"

using namespace poslab;

namespace {
// transformers, transcribed op by op (float32 tensor maths through the float overloads of <cmath>):
//   relative_buckets = 0
//   if bidirectional: num_buckets //= 2; relative_buckets += (rel > 0) * num_buckets; rel = |rel|
//   else: rel = -min(rel, 0)
//   max_exact = num_buckets // 2; is_small = rel < max_exact
//   if_large = max_exact + (log(rel.float() / max_exact) / math.log(max_distance / max_exact)
//                           * (num_buckets - max_exact)).to(long)
//   if_large = min(if_large, num_buckets - 1)
std::int64_t referenceBucket(std::int64_t rel, bool bidirectional, std::int64_t numBuckets, std::int64_t maxDistance) {
    std::int64_t buckets = 0;
    std::int64_t nb = numBuckets;
    if (bidirectional) {
        nb /= 2;
        buckets += (rel > 0 ? 1 : 0) * nb;
        rel = rel < 0 ? -rel : rel;
    } else {
        rel = -std::min<std::int64_t>(rel, 0);
    }
    const std::int64_t maxExact = nb / 2;
    if (rel < maxExact) return buckets + rel;
    const float divisor = float(std::log(double(maxDistance) / double(maxExact)));  // Python double → f32
    const float v = std::log(float(rel) / float(maxExact)) / divisor * float(nb - maxExact);
    const std::int64_t large = maxExact + std::int64_t(v);
    return buckets + std::min(large, nb - 1);
}
}  // namespace

class TestT5 : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void golden() {
        const auto cases = testsupport::golden("t5_relative_position_bucket.json").value("cases").toArray();
        QVERIFY(!cases.isEmpty());
        for (const auto& cv : cases) {
            const auto c = cv.toObject();
            const auto params = c.value("params").toObject();
            T5Params p;
            p.bidirectional = params.value("bidirectional").toBool();
            p.num_buckets = params.value("num_buckets").toInt();
            p.max_distance = params.value("max_distance").toInt();
            QVERIFY(!p.validate());
            // relative_position = arange(-300, 301): output[i] is for i − 300
            QVERIFY(params.value("relative_position").toString().startsWith("arange(-300, 301)"));
            const auto out = c.value("output").toArray();
            QCOMPARE(out.size(), 601);
            std::vector<std::int64_t> rel;
            for (int i = 0; i < 601; ++i) rel.push_back(i - 300);
            const auto got = t5Buckets(rel, p);
            for (int i = 0; i < 601; ++i) {
                QVERIFY2(got[std::size_t(i)] == out[i].toInteger(),
                         qPrintable(QString("rel %1: %2 vs %3").arg(i - 300).arg(got[std::size_t(i)]).arg(out[i].toInteger())));
                QCOMPARE(t5Bucket(i - 300, p), got[std::size_t(i)]);
            }
        }
    }

    // Worked by hand from the formula (nb = 32, max_distance = 128).
    void handDerived_data() {
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<qint64>("rel");
        QTest::addColumn<qint64>("bucket");
        // bidirectional: nb 16, max_exact 8; log(n/8)/log(16)·8
        QTest::addRow("bi_rel0") << true << qint64(0) << qint64(0);
        QTest::addRow("bi_rel1") << true << qint64(1) << qint64(17);
        QTest::addRow("bi_rel-1") << true << qint64(-1) << qint64(1);
        QTest::addRow("bi_rel-7") << true << qint64(-7) << qint64(7);
        QTest::addRow("bi_rel8") << true << qint64(8) << qint64(24);
        QTest::addRow("bi_rel-16") << true << qint64(-16) << qint64(10);   // 8 + log2/log16·8 = 8 + 2
        QTest::addRow("bi_rel32") << true << qint64(32) << qint64(28);     // 16 + 8 + 4
        QTest::addRow("bi_rel-127") << true << qint64(-127) << qint64(15);
        QTest::addRow("bi_rel128") << true << qint64(128) << qint64(31);
        QTest::addRow("bi_rel-100000") << true << qint64(-100000) << qint64(15);
        // causal: nb 32, max_exact 16; log(n/16)/log(8)·16; future keys → 0
        QTest::addRow("causal_rel5") << false << qint64(5) << qint64(0);
        QTest::addRow("causal_rel0") << false << qint64(0) << qint64(0);
        QTest::addRow("causal_rel-5") << false << qint64(-5) << qint64(5);
        QTest::addRow("causal_rel-15") << false << qint64(-15) << qint64(15);
        QTest::addRow("causal_rel-16") << false << qint64(-16) << qint64(16);
        QTest::addRow("causal_rel-32") << false << qint64(-32) << qint64(21);   // 16 + ⌊16/3⌋
        QTest::addRow("causal_rel-64") << false << qint64(-64) << qint64(26);   // 16 + ⌊32/3⌋
        QTest::addRow("causal_rel-1000") << false << qint64(-1000) << qint64(31);
    }
    void handDerived() {
        QFETCH(bool, bidirectional);
        QFETCH(qint64, rel);
        QFETCH(qint64, bucket);
        T5Params p;
        p.bidirectional = bidirectional;
        QCOMPARE(qint64(t5Bucket(rel, p)), bucket);
    }

    // The op-by-op float32 transcription, over many settings and every offset up to past the saturation.
    void matchesTransformers_data() {
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<int>("numBuckets");
        QTest::addColumn<int>("maxDistance");
        for (bool bi : {true, false})
            for (int nb : {4, 8, 16, 32, 64, 128, 320})
                for (int md : {20, 128, 256, 1000, 4096}) {
                    const int maxExact = (bi ? nb / 2 : nb) / 2;
                    if (md <= maxExact) continue;
                    QTest::addRow("%s_nb%d_md%d", bi ? "bi" : "causal", nb, md) << bi << nb << md;
                }
    }
    void matchesTransformers() {
        QFETCH(bool, bidirectional);
        QFETCH(int, numBuckets);
        QFETCH(int, maxDistance);
        T5Params p;
        p.bidirectional = bidirectional;
        p.num_buckets = numBuckets;
        p.max_distance = maxDistance;
        QVERIFY(!p.validate());
        std::vector<std::int64_t> rel;
        for (std::int64_t r = -2 * maxDistance - 10; r <= 2 * maxDistance + 10; ++r) rel.push_back(r);
        for (std::int64_t r : {std::int64_t{1} << 20, std::int64_t{1} << 40, -(std::int64_t{1} << 40), INT64_MAX / 2})
            rel.push_back(r);
        const auto got = t5Buckets(rel, p);
        for (std::size_t i = 0; i < rel.size(); ++i) {
            const auto expected = referenceBucket(rel[i], bidirectional, numBuckets, maxDistance);
            QVERIFY2(got[i] == expected, qPrintable(QString("rel %1: %2 vs %3").arg(rel[i]).arg(got[i]).arg(expected)));
        }
    }

    // Monotone in |rel| within each direction, exact below max_exact, saturating at max_distance,
    // all ids in [0, num_buckets), and the directions use disjoint halves (bidirectional).
    void monotoneAndSaturating_data() {
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<int>("numBuckets");
        QTest::addColumn<int>("maxDistance");
        for (bool bi : {true, false})
            for (int nb : {2, 4, 6, 10, 32, 33, 100, 1024})
                for (int md : {3, 9, 64, 128, 777, 100000}) {
                    if (bi && (nb % 2 != 0 || nb < 4)) continue;
                    const int maxExact = (bi ? nb / 2 : nb) / 2;
                    if (md <= maxExact) continue;
                    QTest::addRow("%s_nb%d_md%d", bi ? "bi" : "causal", nb, md) << bi << nb << md;
                }
    }
    void monotoneAndSaturating() {
        QFETCH(bool, bidirectional);
        QFETCH(int, numBuckets);
        QFETCH(int, maxDistance);
        T5Params p;
        p.bidirectional = bidirectional;
        p.num_buckets = numBuckets;
        p.max_distance = maxDistance;
        QVERIFY2(!p.validate(), p.validate() ? p.validate()->message().c_str() : "");
        const std::int64_t nb = bidirectional ? numBuckets / 2 : numBuckets;
        const std::int64_t maxExact = nb / 2;
        const std::int64_t limit = std::min<std::int64_t>(2 * maxDistance + 5, 300000);
        std::int64_t prevBefore = -1, prevAfter = -1;
        for (std::int64_t n = 0; n <= limit; ++n) {
            const std::int64_t before = t5Bucket(-n, p);  // key before the query
            QVERIFY(before >= 0 && before < nb);
            QVERIFY2(before >= prevBefore, qPrintable(QString("n %1: %2 < %3").arg(n).arg(before).arg(prevBefore)));
            prevBefore = before;
            if (n < maxExact) QCOMPARE(before, n);
            if (n >= maxDistance) QCOMPARE(before, nb - 1);
            if (n >= maxExact) QVERIFY(before >= maxExact);
            const std::int64_t after = t5Bucket(n, p);    // key after the query
            if (bidirectional) {
                if (n == 0) {
                    QCOMPARE(after, std::int64_t(0));
                } else {
                    QCOMPARE(after, before + nb);  // same magnitude bucket, upper half
                    QVERIFY(after >= prevAfter);
                    prevAfter = after;
                }
            } else {
                QCOMPARE(after, std::int64_t(0));
            }
        }
        // the farthest offsets representable saturate without overflow
        QCOMPARE(t5Bucket(INT64_MIN, p), nb - 1);
        QCOMPARE(t5Bucket(INT64_MAX, p), bidirectional ? 2 * nb - 1 : 0);
    }

    // compute_bias: context_position = arange(Q)[:, None] + past, memory_position = arange(K).
    void bucketMatrixWithPast_data() {
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<int>("q");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("past");
        QTest::addRow("bi_q5_k5_past0") << true << 5 << 5 << 0;
        QTest::addRow("causal_q1_k40_past39") << false << 1 << 40 << 39;
        QTest::addRow("causal_q3_k300_past297") << false << 3 << 300 << 297;
        QTest::addRow("bi_q7_k20_past13") << true << 7 << 20 << 13;
    }
    void bucketMatrixWithPast() {
        QFETCH(bool, bidirectional);
        QFETCH(int, q);
        QFETCH(int, k);
        QFETCH(int, past);
        T5Params p;
        p.bidirectional = bidirectional;
        const IntMatrix m = t5BucketMatrix(q, k, past, p);
        QCOMPARE(m.rows(), Eigen::Index(q));
        QCOMPARE(m.cols(), Eigen::Index(k));
        for (int i = 0; i < q; ++i)
            for (int j = 0; j < k; ++j)
                QCOMPARE(m(i, j), referenceBucket(j - (past + i), bidirectional, p.num_buckets, p.max_distance));
        // with a cache, the last query row equals the last row of the full matrix
        if (past + q == k) {
            const IntMatrix full = t5BucketMatrix(k, k, 0, p);
            QVERIFY(m == full.bottomRows(q));
        }
    }

    void biasTable_data() {
        QTest::addColumn<int>("numBuckets");
        QTest::addColumn<int>("heads");
        QTest::addColumn<quint64>("seed");
        QTest::addRow("nb32_h8_seed0") << 32 << 8 << quint64(0);
        QTest::addRow("nb4_h1_seed5") << 4 << 1 << quint64(5);
        QTest::addRow("nb1024_h256_seed1") << 1024 << 256 << quint64(1);
    }
    void biasTable() {
        QFETCH(int, numBuckets);
        QFETCH(int, heads);
        QFETCH(quint64, seed);
        T5Params p;
        p.num_buckets = numBuckets;
        p.heads = heads;
        p.seed = seed;
        p.max_distance = std::max(128, numBuckets);
        QVERIFY(!p.validate());
        const Matrix t = t5BiasTable(p);
        QCOMPARE(t.rows(), Eigen::Index(numBuckets));
        QCOMPARE(t.cols(), Eigen::Index(heads));
        POSLAB_VERIFY_ABS(t, seededNormal(numBuckets, heads, seed, 3, 1.0), 0.0);
        // bias[h][i][j] = table[bucket(j − i)][h] for explicit positions
        const Positions qs = {0, 5, 100, 1000}, ks = {0, 3, 5, 99, 2000};
        for (int h : {0, heads - 1}) {
            const Matrix b = t5Bias(p, h, qs, ks);
            QCOMPARE(b.rows(), Eigen::Index(qs.size()));
            QCOMPARE(b.cols(), Eigen::Index(ks.size()));
            for (std::size_t i = 0; i < qs.size(); ++i)
                for (std::size_t j = 0; j < ks.size(); ++j)
                    QCOMPARE(b(Eigen::Index(i), Eigen::Index(j)), t(t5Bucket(ks[j] - qs[i], p), h));
        }
    }

    void validation_data() {
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<int>("numBuckets");
        QTest::addColumn<qint64>("maxDistance");
        QTest::addColumn<int>("heads");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("got");
        QTest::addRow("bi_nb33_odd") << true << 33 << qint64(128) << 8 << "num_buckets" << "33";
        QTest::addRow("bi_nb2") << true << 2 << qint64(128) << 8 << "num_buckets" << "2";
        QTest::addRow("causal_nb1") << false << 1 << qint64(128) << 8 << "num_buckets" << "1";
        QTest::addRow("causal_nb1025") << false << 1025 << qint64(128) << 8 << "num_buckets" << "1025";
        QTest::addRow("bi_nb32_md8_eq_max_exact") << true << 32 << qint64(8) << 8 << "max_distance" << "8";
        QTest::addRow("causal_nb32_md16_eq_max_exact") << false << 32 << qint64(16) << 8 << "max_distance" << "16";
        QTest::addRow("md0") << true << 32 << qint64(0) << 8 << "max_distance" << "0";
        QTest::addRow("md2e9") << true << 32 << qint64(2'000'000'000) << 8 << "max_distance" << "2000000000";
        QTest::addRow("heads0") << true << 32 << qint64(128) << 0 << "heads" << "0";
        QTest::addRow("heads257") << true << 32 << qint64(128) << 257 << "heads" << "257";
    }
    void validation() {
        QFETCH(bool, bidirectional);
        QFETCH(int, numBuckets);
        QFETCH(qint64, maxDistance);
        QFETCH(int, heads);
        QFETCH(QString, field);
        QFETCH(QString, got);
        T5Params p;
        p.bidirectional = bidirectional;
        p.num_buckets = numBuckets;
        p.max_distance = maxDistance;
        p.heads = heads;
        const Check c = p.validate();
        QVERIFY(c.has_value());
        QCOMPARE(QString::fromStdString(c->parameter), field);
        QCOMPARE(QString::fromStdString(c->got), got);
        QVERIFY(!c->valid.empty());
    }

    void matrixSizeValidation_data() {
        QTest::addColumn<qint64>("q");
        QTest::addColumn<qint64>("k");
        QTest::addColumn<qint64>("past");
        QTest::addColumn<QString>("field");  // empty: valid
        QTest::addRow("q4_k4_past0") << qint64(4) << qint64(4) << qint64(0) << "";
        QTest::addRow("q1_k1000000_past999999") << qint64(1) << qint64(1'000'000) << qint64(999'999) << "";
        QTest::addRow("q0") << qint64(0) << qint64(4) << qint64(0) << "query_length";
        QTest::addRow("k0") << qint64(4) << qint64(0) << qint64(0) << "key_length";
        QTest::addRow("q10000_k10000_too_many") << qint64(10000) << qint64(10000) << qint64(0) << "key_length";
        QTest::addRow("past-1") << qint64(4) << qint64(4) << qint64(-1) << "past";
    }
    void matrixSizeValidation() {
        QFETCH(qint64, q);
        QFETCH(qint64, k);
        QFETCH(qint64, past);
        QFETCH(QString, field);
        const Check c = t5ValidateMatrix(q, k, past);
        if (field.isEmpty()) {
            QVERIFY2(!c, c ? c->message().c_str() : "");
        } else {
            QVERIFY(c.has_value());
            QCOMPARE(QString::fromStdString(c->parameter), field);
        }
    }

    void validAccepted_data() {
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<int>("numBuckets");
        QTest::addColumn<qint64>("maxDistance");
        QTest::addRow("defaults") << true << 32 << qint64(128);
        QTest::addRow("causal_nb2_md2") << false << 2 << qint64(2);
        QTest::addRow("causal_nb33") << false << 33 << qint64(128);
        QTest::addRow("bi_nb4_md2") << true << 4 << qint64(2);
        QTest::addRow("bi_nb1024_md1e9") << true << 1024 << qint64(1'000'000'000);
    }
    void validAccepted() {
        QFETCH(bool, bidirectional);
        QFETCH(int, numBuckets);
        QFETCH(qint64, maxDistance);
        T5Params p;
        p.bidirectional = bidirectional;
        p.num_buckets = numBuckets;
        p.max_distance = maxDistance;
        const Check c = p.validate();
        QVERIFY2(!c, c ? c->message().c_str() : "");
    }
};

QTEST_APPLESS_MAIN(TestT5)
#include "test_t5.moc"
