#include "ui/render/formula.h"
#include "core/format.h"

#include "ui/render/plot.h"

#include <mutex>

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QHash>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

// ============================================================================ parse tree
namespace {
enum Cls { Ord = 0, Op, Bin, Rel, Open, Close, Punct, Inner, NoCls };
}

struct Formula::Node {
    enum class K { Row, Atom, Space, Scripts, Frac, Sqrt, BigOp, Delim, Matrix, Overline };
    enum class Face { Italic, Upright, Text, Bold };
    K k = K::Row;
    QString text, text2;  // Atom text / BigOp symbol / Delim left; Delim right
    Face face = Face::Upright;
    int cls = Ord;
    qreal em = 0;          // Space width
    bool limits = true;    // BigOp: limits above/below in display style
    std::vector<std::shared_ptr<Node>> kids;  // Row items; Scripts [base, sub, sup]; Frac [num, den];
                                              // Sqrt [rad]; BigOp [sub, sup]; Delim [content]; Matrix cells
    int rows = 0, cols = 0;
};

namespace {

using Node = Formula::Node;
using NodeP = std::shared_ptr<Node>;
using K = Node::K;
using Face = Node::Face;

NodeP atom(const QString& t, Face f, int cls) {
    auto n = std::make_shared<Node>();
    n->k = K::Atom;
    n->text = t;
    n->face = f;
    n->cls = cls;
    return n;
}
NodeP space(qreal em) {
    auto n = std::make_shared<Node>();
    n->k = K::Space;
    n->em = em;
    return n;
}
NodeP row() { return std::make_shared<Node>(); }

struct Sym {
    QString text;
    int cls;
    Face face;
};

const QHash<QString, Sym>& symbols() {
    static const QHash<QString, Sym> map = [] {
        QHash<QString, Sym> m;
        const char* lower[][2] = {{"alpha", "α"}, {"beta", "β"}, {"gamma", "γ"}, {"delta", "δ"}, {"epsilon", "ϵ"},
                                  {"varepsilon", "ε"}, {"zeta", "ζ"}, {"eta", "η"}, {"theta", "θ"}, {"vartheta", "ϑ"},
                                  {"iota", "ι"}, {"kappa", "κ"}, {"lambda", "λ"}, {"mu", "μ"}, {"nu", "ν"}, {"xi", "ξ"},
                                  {"pi", "π"}, {"rho", "ρ"}, {"sigma", "σ"}, {"tau", "τ"}, {"upsilon", "υ"},
                                  {"phi", "ϕ"}, {"varphi", "φ"}, {"chi", "χ"}, {"psi", "ψ"}, {"omega", "ω"}};
        for (auto& g : lower) m.insert(g[0], {QString::fromUtf8(g[1]), Ord, Face::Italic});
        const char* upper[][2] = {{"Gamma", "Γ"}, {"Delta", "Δ"}, {"Theta", "Θ"}, {"Lambda", "Λ"}, {"Xi", "Ξ"},
                                  {"Pi", "Π"}, {"Sigma", "Σ"}, {"Upsilon", "Υ"}, {"Phi", "Φ"}, {"Psi", "Ψ"}, {"Omega", "Ω"}};
        for (auto& g : upper) m.insert(g[0], {QString::fromUtf8(g[1]), Ord, Face::Upright});
        struct E { const char* name; const char* text; int cls; };
        const E ops[] = {
            {"cdot", "·", Bin}, {"times", "×", Bin}, {"pm", "±", Bin}, {"mp", "∓", Bin}, {"ast", "∗", Bin},
            {"circ", "∘", Bin}, {"odot", "⊙", Bin}, {"otimes", "⊗", Bin}, {"oplus", "⊕", Bin}, {"setminus", "∖", Bin},
            {"cap", "∩", Bin}, {"cup", "∪", Bin}, {"div", "÷", Bin}, {"bmod", "mod", Bin},
            {"to", "→", Rel}, {"rightarrow", "→", Rel}, {"leftarrow", "←", Rel}, {"gets", "←", Rel},
            {"mapsto", "↦", Rel}, {"Rightarrow", "⇒", Rel}, {"iff", "⟺", Rel}, {"le", "≤", Rel}, {"leq", "≤", Rel},
            {"ge", "≥", Rel}, {"geq", "≥", Rel}, {"approx", "≈", Rel}, {"ne", "≠", Rel}, {"neq", "≠", Rel},
            {"equiv", "≡", Rel}, {"sim", "∼", Rel}, {"simeq", "≃", Rel}, {"propto", "∝", Rel}, {"in", "∈", Rel},
            {"notin", "∉", Rel}, {"subset", "⊂", Rel}, {"subseteq", "⊆", Rel}, {"ll", "≪", Rel}, {"gg", "≫", Rel},
            {"coloneqq", "≔", Rel}, {"mid", "|", Rel},
            {"infty", "∞", Ord}, {"top", "⊤", Ord}, {"intercal", "⊺", Ord}, {"perp", "⊥", Rel}, {"partial", "∂", Ord}, {"nabla", "∇", Ord}, {"forall", "∀", Ord},
            {"exists", "∃", Ord}, {"emptyset", "∅", Ord}, {"ell", "ℓ", Ord}, {"hbar", "ℏ", Ord}, {"prime", "′", Ord},
            {"ldots", "…", Inner}, {"dots", "…", Inner}, {"cdots", "⋯", Inner}, {"vdots", "⋮", Ord},
            {"langle", "⟨", Open}, {"rangle", "⟩", Close}, {"lVert", "‖", Open}, {"rVert", "‖", Close},
            {"Vert", "‖", Ord}, {"|", "‖", Ord}, {"lvert", "|", Open}, {"rvert", "|", Close}, {"vert", "|", Ord},
            {"lfloor", "⌊", Open}, {"rfloor", "⌋", Close}, {"lceil", "⌈", Open}, {"rceil", "⌉", Close},
            {"{", "{", Open}, {"}", "}", Close}, {"lbrace", "{", Open}, {"rbrace", "}", Close},
            {"_", "_", Ord}, {"%", "%", Ord}, {"#", "#", Ord}, {"&", "&", Ord}, {"$", "$", Ord},
        };
        for (auto& e : ops) m.insert(e.name, {QString::fromUtf8(e.text), e.cls, Face::Upright});
        const char* fns[] = {"cos", "sin", "tan", "cot", "sec", "csc", "ln", "log", "exp", "min", "max", "arg", "det",
                             "dim", "ker", "lim", "sup", "inf", "gcd", "deg", "Re", "Im", "softmax", "argmax", "clip", "sign", "mod"};
        for (auto f : fns) m.insert(f, {QString::fromUtf8(f), Op, Face::Upright});
        return m;
    }();
    return map;
}

bool isGreekLower(QChar c) { return c.unicode() >= 0x3B1 && c.unicode() <= 0x3C9; }

int classOfChar(QChar c) {
    switch (c.unicode()) {
        case '+': case '-': case '*': case 0x2212: case 0xB7: case 0xD7: case 0xB1: case 0x2217: case 0x2218: return Bin;
        case '=': case '<': case '>': case ':': case 0x2192: case 0x2190: case 0x2264: case 0x2265: case 0x2248:
        case 0x2260: case 0x2261: case 0x2208: case 0x21A6: case 0x221D: case 0x223C: return Rel;
        case ',': case ';': return Punct;
        case '(': case '[': case 0x27E8: case 0x230A: case 0x2308: return Open;
        case ')': case ']': case 0x27E9: case 0x230B: case 0x2309: case '!': case '?': return Close;
        case 0x2026: case 0x22EF: return Inner;
        default: return Ord;
    }
}

class Parser {
public:
    explicit Parser(const QString& s) : s_(s) {}
    NodeP parse() {
        NodeP r = parseRow();
        while (i_ < s_.size()) {  // stray closers at top level
            if (s_[i_] == '}') err(QStringLiteral("unbalanced '}'"));
            else if (s_[i_] == '&') err(QStringLiteral("'&' outside a matrix"));
            else if (isCmd(QStringLiteral("\\"))) err(QStringLiteral("'\\\\' outside a matrix"));
            else if (peekCommand() == QLatin1String("right")) err(QStringLiteral("\\right without \\left"));
            else if (peekCommand() == QLatin1String("end")) err(QStringLiteral("\\end without \\begin"));
            skipToken();
            NodeP more = parseRow();
            for (auto& k : more->kids) r->kids.push_back(k);
        }
        return r;
    }
    QString errors() const { return errors_.join(QStringLiteral("; ")); }

private:
    const QString& s_;
    int i_ = 0;
    QStringList errors_;

