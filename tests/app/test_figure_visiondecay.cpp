// `poslab figure vision-decay` (cli.md "Multimodal positions"): the scores the figure writes are
// core/visionrope.h's visionDecay (each patch's score from the chosen one: row_term[r] +
// col_term[c]), checked against the golden Pixtral angle table of modern_vision_2d.json; its text
// does not overlap and is legible; it writes PNG, SVG and PDF; bad input is exit 2 with one line
// naming the option; options that cannot change the map (--merge, --patches-per-side) are not taken.
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "support/layoutjson.h"
#include "support/runposlab.h"
#include "support/testsupport.h"
#include "ui/render/layout.h"

using testsupport::reportOf;
using testsupport::rectOf;
using testsupport::runPoslab;

namespace {


QJsonObject figureJson(const QStringList& args, const QString& dir) {
    const QString out = dir + "/v.json";
    const auto f = runPoslab(QStringList{"figure", "vision-decay"} + args + QStringList{"-o", out});
    if (f.code != 0) qWarning("%s", qPrintable(f.describe()));
    QFile file(out);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

}  // namespace

class TestFigureVisionDecay : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The golden Pixtral table (head_dim 8, 4×4 patches): every patch's score from the chosen one is
    // s·Σ_j 2cos(a_j(p*) − a_j(p)) over the table's angles.
    void pixtralScoresAreTheGoldenTables_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        QTest::newRow("patch 0,0") << 0 << 0;
        QTest::newRow("patch 3,1") << 3 << 1;
        QTest::newRow("patch 2,2 (the centre)") << -1 << -1;
    }
    void pixtralScoresAreTheGoldenTables() {
        QFETCH(int, row);
        QFETCH(int, col);
        const QJsonObject c = testsupport::goldenCase(QStringLiteral("modern_vision_2d.json"), QStringLiteral("pixtral_inv_freq_table_d8_4x4"));
        const QJsonArray table = c.value("output").toObject().value("table").toArray();
        QTemporaryDir dir;
        QStringList args{"--vision", "pixtral", "--grid", "1x4x4", "--head-dim", "8", "--base", "10000"};
        if (row >= 0) args << "--patch" << QStringLiteral("%1,%2").arg(row).arg(col);
        else row = col = 2;   // H/2, W/2
        const QJsonObject fig = figureJson(args, dir.path());
        const QJsonObject v = fig.value("views").toObject().value("vision-decay").toObject();
        QCOMPARE(v.value("patch").toArray(), (QJsonArray{row, col}));
        const QJsonArray rt = v.value("row_term").toArray(), ct = v.value("col_term").toArray();
        QCOMPARE(rt.size(), 4);
        QCOMPARE(ct.size(), 4);
        const auto angle = [&](int r, int k, int j) { return table[r * 4 + k].toArray()[j].toDouble(); };
        for (int r = 0; r < 4; ++r)
            for (int k = 0; k < 4; ++k) {
                double want = 0;
                for (int j = 0; j < 4; ++j) want += 2 * std::cos(angle(row, col, j) - angle(r, k, j));
                want /= std::sqrt(8.0);
                const double got = rt[r].toDouble() + ct[k].toDouble();
                QVERIFY2(std::abs(got - want) <= 2e-6, qPrintable(QStringLiteral("patch %1,%2: %3 vs %4").arg(r).arg(k).arg(got).arg(want)));
            }
        QCOMPARE(v.value("max").toDouble(), rt[row].toDouble() + ct[col].toDouble());
    }

    // The picture: the cells square and inside the figure, the text apart and legible, at the
    // window's and the projector's sizes, one cell per patch and a pixel per block of patches.
    void layoutIsClean_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("blocks");
        QTest::newRow("qwen 1x16x16 default size") << QStringList{"--vision", "qwen", "--grid", "1x16x16"} << false;
        QTest::newRow("qwen 4x28x40 projector 1920x1080")
            << QStringList{"--vision", "qwen", "--grid", "4x28x40", "--patch", "3,30", "--theme", "projector", "--width", "1920", "--height", "1080"}
            << false;
        QTest::newRow("pixtral 1x64x64 dark 800x500") << QStringList{"--vision", "pixtral", "--grid", "1x64x64", "--head-dim", "64", "--theme", "dark",
                                                                     "--width", "800", "--height", "500"}
                                                      << false;
        QTest::newRow("qwen 1x1200x900 blocks 640x400")
            << QStringList{"--vision", "qwen", "--grid", "1x1200x900", "--width", "640", "--height", "400"} << true;
    }
    void layoutIsClean() {
        QFETCH(QStringList, args);
        QFETCH(bool, blocks);
        QTemporaryDir dir;
        const QJsonObject fig = figureJson(args, dir.path());
        const QJsonObject v = fig.value("views").toObject().value("vision-decay").toObject();
        QVERIFY(!v.isEmpty());
        const QJsonArray grid = v.value("grid").toArray();
        const QRectF cells = rectOf(v.value("cells"));
        const double cell = v.value("cell_px").toDouble();
        QVERIFY(cell > 0);
        QCOMPARE(cell < 1, blocks);
        QVERIFY(std::abs(cells.width() - cell * grid[2].toDouble()) < 1e-6);
        QVERIFY(std::abs(cells.height() - cell * grid[1].toDouble()) < 1e-6);
        const poslab::ui::LayoutReport report = reportOf(fig);
        QVERIFY(QRectF(0, 0, 1e5, 1e5).contains(cells));
        const QStringList problems = poslab::ui::layoutProblems(report);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 6).join('\n')));
        bool said = false;
        for (const auto& item : report.items)
            said = said || (item.kind == poslab::ui::LayoutItemKind::Text && item.text.contains(blocks ? "mean of the patches" : "One cell per patch"));
        QVERIFY2(said, "the note says what a pixel stands for");
    }

    void formats_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << "v.png" << QByteArray("\x89PNG");
        QTest::newRow("svg") << "v.svg" << QByteArray("<?xml");
        QTest::newRow("pdf") << "v.pdf" << QByteArray("%PDF");
    }
    void formats() {
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        QTemporaryDir dir;
        const auto f = runPoslab({"figure", "vision-decay", "--vision", "qwen", "--grid", "1x16x16", "-o", dir.filePath(name)});
        EXPECT_FIGURE_FILE(f, dir.filePath(name), magic);
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("names");
        QTest::newRow("no vision") << QStringList{"--grid", "1x4x4"} << "--vision";
        QTest::newRow("no grid") << QStringList{"--vision", "qwen"} << "--grid";
        QTest::newRow("vision llama") << QStringList{"--vision", "llama", "--grid", "1x4x4"} << "--vision";
        QTest::newRow("grid 1x4") << QStringList{"--vision", "qwen", "--grid", "1x4"} << "--grid";
        QTest::newRow("pixtral two frames") << QStringList{"--vision", "pixtral", "--grid", "2x4x4"} << "--grid";
        QTest::newRow("patch past the rows") << QStringList{"--vision", "qwen", "--grid", "1x4x6", "--patch", "4,0"} << "--patch";
        QTest::newRow("patch one number") << QStringList{"--vision", "qwen", "--grid", "1x4x6", "--patch", "3"} << "--patch";
        QTest::newRow("head-dim 6") << QStringList{"--vision", "qwen", "--grid", "1x4x6", "--head-dim", "6"} << "head";
        QTest::newRow("merge not read") << QStringList{"--vision", "qwen", "--grid", "1x4x6", "--merge", "2"} << "--merge";
        QTest::newRow("patches-per-side not read") << QStringList{"--vision", "pixtral", "--grid", "1x4x6", "--patches-per-side", "8"}
                                                   << "--patches-per-side";
        QTest::newRow("output .csv") << QStringList{"--vision", "qwen", "--grid", "1x4x4", "-o", "x.csv"} << "--output";
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, names);
        QTemporaryDir dir;
        if (!args.contains("-o")) args << "-o" << dir.filePath("v.png");
        const auto r = runPoslab(QStringList{"figure", "vision-decay"} + args, testsupport::PoslabRunOptions({}, dir.path()));
        EXPECT_REFUSAL_NAMING(r, names);
        QVERIFY(!QFileInfo::exists(dir.filePath("v.png")));
    }
};

QTEST_GUILESS_MAIN(TestFigureVisionDecay)
#include "test_figure_visiondecay.moc"
