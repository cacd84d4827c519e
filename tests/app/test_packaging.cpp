// Delivery files: the desktop entry and AppStream metainfo pass the freedesktop validators,
// name the same application id, the icon is a valid SVG that draws something at menu sizes,
// and the metainfo's newest release is the project version.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

const QString kSource = QStringLiteral(POSLAB_SOURCE_DIR);
const QString kAppId = QStringLiteral("org.poslab.PosLab");

QString packagingFile(const QString& name) { return kSource + QStringLiteral("/packaging/") + name; }

QString readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

struct Run {
    int exitCode = -1;
    QString output;   // stdout + stderr
    bool started = false;
};

Run runTool(const QString& program, const QStringList& args) {
    Run r;
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForStarted(10000)) return r;
    r.started = true;
    p.waitForFinished(60000);
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.output = QString::fromUtf8(p.readAll());
    return r;
}

// Key=Value of the [Desktop Entry] group.
QMap<QString, QString> desktopEntry(const QString& text) {
    QMap<QString, QString> kv;
    bool inGroup = false;
    for (const QString& raw : text.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.startsWith(QLatin1Char('['))) { inGroup = line == QStringLiteral("[Desktop Entry]"); continue; }
        if (!inGroup || line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        const int eq = line.indexOf(QLatin1Char('='));
        if (eq > 0) kv.insert(line.left(eq).trimmed(), line.mid(eq + 1).trimmed());
    }
    return kv;
}

}  // namespace

class TestPackaging : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void desktopFileValidates();
    void desktopFileNamesTheApplication();
    void metainfoValidates();
    void metainfoIsConsistent();
    void iconIsValidSvg_data();
    void iconIsValidSvg();
    void packagingInstallsUnderTheApplicationId();
};

void TestPackaging::desktopFileValidates() {
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
    if (tool.isEmpty())
        QSKIP("desktop-file-validate is not installed (package desktop-file-utils; packaging/setup.sh installs it)");
    // Validate the file under the name it is installed as (the application id).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString installed = dir.filePath(kAppId + QStringLiteral(".desktop"));
    QVERIFY(QFile::copy(packagingFile(QStringLiteral("poslab.desktop")), installed));
    const Run r = runTool(tool, {installed});
    QVERIFY2(r.started, "desktop-file-validate did not start");
    QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    // Hints (e.g. two main categories, as the issue asks for Education;Science) are allowed;
    // errors and warnings are not.
    QVERIFY2(!r.output.contains(QStringLiteral(": error:")), qPrintable(r.output));
    QVERIFY2(!r.output.contains(QStringLiteral(": warning:")), qPrintable(r.output));
}

void TestPackaging::desktopFileNamesTheApplication() {
    const auto kv = desktopEntry(readText(packagingFile(QStringLiteral("poslab.desktop"))));
    QCOMPARE(kv.value(QStringLiteral("Type")), QStringLiteral("Application"));
    QCOMPARE(kv.value(QStringLiteral("Exec")), QStringLiteral("poslab"));
    QCOMPARE(kv.value(QStringLiteral("Icon")), kAppId);
    QCOMPARE(kv.value(QStringLiteral("Terminal")), QStringLiteral("false"));
    const QStringList cats = kv.value(QStringLiteral("Categories")).split(QLatin1Char(';'), Qt::SkipEmptyParts);
    QVERIFY2(cats.contains(QStringLiteral("Education")), qPrintable(cats.join(',')));
    QVERIFY2(cats.contains(QStringLiteral("Science")), qPrintable(cats.join(',')));
}

void TestPackaging::metainfoValidates() {
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("appstreamcli"));
    if (tool.isEmpty())
        QSKIP("appstreamcli is not installed (package appstream; packaging/setup.sh installs it)");
    const Run r = runTool(tool, {QStringLiteral("validate"), QStringLiteral("--no-net"),
                                 packagingFile(kAppId + QStringLiteral(".metainfo.xml"))});
    QVERIFY2(r.started, "appstreamcli did not start");
    // appstreamcli exits non-zero on errors and warnings; infos and pedantic notes pass.
    QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    QVERIFY2(r.output.contains(QStringLiteral("Validation was successful")), qPrintable(r.output));
}

