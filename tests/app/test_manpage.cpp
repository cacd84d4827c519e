// The man page (poslab.1) and the bash completion the build generates from the program's help
// texts (packaging/poslab_docs.py, installed by the .deb): the page has a section for every
// command and lists every option its --help lists; the completion offers every command, WHAT,
// view and option, and the choices of an option with a fixed set of values.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

namespace {

const QString kDocDir = QStringLiteral(POSLAB_DOC_DIR);

QString poslabOutput(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(POSLAB_EXE), args);
    p.waitForFinished(60000);
    return QString::fromUtf8(p.readAllStandardOutput());
}

QString readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

// "--name" of every option line of a --help text ("  --name ARG   help").
QSet<QString> helpOptions(const QString& help) {
    QSet<QString> out;
    static const QRegularExpression re(QStringLiteral("^  --([A-Za-z0-9][A-Za-z0-9-]*)"), QRegularExpression::MultilineOption);
    for (auto it = re.globalMatch(help); it.hasNext();) out.insert(QStringLiteral("--") + it.next().captured(1));
    return out;
}

// The text of the man page's `.SS "TITLE"` subsection (to the next .SS or .SH).
QString subsection(const QString& page, const QString& title) {
    const QString head = QStringLiteral(".SS \"%1\"\n").arg(title);
    const qsizetype at = page.indexOf(head);
    if (at < 0) return {};
    qsizetype end = page.size();
    for (const char* next : {"\n.SS ", "\n.SH "}) {
        const qsizetype n = page.indexOf(QLatin1String(next), at + head.size());
        if (n >= 0) end = std::min(end, n);
    }
    return page.mid(at, end - at);
}

QString roffOption(const QString& option) {   // --max-distance → \fB\-\-max\-distance\fR
    QString o = option;
    return QStringLiteral("\\fB") + o.replace(QLatin1Char('-'), QStringLiteral("\\-")) + QStringLiteral("\\fR");
}

// What the completion offers for the command line `words` (the last word being completed).
QSet<QString> completions(const QStringList& words) {
    QStringList quoted;
    for (const QString& w : words) quoted << QLatin1Char('\'') + w + QLatin1Char('\'');
    const QString script = QStringLiteral("source '%1/completions/poslab' || exit 3; COMP_WORDS=(%2); COMP_CWORD=%3; _poslab; "
                                          "printf '%s\\n' \"${COMPREPLY[@]}\"")
                               .arg(kDocDir, quoted.join(QLatin1Char(' ')))
                               .arg(words.size() - 1);
    QProcess p;
    p.start(QStringLiteral("bash"), {QStringLiteral("--norc"), QStringLiteral("-c"), script});
    p.waitForFinished(30000);
    if (p.exitCode() != 0) return {QStringLiteral("bash failed: ") + QString::fromUtf8(p.readAllStandardError())};
    QSet<QString> out;
    for (const QString& l : QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        out.insert(l);
    return out;
}

QStringList whats() {
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("^WHAT: (.*)$"), QRegularExpression::MultilineOption).match(poslabOutput({QStringLiteral("--help")}));
    QStringList out;
    for (const QString& w : m.captured(1).split(QLatin1Char(','))) out << w.trimmed();
    return out;
}

}  // namespace

class TestManpage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void manPageListsEveryOption_data();
    void manPageListsEveryOption();
    void topLevelOptionsAreListed();
    void manPageIsValidRoff();
    void completionOffersEveryOption_data();
    void completionOffersEveryOption();
    void completionOffersCommandsWhatsViewsAndChoices_data();
    void completionOffersCommandsWhatsViewsAndChoices();
};

void TestManpage::manPageListsEveryOption_data() {
    QTest::addColumn<QStringList>("command");
    for (const QString& w : whats()) QTest::newRow(qPrintable(QStringLiteral("compute ") + w)) << QStringList{QStringLiteral("compute"), w};
    QTest::newRow("figure") << QStringList{QStringLiteral("figure")};
    QTest::newRow("figure layers") << QStringList{QStringLiteral("figure"), QStringLiteral("layers")};
    QTest::newRow("figure deck") << QStringList{QStringLiteral("figure"), QStringLiteral("deck")};
    QTest::newRow("figure demo") << QStringList{QStringLiteral("figure"), QStringLiteral("demo"), QStringLiteral("permutation")};
    QTest::newRow("presets") << QStringList{QStringLiteral("presets")};
    QTest::newRow("demos") << QStringList{QStringLiteral("demos")};
}

void TestManpage::manPageListsEveryOption() {
    QFETCH(QStringList, command);
    const QString page = readText(kDocDir + QStringLiteral("/poslab.1"));
    QVERIFY2(!page.isEmpty(), qPrintable(kDocDir + QStringLiteral("/poslab.1 is missing")));
    // `figure demo KEY` is documented once, under `poslab figure demo`.
    const QString title = QStringLiteral("poslab ") + (command.value(1) == QLatin1String("demo") && command.first() == QLatin1String("figure")
                                                           ? QStringLiteral("figure demo")
                                                           : command.join(QLatin1Char(' ')));
    const QString section = subsection(page, title);
    QVERIFY2(!section.isEmpty(), qPrintable(QStringLiteral("no section ") + title));
    // (compute demo, presets and demos list no option besides --help)
    const QSet<QString> options = helpOptions(poslabOutput(command + QStringList{QStringLiteral("--help")}));
    for (const QString& o : options) {
        if (o == QLatin1String("--help")) continue;
        QVERIFY2(section.contains(roffOption(o)), qPrintable(title + QStringLiteral(": ") + o + QStringLiteral(" is not listed")));
    }
}

