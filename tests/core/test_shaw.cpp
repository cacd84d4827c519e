// Shaw et al. relative position indices (tensor2tensor's _generate_relative_positions_matrix),
// explicit-position indices, seeded tables and validation.
#include <QtTest>

#include <cmath>

#include "core/random.h"
#include "core/shaw.h"
#include "support/testsupport.h"

using namespace poslab;

namespace {
// tensor2tensor, transcribed: range_vec_k = range(length_k); range_vec_q = range_vec_k[-length_q:]
// (or the same range when equal); distance = k[None, :] − q[:, None]; cache: one row
// range(−length_k+1, 1); clip to ±max and shift by +max.
IntMatrix referenceIndex(std::int64_t lq, std::int64_t lk, std::int64_t maxRel, bool cache) {
    std::vector<std::int64_t> rk, rq;
    for (std::int64_t j = 0; j < lk; ++j) rk.push_back(j);
    std::vector<std::vector<std::int64_t>> dist;
    if (!cache) {
        if (lq == lk) {
            rq = rk;
        } else {
            const std::int64_t start = std::max<std::int64_t>(lk - lq, 0);  // python slicing [-lq:]
            rq.assign(rk.begin() + start, rk.end());
        }
        for (auto q : rq) {
            std::vector<std::int64_t> row;
            for (auto k : rk) row.push_back(k - q);
            dist.push_back(row);
        }
    } else {
        std::vector<std::int64_t> row;
        for (std::int64_t d = -lk + 1; d < 1; ++d) row.push_back(d);
        dist.push_back(row);
    }
    IntMatrix m(Eigen::Index(dist.size()), lk);
    for (std::size_t i = 0; i < dist.size(); ++i)
        for (std::int64_t j = 0; j < lk; ++j)
            m(Eigen::Index(i), j) = std::min(std::max(dist[i][std::size_t(j)], -maxRel), maxRel) + maxRel;
    return m;
}

QString describe(const IntMatrix& m) {
    QStringList rows;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        QStringList r;
        for (Eigen::Index j = 0; j < m.cols(); ++j) r << QString::number(m(i, j));
        rows << "[" + r.join(",") + "]";
    }
    return rows.join(" ");
}
}  // namespace

