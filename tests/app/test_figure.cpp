// `poslab figure`: every view in every format from the command line, without a display; the
// scene from a session or from a figure; the batch form; refusing to overwrite without --force;
// exit codes and one-line errors as cli.md states.
#include "support/runposlab.h"
#include <QApplication>
#include <QBuffer>
#include <QImage>
#include <QDir>
#include <QFile>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "ui/io/presets.h"
#include "ui/io/export.h"
#include "ui/io/session.h"

using namespace poslab;
using namespace poslab::ui;

namespace {


using Run = testsupport::PoslabRun;
Run runPoslab(const QStringList& args, const QString& cwd = QString()) { return testsupport::runPoslab(args, {{}, cwd}); }

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString describe(const Run& r) { return r.describe(); }

// One stderr line "poslab: error: ..." and nothing on stdout.
#define VERIFY_ERROR(run, exitCode, fragment)                                                             \
    do {                                                                                                  \
        QVERIFY2((run).code == (exitCode), qPrintable(describe(run)));                                    \
        QVERIFY2((run).out.isEmpty(), qPrintable(describe(run)));                                         \
        QVERIFY2((run).err.startsWith("poslab: error: ") && (run).err.count('\n') == 1,                   \
                 qPrintable(describe(run)));                                                              \
        QVERIFY2((run).err.contains(fragment), qPrintable(describe(run) + QStringLiteral(" wanted: ") + QString::fromUtf8(fragment))); \
    } while (0)

SceneParams customScene() {
    SceneParams s;
    s.methods.front().params.method = Method::Alibi;
    s.methods.front().params.dim = 8;
    s.methods.front().params.alibi.heads = 4;
    s.head = 2;
    s.length = 40;
    s.positions = {0, 5, 10};
    s.view.causal = true;
    s.view.theme = QStringLiteral("dark");
    return s;
}

// A PNG image carrying `sessionText` under PosLab's key (what a figure carries), as Qt writes it.
QByteArray pngWithSession(const QByteArray& sessionText) {
    QImage img(80, 60, QImage::Format_RGB32);
    img.fill(Qt::white);
    if (!sessionText.isNull()) img.setText(QStringLiteral("poslab-session"), QString::fromUtf8(sessionText));
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    img.save(&buffer, "PNG");
    return out;
}

// Offset of the first chunk of `type` in a PNG (its length field), or −1.
qsizetype pngChunk(const QByteArray& png, const char* type) {
    qsizetype i = 8;
    while (i + 8 <= png.size()) {
        const quint32 n = (quint32(quint8(png[i])) << 24) | (quint32(quint8(png[i + 1])) << 16) |
                          (quint32(quint8(png[i + 2])) << 8) | quint32(quint8(png[i + 3]));
        if (png.mid(i + 4, 4) == type) return i;
        i += 12 + qsizetype(n);
    }
    return -1;
}

// Recomputes the CRC of the chunk at `at` (after an edit that must not be caught by the CRC).
void fixCrc(QByteArray& png, qsizetype at) {
    const quint32 n = (quint32(quint8(png[at])) << 24) | (quint32(quint8(png[at + 1])) << 16) |
                      (quint32(quint8(png[at + 2])) << 8) | quint32(quint8(png[at + 3]));
    quint32 c = 0xffffffffu;
    for (qsizetype k = at + 4; k < at + 8 + qsizetype(n); ++k) {
        c ^= quint8(png[k]);
        for (int b = 0; b < 8; ++b) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    c ^= 0xffffffffu;
    for (int b = 0; b < 4; ++b) png[at + 8 + qsizetype(n) + b] = char((c >> (24 - 8 * b)) & 0xff);
}

}  // namespace

class TestFigure : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void helpListsViewsAndOptions();
    void decayEnvelopeIsTheWholeCurve_data();
    void decayEnvelopeIsTheWholeCurve();
    void heatmapAggregateOption();
    void precisionScoreErrorPanel();
    void everyViewEveryFormat_data();
    void everyViewEveryFormat();
    void everyMethodFromASession_data();
    void everyMethodFromASession();
    void compareConfigurationsFromASession_data();
    void compareConfigurationsFromASession();
    void sizeDpiThemeOptions();
    void sessionGivesTheSameFigureAsTheLibrary();
    void sceneFromAnExportedFigure();
    void sceneOptionsApply();
    void deckSceneIndex();
    void presetSetsTheMethod();
    void configSetsTheConfiguration();
    void methodOptionsAsCompute_data();
    void methodOptionsAsCompute();
    void methodOptionErrors_data();
    void methodOptionErrors();
    void numbersAsCompute_data();
    void numbersAsCompute();
    void refusesToOverwriteWithoutForce();
    void errors_data();
    void errors();
    void malformedSessions_data();
    void malformedSessions();
    void damagedFiguresAsSession_data();
    void damagedFiguresAsSession();
    void warningsAreOneLineEach();
    void batch();
    void batchCheckedBeforeWriting();
    void realQueriesAndKeysInEveryView();
};

void TestFigure::helpListsViewsAndOptions() {
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("--help")});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    QVERIFY(r.err.isEmpty());
    for (const char* s : {"pairs", "heatmap", "decay", "frequencies", "all", "--output", "--force", "--session", "--width",
                          "--height", "--dpi", "--theme", "--batch", ".png", ".svg", ".pdf", ".csv", ".json"})
        QVERIFY2(r.out.contains(s), s);
}

void TestFigure::decayEnvelopeIsTheWholeCurve_data() {
    // Method options given to both `compute decay` (the whole curve, every integer distance) and
    // `figure decay` (about 1 200 columns of many distances each).
    QTest::addColumn<QStringList>("method");
    QTest::addColumn<int>("maxDistance");
    QTest::newRow("llama-3.1-8b_131072") << QStringList{"--preset", "llama-3.1-8b"} << 131072;
    QTest::newRow("rope_double_dim128_50000")
        << QStringList{"--method", "rope", "--dim", "128", "--content", "ones", "--precision", "double"} << 50000;
    QTest::newRow("sinusoidal_dim64_30001") << QStringList{"--method", "sinusoidal", "--dim", "64"} << 30001;
    QTest::newRow("xpos_dim64_20000")
        << QStringList{"--method", "xpos", "--dim", "64", "--content", "random", "--scale-base", "65536"} << 20000;
    QTest::newRow("transformer_xl_dim32_40000") << QStringList{"--method", "transformer-xl", "--dim", "32", "--content", "formula"} << 40000;
    QTest::newRow("t5_9999") << QStringList{"--method", "t5"} << 9999;   // T5's curve is its bias alone: no --dim
}

