// `poslab figure deck` (cli.md "Figures and the deck"): every slide of the deck (a session's, else
// the default lecture), one PDF page per slide with its title as text, --notes setting the speaker
// notes under each slide and never otherwise; -o DIR/ one PNG per slide named 01-<key>.png, …;
// the PDF carries the deck (--session F.pdf reads it back); bad input is exit 2 with one line and
// writes nothing; `figure --batch` accepts deck, demo KEY and layers.
#include "support/pdftext.h"
#include "support/runposlab.h"
#include "support/testsupport.h"

#include "core/demonstrations.h"
#include "ui/teaching/demotext.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace testsupport;

namespace {

using Run = testsupport::PoslabRun;

using testsupport::readAll;

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A deck session of slides titled `titles` with notes "notes of <title>".
QByteArray deckJson(const QStringList& titles) {
    QByteArray scenes;
    for (const QString& t : titles) {
        if (!scenes.isEmpty()) scenes += ',';
        scenes += "{\"title\":\"" + t.toUtf8() + "\",\"notes\":\"notes of " + t.toUtf8() + "\",\"length\":" +
                  QByteArray::number(16 + 8 * scenes.count('{')) + "}";
    }
    return "{\"format\":\"poslab-session\",\"schema\":1,\"current\":0,\"scenes\":[" + scenes + "]}";
}

QStringList lectureTitles() {
    QStringList out;
    for (const auto& d : poslab::demonstrations()) out << poslab::ui::demoTitle(d.id);
    return out;
}

QStringList lectureKeys() {
    QStringList out;
    for (const auto& d : poslab::demonstrations()) out << QString::fromStdString(d.key);
    return out;
}

// The /MediaBox of every page, in points.
QList<QSizeF> pageSizes(const QByteArray& pdf) {
    QList<QSizeF> out;
    static const QRegularExpression box(QStringLiteral("/MediaBox \\[0 0 ([\\d.]+) ([\\d.]+)\\]"));
    for (auto it = box.globalMatch(QString::fromLatin1(pdf)); it.hasNext();) {
        const auto m = it.next();
        out << QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble());
    }
    return out;
}

int pageObjects(const QByteArray& pdf) {
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?![s\\w])"));
    int n = 0;
    for (auto it = page.globalMatch(QString::fromLatin1(pdf)); it.hasNext(); it.next()) ++n;
    return n;
}

}  // namespace

class TestFigureDeck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pdfHasOnePagePerSlideWithItsTitle_data();
    void pdfHasOnePagePerSlideWithItsTitle();
    void pdfCarriesTheDeck();
    void pngFolderHasOneImagePerSlide_data();
    void pngFolderHasOneImagePerSlide();
    void badInputIsOneLineAndWritesNothing_data();
    void badInputIsOneLineAndWritesNothing();
    void helpNamesTheDeck();
    void batchAcceptsEveryFigure_data();
    void batchAcceptsEveryFigure();
};

void TestFigureDeck::pdfHasOnePagePerSlideWithItsTitle_data() {
    QTest::addColumn<QStringList>("titles");       // the session's slides; empty = the default lecture
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<bool>("notes");
    QTest::addColumn<QSizeF>("slidePoints");       // a slide's size in points (72 per 96 px)
    QTest::newRow("lecture_projector_1920x1080") << QStringList{} << QStringList{} << false << QSizeF(1440, 810);
    QTest::newRow("threeSlides_light_1280x720_notes")
        << QStringList{"Alpha rotates", "Beta decays", "Gamma buckets"}
        << QStringList{"--theme", "light", "--width", "1280", "--height", "720", "--notes"} << true << QSizeF(960, 540);
    QTest::newRow("threeSlides_dark_noNotes") << QStringList{"Alpha rotates", "Beta decays", "Gamma buckets"}
                                             << QStringList{"--theme", "dark"} << false << QSizeF(1440, 810);
    QTest::newRow("oneSlide_800x600_notes") << QStringList{"Only slide"} << QStringList{"--width", "800", "--height", "600", "--notes"}
                                           << true << QSizeF(600, 450);
}

