// Fuzzing the command line: random argument lists built from the option tables the program
// prints (`poslab compute WHAT --help`, `poslab figure --help`): required options mostly present
// with plausible values, other options with values at and past their limits, junk, repeated and
// unknown options, missing values, --opt=value forms. Each run is a real process (POSLAB_EXE)
// with its standard input closed. Every run must end within kHangMs (no hang) with status 0, 1
// or 2 (no crash); on success `compute` prints one JSON object on stdout and nothing on stderr,
// `figure` prints nothing and writes its file; on failure stdout is empty and stderr is exactly
// one line "poslab: error: ...". Seeds are fixed; a failure prints the argument list.
#include "support/runposlab.h"
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "support/fuzzsupport.h"
#include "ui/io/export.h"
#include "ui/io/session.h"

using namespace poslab;
using namespace fuzzsupport;

namespace {

// A run longer than this is a hang. Sanitizer builds (asan preset: -O1, every access checked)
// run the same work several times slower, so they get more time; the contract's bound is 20 s.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kHangMs = 20000;
#else
constexpr int kHangMs = 5000;
#endif


using Run = testsupport::PoslabRun;
Run runPoslab(const QStringList& args, const QString& cwd) { return testsupport::runPoslab(args, {{}, cwd, kHangMs}); }

struct Option {
    QString name;      // "--head-dim"
    QString metavar;   // "N", "LIST|RANGE", "" for a flag
    QString valid;     // the help's "valid: ..." text
    bool required = false;
};

// The option table of a `--help` text: "  --name METAVAR   help" then "  default: ...; valid: ...".
std::vector<Option> parseHelp(const QString& help) {
    static const QRegularExpression optRe(QStringLiteral("^  (--[a-z0-9-]+)(?: ([^ ]+))?(?:  |$)"));
    std::vector<Option> out;
    const QStringList lines = help.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const auto m = optRe.match(lines[i]);
        if (!m.hasMatch() || m.captured(1) == QLatin1String("--help")) continue;
        Option o{m.captured(1), m.captured(2), QString(), false};
        if (i + 1 < lines.size()) {
            const QString next = lines[i + 1].trimmed();
            const qsizetype v = next.indexOf(QLatin1String("valid: "));
            if (v >= 0) o.valid = next.mid(v + 7);
            static const QRegularExpression requiredRe(QStringLiteral("^default: required( \\(|;|$)"));
            o.required = requiredRe.match(next).hasMatch();
        }
        out.push_back(o);
    }
    return out;
}

// Words a choice option accepts ("valid: one of a, b, c" / "a, b or c").
QStringList choices(const QString& valid) {
    QString t = valid;
    if (t.startsWith(QLatin1String("one of "))) t = t.mid(7);
    QStringList out;
    static const QRegularExpression sep(QStringLiteral(",\\s*|\\s+or\\s+"));
    static const QRegularExpression word(QStringLiteral("^[a-z][a-z0-9.-]*$"));
    for (const auto& w : t.split(sep, Qt::SkipEmptyParts))
        if (word.match(w.trimmed()).hasMatch()) out << w.trimmed();
    return out;
}

// Numbers named in a "valid:" text (2^40 and 2^63−1 included).
std::vector<double> limits(const QString& valid) {
    static const QRegularExpression num(QStringLiteral("(\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?)(?:\\^(\\d+))?"));
    std::vector<double> out;
    for (auto it = num.globalMatch(valid); it.hasNext();) {
        const auto m = it.next();
        double v = m.captured(1).toDouble();
        if (!m.captured(2).isEmpty()) v = std::pow(v, m.captured(2).toDouble());
        out.push_back(v);
    }
    return out;
}

QString number(double v) { return QString::number(v, 'g', 17); }

struct Files {
    QString session, deck, figure, vectors, garbage, directory, missing;
};

