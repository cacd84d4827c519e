// Export: every view (and "all") × every method × every format gives a valid file that carries
// its scene; images show something at the asked size; a session round trip gives a
// byte-identical SVG; a failed export leaves no file and keeps an existing one; the exported
// picture is the window's picture.
#include "support/testsupport.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <cmath>

#include "ui/io/export.h"
#include "ui/io/modelconfig.h"
#include "ui/io/session.h"

using namespace poslab;
using namespace poslab::ui;

namespace {

using testsupport::readAll;

// One scene per method: the method's defaults, a few settings that make every view non-trivial.
SceneParams sceneFor(Method m) {
    SceneParams s;
    s.methods.front().params.method = m;
    s.methods.front().params.dim = 16;
    s.length = 48;
    s.positions = {0, 1, 3, 9, 27};
    s.view.decayMaxDistance = 100;
    if (m == Method::Alibi || m == Method::T5) s.head = 1;
    return s;
}

SceneParams compareScene() {
    SceneParams s = sceneFor(Method::Rope);
    MethodConfig b;
    b.params.method = Method::Rope;
    b.params.dim = 16;
    b.params.rope.scaling = RopeScaling::Yarn;
    b.params.rope.factor = 4.0;
    b.params.rope.max_positions = 32;
    b.label = QStringLiteral("YaRN ×4 <&> \"quoted\"");
    s.methods.push_back(b);
    MethodConfig c;
    c.params.method = Method::Alibi;
    c.params.dim = 16;
    s.methods.push_back(c);
    s.view.theme = QStringLiteral("dark");
    s.view.causal = true;
    return s;
}

QString methodName(Method m) { return QString::fromUtf8(std::string(methodKey(m)).c_str()); }

// A compare-mode scene of `configs` configurations: the defaults of every configuration
// ("same", what {"methods":[{},{},{},{}]} opens as), or four different methods ("mixed").
SceneParams configsScene(int configs, bool mixed) {
    SceneParams s;
    s.methods.assign(std::size_t(configs), MethodConfig{});
    const Method kinds[] = {Method::Rope, Method::Alibi, Method::Sinusoidal, Method::T5};
    if (mixed) {
        for (int c = 0; c < configs; ++c) {
            s.methods[std::size_t(c)].params.method = kinds[c];
            s.methods[std::size_t(c)].params.dim = 16;
        }
        s.length = 40;
        s.view.causal = true;
    }
    return s;
}

// Fraction of pixels that differ clearly from `bg`.
double inkFraction(const QImage& img, const QColor& bg) {
    const QImage im = img.convertToFormat(QImage::Format_ARGB32);
    qint64 ink = 0;
    for (int y = 0; y < im.height(); ++y) {
        const QRgb* line = reinterpret_cast<const QRgb*>(im.constScanLine(y));
        for (int x = 0; x < im.width(); ++x) {
            const QRgb p = line[x];
            if (std::abs(qRed(p) - bg.red()) + std::abs(qGreen(p) - bg.green()) + std::abs(qBlue(p) - bg.blue()) > 60) ++ink;
        }
    }
    return double(ink) / (double(im.width()) * im.height());
}

void checkEmbeddedScene(const QString& path, const SceneParams& scene) {
    QString error;
    QStringList warnings;
    const auto s = sessionFromExport(path, &error, &warnings);
    QVERIFY2(s.has_value(), qPrintable(error));
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join('\n')));
    QVERIFY2(s->scenes.front().scene == scene, qPrintable(path));
}

}  // namespace

class TestExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyViewMethodFormat_data();
    void everyViewMethodFormat();
    void pngSizeAndDpi_data();
    void pngSizeAndDpi();
    void vectorPhysicalSize();
    void sessionRoundTripGivesIdenticalSvg_data();
    void sessionRoundTripGivesIdenticalSvg();
    void csvColumnsAndValues();
    void jsonHeatmapMatchesCompute();
    void jsonHeatmapAggregates_data();
    void jsonHeatmapAggregates();
    void jsonHeatmapSampleIsMarked();
    void compareConfigurations_data();
    void compareConfigurations();
    void themesChangeTheBackground_data();
    void themesChangeTheBackground();
    void fontScaleGrowsText();
    void invalidRequestsAreRefused_data();
    void invalidRequestsAreRefused();
    void scenesASessionCannotHoldAreRefused_data();
    void scenesASessionCannotHoldAreRefused();
    void failedExportKeepsExistingFile();
    void formatAndViewNames();
    void allViewsIncludeTheLayerOverview_data();
    void allViewsIncludeTheLayerOverview();
};

// "All views" (File → Export, `figure all`) draws the layer overview under the other views when
// the window shows it (a configuration with a model's layer pattern, view.show_layers), as the
// window does; never for one view, nor when it is hidden.
void TestExport::allViewsIncludeTheLayerOverview_data() {
    QTest::addColumn<QString>("view");      // "" = all views
    QTest::addColumn<bool>("showLayers");
    QTest::addColumn<QString>("format");
    QTest::addColumn<bool>("drawn");
    for (const char* f : {"png", "pdf"}) {
        QTest::addRow("all_shown_%s", f) << "" << true << f << true;
        QTest::addRow("all_hidden_%s", f) << "" << false << f << false;
        QTest::addRow("heatmap_shown_%s", f) << "heatmap" << true << f << false;
    }
}