class TestShaw : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void golden() {
        const auto cases = testsupport::golden("shaw_relative_positions_tensor2tensor.json").value("cases").toArray();
        QVERIFY(!cases.isEmpty());
        for (const auto& cv : cases) {
            const auto c = cv.toObject();
            const auto params = c.value("params").toObject();
            const IntMatrix got = shawIndex(params.value("length_q").toInt(), params.value("length_k").toInt(),
                                            params.value("max_relative_position").toInt(),
                                            params.value("cache").toBool());
            const Matrix expected = testsupport::toMatrix(c.value("output"));
            QVERIFY2(got.rows() == expected.rows() && got.cols() == expected.cols(),
                     qPrintable(c.value("name").toString()));
            QVERIFY2(got.cast<double>() == expected, qPrintable(c.value("name").toString() + ": " + describe(got)));
        }
    }

    // Hand-derived: Q=2 of K=5 (queries at 3, 4), k=1; cache row for K=4, k=2.
    void handDerived() {
        IntMatrix a(2, 5);
        a << 0, 0, 0, 1, 2,   // query 3: distances −3 −2 −1 0 1
             0, 0, 0, 0, 1;   // query 4: distances −4 −3 −2 −1 0
        QVERIFY2(shawIndex(2, 5, 1) == a, qPrintable(describe(shawIndex(2, 5, 1))));
        IntMatrix b(1, 4);
        b << 0, 0, 1, 2;      // distances −3 −2 −1 0, clipped to ±2, +2
        QVERIFY2(shawIndex(4, 4, 2, true) == b, qPrintable(describe(shawIndex(4, 4, 2, true))));
    }

    void matchesTensor2Tensor_data() {
        QTest::addColumn<int>("lq");
        QTest::addColumn<int>("lk");
        QTest::addColumn<int>("maxRel");
        QTest::addColumn<bool>("cache");
        for (auto [lq, lk] : {std::pair{1, 1}, std::pair{6, 6}, std::pair{3, 8}, std::pair{1, 9}, std::pair{17, 17},
                              std::pair{5, 40}, std::pair{40, 40}})
            for (int k : {1, 2, 4, 16, 100})
                for (bool cache : {false, true})
                    QTest::addRow("lq%d_lk%d_max%d_cache%d", lq, lk, k, int(cache)) << lq << lk << k << cache;
    }
    void matchesTensor2Tensor() {
        QFETCH(int, lq);
        QFETCH(int, lk);
        QFETCH(int, maxRel);
        QFETCH(bool, cache);
        const IntMatrix got = shawIndex(lq, lk, maxRel, cache);
        const IntMatrix expected = referenceIndex(lq, lk, maxRel, cache);
        QVERIFY2(got == expected, qPrintable(describe(got) + " vs " + describe(expected)));
    }

    // Properties: entries in [0, 2k]; Toeplitz (depends on j − i only); the query's own key is k;
    // rows non-decreasing; Q < K is the last Q rows of K × K; the cache row is the last row.
    void indexProperties_data() {
        QTest::addColumn<int>("lk");
        QTest::addColumn<int>("maxRel");
        for (int lk : {1, 2, 7, 31, 64})
            for (int k : {1, 3, 8, 50}) QTest::addRow("lk%d_max%d", lk, k) << lk << k;
    }
    void indexProperties() {
        QFETCH(int, lk);
        QFETCH(int, maxRel);
        const IntMatrix full = shawIndex(lk, lk, maxRel);
        QCOMPARE(full.rows(), Eigen::Index(lk));
        for (int i = 0; i < lk; ++i) {
            QCOMPARE(full(i, i), std::int64_t(maxRel));
            for (int j = 0; j < lk; ++j) {
                QVERIFY(full(i, j) >= 0 && full(i, j) <= 2 * maxRel);
                if (i > 0 && j > 0) QCOMPARE(full(i, j), full(i - 1, j - 1));
                if (j > 0) QVERIFY(full(i, j) >= full(i, j - 1));
                // saturates exactly beyond ±k
                if (j - i >= maxRel) QCOMPARE(full(i, j), std::int64_t(2 * maxRel));
                if (i - j >= maxRel) QCOMPARE(full(i, j), std::int64_t(0));
            }
        }
        for (int lq = 1; lq <= lk; ++lq) {
            const IntMatrix part = shawIndex(lq, lk, maxRel);
            QVERIFY(part == full.bottomRows(lq));
        }
        QVERIFY(shawIndex(1, lk, maxRel, true) == full.bottomRows(1));
        QVERIFY(shawIndex(lk, lk, maxRel, true) == full.bottomRows(1));  // cache ignores length_q
        // explicit positions reproduce the aligned matrix
        const IntMatrix at = shawIndexAt(arangePositions(0, lk), arangePositions(0, lk), maxRel);
        QVERIFY(at == full);
    }

    void explicitPositions_data() {
        QTest::addColumn<QList<qint64>>("queries");
        QTest::addColumn<QList<qint64>>("keys");
        QTest::addColumn<int>("maxRel");
        QTest::addRow("shifted_1000") << QList<qint64>{1000, 1001, 1005} << QList<qint64>{998, 1000, 1003, 1010} << 3;
        QTest::addRow("far_apart") << QList<qint64>{0, 1099511627776} << QList<qint64>{1099511627776, 0} << 16;
        QTest::addRow("unsorted") << QList<qint64>{7, 2, 5} << QList<qint64>{5, 7, 2} << 2;
    }
    void explicitPositions() {
        QFETCH(QList<qint64>, queries);
        QFETCH(QList<qint64>, keys);
        QFETCH(int, maxRel);
        const IntMatrix m = shawIndexAt(Positions(queries.begin(), queries.end()), Positions(keys.begin(), keys.end()), maxRel);
        QCOMPARE(m.rows(), Eigen::Index(queries.size()));
        QCOMPARE(m.cols(), Eigen::Index(keys.size()));
        for (int i = 0; i < queries.size(); ++i)
            for (int j = 0; j < keys.size(); ++j) {
                const qint64 d = keys[j] - queries[i];
                QCOMPARE(m(i, j), std::int64_t(std::clamp<qint64>(d, -maxRel, maxRel) + maxRel));
            }
    }

    void tables_data() {
        QTest::addColumn<int>("maxRel");
        QTest::addColumn<int>("dim");
        QTest::addColumn<quint64>("seed");
        QTest::addRow("max16_d64_seed0") << 16 << 64 << quint64(0);
        QTest::addRow("max1_d1_seed3") << 1 << 1 << quint64(3);
        QTest::addRow("max4_d10_seed8") << 4 << 10 << quint64(8);
    }
    void tables() {
        QFETCH(int, maxRel);
        QFETCH(int, dim);
        QFETCH(quint64, seed);
        const ShawParams p{maxRel, dim, seed};
        QVERIFY(!p.validate());
        const Matrix key = shawKeyTable(p), value = shawValueTable(p);
        QCOMPARE(key.rows(), Eigen::Index(2 * maxRel + 1));
        QCOMPARE(key.cols(), Eigen::Index(dim));
        QCOMPARE(value.rows(), key.rows());
        const double sd = 1.0 / std::sqrt(double(dim));
        POSLAB_VERIFY_ABS(key, seededNormal(2 * maxRel + 1, dim, seed, 1, sd), 0.0);
        POSLAB_VERIFY_ABS(value, seededNormal(2 * maxRel + 1, dim, seed, 2, sd), 0.0);
        QVERIFY((key - value).cwiseAbs().minCoeff() > 0);
        POSLAB_VERIFY_ABS(shawKeyTable(p), key, 0.0);
    }

    void validation_data() {
        QTest::addColumn<qint64>("maxRel");
        QTest::addColumn<int>("dim");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("got");
        QTest::addRow("max0") << qint64(0) << 64 << "max_relative_position" << "0";
        QTest::addRow("max-3") << qint64(-3) << 64 << "max_relative_position" << "-3";
        QTest::addRow("max1000001_d1") << qint64(1'000'001) << 1 << "max_relative_position" << "1000001";
        QTest::addRow("max_table_over_2^26") << qint64(600) << 65536 << "max_relative_position" << "600";
        QTest::addRow("dim0") << qint64(16) << 0 << "dim" << "0";
        QTest::addRow("dim65537") << qint64(16) << 65537 << "dim" << "65537";
    }
    void validation() {
        QFETCH(qint64, maxRel);
        QFETCH(int, dim);
        QFETCH(QString, field);
        QFETCH(QString, got);
        const Check c = ShawParams{maxRel, dim, 0}.validate();
        QVERIFY(c.has_value());
        QCOMPARE(QString::fromStdString(c->parameter), field);
        QCOMPARE(QString::fromStdString(c->got), got);
        QVERIFY(!c->valid.empty());
    }

    void lengthValidation_data() {
        QTest::addColumn<qint64>("lq");
        QTest::addColumn<qint64>("lk");
        QTest::addColumn<bool>("cache");
        QTest::addColumn<QString>("field");  // empty: valid
        QTest::addRow("q6_k6") << qint64(6) << qint64(6) << false << "";
        QTest::addRow("q1_k1000000_cache") << qint64(0) << qint64(1'000'000) << true << "";
        QTest::addRow("q7_k6") << qint64(7) << qint64(6) << false << "query_length";
        QTest::addRow("q0_k6") << qint64(0) << qint64(6) << false << "query_length";
        QTest::addRow("q1_k0") << qint64(1) << qint64(0) << false << "key_length";
        QTest::addRow("q100000_k100000") << qint64(100000) << qint64(100000) << false << "query_length";
    }
    void lengthValidation() {
        QFETCH(qint64, lq);
        QFETCH(qint64, lk);
        QFETCH(bool, cache);
        QFETCH(QString, field);
        const Check c = shawValidateLengths(lq, lk, cache);
        if (field.isEmpty()) {
            QVERIFY2(!c, c ? c->message().c_str() : "");
        } else {
            QVERIFY(c.has_value());
            QCOMPARE(QString::fromStdString(c->parameter), field);
        }
    }
};

QTEST_APPLESS_MAIN(TestShaw)
#include "test_shaw.moc"
