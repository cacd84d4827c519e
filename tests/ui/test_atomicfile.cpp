// writeFileAtomically: a successful write replaces the file whole; a failed one (writer error,
// exception, bad directory) leaves the destination exactly as it was and no temporary behind.
#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QTemporaryDir>
#include <QtTest>

#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/io/atomicfile.h"

using poslab::ui::writeFileAtomically;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return QByteArray("<unreadable>");
    return f.readAll();
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

QByteArray pattern(qsizetype n) {
    QByteArray b(n, Qt::Uninitialized);
    for (qsizetype i = 0; i < n; ++i) b[i] = char('a' + (i * 7) % 26);
    return b;
}

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesNewFile_data();
    void writesNewFile();
    void replacesExistingFileWhole();
    void failedWriterLeavesOldFile_data();
    void failedWriterLeavesOldFile();
    void failedWriterCreatesNothing();
    void badDestinations_data();
    void badDestinations();
    void newFileHasUmaskPermissions();
    void existingFileKeepsPermissions();
    void imageWriterThroughDevice();
};

void TestAtomicFile::writesNewFile_data() {
    QTest::addColumn<qsizetype>("size");
    QTest::newRow("empty") << qsizetype(0);
    QTest::newRow("bytes10") << qsizetype(10);
    QTest::newRow("bytes5M") << qsizetype(5 * 1024 * 1024);
}

void TestAtomicFile::writesNewFile() {
    QFETCH(qsizetype, size);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("out.bin"));
    const QByteArray data = pattern(size);
    QString error;
    QVERIFY2(writeFileAtomically(path, data, &error), qPrintable(error));
    QVERIFY(error.isEmpty());
    QCOMPARE(readAll(path), data);
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("out.bin")});  // no temporary left
}

void TestAtomicFile::replacesExistingFileWhole() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("figure.svg"));
    QVERIFY(writeFileAtomically(path, pattern(100000)));
    const QByteArray shorter("<svg/>");
    QString error;
    QVERIFY2(writeFileAtomically(path, shorter, &error), qPrintable(error));
    QCOMPARE(readAll(path), shorter);  // not the old tail after the new head
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("figure.svg")});
}

void TestAtomicFile::failedWriterLeavesOldFile_data() {
    QTest::addColumn<int>("mode");   // 0 = returns false with message, 1 = false without message, 2 = throws
    QTest::addColumn<qsizetype>("partial");
    QTest::newRow("returnsFalse_afterNothing") << 0 << qsizetype(0);
    QTest::newRow("returnsFalse_afterHalf") << 0 << qsizetype(500);
    QTest::newRow("returnsFalseSilently_afterHalf") << 1 << qsizetype(500);
    QTest::newRow("throws_afterHalf") << 2 << qsizetype(500);
    QTest::newRow("returnsFalse_afterMoreThanOld") << 0 << qsizetype(5000);
}

void TestAtomicFile::failedWriterLeavesOldFile() {
    QFETCH(int, mode);
    QFETCH(qsizetype, partial);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plot.png"));
    const QByteArray old = pattern(1000);
    QVERIFY(writeFileAtomically(path, old));
    QString error;
    const bool ok = writeFileAtomically(
        path,
        [&](QIODevice& dev, QString* err) -> bool {
            dev.write(QByteArray(partial, 'x'));
            if (mode == 2) throw std::runtime_error("renderer exploded");
            if (mode == 0) *err = QStringLiteral("renderer said no");
            return false;
        },
        &error);
    QVERIFY(!ok);
    QCOMPARE(readAll(path), old);
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("plot.png")});
    QVERIFY2(error.startsWith(QStringLiteral("cannot write ")) && error.contains(path), qPrintable(error));
    if (mode == 0) QVERIFY2(error.endsWith(QStringLiteral(": renderer said no")), qPrintable(error));
    if (mode == 1) QVERIFY2(error.contains(QStringLiteral("could not be produced")), qPrintable(error));
    if (mode == 2) QVERIFY2(error.endsWith(QStringLiteral(": renderer exploded")), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

void TestAtomicFile::failedWriterCreatesNothing() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("new.pdf"));
    QString error;
    QVERIFY(!writeFileAtomically(
        path, [](QIODevice& dev, QString*) { dev.write("%PDF-1.4 trunc"); return false; }, &error));
    QVERIFY(!QFileInfo::exists(path));
    QVERIFY(entries(dir.path()).isEmpty());
}

void TestAtomicFile::badDestinations_data() {
    QTest::addColumn<QString>("relative");
    QTest::addColumn<QString>("reason");
    QTest::newRow("missingDirectory") << QStringLiteral("no/such/dir/out.png") << QStringLiteral("does not exist");
    QTest::newRow("pathIsDirectory") << QStringLiteral("sub") << QStringLiteral("is a directory");
    QTest::newRow("parentIsFile") << QStringLiteral("file.txt/out.png") << QStringLiteral("not a directory");
    QTest::newRow("emptyName") << QString() << QStringLiteral("no file name");
}

void TestAtomicFile::badDestinations() {
    QFETCH(QString, relative);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
    QVERIFY(writeFileAtomically(dir.filePath(QStringLiteral("file.txt")), "keep"));
    const QString path = relative.isEmpty() ? QString() : dir.filePath(relative);
    QString error;
    QVERIFY(!writeFileAtomically(path, QByteArray("data"), &error));
    QVERIFY2(error.contains(reason), qPrintable(error));
    QCOMPARE(readAll(dir.filePath(QStringLiteral("file.txt"))), QByteArray("keep"));
    QCOMPARE(entries(dir.path()), (QStringList{QStringLiteral("file.txt"), QStringLiteral("sub")}));
}

void TestAtomicFile::newFileHasUmaskPermissions() {
    QTemporaryDir dir;
    const mode_t old = ::umask(022);
    const QString path = dir.filePath(QStringLiteral("perm.csv"));
    const bool ok = writeFileAtomically(path, QByteArray("a,b\n"));
    ::umask(old);
    QVERIFY(ok);
    struct stat st {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
    // A figure handed to a colleague must be readable by others, like any file `cp` would make.
    QCOMPARE(int(st.st_mode & 0777), 0644);
}

void TestAtomicFile::existingFileKeepsPermissions() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("keep.json"));
    QVERIFY(writeFileAtomically(path, QByteArray("{}")));
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);
    QVERIFY(writeFileAtomically(path, QByteArray("{\"a\":1}")));
    struct stat st {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
    QCOMPARE(int(st.st_mode & 0777), 0640);
}

void TestAtomicFile::imageWriterThroughDevice() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("img.png"));
    QImage img(31, 17, QImage::Format_ARGB32);
    img.fill(QColor(10, 200, 30));
    QString error;
    QVERIFY2(writeFileAtomically(
                 path, [&](QIODevice& dev, QString* err) {
                     if (!img.save(&dev, "PNG")) { *err = QStringLiteral("PNG encoder failed"); return false; }
                     return true;
                 },
                 &error),
             qPrintable(error));
    QImageReader reader(path);
    const QImage back = reader.read();
    QVERIFY2(!back.isNull(), qPrintable(reader.errorString()));
    QCOMPARE(back.size(), QSize(31, 17));
    QCOMPARE(back.pixelColor(5, 5), QColor(10, 200, 30));
}

QTEST_MAIN(TestAtomicFile)
#include "test_atomicfile.moc"