void TestExport::allViewsIncludeTheLayerOverview() {
    QFETCH(QString, view);
    QFETCH(bool, showLayers);
    QFETCH(QString, format);
    QFETCH(bool, drawn);
    const ModelConfigResult config = readModelConfigFile(QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/gemma-3-27b.json"));
    QVERIFY2(config.config.has_value(), qPrintable(config.error));
    SceneParams scene;
    scene.methods[0].params = config.config->params;
    scene.length = 256;
    scene.view.showLayers = showLayers;
    QVERIFY2(!sceneProblem(scene), qPrintable(sceneProblem(scene).value_or(QString())));
    ExportRequest req;
    if (!view.isEmpty()) req.view = viewFromKey(view);
    req.format = *exportFormatFromKey(format);
    req.pixels = QSize(1600, 1000);
    // What the figure draws (every format paints the same views: paintViews): the overview's
    // heading and its rows, in the bottom third.
    const LayoutReport report = exportLayout(scene, req);
    bool heading = false, rows = false;
    for (const auto& i : report.items) {
        if (i.view != QLatin1String("layers")) continue;
        QVERIFY2(i.rect.top() >= report.bounds.height() * 0.6 - 1, qPrintable(i.text));
        heading = heading || i.text.contains(QStringLiteral("62 layers"));
        rows = rows || i.text == QLatin1String("sliding");
    }
    QCOMPARE(heading, drawn);
    QCOMPARE(rows, drawn);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("figure.") + format);
    QString error;
    QVERIFY2(exportToFile(path, scene, req, &error), qPrintable(error));
    QVERIFY(readAll(path).size() > 1000);
    if (format == QLatin1String("png")) {
        if (const QString shots = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR"); !shots.isEmpty())
            QFile::copy(path, shots + QStringLiteral("/export_") + QString::fromLatin1(QTest::currentDataTag()) + QStringLiteral(".png"));
    }
}

void TestExport::everyViewMethodFormat_data() {
    QTest::addColumn<int>("method");      // index into kAllMethods, −1 = compare scene
    QTest::addColumn<QString>("view");    // view key or "all"
    QTest::addColumn<QString>("format");
    QStringList views = viewKeys();
    views << QStringLiteral("all");
    for (int mi = -1; mi < int(kAllMethods.size()); ++mi)
        for (const auto& v : views)
            for (const auto& f : exportFormatKeys()) {
                const QString m = mi < 0 ? QStringLiteral("compare") : methodName(kAllMethods[std::size_t(mi)]);
                QTest::newRow(qPrintable(QStringLiteral("%1_%2_%3").arg(v, m, f))) << mi << v << f;
            }
}

void TestExport::everyViewMethodFormat() {
    QFETCH(int, method);
    QFETCH(QString, view);
    QFETCH(QString, format);
    const SceneParams scene = method < 0 ? compareScene() : sceneFor(kAllMethods[std::size_t(method)]);
    QVERIFY2(!sceneProblem(scene), qPrintable(sceneProblem(scene).value_or(QString())));
    ExportRequest req;
    req.view = viewFromKey(view);
    req.format = *exportFormatFromKey(format);
    req.pixels = QSize(480, 320);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("figure.") + format);
    QString error;
    QVERIFY2(exportToFile(path, scene, req, &error), qPrintable(error));
    const QByteArray bytes = readAll(path);
    QVERIFY(!bytes.isEmpty());
    const Theme theme = exportTheme(scene, req);

    switch (req.format) {
    case ExportFormat::Png: {
        QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n"));
        QImageReader reader(path);
        QVERIFY2(reader.text(QStringLiteral("Software")).startsWith(QStringLiteral("PosLab ")), "no Software text chunk");
        QVERIFY(reader.text(QStringLiteral("Title")).contains(req.view ? viewTitle(*req.view) : QStringLiteral("All views")));
        const QImage img = reader.read();
        QVERIFY2(!img.isNull(), qPrintable(reader.errorString()));
        QCOMPARE(img.size(), QSize(480, 320));
        const double ink = inkFraction(img, theme.background);
        QVERIFY2(ink > 0.01, qPrintable(QStringLiteral("almost nothing drawn: %1").arg(ink)));
        QCOMPARE(img.pixelColor(0, img.height() - 1).rgb(), theme.background.rgb());  // a background corner
        break;
    }
    case ExportFormat::Svg: {
        QXmlStreamReader xml(bytes);
        QString root;
        int texts = 0;
        bool metadata = false;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement) continue;
            if (root.isEmpty()) root = xml.name().toString();
            if (xml.name() == QLatin1String("text")) ++texts;
            if (xml.name() == QLatin1String("session") && xml.namespaceUri() == QLatin1String("https://example.org/poslab/ns/session/1"))
                metadata = true;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString() + QStringLiteral(" at line %1").arg(xml.lineNumber())));
        QCOMPARE(root, QStringLiteral("svg"));
        QVERIFY2(metadata, "no <poslab:session> metadata");
        QVERIFY2(texts >= 3, qPrintable(QStringLiteral("text is not text: %1 <text> elements").arg(texts)));
        break;
    }
    case ExportFormat::Pdf: {
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
        QVERIFY2(bytes.contains("<poslab:session>{&quot;format&quot;:&quot;poslab-session&quot;"), "no scene in the XMP metadata");
        QVERIFY2(bytes.contains("<?xpacket begin=\"\xEF\xBB\xBF\""), "the XMP packet does not start with a UTF-8 BOM");
        QVERIFY2(bytes.contains("/Creator"), "no /Creator in the info dictionary");
        QVERIFY2(bytes.contains("/Title"), "no /Title in the info dictionary");
        QVERIFY2(bytes.contains("/EmbeddedFile"), "the session is not attached");
        QVERIFY2(bytes.contains("/FontFile2") || bytes.contains("/FontFile3") || bytes.contains("/FontFile "),
                 "no embedded font program (text must be text, fonts embedded)");
        break;
    }
    case ExportFormat::Csv: {
        const QList<QByteArray> lines = bytes.split('\n');
        QVERIFY(lines.size() > 3);
        QVERIFY(lines[0].startsWith("# PosLab "));
        QVERIFY(lines[1].startsWith("# poslab-session: {"));
        int dataRows = 0;
        for (const auto& l : lines)
            if (!l.isEmpty() && !l.startsWith('#')) ++dataRows;
        // Every view that plots numbers for this method has rows (NoPE has no pairs; only
        // RoPE, xPos, sinusoidal and Transformer-XL have frequencies).
        const Method m = scene.methods.front().params.method;
        const bool hasData = method < 0 || !req.view || *req.view == ViewKind::Heatmap || *req.view == ViewKind::Decay ||
                             (*req.view == ViewKind::Pairs && m != Method::NoPE) ||
                             (*req.view == ViewKind::Contributions && m == Method::Rope) ||
                             (*req.view == ViewKind::Precision && m == Method::Rope) ||
                             (*req.view == ViewKind::Frequencies &&
                              (m == Method::Rope || m == Method::Xpos || m == Method::Sinusoidal || m == Method::TransformerXL));
        if (hasData) QVERIFY2(dataRows >= 2, "no data rows");
        else QCOMPARE(dataRows, 1);   // the header
        if (req.view) QVERIFY(!bytes.contains("# view:"));
        else QCOMPARE(int(bytes.count("# view: ")), int(visibleViews(scene).size()));
        break;
    }
    case ExportFormat::Json: {
        QJsonParseError pe{};
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        const QJsonObject root = doc.object();
        QCOMPARE(root.value(QStringLiteral("format")).toString(), QStringLiteral("poslab-data"));
        const QJsonObject views = root.value(QStringLiteral("views")).toObject();
        if (req.view) QCOMPARE(views.keys(), QStringList{viewKey(*req.view)});
        else QCOMPARE(views.size(), int(visibleViews(scene).size()));
        QVERIFY(root.value(QStringLiteral("session")).isObject());
        break;
    }
    }
    checkEmbeddedScene(path, scene);
}