    void err(const QString& e) {
        if (!errors_.contains(e)) errors_ << e;
    }
    void skipSpaces() {
        while (i_ < s_.size() && s_[i_].isSpace()) ++i_;
    }
    // Name of the command at i_ (without backslash), or empty.
    QString peekCommand() const {
        if (i_ >= s_.size() || s_[i_] != '\\') return {};
        int j = i_ + 1;
        if (j >= s_.size()) return {};
        if (!s_[j].isLetter()) return QString(s_[j]);
        int e = j;
        while (e < s_.size() && s_[e].isLetter() && s_[e].unicode() < 128) ++e;
        return s_.mid(j, e - j);
    }
    bool isCmd(const QString& name) const { return peekCommand() == name; }
    QString takeCommand() {
        const QString c = peekCommand();
        i_ += 1 + int(c.size());
        return c;
    }
    void skipToken() {
        if (i_ < s_.size() && s_[i_] == '\\') takeCommand();
        else ++i_;
    }

    bool atRowEnd() {
        skipSpaces();
        if (i_ >= s_.size()) return true;
        const QChar c = s_[i_];
        if (c == '}' || c == '&') return true;
        const QString cmd = peekCommand();
        return cmd == QLatin1String("\\") || cmd == QLatin1String("right") || cmd == QLatin1String("end");
    }

    NodeP parseRow() {
        NodeP r = row();
        while (!atRowEnd()) {
            const QChar c = s_[i_];
            if (c == '\'') {  // primes: full-size glyphs appended to the base, scripts follow them
                QString primes;
                while (i_ < s_.size() && s_[i_] == '\'') {
                    primes += QChar(0x2032);
                    ++i_;
                }
                NodeP p = atom(primes, Face::Upright, Ord);
                if (!r->kids.empty() && r->kids.back()->k != K::Space) {
                    NodeP g = row();
                    g->kids = {r->kids.back(), p};
                    r->kids.back() = g;
                } else {
                    r->kids.push_back(p);
                }
                continue;
            }
            if (c == '^' || c == '_') {
                NodeP base = r->kids.empty() || r->kids.back()->k == K::Space ? row() : r->kids.back();
                if (!r->kids.empty() && r->kids.back() == base) r->kids.pop_back();
                r->kids.push_back(parseScripts(base));
                continue;
            }
            r->kids.push_back(parseAtom());
        }
        return r;
    }

    NodeP parseScripts(NodeP base) {
        NodeP sub, sup;
        if (base->k == K::Scripts && base->kids.size() == 3) {  // x_i then ^2 written apart: merge
            sub = base->kids[1];
            sup = base->kids[2];
            base = base->kids[0];
        }
        for (;;) {
            skipSpaces();
            if (i_ >= s_.size()) break;
            const QChar c = s_[i_];
            if (c == '^' || c == '_') {
                ++i_;
                NodeP arg = parseArg();
                NodeP& slot = c == '^' ? sup : sub;
                if (slot) err(QStringLiteral("double ") + (c == '^' ? "superscript" : "subscript"));
                slot = arg;
            } else {
                break;
            }
        }
        if (base->k == K::BigOp) {
            auto op = std::make_shared<Node>(*base);
            op->kids = {sub, sup};
            return op;
        }
        auto n = std::make_shared<Node>();
        n->k = K::Scripts;
        n->kids = {base, sub, sup};
        return n;
    }

    // A script or command argument: a {group} or one token.
    NodeP parseArg() {
        skipSpaces();
        if (i_ >= s_.size()) {
            err(QStringLiteral("missing argument"));
            return row();
        }
        if (s_[i_] == '{') return parseGroup();
        if (s_[i_] == '}') {
            err(QStringLiteral("missing argument"));
            return row();
        }
        if (s_[i_].isDigit()) {  // one digit only, as TeX
            return atom(QString(s_[i_++]), Face::Upright, Ord);
        }
        return parseAtom();
    }

    NodeP parseGroup() {
        ++i_;  // '{'
        NodeP r = parseRow();
        skipSpaces();
        if (i_ < s_.size() && s_[i_] == '}') ++i_;
        else err(QStringLiteral("missing '}'"));
        return r;
    }

    // Raw text of a {group}, unescaping \_ \{ \} \% \& \# \, \  (for \text, \mathrm).
    QString rawGroup(bool* hasCommands) {
        skipSpaces();
        *hasCommands = false;
        if (i_ >= s_.size() || s_[i_] != '{') {
            err(QStringLiteral("missing argument"));
            return {};
        }
        int depth = 0;
        QString out;
        const int start = i_;
        for (; i_ < s_.size(); ++i_) {
            const QChar c = s_[i_];
            if (c == '{') {
                if (depth++ > 0) out += c;
            } else if (c == '}') {
                if (--depth == 0) {
                    ++i_;
                    return out;
                }
                out += c;
            } else if (c == '\\' && i_ + 1 < s_.size()) {
                const QChar n = s_[i_ + 1];
                if (QStringLiteral("_{}%&#$ ").contains(n)) {
                    out += n;
                    ++i_;
                } else if (n == ',') {
                    out += QChar(0x2009);
                    ++i_;
                } else {
                    *hasCommands = true;
                    out += c;
                }
            } else if (c == '^' || (c == '_' && depth > 0)) {
                *hasCommands = true;
                out += c;
            } else {
                out += c;
            }
        }
        i_ = start;
        err(QStringLiteral("missing '}'"));
        ++i_;
        return out;
    }

    static void setFace(const NodeP& n, Face f) {
        if (!n) return;
        if (n->k == K::Atom && n->face != Face::Text) n->face = f;
        for (auto& k : n->kids) setFace(k, f);
    }

    // The delimiter after \left or \right: a character or a command; "." = none.
    QString parseDelimiter() {
        skipSpaces();
        if (i_ >= s_.size()) {
            err(QStringLiteral("missing delimiter"));
            return QStringLiteral(".");
        }
        if (s_[i_] == '\\') {
            const QString c = takeCommand();
            auto it = symbols().find(c);
            if (it != symbols().end()) return it->text;
            err(QStringLiteral("unknown delimiter \\") + c);
            return QStringLiteral(".");
        }
        const QChar c = s_[i_++];
        if (c == '.') return QStringLiteral(".");
        if (QStringLiteral("()[]|/").contains(c)) return QString(c);
        if (c == '<') return QStringLiteral("⟨");
        if (c == '>') return QStringLiteral("⟩");
        return QString(c);
    }

