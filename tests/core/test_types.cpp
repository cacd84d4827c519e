// core/types.h helpers (rounding, ParamError, Result, positions; number formatting: test_format) and
// core/random.h determinism (same seed → same bits, streams independent, random access).
#include <QtTest>

#include <cmath>
#include <cstring>
#include <numbers>

#include "core/random.h"
#include "core/types.h"
#include "support/testsupport.h"

using namespace poslab;

namespace {

bool bitIdentical(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())) == 0;
}

// Independent re-implementation of the documented generator: SplitMix64 (Steele, Lea & Flood;
// Vigna's reference constants) from state seed·γ ⊕ (stream+1)·0xD1B54A32D192ED03, 53-bit
// uniforms (k + 0.5)/2^53, Box–Muller pairs (r·cos, r·sin), row-major.
std::vector<double> referenceNormals(std::size_t n, std::uint64_t seed, std::uint64_t stream, double stddev) {
    std::uint64_t s = seed * 0x9E3779B97F4A7C15ull ^ (stream + 1) * 0xD1B54A32D192ED03ull;
    auto next = [&s]() {
        s += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    auto uniform = [&]() { return (double(next() >> 11) + 0.5) / 9007199254740992.0; };
    std::vector<double> out;
    while (out.size() < n) {
        const double u1 = uniform(), u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        const double a = 2.0 * std::numbers::pi * u2;
        out.push_back(stddev * r * std::cos(a));
        if (out.size() < n) out.push_back(stddev * r * std::sin(a));
    }
    return out;
}

}  // namespace