void TestFigure::decayEnvelopeIsTheWholeCurve() {
    // Each exported column's value_min/value_max/value_mean are the min, max and mean of the full
    // curve over distance_from..distance_to; the columns tile 0..D; so the envelope's extremes are
    // the curve's. The same for the bound.
    QFETCH(QStringList, method);
    QFETCH(int, maxDistance);
    const QString d = QString::number(maxDistance);
    const Run full = runPoslab(QStringList{"compute", "decay", "--max-distance", d} + method);
    QVERIFY2(full.code == 0, qPrintable(describe(full)));
    const QJsonObject curve = QJsonDocument::fromJson(full.out).object();
    const QJsonArray value = curve.value("value").toArray();
    const QJsonArray bound = curve.value("bound").toArray();
    QCOMPARE(value.size(), qsizetype(maxDistance + 1));
    QTemporaryDir dir;
    const QString out = dir.filePath("d.json");
    const Run fig = runPoslab(QStringList{"figure", "decay", "--max-distance", d, "-o", out} + method);
    QVERIFY2(fig.code == 0, qPrintable(describe(fig)));
    const QJsonObject root = QJsonDocument::fromJson(readAll(out)).object();
    const QJsonObject s = root.value("views").toObject().value("decay").toObject().value("series").toArray().at(0).toObject();
    QCOMPARE(s.value("sampled").toBool(), false);
    const QJsonArray from = s.value("distance_from").toArray(), to = s.value("distance_to").toArray();
    QVERIFY(from.size() > 100 && from.size() <= 4096);
    QCOMPARE(from.at(0).toInteger(), qint64(0));
    QCOMPARE(to.at(to.size() - 1).toInteger(), qint64(maxDistance));
    double lo = 1e300, hi = -1e300, envLo = 1e300, envHi = -1e300;
    for (const auto& v : value) {
        lo = std::min(lo, v.toDouble());
        hi = std::max(hi, v.toDouble());
    }
    auto check = [&](const char* what, const QJsonArray& c) {
        const QString w = QString::fromLatin1(what);
        const QJsonArray mn = s.value(w + "_min").toArray(), mx = s.value(w + "_max").toArray(), mean = s.value(w + "_mean").toArray();
        QCOMPARE(mn.size(), from.size());
        for (qsizetype k = 0; k < from.size(); ++k) {
            if (k > 0) QCOMPARE(from.at(k).toInteger(), to.at(k - 1).toInteger() + 1);
            double a = 1e300, b = -1e300, sum = 0;
            for (qint64 x = from.at(k).toInteger(); x <= to.at(k).toInteger(); ++x) {
                const double v = c.at(x).toDouble();
                a = std::min(a, v);
                b = std::max(b, v);
                sum += v;
            }
            const double n = double(to.at(k).toInteger() - from.at(k).toInteger() + 1);
            // min and max are values of the curve: equal; the mean to rounding.
            QCOMPARE(mn.at(k).toDouble(), a);
            QCOMPARE(mx.at(k).toDouble(), b);
            QVERIFY2(std::abs(mean.at(k).toDouble() - sum / n) <= 1e-12 * (1 + std::abs(sum / n)),
                     qPrintable(QStringLiteral("%1 column %2: mean %3 vs %4").arg(w).arg(k).arg(mean.at(k).toDouble()).arg(sum / n)));
            if (w == QLatin1String("value")) {
                envLo = std::min(envLo, a);
                envHi = std::max(envHi, b);
            }
        }
    };
    check("value", value);
    QCOMPARE(envLo, lo);
    QCOMPARE(envHi, hi);
    if (!bound.isEmpty()) check("bound", bound);
    else QVERIFY(!s.contains("bound_min"));
}

void TestFigure::heatmapAggregateOption() {
    QTemporaryDir dir;
    const QString out = dir.filePath("h.json");
    Run r = runPoslab({"figure", "heatmap", "--length", "4096", "--precision", "double", "--aggregate", "max", "--width", "400",
                       "--height", "300", "-o", out});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    const QJsonObject panel = QJsonDocument::fromJson(readAll(out)).object().value("views").toObject().value("heatmap").toObject()
                                  .value("panels").toArray().at(0).toObject();
    QCOMPARE(panel.value("aggregate").toString(), QStringLiteral("max"));
    QVERIFY(panel.value("query_ranges").toArray().size() > 10);
    r = runPoslab({"figure", "heatmap", "--aggregate", "median", "-o", out});
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(r.err.trimmed(), QByteArray("poslab: error: invalid --aggregate, one of mean, max, min, got median"));
    r = runPoslab({"figure", "--help"});
    QVERIFY(r.out.contains("--aggregate"));
}

// `figure precision -o F.json` carries the score error heatmap like a heatmap panel: the
// statistic, the blocks it covers, and values equal to `compute scores` in the dtype minus in
// double (here one block's max, brute force over its cells).
void TestFigure::precisionScoreErrorPanel() {
    QTemporaryDir dir;
    const QString out = dir.filePath("p.json");
    const QStringList scene{"--method", "rope", "--dim", "16", "--length", "200", "--content", "random", "--seed", "2"};
    Run r = runPoslab(QStringList{"figure", "precision"} + scene +
                      QStringList{"--precision", "bfloat16", "--aggregate", "max", "--width", "700", "--height", "300", "-o", out});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    const QJsonObject panel = QJsonDocument::fromJson(readAll(out)).object().value("views").toObject().value("precision").toObject()
                                  .value("configs").toArray().at(0).toObject().value("score_error").toObject()
                                  .value("panels").toArray().at(0).toObject();
    QCOMPARE(panel.value("quantity").toString(), QStringLiteral("score error"));
    QCOMPARE(panel.value("aggregate").toString(), QStringLiteral("max"));
    const QJsonArray qr = panel.value("query_ranges").toArray(), kr = panel.value("key_ranges").toArray();
    QVERIFY2(qr.size() > 4 && qr.size() < 200, qPrintable(QString::number(qr.size())));
    QCOMPARE(kr.size(), qr.size());
    const auto scoresIn = [&](const char* precision) {
        const Run s = runPoslab(QStringList{"compute", "scores"} + scene + QStringList{"--precision", precision});
        return QJsonDocument::fromJson(s.out).object().value("scores").toArray();
    };
    const QJsonArray dtype = scoresIn("bfloat16"), exact = scoresIn("double");
    QCOMPARE(dtype.size(), 200);
    for (int b : {0, int(qr.size()) / 2}) {
        const int q0 = qr[b].toArray()[0].toInt(), q1 = qr[b].toArray()[1].toInt();
        const int k0 = kr[b + 1].toArray()[0].toInt(), k1 = kr[b + 1].toArray()[1].toInt();
        double want = -1e300;
        for (int i = q0; i < q1; ++i)
            for (int j = k0; j < k1; ++j)
                want = std::max(want, dtype[i].toArray()[j].toDouble() - exact[i].toArray()[j].toDouble());
        const double got = panel.value("values").toArray()[b].toArray()[b + 1].toDouble();
        QVERIFY2(std::abs(got - want) <= 1e-15, qPrintable(QString("block %1: %2 vs %3").arg(b).arg(got).arg(want)));
        QVERIFY(want != 0);
    }
}

void TestFigure::everyViewEveryFormat_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("format");
    QStringList views = viewKeys();
    views << QStringLiteral("all");
    for (const auto& v : views)
        for (const auto& f : exportFormatKeys()) QTest::newRow(qPrintable(v + QLatin1Char('_') + f)) << v << f;
}

