// The rooms of design.md, lowest first: a lower room never includes a higher one, the core
// includes no Qt and nothing of ui/, and no source file sits at ui/'s root.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kSource = QStringLiteral(POSLAB_SOURCE_DIR);

// What each room may include of ui/ (besides itself). core/ may include no ui/ and no Qt.
QSet<QString> allowedRooms(const QString& room) {
    if (room == QLatin1String("model")) return {};
    if (room == QLatin1String("render")) return {QStringLiteral("model")};
    if (room == QLatin1String("io")) return {QStringLiteral("model"), QStringLiteral("render")};
    // The widget rooms use everything below them; the main window wires them together.
    if (room == QLatin1String("panel")) return {QStringLiteral("model"), QStringLiteral("render"), QStringLiteral("io")};
    if (room == QLatin1String("views")) return {QStringLiteral("model"), QStringLiteral("render"), QStringLiteral("io")};
    if (room == QLatin1String("teaching"))
        return {QStringLiteral("model"), QStringLiteral("render"), QStringLiteral("io"), QStringLiteral("panel"), QStringLiteral("views")};
    if (room == QLatin1String("window"))
        return {QStringLiteral("model"), QStringLiteral("render"), QStringLiteral("io"), QStringLiteral("panel"),
                QStringLiteral("views"), QStringLiteral("teaching")};
    return {};
}

QStringList sourcesIn(const QString& dir) {
    QStringList out;
    QDirIterator it(dir, {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) out << it.next();
    out.sort();
    return out;
}

QStringList includesOf(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    static const QRegularExpression re(QStringLiteral("^\\s*#\\s*include\\s*[<\"]([^>\"]+)[>\"]"),
                                       QRegularExpression::MultilineOption);
    QStringList out;
    auto it = re.globalMatch(QString::fromUtf8(f.readAll()));
    while (it.hasNext()) out << it.next().captured(1);
    return out;
}

}  // namespace

class TestRooms : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roomIncludesOnlyLowerRooms_data() {
        QTest::addColumn<QString>("room");
        for (const char* r : {"model", "render", "io", "panel", "views", "teaching", "window"})
            QTest::newRow(r) << QString::fromLatin1(r);
    }
    void roomIncludesOnlyLowerRooms() {
        QFETCH(QString, room);
        const QStringList files = sourcesIn(kSource + QStringLiteral("/ui/") + room);
        QVERIFY2(!files.isEmpty(), qPrintable(room));
        const QSet<QString> allowed = allowedRooms(room);
        static const QRegularExpression uiInclude(QStringLiteral("^ui/([a-z]+)/"));
        for (const QString& file : files) {
            for (const QString& inc : includesOf(file)) {
                const auto m = uiInclude.match(inc);
                if (!m.hasMatch()) {
                    QVERIFY2(!inc.startsWith(QLatin1String("ui/")),
                             qPrintable(file + QStringLiteral(" includes ") + inc + QStringLiteral(" at ui/'s root")));
                    continue;
                }
                const QString target = m.captured(1);
                QVERIFY2(target == room || allowed.contains(target),
                         qPrintable(QStringLiteral("%1 (room %2) includes %3 (room %4)").arg(file, room, inc, target)));
            }
        }
    }

    void coreIsPureCpp() {
        const QStringList files = sourcesIn(kSource + QStringLiteral("/core"));
        QVERIFY(files.size() > 10);
        for (const QString& file : files)
            for (const QString& inc : includesOf(file)) {
                QVERIFY2(!inc.startsWith(QLatin1String("ui/")) && !inc.startsWith(QLatin1String("app/")),
                         qPrintable(file + QStringLiteral(" includes ") + inc));
                QVERIFY2(!inc.startsWith(QLatin1Char('Q')) && !inc.startsWith(QLatin1String("qt")),
                         qPrintable(file + QStringLiteral(" includes Qt: ") + inc));
            }
    }

    // The core starts no thread of its own: its parallel work runs on the caller's threads
    // (core/parallel.h), so it never oversubscribes the window's pool.
    void coreStartsNoThread() {
        static const QRegularExpression thread(QStringLiteral("std::(j?thread|async)\\b|#\\s*include\\s*<(thread|future)>"));
        for (const QString& file : sourcesIn(kSource + QStringLiteral("/core"))) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto m = thread.match(QString::fromUtf8(f.readAll()));
            QVERIFY2(!m.hasMatch(), qPrintable(file + QStringLiteral(": ") + m.captured(0)));
        }
    }

    void noSourceAtUiRoot() {
        const QStringList loose = QDir(kSource + QStringLiteral("/ui")).entryList({QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files);
        QVERIFY2(loose.isEmpty(), qPrintable(loose.join(QStringLiteral(", "))));
    }

    // Negative check of the scanner itself: a file that includes a higher room is caught.
    void scannerCatchesAnUpwardInclude() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile f(dir.filePath(QStringLiteral("x.h")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#include \"ui/window/mainwindow.h\"\n#include <QString>\n");
        f.close();
        const QStringList inc = includesOf(f.fileName());
        QCOMPARE(inc, (QStringList{QStringLiteral("ui/window/mainwindow.h"), QStringLiteral("QString")}));
        QVERIFY(!allowedRooms(QStringLiteral("render")).contains(QStringLiteral("window")));
    }
};

QTEST_GUILESS_MAIN(TestRooms)
#include "test_rooms.moc"
