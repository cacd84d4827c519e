#pragma once
// A small math typesetter drawn with QPainter: a TeX-like source string is parsed into a tree of
// atoms and laid out into boxes the way TeX does it in outline (display/text/script/scriptscript
// styles, spacing classes between atoms, italic variables, upright digits and function names,
// sub/superscripts placed clear of the base, fractions with a bar on the math axis, square roots,
// big operators with limits, delimiters sized to their content, matrices).
//
// Supported input (a subset of LaTeX math; Unicode characters are accepted as themselves):
//   x_i  x^{2}  x_i^2  {…}  \frac{a}{b}  \sqrt{x}  \sum_{j=0}^{d/2-1}  \prod  \left( … \right)
//   \left\langle … \right\rangle  \lVert … \rVert  \lfloor … \rfloor  |…|
//   \begin{pmatrix} a & b \\ c & d \end{pmatrix}  (also bmatrix, vmatrix, matrix)
//   \theta \alpha … \omega \Delta \Theta \Pi \Sigma \Phi \Psi \Omega \lambda \pi \zeta
//   \cos \sin \ln \log \exp \min \max \Re \Im \bmod \pmod{…} \mathbb{R} \operatorname{…} \mathrm{…} \text{…} \mathbf{…}
//   \cdot \times \pm \to \leftarrow \mapsto \le \ge \approx \ne \equiv \in \infty \ldots \cdots
//   \top \perp \partial \nabla \prime \quad \qquad \, \: \; \! \_ \{ \} \% \mid \lVert \rVert \langle \rangle
// A parse problem (unbalanced braces, unknown command, missing argument) is reported by error();
// the formula still lays out whatever it could read, unknown commands drawn as their name.
//
// Coordinates: the layout origin is the left end of the baseline; y grows downwards, so a box's
// rect has top = −ascent and bottom = +descent. Formula::paint takes the top-left corner.
#include <QColor>
#include <QFont>
#include <QImage>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <memory>
#include <vector>

class QPainter;
class QPaintDevice;

namespace poslab::ui {

// One laid-out box, for inspection (tests, hit testing). Rects are in formula coordinates
// (origin on the baseline at the left end).
struct FormulaBox {
    enum class Kind { Row, Glyphs, Space, Scripts, Fraction, Root, BigOperator, Delimited, Matrix, Delimiter, Bar };
    Kind kind = Kind::Row;
    QRectF rect;
    QString text;        // Glyphs / Delimiter / BigOperator: the characters drawn
    QString role;        // "base", "sub", "sup", "num", "den", "radicand", "above", "below", "cell r c",
                         // "content", "left", "right", "bar", "symbol", or empty
    bool italic = false; // Glyphs drawn in the italic face
    qreal pointSize = 0; // Glyphs: the size they are drawn at
    std::vector<FormulaBox> children;

    // Depth-first search helpers.
    std::vector<const FormulaBox*> findAll(Kind kind) const;
    const FormulaBox* findRole(const QString& role) const;
    const FormulaBox* findText(const QString& text) const;
};

class Formula {
public:
    Formula();
    // Parse a TeX-like source (see above). Never fails: check error() for problems.
    static Formula parse(const QString& tex);

    bool ok() const { return error_.isEmpty(); }
    QString error() const { return error_; }
    QString source() const { return source_; }
    bool isEmpty() const;

    struct Layout {
        QSizeF size;        // width, ascent + descent
        qreal ascent = 0;   // baseline distance from the top
        FormulaBox root;
    };
    // Lay out at `font`'s size (its family is replaced by mathFamily()). `device` gives the metrics
    // (nullptr: the screen's); `display` selects display style (big operators with limits,
    // full-size fractions) over text style.
    Layout layout(const QFont& font, QPaintDevice* device = nullptr, bool display = true) const;
    QSizeF size(const QFont& font, QPaintDevice* device = nullptr, bool display = true) const;

    // Draw with the top-left corner at `topLeft` in `color`; returns the size drawn.
    QSizeF paint(QPainter* painter, QPointF topLeft, const QFont& font, const QColor& color, bool display = true) const;

    // The formula alone on a background, with `margin` pixels around it.
    QImage toImage(const QFont& font, const QColor& foreground, const QColor& background, int margin = 4,
                   bool display = true) const;

    // The family used for formulas ("DejaVu Serif" when installed, else the application's).
    static QString mathFamily();

    struct Node;  // parse tree (formula.cpp)

    struct Cache;     // laid-out boxes by font, device resolution and style (formula.cpp)

private:
    std::shared_ptr<const Node> root_;
    QString source_, error_;
    // Layout is text shaping of every glyph; a sheet repaints far more often than it changes, so
    // the last few layouts are kept (shared by copies of this formula; guarded by a mutex).
    std::shared_ptr<Cache> cache_;
};

// While one is alive, no glyph of a formula laid out on this thread is smaller than `ratio` of the
// formula's font (scripts are 0.7 of it, scripts of scripts 0.5): a projected slide's scripts
// stay as legible as its smallest text. Nested floors: the innermost holds.
class FormulaScriptFloor {
public:
    explicit FormulaScriptFloor(double ratio);
    ~FormulaScriptFloor();
    FormulaScriptFloor(const FormulaScriptFloor&) = delete;
    FormulaScriptFloor& operator=(const FormulaScriptFloor&) = delete;
    static double current();   // 0 without one

private:
    double previous_;
};

// Format a number for substitution into a formula source: at most `digits` significant digits,
// a real minus sign, no exponent for ordinary magnitudes ("−0.416", "1.0e−4" → "1.0\times10^{-4}").
QString formulaNumber(double x, int digits = 4);

}  // namespace poslab::ui