void TestFigure::everyViewEveryFormat() {
    QFETCH(QString, view);
    QFETCH(QString, format);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("fig.") + format);
    const Run r = runPoslab({QStringLiteral("figure"), view, QStringLiteral("--width"), QStringLiteral("500"),
                          QStringLiteral("--height"), QStringLiteral("350"), QStringLiteral("-o"), out});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    QVERIFY2(r.out.isEmpty() && r.err.isEmpty(), qPrintable(describe(r)));
    const QByteArray bytes = readAll(out);
    if (format == QLatin1String("png")) {
        QImageReader reader(out);
        QVERIFY(reader.text(QStringLiteral("poslab-session")).startsWith(QStringLiteral("{\"format\":\"poslab-session\"")));
        QCOMPARE(reader.read().size(), QSize(500, 350));
    } else if (format == QLatin1String("svg")) {
        QXmlStreamReader xml(bytes);
        while (!xml.atEnd()) xml.readNext();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(bytes.contains("<poslab:session"));
    } else if (format == QLatin1String("pdf")) {
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.contains("<poslab:session>"));
    } else if (format == QLatin1String("csv")) {
        QVERIFY(bytes.startsWith("# PosLab "));
    } else {
        QJsonParseError pe{};
        const auto doc = QJsonDocument::fromJson(bytes, &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        QCOMPARE(doc.object().value(QStringLiteral("format")).toString(), QStringLiteral("poslab-data"));
    }
    // The default scene is what the figure carries.
    QString error;
    const auto s = sessionFromExport(out, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QVERIFY(s->scenes.front().scene == SceneParams{});
}

void TestFigure::everyMethodFromASession_data() {
    QTest::addColumn<int>("method");
    QTest::addColumn<QString>("format");
    for (Method m : kAllMethods)
        for (const auto& f : exportFormatKeys())
            QTest::newRow(qPrintable(QString::fromUtf8(std::string(methodKey(m)).c_str()) + QLatin1Char('_') + f)) << int(m) << f;
}

void TestFigure::everyMethodFromASession() {
    // All views of each method, from a session, in each format: the same bytes as the library
    // (vector and data formats; PNG: same pixels).
    QFETCH(int, method);
    QFETCH(QString, format);
    SceneParams scene;
    scene.methods.front().params.method = static_cast<Method>(method);
    scene.methods.front().params.dim = 16;
    scene.length = 40;
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("m.poslab"));
    QString error;
    QVERIFY2(saveSession(session, scene, &error), qPrintable(error));
    const QString out = dir.filePath(QStringLiteral("all.") + format);
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("all"), QStringLiteral("--session"), session,
                             QStringLiteral("--width=700"), QStringLiteral("--height=500"), QStringLiteral("-o"), out});
    QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(describe(r)));
    ExportRequest req;
    req.format = *exportFormatFromKey(format);
    req.pixels = QSize(700, 500);
    const auto expected = exportBytes(scene, req, &error);
    QVERIFY2(expected.has_value(), qPrintable(error));
    if (req.format == ExportFormat::Png) {
        QCOMPARE(QImage(out).convertToFormat(QImage::Format_ARGB32), QImage::fromData(*expected).convertToFormat(QImage::Format_ARGB32));
    } else if (req.format == ExportFormat::Pdf) {
        QVERIFY(readAll(out).startsWith("%PDF-"));   // (PDFs carry their creation time)
        QVERIFY(sessionFromExport(out, &error)->scenes.front().scene == scene);
    } else {
        QCOMPARE(readAll(out), *expected);
    }
}

void TestFigure::compareConfigurationsFromASession_data() {
    // The smallest compare-mode session, {"methods":[{},…]} with 1–4 default configurations, ×
    // every view and "all" × every format. Four configurations ended in SIGSEGV (heatmap and
    // all; the difference panels read configuration A after the panels had been reallocated).
    QTest::addColumn<int>("configs");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("format");
    QStringList views = viewKeys();
    views << QStringLiteral("all");
    for (int n = 1; n <= kMaxConfigs; ++n)
        for (const auto& v : views)
            for (const auto& f : exportFormatKeys())
                QTest::newRow(qPrintable(QStringLiteral("%1configs_%2_%3").arg(n).arg(v, f))) << n << v << f;
}

void TestFigure::compareConfigurationsFromASession() {
    QFETCH(int, configs);
    QFETCH(QString, view);
    QFETCH(QString, format);
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("s.poslab"));
    QStringList methods;
    for (int c = 0; c < configs; ++c) methods << QStringLiteral("{}");
    {
        QFile f(session);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[{\"methods\":[%1]}]}")
                    .arg(methods.join(QLatin1Char(','))).toUtf8());
    }
    const QString out = dir.filePath(QStringLiteral("fig.") + format);
    const Run r = runPoslab({QStringLiteral("figure"), view, QStringLiteral("--session"), session, QStringLiteral("--width=400"),
                             QStringLiteral("--height=300"), QStringLiteral("-o"), out});
    QVERIFY2(r.code == 0 && r.out.isEmpty() && r.err.isEmpty(), qPrintable(describe(r)));
    QString error;
    const auto s = sessionFromExport(out, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QCOMPARE(int(s->scenes.front().scene.methods.size()), configs);
    if (format != QLatin1String("json") || (view != QLatin1String("heatmap") && view != QLatin1String("all"))) return;
    // Identical configurations: every difference panel is zero on A's queries and keys.
    const QJsonArray panels = QJsonDocument::fromJson(readAll(out)).object().value(QStringLiteral("views")).toObject()
                                  .value(QStringLiteral("heatmap")).toObject().value(QStringLiteral("panels")).toArray();
    QCOMPARE(panels.size(), configs > 1 ? 2 * configs - 1 : 1);
    for (int k = configs; k < panels.size(); ++k) {
        const QJsonObject d = panels.at(k).toObject();
        QVERIFY(d.value(QStringLiteral("difference")).toBool());
        QCOMPARE(d.value(QStringLiteral("queries")), panels.at(0).toObject().value(QStringLiteral("queries")));
        const QJsonArray rows = d.value(QStringLiteral("values")).toArray();
        QCOMPARE(rows.size(), d.value(QStringLiteral("queries")).toArray().size());
        QVERIFY(rows.size() > 10);
        for (const auto& row : rows)
            for (const auto& v : row.toArray()) QCOMPARE(v.toDouble(-1), 0.0);
    }
}

void TestFigure::sizeDpiThemeOptions() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("h.png"));
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("heatmap"), QStringLiteral("--width=900"),
                          QStringLiteral("--height=600"), QStringLiteral("--dpi=192"), QStringLiteral("--theme=dark"),
                          QStringLiteral("--font-scale=1.5"), QStringLiteral("--output=") + out});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    const QImage img(out);
    QCOMPARE(img.size(), QSize(900, 600));
    QVERIFY(std::abs(img.dotsPerMeterX() * 0.0254 - 192) < 0.5);
    QCOMPARE(img.pixelColor(1, img.height() - 2).rgb(), themeByName(QStringLiteral("dark")).background.rgb());
}

void TestFigure::sessionGivesTheSameFigureAsTheLibrary() {
    // The command line draws what the library (and so the window) draws for the same scene.
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("s.poslab"));
    QString error;
    QVERIFY2(saveSession(session, customScene(), &error), qPrintable(error));
    const QString out = dir.filePath(QStringLiteral("all.svg"));
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("all"), QStringLiteral("--session"), session,
                          QStringLiteral("--width"), QStringLiteral("800"), QStringLiteral("--height"), QStringLiteral("600"),
                          QStringLiteral("-o"), out});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    ExportRequest req;
    req.format = ExportFormat::Svg;
    req.pixels = QSize(800, 600);
    const auto expected = exportBytes(customScene(), req, &error);
    QVERIFY2(expected.has_value(), qPrintable(error));
    QCOMPARE(readAll(out), *expected);
}

