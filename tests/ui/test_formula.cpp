// The formula typesetter: parsing, layout geometry (no overlaps, sizes to content), rendering.
#include "ui/render/formula.h"

#include <QFont>
#include <QImage>
#include <QPainter>
#include <QtTest>

using poslab::ui::Formula;
using poslab::ui::FormulaBox;
using Kind = FormulaBox::Kind;

namespace {

QFont font(qreal pt = 20) {
    QFont f;
    f.setPointSizeF(pt);
    return f;
}
QImage probeDevice() { return QImage(1, 1, QImage::Format_ARGB32_Premultiplied); }

Formula::Layout lay(const QString& tex, qreal pt = 20, bool display = true) {
    QImage dev = probeDevice();
    return Formula::parse(tex).layout(font(pt), &dev, display);
}

// Non-background pixels of an image.
int inkPixels(const QImage& img, QRgb bg) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) n += img.pixel(x, y) != bg;
    return n;
}

// The direct child of `b` with `role` (not a nested one).
const FormulaBox* child(const FormulaBox* b, const QString& role) {
    for (const auto& c : b->children)
        if (c.role == role) return &c;
    return nullptr;
}

bool disjoint(const QRectF& a, const QRectF& b, qreal tol = 0.01) {
    return a.adjusted(tol, tol, -tol, -tol).intersected(b.adjusted(tol, tol, -tol, -tol)).isEmpty();
}

}  // namespace

