// Fuzzing the figure exporters (exportBytes / exportToFile): random valid scenes of 1–4
// configurations (every method, every model preset), near-valid scenes (one field pushed to or
// past its limit, zero or five configurations, NaN font scale, unknown theme...), and scenes read
// from mutated sessions, each in a random format (PNG, SVG, PDF, CSV, JSON), view and request
// (size, DPI, theme, font scale, some of them out of range). For every case the exporter must not
// crash and must either give the format's bytes (a file, for exportToFile) or refuse with one
// non-empty line (and then write nothing); a valid scene (one a session can hold: figures carry
// their scene) with a valid request must succeed.
// Seeds are fixed: a failure names the row and iteration, which reproduce it.
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

#include "support/fuzzsupport.h"
#include "ui/io/export.h"
#include "ui/io/session.h"

using namespace poslab;
using namespace poslab::ui;
using namespace fuzzsupport;

namespace {

ExportRequest randomRequest(Rng& rng, bool valid) {
    ExportRequest r;
    const QStringList views = viewKeys();
    const int v = rng.index(std::size_t(views.size()) + 1);
    if (v < views.size()) r.view = viewFromKey(views[v]);
    r.format = *exportFormatFromKey(rng.pick(exportFormatKeys()));
    r.pixels = QSize(int(rng.between(64, 640)), int(rng.between(64, 480)));
    r.dpi = int(rng.pick(std::vector<std::int64_t>{24, 48, 96, 96, 96, 144, 192}));
    if (r.pixels.width() * 96.0 / r.dpi < 64 || r.pixels.height() * 96.0 / r.dpi < 64) r.dpi = 96;
    if (rng.chance(0.3)) r.theme = rng.pick(QStringList{QStringLiteral("light"), QStringLiteral("dark"), QStringLiteral("projector")});
    if (rng.chance(0.2)) r.fontScale = rng.pick(std::vector<double>{0.5, 1.3, 3.0});
    if (valid) return r;
    switch (rng.between(0, 7)) {
    case 0: r.pixels.setWidth(int(rng.pick(std::vector<std::int64_t>{-1, 0, 63, 16385, std::numeric_limits<int>::max()}))); break;
    case 1: r.pixels.setHeight(int(rng.pick(std::vector<std::int64_t>{-1, 0, 63, 16385, std::numeric_limits<int>::min()}))); break;
    case 2: r.pixels = QSize(16384, 16384); break;   // over the area limit
    case 3: r.dpi = int(rng.pick(std::vector<std::int64_t>{-96, 0, 23, 2401, 1000})); break;
    case 4: r.theme = rng.pick(QStringList{QStringLiteral("neon"), QStringLiteral(" "), QStringLiteral("Light")}); break;
    case 5: r.fontScale = rng.pick(std::vector<double>{std::nan(""), 0.0, 0.49, 3.01, -1.0, HUGE_VAL}); break;
    case 6: r.format = static_cast<ExportFormat>(rng.between(0, 4)); break;   // still valid: a control row
    default: r.dpi = 2400; break;   // needs a 1600-pixel figure
    }
    return r;
}

// A scene one step past what is valid (or at an edge that is still valid).
SceneParams nearValidScene(Rng& rng, int* kind) {
    SceneParams s = validScene(rng, int(rng.between(1, kMaxConfigs)));
    MethodConfig& c = s.methods[std::size_t(rng.index(s.methods.size()))];
    *kind = int(rng.between(0, 13));
    switch (*kind) {
    case 0: s.length = rng.pick(std::vector<std::int64_t>{-1, 0, 1, kMaxLength, kMaxLength + 1, std::numeric_limits<std::int64_t>::max()}); break;
    case 1: s.positions.push_back(rng.pick(std::vector<std::int64_t>{-1, std::numeric_limits<std::int64_t>::min(), 1LL << 40, std::numeric_limits<std::int64_t>::max()})); break;
    case 2: s.pairs.push_back(int(rng.pick(std::vector<std::int64_t>{-1, 32767, 32768, std::numeric_limits<int>::max()}))); break;
    case 3: s.head = int(rng.pick(std::vector<std::int64_t>{-1, 4095, 4096, std::numeric_limits<int>::max()})); break;
    case 4: s.view.decayMaxDistance = rng.pick(std::vector<std::int64_t>{-5, 0, 1, 1048576, 1048577, std::numeric_limits<std::int64_t>::max()}); break;
    case 5: s.view.fontScale = rng.pick(std::vector<double>{std::nan(""), 0.0, 0.49, 3.01, -1.0, HUGE_VAL}); break;
    case 6: s.view.theme = rng.pick(QStringList{QString(), QStringLiteral("neon")}); break;
    case 7: c.params.dim = int(rng.pick(std::vector<std::int64_t>{-2, 0, 1, 3, 4096, 4097, 65537})); break;
    case 8: c.params.seed = std::numeric_limits<std::uint64_t>::max(); break;
    case 9: s.methods.clear(); break;
    case 10: s.methods.resize(std::size_t(kMaxConfigs + 1)); break;
    // A long label (not longer: the CSV repeats the title on every row, and a 20 000-character
    // label made a 3.9 GB CSV of a learned table — reported, labels have no length limit).
    case 11: c.label = QString(300, QChar(0x2212)); break;
    case 12: s.view.showPairs = s.view.showHeatmap = s.view.showDecay = s.view.showFrequencies = false; break;
    default: s.positions.assign(std::size_t(rng.between(0, 64)), rng.between(0, 70000)); break;
    }
    return s;
}

// A scene from a mutated session that the reader accepted (nullopt if it refused).
std::optional<SceneParams> sceneFromMutatedSession(Rng& rng) {
    Session s;
    s.scenes = {SessionScene{QString(), QString(), validScene(rng, int(rng.between(1, kMaxConfigs)))}};
    const Mutation m = rng.pick(std::vector<Mutation>{Mutation::ExtremeNumber, Mutation::TypeSwap, Mutation::DeleteKey, Mutation::DuplicateKey});
    const auto read = sessionFromJson(mutate(sessionToJson(s, true), rng, m), QStringLiteral("fuzz"), nullptr);
    if (!read) return std::nullopt;
    return read->scenes[std::size_t(read->current)].scene;
}

// A scene a figure can carry: it validates and a session holding it opens again.
bool isValid(const SceneParams& s) {
    return !sceneProblem(s) && sessionFromJson(sceneToJson(s, true), QStringLiteral("scene"), nullptr).has_value();
}

bool looksLike(ExportFormat f, const QByteArray& b) {
    switch (f) {
    case ExportFormat::Png: return b.startsWith("\x89PNG\r\n\x1a\n");
    case ExportFormat::Svg: return b.contains("<svg") && b.trimmed().endsWith("</svg>");
    case ExportFormat::Pdf: return b.startsWith("%PDF-") && b.trimmed().endsWith("%%EOF");
    case ExportFormat::Csv: return b.startsWith("# PosLab ");
    case ExportFormat::Json: return QJsonDocument::fromJson(b).isObject();
    }
    return false;
}

}  // namespace

class TestFuzzExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void randomExports_data();
    void randomExports();
};

void TestFuzzExport::randomExports_data() {
    QTest::addColumn<QString>("scenes");   // valid, nearValid, mutatedSession
    QTest::addColumn<bool>("validRequest");
    QTest::addColumn<int>("iterations");
    QTest::addColumn<quint64>("seed");
    QTest::newRow("valid") << QStringLiteral("valid") << true << 1000 << quint64(0xf16'0001);
    QTest::newRow("valid_badRequest") << QStringLiteral("valid") << false << 300 << quint64(0xf16'0002);
    QTest::newRow("nearValid") << QStringLiteral("nearValid") << true << 1000 << quint64(0xf16'0003);
    QTest::newRow("mutatedSession") << QStringLiteral("mutatedSession") << true << 1000 << quint64(0xf16'0004);
}

void TestFuzzExport::randomExports() {
    QFETCH(QString, scenes);
    QFETCH(bool, validRequest);
    QFETCH(int, iterations);
    iterations = scaled(iterations);
    QFETCH(quint64, seed);
    Rng rng(seed);
    QTemporaryDir dir;
    int written = 0, refused = 0;
    for (int i = 0; i < iterations; ++i) {
        SceneParams scene;
        int kind = -1;   // nearValidScene's change
        if (scenes == QLatin1String("valid")) {
            scene = fuzzsupport::validScene(rng, int(rng.between(1, kMaxConfigs)));
        } else if (scenes == QLatin1String("nearValid")) {
            scene = nearValidScene(rng, &kind);
        } else {
            const auto s = sceneFromMutatedSession(rng);
            if (!s) continue;
            scene = *s;
        }
        const ExportRequest req = randomRequest(rng, validRequest);
        const bool shouldWork = isValid(scene) && !exportRequestProblem(req);
        const QString where = QStringLiteral("iteration %1 (change %2, %3 configurations, %4, %5): ")
                                  .arg(i).arg(kind).arg(scene.methods.size()).arg(exportFormatKey(req.format), req.view ? viewKey(*req.view) : QStringLiteral("all"));
        QElapsedTimer t;
        t.start();
        const QString path = dir.filePath(QStringLiteral("f%1.%2").arg(i).arg(exportFormatKey(req.format)));
        QString error;
        const bool ok = exportToFile(path, scene, req, &error);
        QVERIFY2(t.elapsed() < 20000, qPrintable(where + QStringLiteral("took %1 ms").arg(t.elapsed())));
        if (ok) {
            ++written;
            QVERIFY2(shouldWork, qPrintable(where + QStringLiteral("an invalid scene or request was exported")));
            QFile f(path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(where + QStringLiteral("reported written, no file")));
            QVERIFY2(looksLike(req.format, f.readAll()), qPrintable(where + QStringLiteral("not a %1 file").arg(exportFormatKey(req.format))));
            QString why;
            const auto back = sessionFromExport(path, &why);
            QVERIFY2(back && back->scenes.front().scene == scene, qPrintable(where + QStringLiteral("the figure does not carry its scene: ") + why));
            QFile::remove(path);
        } else {
            ++refused;
            QVERIFY2(!shouldWork, qPrintable(where + QStringLiteral("a valid export failed: ") + error));
            QVERIFY2(!error.trimmed().isEmpty() && !error.contains(QLatin1Char('\n')), qPrintable(where + QStringLiteral("error not one line: [") + error + QLatin1Char(']')));
            QVERIFY2(!QFile::exists(path), qPrintable(where + QStringLiteral("a failed export left a file")));
        }
    }
    qInfo("%d written, %d refused", written, refused);
    QVERIFY(written + refused > iterations / 3);
}

QTEST_MAIN(TestFuzzExport)
#include "test_fuzz_export.moc"