void TestFigure::sceneFromAnExportedFigure() {
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("s.poslab"));
    QString error;
    QVERIFY(saveSession(session, customScene(), &error));
    const QString png = dir.filePath(QStringLiteral("first.png"));
    QCOMPARE(runPoslab({QStringLiteral("figure"), QStringLiteral("decay"), QStringLiteral("--session"), session, QStringLiteral("-o"), png}).code, 0);
    // Hand the PNG to a colleague: they get the scene back from it.
    for (const char* ext : {"svg", "pdf", "csv", "json"}) {
        const QString out = dir.filePath(QStringLiteral("again.") + QLatin1String(ext));
        const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("heatmap"), QStringLiteral("--session"), png, QStringLiteral("-o"), out});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const auto s = sessionFromExport(out, &error);
        QVERIFY2(s.has_value(), qPrintable(error));
        QVERIFY2(s->scenes.front().scene == customScene(), ext);
        // And from that figure again.
        const QString third = dir.filePath(QStringLiteral("third_") + QLatin1String(ext) + QStringLiteral(".png"));
        const Run r2 = runPoslab({QStringLiteral("figure"), QStringLiteral("pairs"), QStringLiteral("--session"), out, QStringLiteral("-o"), third});
        QVERIFY2(r2.code == 0, qPrintable(describe(r2)));
        QVERIFY(sessionFromExport(third, &error)->scenes.front().scene == customScene());
    }
}

void TestFigure::sceneOptionsApply() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("h.json"));
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("heatmap"), QStringLiteral("--length"), QStringLiteral("20"),
                          QStringLiteral("--softmax"), QStringLiteral("--causal"), QStringLiteral("--max-distance"), QStringLiteral("77"),
                          QStringLiteral("--log-x"), QStringLiteral("--colormap"), QStringLiteral("viridis"), QStringLiteral("-o"), out});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    QString error;
    const auto s = sessionFromExport(out, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    const SceneParams& sc = s->scenes.front().scene;
    QCOMPARE(sc.length, std::int64_t(20));
    QVERIFY(sc.view.softmax && sc.view.causal && sc.view.decayLogX);
    QCOMPARE(sc.view.decayMaxDistance, std::int64_t(77));
    QVERIFY(sc.view.colormap == HeatmapColormap::Viridis);
    QCOMPARE(sc.positions, SceneParams{}.positions);   // kept; the pair view leaves out those >= N
    // Softmax rows of the plotted heatmap sum to 1 over the unmasked keys (20 × 20, all cells shown).
    const QJsonObject panel = QJsonDocument::fromJson(readAll(out)).object()[QStringLiteral("views")].toObject()[QStringLiteral("heatmap")]
                                  .toObject()[QStringLiteral("panels")].toArray()[0].toObject();
    const QJsonArray rows = panel[QStringLiteral("values")].toArray();
    QCOMPARE(rows.size(), 20);
    for (const auto& row : rows) {
        double sum = 0;
        for (const auto& v : row.toArray()) sum += v.toDouble();   // null → 0
        QVERIFY2(std::abs(sum - 1.0) < 1e-9, qPrintable(QString::number(sum, 'g', 17)));
    }
}

void TestFigure::deckSceneIndex() {
    QTemporaryDir dir;
    Session deck;
    deck.scenes = {SessionScene{QStringLiteral("one"), {}, SceneParams{}}, SessionScene{QStringLiteral("two"), {}, customScene()}};
    deck.current = 0;
    const QString path = dir.filePath(QStringLiteral("deck.poslab"));
    QString error;
    QVERIFY(saveSessionFile(path, deck, &error));
    const QString out = dir.filePath(QStringLiteral("d.csv"));
    Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("decay"), QStringLiteral("--session"), path, QStringLiteral("--scene"), QStringLiteral("1"), QStringLiteral("-o"), out});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    QVERIFY(sessionFromExport(out, &error)->scenes.front().scene == customScene());
    r = runPoslab({QStringLiteral("figure"), QStringLiteral("decay"), QStringLiteral("--session"), path, QStringLiteral("--scene"), QStringLiteral("2"), QStringLiteral("-o"), dir.filePath(QStringLiteral("e.csv"))});
    VERIFY_ERROR(r, 2, "invalid --scene");
    // The one number syntax of every option (core/param.h parseInteger): 1e0 is scene 1, 1.5 none.
    const QString sci = dir.filePath(QStringLiteral("s.csv"));
    r = runPoslab({QStringLiteral("figure"), QStringLiteral("decay"), QStringLiteral("--session"), path, QStringLiteral("--scene"), QStringLiteral("1e0"), QStringLiteral("-o"), sci});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    QVERIFY(sessionFromExport(sci, &error)->scenes.front().scene == customScene());
    r = runPoslab({QStringLiteral("figure"), QStringLiteral("decay"), QStringLiteral("--session"), path, QStringLiteral("--scene"), QStringLiteral("1.5"), QStringLiteral("-o"), dir.filePath(QStringLiteral("f.csv"))});
    VERIFY_ERROR(r, 2, "invalid --scene");
}

// `figure --config FILE` sets the first configuration from the file (as the window's File →
// Open model configuration…); options given override it; a bad file is one line naming the key.
void TestFigure::configSetsTheConfiguration() {
    QTemporaryDir dir;
    const QString cfg = dir.filePath(QStringLiteral("bloom.json"));
    {
        QFile f(cfg);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model_type":"bloom","n_head":16,"hidden_size":1024})");
    }
    const QString out = dir.filePath(QStringLiteral("f.json"));
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("heatmap"), QStringLiteral("--config"), cfg,
                             QStringLiteral("--dim"), QStringLiteral("32"),
                             QStringLiteral("-o"), out});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    QString error;
    const auto s = sessionFromExport(out, &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    const auto& c = s->scenes.front().scene.methods.front();
    QCOMPARE(c.params.method, Method::Alibi);
    QCOMPARE(c.params.alibi.heads, 16);
    QCOMPARE(c.params.dim, 32);
    QCOMPARE(c.label, QStringLiteral("bloom.json"));
    {
        QFile f(cfg);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"model_type":"bloom","n_head":0,"hidden_size":1024})");
    }
    const Run bad = runPoslab({QStringLiteral("figure"), QStringLiteral("heatmap"), QStringLiteral("--config"), cfg,
                               QStringLiteral("-o"), dir.filePath(QStringLiteral("g.png"))});
    VERIFY_ERROR(bad, 2, QString("--config " + cfg + ": n_head must be an integer from 1 to 65536, got 0").toUtf8());
}

void TestFigure::presetSetsTheMethod() {
    QVERIFY(!modelPresets().empty());
    QTemporaryDir dir;
    for (const auto& preset : modelPresets()) {
        const QString out = dir.filePath(QString::fromStdString(preset.key) + QStringLiteral(".json"));
        const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("frequencies"), QStringLiteral("--preset"),
                                 QString::fromStdString(preset.key), QStringLiteral("-o"), out});
        QVERIFY2(r.code == 0, qPrintable(QString::fromStdString(preset.key) + QLatin1Char(' ') + describe(r)));
        QString error;
        const auto s = sessionFromExport(out, &error);
        QVERIFY2(s.has_value(), qPrintable(error));
        const SceneParams& sc = s->scenes.front().scene;
        QCOMPARE(sc.presetKey, QString::fromStdString(preset.key));
        QVERIFY2(sc.methods.front().params == preset.params, preset.key.c_str());
    }
    const Run bad = runPoslab({QStringLiteral("figure"), QStringLiteral("decay"), QStringLiteral("--preset"), QStringLiteral("gpt-9"),
                               QStringLiteral("-o"), dir.filePath(QStringLiteral("x.png"))});
    VERIFY_ERROR(bad, 2, "invalid --preset, one of ");
}