class TestTypes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTo_data() {
        QTest::addColumn<double>("x");
        QTest::addRow("0.1") << 0.1;
        QTest::addRow("pi") << std::numbers::pi;
        QTest::addRow("1e-40_subnormal_f32") << 1e-40;
        QTest::addRow("123456789") << 123456789.0;
        QTest::addRow("-2.5") << -2.5;
    }
    void roundTo() {
        QFETCH(double, x);
        QCOMPARE(poslab::roundTo(Precision::Double, x), x);
        const double r = poslab::roundTo(Precision::Float32, x);
        QCOMPARE(r, static_cast<double>(static_cast<float>(x)));
        // idempotent, and within half a float32 ulp of x (relative 2^-24) for normal floats
        QCOMPARE(poslab::roundTo(Precision::Float32, r), r);
        if (std::abs(x) > 1e-37) QVERIFY(std::abs(r - x) <= std::abs(x) * 0x1.0p-24);
    }

    void paramErrorMessage() {
        const ParamError e{"head_dim", "an even integer >= 2", "7"};
        QCOMPARE(QString::fromStdString(e.message()), QString("head_dim: an even integer >= 2, got 7"));
    }

    void resultHoldsValueOrError() {
        Result<int> ok(5);
        QVERIFY(ok.ok());
        QVERIFY(bool(ok));
        QCOMPARE(ok.value(), 5);
        Result<int> bad(ParamError{"positions", "integers from 0 to 9", "12"});
        QVERIFY(!bad.ok());
        QCOMPARE(QString::fromStdString(bad.error().parameter), QString("positions"));
        QCOMPARE(QString::fromStdString(bad.error().got), QString("12"));
    }

    void validatePositions_data() {
        QTest::addColumn<QList<qint64>>("positions");
        QTest::addColumn<qint64>("minValue");
        QTest::addColumn<QString>("got");  // empty: valid
        QTest::addRow("0_1_2") << QList<qint64>{0, 1, 2} << qint64(0) << "";
        QTest::addRow("max_position") << QList<qint64>{kMaxPosition} << qint64(0) << "";
        QTest::addRow("empty") << QList<qint64>{} << qint64(0) << "an empty list";
        QTest::addRow("negative") << QList<qint64>{3, -1} << qint64(0) << "-1";
        QTest::addRow("past_max") << QList<qint64>{kMaxPosition + 1} << qint64(0) << "1099511627777";
        QTest::addRow("min5_got4") << QList<qint64>{5, 4} << qint64(5) << "4";
        QTest::addRow("min-10_got-10") << QList<qint64>{-10} << qint64(-10) << "";
    }
    void validatePositions() {
        QFETCH(QList<qint64>, positions);
        QFETCH(qint64, minValue);
        QFETCH(QString, got);
        const Positions p(positions.begin(), positions.end());
        const Check c = poslab::validatePositions(p, "queries", minValue);
        if (got.isEmpty()) {
            QVERIFY2(!c, c ? c->message().c_str() : "");
        } else {
            QVERIFY(c.has_value());
            QCOMPARE(QString::fromStdString(c->parameter), QString("queries"));
            QCOMPARE(QString::fromStdString(c->got), got);
        }
    }

    void arangePositions_data() {
        QTest::addColumn<qint64>("begin");
        QTest::addColumn<qint64>("end");
        QTest::addRow("0_5") << qint64(0) << qint64(5);
        QTest::addRow("3_7") << qint64(3) << qint64(7);
        QTest::addRow("-2_2") << qint64(-2) << qint64(2);
        QTest::addRow("5_5_empty") << qint64(5) << qint64(5);
        QTest::addRow("7_3_empty") << qint64(7) << qint64(3);
    }
    void arangePositions() {
        QFETCH(qint64, begin);
        QFETCH(qint64, end);
        const Positions p = poslab::arangePositions(begin, end);
        QCOMPARE(qint64(p.size()), std::max<qint64>(end - begin, 0));
        for (std::size_t i = 0; i < p.size(); ++i) QCOMPARE(qint64(p[i]), begin + qint64(i));
    }

    // ---- random.h ----

    void seededNormalMatchesReference_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<quint64>("stream");
        QTest::addColumn<double>("stddev");
        QTest::addRow("r1_c1_seed0_stream0") << 1 << 1 << quint64(0) << quint64(0) << 1.0;
        QTest::addRow("r3_c5_seed42_stream1") << 3 << 5 << quint64(42) << quint64(1) << 1.0;
        QTest::addRow("r17_c64_seed7_stream6_sd0.125") << 17 << 64 << quint64(7) << quint64(6) << 0.125;
        QTest::addRow("r9_c3_seedmax_stream12") << 9 << 3 << quint64(UINT64_MAX) << quint64(12) << 0.02;
    }
    void seededNormalMatchesReference() {
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(quint64, seed);
        QFETCH(quint64, stream);
        QFETCH(double, stddev);
        const Matrix m = seededNormal(rows, cols, seed, stream, stddev);
        const auto ref = referenceNormals(std::size_t(rows) * std::size_t(cols), seed, stream, stddev);
        QCOMPARE(m.rows(), Eigen::Index(rows));
        QCOMPARE(m.cols(), Eigen::Index(cols));
        for (Eigen::Index n = 0; n < m.size(); ++n) QCOMPARE(m.data()[n], ref[std::size_t(n)]);  // bit-exact
    }

    void sameSeedSameNumbers_data() {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<quint64>("stream");
        for (quint64 seed : {0ull, 1ull, 12345ull, 0xFFFFFFFFFFFFFFFFull})
            for (quint64 stream : {0ull, 1ull, 2ull, 11ull})
                QTest::addRow("seed%llu_stream%llu", seed, stream) << seed << stream;
    }
    void sameSeedSameNumbers() {
        QFETCH(quint64, seed);
        QFETCH(quint64, stream);
        const Matrix a = seededNormal(13, 7, seed, stream);
        const Matrix b = seededNormal(13, 7, seed, stream);
        QVERIFY(bitIdentical(a, b));
        QVERIFY(a.allFinite());
        // a different stream, and a different seed, give different numbers
        QVERIFY((a - seededNormal(13, 7, seed, stream + 1)).cwiseAbs().minCoeff() > 0);
        QVERIFY((a - seededNormal(13, 7, seed + 1, stream)).cwiseAbs().minCoeff() > 0);
        // stddev scales exactly (powers of two are exact)
        QVERIFY(bitIdentical(seededNormal(13, 7, seed, stream, 4.0), 4.0 * a));
    }

    // Entry n depends only on n, not on the shape: any reshaping keeps the flat sequence.
    void entryDependsOnlyOnFlatIndex() {
        const Matrix big = seededNormal(10, 12, 99, 3);
        for (auto [r, c] : {std::pair{1, 1}, std::pair{1, 7}, std::pair{3, 5}, std::pair{12, 10}, std::pair{120, 1}}) {
            const Matrix m = seededNormal(r, c, 99, 3);
            for (Eigen::Index n = 0; n < m.size(); ++n) QCOMPARE(m.data()[n], big.data()[n]);
        }
    }

    void randomAccessMatchesSequential_data() {
        QTest::addColumn<int>("cols");
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<quint64>("stream");
        QTest::addRow("cols1_seed0_stream0") << 1 << quint64(0) << quint64(0);
        QTest::addRow("cols7_seed5_stream2") << 7 << quint64(5) << quint64(2);
        QTest::addRow("cols64_seed123_stream6") << 64 << quint64(123) << quint64(6);
    }
    void randomAccessMatchesSequential() {
        QFETCH(int, cols);
        QFETCH(quint64, seed);
        QFETCH(quint64, stream);
        const Matrix full = seededNormal(40, cols, seed, stream, 0.5);
        for (Eigen::Index n = 0; n < full.size(); ++n)
            QCOMPARE(seededNormalAt(std::uint64_t(n), seed, stream, 0.5), full.data()[n]);
        const std::vector<std::int64_t> rows = {39, 0, 17, 17, 5};
        const Matrix picked = seededNormalRows(rows, cols, seed, stream, 0.5);
        QCOMPARE(picked.rows(), Eigen::Index(rows.size()));
        for (std::size_t i = 0; i < rows.size(); ++i)
            QVERIFY(bitIdentical(picked.row(Eigen::Index(i)), full.row(rows[i])));
    }

    // N(0, σ²): sample mean and variance over 200 000 draws (tolerances ≈ 5 standard errors).
    void moments_data() {
        QTest::addColumn<double>("stddev");
        QTest::addRow("sd1") << 1.0;
        QTest::addRow("sd0.02") << 0.02;
        QTest::addRow("sd3") << 3.0;
    }
    void moments() {
        QFETCH(double, stddev);
        const Matrix m = seededNormal(400, 500, 2024, 0, stddev);
        const double n = double(m.size());
        const double mean = m.sum() / n;
        const double var = (m.array() - mean).square().sum() / (n - 1);
        QVERIFY2(std::abs(mean) <= 5 * stddev / std::sqrt(n), qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(var / (stddev * stddev) - 1) <= 5 * std::sqrt(2.0 / n), qPrintable(QString::number(var)));
        // ~ 68.3 % within one σ
        const double within = double((m.array().abs() <= stddev).count()) / n;
        QVERIFY2(std::abs(within - 0.682689) <= 0.006, qPrintable(QString::number(within)));
    }

    void emptyShapes() {
        QCOMPARE(seededNormal(0, 5, 1).size(), Eigen::Index(0));
        QCOMPARE(seededNormal(5, 0, 1).size(), Eigen::Index(0));
        QCOMPARE(seededNormalRows({}, 4, 1).rows(), Eigen::Index(0));
    }
};

QTEST_APPLESS_MAIN(TestTypes)
#include "test_types.moc"