QString junk(Rng& rng) {
    static const QStringList j = {QString(), QStringLiteral(" "), QStringLiteral("abc"), QStringLiteral("-1"), QStringLiteral("0"),
                                  QStringLiteral("1e999"), QStringLiteral("-1e999"), QStringLiteral("nan"), QStringLiteral("inf"),
                                  QStringLiteral("0x10"), QStringLiteral("1,,2"), QStringLiteral(":"), QStringLiteral("5:2"),
                                  QStringLiteral("0:"), QStringLiteral("1.5"), QStringLiteral("--"), QStringLiteral("-"),
                                  QStringLiteral("18446744073709551616"), QStringLiteral("9223372036854775807"),
                                  QStringLiteral("-9223372036854775808"), QStringLiteral("2147483648"), QStringLiteral("1,2,3,abc"),
                                  QStringLiteral("\xce\xb8"), QString(3000, QLatin1Char('9')), QStringLiteral("1 2"),
                                  QStringLiteral("0:1099511627776"), QStringLiteral("--force")};
    return rng.pick(j);
}

QString valueFor(const Option& o, Rng& rng, const Files& files, bool plausible) {
    if (!plausible) return junk(rng);
    if (o.metavar == QLatin1String("FILE")) {
        if (o.name == QLatin1String("--output"))
            return QStringLiteral("out%1.%2").arg(rng.between(0, 3)).arg(rng.pick(QStringList{QStringLiteral("png"), QStringLiteral("svg"),
                                                                                               QStringLiteral("pdf"), QStringLiteral("csv"),
                                                                                               QStringLiteral("json"), QStringLiteral("txt")}));
        if (o.name == QLatin1String("--vectors")) return rng.pick(QStringList{files.vectors, files.garbage, QStringLiteral("-"), files.missing});
        return rng.pick(QStringList{files.session, files.session, files.deck, files.figure, files.garbage, files.directory, files.missing});
    }
    const QStringList words = choices(o.valid);
    const bool integer = o.valid.contains(QLatin1String("integer"));
    if (!words.isEmpty() && !integer && !o.valid.contains(QLatin1String("number"))) return rng.pick(words);
    if (o.metavar.contains(QLatin1String("LIST")) || o.metavar.contains(QLatin1String("RANGE")))
        return rng.pick(QStringList{QStringLiteral("0,1,2"), QStringLiteral("0:4"), QStringLiteral("1"), QStringLiteral("0:3,10"),
                                    QStringLiteral("1,0.1"), QStringLiteral("1,0,1,0"), QStringLiteral("1,2,1,2,1,2,1,2"),
                                    QStringLiteral("1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"), QStringLiteral("0,4096")});
    if (o.metavar == QLatin1String("KEY")) {
        static const QStringList keys = [] {
            QStringList k;
            for (const auto& p : ui::modelPresets()) k << QString::fromStdString(p.key);
            return k;
        }();
        return rng.chance(0.9) ? rng.pick(keys) : QStringLiteral("gpt-5");
    }
    // Numbers: small values mostly, the named limits and their neighbours sometimes.
    const std::vector<double> named = limits(o.valid);
    if (!named.empty() && rng.chance(0.2)) {
        const double v = rng.pick(named) + double(rng.between(-1, 1)) * (integer ? 1.0 : 1e-9);
        return number(v);
    }
    if (integer && o.valid.contains(QLatin1String("even"))) return QString::number(rng.pick(std::vector<std::int64_t>{2, 4, 4, 8, 16, 64}));
    if (integer) return QString::number(rng.pick(std::vector<std::int64_t>{0, 1, 2, 3, 4, 8, 16, 32, 64}));
    return rng.pick(QStringList{QStringLiteral("0.5"), QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("4"), QStringLiteral("10"),
                                QStringLiteral("10000"), QStringLiteral("1e-6"), QStringLiteral("0.25")});
}

