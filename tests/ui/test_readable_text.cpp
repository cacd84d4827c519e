// Text for people (issue #27, items 6 and 8): what a person reads carries numbers of at most six
// significant digits (hover text, the formula panel's score line and its tooltip), no internal
// key ("rope-ntk", "transformer-xl") and no raw TeX ("2.41\times10^7") on slides and figures,
// yes/no in words, and a view shown full screen is titled with its name, not its object name.
#include "support/windowsupport.h"

#include "core/demonstrations.h"
#include "ui/model/scene.h"
#include "ui/panel/controls.h"
#include "ui/render/typeset.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/formulapanel.h"
#include "ui/teaching/presentation.h"
#include "ui/views/scheduler.h"
#include "ui/views/views.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QBuffer>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <functional>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

namespace {

// Decimal fractions and numbers in exponent form ("0.12345678901234567", "2.41e7"; integers
// such as positions are exact and not counted).
const QRegularExpression& decimalNumber() {
    static const QRegularExpression re(QStringLiteral("(?<![\\w.])(\\d+\\.\\d+(?:e[+\\-−]?\\d+)?|\\d+e[+\\-−]?\\d+)"));
    return re;
}

int significantDigits(QString number) {
    const qsizetype e = number.indexOf(QLatin1Char('e'));
    if (e >= 0) number = number.left(e);
    number.remove(QLatin1Char('.'));
    while (number.startsWith(QLatin1Char('0'))) number.remove(0, 1);
    return int(number.size());
}

// The numbers in `text` with more than six significant digits.
QStringList longNumbers(const QString& text) {
    QStringList out;
    for (auto it = decimalNumber().globalMatch(text); it.hasNext();) {
        const QString n = it.next().captured(1);
        if (significantDigits(n) > 6) out << n;
    }
    return out;
}

// Internal keys a person must not read (method and scaling keys, extrapolation rows' keys) and
// raw TeX: whole words, case-sensitive ("RoPE" is a name, "rope" a key).
QStringList internalOrRaw(const QString& text) {
    static const QRegularExpression key(QStringLiteral(
        "(?<![\\w-])(nope|alibi|rope|xpos|transformer-xl|transformer_xl|rope-ntk|rope-linear|rope-yarn|longrope|llama3|yarn|"
        "meta-complex64)(?![\\w-])"));
    static const QRegularExpression tex(QStringLiteral("\\\\[A-Za-z]+|\\^\\{|_\\{"));
    QStringList out;
    if (auto m = key.match(text); m.hasMatch()) out << QStringLiteral("key \"%1\"").arg(m.captured(1));
    if (auto m = tex.match(text); m.hasMatch()) out << QStringLiteral("TeX \"%1\"").arg(m.captured(0));
    if (hasRawScript(text)) out << QStringLiteral("raw script");
    return out;
}

// Every text a painting draws, read back from its SVG (text stays text).
QStringList svgTexts(const std::function<void(QPainter&)>& paint, QSize size) {
    QByteArray bytes;
    {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        QPainter p(&svg);
        paint(p);
    }
    static const QRegularExpression textItem(QStringLiteral(">([^<>]+)</text>"));
    QStringList out;
    for (auto it = textItem.globalMatch(QString::fromUtf8(bytes)); it.hasNext();)
        out << it.next().captured(1).replace(QStringLiteral("&amp;"), QStringLiteral("&")).replace(QStringLiteral("&lt;"), QStringLiteral("<")).replace(QStringLiteral("&gt;"), QStringLiteral(">"));
    return out;
}

bool settle(MainWindow& w) { return testsupport::settleHeatmapAndDecay(w); }

SceneParams sceneOf(Method m) {
    SceneParams s;
    auto& p = s.methods.front().params;
    p.method = m;
    p.content = Content::Random;   // scores with all their digits
    p.dim = 80;                    // 1/√80: a scale with all its digits
    s.length = 48;
    return s;
}

}  // namespace