void TestExport::pngSizeAndDpi_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("dpi");
    QTest::newRow("w640_h400_dpi96") << 640 << 400 << 96;
    QTest::newRow("w1280_h800_dpi192") << 1280 << 800 << 192;
    QTest::newRow("w1800_h1200_dpi300") << 1800 << 1200 << 300;
    QTest::newRow("w300_h900_dpi72") << 300 << 900 << 72;
}

void TestExport::pngSizeAndDpi() {
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(int, dpi);
    ExportRequest req;
    req.view = ViewKind::Heatmap;
    req.format = ExportFormat::Png;
    req.pixels = QSize(width, height);
    req.dpi = dpi;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.png"));
    QString error;
    QVERIFY2(exportToFile(path, SceneParams{}, req, &error), qPrintable(error));
    const QImage img(path);
    QCOMPARE(img.size(), QSize(width, height));
    // pHYs records the DPI (dots per metre, rounded).
    QVERIFY2(std::abs(img.dotsPerMeterX() * 0.0254 - dpi) < 0.5, qPrintable(QString::number(img.dotsPerMeterX())));
    QVERIFY2(std::abs(img.dotsPerMeterY() * 0.0254 - dpi) < 0.5, qPrintable(QString::number(img.dotsPerMeterY())));
}

void TestExport::vectorPhysicalSize() {
    // 1800 × 1200 at 300 dpi is 6 × 4 inches in every vector format.
    ExportRequest req;
    req.view = ViewKind::Decay;
    req.pixels = QSize(1800, 1200);
    req.dpi = 300;
    req.format = ExportFormat::Svg;
    QString error;
    const auto svg = exportBytes(SceneParams{}, req, &error);
    QVERIFY2(svg.has_value(), qPrintable(error));
    QXmlStreamReader xml(*svg);
    while (!xml.atEnd() && !(xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg"))) {}
    const QString w = xml.attributes().value(QLatin1String("width")).toString();
    const QString h = xml.attributes().value(QLatin1String("height")).toString();
    QVERIFY2(w.endsWith(QStringLiteral("mm")) && h.endsWith(QStringLiteral("mm")), qPrintable(w + QLatin1Char(' ') + h));
    QVERIFY2(std::abs(w.chopped(2).toDouble() - 6 * 25.4) < 0.5, qPrintable(w));
    QVERIFY2(std::abs(h.chopped(2).toDouble() - 4 * 25.4) < 0.5, qPrintable(h));
    req.format = ExportFormat::Pdf;
    const auto pdf = exportBytes(SceneParams{}, req, &error);
    QVERIFY2(pdf.has_value(), qPrintable(error));
    // The page is 432 × 288 points (6 × 4 in).
    const qsizetype at = pdf->indexOf("/MediaBox");
    QVERIFY(at >= 0);
    const QByteArray box = pdf->mid(at, pdf->indexOf(']', at) - at + 1);
    const QList<QByteArray> parts = box.mid(box.indexOf('[') + 1).chopped(1).simplified().split(' ');
    QCOMPARE(parts.size(), 4);
    QVERIFY2(std::abs(parts[2].toDouble() - 432) < 1.0, box.constData());
    QVERIFY2(std::abs(parts[3].toDouble() - 288) < 1.0, box.constData());
}

void TestExport::sessionRoundTripGivesIdenticalSvg_data() {
    QTest::addColumn<int>("method");
    QTest::addColumn<QString>("view");
    QTest::newRow("rope_all") << int(Method::Rope) << QStringLiteral("all");
    QTest::newRow("compare_heatmap") << -1 << QStringLiteral("heatmap");
    QTest::newRow("compare_all") << -1 << QStringLiteral("all");
    QTest::newRow("t5_pairs") << int(Method::T5) << QStringLiteral("pairs");
    QTest::newRow("xpos_decay") << int(Method::Xpos) << QStringLiteral("decay");
    QTest::newRow("sinusoidal_frequencies") << int(Method::Sinusoidal) << QStringLiteral("frequencies");
}

void TestExport::sessionRoundTripGivesIdenticalSvg() {
    QFETCH(int, method);
    QFETCH(QString, view);
    const SceneParams scene = method < 0 ? compareScene() : sceneFor(static_cast<Method>(method));
    ExportRequest req;
    req.view = viewFromKey(view);
    req.format = ExportFormat::Svg;
    req.pixels = QSize(640, 480);
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("a.svg"));
    const QString second = dir.filePath(QStringLiteral("b.svg"));
    const QString session = dir.filePath(QStringLiteral("s.poslab"));
    QString error;
    QVERIFY2(exportToFile(first, scene, req, &error), qPrintable(error));
    QVERIFY2(saveSession(session, scene, &error), qPrintable(error));
    const auto loaded = loadSession(session, &error);
    QVERIFY2(loaded.has_value(), qPrintable(error));
    QVERIFY2(exportToFile(second, *loaded, req, &error), qPrintable(error));
    QCOMPARE(readAll(second), readAll(first));
    // The scene embedded in the figure reproduces it too.
    const auto embedded = sessionFromExport(first, &error);
    QVERIFY2(embedded.has_value(), qPrintable(error));
    QVERIFY(exportBytes(embedded->scenes.front().scene, req, &error) == readAll(first));
}

void TestExport::csvColumnsAndValues() {
    const SceneParams scene = sceneFor(Method::Alibi);
    ExportRequest req;
    req.format = ExportFormat::Csv;
    req.pixels = QSize(400, 300);
    const struct {
        ViewKind view;
        const char* header;
    } cases[] = {
        {ViewKind::Pairs, "config,title,kind,pair,theta,position,x,y,angle,series,value"},
        {ViewKind::Heatmap, "panel,title,difference,query,key,value,aggregate,query_to,key_to"},
        {ViewKind::Decay, "config,title,distance,value,bound,distance_from,distance_to,value_min,value_max,value_mean,bound_min,bound_max,bound_mean"},
        {ViewKind::Frequencies, "config,title,pair,theta_before,theta_after,wavelength_before,wavelength_after"},
    };
    for (const auto& c : cases) {
        req.view = c.view;
        const QList<QByteArray> lines = exportCsv(scene, req).split('\n');
        QCOMPARE(lines[2], QByteArray(c.header));
        const int columns = int(lines[2].count(',')) + 1;
        for (int i = 3; i < lines.size(); ++i) {
            if (lines[i].isEmpty()) continue;
            QVERIFY2(int(lines[i].count(',')) + 1 == columns, lines[i].constData());  // titles without commas here
        }
    }
    // Decay of ALiBi head 1 of 8: value = −slope·d with slope 2^(−8·2/8) = 1/4.
    req.view = ViewKind::Decay;
    const QList<QByteArray> lines = exportCsv(scene, req).split('\n');
    int checked = 0;
    for (int i = 3; i < lines.size(); ++i) {
        const QList<QByteArray> f = lines[i].split(',');
        if (f.size() < 4) continue;
        const double d = f[2].toDouble(), v = f[3].toDouble();
        QVERIFY2(std::abs(v - (-0.25 * d)) <= 1e-12 * std::max(1.0, d), lines[i].constData());
        ++checked;
    }
    QVERIFY(checked > 50);
}

void TestExport::jsonHeatmapMatchesCompute() {
    // The JSON holds the values the heatmap draws: with ones content and NoPE every score is
    // s·q·k = dim/sqrt(dim) = sqrt(dim).
    SceneParams scene = sceneFor(Method::NoPE);
    scene.view.causal = true;
    ExportRequest req;
    req.view = ViewKind::Heatmap;
    req.format = ExportFormat::Json;
    req.pixels = QSize(400, 300);
    const QJsonObject root = QJsonDocument::fromJson(exportJson(scene, req)).object();
    const QJsonObject hm = root.value(QStringLiteral("views")).toObject().value(QStringLiteral("heatmap")).toObject();
    const QJsonObject panel = hm.value(QStringLiteral("panels")).toArray().at(0).toObject();
    const QJsonArray queries = panel.value(QStringLiteral("queries")).toArray();
    const QJsonArray keys = panel.value(QStringLiteral("keys")).toArray();
    const QJsonArray rows = panel.value(QStringLiteral("values")).toArray();
    QCOMPARE(rows.size(), queries.size());
    QVERIFY(rows.size() > 10);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonArray row = rows.at(i).toArray();
        QCOMPARE(row.size(), keys.size());
        for (qsizetype j = 0; j < row.size(); ++j) {
            if (keys.at(j).toInteger() > queries.at(i).toInteger()) {
                QVERIFY2(row.at(j).isNull(), "a causal-masked cell is not null");
            } else {
                QVERIFY2(std::abs(row.at(j).toDouble() - 4.0) < 1e-12, qPrintable(QString::number(row.at(j).toDouble())));
            }
        }
    }
}