// One random argument list for a command ("compute WHAT" or "figure VIEW").
QStringList randomArgs(const QStringList& command, const std::vector<Option>& table, Rng& rng, const Files& files) {
    QStringList args = command;
    std::vector<Option> opts;
    std::vector<Option> optional;
    for (const auto& o : table) {
        if (o.required) {
            if (rng.chance(0.9)) opts.push_back(o);
        } else {
            optional.push_back(o);
        }
    }
    for (int k = int(rng.between(0, 4)); k > 0 && !optional.empty(); --k) opts.push_back(rng.pick(optional));
    for (std::size_t k = opts.size(); k > 1; --k) std::swap(opts[k - 1], opts[std::size_t(rng.index(k))]);   // any order
    for (const auto& o : opts) {
        if (o.metavar.isEmpty()) {
            args << o.name;
            continue;
        }
        const QString v = valueFor(o, rng, files, rng.chance(0.92));
        if (rng.chance(0.15)) args << o.name + QLatin1Char('=') + v;
        else args << o.name << v;
        if (rng.chance(0.04)) args << o.name << valueFor(o, rng, files, true);   // repeated
    }
    switch (rng.between(0, 24)) {
    case 0: args << QStringLiteral("--bogus"); break;
    case 1: args << QStringLiteral("stray"); break;
    case 2: if (!table.empty()) args << rng.pick(table).name; break;   // perhaps missing its value
    case 3: args.insert(1, QStringLiteral("-o")); break;
    default: break;
    }
    return args;
}

QString show(const QStringList& args) {
    QStringList quoted;
    for (const auto& a : args) quoted << (a.isEmpty() || a.contains(QLatin1Char(' ')) ? QLatin1Char('\'') + a.left(60) + QLatin1Char('\'') : a.left(60));
    return QStringLiteral("poslab ") + quoted.join(QLatin1Char(' '));
}

// The contract of one run; returns the first violation.
QString checkRun(const Run& r, bool figure, const QString& cwd) {
    if (!r.finished) return QStringLiteral("no exit within %1 ms").arg(kHangMs);
    if (r.crashed) return QStringLiteral("crashed");
    if (r.code != 0 && r.code != 1 && r.code != 2) return QStringLiteral("exit status %1").arg(r.code);
    if (r.code == 0) {
        // A figure may note an option its view does not draw (docs/spec/cli.md); nothing else.
        QByteArray err = r.err;
        if (figure) {
            QList<QByteArray> rest;
            for (const QByteArray& line : err.split('\n'))
                if (!line.isEmpty() && !line.startsWith("poslab: note: ")) rest << line;
            err = rest.join('\n');
        }
        if (!err.isEmpty()) return QStringLiteral("success with stderr: ") + QString::fromUtf8(err.left(300));
        if (figure) {
            if (!r.out.isEmpty()) return QStringLiteral("figure printed on stdout");
            if (QDir(cwd).entryList(QDir::Files).filter(QStringLiteral("out")).isEmpty()) return QStringLiteral("figure wrote no file");
            return {};
        }
        QJsonParseError pe{};
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
        if (pe.error != QJsonParseError::NoError || !doc.isObject())
            return QStringLiteral("stdout is not one JSON object: %1: %2").arg(pe.errorString(), QString::fromUtf8(r.out.left(200)));
        return {};
    }
    if (!r.out.isEmpty()) return QStringLiteral("error with stdout: ") + QString::fromUtf8(r.out.left(200));
    if (!r.err.startsWith("poslab: error: ") || r.err.count('\n') != 1 || !r.err.endsWith('\n'))
        return QStringLiteral("stderr is not one line \"poslab: error: ...\": [%1]").arg(QString::fromUtf8(r.err.left(600)));
    return {};
}

}  // namespace

class TestFuzzCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void randomCommandLines_data();
    void randomCommandLines();

private:
    QTemporaryDir dir_;
    Files files_;
};