    NodeP delimited(const QString& l, NodeP content, const QString& r) {
        auto d = std::make_shared<Node>();
        d->k = K::Delim;
        d->text = l;
        d->text2 = r;
        d->kids = {std::move(content)};
        return d;
    }

    NodeP parseEnvironment() {
        bool cmds = false;
        const QString env = rawGroup(&cmds);
        auto m = std::make_shared<Node>();
        m->k = K::Matrix;
        std::vector<std::vector<NodeP>> rows(1);
        for (;;) {
            rows.back().push_back(parseRow());
            skipSpaces();
            if (i_ >= s_.size()) {
                err(QStringLiteral("missing \\end{") + env + "}");
                break;
            }
            if (s_[i_] == '&') {
                ++i_;
                continue;
            }
            const QString c = peekCommand();
            if (c == QLatin1String("\\")) {
                takeCommand();
                rows.emplace_back();
                continue;
            }
            if (c == QLatin1String("end")) {
                takeCommand();
                const QString e = rawGroup(&cmds);
                if (e != env) err(QStringLiteral("\\begin{") + env + "} ended by \\end{" + e + "}");
                break;
            }
            if (s_[i_] == '}') {
                err(QStringLiteral("unbalanced '}'"));
                ++i_;
                continue;
            }
            if (c == QLatin1String("right")) {
                err(QStringLiteral("\\right inside a matrix"));
                takeCommand();
                parseDelimiter();
                continue;
            }
            break;
        }
        while (rows.size() > 1 && rows.back().size() == 1 && rows.back()[0]->kids.empty()) rows.pop_back();  // trailing "\\"
        m->rows = int(rows.size());
        m->cols = 0;
        for (auto& r : rows) m->cols = std::max(m->cols, int(r.size()));
        for (auto& r : rows)
            for (int c = 0; c < m->cols; ++c) m->kids.push_back(c < int(r.size()) ? r[std::size_t(c)] : row());
        if (env == QLatin1String("pmatrix")) return delimited(QStringLiteral("("), m, QStringLiteral(")"));
        if (env == QLatin1String("bmatrix")) return delimited(QStringLiteral("["), m, QStringLiteral("]"));
        if (env == QLatin1String("vmatrix")) return delimited(QStringLiteral("|"), m, QStringLiteral("|"));
        if (env == QLatin1String("Vmatrix")) return delimited(QStringLiteral("‖"), m, QStringLiteral("‖"));
        if (env == QLatin1String("cases")) return delimited(QStringLiteral("{"), m, QStringLiteral("."));
        if (env != QLatin1String("matrix")) err(QStringLiteral("unknown environment ") + env);
        return m;
    }

    NodeP parseCommand() {
        const QString c = takeCommand();
        if (c == QLatin1String("frac") || c == QLatin1String("dfrac") || c == QLatin1String("tfrac")) {
            auto f = std::make_shared<Node>();
            f->k = K::Frac;
            NodeP num = parseArg();
            NodeP den = parseArg();
            f->kids = {num, den};
            return f;
        }
        if (c == QLatin1String("sqrt")) {
            skipSpaces();
            if (i_ < s_.size() && s_[i_] == '[') {  // index ignored
                while (i_ < s_.size() && s_[i_] != ']') ++i_;
                ++i_;
            }
            auto r = std::make_shared<Node>();
            r->k = K::Sqrt;
            r->kids = {parseArg()};
            return r;
        }
        if (c == QLatin1String("bar") || c == QLatin1String("overline") || c == QLatin1String("tilde") ||
            c == QLatin1String("hat") || c == QLatin1String("vec") || c == QLatin1String("dot") ||
            c == QLatin1String("widetilde") || c == QLatin1String("widehat")) {
            auto o = std::make_shared<Node>();
            o->k = K::Overline;
            o->text = c;
            o->kids = {parseArg()};
            return o;
        }
        if (c == QLatin1String("sum") || c == QLatin1String("prod") || c == QLatin1String("int") ||
            c == QLatin1String("coprod") || c == QLatin1String("bigcup")) {
            auto b = std::make_shared<Node>();
            b->k = K::BigOp;
            b->text = c == QLatin1String("sum") ? QStringLiteral("∑") : c == QLatin1String("prod") ? QStringLiteral("∏")
                    : c == QLatin1String("int") ? QStringLiteral("∫") : c == QLatin1String("coprod") ? QStringLiteral("∐")
                    : QStringLiteral("⋃");
            b->limits = c != QLatin1String("int");
            b->cls = Op;
            b->kids = {nullptr, nullptr};
            return b;
        }
        if (c == QLatin1String("left")) {
            const QString l = parseDelimiter();
            NodeP content = parseRow();
            QString r = QStringLiteral(".");
            if (isCmd(QStringLiteral("right"))) {
                takeCommand();
                r = parseDelimiter();
            } else {
                err(QStringLiteral("\\left without \\right"));
                if (i_ < s_.size() && s_[i_] == '}') {
                    // leave the brace to the caller
                }
            }
            return delimited(l, content, r);
        }
        if (c == QLatin1String("begin")) return parseEnvironment();
        if (c == QLatin1String("text") || c == QLatin1String("mbox") || c == QLatin1String("textrm")) {
            bool cmds = false;
            return atom(rawGroup(&cmds), Face::Text, Ord);
        }
        if (c == QLatin1String("pmod")) {  // "(mod x)" with a space before it
            NodeP arg = parseArg();
            NodeP r = row();
            r->kids = {space(0.6), atom(QStringLiteral("("), Face::Upright, Open), atom(QStringLiteral("mod"), Face::Upright, Ord),
                       space(0.33), arg, atom(QStringLiteral(")"), Face::Upright, Close)};
            return r;
        }
        if (c == QLatin1String("mathbb")) {
            bool cmds = false;
            const QString raw = rawGroup(&cmds);
            static const QHash<QChar, QString> bb = {{'R', QStringLiteral("ℝ")}, {'N', QStringLiteral("ℕ")}, {'Z', QStringLiteral("ℤ")},
                                                     {'C', QStringLiteral("ℂ")}, {'Q', QStringLiteral("ℚ")}, {'E', QStringLiteral("𝔼")}};
            QString out;
            for (QChar ch : raw) out += bb.value(ch, QString(ch));
            return atom(out, Face::Upright, Ord);
        }
        if (c == QLatin1String("mathrm") || c == QLatin1String("operatorname") || c == QLatin1String("mathit") ||
            c == QLatin1String("mathbf") || c == QLatin1String("boldsymbol")) {
            const Face f = c == QLatin1String("mathit") ? Face::Italic
                         : (c == QLatin1String("mathbf") || c == QLatin1String("boldsymbol")) ? Face::Bold : Face::Upright;
            const int cls = c == QLatin1String("operatorname") ? Op : Ord;
            const int save = i_;
            bool cmds = false;
            const QString raw = rawGroup(&cmds);
            if (!cmds) return atom(raw, f, cls);
            i_ = save;
            skipSpaces();
            NodeP g = parseArg();
            setFace(g, f);
            if (cls == Op) g->cls = Op;
            return g;
        }
        // Spaces.
        if (c == QLatin1String(",")) return space(3.0 / 18);
        if (c == QLatin1String(":") || c == QLatin1String(">")) return space(4.0 / 18);
        if (c == QLatin1String(";")) return space(5.0 / 18);
        if (c == QLatin1String("!")) return space(-3.0 / 18);
        if (c == QLatin1String(" ")) return space(0.33);
        if (c == QLatin1String("quad")) return space(1.0);
        if (c == QLatin1String("qquad")) return space(2.0);
        auto it = symbols().find(c);
        if (it != symbols().end()) return atom(it->text, it->face, it->cls);
        err(QStringLiteral("unknown command \\") + c);
        return atom(c, Face::Upright, Ord);
    }