void TestExport::jsonHeatmapAggregates_data() {
    QTest::addColumn<int>("method");
    QTest::addColumn<int>("content");
    QTest::addColumn<int>("precision");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<QString>("aggregate");
    for (bool causal : {false, true})
        for (const char* agg : {"mean", "max", "min"}) {
            const char* c = causal ? "causal" : "bidirectional";
            QTest::addRow("rope_double_ones_%s_%s", agg, c) << int(Method::Rope) << int(Content::Ones) << int(Precision::Double) << causal << agg;
            QTest::addRow("alibi_ones_%s_%s", agg, c) << int(Method::Alibi) << int(Content::Ones) << int(Precision::Float32) << causal << agg;
            QTest::addRow("rope_float32_random_%s_%s", agg, c) << int(Method::Rope) << int(Content::Random) << int(Precision::Float32) << causal << agg;
        }
}

void TestExport::jsonHeatmapAggregates() {
    // N = 700 on a ~200-pixel panel: each value is the statistic of a block of cells
    // (query_ranges × key_ranges, covering 0..N−1); over all blocks, weighted by their visible
    // cells, the means are the mean of the whole matrix, the maxima its max, the minima its min.
    QFETCH(int, method);
    QFETCH(int, content);
    QFETCH(int, precision);
    QFETCH(bool, causal);
    QFETCH(QString, aggregate);
    SceneParams scene = sceneFor(static_cast<Method>(method));
    scene.methods.front().params.content = static_cast<Content>(content);
    scene.methods.front().params.precision = static_cast<Precision>(precision);
    scene.length = 700;
    scene.view.causal = causal;
    scene.view.aggregate = *enumFromKey<Aggregate>(aggregate.toStdString());
    ExportRequest req;
    req.view = ViewKind::Heatmap;
    req.format = ExportFormat::Json;
    req.pixels = QSize(400, 300);
    const QJsonObject root = QJsonDocument::fromJson(exportJson(scene, req)).object();
    const QJsonObject hm = root.value(QStringLiteral("views")).toObject().value(QStringLiteral("heatmap")).toObject();
    const QJsonObject panel = hm.value(QStringLiteral("panels")).toArray().at(0).toObject();
    QCOMPARE(panel.value(QStringLiteral("aggregate")).toString(), aggregate);
    auto ranges = [&](const char* key) {
        std::vector<PositionRange> out;
        for (const auto& r : panel.value(QLatin1String(key)).toArray())
            out.push_back({r.toArray().at(0).toInteger(), r.toArray().at(1).toInteger()});
        return out;
    };
    const auto qr = ranges("query_ranges"), kr = ranges("key_ranges");
    QVERIFY(qr.size() > 10 && qr.size() < 700);
    QCOMPARE(qr.front().from, std::int64_t(0));
    QCOMPARE(qr.back().to, std::int64_t(700));
    for (std::size_t i = 1; i < qr.size(); ++i) QCOMPARE(qr[i].from, qr[i - 1].to);
    QCOMPARE(kr, qr);
    const ScoreParams p = effectiveParams(scene, 0);
    const Matrix full = scores(p, arangePositions(0, 700), arangePositions(0, 700), 700).value();
    const QJsonArray rows = panel.value(QStringLiteral("values")).toArray();
    QCOMPARE(rows.size(), qsizetype(qr.size()));
    double wsum = 0, fsum = 0, hi = -1e300, lo = 1e300, bhi = -1e300, blo = 1e300;
    std::int64_t wcount = 0, fcount = 0;
    for (std::size_t a = 0; a < qr.size(); ++a)
        for (std::size_t b = 0; b < kr.size(); ++b) {
            std::int64_t count = 0;
            for (auto i = qr[a].from; i < qr[a].to; ++i)
                for (auto j = kr[b].from; j < kr[b].to; ++j)
                    if (!causal || j <= i) ++count;
            const QJsonValue v = rows.at(qsizetype(a)).toArray().at(qsizetype(b));
            if (count == 0) {
                QVERIFY2(v.isNull(), "a block with no visible cell is null");
                continue;
            }
            wsum += v.toDouble() * double(count);
            wcount += count;
            bhi = std::max(bhi, v.toDouble());
            blo = std::min(blo, v.toDouble());
        }
    for (Eigen::Index i = 0; i < 700; ++i)
        for (Eigen::Index j = 0; j < 700; ++j) {
            if (causal && j > i) continue;
            fsum += full(i, j);
            hi = std::max(hi, full(i, j));
            lo = std::min(lo, full(i, j));
            ++fcount;
        }
    QCOMPARE(wcount, fcount);
    const double tol = 1e-11 * (1 + std::max(std::abs(hi), std::abs(lo)));
    if (aggregate == QLatin1String("mean"))
        QVERIFY2(std::abs(wsum / double(wcount) - fsum / double(fcount)) <= tol,
                 qPrintable(QStringLiteral("%1 vs %2").arg(wsum / double(wcount), 0, 'g', 17).arg(fsum / double(fcount), 0, 'g', 17)));
    if (aggregate == QLatin1String("max")) QVERIFY(std::abs(bhi - hi) <= tol);
    if (aggregate == QLatin1String("min")) QVERIFY(std::abs(blo - lo) <= tol);
}