// `figure` takes the method options of `compute scores`: the heatmap it plots (all cells shown
// at these lengths) is the matrix `compute scores` prints for the same options.
void TestFigure::methodOptionsAsCompute_data() {
    QTest::addColumn<QStringList>("common");
    QTest::addColumn<QStringList>("figureOnly");
    QTest::addColumn<QStringList>("computeOnly");
    QTest::addColumn<QString>("title");
    const auto L = [](const char* s) { return QString::fromLatin1(s).split(QLatin1Char(' ')); };
    QTest::newRow("rope_yarn_interleaved_d16") << L("--method rope --dim 16 --base 500000 --scaling yarn --factor 4 --original-max-positions 8 --layout interleaved --content formula")
                                               << QStringList{} << QStringList{} << QStringLiteral("RoPE + YaRN");
    QTest::newRow("rope_llama3_double") << L("--method rope --dim 32 --scaling llama3 --factor 8 --original-max-positions 16 --precision double --content random --seed 3")
                                        << QStringList{} << QStringList{} << QStringLiteral("RoPE + Llama 3");
    QTest::newRow("t5_buckets16_heads4_head2") << L("--method t5 --dim 8 --num-buckets 16 --heads 4 --head 2 --content random")
                                               << L("--t5-max-distance 20") << L("--max-distance 20") << QStringLiteral("T5");
    QTest::newRow("alibi_heads6_causal") << L("--method alibi --dim 8 --heads 6 --head 5 --causal") << QStringList{} << QStringList{}
                                         << QStringLiteral("ALiBi");
    QTest::newRow("sinusoidal_concat_t2t_d10") << L("--method sinusoidal --dim 10 --layout concat --frequencies tensor2tensor --content formula")
                                               << QStringList{} << QStringList{} << QStringLiteral("Sinusoidal");
    QTest::newRow("shaw_k3_seed7") << L("--method shaw --dim 6 --max-relative-position 3 --seed 7 --content random") << QStringList{}
                                   << QStringList{} << QStringLiteral("Shaw");
    QTest::newRow("xpos_scale_base8") << L("--method xpos --dim 8 --scale-base 8 --content formula") << QStringList{} << QStringList{}
                                      << QStringLiteral("xPos");
    QTest::newRow("preset_then_base") << L("--preset llama-3.1-8b --base 10000 --dim 16") << QStringList{} << QStringList{}
                                      << QStringLiteral("Llama 3.1 8B");
}

void TestFigure::methodOptionsAsCompute() {
    QFETCH(QStringList, common);
    QFETCH(QStringList, figureOnly);
    QFETCH(QStringList, computeOnly);
    QFETCH(QString, title);
    const QString n = QStringLiteral("24");
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("h.json"));
    const Run fig = runPoslab(QStringList{QStringLiteral("figure"), QStringLiteral("heatmap"), QStringLiteral("--length"), n} + common +
                              figureOnly + QStringList{QStringLiteral("-o"), out});
    QVERIFY2(fig.code == 0, qPrintable(describe(fig)));
    const Run cmp = runPoslab(QStringList{QStringLiteral("compute"), QStringLiteral("scores"), QStringLiteral("--length"), n} + common + computeOnly);
    QVERIFY2(cmp.code == 0, qPrintable(describe(cmp)));
    const QJsonArray expected = QJsonDocument::fromJson(cmp.out).object()[QStringLiteral("scores")].toArray();
    const QJsonObject panel = QJsonDocument::fromJson(readAll(out)).object()[QStringLiteral("views")].toObject()[QStringLiteral("heatmap")]
                                  .toObject()[QStringLiteral("panels")].toArray()[0].toObject();
    QVERIFY2(panel[QStringLiteral("title")].toString().startsWith(title), qPrintable(panel[QStringLiteral("title")].toString()));
    const QJsonArray rows = panel[QStringLiteral("values")].toArray();
    QCOMPARE(rows.size(), 24);
    QCOMPARE(expected.size(), 24);
    for (int i = 0; i < 24; ++i) {
        const QJsonArray a = rows[i].toArray(), b = expected[i].toArray();
        QCOMPARE(a.size(), b.size());
        for (int j = 0; j < a.size(); ++j) {
            QCOMPARE(a[j].isNull(), b[j].isNull());
            if (b[j].isNull()) continue;
            const double x = a[j].toDouble(), y = b[j].toDouble();
            QVERIFY2(std::abs(x - y) <= 1e-12 * std::max(1.0, std::abs(y)),
                     qPrintable(QStringLiteral("(%1, %2): figure %3, compute %4").arg(i).arg(j).arg(x, 0, 'g', 17).arg(y, 0, 'g', 17)));
        }
    }
}

void TestFigure::methodOptionErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("fragment");
    const auto L = [](const char* s) { return QString::fromLatin1(s).split(QLatin1Char(' ')); };
    QTest::newRow("methodUnknown") << L("heatmap --method fourier -o x.png") << QByteArray("invalid --method, one of nope, sinusoidal");
    QTest::newRow("optionOfAnotherMethod") << L("heatmap --method alibi --layout half -o x.png") << QByteArray("unknown option --layout");
    QTest::newRow("ropeOddDim") << L("heatmap --method rope --dim 63 -o x.png") << QByteArray("invalid --dim, an even integer");
    QTest::newRow("yarnNegativeFactor") << L("decay --method rope --scaling yarn --factor -2 -o x.png") << QByteArray("invalid --factor");
    QTest::newRow("linearWithoutFactor") << L("decay --method rope --scaling linear -o x.png") << QByteArray("factor");
    QTest::newRow("t5MaxDistanceIsPrefixed") << L("heatmap --method t5 --t5-max-distance 4 -o x.png") << QByteArray("invalid --t5-max-distance");
    QTest::newRow("contentWord") << L("heatmap --content noise -o x.png") << QByteArray("invalid --content, one of ones, random, formula, got noise");
    QTest::newRow("alibiHeadsZero") << L("pairs --method alibi --heads 0 -o x.png") << QByteArray("invalid --heads");
}

void TestFigure::methodOptionErrors() {
    QFETCH(QStringList, args);
    QFETCH(QByteArray, fragment);
    QTemporaryDir dir;
    const Run r = runPoslab(QStringList{QStringLiteral("figure")} + args, dir.path());
    VERIFY_ERROR(r, 2, fragment);
    QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty());
}