    NodeP parseAtom() {
        skipSpaces();
        const QChar c = s_[i_];
        if (c == '{') {
            NodeP g = parseGroup();
            return g;
        }
        if (c == '\\') return parseCommand();
        if (c.isDigit() || (c == '.' && i_ + 1 < s_.size() && s_[i_ + 1].isDigit())) {
            int e = i_;
            while (e < s_.size() && (s_[e].isDigit() || (s_[e] == '.' && e + 1 < s_.size() && s_[e + 1].isDigit()))) ++e;
            NodeP n = atom(s_.mid(i_, e - i_), Face::Upright, Ord);
            i_ = e;
            return n;
        }
        ++i_;
        if (c.isLetter() && c.unicode() < 128) return atom(QString(c), Face::Italic, Ord);
        if (isGreekLower(c)) return atom(QString(c), Face::Italic, Ord);
        if (c == '-') return atom(QString(QChar(0x2212)), Face::Upright, Bin);
        if (c == '*') return atom(QString(QChar(0x2217)), Face::Upright, Bin);
        if (c == '<') return atom(QStringLiteral("<"), Face::Upright, Rel);
        if (c == '>') return atom(QStringLiteral(">"), Face::Upright, Rel);
        if (c.isHighSurrogate() && i_ < s_.size()) {
            const QString pair = QString(c) + s_[i_++];
            return atom(pair, Face::Upright, Ord);
        }
        return atom(QString(c), Face::Upright, classOfChar(c));
    }
};

// ============================================================================ layout
struct Draw {
    enum T { Text, Line, Path } t = Text;
    QString text;
    QFont font;
    QPointF pos;
    QLineF line;
    QPainterPath path;
    qreal width = 1;
};

struct Box {
    qreal w = 0, asc = 0, desc = 0, ic = 0;
    std::vector<Draw> draws;
    FormulaBox info;
    bool isChar = false;  // a single glyph run (TeX's "character box" for script placement)
};

void translate(FormulaBox& b, qreal dx, qreal dy) {
    b.rect.translate(dx, dy);
    for (auto& c : b.children) translate(c, dx, dy);
}
void translate(Box& b, qreal dx, qreal dy) {
    for (auto& d : b.draws) {
        d.pos += QPointF(dx, dy);
        d.line.translate(dx, dy);
        d.path.translate(dx, dy);
    }
    translate(b.info, dx, dy);
}
// Append child (already translated) into parent.
void adopt(Box& parent, Box&& child, const QString& role = {}) {
    for (auto& d : child.draws) parent.draws.push_back(std::move(d));
    if (!role.isEmpty()) child.info.role = role;
    parent.info.children.push_back(std::move(child.info));
}
void finishInfo(Box& b, FormulaBox::Kind kind) {
    b.info.kind = kind;
    b.info.rect = QRectF(0, -b.asc, b.w, b.asc + b.desc);
}

enum Style { D = 0, T = 1, S = 2, SS = 3 };
Style supStyle(Style s) { return s <= T ? S : SS; }
Style fracStyle(Style s) { return s == D ? T : s == T ? S : SS; }
qreal styleScale(Style s) { return s <= T ? 1.0 : s == S ? 0.7 : 0.5; }

struct Metrics {
    qreal em, xh, axis, rule;
};

thread_local double tScriptFloor = 0;

class Layouter {
public:
    Layouter(const QFont& base, QPaintDevice* dev) : base_(base), dev_(dev) {
        base_.setFamily(Formula::mathFamily());
        base_.setItalic(false);
        base_.setBold(false);
    }

    QFont font(Style st, Face f, qreal extraScale = 1.0) const {
        QFont ft = base_;
        const qreal k = std::max<qreal>(styleScale(st), tScriptFloor) * extraScale;
        if (base_.pointSizeF() > 0) ft.setPointSizeF(std::max(1.0, base_.pointSizeF() * k));
        else ft.setPixelSize(std::max(1, int(std::lround(base_.pixelSize() * k))));
        ft.setItalic(f == Face::Italic);
        ft.setBold(f == Face::Bold);
        if (f == Face::Text) ft.setFamily(base_.family());
        return ft;
    }
    QFontMetricsF fm(const QFont& f) const { return dev_ ? QFontMetricsF(f, dev_) : QFontMetricsF(f); }

    Metrics metrics(Style st) const {
        const QFont f = font(st, Face::Upright);
        const QFontMetricsF m = fm(f);
        Metrics r;
        r.em = m.height() * 0.86;
        r.xh = m.xHeight();
        const QRectF minus = m.tightBoundingRect(QString(QChar(0x2212)));
        r.axis = minus.isEmpty() ? r.xh * 0.5 : -minus.center().y();
        r.rule = std::max(1.0, r.em * 0.05);
        return r;
    }

    Box text(const QString& t, Style st, Face f, qreal extraScale = 1.0) const {
        Box b;
        const QFont ft = font(st, f, extraScale);
        const QFontMetricsF m = fm(ft);
        const QRectF tight = m.tightBoundingRect(t);
        b.w = m.horizontalAdvance(t);
        b.asc = std::max<qreal>(0, -tight.top());
        b.desc = std::max<qreal>(0, tight.bottom());
        if (f == Face::Italic) b.ic = std::max<qreal>(0, tight.right() - b.w);
        Draw d;
        d.t = Draw::Text;
        d.text = t;
        d.font = ft;
        d.pos = QPointF(0, 0);
        b.draws.push_back(d);
        finishInfo(b, FormulaBox::Kind::Glyphs);
        b.info.text = t;
        b.info.italic = f == Face::Italic;
        b.info.pointSize = ft.pointSizeF() > 0 ? ft.pointSizeF() : ft.pixelSize();
        b.isChar = true;
        return b;
    }

    static int classOf(const NodeP& n) {
        if (!n) return Ord;
        switch (n->k) {
            case K::Atom: return n->cls;
            case K::Scripts: return classOf(n->kids[0]);
            case K::Frac: case K::Delim: case K::Matrix: return Inner;
            case K::BigOp: return Op;
            case K::Space: return NoCls;
            case K::Row: return n->cls == Op ? Op : Ord;
            default: return Ord;
        }
    }

    // TeX's inter-atom spacing in mu (1/18 em); negative = only in display/text styles.
    static int spacing(int l, int r) {
        static const int table[8][8] = {
            //        Ord Op  Bin Rel Open Close Punct Inner
            /*Ord*/ {0, 3, -4, -5, 0, 0, 0, -3},
            /*Op*/ {3, 3, 0, -5, 0, 0, 0, -3},
            /*Bin*/ {-4, -4, 0, 0, -4, 0, 0, -4},
            /*Rel*/ {-5, -5, 0, 0, -5, 0, 0, -5},
            /*Open*/ {0, 0, 0, 0, 0, 0, 0, 0},
            /*Close*/ {0, 3, -4, -5, 0, 0, 0, -3},
            /*Punct*/ {-3, -3, 0, -3, -3, -3, -3, -3},
            /*Inner*/ {-3, 3, -4, -5, -3, 0, -3, -3},
        };
        if (l < 0 || l > 7 || r < 0 || r > 7) return 0;
        return table[l][r];
    }

