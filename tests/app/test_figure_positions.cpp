// `poslab figure positions` (cli.md "Multimodal positions"): the ids the figure draws are those
// `poslab compute positions` prints (the text under every strip cell and grid cell of the layout
// report), its text does not overlap, it writes PNG, SVG and PDF, and bad input is exit 2 with
// one line naming the option. `figure heatmap --tokens`: the cells are `compute scores --tokens`'
// scores; --tokens where no drawn view reads it, or without sections, is exit 2.
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

#include "support/layoutjson.h"
#include "support/runposlab.h"
#include "ui/render/layout.h"

using testsupport::reportOf;
using testsupport::rectOf;
using testsupport::runPoslab;

namespace {


QStringList textsIn(const poslab::ui::LayoutReport& report, const QRectF& r) {
    std::vector<std::pair<double, QString>> found;
    for (const auto& item : report.items)
        if (item.kind == poslab::ui::LayoutItemKind::Text && r.contains(item.rect.center()))
            found.emplace_back(item.rect.center().y(), item.text);
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    QStringList out;
    for (const auto& f : found) out << f.second;
    return out;
}

QString id(const QJsonArray& ids, int axis, qint64 k) { return QString::number(ids[axis].toArray()[k].toInteger()); }

}  // namespace

class TestFigurePositions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void idsDrawnAreComputePositions_data() {
        QTest::addColumn<QStringList>("layout");   // --tokens and the rule's options
        QTest::addColumn<QStringList>("look");     // size and theme
        QTest::newRow("qwen2-vl text3 image1x4x6 text2") << QStringList{"--tokens", "text:3,image:1x4x6,text:2"} << QStringList{};
        QTest::newRow("qwen2.5-vl video 0.5s") << QStringList{"--tokens", "text:2,video:4x4x4,text:3", "--model", "qwen2.5-vl",
                                                              "--second-per-grid", "0.5"}
                                               << QStringList{"--theme", "dark"};
        QTest::newRow("qwen2-vl image 74x74 projector 1920x1080")
            << QStringList{"--tokens", "text:5,image:1x74x74,text:5"} << QStringList{"--theme", "projector", "--width", "1920", "--height", "1080"};
        QTest::newRow("qwen3-vl frames 1280x720")
            << QStringList{"--tokens", "text:4,video:1x8x8,text:3,video:1x8x8,text:2", "--model", "qwen3-vl"}
            << QStringList{"--width", "1280", "--height", "720"};
    }
    void idsDrawnAreComputePositions() {
        QFETCH(QStringList, layout);
        QFETCH(QStringList, look);
        const auto c = runPoslab(QStringList{"compute", "positions"} + layout);
        QVERIFY2(c.code == 0, qPrintable(c.describe()));
        const QJsonArray ids = c.json().value("position_ids").toArray();
        const qint64 n = ids[0].toArray().size();
        QTemporaryDir dir;
        const QString out = dir.filePath("p.json");
        const auto f = runPoslab(QStringList{"figure", "positions"} + layout + look + QStringList{"-o", out});
        QVERIFY2(f.code == 0, qPrintable(f.describe()));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject fig = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonObject view = fig.value("views").toObject().value("positions").toObject();
        QCOMPARE(view.value("position_ids").toArray(), ids);
        QCOMPARE(view.value("rope_deltas").toInteger(), c.json().value("rope_deltas").toInteger());
        const poslab::ui::LayoutReport report = reportOf(fig);

        qint64 next = 0;
        for (const auto& v : view.value("strip").toArray()) {
            const QJsonObject cell = v.toObject();
            const qint64 from = cell.value("from").toInteger(), count = cell.value("count").toInteger();
            QCOMPARE(from, next);
            next += count;
            const QStringList texts = textsIn(report, rectOf(cell.value("rect")));
            if (count == 1)
                QCOMPARE(texts, (QStringList{QString::number(from), id(ids, 0, from), id(ids, 1, from), id(ids, 2, from)}));
            else
                QCOMPARE(texts, QStringList{QStringLiteral("+%1").arg(count)});
        }
        QCOMPARE(next, n);
        const QJsonArray grids = view.value("grids").toArray();
        QVERIFY(!grids.isEmpty());
        for (const auto& v : grids) {
            const QJsonObject g = v.toObject();
            if (!g.value("ids_in_cells").toBool()) continue;
            const QRectF cells = rectOf(g.value("rect"));
            const qint64 rows = g.value("rows").toInteger(), cols = g.value("cols").toInteger(), first = g.value("first_token").toInteger();
            const double side = cells.width() / double(cols);
            for (qint64 r = 0; r < rows; ++r)
                for (qint64 col = 0; col < cols; ++col) {
                    const qint64 k = first + r * cols + col;
                    QCOMPARE(textsIn(report, QRectF(cells.left() + side * col, cells.top() + side * r, side, side)),
                             (QStringList{id(ids, 0, k), id(ids, 1, k), id(ids, 2, k)}));
                }
        }
        const QStringList problems = poslab::ui::layoutProblems(report);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 6).join('\n')));
    }

    // A small layout fills its figure sensibly: the grid grows into the room (at least a quarter
    // of the figure's width and height at 1600 × 1000) and starts at the left under the strip, as
    // its title does, instead of a small grid right of the centre in an empty figure.
    void smallLayoutFillsTheFigure_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("text3 image1x4x6 text2 1600x1000") << QStringList{"--tokens", "text:3,image:1x4x6,text:2"};
        QTest::newRow("text2 image1x4x4 text1 1920x1080 projector")
            << QStringList{"--tokens", "text:2,image:1x4x4,text:1", "--width", "1920", "--height", "1080", "--theme", "projector"};
    }
    void smallLayoutFillsTheFigure() {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString out = dir.filePath("p.json");
        const auto f = runPoslab(QStringList{"figure", "positions"} + args + QStringList{"-o", out});
        QVERIFY2(f.code == 0, qPrintable(f.describe()));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject fig = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonObject view = fig.value("views").toObject().value("positions").toObject();
        const double width = args.contains("--width") ? args[args.indexOf("--width") + 1].toDouble() : 1600;
        const double height = args.contains("--height") ? args[args.indexOf("--height") + 1].toDouble() : 1000;
        const QJsonArray grids = view.value("grids").toArray();
        QCOMPARE(grids.size(), 1);
        const QRectF g = rectOf(grids[0].toObject().value("rect"));
        QVERIFY2(g.width() >= 0.25 * width && g.height() >= 0.25 * height,
                 qPrintable(QStringLiteral("grid %1 × %2 in %3 × %4").arg(g.width()).arg(g.height()).arg(width).arg(height)));
        QVERIFY2(grids[0].toObject().value("ids_in_cells").toBool(), "the ids in the cells");
        const QRectF first = rectOf(view.value("strip").toArray()[0].toObject().value("rect"));
        QVERIFY2(g.left() <= first.left() + 1 && g.left() < 0.1 * width,
                 qPrintable(QStringLiteral("grid at x = %1, strip at %2").arg(g.left()).arg(first.left())));
        const QStringList problems = poslab::ui::layoutProblems(reportOf(fig));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 6).join('\n')));
    }

    // figure heatmap --tokens: the cells are compute scores --tokens' scores (each token rotated by
    // its own ids), N the layout's count.
    void heatmapTokensAreComputeScores_data() {
        QTest::addColumn<QStringList>("layout");
        QTest::newRow("qwen2-vl text4 image1x4x4 text4") << QStringList{"--tokens", "text:4,image:1x4x4,text:4", "--mrope-section", "8,12,12"};
        QTest::newRow("qwen3-vl interleaved frames")
            << QStringList{"--tokens", "text:3,video:1x4x6,text:2,video:1x4x6,text:1", "--model", "qwen3-vl", "--mrope-section", "12,10,10"};
        QTest::newRow("sectioned random content")
            << QStringList{"--tokens", "text:5,image:1x6x4,text:3", "--mrope-section", "4,14,14", "--content", "random"};
    }
    void heatmapTokensAreComputeScores() {
        QFETCH(QStringList, layout);
        const auto c = runPoslab(QStringList{"compute", "scores", "--method", "rope", "--dim", "64"} + layout);
        QVERIFY2(c.code == 0, qPrintable(c.describe()));
        const QJsonArray scores = c.json().value("scores").toArray();
        QTemporaryDir dir;
        const auto f = runPoslab(QStringList{"figure", "heatmap"} + layout + QStringList{"-o", dir.filePath("h.json")});
        QVERIFY2(f.code == 0, qPrintable(f.describe()));
        QFile file(dir.filePath("h.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject heat = QJsonDocument::fromJson(file.readAll()).object().value("views").toObject().value("heatmap").toObject();
        QCOMPARE(heat.value("length").toInteger(), qint64(scores.size()));
        const QJsonArray values = heat.value("panels").toArray()[0].toObject().value("values").toArray();
        QCOMPARE(values.size(), scores.size());
        for (qsizetype i = 0; i < scores.size(); ++i)
            for (qsizetype j = 0; j < scores.size(); ++j)
                QCOMPARE(values[i].toArray()[j].toDouble(), scores[i].toArray()[j].toDouble());
        // Without --tokens the same scene is plain RoPE: the image's tokens change the scores.
        const auto plain = runPoslab({"compute", "scores", "--method", "rope", "--dim", "64", "--length", QString::number(scores.size())});
        QVERIFY(plain.json().value("scores").toArray() != scores);
    }

    // figure frequencies --tokens: each pair's axis in the legend, the text apart.
    void frequenciesNameTheAxes_data() {
        QTest::addColumn<QStringList>("layout");
        QTest::newRow("sectioned 8,12,12") << QStringList{"--tokens", "text:4,image:1x4x4,text:4", "--mrope-section", "8,12,12"};
        QTest::newRow("interleaved qwen3") << QStringList{"--tokens", "text:4,image:1x4x4,text:4", "--model", "qwen3-vl", "--mrope-section", "12,10,10"};
    }
    void frequenciesNameTheAxes() {
        QFETCH(QStringList, layout);
        QTemporaryDir dir;
        const auto f = runPoslab(QStringList{"figure", "frequencies"} + layout + QStringList{"-o", dir.filePath("f.json")});
        QVERIFY2(f.code == 0, qPrintable(f.describe()));
        QFile file(dir.filePath("f.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const poslab::ui::LayoutReport report = reportOf(QJsonDocument::fromJson(file.readAll()).object());
        QStringList texts;
        for (const auto& item : report.items) texts << item.text;
        for (const char* axis : {"t (time)", "h (row)", "w (column)"}) QVERIFY2(texts.contains(axis), qPrintable(texts.join('|')));
        const bool interleaved = layout.contains("qwen3-vl");
        QVERIFY2(texts.join(' ').contains(interleaved ? "interleaved 12,10,10" : "sectioned 8,12,12"), qPrintable(texts.join('|')));
        const QStringList problems = poslab::ui::layoutProblems(report);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 6).join('\n')));
    }

    // Compare mode: two Qwen-VL configs over one layout, each configuration with its own file's
    // sections (cli.md "Multimodal positions"): Qwen2-VL's sectioned 16,24,24 beside Qwen3-VL's
    // interleaved 24,20,20, each panel's pairs coloured by its own axes; the scene the figure
    // embeds keeps each configuration's sections.
    void compareSectionedBesideInterleaved() {
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QByteArray& json) {
            QFile f(dir.filePath(name));
            if (!f.open(QIODevice::WriteOnly)) return QString();
            f.write(json);
            return dir.filePath(name);
        };
        const QString q2 = write("qwen2-vl.json", R"({"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28,
            "rope_theta": 1000000.0, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}, "vision_config": {"spatial_merge_size": 2}})");
        const QString q3 = write("qwen3-vl.json", R"({"model_type": "qwen3_vl", "text_config": {"model_type": "qwen3_vl_text", "head_dim": 128,
            "hidden_size": 2048, "num_attention_heads": 16, "rope_parameters": {"rope_type": "default", "rope_theta": 5000000,
            "mrope_section": [24, 20, 20], "mrope_interleaved": true}}, "vision_config": {"spatial_merge_size": 2}})");
        const auto f = runPoslab({"figure", "frequencies", "--config", q2, "--config", q3, "--tokens", "text:4,image:1x4x4,text:4", "-o",
                                  dir.filePath("f.json")});
        QVERIFY2(f.code == 0, qPrintable(f.describe()));
        QFile file(dir.filePath("f.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject fig = QJsonDocument::fromJson(file.readAll()).object();
        const poslab::ui::LayoutReport report = reportOf(fig);
        QString all;
        for (const auto& item : report.items) all += item.text + QLatin1Char('|');
        QVERIFY2(all.contains("sectioned 16,24,24"), qPrintable(all));
        QVERIFY2(all.contains("interleaved 24,20,20"), qPrintable(all));
        const QStringList problems = poslab::ui::layoutProblems(report);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 6).join('\n')));
        // The embedded scene: each configuration's own sections.
        const QJsonArray methods =
            fig.value("session").toObject().value("scenes").toArray()[0].toObject().value("methods").toArray();
        QCOMPARE(methods.size(), 2);
        QCOMPARE(methods[0].toObject().value("mrope").toObject().value("mrope_section").toArray(), (QJsonArray{16, 24, 24}));
        QCOMPARE(methods[0].toObject().value("mrope").toObject().value("mrope_layout").toString(), QStringLiteral("sectioned"));
        QCOMPARE(methods[1].toObject().value("mrope").toObject().value("mrope_section").toArray(), (QJsonArray{24, 20, 20}));
        QCOMPARE(methods[1].toObject().value("mrope").toObject().value("mrope_layout").toString(), QStringLiteral("interleaved"));
    }

    void figureTokensRefused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("names");
        QTest::newRow("pairs --tokens") << QStringList{"pairs", "--tokens", "text:4", "--mrope-section", "8,12,12"} << "--tokens";
        // Refused by choice, and the message says why: the arrows would be plain RoPE's at the ids.
        QTest::newRow("pairs --tokens says why") << QStringList{"pairs", "--tokens", "text:4,image:1x2x2", "--mrope-section", "8,12,12"}
                                                 << "the same arrows at that id";
        QTest::newRow("heatmap no section") << QStringList{"heatmap", "--tokens", "text:4,image:1x2x2"} << "--mrope-section";
        QTest::newRow("heatmap length 5") << QStringList{"heatmap", "--tokens", "text:4", "--mrope-section", "8,12,12", "--length", "5"}
                                          << "--length";
        QTest::newRow("heatmap section sum") << QStringList{"heatmap", "--tokens", "text:4", "--mrope-section", "8,12,11"} << "--mrope-section";
        QTest::newRow("heatmap section without tokens") << QStringList{"heatmap", "--mrope-section", "8,12,12"} << "--mrope-section";
        QTest::newRow("heatmap alibi tokens") << QStringList{"heatmap", "--method", "alibi", "--tokens", "text:4"} << "--tokens";
        QTest::newRow("decay odd grid") << QStringList{"decay", "--tokens", "text:1,image:1x3x4", "--mrope-section", "8,12,12"} << "--tokens";
    }
    void figureTokensRefused() {
        QFETCH(QStringList, args);
        QFETCH(QString, names);
        QTemporaryDir dir;
        const auto r = runPoslab(QStringList{"figure"} + args + QStringList{"-o", dir.filePath("f.png")});
        EXPECT_REFUSAL_NAMING(r, names);
        QVERIFY(!QFileInfo::exists(dir.filePath("f.png")));
    }

    void formats_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << "p.png" << QByteArray("\x89PNG");
        QTest::newRow("svg") << "p.svg" << QByteArray("<?xml");
        QTest::newRow("pdf") << "p.pdf" << QByteArray("%PDF");
    }
    void formats() {
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        QTemporaryDir dir;
        const auto f = runPoslab({"figure", "positions", "--tokens", "text:3,image:1x4x6,text:2", "-o", dir.filePath(name)});
        EXPECT_FIGURE_FILE(f, dir.filePath(name), magic);
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("names");
        QTest::newRow("no tokens") << QStringList{} << "--tokens";
        QTest::newRow("imag:1x4x6") << QStringList{"--tokens", "imag:1x4x6"} << "--tokens";
        QTest::newRow("image:1x3x4") << QStringList{"--tokens", "text:1,image:1x3x4"} << "--tokens";
        QTest::newRow("image,image") << QStringList{"--tokens", "image:1x2x2,image:1x2x2"} << "--tokens";
        QTest::newRow("qwen3 video:2x2x2") << QStringList{"--tokens", "video:2x2x2", "--model", "qwen3-vl"} << "--tokens";
        QTest::newRow("merge text only") << QStringList{"--tokens", "text:4", "--merge", "1"} << "--merge";
        QTest::newRow("model qwen4") << QStringList{"--tokens", "text:4", "--model", "qwen4"} << "--model";
        QTest::newRow("output .csv") << QStringList{"--tokens", "text:4", "-o", "x.csv"} << "--output";
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, names);
        QTemporaryDir dir;
        if (!args.contains("-o")) args << "-o" << dir.filePath("p.png");
        const auto r = runPoslab(QStringList{"figure", "positions"} + args, testsupport::PoslabRunOptions({}, dir.path()));
        EXPECT_REFUSAL_NAMING(r, names);
        QVERIFY(!QFileInfo::exists(dir.filePath("p.png")));
    }
};

QTEST_GUILESS_MAIN(TestFigurePositions)
#include "test_figure_positions.moc"