void TestManpage::topLevelOptionsAreListed() {
    const QString page = readText(kDocDir + QStringLiteral("/poslab.1"));
    const QString top = poslabOutput({QStringLiteral("--help")});
    static const QRegularExpression re(QStringLiteral("(--[a-z]+)"));
    QSet<QString> options;
    for (auto it = re.globalMatch(top); it.hasNext();) options.insert(it.next().captured(1));
    QVERIFY(options.contains(QStringLiteral("--session")) && options.contains(QStringLiteral("--version")));
    const qsizetype at = page.indexOf(QStringLiteral("\n.SH OPTIONS\n")), end = page.indexOf(QStringLiteral("\n.SH "), at + 1);
    QVERIFY(at >= 0 && end > at);
    for (const QString& o : options)
        QVERIFY2(page.mid(at, end - at).contains(roffOption(o)), qPrintable(o + QStringLiteral(" is not under OPTIONS")));
}

void TestManpage::manPageIsValidRoff() {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("groff"), {QStringLiteral("-man"), QStringLiteral("-ww"), QStringLiteral("-z"), kDocDir + QStringLiteral("/poslab.1")});
    QVERIFY2(p.waitForStarted(10000), "groff (groff-base) is needed");
    p.waitForFinished(60000);
    QCOMPARE(p.exitCode(), 0);
    QCOMPARE(QString::fromUtf8(p.readAll()), QString());   // no warning
    QVERIFY(QFile::exists(kDocDir + QStringLiteral("/poslab.1.gz")));
}

void TestManpage::completionOffersEveryOption_data() {
    QTest::addColumn<QStringList>("command");
    // (`compute demo` completes the keys: completionOffersCommandsWhatsViewsAndChoices)
    for (const QString& w : whats())
        if (w != QLatin1String("demo")) QTest::newRow(qPrintable(QStringLiteral("compute ") + w)) << QStringList{QStringLiteral("compute"), w};
    for (const char* v : {"heatmap", "decay", "layers", "deck"})
        QTest::newRow(qPrintable(QStringLiteral("figure ") + QLatin1String(v))) << QStringList{QStringLiteral("figure"), QLatin1String(v)};
    QTest::newRow("figure demo rope-shift") << QStringList{QStringLiteral("figure"), QStringLiteral("demo"), QStringLiteral("rope-shift")};
}

void TestManpage::completionOffersEveryOption() {
    QFETCH(QStringList, command);
    QSet<QString> want = helpOptions(poslabOutput(command + QStringList{QStringLiteral("--help")}));
    QVERIFY(want.contains(QStringLiteral("--help")) && want.size() > 1);
    const QSet<QString> got = completions(QStringList{QStringLiteral("poslab")} + command + QStringList{QString()});
    QCOMPARE(got, want);
}

void TestManpage::completionOffersCommandsWhatsViewsAndChoices_data() {
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<QStringList>("want");
    QTest::newRow("commands") << QStringList{QStringLiteral("poslab"), QString()}
                              << QStringList{QStringLiteral("compute"), QStringLiteral("figure"), QStringLiteral("presets"),
                                             QStringLiteral("demos"), QStringLiteral("--session"), QStringLiteral("--help"),
                                             QStringLiteral("--version")};
    QTest::newRow("whats") << QStringList{QStringLiteral("poslab"), QStringLiteral("compute"), QString()} << whats();
    const QString figureHelp = poslabOutput({QStringLiteral("figure"), QStringLiteral("--help")});
    QStringList views;
    const QString list = QRegularExpression(QStringLiteral("VIEW: one of (.*?) \\(all =")).match(figureHelp).captured(1);
    for (QString v : list.split(QLatin1Char(','))) views << v.trimmed().section(QLatin1Char(' '), 0, 0);
    QTest::newRow("views") << QStringList{QStringLiteral("poslab"), QStringLiteral("figure"), QString()}
                           << views + QStringList{QStringLiteral("--batch"), QStringLiteral("--help")};
    const QString scores = poslabOutput({QStringLiteral("compute"), QStringLiteral("scores"), QStringLiteral("--help")});
    const QString methods = QRegularExpression(QStringLiteral("--method M .*\\n.*valid: one of ([a-z0-9, -]+)")).match(scores).captured(1);
    QTest::newRow("methods") << QStringList{QStringLiteral("poslab"), QStringLiteral("compute"), QStringLiteral("scores"),
                                            QStringLiteral("--method"), QString()}
                             << methods.split(QStringLiteral(", "));
    QTest::newRow("prefix") << QStringList{QStringLiteral("poslab"), QStringLiteral("compute"), QStringLiteral("decay"),
                                           QStringLiteral("--max-d")}
                            << QStringList{QStringLiteral("--max-distance")};
    QStringList keys;
    const QString demos = poslabOutput({QStringLiteral("demos")});
    static const QRegularExpression key(QStringLiteral("\"key\":\"([a-z0-9-]+)\""));
    for (auto it = key.globalMatch(demos); it.hasNext();) keys << it.next().captured(1);
    QTest::newRow("demo keys") << QStringList{QStringLiteral("poslab"), QStringLiteral("compute"), QStringLiteral("demo"), QString()} << keys;
}

void TestManpage::completionOffersCommandsWhatsViewsAndChoices() {
    QFETCH(QStringList, words);
    QFETCH(QStringList, want);
    QVERIFY(want.size() >= 1 && !want.first().isEmpty());
    QCOMPARE(completions(words), QSet<QString>(want.begin(), want.end()));
}

QTEST_GUILESS_MAIN(TestManpage)
#include "test_manpage.moc"