    Box layout(const NodeP& n, Style st) const {
        if (!n) return empty();
        switch (n->k) {
            case K::Row: return layoutRow(*n, st);
            case K::Atom: return text(n->text, st, n->face);
            case K::Space: {
                Box b;
                b.w = n->em * metrics(st).em;
                finishInfo(b, FormulaBox::Kind::Space);
                return b;
            }
            case K::Scripts: return layoutScripts(layout(n->kids[0], st), n->kids[1], n->kids[2], st);
            case K::Frac: return layoutFrac(*n, st);
            case K::Sqrt: return layoutSqrt(*n, st);
            case K::BigOp: return layoutBigOp(*n, st);
            case K::Delim: return layoutDelim(*n, st);
            case K::Matrix: return layoutMatrix(*n, st);
            case K::Overline: return layoutOverline(*n, st);
        }
        return empty();
    }

    Box empty() const {
        Box b;
        finishInfo(b, FormulaBox::Kind::Row);
        return b;
    }

    Box layoutRow(const Node& r, Style st) const {
        // Classes with TeX's Bin → Ord rule.
        std::vector<int> cls(r.kids.size());
        for (std::size_t i = 0; i < r.kids.size(); ++i) cls[i] = classOf(r.kids[i]);
        int prev = NoCls;
        std::size_t prevIdx = 0;
        for (std::size_t i = 0; i < r.kids.size(); ++i) {
            if (cls[i] == NoCls) continue;
            if (cls[i] == Bin && (prev == NoCls || prev == Bin || prev == Op || prev == Rel || prev == Open || prev == Punct))
                cls[i] = Ord;
            if ((cls[i] == Rel || cls[i] == Close || cls[i] == Punct) && prev == Bin) cls[prevIdx] = Ord;
            prev = cls[i];
            prevIdx = i;
        }
        if (prev == Bin) cls[prevIdx] = Ord;

        Box b;
        const Metrics m = metrics(st);
        qreal x = 0;
        prev = NoCls;
        for (std::size_t i = 0; i < r.kids.size(); ++i) {
            if (cls[i] != NoCls && prev != NoCls) {
                const int sp = spacing(prev, cls[i]);
                if (sp > 0 || (sp < 0 && st <= T)) x += std::abs(sp) / 18.0 * m.em;
            }
            Box c = layout(r.kids[i], st);
            translate(c, x, 0);
            b.asc = std::max(b.asc, c.asc);
            b.desc = std::max(b.desc, c.desc);
            x += c.w;
            if (i + 1 == r.kids.size()) b.ic = c.ic;
            adopt(b, std::move(c));
            if (cls[i] != NoCls) prev = cls[i];
        }
        b.w = std::max<qreal>(0, x);
        std::vector<FormulaBox> kids = std::move(b.info.children);
        finishInfo(b, FormulaBox::Kind::Row);
        b.info.children = std::move(kids);
        b.isChar = r.kids.size() == 1 && r.kids[0]->k == K::Atom;
        return b;
    }

    Box layoutScripts(Box base, const NodeP& subN, const NodeP& supN, Style st) const {
        const Metrics m = metrics(st);
        const Style ss = supStyle(st);
        const Metrics ms = metrics(ss);
        Box b;
        const qreal bw = base.w, bic = base.ic, basc = base.asc, bdesc = base.desc;
        const bool isChar = base.isChar;
        adopt(b, std::move(base), QStringLiteral("base"));
        b.w = bw;
        b.asc = basc;
        b.desc = bdesc;
        Box sup, sub;
        const bool hasSup = supN != nullptr, hasSub = subN != nullptr;
        if (hasSup) sup = layout(supN, ss);
        if (hasSub) sub = layout(subN, ss);
        qreal u = 0, v = 0;
        if (hasSup) {
            u = std::max({isChar ? 0.0 : basc - 0.386 * ms.em, (st == D ? 0.413 : 0.363) * m.em, sup.desc + m.xh / 4});
        }
        if (hasSub) {
            v = std::max({isChar ? 0.0 : bdesc + 0.05 * ms.em, 0.15 * m.em, sub.asc - 0.8 * m.xh});
        }
        if (hasSup && hasSub) {
            v = std::max(v, 0.247 * m.em);
            const qreal gap = (u - sup.desc) - (sub.asc - v);
            const qreal minGap = 4 * m.rule;
            if (gap < minGap) v += minGap - gap;
        }
        qreal right = bw;
        if (hasSup) {
            translate(sup, bw + bic + 0.03 * m.em, -u);
            right = std::max(right, bw + bic + 0.03 * m.em + sup.w);
            b.asc = std::max(b.asc, u + sup.asc);
            b.desc = std::max(b.desc, sup.desc - u);
            adopt(b, std::move(sup), QStringLiteral("sup"));
        }
        if (hasSub) {
            translate(sub, bw + 0.02 * m.em, v);
            right = std::max(right, bw + 0.02 * m.em + sub.w);
            b.desc = std::max(b.desc, v + sub.desc);
            b.asc = std::max(b.asc, sub.asc - v);
            adopt(b, std::move(sub), QStringLiteral("sub"));
        }
        b.w = right + 0.05 * m.em;
        auto kids = std::move(b.info.children);
        finishInfo(b, FormulaBox::Kind::Scripts);
        b.info.children = std::move(kids);
        return b;
    }

    Box layoutFrac(const Node& n, Style st) const {
        const Metrics m = metrics(st);
        const Style fs = fracStyle(st);
        Box num = layout(n.kids[0], fs), den = layout(n.kids[1], fs);
        const qreal pad = 0.12 * m.em;
        const qreal w = std::max(num.w, den.w) + 2 * pad;
        const qreal gap = (st == D ? 0.16 : 0.1) * m.em;
        const qreal rule = m.rule;
        const qreal barY = -m.axis;
        Box b;
        const qreal numBase = barY - rule / 2 - gap - num.desc;
        const qreal denBase = barY + rule / 2 + gap + den.asc;
        b.asc = -(numBase - num.asc);
        b.desc = denBase + den.desc;
        translate(num, (w - num.w) / 2, numBase);
        translate(den, (w - den.w) / 2, denBase);
        adopt(b, std::move(num), QStringLiteral("num"));
        Draw bar;
        bar.t = Draw::Line;
        bar.line = QLineF(0.04 * m.em, barY, w - 0.04 * m.em, barY);
        bar.width = rule;
        b.draws.push_back(bar);
        FormulaBox barInfo;
        barInfo.kind = FormulaBox::Kind::Bar;
        barInfo.role = QStringLiteral("bar");
        barInfo.rect = QRectF(bar.line.x1(), barY - rule / 2, bar.line.dx(), rule);
        b.info.children.push_back(barInfo);
        adopt(b, std::move(den), QStringLiteral("den"));
        b.w = w + 0.06 * m.em;
        auto kids = std::move(b.info.children);
        finishInfo(b, FormulaBox::Kind::Fraction);
        b.info.children = std::move(kids);
        return b;
    }