void TestFigureDeck::pdfHasOnePagePerSlideWithItsTitle() {
    QFETCH(QStringList, titles);
    QFETCH(QStringList, options);
    QFETCH(bool, notes);
    QFETCH(QSizeF, slidePoints);
    QTemporaryDir dir;
    QStringList args{QStringLiteral("figure"), QStringLiteral("deck")};
    const bool lecture = titles.isEmpty();
    if (!lecture) {
        const QString session = dir.filePath(QStringLiteral("deck.poslab"));
        QVERIFY(writeFile(session, deckJson(titles)));
        args << QStringLiteral("--session") << session;
    } else {
        titles = lectureTitles();
    }
    const QString out = dir.filePath(QStringLiteral("deck.pdf"));
    args << options << QStringLiteral("-o") << out;
    const Run r = runPoslab(args);
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    const QByteArray pdf = readAll(out);
    QVERIFY(pdf.startsWith("%PDF"));
    QCOMPARE(pageObjects(pdf), int(titles.size()));
    // Every page the same size: the slide, and with notes the band under it.
    const QList<QSizeF> sizes = pageSizes(pdf);
    QCOMPARE(int(sizes.size()), int(titles.size()));
    for (const QSizeF& s : sizes) {
        QCOMPARE(s, sizes.front());
        QVERIFY2(std::abs(s.width() - slidePoints.width()) < 1, qPrintable(QString::number(s.width())));
        if (notes) QVERIFY2(s.height() > slidePoints.height() + 20, qPrintable(QString::number(s.height())));
        else QVERIFY2(std::abs(s.height() - slidePoints.height()) < 1, qPrintable(QString::number(s.height())));
    }
    // Text as text: each page shows its slide's title, and its notes only with --notes.
    const QStringList pages = pdfPageTexts(pdf);
    QCOMPARE(int(pages.size()), int(titles.size()));
    for (qsizetype i = 0; i < titles.size(); ++i) {
        const QString page = withoutSpaces(pages[i]);
        QVERIFY2(page.contains(withoutSpaces(titles[i])), qPrintable(QStringLiteral("page %1 lacks \"%2\": %3").arg(i + 1).arg(titles[i], page.left(300))));
        if (!lecture) {
            const QString note = withoutSpaces(QStringLiteral("notes of ") + titles[i]);
            QVERIFY2(page.contains(note) == notes, qPrintable(QStringLiteral("page %1: notes %2").arg(i + 1).arg(page.contains(note))));
        }
    }
}

// The PDF holds the deck: `figure deck --session deck.pdf` writes the same slides again.
void TestFigureDeck::pdfCarriesTheDeck() {
    QTemporaryDir dir;
    const QStringList titles{"First of four", "Second of four", "Third of four", "Fourth of four"};
    const QString session = dir.filePath(QStringLiteral("deck.poslab"));
    QVERIFY(writeFile(session, deckJson(titles)));
    const QString first = dir.filePath(QStringLiteral("first.pdf")), second = dir.filePath(QStringLiteral("second.pdf"));
    Run r = runPoslab({"figure", "deck", "--session", session, "--width", "640", "--height", "360", "-o", first});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    r = runPoslab({"figure", "deck", "--session", first, "--width", "640", "--height", "360", "-o", second});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QCOMPARE(pdfPageTexts(readAll(second)), pdfPageTexts(readAll(first)));
    QCOMPARE(pageObjects(readAll(second)), 4);
}

void TestFigureDeck::pngFolderHasOneImagePerSlide_data() {
    QTest::addColumn<QStringList>("titles");   // empty = the default lecture
    QTest::addColumn<QStringList>("names");    // empty = 01-<demonstration key>.png, …
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QSize>("imageSize");
    QTest::newRow("lecture_320x180") << QStringList{} << QStringList{} << QStringList{"--width", "320", "--height", "180"} << QSize(320, 180);
    QTest::newRow("threeSlides_titlesAsNames")
        << QStringList{"Alpha rotates", "Beta: decays!", ""}
        << QStringList{"01-alpha-rotates.png", "02-beta-decays.png", "03-slide.png"} << QStringList{"--width", "800", "--height", "450"}
        << QSize(800, 450);
    QTest::newRow("twoSlides_notes") << QStringList{"Alpha rotates", "Beta decays"}
                                     << QStringList{"01-alpha-rotates.png", "02-beta-decays.png"}
                                     << QStringList{"--width", "800", "--height", "450", "--notes"} << QSize(800, -1);
}

