#include "ui/render/typeset.h"

#include <algorithm>

#include <QHash>

namespace poslab::ui {

namespace {

const QHash<QChar, QChar>& subscripts() {
    static const QHash<QChar, QChar> m = [] {
        QHash<QChar, QChar> h;
        const QString from = QStringLiteral("0123456789+-−=()aehijklmnoprstuvx");
        const QString to = QStringLiteral("₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ");
        for (qsizetype i = 0; i < from.size(); ++i) h.insert(from[i], to[i]);
        return h;
    }();
    return m;
}

const QHash<QChar, QChar>& superscripts() {
    static const QHash<QChar, QChar> m = [] {
        QHash<QChar, QChar> h;
        const QString from = QStringLiteral("0123456789+-−=()abcdefghijklmnoprstuvwxyzθABDEGHIJKLMNOPRTUVW");
        const QString to = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᶿᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ");
        for (qsizetype i = 0; i < from.size(); ++i) h.insert(from[i], to[i]);
        return h;
    }();
    return m;
}

// `script` in the map's characters, or an empty string when one has none.
QString mapped(const QString& script, const QHash<QChar, QChar>& map) {
    QString out;
    for (QChar c : script) {
        if (c == QLatin1Char(' ')) continue;
        const auto it = map.find(c);
        if (it == map.end()) return {};
        out += *it;
    }
    return out;
}

bool isWordChar(QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_'); }

// The base before position `at` (the marker) stands alone: one or two letters (each perhaps with
// combining marks: q̃) after a non-word character (or the start).
bool shortBase(const QString& s, qsizetype at) {
    qsizetype b = at, len = 0;
    while (b > 0 && (s[b - 1].isLetter() || s[b - 1].isMark())) {
        --b;
        if (s[b].isLetter()) ++len;
    }
    if (len < 1 || len > 2) return false;
    return b == 0 || !isWordChar(s[b - 1]);
}

}  // namespace

QString typeset(const QString& s) {
    if (!s.contains(QLatin1Char('_')) && !s.contains(QLatin1Char('^'))) return s;
    QString out;
    out.reserve(s.size());
    qsizetype i = 0;
    while (i < s.size()) {
        const QChar c = s[i];
        const bool sub = c == QLatin1Char('_'), sup = c == QLatin1Char('^');
        if ((sub || sup) && i > 0 && i + 1 < s.size()) {
            const auto& map = sub ? subscripts() : superscripts();
            if (s[i + 1] == QLatin1Char('{')) {
                const qsizetype close = s.indexOf(QLatin1Char('}'), i + 2);
                if (close > i + 2) {
                    const QString m = mapped(s.mid(i + 2, close - i - 2), map);
                    if (!m.isEmpty()) {
                        out += m;
                        i = close + 1;
                        continue;
                    }
                }
            } else if (sub && s[i + 1].isLetterOrNumber() && (i + 2 >= s.size() || !isWordChar(s[i + 2])) && shortBase(s, i)) {
                const QString m = mapped(QString(s[i + 1]), map);
                if (!m.isEmpty()) {
                    out += m;
                    i += 2;
                    continue;
                }
            }
        }
        out += c;
        ++i;
    }
    return out;
}

bool hasRawScript(const QString& s) {
    return s.contains(QStringLiteral("_{")) || s.contains(QStringLiteral("^{")) || typeset(s) != s;
}

QString keepFormulasTogether(const QString& s) {
    static const QString ops = QStringLiteral("−-+=·×/≈≤≥<>→≠≪≫|");
    const auto isOperator = [](const QString& w) {
        return !w.isEmpty() && std::all_of(w.begin(), w.end(), [](QChar c) { return ops.contains(c); });
    };
    const auto formulaPart = [&](const QString& w) { return isOperator(w) || w.contains(QLatin1Char('|')); };
    const QStringList words = s.split(QLatin1Char(' '));
    QString out;
    out.reserve(s.size() + 8);
    for (qsizetype i = 0; i < words.size(); ++i) {
        const QString& w = words[i];
        if (i > 0) {
            const QString& before = words[i - 1];
            if (formulaPart(before) || formulaPart(w)) {
                // After "|" or "/" Unicode allows a break even before a no-break space: a word
                // joiner forbids it.
                if (!before.isEmpty() && (before.back() == QLatin1Char('|') || before.back() == QLatin1Char('/'))) out += QChar(0x2060);
                out += QChar(0x00A0);
            } else {
                out += QLatin1Char(' ');
            }
        }
        for (qsizetype k = 0; k < w.size(); ++k) {
            out += w[k];
            if ((w[k] == QLatin1Char('|') || w[k] == QLatin1Char('/')) && k + 1 < w.size()) out += QChar(0x2060);
        }
    }
    return out;
}

}  // namespace poslab::ui