// figure reads a number as compute and the panel do (the parameter table's parser): an integer
// may be written as an integral real (6.4e1 is 64), a fraction is refused with the same line.
// `key` is the scene's field the option sets ("view." for the view's); `expected` < 0: refused.
void TestFigure::numbersAsCompute_data() {
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("compute");
    QTest::addColumn<QString>("key");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("length_6.4e1") << "heatmap --length 6.4e1" << "scores --method rope --dim 8 --summary --length 6.4e1"
                                  << "length" << qint64(64);
    QTest::newRow("length_64.5") << "heatmap --length 64.5" << "scores --method rope --dim 8 --summary --length 64.5"
                                 << "length" << qint64(-1);
    QTest::newRow("max-distance_1.28e2") << "decay --max-distance 1.28e2" << "decay --method rope --dim 8 --max-distance 1.28e2"
                                         << "view.decay_max_distance" << qint64(128);
    QTest::newRow("max-distance_127.5") << "decay --max-distance 127.5" << "decay --method rope --dim 8 --max-distance 127.5"
                                        << "view.decay_max_distance" << qint64(-1);
    QTest::newRow("head_2e0") << "heatmap --method alibi --heads 4 --head 2e0"
                              << "scores --method alibi --dim 8 --heads 4 --length 8 --head 2e0" << "head" << qint64(2);
    QTest::newRow("dim_1.6e1") << "heatmap --dim 1.6e1" << "scores --method rope --length 8 --dim 1.6e1"
                               << "methods.0.dim" << qint64(16);
    QTest::newRow("positions_0:1.6e1") << "pairs --positions 0:1.6e1" << "rope --head-dim 4 --vector 1,0,1,0 --positions 0:1.6e1"
                                       << "positions.15" << qint64(15);
    QTest::newRow("range_1.6e1:3.2e1") << "heatmap --length 64 --range 1.6e1:3.2e1" << ""
                                       << "view.heatmap_query_to" << qint64(32);
    QTest::newRow("range_16.5:32") << "heatmap --length 64 --range 16.5:32" << "" << "view.heatmap_query_from" << qint64(-1);
}

void TestFigure::numbersAsCompute() {
    QFETCH(QString, figure);
    QFETCH(QString, compute);
    QFETCH(QString, key);
    QFETCH(qint64, expected);
    const QString value = figure.split(QLatin1Char(' ')).last();
    const QString option = figure.split(QLatin1Char(' ')).at(figure.split(QLatin1Char(' ')).size() - 2);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("f.json"));
    const Run f = runPoslab(QStringList{QStringLiteral("figure")} + figure.split(QLatin1Char(' ')) +
                            QStringList{QStringLiteral("-o"), out});
    const Run c = compute.isEmpty() ? Run{}
                                    : runPoslab(QStringList{QStringLiteral("compute")} + compute.split(QLatin1Char(' ')));
    if (expected < 0) {
        // The same one line from both: "invalid --OPTION, <its valid range>, got VALUE".
        const QByteArray start = "poslab: error: invalid " + option.toUtf8() + ", ";
        const QByteArray end = ", got " + value.toUtf8() + "\n";
        VERIFY_ERROR(f, 2, end);
        QVERIFY2(f.err.startsWith(start), qPrintable(describe(f)));
        QVERIFY(!QFile::exists(out));
        if (!compute.isEmpty()) {
            VERIFY_ERROR(c, 2, end);
            QVERIFY2(c.err.startsWith(start), qPrintable(describe(c)));
        }
        return;
    }
    QVERIFY2(f.code == 0 && f.err.isEmpty(), qPrintable(describe(f)));
    if (!compute.isEmpty()) QVERIFY2(c.code == 0 && c.err.isEmpty(), qPrintable(describe(c)));
    QJsonValue v = QJsonDocument::fromJson(readAll(out)).object().value(QStringLiteral("session"))
                       .toObject().value(QStringLiteral("scenes")).toArray().at(0);
    for (const QString& part : key.split(QLatin1Char('.'))) {
        bool index = false;
        const int i = part.toInt(&index);
        v = index ? v.toArray().at(i) : v.toObject().value(part);
    }
    QVERIFY2(v.isDouble(), qPrintable(key));
    QCOMPARE(qint64(v.toDouble()), expected);
}

void TestFigure::refusesToOverwriteWithoutForce() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("f.svg"));
    QFile f(out);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("precious");
    f.close();
    Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("decay"), QStringLiteral("-o"), out});
    VERIFY_ERROR(r, 2, "--force");
    QCOMPARE(readAll(out), QByteArray("precious"));
    r = runPoslab({QStringLiteral("figure"), QStringLiteral("decay"), QStringLiteral("-o"), out, QStringLiteral("--force")});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    QVERIFY(readAll(out).startsWith("<?xml"));
}

void TestFigure::errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QByteArray>("fragment");
    const QString png = QStringLiteral("out.png");
    QTest::newRow("noView") << QStringList{} << 2 << QByteArray("missing VIEW");
    QTest::newRow("optionFirst") << QStringList{QStringLiteral("-o"), png} << 2 << QByteArray("missing VIEW");
    QTest::newRow("unknownView") << QStringList{QStringLiteral("spectrum"), QStringLiteral("-o"), png} << 2
                                 << QByteArray("invalid VIEW, one of pairs, heatmap, decay, frequencies, contributions, precision, all, layers (with --config), positions (with --tokens), vision-decay (with --vision), demo KEY, deck, got spectrum");
    QTest::newRow("noOutput") << QStringList{QStringLiteral("heatmap")} << 2 << QByteArray("missing --output");
    QTest::newRow("dashOWithoutValue") << QStringList{QStringLiteral("heatmap"), QStringLiteral("-o")} << 2 << QByteArray("missing value for -o");
    QTest::newRow("gifOutput") << QStringList{QStringLiteral("heatmap"), QStringLiteral("-o"), QStringLiteral("x.gif")} << 2
                               << QByteArray("invalid --output, a file name ending in .png, .svg, .pdf, .csv or .json, got x.gif");
    QTest::newRow("unknownOption") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--colour"), QStringLiteral("red"), QStringLiteral("-o"), png} << 2
                                   << QByteArray("unknown option --colour");
    QTest::newRow("widthWord") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--width"), QStringLiteral("wide"), QStringLiteral("-o"), png} << 2
                               << QByteArray("invalid --width, an integer from 64 to 16384, got wide");
    QTest::newRow("width1e9") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--width=1000000000"), QStringLiteral("-o"), png} << 2
                              << QByteArray("invalid --width");
    QTest::newRow("dpi0") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--dpi=0"), QStringLiteral("-o"), png} << 2
                          << QByteArray("invalid --dpi, an integer from 24 to 2400, got 0");
    QTest::newRow("themeNeon") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--theme=neon"), QStringLiteral("-o"), png} << 2
                               << QByteArray("invalid --theme");
    QTest::newRow("fontScaleNaN") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--font-scale=nan"), QStringLiteral("-o"), png} << 2
                                  << QByteArray("invalid --font-scale");
    QTest::newRow("lengthZero") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--length=0"), QStringLiteral("-o"), png} << 2
                                << QByteArray("invalid --length, an integer from 1 to 1048576, got 0");
    QTest::newRow("positionNegative") << QStringList{QStringLiteral("pairs"), QStringLiteral("--positions=3,-12"), QStringLiteral("-o"), png} << 2
                                      << QByteArray("invalid --positions");
    QTest::newRow("sceneWithoutSession") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--scene=1"), QStringLiteral("-o"), png} << 2
                                         << QByteArray("--scene needs --session");
    QTest::newRow("missingSession") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--session=nope.poslab"), QStringLiteral("-o"), png} << 1
                                    << QByteArray("cannot read --session file 'nope.poslab'");
    QTest::newRow("noSuchDirectory") << QStringList{QStringLiteral("heatmap"), QStringLiteral("-o"), QStringLiteral("no/such/dir/x.png")} << 1
                                     << QByteArray("cannot write no/such/dir/x.png: the directory");
    QTest::newRow("outputIsDirectory") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--force"), QStringLiteral("-o"), QStringLiteral("sub.png")} << 2
                                       << QByteArray("invalid --output, a file, not a directory");
    QTest::newRow("batchMissingFile") << QStringList{QStringLiteral("--batch"), QStringLiteral("none.json")} << 1 << QByteArray("cannot read --batch file");
    // Text from the command line is quoted on one line, newlines and all.
    QTest::newRow("unknownOptionWithNewline") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--col\nour"), QStringLiteral("red"), QStringLiteral("-o"), png} << 2
                                              << QByteArray("unknown option --col our");
    QTest::newRow("missingSessionWithNewline") << QStringList{QStringLiteral("heatmap"), QStringLiteral("--session=no\r\npe.poslab"), QStringLiteral("-o"), png} << 1
                                               << QByteArray("cannot read --session file 'no  pe.poslab'");
    QTest::newRow("batchWithExtra") << QStringList{QStringLiteral("--batch"), QStringLiteral("b.json"), QStringLiteral("heatmap")} << 2
                                    << QByteArray("unexpected argument with --batch");
}