    Box layoutSqrt(const Node& n, Style st) const {
        const Metrics m = metrics(st);
        Box rad = layout(n.kids[0], st);
        const qreal rule = m.rule;
        const qreal gap = (st == D ? 0.16 : 0.12) * m.em;
        const qreal top = std::max(rad.asc, m.xh) + gap + rule;  // above the baseline
        const qreal bottom = std::max(rad.desc, 0.0) + 0.08 * m.em;
        const qreal H = top + bottom;
        const qreal sw = std::min(0.9, 0.5 + 0.08 * H / m.em) * m.em;
        const qreal yTop = -top + rule / 2, yBot = bottom;
        QPainterPath p;
        const qreal y0 = yBot - 0.42 * H;
        p.moveTo(0.02 * m.em, y0 + 0.06 * m.em);
        p.lineTo(0.2 * sw, y0);
        p.lineTo(0.5 * sw, yBot);
        p.lineTo(sw, yTop);
        p.lineTo(sw + rad.w + 0.12 * m.em, yTop);
        Box b;
        Draw d;
        d.t = Draw::Path;
        d.path = p;
        d.width = rule;
        b.draws.push_back(d);
        FormulaBox sign;
        sign.kind = FormulaBox::Kind::Delimiter;
        sign.role = QStringLiteral("symbol");
        sign.text = QStringLiteral("√");
        sign.rect = QRectF(0, -top, sw, H);
        b.info.children.push_back(sign);
        translate(rad, sw + 0.06 * m.em, 0);
        adopt(b, std::move(rad), QStringLiteral("radicand"));
        b.w = sw + b.info.children.back().rect.width() + 0.18 * m.em;
        b.asc = top;
        b.desc = bottom;
        auto kids = std::move(b.info.children);
        finishInfo(b, FormulaBox::Kind::Root);
        b.info.children = std::move(kids);
        return b;
    }

    Box layoutOverline(const Node& n, Style st) const {
        const Metrics m = metrics(st);
        Box c = layout(n.kids[0], st);
        const qreal gap = 0.1 * m.em;
        const qreal y = -std::max(c.asc, m.xh) - gap - m.rule / 2;
        Box b;
        b.w = c.w;
        b.asc = -y + m.rule / 2;
        b.desc = c.desc;
        b.ic = c.ic;
        b.isChar = false;
        FormulaBox bar;
        bar.kind = FormulaBox::Kind::Bar;
        bar.role = QStringLiteral("accent");
        const QString kind = n.text;
        if (kind == QLatin1String("bar") || kind == QLatin1String("overline")) {
            Draw d;
            d.t = Draw::Line;
            d.line = QLineF(0.05 * m.em + c.ic, y, c.w + c.ic, y);
            d.width = m.rule;
            b.draws.push_back(d);
            bar.rect = QRectF(d.line.x1(), y - m.rule / 2, d.line.dx(), m.rule);
        } else {
            // A drawn accent centred over the content (slanted content: shifted by the italic correction).
            const qreal cx = c.w / 2 + c.ic * 0.8;
            const qreal hw = std::max(0.22 * m.em, std::min(c.w / 2, 0.4 * m.em));
            const qreal h = 0.16 * m.em;
            QPainterPath p;
            const qreal yb = y + m.rule / 2;  // accent bottom
            if (kind == QLatin1String("tilde") || kind == QLatin1String("widetilde")) {
                p.moveTo(cx - hw, yb - h * 0.2);
                p.cubicTo(cx - hw * 0.5, yb - h * 1.3, cx, yb - h * 0.2, cx + hw * 0.1, yb - h * 0.5);
                p.cubicTo(cx + hw * 0.4, yb - h * 0.9, cx + hw * 0.6, yb - h * 0.6, cx + hw, yb - h * 1.1);
            } else if (kind == QLatin1String("hat") || kind == QLatin1String("widehat")) {
                p.moveTo(cx - hw, yb);
                p.lineTo(cx, yb - h * 1.2);
                p.lineTo(cx + hw, yb);
            } else if (kind == QLatin1String("vec")) {
                p.moveTo(cx - hw, yb - h * 0.5);
                p.lineTo(cx + hw, yb - h * 0.5);
                p.moveTo(cx + hw * 0.55, yb - h * 1.1);
                p.lineTo(cx + hw, yb - h * 0.5);
                p.lineTo(cx + hw * 0.55, yb + h * 0.1);
            } else {  // dot
                p.addEllipse(QPointF(cx, yb - h * 0.5), m.rule, m.rule);
            }
            Draw d;
            d.t = Draw::Path;
            d.path = p;
            d.width = m.rule;
            b.draws.push_back(d);
            bar.rect = p.boundingRect().adjusted(-m.rule / 2, -m.rule / 2, m.rule / 2, m.rule / 2);
            b.asc = std::max(b.asc, -bar.rect.top());
        }
        adopt(b, std::move(c), QStringLiteral("content"));
        b.info.children.push_back(bar);
        auto kids = std::move(b.info.children);
        finishInfo(b, FormulaBox::Kind::Row);
        b.info.children = std::move(kids);
        return b;
    }

    Box layoutBigOp(const Node& n, Style st) const {
        const Metrics m = metrics(st);
        Box sym = text(n.text, st, Face::Upright, st == D ? 1.55 : 1.15);
        // Centre the symbol's ink on the math axis.
        const qreal inkCentre = (-sym.asc + sym.desc) / 2;
        const qreal dy = -m.axis - inkCentre;
        translate(sym, 0, dy);
        sym.asc -= dy;
        sym.desc += dy;
        sym.info.role = QStringLiteral("symbol");
        sym.isChar = false;
        const NodeP& subN = n.kids.size() > 0 ? n.kids[0] : nullptr;
        const NodeP& supN = n.kids.size() > 1 ? n.kids[1] : nullptr;
        if (!(n.limits && st == D) || (!subN && !supN)) {
            if (!subN && !supN) {
                sym.info.kind = FormulaBox::Kind::BigOperator;
                sym.w += 0.05 * m.em;
                return sym;
            }
            Box s = layoutScripts(std::move(sym), subN, supN, st);
            s.info.kind = FormulaBox::Kind::BigOperator;
            return s;
        }
        const Style ls = supStyle(st);
        Box below = subN ? layout(subN, ls) : empty();
        Box above = supN ? layout(supN, ls) : empty();
        const qreal w = std::max({sym.w, below.w, above.w});
        const qreal gap = 0.14 * m.em;
        Box b;
        const qreal symAsc = sym.asc, symDesc = sym.desc, symW = sym.w;
        translate(sym, (w - symW) / 2, 0);
        adopt(b, std::move(sym), QStringLiteral("symbol"));
        b.asc = symAsc;
        b.desc = symDesc;
        if (supN) {
            const qreal base = -symAsc - gap - above.desc;
            const qreal aAsc = above.asc, aw = above.w;
            translate(above, (w - aw) / 2, base);
            b.asc = -(base - aAsc);
            adopt(b, std::move(above), QStringLiteral("above"));
        }
        if (subN) {
            const qreal base = symDesc + gap + below.asc;
            const qreal bDesc = below.desc, bw = below.w;
            translate(below, (w - bw) / 2, base);
            b.desc = base + bDesc;
            adopt(b, std::move(below), QStringLiteral("below"));
        }
        b.w = w + 0.08 * m.em;
        auto kids = std::move(b.info.children);
        finishInfo(b, FormulaBox::Kind::BigOperator);
        b.info.children = std::move(kids);
        return b;
    }