void TestExport::jsonHeatmapSampleIsMarked() {
    // Past the work a figure may spend (random content, N = 65536: 2^38 multiply-adds), each
    // value is one sampled cell, marked "sample", with the positions sampled: never "mean".
    SceneParams scene = sceneFor(Method::Rope);
    scene.methods.front().params.content = Content::Random;
    scene.methods.front().params.dim = 64;
    scene.length = 65536;
    ExportRequest req;
    req.view = ViewKind::Heatmap;
    req.format = ExportFormat::Json;
    req.pixels = QSize(300, 200);
    const QJsonObject root = QJsonDocument::fromJson(exportJson(scene, req)).object();
    const QJsonObject panel = root.value(QStringLiteral("views")).toObject().value(QStringLiteral("heatmap")).toObject()
                                  .value(QStringLiteral("panels")).toArray().at(0).toObject();
    QCOMPARE(panel.value(QStringLiteral("aggregate")).toString(), QStringLiteral("sample"));
    const QJsonArray queries = panel.value(QStringLiteral("queries")).toArray();
    const QJsonArray ranges = panel.value(QStringLiteral("query_ranges")).toArray();
    QCOMPARE(queries.size(), ranges.size());
    const QJsonArray row = panel.value(QStringLiteral("values")).toArray().at(1).toArray();
    const Positions q{queries.at(1).toInteger()};
    Positions k;
    for (const auto& x : panel.value(QStringLiteral("keys")).toArray()) k.push_back(x.toInteger());
    const Matrix direct = scores(effectiveParams(scene, 0), q, k, 65536).value();
    for (qsizetype j = 0; j < row.size(); ++j) {
        const auto r = ranges.at(j).toArray();
        QVERIFY(k[std::size_t(j)] >= r.at(0).toInteger() && k[std::size_t(j)] < r.at(1).toInteger());
        QCOMPARE(row.at(j).toDouble(), direct(0, j));
    }
}

