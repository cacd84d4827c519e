// Prose is typeset (ui/render/typeset.h): sub- and superscripts written "θ_i", "R_{n−m}",
// "x^{2}" reach people as "θᵢ", "Rₙ₋ₘ", "x²", identifiers (rotary_dim) stay as written; and no
// text any figure or demonstration slide draws holds a raw "_{", "^{" or "x_i"; no figure text
// holds a caret at all (an exponent without Unicode forms, "base^(2i/r)", is drawn raised).
#include "core/demonstrations.h"
#include "ui/io/export.h"
#include "ui/render/typeset.h"
#include "ui/teaching/demopanel.h"
#include "support/figuretexts.h"

#include <QBuffer>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QTextLayout>
#include <QtTest>

using namespace poslab;
using namespace poslab::ui;

class TestTypeset : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void typesetsScripts_data() {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("shown");
        QTest::newRow("theta_i") << "pair i turns θ_i radians" << "pair i turns θᵢ radians";
        QTest::newRow("w_i_at_start") << "w_i of the sinusoid" << "wᵢ of the sinusoid";
        QTest::newRow("m_h_before_dot") << "−m_h·(i − j)" << "−mₕ·(i − j)";
        QTest::newRow("two_letter_base") << "PE_m pair" << "PEₘ pair";
        QTest::newRow("braced_group") << "R_{n−m} q" << "Rₙ₋ₘ q";
        QTest::newRow("combining_mark_base") << "q̃_j k̃_j*" << "q̃ⱼ k̃ⱼ*";
        QTest::newRow("superscript_group") << "e^{i(m−n)θ}" << "eⁱ⁽ᵐ⁻ⁿ⁾ᶿ";
        QTest::newRow("capital_superscript_group") << "Key table a^{K}" << "Key table aᴷ";
        QTest::newRow("identifier_kept") << "rotary_dim and inv_freq" << "rotary_dim and inv_freq";
        QTest::newRow("long_base_kept") << "theta_i" << "theta_i";
        QTest::newRow("word_subscript_kept") << "n_heads" << "n_heads";
        QTest::newRow("paren_exponent_kept") << "base^(−2i/d)" << "base^(−2i/d)";
        QTest::newRow("no_unicode_form_kept") << "x_q" << "x_q";
        QTest::newRow("plain") << "scores · N = 64" << "scores · N = 64";
    }
    void typesetsScripts() {
        QFETCH(QString, raw);
        QFETCH(QString, shown);
        QCOMPARE(typeset(raw), shown);
        QCOMPARE(typeset(shown), shown);   // idempotent
        QCOMPARE(hasRawScript(raw), raw != shown);
    }

    // Wrapped text keeps its formulas whole at every width they fit in (a demonstration's label
    // used to break as "max |" / "diff|"); the prose around them still wraps.
    void formulasAreNotWrappedInside_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("formula");
        QTest::newRow("abs_diff") << "RoPE: cached keys vs full recomputation, max |diff|" << "max |diff|";
        QTest::newRow("relative_norm") << "max | |R_m x| − |x| | / |x| over the positions shown" << "| |R_m x| − |x| | / |x|";
        QTest::newRow("difference") << "scores with the wrong layout differ: S − S' = 0.42 at most" << "S − S' = 0.42";
    }
    void formulasAreNotWrappedInside() {
        QFETCH(QString, text);
        QFETCH(QString, formula);
        QFont font;
        font.setPixelSize(18);
        const QFontMetricsF fm(font);
        const QString shown = keepFormulasTogether(typeset(text));
        const QString whole = typeset(formula);
        QVERIFY(shown.size() > text.size() - 1);
        int widths = 0;
        for (int width = 40; width <= 700; width += 7) {
            if (fm.horizontalAdvance(whole) > width) continue;   // a formula wider than the line cannot stay whole
            ++widths;
            QTextLayout layout(shown, font);
            QTextOption option;
            option.setWrapMode(QTextOption::WordWrap);
            layout.setTextOption(option);
            layout.beginLayout();
            QStringList lines;
            for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
                line.setLineWidth(width);
                lines << shown.mid(line.textStart(), line.textLength()).replace(QChar(0x00A0), QLatin1Char(' ')).remove(QChar(0x2060)).trimmed();
            }
            layout.endLayout();
            const bool whole1 = std::any_of(lines.begin(), lines.end(), [&](const QString& l) { return l.contains(whole); });
            QVERIFY2(whole1, qPrintable(QStringLiteral("%1 px: ").arg(width) + lines.join(QStringLiteral(" / "))));
            if (fm.horizontalAdvance(text) > width * 1.5) QVERIFY(lines.size() > 1);   // the prose wraps
        }
        QVERIFY(widths > 10);
    }

    // Every text of every view's figure, for every method (the layout report holds what was drawn).
    void figureTextsAreTypeset_data() {
        QTest::addColumn<QString>("method");
        for (auto m : EnumKeys<Method>::keys) QTest::newRow(m.key.data()) << QString::fromUtf8(m.key.data());
    }
    void figureTextsAreTypeset() {
        QFETCH(QString, method);
        SceneParams scene;
        scene.methods.front().params.method = *enumFromKey<Method>(method.toStdString());
        QStringList raw;
        for (const auto& [view, report] : testsupport::everyFigureLayout(scene)) {
            QVERIFY(!report.items.empty());
            for (const auto& item : report.items)
                if (hasRawScript(item.text) || item.text.contains(QLatin1Char('^'))) raw << view + QStringLiteral(": ") + item.text;
        }
        QVERIFY2(raw.isEmpty(), qPrintable(raw.join(QLatin1Char('\n'))));
    }

    // Every demonstration as its slide draws it (SVG keeps the text as text).
    void demonstrationTextsAreTypeset_data() {
        QTest::addColumn<int>("id");
        for (const auto& d : demonstrations()) QTest::newRow(d.key.c_str()) << int(d.id);
    }
    void demonstrationTextsAreTypeset() {
        QFETCH(int, id);
        QByteArray bytes;
        {
            QBuffer buffer(&bytes);
            buffer.open(QIODevice::WriteOnly);
            QSvgGenerator svg;
            svg.setOutputDevice(&buffer);
            svg.setSize(QSize(1400, 900));
            QPainter p(&svg);
            paintDemo(p, QRectF(0, 0, 1400, 900), static_cast<DemoId>(id), themeByName(QStringLiteral("light")));
        }
        static const QRegularExpression textItem(QStringLiteral(">([^<>]+)</text>"));
        QStringList raw;
        int texts = 0;
        for (auto it = textItem.globalMatch(QString::fromUtf8(bytes)); it.hasNext();) {
            const QString t = it.next().captured(1).replace(QStringLiteral("&amp;"), QStringLiteral("&"));
            ++texts;
            if (hasRawScript(t)) raw << t;
        }
        QVERIFY(texts > 3);
        QVERIFY2(raw.isEmpty(), qPrintable(raw.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestTypeset)
#include "test_typeset.moc"
