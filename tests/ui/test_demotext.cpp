// The words of the teaching tools (ui/teaching/demotext.h, workedtext.h): the core measures and names its numbers,
// the ui writes every sentence. Checked against the committed snapshot of every title, claim,
// figure label and note, conclusion, extrapolation verdict and comparison cell
// (tests/data/demo_texts.tsv: what the slides and `compute demo` showed before the words left
// the core), and against the translation source resources/translations/poslab_en.ts, which must
// hold every title and claim for a translator.
#include "support/testsupport.h"

#include "core/demonstrations.h"
#include "ui/teaching/demotext.h"
#include "ui/teaching/workedtext.h"

#include <QFile>

#include <algorithm>
#include <QRegularExpression>
#include <QStringList>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Every word of every demonstration at its own scene, one line each: KEY, FIELD, NAME, TEXT.
QStringList snapshot() {
    QStringList out;
    auto line = [&](const std::string& key, const char* field, const QString& name, const QString& text) {
        out << qs(key) + QLatin1Char('\t') + QLatin1String(field) + QLatin1Char('\t') + name + QLatin1Char('\t') + text;
    };
    for (const auto& d : demonstrations()) {
        line(d.key, "title", {}, demoTitle(d.id));
        line(d.key, "claim", {}, demoClaim(d.id));
        auto r = runDemonstration(d.id);
        if (!r) {
            line(d.key, "error", {}, qs(r.error().message()));
            continue;
        }
        const DemoTexts t = describeDemo(r.value());
        for (std::size_t i = 0; i < r.value().figures.size(); ++i) {
            line(d.key, "label", qs(r.value().figures[i].name), t.figures[i].label);
            line(d.key, "note", qs(r.value().figures[i].name), t.figures[i].note);
        }
        line(d.key, "conclusion", r.value().holds ? QStringLiteral("holds") : QStringLiteral("fails"), t.conclusion);
    }
    const auto table = comparisonTable();
    for (int c = 0; c < 4; ++c) line("comparison", "column", QString::number(c), comparisonColumnTitle(TableColumn(c)));
    for (const auto& row : table.rows)
        for (int c = 0; c < 4; ++c)
            line("comparison", "cell", QStringLiteral("%1/%2").arg(qs(std::string(methodKey(row.method)))).arg(c),
                 comparisonCellText(row.method, TableColumn(c), row.cells[c]));
    const ExtrapolationInput in;
    const auto extrapolation = demoExtrapolation(in);
    for (const auto& row : extrapolation.value().rows) line("extrapolation", "verdict", qs(row.method), extrapolationVerdict(row, in));
    return out;
}

// The worked examples' words at their defaults and at inputs that take each branch of the text.
QStringList workedSnapshot() {
    QStringList out;
    auto dump = [&](const char* tag, const Result<WorkedExample>& r) {
        const QString t = QString::fromLatin1(tag) + QLatin1Char('\t');
        if (!r) {
            out << t + QStringLiteral("error\t\t") + qs(r.error().message());
            return;
        }
        const WorkedExample& ex = r.value();
        out << t + QStringLiteral("title\t\t") + workedTitle(ex);
        for (std::size_t i = 0; i < ex.steps.size(); ++i) {
            out << t + QStringLiteral("step\t%1\t").arg(i) + workedStepTitle(ex, ex.steps[i]);
            out << t + QStringLiteral("explanation\t%1\t").arg(i) + workedStepExplanation(ex, ex.steps[i]);
        }
    };
    RopeExampleInput r;
    dump("rope", ropeWorkedExample(r));
    r.layout = RopeLayout::Half;
    r.precision = Precision::Double;
    dump("rope-half-double", ropeWorkedExample(r));
    SinusoidalExampleInput s;
    dump("sinusoidal", sinusoidalWorkedExample(s));
    s.layout = SinusoidalLayout::Concat;
    s.position = 0;
    dump("sinusoidal-concat", sinusoidalWorkedExample(s));
    AlibiExampleInput a;
    dump("alibi", alibiWorkedExample(a));
    a.heads = 8;
    a.query_position = 0;
    dump("alibi-8", alibiWorkedExample(a));
    a.heads = 1;
    dump("alibi-1", alibiWorkedExample(a));
    T5ExampleInput t;
    dump("t5", t5WorkedExample(t));
    t.relative = 3;
    dump("t5-near-after", t5WorkedExample(t));
    t.relative = 5000;
    dump("t5-far-after", t5WorkedExample(t));
    t.bidirectional = false;
    t.relative = -7;
    dump("t5-causal-near", t5WorkedExample(t));
    t.relative = 9;
    dump("t5-causal-after", t5WorkedExample(t));
    t.relative = -100000;
    dump("t5-causal-far", t5WorkedExample(t));
    t.relative = 0;
    dump("t5-causal-zero", t5WorkedExample(t));
    return out;
}

QStringList committedLines(const char* file) {
    QFile f(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/") + QLatin1String(file));
    if (!f.open(QIODevice::ReadOnly)) return {};
    QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.back().isEmpty()) lines.removeLast();
    return lines;
}