void TestExport::compareConfigurations_data() {
    // 1–4 configurations × every view and "all" × every format. Four configurations used to
    // crash the data formats (the difference panels read configuration A after it had moved).
    QTest::addColumn<int>("configs");
    QTest::addColumn<bool>("mixed");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("format");
    QStringList views = viewKeys();
    views << QStringLiteral("all");
    for (int n = 1; n <= kMaxConfigs; ++n)
        for (bool mixed : {false, true}) {
            if (!mixed && n != 1 && n != kMaxConfigs) continue;
            for (const auto& v : views)
                for (const auto& f : exportFormatKeys())
                    QTest::newRow(qPrintable(QStringLiteral("%1configs_%2_%3_%4").arg(n).arg(mixed ? "mixed" : "same", v, f)))
                        << n << mixed << v << f;
        }
}

void TestExport::compareConfigurations() {
    QFETCH(int, configs);
    QFETCH(bool, mixed);
    QFETCH(QString, view);
    QFETCH(QString, format);
    const SceneParams scene = configsScene(configs, mixed);
    QVERIFY2(!sceneProblem(scene), qPrintable(sceneProblem(scene).value_or(QString())));
    ExportRequest req;
    req.view = viewFromKey(view);
    req.format = *exportFormatFromKey(format);
    req.pixels = QSize(400, 300);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("figure.") + format);
    QString error;
    QVERIFY2(exportToFile(path, scene, req, &error), qPrintable(error));
    QVERIFY(!readAll(path).isEmpty());
    checkEmbeddedScene(path, scene);
    if (req.format != ExportFormat::Json || (req.view && *req.view != ViewKind::Heatmap)) return;

    // The heatmap's panels: one per configuration, then B − A, C − A, D − A for the
    // configurations of A's method and head dimension (the same ones; none of the mixed ones,
    // which a sentence explains), each the difference of its configuration's values and A's on
    // the same queries and keys.
    const QJsonObject hm = QJsonDocument::fromJson(readAll(path)).object().value(QStringLiteral("views")).toObject()
                               .value(QStringLiteral("heatmap")).toObject();
    const QJsonArray panels = hm.value(QStringLiteral("panels")).toArray();
    const int differences = configs > 1 && !mixed ? configs - 1 : 0;
    QCOMPARE(panels.size(), configs + differences);
    QCOMPARE(hm.contains(QStringLiteral("difference_note")), mixed && configs > 1);
    const QJsonObject a = panels.at(0).toObject();
    for (int c = 1; c <= differences; ++c) {
        const QJsonObject b = panels.at(c).toObject();
        const QJsonObject d = panels.at(configs - 1 + c).toObject();
        QVERIFY(d.value(QStringLiteral("difference")).toBool());
        QCOMPARE(d.value(QStringLiteral("title")).toString(), QStringLiteral("%1 − A").arg(QChar('A' + c)));
        QVERIFY2(!d.contains(QStringLiteral("error")), qPrintable(d.value(QStringLiteral("error")).toString()));
        QCOMPARE(d.value(QStringLiteral("queries")), a.value(QStringLiteral("queries")));
        QCOMPARE(d.value(QStringLiteral("keys")), a.value(QStringLiteral("keys")));
        const QJsonArray av = a.value(QStringLiteral("values")).toArray(), bv = b.value(QStringLiteral("values")).toArray(),
                         dv = d.value(QStringLiteral("values")).toArray();
        QVERIFY(av.size() > 10);
        QCOMPARE(dv.size(), av.size());
        for (qsizetype i = 0; i < av.size(); ++i) {
            const QJsonArray ar = av.at(i).toArray(), br = bv.at(i).toArray(), dr = dv.at(i).toArray();
            QCOMPARE(dr.size(), ar.size());
            for (qsizetype j = 0; j < ar.size(); ++j) {
                if (ar.at(j).isNull() || br.at(j).isNull()) {
                    QVERIFY(dr.at(j).isNull());
                    continue;
                }
                const double want = br.at(j).toDouble() - ar.at(j).toDouble();
                QVERIFY2(std::abs(dr.at(j).toDouble() - want) <= 1e-12 * (1 + std::abs(want)),
                         qPrintable(QStringLiteral("%1 − A at (%2, %3): %4, want %5").arg(QChar('A' + c)).arg(i).arg(j)
                                        .arg(dr.at(j).toDouble()).arg(want)));
            }
        }
    }
}

