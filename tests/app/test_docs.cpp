// The repository's documents: the contract (docs/spec/cli.md, docs/spec/conventions.md) lives in
// the repository, complete, and no file refers outside the repository for it (issue #29).
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QtTest>

namespace {

const QString kSource = QStringLiteral(POSLAB_SOURCE_DIR);

QString readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

// Every text file of the source tree (not .git, not the build trees at its root, not binaries).
QStringList repositoryTextFiles() {
    QStringList files;
    QDirIterator it(kSource, QDir::Files | QDir::Hidden | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = QDir(kSource).relativeFilePath(path);
        if (rel.startsWith(QLatin1String(".git")) || rel.startsWith(QLatin1String("build"))) continue;
        if (QFileInfo(path).size() > (4 << 20)) continue;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) continue;
        if (f.read(65536).contains('\0')) continue;
        files << rel;
    }
    files.sort();
    return files;
}

}  // namespace

class TestDocs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Each contract file is in docs/spec/, says that the repository's copy is the contract, and
    // holds every release's section, "Added in 0.4" included.
    void contractIsInTheRepository_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("sections");
        QTest::newRow("docs/spec/cli.md")
            << QStringLiteral("docs/spec/cli.md")
            << QStringList{"## General rules", "## `poslab compute WHAT`", "## Added in 0.2",
                           "## Added in 0.3: layer by layer", "## Added in 0.4",
                           "### Multimodal positions", "### Python: `import poslab`"};
        QTest::newRow("docs/spec/conventions.md")
            << QStringLiteral("docs/spec/conventions.md")
            << QStringList{"## Conventions", "## Added in 0.3: layer patterns of today's open models",
                           "## Added in 0.4: attention as each family's own code applies it",
                           "## Added in 0.4: multimodal positions"};
    }
    void contractIsInTheRepository() {
        QFETCH(QString, file);
        QFETCH(QStringList, sections);
        const QString text = readText(kSource + QLatin1Char('/') + file);
        QVERIFY2(!text.isEmpty(), qPrintable(file + QStringLiteral(" is missing")));
        const QString claim = QStringLiteral("This copy, `%1` in the repository, is the contract").arg(file);
        QVERIFY2(text.left(600).contains(claim),
                 qPrintable(file + QStringLiteral(" does not say at its top that it is the contract")));
        const QStringList lines = text.split(QLatin1Char('\n'));
        for (const QString& s : sections)
            QVERIFY2(lines.contains(s), qPrintable(file + QStringLiteral(" has no section ") + s));
    }

    // No file of the repository refers outside it for the contract, the reference cases or the
    // benchmark baseline: the folder beside a checkout (../shared) is not part of a clone.
    void nothingRefersOutsideTheRepository_data() {
        QTest::addColumn<QString>("pattern");
        QTest::newRow("../shared") << QStringLiteral("\\.\\./shared\\b");
        QTest::newRow("/work/") << QStringLiteral("/work/");
        QTest::newRow("shared/spec") << QStringLiteral("\\bshared/spec/");
        QTest::newRow("shared/golden") << QStringLiteral("\\bshared/golden\\b");
        QTest::newRow("shared/bench") << QStringLiteral("\\bshared/bench\\b");
        QTest::newRow("../spec/") << QStringLiteral("\\.\\./spec/");
        QTest::newRow("../golden") << QStringLiteral("\\.\\./golden\\b");
    }
    void nothingRefersOutsideTheRepository() {
        QFETCH(QString, pattern);
        const QRegularExpression re(pattern);
        QVERIFY(re.isValid());
        const QStringList files = repositoryTextFiles();
        QVERIFY(files.contains(QStringLiteral("README.md")) && files.contains(QStringLiteral("core/rope.h")));
        const QString self = QStringLiteral("tests/app/test_docs.cpp");   // its patterns are not references
        QStringList found;
        for (const QString& rel : files) {
            if (rel == self) continue;
            const QStringList lines = readText(kSource + QLatin1Char('/') + rel).split(QLatin1Char('\n'));
            for (qsizetype i = 0; i < lines.size(); ++i)
                if (re.match(lines[i]).hasMatch())
                    found << QStringLiteral("%1:%2: %3").arg(rel).arg(i + 1).arg(lines[i].trimmed());
        }
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }

};

QTEST_GUILESS_MAIN(TestDocs)
#include "test_docs.moc"
