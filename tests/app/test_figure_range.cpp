// `poslab figure heatmap|decay --range A:B [--key-range A:B]` (cli.md, "What figure writes for
// long ranges"): the figure draws just that window, which its JSON shows (the plotted positions
// and distances are exactly the window) and which its embedded scene carries; a bad window is
// exit 2 with one line naming the option and the valid range.
#include "support/runposlab.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {


using Run = testsupport::PoslabRun;
using testsupport::runPoslab;

QString describe(const Run& r) { return r.describe(); }

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The value at a path of object keys ("views/heatmap/panels").
QJsonValue at(const QJsonObject& o, const QString& path) {
    QJsonValue v = o;
    for (const auto& key : path.split(QLatin1Char('/'))) v = v.toObject().value(key);
    return v;
}

QList<qint64> integers(const QJsonValue& v) {
    QList<qint64> out;
    for (const auto& x : v.toArray()) out << x.toInteger(-1);
    return out;
}

QList<qint64> arange(qint64 a, qint64 b) {
    QList<qint64> out;
    for (qint64 x = a; x < b; ++x) out << x;
    return out;
}

}  // namespace

class TestFigureRange : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void heatmapDrawsExactlyTheWindow_data() {
        QTest::addColumn<QStringList>("method");
        QTest::addColumn<QString>("range");
        QTest::addColumn<QString>("keyRange");   // empty: not given (keys = --range)
        QTest::addColumn<qint64>("length");
        const QList<QStringList> methods = {{"--method", "rope"}, {"--method", "alibi"}, {"--method", "t5"},
                                            {"--method", "xpos"}, {"--method", "sinusoidal"},
                                            {"--method", "rope", "--content", "random", "--softmax", "--causal"}};
        for (const auto& m : methods) {
            const QString name = m.join(QLatin1Char(' ')).mid(9);
            QTest::newRow(qPrintable(name + QStringLiteral(" --range 10:14 --key-range 0:5"))) << m << "10:14" << "0:5" << qint64(64);
            QTest::newRow(qPrintable(name + QStringLiteral(" --range 60:64"))) << m << "60:64" << "" << qint64(64);
        }
        QTest::newRow("rope N=200 --range 150:180 --key-range 0:1") << QStringList{"--method", "rope"} << "150:180" << "0:1" << qint64(200);
    }
    void heatmapDrawsExactlyTheWindow() {
        QFETCH(QStringList, method);
        QFETCH(QString, range);
        QFETCH(QString, keyRange);
        QFETCH(qint64, length);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("h.json"));
        QStringList args = QStringList{"figure", "heatmap", "--length", QString::number(length), "--range", range} + method;
        if (!keyRange.isEmpty()) args << "--key-range" << keyRange;
        args << "-o" << out;
        const Run r = runPoslab(args);
        QVERIFY2(r.code == 0 && r.err.isEmpty() && r.out.isEmpty(), qPrintable(describe(r)));
        const QJsonObject doc = readJson(out);
        const QJsonObject panel = at(doc, QStringLiteral("views/heatmap/panels")).toArray().at(0).toObject();
        const auto ab = range.split(QLatin1Char(':'));
        const auto kab = (keyRange.isEmpty() ? range : keyRange).split(QLatin1Char(':'));
        const qint64 q0 = ab[0].toLongLong(), k0 = kab[0].toLongLong();
        QCOMPARE(panel["aggregate"].toString(), QStringLiteral("exact"));
        QCOMPARE(integers(panel["queries"]), arange(q0, ab[1].toLongLong()));
        QCOMPARE(integers(panel["keys"]), arange(k0, kab[1].toLongLong()));
        const QJsonArray values = panel["values"].toArray();
        QCOMPARE(values.size(), qsizetype(ab[1].toLongLong() - q0));
        // The same values as the whole figure's at those cells (masked cells null in both).
        const QString full = dir.filePath(QStringLiteral("full.json"));
        const Run rf = runPoslab(QStringList{"figure", "heatmap", "--length", QString::number(length)} + method + QStringList{"-o", full});
        QVERIFY2(rf.code == 0, qPrintable(describe(rf)));
        const QJsonObject fullPanel = at(readJson(full), QStringLiteral("views/heatmap/panels")).toArray().at(0).toObject();
        QCOMPARE(fullPanel["aggregate"].toString(), QStringLiteral("exact"));
        const QJsonArray fullValues = fullPanel["values"].toArray();
        QCOMPARE(fullValues.size(), qsizetype(length));
        for (qsizetype i = 0; i < values.size(); ++i) {
            const QJsonArray row = values.at(i).toArray(), fullRow = fullValues.at(q0 + i).toArray();
            QCOMPARE(row.size(), qsizetype(kab[1].toLongLong() - k0));
            for (qsizetype j = 0; j < row.size(); ++j)
                QVERIFY2(row.at(j) == fullRow.at(k0 + j),
                         qPrintable(QStringLiteral("cell i %1 j %2: %3 != %4").arg(q0 + i).arg(k0 + j)
                                        .arg(row.at(j).toDouble(), 0, 'g', 17).arg(fullRow.at(k0 + j).toDouble(), 0, 'g', 17)));
        }
        // The embedded scene carries the window, so `--session FIGURE` draws it again.
        const QJsonObject view = at(doc, QStringLiteral("session/scenes")).toArray().at(0).toObject()["view"].toObject();
        QCOMPARE(view["heatmap_query_from"].isNull() ? 0 : view["heatmap_query_from"].toInteger(-1), q0);
        QCOMPARE(view["heatmap_key_from"].isNull() ? 0 : view["heatmap_key_from"].toInteger(-1), k0);
        const QString again = dir.filePath(QStringLiteral("again.json"));
        const Run r2 = runPoslab({"figure", "heatmap", "--session", out, "-o", again});
        QVERIFY2(r2.code == 0, qPrintable(describe(r2)));
        const QJsonObject againPanel = at(readJson(again), QStringLiteral("views/heatmap/panels")).toArray().at(0).toObject();
        QCOMPARE(againPanel["queries"], panel["queries"]);
        QCOMPARE(againPanel["keys"], panel["keys"]);
        QCOMPARE(againPanel["values"], panel["values"]);
    }

    // A long window is aggregated like the whole matrix: blocks within the window only.
    void heatmapAggregatesWithinALongWindow() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("h.json"));
        const Run r = runPoslab({"figure", "heatmap", "--method", "alibi", "--length", "65536", "--range", "1000:9000",
                                 "--key-range", "60000:65536", "--aggregate", "max", "-o", out});
        QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(describe(r)));
        const QJsonObject panel = at(readJson(out), QStringLiteral("views/heatmap/panels")).toArray().at(0).toObject();
        QCOMPARE(panel["aggregate"].toString(), QStringLiteral("max"));
        const QJsonArray qr = panel["query_ranges"].toArray(), kr = panel["key_ranges"].toArray();
        QVERIFY(qr.size() > 1 && kr.size() > 1);
        QCOMPARE(qr.first().toArray().at(0).toInteger(), qint64(1000));
        QCOMPARE(qr.last().toArray().at(1).toInteger(), qint64(9000));
        QCOMPARE(kr.first().toArray().at(0).toInteger(), qint64(60000));
        QCOMPARE(kr.last().toArray().at(1).toInteger(), qint64(65536));
        // Consecutive blocks tiling the window, one row of values per query block.
        for (qsizetype i = 1; i < qr.size(); ++i) QCOMPARE(qr.at(i).toArray().at(0), qr.at(i - 1).toArray().at(1));
        for (qsizetype j = 1; j < kr.size(); ++j) QCOMPARE(kr.at(j).toArray().at(0), kr.at(j - 1).toArray().at(1));
        const QJsonArray values = panel["values"].toArray();
        QCOMPARE(values.size(), qr.size());
        QCOMPARE(values.at(0).toArray().size(), kr.size());
    }

    void decayDrawsExactlyTheWindow_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("range");
        QTest::addColumn<qint64>("first");   // the distances plotted: first .. last
        QTest::addColumn<qint64>("last");
        QTest::newRow("rope 100:140") << QStringList{"--method", "rope"} << "100:140" << qint64(100) << qint64(139);
        QTest::newRow("alibi 0:3") << QStringList{"--method", "alibi"} << "0:3" << qint64(0) << qint64(2);
        QTest::newRow("t5 250:257") << QStringList{"--method", "t5"} << "250:257" << qint64(250) << qint64(256);
        QTest::newRow("transformer-xl 7:8") << QStringList{"--method", "transformer-xl"} << "7:8" << qint64(7) << qint64(7);
        QTest::newRow("rope --max-distance 100000 99000:99500")
            << QStringList{"--method", "rope", "--max-distance", "100000"} << "99000:99500" << qint64(99000) << qint64(99499);
        QTest::newRow("xpos --max-distance 131072 65536:65600")
            << QStringList{"--method", "xpos", "--max-distance", "131072"} << "65536:65600" << qint64(65536) << qint64(65599);
        QTest::newRow("rope --log-x 0:20 (log axis starts at 1)") << QStringList{"--method", "rope", "--log-x"} << "0:20" << qint64(1) << qint64(19);
    }
    void decayDrawsExactlyTheWindow() {
        QFETCH(QStringList, options);
        QFETCH(QString, range);
        QFETCH(qint64, first);
        QFETCH(qint64, last);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("d.json"));
        const Run r = runPoslab(QStringList{"figure", "decay", "--range", range} + options + QStringList{"-o", out});
        QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(describe(r)));
        const QJsonObject series = at(readJson(out), QStringLiteral("views/decay/series")).toArray().at(0).toObject();
        QCOMPARE(integers(series["distance"]), arange(first, last + 1));
        QCOMPARE(integers(series["distance_from"]), arange(first, last + 1));
        QCOMPARE(integers(series["distance_to"]), arange(first, last + 1));
        const QJsonArray value = series["value"].toArray();
        QCOMPARE(value.size(), qsizetype(last + 1 - first));
        // The whole figure's columns hold these values: equal where a column is one distance,
        // within its exact envelope [value_min, value_max] where it covers several.
        const QString full = dir.filePath(QStringLiteral("full.json"));
        const Run rf = runPoslab(QStringList{"figure", "decay"} + options + QStringList{"-o", full});
        QVERIFY2(rf.code == 0, qPrintable(describe(rf)));
        const QJsonObject whole = at(readJson(full), QStringLiteral("views/decay/series")).toArray().at(0).toObject();
        const QList<qint64> from = integers(whole["distance_from"]), to = integers(whole["distance_to"]);
        const QJsonArray lo = whole["value_min"].toArray(), hi = whole["value_max"].toArray();
        qsizetype c = 0;
        for (qint64 x = first; x <= last; ++x) {
            while (c < from.size() && to[c] < x) ++c;
            QVERIFY2(c < from.size() && from[c] <= x, qPrintable(QStringLiteral("distance %1 not in the whole figure").arg(x)));
            const double v = value.at(x - first).toDouble();
            if (from[c] == to[c])
                QCOMPARE(v, lo.at(c).toDouble());
            else
                QVERIFY2(lo.at(c).toDouble() <= v && v <= hi.at(c).toDouble(),
                         qPrintable(QStringLiteral("distance %1: %2 outside [%3, %4]").arg(x).arg(v).arg(lo.at(c).toDouble()).arg(hi.at(c).toDouble())));
        }
    }

    void badWindowsAreOneLineNamingTheOption_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("heatmap --range 10:100 past N") << QStringList{"heatmap", "--range", "10:100"}
                                                        << QByteArray("poslab: error: invalid --range, A:B with 0 <= A < B <= 64 (positions 0 … N−1, N = 64), got 10:100\n");
        QTest::newRow("heatmap --range 5:5 empty") << QStringList{"heatmap", "--range", "5:5"} << QByteArray("invalid --range, A:B with 0 <= A < B <= 64");
        QTest::newRow("heatmap --range 9:3 reversed") << QStringList{"heatmap", "--range", "9:3"} << QByteArray("got 9:3\n");
        QTest::newRow("heatmap --range -1:3") << QStringList{"heatmap", "--range", "-1:3"} << QByteArray("invalid --range");
        QTest::newRow("heatmap --range 3") << QStringList{"heatmap", "--range", "3"} << QByteArray("invalid --range");
        QTest::newRow("heatmap --range a:b") << QStringList{"heatmap", "--range", "a:b"} << QByteArray("got a:b\n");
        QTest::newRow("heatmap --key-range 0:65 past N") << QStringList{"heatmap", "--key-range", "0:65"}
                                                          << QByteArray("invalid --key-range, A:B with 0 <= A < B <= 64");
        QTest::newRow("heatmap --length 10 --range 0:11") << QStringList{"heatmap", "--length", "10", "--range", "0:11"}
                                                           << QByteArray("B <= 10 (positions 0 … N−1, N = 10), got 0:11");
        QTest::newRow("decay --range 0:258 past max distance + 1")
            << QStringList{"decay", "--range", "0:258"}
            << QByteArray("poslab: error: invalid --range, A:B with 0 <= A < B <= 257 (distances 0 … 256, the max distance), got 0:258\n");
        QTest::newRow("decay --key-range") << QStringList{"decay", "--key-range", "0:5"} << QByteArray("--key-range");
        QTest::newRow("pairs --range") << QStringList{"pairs", "--range", "0:5"} << QByteArray("--range draws a window of figure heatmap or decay");
        QTest::newRow("all --range") << QStringList{"all", "--range", "0:5"} << QByteArray("got all\n");
        // A view whose every panel is refused (softmax at N = 1048575: each sampled row needs all
        // N keys) is the refusal, not a picture of it.
        QTest::newRow("heatmap --softmax --length 1048575 past the work limit")
            << QStringList{"heatmap", "--softmax", "--length", "1048575"}
            << QByteArray("poslab: error: invalid --length for the heatmap view, a sample within the work limit (17179869184 "
                          "multiply-adds; softmax normalises each sampled row over all N keys), got 1048575");
        QTest::newRow("heatmap csv --softmax --length 1048575")
            << QStringList{"heatmap", "--softmax", "--length", "1048575", "--format-is-csv"} << QByteArray("invalid --length for the heatmap view");
    }
    void badWindowsAreOneLineNamingTheOption() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, line);
        QTemporaryDir dir;
        const QString file = dir.filePath(args.removeAll(QStringLiteral("--format-is-csv")) ? QStringLiteral("x.csv") : QStringLiteral("x.png"));
        const Run r = runPoslab(QStringList{"figure"} + args + QStringList{"-o", file});
        QVERIFY2(r.code == 2 && r.out.isEmpty() && r.err.count('\n') == 1 && r.err.startsWith("poslab: error: "), qPrintable(describe(r)));
        QVERIFY2(r.err.contains(line), qPrintable(describe(r) + QStringLiteral(" wanted ") + QString::fromUtf8(line)));
        QVERIFY(!QFile::exists(file));
    }

    // `figure all` with one refused view still draws the others (the refused one says why).
    void allDrawsTheViewsThatCanBeComputed() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("all.json"));
        const Run r = runPoslab({"figure", "all", "--softmax", "--length", "1048575", "-o", file});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject views = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("views")).toObject();
        QVERIFY(views.contains(QStringLiteral("heatmap")) && views.contains(QStringLiteral("decay")));
        QVERIFY(QJsonDocument(views.value(QStringLiteral("heatmap")).toObject()).toJson().contains("work limit"));
    }

    void helpListsTheWindowOptions() {
        const Run r = runPoslab({"figure", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("--range A:B"));
        QVERIFY(r.out.contains("--key-range A:B"));
    }
};

QTEST_MAIN(TestFigureRange)
#include "test_figure_range.moc"
