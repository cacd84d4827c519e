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

    // README.md is a front door: at most 250 lines, the set-up and test commands as CI runs them
    // (.ci/run), and a link to each document the rest moved to.
    void readmeIsAFrontDoor() {
        const QString text = readText(kSource + QStringLiteral("/README.md"));
        const QStringList lines = text.split(QLatin1Char('\n'));
        QVERIFY2(lines.size() <= 251, qPrintable(QStringLiteral("%1 lines").arg(lines.size())));
        QVERIFY(lines.contains(QStringLiteral(
            "packaging/setup.sh run     # install what is missing, build, start PosLab on its default scene")));
        QVERIFY(lines.contains(QStringLiteral(
            "packaging/setup.sh test    # same set-up, then run the whole test suite (what CI runs)")));
        const QString ci = readText(kSource + QStringLiteral("/.ci/run"));
        QVERIFY(ci.contains(QStringLiteral("bash packaging/setup.sh test")));
        for (const char* doc : {"docs/HANDBOOK.md", "docs/ARCHITECTURE.md", "docs/BENCHMARKS.md", "docs/FUZZING.md",
                                "docs/spec/cli.md", "docs/spec/conventions.md"})
            QVERIFY2(text.contains(QStringLiteral("](%1)").arg(QLatin1String(doc))), doc);
    }

    // Every relative link and image of the documents names a file of the repository.
    void linksResolve_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"README.md", "docs/HANDBOOK.md", "docs/ARCHITECTURE.md", "docs/BENCHMARKS.md",
                              "docs/FUZZING.md", "docs/spec/cli.md", "docs/spec/conventions.md"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void linksResolve() {
        QFETCH(QString, file);
        const QString path = kSource + QLatin1Char('/') + file;
        const QString text = readText(path);
        QVERIFY2(!text.isEmpty(), qPrintable(file + QStringLiteral(" is missing")));
        static const QRegularExpression link(QStringLiteral("\\]\\(([^)\\s]+)\\)"));
        QStringList broken;
        int links = 0;
        for (auto it = link.globalMatch(text); it.hasNext();) {
            const QString target = it.next().captured(1).section(QLatin1Char('#'), 0, 0);
            if (target.isEmpty() || target.contains(QLatin1String("://"))) continue;
            ++links;
            const QString dir = QFileInfo(path).absolutePath();
            if (!QFileInfo::exists(dir + QLatin1Char('/') + target)) broken << target;
        }
        QVERIFY2(broken.isEmpty(), qPrintable(file + QStringLiteral(": ") + broken.join(QStringLiteral(", "))));
        if (file == QLatin1String("README.md")) QVERIFY(links >= 8);
    }
};

QTEST_GUILESS_MAIN(TestDocs)
#include "test_docs.moc"
