// Learned absolute embeddings: the seeded table, row lookup, the error past the table, validation.
#include <QtTest>

#include <cmath>

#include "core/learned.h"
#include "core/random.h"
#include "support/testsupport.h"

using namespace poslab;

class TestLearned : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The table is seededNormal(table_size, dim, seed, stream 0, 0.02), as the header documents.
    void tableIsSeededNormal_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<qint64>("tableSize");
        QTest::addColumn<quint64>("seed");
        QTest::addRow("d1_t1_seed0") << 1 << qint64(1) << quint64(0);
        QTest::addRow("d64_t512_seed0") << 64 << qint64(512) << quint64(0);
        QTest::addRow("d7_t33_seed9") << 7 << qint64(33) << quint64(9);
        QTest::addRow("d768_t128_seed3") << 768 << qint64(128) << quint64(3);
    }
    void tableIsSeededNormal() {
        QFETCH(int, dim);
        QFETCH(qint64, tableSize);
        QFETCH(quint64, seed);
        const LearnedParams p{dim, tableSize, seed};
        QVERIFY(!p.validate());
        const Matrix t = learnedTable(p);
        QCOMPARE(t.rows(), Eigen::Index(tableSize));
        QCOMPARE(t.cols(), Eigen::Index(dim));
        POSLAB_VERIFY_ABS(t, seededNormal(tableSize, dim, seed, 0, 0.02), 0.0);
        POSLAB_VERIFY_ABS(t, learnedTable(p), 0.0);  // deterministic
    }

    void rowsAreTableRows_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<qint64>("tableSize");
        QTest::addColumn<QList<qint64>>("positions");
        QTest::addRow("d16_t512_first_last") << 16 << qint64(512) << QList<qint64>{0, 511};
        QTest::addRow("d5_t10_unordered_repeated") << 5 << qint64(10) << QList<qint64>{9, 3, 3, 0, 7};
        QTest::addRow("d64_t1024_range") << 64 << qint64(1024) << QList<qint64>{100, 101, 102, 103};
        QTest::addRow("d1_t1_only") << 1 << qint64(1) << QList<qint64>{0};
    }
    void rowsAreTableRows() {
        QFETCH(int, dim);
        QFETCH(qint64, tableSize);
        QFETCH(QList<qint64>, positions);
        const LearnedParams p{dim, tableSize, 77};
        const Matrix t = learnedTable(p);
        const auto r = learnedEncoding(p, Positions(positions.begin(), positions.end()));
        QVERIFY(r.ok());
        QCOMPARE(r.value().rows(), Eigen::Index(positions.size()));
        for (int i = 0; i < positions.size(); ++i)
            for (int c = 0; c < dim; ++c) QCOMPARE(r.value()(i, c), t(Eigen::Index(positions[i]), c));
    }

    // Positions outside [0, table_size) are an error naming `positions` with the valid range.
    void pastTheTableIsAnError_data() {
        QTest::addColumn<qint64>("tableSize");
        QTest::addColumn<QList<qint64>>("positions");
        QTest::addColumn<QString>("got");
        QTest::addRow("t512_pos512") << qint64(512) << QList<qint64>{0, 512} << "512";
        QTest::addRow("t512_pos100000") << qint64(512) << QList<qint64>{100000} << "100000";
        QTest::addRow("t1_pos1") << qint64(1) << QList<qint64>{1} << "1";
        QTest::addRow("t64_pos-1") << qint64(64) << QList<qint64>{5, -1} << "-1";
        QTest::addRow("t64_empty") << qint64(64) << QList<qint64>{} << "an empty list";
    }
    void pastTheTableIsAnError() {
        QFETCH(qint64, tableSize);
        QFETCH(QList<qint64>, positions);
        QFETCH(QString, got);
        const LearnedParams p{8, tableSize, 0};
        const auto r = learnedEncoding(p, Positions(positions.begin(), positions.end()));
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().parameter), QString("positions"));
        QCOMPARE(QString::fromStdString(r.error().got), got);
        if (!positions.isEmpty())
            QVERIFY2(QString::fromStdString(r.error().valid).contains(QString("0 to %1").arg(tableSize - 1)),
                     r.error().valid.c_str());
    }

    void seedsDiffer() {
        const Matrix a = learnedTable({32, 64, 1});
        const Matrix b = learnedTable({32, 64, 2});
        QVERIFY((a - b).cwiseAbs().minCoeff() > 0);
    }

    // N(0, 0.02²): the sample standard deviation of a large table.
    void initializerRange() {
        const Matrix t = learnedTable({256, 1024, 5});
        const double n = double(t.size());
        const double mean = t.mean();
        const double sd = std::sqrt((t.array() - mean).square().sum() / (n - 1));
        QVERIFY2(std::abs(sd - 0.02) <= 0.02 * 0.005, qPrintable(QString::number(sd)));
        QVERIFY(std::abs(mean) <= 5 * 0.02 / std::sqrt(n));
    }

    // A large valid table (1 M rows) can be asked for a few rows without building it.
    void largeTableRows() {
        const LearnedParams p{64, 1'048'576, 3};
        QVERIFY(!p.validate());
        const auto r = learnedEncoding(p, {0, 1'048'575});
        QVERIFY(r.ok());
        QVERIFY(r.value().allFinite());
        QCOMPARE(r.value()(1, 63), seededNormalAt(1'048'575ull * 64 + 63, 3, 0, 0.02));
    }

    void validation_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<qint64>("tableSize");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("got");
        QTest::addRow("dim0") << 0 << qint64(512) << "dim" << "0";
        QTest::addRow("dim65537") << 65537 << qint64(1) << "dim" << "65537";
        QTest::addRow("table0") << 64 << qint64(0) << "table_size" << "0";
        QTest::addRow("table-5") << 64 << qint64(-5) << "table_size" << "-5";
        QTest::addRow("table1048577_d1") << 1 << qint64(1'048'577) << "table_size" << "1048577";
        QTest::addRow("table_x_dim_over_2^26") << 65536 << qint64(1025) << "table_size" << "1025";
    }
    void validation() {
        QFETCH(int, dim);
        QFETCH(qint64, tableSize);
        QFETCH(QString, field);
        QFETCH(QString, got);
        const LearnedParams p{dim, tableSize, 0};
        const Check c = p.validate();
        QVERIFY(c.has_value());
        QCOMPARE(QString::fromStdString(c->parameter), field);
        QCOMPARE(QString::fromStdString(c->got), got);
        QVERIFY(!c->valid.empty());
    }

    void validAccepted_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<qint64>("tableSize");
        QTest::addRow("defaults") << 64 << qint64(512);
        QTest::addRow("d65536_t1024") << 65536 << qint64(1024);
        QTest::addRow("d1_t1048576") << 1 << qint64(1'048'576);
    }
    void validAccepted() {
        QFETCH(int, dim);
        QFETCH(qint64, tableSize);
        const Check c = LearnedParams{dim, tableSize, 0}.validate();
        QVERIFY2(!c, c ? c->message().c_str() : "");
    }
};

QTEST_APPLESS_MAIN(TestLearned)
#include "test_learned.moc"