class TestFormula : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void layoutSizesArePositive_data() {
        QTest::addColumn<QString>("tex");
        QTest::newRow("letter_x") << "x";
        QTest::newRow("theta_i_eq_base_pow") << "\\theta_i = \\mathrm{base}^{-2i/d}";
        QTest::newRow("rope_rotation_matrix")
            << "\\begin{pmatrix} x' \\\\ y' \\end{pmatrix} = \\begin{pmatrix} \\cos a & -\\sin a \\\\ \\sin a & \\cos a \\end{pmatrix}\\begin{pmatrix} x \\\\ y \\end{pmatrix}";
        QTest::newRow("complex_identity")
            << "\\langle R_m q, R_n k \\rangle = \\Re\\left[\\sum_{j=0}^{d/2-1} q_j k_j^{*} e^{i(m-n)\\theta_j}\\right]";
        QTest::newRow("softmax_fraction") << "\\frac{\\exp(s_{ij})}{\\sum_{k} \\exp(s_{ik})}";
        QTest::newRow("sqrt_d") << "\\frac{q \\cdot k}{\\sqrt{d}}";
        QTest::newRow("t5_log_bucket")
            << "\\left\\lfloor \\frac{\\ln(n / 8)}{\\ln(128 / 8)} (16 - 8) \\right\\rfloor";
        QTest::newRow("norm") << "\\lVert R_m q \\rVert = \\lVert q \\rVert";
        QTest::newRow("text_and_numbers") << "b = -0.5\\,(i - j) \\quad \\text{for } j \\le i";
        QTest::newRow("unicode_input") << "a_i = m·θ_i";
    }
    void layoutSizesArePositive() {
        QFETCH(QString, tex);
        const Formula f = Formula::parse(tex);
        QVERIFY2(f.ok(), qPrintable(f.error()));
        const auto l = lay(tex);
        QVERIFY(l.size.width() > 0);
        QVERIFY(l.size.height() > 0);
        QVERIFY(l.ascent > 0 && l.ascent <= l.size.height());
        // Every glyph box lies inside the formula's box.
        const QRectF all(0, -l.ascent, l.size.width(), l.size.height());
        for (const auto* g : l.root.findAll(Kind::Glyphs)) {
            QVERIFY2(all.adjusted(-0.5, -0.5, 0.5, 0.5).contains(g->rect), qPrintable(g->text));
            QVERIFY(g->rect.width() >= 0);
        }
        // Glyph runs of one row never overlap each other.
        const auto glyphs = l.root.findAll(Kind::Glyphs);
        for (std::size_t a = 0; a < glyphs.size(); ++a)
            for (std::size_t b = a + 1; b < glyphs.size(); ++b)
                QVERIFY2(disjoint(glyphs[a]->rect, glyphs[b]->rect, 0.5),
                         qPrintable(glyphs[a]->text + " overlaps " + glyphs[b]->text));
    }

    void scriptsClearOfTheBase_data() {
        QTest::addColumn<QString>("tex");
        QTest::newRow("x_i^2") << "x_i^2";
        QTest::newRow("theta_j^{(k)}") << "\\theta_j^{(k)}";
        QTest::newRow("f_sub_long") << "f_{i+d/2}^{2}";
        QTest::newRow("e_pow_complex") << "e^{i(m-n)\\theta_j}_{0}";
        QTest::newRow("P_sub_fraction_sup") << "P_{\\frac{a}{b}}^{\\frac{c}{d}}";
    }
    void scriptsClearOfTheBase() {
        QFETCH(QString, tex);
        const auto l = lay(tex);
        const auto scripts = l.root.findAll(Kind::Scripts);
        QVERIFY(!scripts.empty());
        const FormulaBox* s = scripts.front();
        const auto* base = child(s, "base");
        const auto* sub = child(s, "sub");
        const auto* sup = child(s, "sup");
        QVERIFY(base && sub && sup);
        QVERIFY2(disjoint(base->rect, sup->rect), "superscript overlaps its base");
        QVERIFY2(disjoint(base->rect, sub->rect), "subscript overlaps its base");
        QVERIFY2(disjoint(sub->rect, sup->rect), "subscript overlaps superscript");
        QVERIFY(sup->rect.bottom() <= sub->rect.top() + 0.01);  // superscript above subscript
        QVERIFY(sup->rect.left() >= base->rect.right() - 0.01);
        QVERIFY(sub->rect.left() >= base->rect.right() - 0.01);
        // Scripts are set smaller than the base.
        const auto* baseGlyph = base->findAll(Kind::Glyphs).front();
        const auto* supGlyph = sup->findAll(Kind::Glyphs).front();
        QVERIFY(supGlyph->pointSize < baseGlyph->pointSize);
        QVERIFY(sup->rect.top() < base->rect.top() + base->rect.height() / 2);  // raised
        QVERIFY(sub->rect.bottom() > 0);                                        // lowered below the baseline
    }

    void fractionStacksAroundTheBar() {
        const auto l = lay("\\frac{m\\,\\theta_i}{2\\pi}");
        const auto* frac = l.root.findAll(Kind::Fraction).front();
        const auto* num = frac->findRole("num");
        const auto* den = frac->findRole("den");
        const auto* bar = frac->findRole("bar");
        QVERIFY(num && den && bar);
        QVERIFY(num->rect.bottom() < bar->rect.top());
        QVERIFY(den->rect.top() > bar->rect.bottom());
        QVERIFY(bar->rect.width() >= std::max(num->rect.width(), den->rect.width()));
        QVERIFY(bar->rect.center().y() < 0);  // on the math axis, above the baseline
        // Numerator and denominator centred on each other.
        QVERIFY(std::abs(num->rect.center().x() - den->rect.center().x()) < 1.0);
    }

    void rootCoversItsRadicand() {
        const auto l = lay("\\sqrt{d_k}");
        const auto* root = l.root.findAll(Kind::Root).front();
        const auto* rad = root->findRole("radicand");
        const auto* sign = root->findRole("symbol");
        QVERIFY(rad && sign);
        QVERIFY(root->rect.contains(rad->rect));
        QVERIFY(root->rect.top() < rad->rect.top());           // room for the bar
        QVERIFY(sign->rect.right() <= rad->rect.left() + 0.01);
        QVERIFY(sign->rect.height() >= rad->rect.height());
    }

    void delimitersGrowWithContent() {
        const auto small = lay("\\left( x \\right)");
        const auto tall = lay("\\left( \\frac{a}{b} \\right)");
        const auto* ls = small.root.findRole("left");
        const auto* lt = tall.root.findRole("left");
        QVERIFY(ls && lt);
        QVERIFY(lt->rect.height() > ls->rect.height() * 1.3);
        const auto* content = tall.root.findAll(Kind::Delimited).front()->findRole("content");
        QVERIFY(lt->rect.top() <= content->rect.top());
        QVERIFY(lt->rect.bottom() >= content->rect.bottom());
        QVERIFY(lt->rect.right() <= content->rect.left() + 0.01);
        const auto* rt = tall.root.findRole("right");
        QVERIFY(rt->rect.left() >= content->rect.right() - 0.01);
    }

    void sumHasLimitsAboveAndBelowInDisplay() {
        const auto l = lay("\\sum_{j=0}^{d/2-1} x_j");
        const auto* op = l.root.findAll(Kind::BigOperator).front();
        const auto* sym = op->findRole("symbol");
        const auto* above = op->findRole("above");
        const auto* below = op->findRole("below");
        QVERIFY(sym && above && below);
        QCOMPARE(sym->text, QStringLiteral("∑"));
        QVERIFY(above->rect.bottom() <= sym->rect.top() + 0.01);
        QVERIFY(below->rect.top() >= sym->rect.bottom() - 0.01);
        QVERIFY(std::abs(above->rect.center().x() - sym->rect.center().x()) < 1.0);
        // Bigger than the text around it.
        const auto* x = l.root.findText("x");
        QVERIFY(sym->rect.height() > x->rect.height() * 1.5);
        // Text style: scripts beside the symbol instead.
        const auto t = lay("\\sum_{j=0}^{n} x_j", 20, false);
        const auto* opT = t.root.findAll(Kind::BigOperator).front();
        QVERIFY(opT->findRole("sup") && opT->findRole("sub"));
    }

    void matrixCellsInAGrid() {
        const auto l = lay("\\begin{pmatrix} \\cos a & -\\sin a \\\\ \\sin a & \\cos a \\end{pmatrix}");
        const auto* m = l.root.findAll(Kind::Matrix).front();
        QCOMPARE(int(m->children.size()), 4);
        const auto* c00 = m->findRole("cell 0 0");
        const auto* c01 = m->findRole("cell 0 1");
        const auto* c10 = m->findRole("cell 1 0");
        const auto* c11 = m->findRole("cell 1 1");
        QVERIFY(c00 && c01 && c10 && c11);
        QVERIFY(c00->rect.right() < c01->rect.left());
        QVERIFY(c10->rect.right() < c11->rect.left());
        QVERIFY(c00->rect.bottom() < c10->rect.top());
        QVERIFY(c01->rect.bottom() < c11->rect.top());
        // Parentheses span the matrix.
        const auto* left = l.root.findRole("left");
        QVERIFY(left && left->text == QStringLiteral("("));
        QVERIFY(left->rect.top() <= m->rect.top() && left->rect.bottom() >= m->rect.bottom());
    }

    void facesAndSymbols() {
        const auto l = lay("x + 2\\theta_i \\cos a \\Delta");
        QVERIFY(l.root.findText("x")->italic);
        QVERIFY(!l.root.findText("2")->italic);
        QVERIFY(l.root.findText(QStringLiteral("θ"))->italic);
        QVERIFY(!l.root.findText("cos")->italic);
        QVERIFY(!l.root.findText(QStringLiteral("Δ"))->italic);
        QVERIFY(l.root.findText(QStringLiteral("+")));
        // Minus becomes a real minus sign.
        QVERIFY(lay("a-b").root.findText(QStringLiteral("−")));
        // Binary operators get space around them, unary minus does not.
        const auto bin = lay("a-b");
        const auto un = lay("-b");
        const qreal gapBin = bin.root.findText(QStringLiteral("−"))->rect.left() - bin.root.findText("a")->rect.right();
        QVERIFY(gapBin > 1.0);
        QVERIFY(std::abs(un.root.findText(QStringLiteral("−"))->rect.left()) < 0.01);
    }

    void scalesWithFontSize() {
        const auto a = lay("\\frac{a}{b} + x^2", 12);
        const auto b = lay("\\frac{a}{b} + x^2", 36);
        QVERIFY(b.size.width() > 2.5 * a.size.width());
        QVERIFY(b.size.height() > 2.5 * a.size.height());
    }

    void reportsParseErrors_data() {
        QTest::addColumn<QString>("tex");
        QTest::addColumn<QString>("needle");
        QTest::newRow("missing_brace") << "\\frac{a}{b" << "missing '}'";
        QTest::newRow("stray_brace") << "a}" << "unbalanced";
        QTest::newRow("unknown_command") << "\\foo x" << "unknown command";
        QTest::newRow("left_without_right") << "\\left( x" << "\\left without \\right";
        QTest::newRow("frac_missing_argument") << "\\frac{a}" << "missing argument";
    }
    void reportsParseErrors() {
        QFETCH(QString, tex);
        QFETCH(QString, needle);
        const Formula f = Formula::parse(tex);
        QVERIFY(!f.ok());
        QVERIFY2(f.error().contains(needle), qPrintable(f.error()));
        QVERIFY(f.size(font()).width() > 0);  // still lays out what it read
    }

    void rendersToImage() {
        const Formula f = Formula::parse("\\langle R_m q, R_n k \\rangle = \\sum_j \\Re(q_j \\bar k_j e^{i(m-n)\\theta_j})");
        const QImage img = f.toImage(font(24), Qt::black, Qt::white, 6);
        QVERIFY(!img.isNull());
        QVERIFY(img.width() > 100 && img.height() > 30);
        const int ink = inkPixels(img, QColor(Qt::white).rgb());
        QVERIFY2(ink > 300, qPrintable(QString::number(ink)));
        QVERIFY(ink < img.width() * img.height() / 2);
        // The margins stay empty.
        for (int x = 0; x < img.width(); ++x) QCOMPARE(img.pixel(x, 0), QColor(Qt::white).rgb());
        // paint() draws the same thing at an offset on a larger image.
        QImage big(img.width() + 40, img.height() + 40, QImage::Format_ARGB32_Premultiplied);
        big.fill(Qt::white);
        QPainter p(&big);
        const QSizeF s = f.paint(&p, QPointF(20, 20), font(24), Qt::black);
        p.end();
        QVERIFY(s.width() > 0 && s.height() > 0);
        QVERIFY(std::abs(inkPixels(big, QColor(Qt::white).rgb()) - ink) < ink / 10);
    }

    void emptyFormula() {
        const Formula f = Formula::parse("");
        QVERIFY(f.ok());
        QVERIFY(f.isEmpty());
        QCOMPARE(f.size(font()).width(), 0.0);
    }

    void numbersForSubstitution_data() {
        QTest::addColumn<double>("x");
        QTest::addColumn<int>("digits");
        QTest::addColumn<QString>("expected");
        QTest::newRow("neg0.416") << -0.41614683654714241 << 3 << "-0.416";
        QTest::newRow("0.1") << 0.10000000149011612 << 4 << "0.1";
        QTest::newRow("zero") << 0.0 << 4 << "0";
        QTest::newRow("2pi") << 6.283185307179586 << 4 << "6.283";
        // The formatter's one threshold (core/format.h): plain decimals from 1e-4, a power of ten below.
        QTest::newRow("1e-4") << 1e-4 << 3 << "0.0001";
        QTest::newRow("1.5e-5") << 1.5e-5 << 3 << "1.5\\times10^{-5}";
        QTest::newRow("1234567") << 1234567.0 << 3 << "1.23\\times10^{6}";
        QTest::newRow("8191") << 8191.0 << 4 << "8191";
        QTest::newRow("12345") << 12345.0 << 3 << "12345";
    }
    void numbersForSubstitution() {
        QFETCH(double, x);
        QFETCH(int, digits);
        QFETCH(QString, expected);
        QCOMPARE(poslab::ui::formulaNumber(x, digits), expected);
        QVERIFY(Formula::parse(poslab::ui::formulaNumber(x, digits)).ok());
    }
};

QTEST_MAIN(TestFormula)
#include "test_formula.moc"