void TestExport::themesChangeTheBackground_data() {
    QTest::addColumn<QString>("theme");
    for (const auto& t : themeNames()) QTest::newRow(qPrintable(t)) << t;
}

void TestExport::themesChangeTheBackground() {
    QFETCH(QString, theme);
    ExportRequest req;
    req.view = ViewKind::Frequencies;
    req.format = ExportFormat::Png;
    req.pixels = QSize(400, 300);
    req.theme = theme;
    QString error;
    const auto bytes = exportBytes(SceneParams{}, req, &error);
    QVERIFY2(bytes.has_value(), qPrintable(error));
    const QImage img = QImage::fromData(*bytes, "png");
    QCOMPARE(img.pixelColor(1, img.height() - 2).rgb(), themeByName(theme).background.rgb());
}

void TestExport::fontScaleGrowsText() {
    // A larger font scale puts more ink on the page (bigger glyphs) for the same figure.
    ExportRequest req;
    req.view = ViewKind::Frequencies;
    req.format = ExportFormat::Png;
    req.pixels = QSize(600, 400);
    QString error;
    req.fontScale = 0.7;
    const QImage small = QImage::fromData(*exportBytes(SceneParams{}, req, &error), "png");
    req.fontScale = 2.0;
    const QImage large = QImage::fromData(*exportBytes(SceneParams{}, req, &error), "png");
    QVERIFY(!small.isNull() && !large.isNull());
    QVERIFY(small != large);
}

