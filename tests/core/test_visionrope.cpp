// Vision encoders' 2-D RoPE (core/visionrope.h): every case of modern_vision_2d.json (Qwen's patch
// positions in merge-block order exact, Pixtral's angle table to 5e-6), then properties (merge 1 is
// row-major, every patch once per frame, Pixtral's ids use the patches per side, the frequency
// split between rows and columns) and the parameters' errors.
#include <QtTest>

#include <cmath>
#include <set>

#include "core/visionrope.h"
#include "support/testsupport.h"

using namespace poslab;
using testsupport::goldenCase;

namespace {
const QString kFile = QStringLiteral("modern_vision_2d.json");

VisionGrid gridOf(const QJsonValue& v) {
    const auto a = v.toArray()[0].toArray();
    return {a[0].toInteger(), a[1].toInteger(), a[2].toInteger()};
}
}  // namespace

class TestVisionRope : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void golden_data() {
        QTest::addColumn<QString>("name");
        const auto cases = testsupport::golden(kFile).value("cases").toArray();
        QVERIFY(!cases.isEmpty());
        for (const auto& c : cases) {
            const QString n = c.toObject().value("name").toString();
            QTest::newRow(qPrintable(n)) << n;
        }
    }
    void golden() {
        QFETCH(QString, name);
        const QJsonObject c = goldenCase(kFile, name);
        const QJsonObject p = c.value("params").toObject(), out = c.value("output").toObject();
        const QString function = c.value("function").toString();
        if (function.contains("get_vision_position_ids")) {
            const VisionGrid g = gridOf(p.value("grid_thw"));
            const int m = p.value("spatial_merge_size").toInt();
            const auto ids = qwenVisionPositionIds(g, m);
            const auto want = out.value("position_ids").toArray();
            QCOMPARE(qsizetype(ids.size()), want.size());
            for (std::size_t k = 0; k < ids.size(); ++k) {
                const auto w = want[qsizetype(k)].toArray();
                QCOMPARE(ids[k][0], w[0].toInteger());
                QCOMPARE(ids[k][1], w[1].toInteger());
            }
            return;
        }
        if (function.startsWith("Pixtral") && out.contains("table")) {
            VisionRopeParams vp;
            vp.encoder = VisionRope::Pixtral;
            vp.head_dim = p.value("head_dim").toInt();
            vp.theta = p.value("rope_theta").toDouble();
            vp.patches_per_side = p.value("image_size").toInt() / p.value("patch_size").toInt();
            QCOMPARE(vp.patches_per_side, std::int64_t(p.value("max_patches_per_side").toInt(int(vp.patches_per_side))));
            QVERIFY(!vp.validate());
            POSLAB_VERIFY_ABS(pixtralAngleTable(vp), testsupport::toMatrix(out.value("table")), 5e-6);
            return;
        }
        QFAIL(qPrintable("no check for this kind of case: " + function));
    }

    // Every patch once per frame, each merge block's m² patches in a row; merge 1 is row-major.
    void qwenPositions_data() {
        QTest::addColumn<QString>("grid");
        QTest::addColumn<int>("merge");
        QTest::newRow("1x4x6 merge1") << "1x4x6" << 1;
        QTest::newRow("2x4x6 merge2") << "2x4x6" << 2;
        QTest::newRow("1x6x9 merge3") << "1x6x9" << 3;
        QTest::newRow("1x8x8 merge4") << "1x8x8" << 4;
    }
    void qwenPositions() {
        QFETCH(QString, grid);
        QFETCH(int, merge);
        const VisionGrid g = parseVisionGrid(grid.toStdString()).value();
        const auto ids = qwenVisionPositionIds(g, merge);
        QCOMPARE(std::int64_t(ids.size()), g.t * g.h * g.w);
        const std::size_t frame = std::size_t(g.h * g.w);
        std::set<std::pair<std::int64_t, std::int64_t>> seen;
        for (std::size_t k = 0; k < frame; ++k) {
            seen.insert({ids[k][0], ids[k][1]});
            for (std::int64_t t = 1; t < g.t; ++t) QCOMPARE(ids[std::size_t(t) * frame + k], ids[k]);
            // The token's merge block: tokens k .. k with the same k / m² share it.
            const auto& first = ids[k - k % std::size_t(merge * merge)];
            QCOMPARE(ids[k][0] / merge, first[0] / merge);
            QCOMPARE(ids[k][1] / merge, first[1] / merge);
            if (merge == 1) {
                QCOMPARE(ids[k][0], std::int64_t(k) / g.w);
                QCOMPARE(ids[k][1], std::int64_t(k) % g.w);
            }
        }
        QCOMPARE(seen.size(), frame);
    }

    void pixtralIds() {
        const auto ids = pixtralPositionIds({1, 2, 3}, 64);
        QCOMPARE(ids, (Positions{0, 1, 2, 64, 65, 66}));
    }

    // Qwen: head_dim/4 frequencies 1/θ^(2i/(hd/2)), the first half of the pairs rows, the second columns.
    // Pixtral: f over the full head_dim, rows f[0::2], columns f[1::2].
    void frequencies_data() {
        QTest::addColumn<QString>("encoder");
        QTest::addColumn<int>("headDim");
        QTest::newRow("qwen 80") << "qwen" << 80;
        QTest::newRow("qwen 8") << "qwen" << 8;
        QTest::newRow("pixtral 64") << "pixtral" << 64;
        QTest::newRow("pixtral 8") << "pixtral" << 8;
    }
    void frequencies() {
        QFETCH(QString, encoder);
        QFETCH(int, headDim);
        VisionRopeParams vp;
        vp.encoder = *enumFromKey<VisionRope>(encoder.toStdString());
        vp.head_dim = headDim;
        vp.precision = Precision::Double;
        QVERIFY(!vp.validate());
        const VisionFrequencies f = visionFrequencies(vp);
        const int half = headDim / 2;
        QCOMPARE(int(f.inv_freq.size()), half);
        for (int j = 0; j < half; ++j) {
            double want;
            if (encoder == "qwen") want = std::pow(10000.0, -2.0 * (j % (half / 2)) / half);
            else want = std::pow(10000.0, -2.0 * (j < half / 2 ? 2 * j : 2 * (j - half / 2) + 1) / headDim);
            QVERIFY2(std::abs(f.inv_freq[j] - want) <= 1e-12 * want, qPrintable(QString::number(j)));
            QCOMPARE(f.axis[std::size_t(j)], j < half / 2 ? 1 : 2);
        }
        // Angles: row·f for row pairs, col·f for column pairs.
        const Matrix a = visionAngles(vp, {3}, {5});
        for (int j = 0; j < half; ++j) QCOMPARE(a(0, j), (j < half / 2 ? 3.0 : 5.0) * f.inv_freq[j]);
    }

    // The 2-D decay against the golden cases: Pixtral's from the golden angle table itself (every
    // patch of its 4×4 grid against the chosen one: s·Σ_j 2cos(Δa_j), the table's first half the
    // pairs' angles), Qwen's over the golden patch positions (each listed patch, in the encoder's
    // order, the score from the chosen one through visionAngles of both patches, pair by pair).
    void decayAgainstGolden_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("row");
        QTest::addColumn<qint64>("col");
        QTest::newRow("pixtral_inv_freq_table_d8_4x4 patch 0,0") << "pixtral_inv_freq_table_d8_4x4" << qint64(0) << qint64(0);
        QTest::newRow("pixtral_inv_freq_table_d8_4x4 patch 2,1") << "pixtral_inv_freq_table_d8_4x4" << qint64(2) << qint64(1);
        QTest::newRow("qwen2vl_vision_position_ids_grid1x4x6_merge2 patch 1,3")
            << "qwen2vl_vision_position_ids_grid1x4x6_merge2" << qint64(1) << qint64(3);
        QTest::newRow("qwen2vl_vision_position_ids_grid1x4x6_merge2 patch 3,5")
            << "qwen2vl_vision_position_ids_grid1x4x6_merge2" << qint64(3) << qint64(5);
    }
    void decayAgainstGolden() {
        QFETCH(QString, name);
        QFETCH(qint64, row);
        QFETCH(qint64, col);
        const QJsonObject c = goldenCase(kFile, name);
        const QJsonObject p = c.value("params").toObject(), out = c.value("output").toObject();
        VisionRopeParams vp;
        if (out.contains("table")) {
            vp.encoder = VisionRope::Pixtral;
            vp.head_dim = p.value("head_dim").toInt();
            vp.theta = p.value("rope_theta").toDouble();
            vp.patches_per_side = p.value("max_patches_per_side").toInt();
            vp.grid = QStringLiteral("1x%1x%1").arg(vp.patches_per_side).toStdString();
            const auto d = visionDecay(vp, row, col);
            QVERIFY2(d, d ? "" : d.error().message().c_str());
            const Matrix table = testsupport::toMatrix(out.value("table"));
            const std::int64_t P = vp.patches_per_side;
            const double s = 1.0 / std::sqrt(double(vp.head_dim));
            for (std::int64_t r = 0; r < P; ++r)
                for (std::int64_t k = 0; k < P; ++k) {
                    double want = 0;
                    for (int j = 0; j < vp.head_dim / 2; ++j) want += 2 * std::cos(table(row * P + col, j) - table(r * P + k, j));
                    QVERIFY2(std::abs(d.value().value(r, k) - s * want) <= 2e-6,
                             qPrintable(QStringLiteral("patch %1,%2: %3 vs %4").arg(r).arg(k).arg(d.value().value(r, k)).arg(s * want)));
                }
            QCOMPARE(d.value().maxValue(), d.value().value(row, col));
            QVERIFY(std::abs(d.value().value(row, col) - s * vp.head_dim) < 1e-12);   // every cos is 1 at the patch itself
            return;
        }
        const VisionGrid g = gridOf(p.value("grid_thw"));
        vp.encoder = VisionRope::Qwen;
        vp.merge = p.value("spatial_merge_size").toInt();
        vp.grid = QStringLiteral("%1x%2x%3").arg(g.t).arg(g.h).arg(g.w).toStdString();
        const auto d = visionDecay(vp, row, col);
        QVERIFY2(d, d ? "" : d.error().message().c_str());
        const auto ids = out.value("position_ids").toArray();
        QCOMPARE(ids.size(), qsizetype(g.t * g.h * g.w));
        for (const auto& e : ids) {
            const std::int64_t r = e.toArray()[0].toInteger(), k = e.toArray()[1].toInteger();
            const Matrix a = visionAngles(vp, {row, r}, {col, k});
            double want = 0;
            for (Eigen::Index j = 0; j < a.cols(); ++j) want += 2 * std::cos(a(0, j) - a(1, j));
            want /= std::sqrt(double(vp.head_dim));
            QVERIFY2(std::abs(d.value().value(r, k) - want) <= 1e-12, qPrintable(QStringLiteral("patch %1,%2").arg(r).arg(k)));
        }
        // Symmetric about the chosen patch's row and column (cos is even).
        if (row >= 1 && row + 1 < g.h) QVERIFY(std::abs(d.value().rowTerm[row - 1] - d.value().rowTerm[row + 1]) < 1e-6);
    }

    void decayErrors_data() {
        QTest::addColumn<QString>("encoder");
        QTest::addColumn<QString>("grid");
        QTest::addColumn<qint64>("row");
        QTest::addColumn<qint64>("col");
        QTest::addColumn<QString>("names");
        QTest::newRow("qwen patch row past the grid") << "qwen" << "1x4x6" << qint64(4) << qint64(0) << "patch";
        QTest::newRow("qwen patch column past the grid") << "qwen" << "1x4x6" << qint64(0) << qint64(6) << "patch";
        QTest::newRow("qwen negative row") << "qwen" << "1x4x6" << qint64(-1) << qint64(0) << "patch";
        QTest::newRow("qwen no grid") << "qwen" << "" << qint64(0) << qint64(0) << "grid";
        QTest::newRow("qwen grid merge does not divide") << "qwen" << "1x5x6" << qint64(0) << qint64(0) << "grid";
        QTest::newRow("pixtral two frames") << "pixtral" << "2x4x4" << qint64(0) << qint64(0) << "grid";
    }
    void decayErrors() {
        QFETCH(QString, encoder);
        QFETCH(QString, grid);
        QFETCH(qint64, row);
        QFETCH(qint64, col);
        QFETCH(QString, names);
        VisionRopeParams vp;
        vp.encoder = encoder == "qwen" ? VisionRope::Qwen : VisionRope::Pixtral;
        vp.grid = grid.toStdString();
        const auto d = visionDecay(vp, row, col);
        QVERIFY(!d);
        QVERIFY2(d.error().message().rfind(names.toStdString(), 0) == 0, d.error().message().c_str());
    }

    void patchParsing_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::newRow("3,5") << "3,5" << true;
        QTest::newRow("0,0") << "0,0" << true;
        QTest::newRow("3") << "3" << false;
        QTest::newRow("-1,2") << "-1,2" << false;
        QTest::newRow("a,b") << "a,b" << false;
        QTest::newRow("empty") << "" << false;
    }
    void patchParsing() {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        const auto r = parsePatch(text.toStdString());
        QCOMPARE(bool(r), ok);
        if (!ok) QVERIFY(r.error().message().rfind("patch", 0) == 0);
    }

    void errors_data() {
        QTest::addColumn<QString>("encoder");
        QTest::addColumn<QString>("grid");
        QTest::addColumn<int>("headDim");
        QTest::addColumn<QString>("parameter");
        QTest::newRow("qwen 1x3x4 merge2") << "qwen" << "1x3x4" << 80 << "grid";
        QTest::newRow("qwen 1x4") << "qwen" << "1x4" << 80 << "grid";
        QTest::newRow("qwen 0x4x4") << "qwen" << "0x4x4" << 80 << "grid";
        QTest::newRow("qwen axbxc") << "qwen" << "axbxc" << 80 << "grid";
        QTest::newRow("pixtral 1x65x4") << "pixtral" << "1x65x4" << 64 << "grid";
        QTest::newRow("qwen head_dim 78") << "qwen" << "1x4x4" << 78 << "head_dim";
        QTest::newRow("qwen 2048x2048x2048") << "qwen" << "2048x2048x2048" << 80 << "grid";
    }
    void errors() {
        QFETCH(QString, encoder);
        QFETCH(QString, grid);
        QFETCH(int, headDim);
        QFETCH(QString, parameter);
        VisionRopeParams vp;
        vp.encoder = *enumFromKey<VisionRope>(encoder.toStdString());
        vp.grid = grid.toStdString();
        vp.head_dim = headDim;
        const Check e = vp.validate();
        QVERIFY2(e, "accepted");
        QCOMPARE(QString::fromStdString(e->parameter), parameter);
        QVERIFY(!QString::fromStdString(e->message()).contains('\n'));
    }
};

QTEST_APPLESS_MAIN(TestVisionRope)
#include "test_visionrope.moc"