void TestFuzzCli::initTestCase() {
    QVERIFY(dir_.isValid());
    const auto write = [&](const QString& name, const QByteArray& bytes) {
        QFile f(dir_.filePath(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) qFatal("cannot write %s", qPrintable(f.fileName()));
        return dir_.filePath(name);
    };
    Rng rng(7);
    files_.session = write(QStringLiteral("s.poslab"), ui::sceneToJson(validScene(rng, 4)));
    ui::Session deck;
    deck.scenes = {ui::SessionScene{QStringLiteral("one"), QString(), validScene(rng, 1)},
                   ui::SessionScene{QStringLiteral("two"), QString(), validScene(rng, 3)}};
    files_.deck = write(QStringLiteral("deck.poslab"), ui::sessionToJson(deck));
    files_.vectors = write(QStringLiteral("v.json"), "[[1,0,1,0],[0,1,0,1]]");
    files_.garbage = write(QStringLiteral("g.poslab"), "{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[{\"length\":");
    files_.directory = dir_.path();
    files_.missing = dir_.filePath(QStringLiteral("missing.poslab"));
    files_.figure = dir_.filePath(QStringLiteral("fig.csv"));
    const Run r = runPoslab({QStringLiteral("figure"), QStringLiteral("heatmap"), QStringLiteral("--session"), files_.session,
                             QStringLiteral("-o"), files_.figure},
                            dir_.path());
    QVERIFY2(r.code == 0 && QFile::exists(files_.figure), r.err.constData());
}

void TestFuzzCli::randomCommandLines_data() {
    QTest::addColumn<QString>("what");   // compute WHAT, or "figure"
    QTest::addColumn<int>("runs");
    const QStringList whats = {QStringLiteral("frequencies"), QStringLiteral("rope"), QStringLiteral("xpos"), QStringLiteral("sinusoidal"),
                               QStringLiteral("t5-buckets"), QStringLiteral("alibi"), QStringLiteral("shaw"),
                               QStringLiteral("transformer-xl"), QStringLiteral("scores"), QStringLiteral("decay")};
    for (const auto& w : whats) QTest::newRow(qPrintable(QStringLiteral("compute_") + w)) << w << 120;
    QTest::newRow("figure") << QStringLiteral("figure") << 300;
}

void TestFuzzCli::randomCommandLines() {
    QFETCH(QString, what);
    QFETCH(int, runs);
    runs = scaled(runs);
    const bool figure = what == QLatin1String("figure");
    const QStringList helpArgs = figure ? QStringList{QStringLiteral("figure"), QStringLiteral("--help")}
                                        : QStringList{QStringLiteral("compute"), what, QStringLiteral("--help")};
    const Run help = runPoslab(helpArgs, dir_.path());
    QVERIFY2(help.code == 0, help.err.constData());
    const std::vector<Option> table = parseHelp(QString::fromUtf8(help.out));
    QVERIFY2(table.size() >= 3, qPrintable(QString::fromUtf8(help.out)));
    const QStringList views = {QStringLiteral("pairs"), QStringLiteral("heatmap"), QStringLiteral("decay"),
                               QStringLiteral("frequencies"), QStringLiteral("all")};
    Rng rng(qHash(what));
    int ok = 0, refused = 0;
    qint64 slowest = 0;
    for (int i = 0; i < runs; ++i) {
        QTemporaryDir cwd;
        QStringList command = figure ? QStringList{QStringLiteral("figure"), rng.chance(0.95) ? rng.pick(views) : junk(rng)}
                                     : QStringList{QStringLiteral("compute"), what};
        QStringList args = randomArgs(command, table, rng, files_);
        if (figure && rng.chance(0.7) && !args.contains(QStringLiteral("--output")))
            args << QStringLiteral("-o") << QStringLiteral("out.%1").arg(rng.pick(ui::exportFormatKeys()));
        if (figure) {
            // Keep the figures small (the size options stay in the table for the fuzzing).
            if (!args.contains(QStringLiteral("--width"))) args << QStringLiteral("--width=320");
            if (!args.contains(QStringLiteral("--height"))) args << QStringLiteral("--height=240");
        }
        const Run r = runPoslab(args, cwd.path());
        slowest = std::max(slowest, r.ms);
        if (qEnvironmentVariableIsSet("POSLAB_FUZZ_VERBOSE"))   // to see what the runs reach
            qInfo("%s -> %d %s", qPrintable(show(args)), r.code, r.err.trimmed().constData());
        const QString problem = checkRun(r, figure, cwd.path());
        QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("run %1: %2: %3").arg(i).arg(show(args), problem)));
        (r.code == 0 ? ok : refused)++;
    }
    qInfo("%d succeeded, %d refused, slowest %lld ms", ok, refused, slowest);
}

QTEST_GUILESS_MAIN(TestFuzzCli)
#include "test_fuzz_cli.moc"