void TestExport::invalidRequestsAreRefused_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("dpi");
    QTest::addColumn<QString>("theme");
    QTest::addColumn<QString>("message");
    QTest::newRow("width10") << 10 << 300 << 96 << QString() << "width: an integer from 64 to 16384, got 10";
    QTest::newRow("height99999") << 300 << 99999 << 96 << QString() << "height: an integer from 64 to 16384, got 99999";
    QTest::newRow("area16384sq") << 16384 << 16384 << 96 << QString() << "width × height: at most";
    QTest::newRow("dpi0") << 300 << 300 << 0 << QString() << "dpi: an integer from 24 to 2400, got 0";
    QTest::newRow("dpiTooFineForSize") << 100 << 100 << 600 << QString() << "dpi: at most 150";
    QTest::newRow("themeNeon") << 300 << 300 << 96 << QStringLiteral("neon") << "theme: one of light, dark, projector, got neon";
}

void TestExport::invalidRequestsAreRefused() {
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(int, dpi);
    QFETCH(QString, theme);
    QFETCH(QString, message);
    ExportRequest req;
    req.pixels = QSize(width, height);
    req.dpi = dpi;
    req.theme = theme;
    QString error;
    QVERIFY(!exportBytes(SceneParams{}, req, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestExport::scenesASessionCannotHoldAreRefused_data() {
    // Every figure carries its scene: a scene the session reader would refuse is not exported
    // (such a figure could not be opened with --session): sceneProblem() checks what the reader
    // checks, with the parameter table's message.
    QTest::addColumn<int>("change");
    QTest::addColumn<QString>("message");
    QTest::newRow("fiveConfigurations") << 0 << "the scene is not valid: methods: 1 to 4 configurations, got 5";
    QTest::newRow("head4096") << 1 << "the scene is not valid: head: an integer from 0 to 4095, got 4096";
    QTest::newRow("decayMaxDistance0") << 2 << "the scene is not valid: decay_max_distance: an integer from 1 to 1048576, got 0";
}

void TestExport::scenesASessionCannotHoldAreRefused() {
    QFETCH(int, change);
    QFETCH(QString, message);
    SceneParams scene;
    switch (change) {
    case 0: scene.methods.resize(5); break;
    case 1: scene.head = 4096; break;
    default: scene.view.decayMaxDistance = 0; break;
    }
    ExportRequest req;
    req.format = ExportFormat::Csv;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("f.csv"));
    QString error;
    QVERIFY(!exportToFile(path, scene, req, &error));
    QVERIFY2(error.contains(message) && !error.contains(QLatin1Char('\n')), qPrintable(error));
    QVERIFY(!QFile::exists(path));
}

void TestExport::failedExportKeepsExistingFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("keep.png"));
    ExportRequest req;
    req.format = ExportFormat::Png;
    req.pixels = QSize(300, 200);
    QString error;
    QVERIFY2(exportToFile(path, SceneParams{}, req, &error), qPrintable(error));
    const QByteArray before = readAll(path);
    // An invalid scene: nothing is written, the old figure stays whole.
    SceneParams bad;
    bad.methods.front().params.rope.base = 0.5;
    QVERIFY(!exportToFile(path, bad, req, &error));
    QVERIFY2(error.contains(QStringLiteral("base")), qPrintable(error));
    QCOMPARE(readAll(path), before);
    // An invalid request: likewise, and no new file appears.
    req.pixels = QSize(1, 1);
    QVERIFY(!exportToFile(dir.filePath(QStringLiteral("new.svg")), SceneParams{}, req, &error));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("keep.png")});
}

void TestExport::formatAndViewNames() {
    QCOMPARE(exportFormatFromPath(QStringLiteral("/x/Figure.SVG")), std::optional<ExportFormat>(ExportFormat::Svg));
    QCOMPARE(exportFormatFromPath(QStringLiteral("a.tar.pdf")), std::optional<ExportFormat>(ExportFormat::Pdf));
    QVERIFY(!exportFormatFromPath(QStringLiteral("a.gif")));
    QVERIFY(!exportFormatFromPath(QStringLiteral("noext")));
    for (ViewKind v : kAllViews) QCOMPARE(viewFromKey(viewKey(v)), std::optional<ViewKind>(v));
    QVERIFY(!viewFromKey(QStringLiteral("all")));
    SceneParams s;
    s.view.showPairs = s.view.showDecay = false;
    QCOMPARE(visibleViews(s), (std::vector<ViewKind>{ViewKind::Heatmap, ViewKind::Frequencies}));
    s.view.showHeatmap = s.view.showFrequencies = false;
    QCOMPARE(visibleViews(s).size(), std::size_t(4));
}

QTEST_MAIN(TestExport)
#include "test_export.moc"
