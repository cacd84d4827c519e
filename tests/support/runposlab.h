#pragma once
// Running the `poslab` executable from a test: one helper for every test of the command line
// (test_cli, test_demos, test_figure, test_figure_range, test_fuzz_cli, test_layers), and the
// checks of its success and usage-error contracts (EXPECT_OK, EXPECT_USAGE_ERROR).
//
// runPoslab(args, options) starts POSLAB_EXE (a compile definition of the test target) with the
// display variables removed (figures choose the offscreen platform themselves), in
// options.cwd if given, writes options.stdinData and closes standard input (a command that
// reads `-` sees the end of its input, never waits), and waits up to options.timeoutMs.
// A run that does not end in time is killed: finished = false, code = −1. A crash is
// crashed = true, code = −2. Otherwise code is the exit status.
#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <utility>

namespace testsupport {

// A deadline of a test is for the optimised builds the product ships; under AddressSanitizer
// (the asan preset: -O1, every access checked) the same work takes about ten times as long.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kDeadlineScale = 10;
#else
constexpr int kDeadlineScale = 1;
#endif
constexpr int deadlineMs(int ms) { return ms * kDeadlineScale; }

struct PoslabRun {
    bool finished = false;   // ended within the timeout
    bool crashed = false;    // ended abnormally (a signal)
    int code = -1;           // exit status; −1 not started or killed, −2 crashed
    qint64 ms = 0;           // wall time, milliseconds
    QByteArray out, err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    // "exit N, stdout [first 300 bytes], stderr [...]": for failure messages.
    QString describe() const {
        return QStringLiteral("exit %1, stdout [%2], stderr [%3]")
            .arg(code)
            .arg(QString::fromUtf8(out.left(300)), QString::fromUtf8(err));
    }
};

struct PoslabRunOptions {
    // Implicit: runPoslab(args, bytes) writes `bytes` to standard input.
    PoslabRunOptions(QByteArray stdin_ = {}, QString cwd_ = {}, int timeoutMs_ = 120000)  // NOLINT
        : stdinData(std::move(stdin_)), cwd(std::move(cwd_)), timeoutMs(timeoutMs_) {}
    QByteArray stdinData;
    QString cwd;
    int timeoutMs = 120000;
};

inline PoslabRun runPoslabIn(const QString& exe, const QStringList& args, const PoslabRunOptions& options = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    p.setProcessEnvironment(env);
    if (!options.cwd.isEmpty()) p.setWorkingDirectory(options.cwd);
    PoslabRun r;
    QElapsedTimer t;
    t.start();
    p.start(exe, args);
    if (!p.waitForStarted(10000)) return r;
    if (!options.stdinData.isEmpty()) p.write(options.stdinData);
    p.closeWriteChannel();
    r.finished = p.waitForFinished(options.timeoutMs);
    r.ms = t.elapsed();
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.code = r.crashed ? -2 : p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

#ifdef POSLAB_EXE
inline PoslabRun runPoslab(const QStringList& args, const PoslabRunOptions& options = {}) {
    return runPoslabIn(QStringLiteral(POSLAB_EXE), args, options);
}
#endif

}  // namespace testsupport

// The command line's success contract: exit 0, nothing on stderr, one JSON object on stdout.
#define EXPECT_OK(run)                                                                                                   \
    do {                                                                                                                 \
        QVERIFY2((run).code == 0, qPrintable(QString("exit %1, stderr: %2").arg((run).code).arg(QString((run).err)))); \
        QVERIFY2((run).err.isEmpty(), (run).err.constData());                                                            \
        QVERIFY(QJsonDocument::fromJson((run).out).isObject());                                                          \
    } while (0)

// Its usage-error contract: exit 2, stdout empty, one line "poslab: error: <what>, <valid>, got <value>".
#define EXPECT_USAGE_ERROR(run)                                                                               \
    do {                                                                                                      \
        QCOMPARE((run).code, 2);                                                                              \
        QVERIFY((run).out.isEmpty());                                                                         \
        QVERIFY2((run).err.startsWith("poslab: error: "), (run).err.constData());                             \
        QCOMPARE((run).err.count('\n'), 1);                                                                   \
        QVERIFY2((run).err.contains(", got "), (run).err.constData());                                        \
    } while (0)

// A refusal naming what is wrong: exit 2 and one line "poslab: error: …" that contains `names`
// (an option, a parameter).
#define EXPECT_REFUSAL_NAMING(run, names)                                                                  \
    do {                                                                                                   \
        QVERIFY2((run).code == 2, qPrintable((run).describe()));                                           \
        const QString refusal_ = QString::fromUtf8((run).err).trimmed();                                   \
        QVERIFY2(refusal_.startsWith("poslab: error: ") && !refusal_.contains('\n'), qPrintable(refusal_)); \
        QVERIFY2(refusal_.contains(names), qPrintable(refusal_));                                          \
    } while (0)

// A figure written in the format its file name asks: exit 0 and the file at `path` starts with
// `magic` ("\x89PNG", "<?xml", "%PDF").
#define EXPECT_FIGURE_FILE(run, path, magic)                       \
    do {                                                          \
        QVERIFY2((run).code == 0, qPrintable((run).describe()));  \
        QFile figure_(path);                                      \
        QVERIFY(figure_.open(QIODevice::ReadOnly));               \
        QVERIFY(figure_.read(16).startsWith(magic));              \
    } while (0)