void TestFigure::errors() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QByteArray, fragment);
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub.png")));
    QStringList full{QStringLiteral("figure")};
    full += args;
    const Run r = runPoslab(full, dir.path());
    VERIFY_ERROR(r, code, fragment);
    const QStringList left = QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
    QCOMPARE(left, QStringList{QStringLiteral("sub.png")});   // nothing written
}

void TestFigure::malformedSessions_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QByteArray>("fragment");
    QTest::newRow("truncated") << sceneToJson(SceneParams{}).left(200) << QByteArray("the file is truncated");
    QTest::newRow("newerSchema") << QByteArray("{\"format\":\"poslab-session\",\"schema\":7,\"scenes\":[]}")
                                 << QByteArray("written by a newer PosLab (schema 7), this version reads schema 1");
    QTest::newRow("wrongType") << QByteArray("{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[{\"length\":\"long\"}]}")
                               << QByteArray("scenes[0].length: an integer from 1 to 1048576, got \\\"long\\\"").replace("\\\"", "\"");
    QTest::newRow("absurdNumber") << QByteArray("{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[{\"methods\":[{\"rope\":{\"base\":1e200}}]}]}")
                                  << QByteArray("scenes[0].methods[0].rope.base: a number in (1, 1e12], got 1e+200");
    QTest::newRow("notASession") << QByteArray("[1,2,3]") << QByteArray("not a PosLab session");
}

void TestFigure::malformedSessions() {
    QFETCH(QByteArray, content);
    QFETCH(QByteArray, fragment);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.poslab"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("heatmap"), QStringLiteral("--session"), path,
                          QStringLiteral("-o"), dir.filePath(QStringLiteral("x.png"))});
    VERIFY_ERROR(r, 2, fragment);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
}

void TestFigure::damagedFiguresAsSession_data() {
    // Every damaged or foreign file given as --session: exactly one line on stderr (nothing
    // from libpng or Qt), nothing on stdout, nothing written.
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QByteArray>("fragment");
    const QByteArray good = pngWithSession(sceneToJson(customScene(), true));
    const qsizetype session = pngChunk(good, "zTXt") >= 0 ? pngChunk(good, "zTXt") : pngChunk(good, "tEXt");
    const qsizetype idat = pngChunk(good, "IDAT");
    QVERIFY(session > 0 && idat > session);
    QTest::newRow("pngTruncatedInImageData") << "t.png" << good.left(idat + 20) << QByteArray("the PNG is truncated");
    QTest::newRow("pngTruncatedInSessionChunk") << "t.png" << good.left(session + 30) << QByteArray("the PNG is truncated");
    QTest::newRow("pngTruncatedAfterHeader") << "t.png" << good.left(50) << QByteArray("the PNG is truncated");
    QTest::newRow("pngTruncatedNameWithNewline") << "cut\nshort.png" << good.left(idat + 20) << QByteArray("cut short.png: the PNG is truncated");
    QTest::newRow("pngWithoutIend") << "t.png" << good.left(good.size() - 12) << QByteArray("no IEND chunk");
    QByteArray crc = good;
    crc[session + 20] = char(crc[session + 20] ^ 0x5a);
    QTest::newRow("pngCrcMismatchInSession") << "c.png" << crc << QByteArray("fails its CRC check");
    QByteArray type = good;
    type[33 + 7] = char(0x8c);   // the chunk after IHDR: "pHY\\x8c" (libpng: "invalid chunk type")
    QTest::newRow("pngInvalidChunkType") << "c.png" << type << QByteArray("invalid chunk type");
    QByteArray ihdr = good;
    for (int k = 16; k < 20; ++k) ihdr[k] = 0;   // width 0, CRC recomputed
    fixCrc(ihdr, 8);
    QTest::newRow("pngZeroWidth") << "c.png" << ihdr << QByteArray("IHDR size 0");
    QTest::newRow("pngEmpty") << "e.png" << QByteArray() << QByteArray("not a PNG image");
    QTest::newRow("textNamedPng") << "e.png" << QByteArray("hello\nworld\n") << QByteArray("not a PNG image");
    QTest::newRow("pngWithoutSession") << "n.png" << pngWithSession(QByteArray()) << QByteArray("carries no PosLab scene");
    // The embedded session's own text holds newlines: the error quotes it on one line.
    QTest::newRow("pngSessionValueWithNewlines")
        << "v.png"
        << pngWithSession("{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[{\"zoom\\nlevel\":1,\"methods\":[{\"method\":\"ro\\npe\\r\\nx\"}]}]}")
        << QByteArray("scenes[0].methods[0].method: one of nope, ");
    QTest::newRow("pngSessionNotJsonWithNewlines") << "j.png" << pngWithSession("{\n\"format\":\n\"poslab-session\"\n,,\n}")
                                                   << QByteArray("invalid --session");
    QTest::newRow("svgSessionWithNewlines")
        << "s.svg"
        << QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\"><metadata><poslab:session xmlns:poslab=\"https://example.org/poslab/ns/session/1\">"
                      "{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[{\"length\":\"64\nrows\"}]}</poslab:session></metadata></svg>")
        << QByteArray("scenes[0].length");
    QTest::newRow("svgNotXml") << "x.svg" << QByteArray("<svg><metadata>\n<poslab:session>\n") << QByteArray("carries no PosLab scene");
    QTest::newRow("pdfWithoutSession") << "p.pdf" << QByteArray("%PDF-1.4\n%%EOF\n") << QByteArray("carries no PosLab scene");
}

void TestFigure::damagedFiguresAsSession() {
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(QByteArray, fragment);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();
    const QString out = dir.filePath(QStringLiteral("out.png"));
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("heatmap"), QStringLiteral("--session"), path, QStringLiteral("-o"), out});
    VERIFY_ERROR(r, 2, fragment);
    QVERIFY(!QFile::exists(out));
}