class TestReadableText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Hover text over every view of the window, the formula panel's score line and its tooltip:
    // at most six significant digits ("Score at (5, 2)" used to show sixteen).
    void hoverTextCarriesAtMostSixDigits_data() {
        QTest::addColumn<int>("method");
        for (Method m : {Method::Rope, Method::Alibi, Method::T5, Method::Sinusoidal, Method::Xpos, Method::TransformerXL})
            QTest::newRow(methodKey(m).data()) << int(m);
    }
    void hoverTextCarriesAtMostSixDigits() {
        QFETCH(int, method);
        MainWindow w(false);
        w.scene()->setParams(sceneOf(Method(method)));
        w.resize(1500, 950);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(settle(w));
        QStringList tips, long_;
        for (QWidget* v : w.views()) {
            auto* view = qobject_cast<ViewBase*>(v);
            if (!view || !view->isVisible()) continue;
            for (int y = 0; y < 16; ++y)
                for (int x = 0; x < 16; ++x) {
                    const QString tip = view->toolTipAt(QPoint((2 * x + 1) * view->width() / 32, (2 * y + 1) * view->height() / 32));
                    if (tip.isEmpty()) continue;
                    tips << tip;
                    if (!longNumbers(tip).isEmpty()) long_ << v->objectName() + QStringLiteral(": ") + tip;
                }
        }
        QVERIFY2(tips.size() > 20, qPrintable(QString::number(tips.size())));
        FormulaPanel formulas(w.scene());
        formulas.resize(600, 800);
        formulas.show();
        formulas.setFocusPositions(5, 2, 0);
        QVERIFY(formulas.waitIdle());
        auto* score = formulas.findChild<TextLine*>(QStringLiteral("formulaScore"));
        QVERIFY(score);
        QVERIFY2(score->text().contains(QStringLiteral("Score at (5, 2)")), qPrintable(score->text()));
        for (const QString& t : {score->text(), score->toolTip()})
            if (!longNumbers(t).isEmpty()) long_ << QStringLiteral("formula panel: ") + t;
        long_.removeDuplicates();
        QVERIFY2(long_.isEmpty(), qPrintable(long_.mid(0, 6).join(QLatin1Char('\n'))));
    }

    // Every text of every demonstration's slide (its scene and its numbers, as presenting draws
    // it at 1280×720 and 1920×1080): display names, no key, no raw TeX; yes/no in words.
    void slideTextsHaveNoKeysOrTeX_data() {
        QTest::addColumn<int>("id");
        QTest::addColumn<QSize>("size");
        for (const auto& d : demonstrations())
            for (QSize size : {QSize(1280, 720), QSize(1920, 1080)})
                QTest::newRow(qPrintable(QStringLiteral("%1_%2").arg(QString::fromStdString(d.key)).arg(size.height()))) << int(d.id) << size;
    }
    void slideTextsHaveNoKeysOrTeX() {
        QFETCH(int, id);
        QFETCH(QSize, size);
        Session deck;
        deck.scenes = {demoSlide(DemoId(id))};
        deck.current = 0;
        PresentationWindow slide(deck);
        slide.setThemeName(QStringLiteral("projector"));
        slide.setKeyHints(false);
        slide.resize(size);
        const QStringList texts = svgTexts([&](QPainter& p) { slide.paintSlide(p, size); }, size);
        QVERIFY(texts.size() > 3);
        QStringList bad;
        for (const QString& t : texts)
            if (const QStringList why = internalOrRaw(t); !why.isEmpty()) bad << why.join(QStringLiteral(", ")) + QStringLiteral(": ") + t;
        bad.removeDuplicates();
        QVERIFY2(bad.isEmpty(), qPrintable(bad.mid(0, 8).join(QLatin1Char('\n'))));
        // A yes/no figure ("a row for position 2047") reads yes or no, never 1 or 0.
        const auto summary = runDemonstration(DemoId(id));
        QVERIFY(summary.ok());
        for (const auto& f : summary.value().figures) {
            if (!f.name.ends_with("_defined")) continue;
            const QString word = f.value != 0 ? QStringLiteral("yes") : QStringLiteral("no");
            QVERIFY2(texts.contains(word), qPrintable(QString::fromStdString(f.name) + QStringLiteral(": ") + texts.join(QStringLiteral(" | "))));
        }
    }

    // The formula panel's sheet title with a base in exponent form: "base 2.41 × 10⁷", not
    // "2.41\times10^7"; a base raised to a power is bracketed ("(1 × 10⁶)^(−2/128)").
    void formulaTitlesAreTypeset_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<double>("base");
        QTest::addColumn<QString>("shown");
        QTest::newRow("rope_2.41e7") << int(Method::Rope) << 2.41e7 << "base 2.41 × 10⁷";
        QTest::newRow("rope_1e6") << int(Method::Rope) << 1e6 << "base 10⁶";
        QTest::newRow("sinusoidal_1e7") << int(Method::Sinusoidal) << 1e7 << "base 10⁷";
    }
    void formulaTitlesAreTypeset() {
        QFETCH(int, method);
        QFETCH(double, base);
        QFETCH(QString, shown);
        SceneParams s = sceneOf(Method(method));
        s.methods.front().params.rope.base = base;
        s.methods.front().params.sinusoidal.base = base;
        const FormulaSheet sheet = formulaSheet(s, 0, FormulaFocus{});
        QVERIFY2(internalOrRaw(sheet.title).isEmpty(), qPrintable(sheet.title));
        QVERIFY2(sheet.title.contains(shown), qPrintable(sheet.title));
        static const QRegularExpression doubleScript(QStringLiteral("10\\^\\{[^{}]*\\}\\^"));
        int powers = 0;
        for (const auto& line : sheet.numbers) {
            QVERIFY2(!doubleScript.match(line.tex).hasMatch(), qPrintable(line.tex));
            if (line.tex.contains(QStringLiteral("\\right)^{-"))) ++powers;
        }
        QVERIFY(powers > 0);
    }

    // A view shown full screen: its window is titled with the view's name ("PosLab — Attention
    // heatmap"), never its object name ("PosLab — heatmapView").
    void fullScreenTitleIsTheViewsName_data() {
        QTest::addColumn<QString>("view");
        QTest::addColumn<QString>("title");
        QTest::newRow("pairs") << "pairsView" << "PosLab — Pair vectors";
        QTest::newRow("heatmap") << "heatmapView" << "PosLab — Attention heatmap";
        QTest::newRow("decay") << "decayView" << "PosLab — Decay with distance";
        QTest::newRow("frequencies") << "frequencyView" << "PosLab — Frequencies";
    }
    void fullScreenTitleIsTheViewsName() {
        QFETCH(QString, view);
        QFETCH(QString, title);
        MainWindow w(false);
        w.resize(1500, 950);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* v = w.findChild<QWidget*>(view);
        QVERIFY2(v, qPrintable(view));
        w.showViewFullScreen(v);
        auto* full = w.findChild<QWidget*>(QStringLiteral("fullScreenView"));
        QVERIFY(full);
        QCOMPARE(full->windowTitle(), title);
        w.leaveViewFullScreen();
    }
};

QTEST_MAIN(TestReadableText)
#include "test_readable_text.moc"