void TestFigureDeck::pngFolderHasOneImagePerSlide() {
    QFETCH(QStringList, titles);
    QFETCH(QStringList, names);
    QFETCH(QStringList, options);
    QFETCH(QSize, imageSize);
    QTemporaryDir dir;
    QStringList args{QStringLiteral("figure"), QStringLiteral("deck")};
    if (!titles.isEmpty()) {
        const QString session = dir.filePath(QStringLiteral("deck.poslab"));
        QVERIFY(writeFile(session, deckJson(titles)));
        args << QStringLiteral("--session") << session;
    } else {
        const QStringList keys = lectureKeys();
        for (qsizetype i = 0; i < keys.size(); ++i) names << QStringLiteral("%1-%2.png").arg(i + 1, 2, 10, QLatin1Char('0')).arg(keys[i]);
    }
    const QString folder = dir.filePath(QStringLiteral("slides")) + QLatin1Char('/');   // made by the command
    args << options << QStringLiteral("-o") << folder;
    const Run r = runPoslab(args);
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QCOMPARE(QDir(folder).entryList(QDir::Files, QDir::Name), names);
    for (const QString& name : names) {
        QImageReader reader(QDir(folder).filePath(name));
        const QString session = reader.text(QStringLiteral("poslab-session"));   // before read(): it consumes the file
        const QImage img = reader.read();
        QVERIFY2(!img.isNull(), qPrintable(name));
        QCOMPARE(img.width(), imageSize.width());
        if (imageSize.height() > 0) QCOMPARE(img.height(), imageSize.height());
        else QVERIFY(img.height() > img.width() * 9 / 16);   // the notes band under the slide
        QVERIFY2(session.contains(QStringLiteral("poslab-session")), qPrintable(name));
    }
}

void TestFigureDeck::badInputIsOneLineAndWritesNothing_data() {
    QTest::addColumn<QString>("session");   // written to deck.poslab; empty = none
    QTest::addColumn<QStringList>("args");  // after `figure deck`; {dir} = the test's folder
    QTest::addColumn<QString>("says");      // part of the one line
    const QString three = QString::fromUtf8(deckJson({"A", "B", "C"}));
    QTest::newRow("noSlides") << "{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[]}"
                              << QStringList{"--session", "{dir}/deck.poslab", "-o", "{dir}/d.pdf"} << "session";
    QTest::newRow("pngFileNotFolder") << three << QStringList{"--session", "{dir}/deck.poslab", "-o", "{dir}/d.png"} << "--output";
    QTest::newRow("svgFile") << QString() << QStringList{"-o", "{dir}/d.svg"} << "--output";
    QTest::newRow("missingFolder") << QString() << QStringList{"-o", "{dir}/no/such/folder/d.pdf"} << "--output";
    QTest::newRow("pdfThroughAFile") << QString() << QStringList{"-o", "{dir}/file.txt/d.pdf"} << "--output";
    QTest::newRow("folderThroughAFile") << QString() << QStringList{"-o", "{dir}/file.txt/slides/"} << "--output";
    QTest::newRow("widthTooSmall") << QString() << QStringList{"--width", "10", "-o", "{dir}/d.pdf"} << "--width";
    QTest::newRow("heightNotANumber") << QString() << QStringList{"--height", "tall", "-o", "{dir}/d.pdf"} << "--height";
    QTest::newRow("areaTooLarge") << QString() << QStringList{"--width", "16384", "--height", "16384", "-o", "{dir}/d.pdf"} << "width";
    QTest::newRow("unknownTheme") << QString() << QStringList{"--theme", "neon", "-o", "{dir}/d.pdf"} << "--theme";
    QTest::newRow("sceneOption") << three << QStringList{"--session", "{dir}/deck.poslab", "--scene", "1", "-o", "{dir}/d.pdf"} << "scene";
    QTest::newRow("noOutput") << QString() << QStringList{"--notes"} << "output";
    QTest::newRow("existingPdfWithoutForce") << QString() << QStringList{"-o", "{dir}/file.pdf"} << "exists";
    QTest::newRow("unreadableSession") << QString() << QStringList{"--session", "{dir}/file.txt", "-o", "{dir}/d.pdf"} << "session";
}

void TestFigureDeck::badInputIsOneLineAndWritesNothing() {
    QFETCH(QString, session);
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(QStringLiteral("file.txt")), "not a folder, not a session"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("file.pdf")), "%PDF an older one"));
    if (!session.isEmpty()) QVERIFY(writeFile(dir.filePath(QStringLiteral("deck.poslab")), session.toUtf8()));
    const QStringList before = QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot, QDir::Name);
    for (QString& a : args) a.replace(QStringLiteral("{dir}"), dir.path());
    const Run r = runPoslab(QStringList{"figure", "deck"} + args);
    QVERIFY2(r.code == 2, qPrintable(r.describe()));
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith("poslab: error: ") && r.err.count('\n') == 1, r.err.constData());
    QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot, QDir::Name), before);
    QCOMPARE(readAll(dir.filePath(QStringLiteral("file.pdf"))), QByteArray("%PDF an older one"));
}