void TestFigure::warningsAreOneLineEach() {
    // A session with unknown fields whose names hold newlines: the figure is written, and each
    // warning is one line.
    QTemporaryDir dir;
    QByteArray json = sceneToJson(customScene(), true);
    json.insert(json.indexOf("\"scenes\":[{") + 11, "\"zoom\\nlevel\":2,\"pan\\r\\nx\":1,");
    const QString png = dir.filePath(QStringLiteral("w.png"));
    QFile f(png);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(pngWithSession(json));
    f.close();
    const QString out = dir.filePath(QStringLiteral("out.svg"));
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("decay"), QStringLiteral("--session"), png, QStringLiteral("-o"), out});
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    QVERIFY(r.out.isEmpty());
    QCOMPARE(r.err.count('\n'), 2);
    for (const QByteArray& line : r.err.trimmed().split('\n')) QVERIFY2(line.startsWith("poslab: warning: "), line.constData());
    QVERIFY2(r.err.contains("zoom level"), r.err.constData());
    QVERIFY(sessionFromExport(out, nullptr)->scenes.front().scene == customScene());
    // The same file with an error further on: the error is the only line.
    const Run bad = runPoslab({QStringLiteral("figure"), QStringLiteral("decay"), QStringLiteral("--session"), png,
                               QStringLiteral("--length=0"), QStringLiteral("-o"), dir.filePath(QStringLiteral("bad.svg"))});
    VERIFY_ERROR(bad, 2, "invalid --length");
}

void TestFigure::batch() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("figs")));
    QString error;
    QVERIFY(saveSession(dir.filePath(QStringLiteral("scene.poslab")), customScene(), &error));
    const QByteArray batch = R"({"figures": [
        {"view": "heatmap", "output": "figs/h.png", "width": 300, "height": 200},
        {"view": "all", "output": "figs/all.pdf", "session": "scene.poslab", "theme": "projector"},
        {"view": "decay", "output": "figs/d.svg", "args": ["--max-distance", "50", "--log-y"], "dpi": 192},
        {"view": "frequencies", "output": "figs/f.csv", "font_scale": 1.5}
    ]})";
    QFile f(dir.filePath(QStringLiteral("batch.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(batch);
    f.close();
    // Run from elsewhere: paths are relative to the batch file.
    QTemporaryDir other;
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("--batch"), dir.filePath(QStringLiteral("batch.json"))}, other.path());
    QVERIFY2(r.code == 0, qPrintable(describe(r)));
    QCOMPARE(QImage(dir.filePath(QStringLiteral("figs/h.png"))).size(), QSize(300, 200));
    QVERIFY(readAll(dir.filePath(QStringLiteral("figs/all.pdf"))).startsWith("%PDF-"));
    QVERIFY(sessionFromExport(dir.filePath(QStringLiteral("figs/all.pdf")), &error)->scenes.front().scene == customScene());
    const auto d = sessionFromExport(dir.filePath(QStringLiteral("figs/d.svg")), &error);
    QVERIFY2(d.has_value(), qPrintable(error));
    QCOMPARE(d->scenes.front().scene.view.decayMaxDistance, std::int64_t(50));
    QVERIFY(d->scenes.front().scene.view.decayLogY);
    QVERIFY(readAll(dir.filePath(QStringLiteral("figs/f.csv"))).startsWith("# PosLab"));
    // Again without --force: the outputs exist, nothing is replaced.
    const Run again = runPoslab({QStringLiteral("figure"), QStringLiteral("--batch"), dir.filePath(QStringLiteral("batch.json"))});
    VERIFY_ERROR(again, 2, "batch figure 0: output file exists, pass --force to overwrite it");
    const Run forced = runPoslab({QStringLiteral("figure"), QStringLiteral("--batch"), dir.filePath(QStringLiteral("batch.json")), QStringLiteral("--force")});
    QVERIFY2(forced.code == 0, qPrintable(describe(forced)));
}

void TestFigure::batchCheckedBeforeWriting() {
    QTemporaryDir dir;
    const struct {
        const char* json;
        const char* fragment;
    } cases[] = {
        {R"({"figures": [{"view": "heatmap", "output": "a.png"}, {"view": "nope", "output": "b.png"}]})", "batch figure 1: invalid VIEW"},
        {R"({"figures": [{"view": "heatmap", "output": "a.png"}, {"view": "decay", "output": "a.png"}]})", "batch figure 1 writes the same file"},
        {R"({"figures": [{"view": "heatmap", "output": "a.png", "colour": "red"}]})", "unknown key \"colour\" in batch figure 0"},
        {R"({"figures": [{"view": "heatmap", "output": "a.png"}, {"view": "decay", "output": "c.png", "width": "big"}]})", "invalid \"width\" in batch figure 1"},
        {R"({"figures": []})", "at least one figure"},
        {R"({"figures": [{"view": "heatmap"}]})", "missing \"output\" in batch figure 0"},
        {R"({"pictures": 3})", "no \"figures\" array"},
        {R"({"figures": [)", "invalid --batch file"},
    };
    for (const auto& c : cases) {
        QFile f(dir.filePath(QStringLiteral("batch.json")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(c.json);
        f.close();
        const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("--batch"), dir.filePath(QStringLiteral("batch.json"))});
        VERIFY_ERROR(r, 2, c.fragment);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("batch.json")});
    }
}

// figure with --qk: N and d from the file, the session carries the file's path, and the
// contributions view plots `compute contributions`' numbers at its distances.
void TestFigure::realQueriesAndKeysInEveryView() {
    const QString qk = QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/qk/3d_float32.npz");
    QTemporaryDir dir;
    for (const char* view : {"pairs", "heatmap", "decay", "contributions"}) {
        const QString out = dir.filePath(QStringLiteral("%1.json").arg(view));
        const Run r = runPoslab({"figure", view, "--qk", qk, "--head", "1", "--precision", "double", "-o", out});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QString error;
        const auto s = sessionFromExport(out, &error);
        QVERIFY2(s.has_value(), qPrintable(error));
        const SceneParams& sc = s->scenes.front().scene;
        QCOMPARE(sc.qFile, qk);
        QCOMPARE(sc.length, std::int64_t(5));
        QCOMPARE(sc.methods.front().params.dim, 8);
        if (QLatin1String(view) != QLatin1String("contributions")) continue;
        const QJsonObject c = QJsonDocument::fromJson(readAll(out)).object()["views"].toObject()["contributions"]
                                  .toObject()["configs"].toArray()[0].toObject();
        QVERIFY2(c.value("error").isUndefined(), qPrintable(c.value("error").toString()));
        const Run want = runPoslab({"compute", "contributions", "--qk", qk, "--head", "1", "--precision", "double"});
        QCOMPARE(want.code, 0);
        const QJsonObject w = QJsonDocument::fromJson(want.out).object();
        QCOMPARE(c.value("distance").toArray(), w.value("distance").toArray());
        QCOMPARE(c.value("contribution").toArray(), w.value("contribution").toArray());
        QCOMPARE(c.value("share").toArray(), w.value("share").toArray());
    }
    // A session naming a file that is gone: one line naming it.
    const QString moved = dir.filePath("moved.npz");
    QVERIFY(QFile::copy(qk, moved));
    const QString session = dir.filePath("with-file.json");
    QVERIFY(runPoslab({"figure", "heatmap", "--qk", moved, "-o", session}).code == 0);
    QVERIFY(QFile::remove(moved));
    const Run gone = runPoslab({"figure", "heatmap", "--session", session, "-o", dir.filePath("again.png")});
    QCOMPARE(gone.code, 2);
    QVERIFY2(gone.err.contains("moved.npz: cannot read"), qPrintable(describe(gone)));
    QCOMPARE(gone.err.count('\n'), 1);
}

QTEST_MAIN(TestFigure)
#include "test_figure.moc"