    // Width of a delimiter of total height h.
    static qreal delimWidth(const QString& d, qreal h, const Metrics& m) {
        const qreal grow = std::clamp(h / m.em, 1.0, 4.0);
        if (d == QLatin1String(".")) return 0;
        if (d == QLatin1String("(") || d == QLatin1String(")")) return (0.3 + 0.06 * grow) * m.em;
        if (d == QLatin1String("[") || d == QLatin1String("]")) return 0.3 * m.em;
        if (d == QStringLiteral("⟨") || d == QStringLiteral("⟩")) return (0.3 + 0.05 * grow) * m.em;
        if (d == QLatin1String("|")) return 0.22 * m.em;
        if (d == QStringLiteral("‖")) return 0.34 * m.em;
        if (d == QLatin1String("{") || d == QLatin1String("}")) return (0.38 + 0.04 * grow) * m.em;
        return 0.32 * m.em;  // floors, ceilings, slash
    }

    static QPainterPath delimPath(const QString& d, const QRectF& r) {
        QPainterPath p;
        const qreal l = r.left(), rt = r.right(), t = r.top(), bt = r.bottom(), cy = r.center().y(), cx = r.center().x();
        const qreal in = r.width() * 0.18;  // inset from the box edges
        const qreal L = l + in, R = rt - in;
        if (d == QLatin1String("(")) {
            p.moveTo(R, t);
            p.cubicTo(L - in * 0.6, t + r.height() * 0.28, L - in * 0.6, bt - r.height() * 0.28, R, bt);
        } else if (d == QLatin1String(")")) {
            p.moveTo(L, t);
            p.cubicTo(R + in * 0.6, t + r.height() * 0.28, R + in * 0.6, bt - r.height() * 0.28, L, bt);
        } else if (d == QLatin1String("[")) {
            p.moveTo(R, t); p.lineTo(L, t); p.lineTo(L, bt); p.lineTo(R, bt);
        } else if (d == QLatin1String("]")) {
            p.moveTo(L, t); p.lineTo(R, t); p.lineTo(R, bt); p.lineTo(L, bt);
        } else if (d == QStringLiteral("⟨")) {
            p.moveTo(R, t); p.lineTo(L, cy); p.lineTo(R, bt);
        } else if (d == QStringLiteral("⟩")) {
            p.moveTo(L, t); p.lineTo(R, cy); p.lineTo(L, bt);
        } else if (d == QLatin1String("|")) {
            p.moveTo(cx, t); p.lineTo(cx, bt);
        } else if (d == QStringLiteral("‖")) {
            const qreal dx = r.width() * 0.16;
            p.moveTo(cx - dx, t); p.lineTo(cx - dx, bt);
            p.moveTo(cx + dx, t); p.lineTo(cx + dx, bt);
        } else if (d == QStringLiteral("⌊")) {
            p.moveTo(L, t); p.lineTo(L, bt); p.lineTo(R, bt);
        } else if (d == QStringLiteral("⌋")) {
            p.moveTo(R, t); p.lineTo(R, bt); p.lineTo(L, bt);
        } else if (d == QStringLiteral("⌈")) {
            p.moveTo(L, bt); p.lineTo(L, t); p.lineTo(R, t);
        } else if (d == QStringLiteral("⌉")) {
            p.moveTo(R, bt); p.lineTo(R, t); p.lineTo(L, t);
        } else if (d == QLatin1String("{") || d == QLatin1String("}")) {
            const bool left = d == QLatin1String("{");
            const qreal a = left ? R : L, mid = cx, tip = left ? L : R;
            const qreal h = r.height();
            p.moveTo(a, t);
            p.cubicTo(mid, t, mid, t + h * 0.08, mid, t + h * 0.2);
            p.lineTo(mid, cy - h * 0.1);
            p.cubicTo(mid, cy - h * 0.02, (mid + tip) / 2, cy, tip, cy);
            p.cubicTo((mid + tip) / 2, cy, mid, cy + h * 0.02, mid, cy + h * 0.1);
            p.lineTo(mid, bt - h * 0.2);
            p.cubicTo(mid, bt - h * 0.08, mid, bt, a, bt);
        } else if (d == QLatin1String("/")) {
            p.moveTo(R, t); p.lineTo(L, bt);
        }
        return p;
    }

    Box layoutDelim(const Node& n, Style st) const {
        const Metrics m = metrics(st);
        Box c = layout(n.kids[0], st);
        const qreal ext = std::max({c.asc - m.axis, c.desc + m.axis, 0.5 * m.em}) + 0.1 * m.em;
        const qreal top = -m.axis - ext, bottom = -m.axis + ext;
        const qreal H = bottom - top;
        const qreal lw = std::max(m.rule, m.rule * (0.9 + 0.15 * H / m.em));
        Box b;
        qreal x = 0;
        auto put = [&](const QString& d, const QString& role) {
            const qreal w = delimWidth(d, H, m);
            if (w > 0) {
                Draw dr;
                dr.t = Draw::Path;
                dr.path = delimPath(d, QRectF(x, top, w, H));
                dr.width = lw;
                b.draws.push_back(dr);
            }
            FormulaBox info;
            info.kind = FormulaBox::Kind::Delimiter;
            info.role = role;
            info.text = d;
            info.rect = QRectF(x, top, w, H);
            b.info.children.push_back(info);
            x += w;
        };
        put(n.text, QStringLiteral("left"));
        x += 0.06 * m.em;
        const qreal cw = c.w;
        b.asc = std::max(c.asc, -top);
        b.desc = std::max(c.desc, bottom);
        translate(c, x, 0);
        adopt(b, std::move(c), QStringLiteral("content"));
        x += cw + 0.06 * m.em;
        put(n.text2, QStringLiteral("right"));
        b.w = x + 0.04 * m.em;
        auto kids = std::move(b.info.children);
        finishInfo(b, FormulaBox::Kind::Delimited);
        b.info.children = std::move(kids);
        return b;
    }