void TestFigureDeck::helpNamesTheDeck() {
    Run r = runPoslab({"figure", "--help"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("poslab figure deck") && r.out.contains("--notes"), r.out.constData());
    r = runPoslab({"figure", "deck", "--help"});
    QCOMPARE(r.code, 0);
    for (const char* option : {"--session", "--theme", "--width", "--height", "--notes", "--output"})
        QVERIFY2(r.out.contains(option), option);
}

void TestFigureDeck::batchAcceptsEveryFigure_data() {
    QTest::addColumn<QString>("entry");     // one figure of the batch file; {models} = resources/models
    QTest::addColumn<QString>("output");    // what it writes, relative to the batch file
    QTest::newRow("deck_pdf") << R"({"view": "deck", "session": "deck.poslab", "output": "out/deck.pdf", "width": 640, "height": 360})"
                              << "out/deck.pdf";
    QTest::newRow("deck_pngFolder") << R"({"view": "deck", "session": "deck.poslab", "output": "out/slides/", "width": 320, "height": 180})"
                                    << "out/slides/02-mine-two.png";
    QTest::newRow("deck_session") << R"({"view": "deck", "session": "deck.poslab", "output": "out/mine.pdf", "args": ["--notes"]})"
                                  << "out/mine.pdf";
    QTest::newRow("demoKey") << R"({"view": "demo rope-decay", "output": "out/demo.png", "width": 640, "height": 360})" << "out/demo.png";
    QTest::newRow("layers") << R"({"view": "layers", "output": "out/layers.png", "args": ["--config", "{models}/gemma-3-4b.json"]})"
                            << "out/layers.png";
    QTest::newRow("layers_configRelativeToTheBatch") << R"({"view": "layers", "output": "out/layers.png", "args": ["--config=models/gemma.json"]})"
                                                     << "out/layers.png";
    QTest::newRow("heatmap") << R"({"view": "heatmap", "output": "out/heatmap.png", "width": 320, "height": 240})" << "out/heatmap.png";
}

void TestFigureDeck::batchAcceptsEveryFigure() {
    QFETCH(QString, entry);
    QFETCH(QString, output);
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("out")));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("deck.poslab")), deckJson({"Mine one", "Mine two"})));
    entry.replace(QStringLiteral("{models}"), QStringLiteral(POSLAB_SOURCE_DIR "/resources/models"));
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("models")));
    QVERIFY(QFile::copy(QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/gemma-3-4b.json"), dir.filePath(QStringLiteral("models/gemma.json"))));
    // The entry, and a heatmap beside it: the batch checks both before writing either.
    const QString batch = dir.filePath(QStringLiteral("batch.json"));
    QVERIFY(writeFile(batch, QStringLiteral("{\"figures\": [%1, {\"view\": \"decay\", \"output\": \"out/decay.png\", \"width\": 320, "
                                            "\"height\": 240}]}")
                                 .arg(entry)
                                 .toUtf8()));
    const Run r = runPoslab({"figure", "--batch", batch});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QVERIFY2(QFileInfo(dir.filePath(output)).size() > 0, qPrintable(output));
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("out/decay.png"))).size() > 0);
    if (output.endsWith(QLatin1String(".pdf")))
        QCOMPARE(pageObjects(readAll(dir.filePath(output))), 2);
    // A bad entry after it: nothing is written (every entry is checked first).
    QTemporaryDir second;
    QVERIFY(QDir(second.path()).mkpath(QStringLiteral("out")));
    QVERIFY(writeFile(second.filePath(QStringLiteral("deck.poslab")), deckJson({"Mine one", "Mine two"})));
    QVERIFY(QDir(second.path()).mkpath(QStringLiteral("models")));
    QVERIFY(QFile::copy(QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/gemma-3-4b.json"), second.filePath(QStringLiteral("models/gemma.json"))));
    const QString bad = second.filePath(QStringLiteral("batch.json"));
    QVERIFY(writeFile(bad, QStringLiteral("{\"figures\": [%1, {\"view\": \"deck\", \"output\": \"out/x.svg\"}]}").arg(entry).toUtf8()));
    const Run b = runPoslab({"figure", "--batch", bad});
    QVERIFY2(b.code == 2, qPrintable(b.describe()));
    QVERIFY2(b.err.startsWith("poslab: error: batch figure 1: "), b.err.constData());
    QVERIFY(!QFileInfo::exists(second.filePath(output)));
}

QTEST_MAIN(TestFigureDeck)
#include "test_figure_deck.moc"