void TestPackaging::metainfoIsConsistent() {
    const QString path = packagingFile(kAppId + QStringLiteral(".metainfo.xml"));
    QFile f(path);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
    QXmlStreamReader xml(&f);
    QString id, launchable, binary, firstRelease;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        const auto name = xml.name();
        if (name == QLatin1String("id")) id = xml.readElementText();
        else if (name == QLatin1String("launchable")) launchable = xml.readElementText();
        else if (name == QLatin1String("binary")) binary = xml.readElementText();
        else if (name == QLatin1String("release") && firstRelease.isEmpty())
            firstRelease = xml.attributes().value(QLatin1String("version")).toString();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(id, kAppId);
    QCOMPARE(launchable, kAppId + QStringLiteral(".desktop"));
    QCOMPARE(binary, QStringLiteral("poslab"));
    // The newest release listed is the version CMake builds (project(PosLab VERSION x.y.z)).
    const QString cmake = readText(kSource + QStringLiteral("/CMakeLists.txt"));
    const auto m = QRegularExpression(QStringLiteral("project\\(PosLab\\s+VERSION\\s+([0-9.]+)")).match(cmake);
    QVERIFY2(m.hasMatch(), "no project(PosLab VERSION ...) in CMakeLists.txt");
    QCOMPARE(firstRelease, m.captured(1));
}

void TestPackaging::iconIsValidSvg_data() {
    QTest::addColumn<int>("size");
    QTest::newRow("px24") << 24;
    QTest::newRow("px48") << 48;
    QTest::newRow("px256") << 256;
}

void TestPackaging::iconIsValidSvg() {
    QFETCH(int, size);
    const QString path = packagingFile(QStringLiteral("icons/poslab.svg"));
    // Well-formed XML whose root is <svg>.
    {
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        QXmlStreamReader xml(&f);
        QString root;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement && root.isEmpty()) root = xml.name().toString();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(root, QStringLiteral("svg"));
    }
    QSvgRenderer renderer(path);
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.defaultSize(), QSize(128, 128));  // square
    QImage img(size, size, QImage::Format_ARGB32);
    img.fill(Qt::transparent);
    {
        QPainter p(&img);
        renderer.render(&p);
    }
    // Something is drawn, the corners stay transparent (rounded tile), and the picture has
    // contrast: light strokes on a dark tile.
    int opaque = 0, light = 0, dark = 0;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const QColor c = img.pixelColor(x, y);
            if (c.alpha() < 250) continue;
            ++opaque;
            if (c.lightness() > 170) ++light;
            if (c.lightness() < 90) ++dark;
        }
    QVERIFY2(opaque > size * size / 2, qPrintable(QString::number(opaque)));
    QCOMPARE(img.pixelColor(0, 0).alpha(), 0);
    QCOMPARE(img.pixelColor(size - 1, size - 1).alpha(), 0);
    QVERIFY2(light > size * size / 50, qPrintable(QStringLiteral("light pixels %1").arg(light)));
    QVERIFY2(dark > size * size / 4, qPrintable(QStringLiteral("dark pixels %1").arg(dark)));
}

void TestPackaging::packagingInstallsUnderTheApplicationId() {
    // `cmake --install` of this build tree puts the executable and the three delivery files
    // where desktops and software centres look for them, named after the application id.
    const QString cmake = QStandardPaths::findExecutable(QStringLiteral("cmake"));
    if (cmake.isEmpty()) QSKIP("cmake is not on PATH");
    const QFileInfo exe(QStringLiteral(POSLAB_EXE));
    if (!exe.exists()) QSKIP("the poslab executable is not built; build it first");
    const QString buildDir = exe.absoluteDir().absoluteFilePath(QStringLiteral(".."));
    QTemporaryDir prefix;
    QVERIFY(prefix.isValid());
    const Run r = runTool(cmake, {QStringLiteral("--install"), buildDir, QStringLiteral("--prefix"), prefix.path()});
    QVERIFY2(r.started, "cmake did not start");
    QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    const QDir root(prefix.path());
    const QStringList expected = {
        QStringLiteral("bin/poslab"),
        QStringLiteral("share/applications/") + kAppId + QStringLiteral(".desktop"),
        QStringLiteral("share/metainfo/") + kAppId + QStringLiteral(".metainfo.xml"),
        QStringLiteral("share/icons/hicolor/scalable/apps/") + kAppId + QStringLiteral(".svg"),
    };
    for (const QString& rel : expected)
        QVERIFY2(QFileInfo::exists(root.filePath(rel)), qPrintable(rel + QStringLiteral(" not installed:\n") + r.output));
    // The installed desktop entry is the source one, byte for byte.
    QCOMPARE(readText(root.filePath(expected[1])), readText(packagingFile(QStringLiteral("poslab.desktop"))));
}

QTEST_MAIN(TestPackaging)
#include "test_packaging.moc"