    Box layoutMatrix(const Node& n, Style st) const {
        const Style cs = st == D ? T : st;
        const Metrics m = metrics(st);
        std::vector<Box> cells;
        for (const auto& k : n.kids) cells.push_back(layout(k, cs));
        std::vector<qreal> colW(std::size_t(n.cols), 0), rowA(std::size_t(n.rows), 0), rowD(std::size_t(n.rows), 0);
        for (int r = 0; r < n.rows; ++r)
            for (int c = 0; c < n.cols; ++c) {
                const Box& b = cells[std::size_t(r * n.cols + c)];
                colW[std::size_t(c)] = std::max(colW[std::size_t(c)], b.w);
                rowA[std::size_t(r)] = std::max({rowA[std::size_t(r)], b.asc, 0.7 * m.em});
                rowD[std::size_t(r)] = std::max({rowD[std::size_t(r)], b.desc, 0.25 * m.em});
            }
        const qreal colGap = 0.9 * m.em, rowGap = 0.22 * m.em;
        qreal H = 0;
        for (int r = 0; r < n.rows; ++r) H += rowA[std::size_t(r)] + rowD[std::size_t(r)] + (r ? rowGap : 0);
        qreal W = 0;
        for (int c = 0; c < n.cols; ++c) W += colW[std::size_t(c)] + (c ? colGap : 0);
        const qreal top = -m.axis - H / 2;
        Box b;
        qreal y = top;
        for (int r = 0; r < n.rows; ++r) {
            y += (r ? rowGap : 0) + rowA[std::size_t(r)];
            qreal x = 0;
            for (int c = 0; c < n.cols; ++c) {
                Box cell = std::move(cells[std::size_t(r * n.cols + c)]);
                const qreal cw = cell.w;
                translate(cell, x + (colW[std::size_t(c)] - cw) / 2, y);
                adopt(b, std::move(cell), QStringLiteral("cell %1 %2").arg(r).arg(c));
                x += colW[std::size_t(c)] + colGap;
            }
            y += rowD[std::size_t(r)];
        }
        b.w = W;
        b.asc = -top;
        b.desc = top + H;
        auto kids = std::move(b.info.children);
        finishInfo(b, FormulaBox::Kind::Matrix);
        b.info.children = std::move(kids);
        return b;
    }

private:
    QFont base_;
    QPaintDevice* dev_;
};

struct LaidOut {
    Box box;
};

LaidOut layoutAll(const std::shared_ptr<const Node>& root, const QFont& font, QPaintDevice* dev, bool display) {
    Layouter l(font, dev);
    LaidOut out;
    auto r = std::const_pointer_cast<Node>(root);
    out.box = l.layout(r, display ? D : T);
    // A little room for italic overhang on the right.
    out.box.w += out.box.ic;
    out.box.info.rect.setWidth(out.box.w);
    return out;
}

}  // namespace

FormulaScriptFloor::FormulaScriptFloor(double ratio) : previous_(tScriptFloor) { tScriptFloor = std::clamp(ratio, 0.0, 1.0); }
FormulaScriptFloor::~FormulaScriptFloor() { tScriptFloor = previous_; }
double FormulaScriptFloor::current() { return tScriptFloor; }

struct Formula::Cache {
    struct Entry {
        QString key;
        std::shared_ptr<const LaidOut> laid;
    };
    std::mutex mutex;
    std::vector<Entry> entries;   // most recently used last
    static constexpr std::size_t kEntries = 4;

    std::shared_ptr<const LaidOut> get(const std::shared_ptr<const Node>& root, const QFont& font, QPaintDevice* dev,
                                       bool display) {
        const QString key = font.key() + QLatin1Char('|') +
                            (dev ? QString::number(dev->logicalDpiX()) + QLatin1Char(',') + QString::number(dev->logicalDpiY())
                                 : QStringLiteral("screen")) +
                            (display ? QStringLiteral("|D") : QStringLiteral("|T")) + QLatin1Char('|') +
                            QString::number(tScriptFloor, 'g', 17);
        {
            const std::lock_guard<std::mutex> lock(mutex);
            for (auto it = entries.begin(); it != entries.end(); ++it)
                if (it->key == key) {
                    Entry e = std::move(*it);
                    entries.erase(it);
                    entries.push_back(std::move(e));
                    return entries.back().laid;
                }
        }
        auto laid = std::make_shared<const LaidOut>(layoutAll(root, font, dev, display));
        const std::lock_guard<std::mutex> lock(mutex);
        if (entries.size() >= kEntries) entries.erase(entries.begin());
        entries.push_back({key, laid});
        return laid;
    }
};

namespace {

void paintBox(QPainter* p, const Box& b, const QColor& color) {
    for (const auto& d : b.draws) {
        switch (d.t) {
            case Draw::Text:
                p->setFont(d.font);
                p->setPen(color);
                plot::recordedText(*p, d.pos, d.text);   // a glyph of the formula, at its size
                break;
            case Draw::Line:
                p->setPen(QPen(color, d.width, Qt::SolidLine, Qt::FlatCap));
                p->drawLine(d.line);
                break;
            case Draw::Path:
                p->setPen(QPen(color, d.width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
                p->setBrush(Qt::NoBrush);
                p->drawPath(d.path);
                break;
        }
    }
}

}  // namespace

// ============================================================================ FormulaBox
std::vector<const FormulaBox*> FormulaBox::findAll(Kind k) const {
    std::vector<const FormulaBox*> out;
    if (kind == k) out.push_back(this);
    for (const auto& c : children) {
        auto sub = c.findAll(k);
        out.insert(out.end(), sub.begin(), sub.end());
    }
    return out;
}
const FormulaBox* FormulaBox::findRole(const QString& r) const {
    if (role == r) return this;
    for (const auto& c : children)
        if (const auto* f = c.findRole(r)) return f;
    return nullptr;
}
const FormulaBox* FormulaBox::findText(const QString& t) const {
    if (kind == Kind::Glyphs && text == t) return this;
    for (const auto& c : children)
        if (const auto* f = c.findText(t)) return f;
    return nullptr;
}

// ============================================================================ Formula
Formula::Formula() : root_(std::make_shared<Node>()), cache_(std::make_shared<Cache>()) {}

Formula Formula::parse(const QString& tex) {
    Formula f;
    Parser p(tex);
    f.root_ = p.parse();
    f.source_ = tex;
    f.error_ = p.errors();
    return f;
}

bool Formula::isEmpty() const { return !root_ || (root_->k == Node::K::Row && root_->kids.empty()); }

QString Formula::mathFamily() {
    static const QString fam = [] {
        const QStringList fams = QFontDatabase::families();
        for (const char* f : {"DejaVu Serif", "Latin Modern Math", "STIX Two Math", "Cambria Math", "Times New Roman"})
            if (fams.contains(QString::fromLatin1(f))) return QString::fromLatin1(f);
        return QFont().family();
    }();
    return fam;
}

Formula::Layout Formula::layout(const QFont& font, QPaintDevice* device, bool display) const {
    const auto laid = cache_->get(root_, font, device, display);
    const LaidOut& l = *laid;
    Layout out;
    out.size = QSizeF(l.box.w, l.box.asc + l.box.desc);
    out.ascent = l.box.asc;
    out.root = l.box.info;
    return out;
}

QSizeF Formula::size(const QFont& font, QPaintDevice* device, bool display) const { return layout(font, device, display).size; }

QSizeF Formula::paint(QPainter* painter, QPointF topLeft, const QFont& font, const QColor& color, bool display) const {
    const auto laid = cache_->get(root_, font, painter->device(), display);
    const LaidOut& l = *laid;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setRenderHint(QPainter::TextAntialiasing, true);
    painter->translate(topLeft + QPointF(0, l.box.asc));
    paintBox(painter, l.box, color);
    painter->restore();
    return QSizeF(l.box.w, l.box.asc + l.box.desc);
}

QImage Formula::toImage(const QFont& font, const QColor& foreground, const QColor& background, int margin, bool display) const {
    QImage probe(1, 1, QImage::Format_ARGB32_Premultiplied);
    const auto laid = cache_->get(root_, font, &probe, display);
    const LaidOut& l = *laid;
    const int w = std::max(1, int(std::ceil(l.box.w)) + 2 * margin);
    const int h = std::max(1, int(std::ceil(l.box.asc + l.box.desc)) + 2 * margin);
    QImage img(w, h, QImage::Format_ARGB32_Premultiplied);
    img.fill(background);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.translate(margin, margin + l.box.asc);
    paintBox(&p, l.box, foreground);
    p.end();
    return img;
}

QString formulaNumber(double x, int digits) { return QString::fromStdString(formatReadable(x, digits, NumberStyle::Tex)); }

}  // namespace poslab::ui