// POSLAB_SNAPSHOT_DIR set: also writes what it got there (FILE), to review a change of words and
// update the committed snapshot with it.
void compareLines(const QStringList& got, const QStringList& expected, const char* file) {
    if (const QByteArray dir = qgetenv("POSLAB_SNAPSHOT_DIR"); !dir.isEmpty()) {
        QFile out(QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(file));
        if (out.open(QIODevice::WriteOnly)) out.write((got.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
    }
    QVERIFY2(!expected.isEmpty(), "the committed snapshot is missing");
    for (qsizetype i = 0; i < std::min(got.size(), expected.size()); ++i)
        QVERIFY2(got[i] == expected[i], qPrintable(QStringLiteral("line %1\n got:      %2\n expected: %3").arg(i + 1).arg(got[i], expected[i])));
    QCOMPARE(got.size(), expected.size());
}

}  // namespace

class TestDemoText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every sentence as the slides showed it when the core still wrote them: the words moved,
    // not one character changed (new demonstrations add their lines to the snapshot).
    void wordsMatchTheCommittedSnapshot() { compareLines(snapshot(), committedLines("demo_texts.tsv"), "demo_texts.tsv"); }

    // The worked examples' titles and explanations, as the core wrote them before
    // (tests/data/worked_texts.tsv), at inputs that take every branch of their sentences.
    void workedExampleWordsMatchTheCommittedSnapshot() { compareLines(workedSnapshot(), committedLines("worked_texts.tsv"), "worked_texts.tsv"); }

    // Every demonstration has a title, a claim, a label for every figure and a conclusion.
    void everyDemonstrationHasItsWords_data() {
        QTest::addColumn<int>("id");
        for (const auto& d : demonstrations()) QTest::newRow(d.key.c_str()) << int(d.id);
    }
    void everyDemonstrationHasItsWords() {
        QFETCH(int, id);
        QVERIFY(!demoTitle(DemoId(id)).isEmpty());
        QVERIFY(!demoClaim(DemoId(id)).isEmpty());
        auto r = runDemonstration(DemoId(id));
        QVERIFY(r.ok());
        const DemoTexts t = describeDemo(r.value());
        QCOMPARE(t.figures.size(), r.value().figures.size());
        for (std::size_t i = 0; i < t.figures.size(); ++i) QVERIFY2(!t.figures[i].label.isEmpty(), r.value().figures[i].name.c_str());
        QVERIFY(!t.conclusion.isEmpty());
    }

    // No validation message is lecture content: the learned row of "Beyond the training length"
    // says what it means, and numbers in sentences carry 4 significant digits.
    void demonstrationTextIsForAnAudience_data() {
        QTest::addColumn<int>("id");
        for (const auto& d : demonstrations()) QTest::newRow(d.key.c_str()) << int(d.id);
    }
    void demonstrationTextIsForAnAudience() {
        QFETCH(int, id);
        auto r = runDemonstration(DemoId(id));
        QVERIFY(r.ok());
        const DemoTexts t = describeDemo(r.value());
        QStringList texts{t.conclusion};
        for (const auto& f : t.figures) texts << f.label << f.note;
        for (const auto& s : texts) {
            QVERIFY2(!s.contains(QStringLiteral(", got ")), qPrintable(s));
            QVERIFY2(!s.contains(QStringLiteral("integers from")), qPrintable(s));
            // No run of more than 6 digits after a decimal point (1.138629436111989).
            QVERIFY2(!s.contains(QRegularExpression(QStringLiteral("\\.\\d{7,}"))), qPrintable(s));
            // Exponents as people write them ("8.882 × 10⁻¹⁶"), never printf's "8.882e-16".
            QVERIFY2(!s.contains(QRegularExpression(QStringLiteral("\\d[eE][+\\-]\\d"))), qPrintable(s));
        }
        if (DemoId(id) == DemoId::Extrapolation) QVERIFY(texts.join(QLatin1Char('\n')).contains(QStringLiteral("no row 8191 in a table of 2048")));
        if (DemoId(id) == DemoId::RopeDecay) QVERIFY(demoClaim(DemoId(id)).contains(QStringLiteral("equal content")));
    }

    // The comparison table's cells name the sizes of the demonstrations they link to.
    void comparisonCellsNameTheirNumbers() {
        const auto t = comparisonTable();
        for (const auto& row : t.rows)
            for (int c = 0; c < 4; ++c) QVERIFY(!comparisonCellText(row.method, TableColumn(c), row.cells[c]).isEmpty());
        const TableRow* learned = t.find(Method::Learned);
        QVERIFY(comparisonCellText(Method::Learned, TableColumn::Learnable, learned->cells[0]).contains(QStringLiteral("2048 × 64")));
    }

    // lupdate extracts the demonstrations' words: the translation source a translator starts
    // from holds every title and claim (regenerated by the build: `cmake --build --target
    // update_translations`, which runs lupdate over ui/).
    void translationSourceHoldsEveryTitleAndClaim() {
        QFile f(QStringLiteral(POSLAB_SOURCE_DIR "/resources/translations/poslab_en.ts"));
        QVERIFY2(f.open(QIODevice::ReadOnly), "resources/translations/poslab_en.ts is missing");
        const QString ts = QString::fromUtf8(f.readAll());
        auto escaped = [](QString s) {
            return s.replace(QLatin1Char('&'), QStringLiteral("&amp;")).replace(QLatin1Char('<'), QStringLiteral("&lt;"))
                .replace(QLatin1Char('>'), QStringLiteral("&gt;")).replace(QLatin1Char('\''), QStringLiteral("&apos;"))
                .replace(QLatin1Char('"'), QStringLiteral("&quot;"));
        };
        for (const auto& d : demonstrations()) {
            QVERIFY2(ts.contains(QStringLiteral("<source>") + escaped(demoTitle(d.id)) + QStringLiteral("</source>")), d.key.c_str());
            QVERIFY2(ts.contains(QStringLiteral("<source>") + escaped(demoClaim(d.id)) + QStringLiteral("</source>")), d.key.c_str());
        }
    }
};

QTEST_MAIN(TestDemoText)
#include "test_demotext.moc"
