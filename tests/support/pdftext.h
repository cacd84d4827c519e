#pragma once
// What a PDF PosLab wrote (QPdfWriter) shows as text, page by page: for tests that check that a
// PDF has one page per slide and keeps its text as text. It reads QPdfWriter's own output: the
// page tree's /Kids in order, each page's /Contents (Flate-compressed), the Type0 fonts' ToUnicode
// maps, and the text operators Tf, Tj and TJ with hex strings (Identity-H, two bytes a glyph).
// Not a general PDF reader.
#include <QByteArray>
#include <QHash>
#include <QMap>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <vector>

namespace testsupport {

struct PdfObject {
    QByteArray dict;     // the object's text before any stream
    QByteArray stream;   // decompressed stream (empty if none)
};

inline QByteArray pdfInflate(const QByteArray& data) {
    // qUncompress wants the expected size first (it grows its buffer when that is too small).
    QByteArray prefixed(4, '\0');
    prefixed[0] = char(0x00);
    prefixed[1] = char(0x10);   // 1 MiB to start with
    prefixed[2] = char(0x00);
    prefixed[3] = char(0x00);
    prefixed += data;
    return qUncompress(prefixed);
}

inline QMap<int, PdfObject> pdfObjects(const QByteArray& pdf) {
    QMap<int, PdfObject> out;
    static const QRegularExpression head(QStringLiteral("(?:^|[\\r\\n])(\\d+) 0 obj"));
    auto it = head.globalMatch(QString::fromLatin1(pdf));
    while (it.hasNext()) {
        const auto m = it.next();
        const int num = m.captured(1).toInt();
        const qsizetype start = m.capturedEnd(0);
        const qsizetype end = pdf.indexOf("endobj", start);
        if (end < 0) break;
        PdfObject o;
        const qsizetype s = pdf.indexOf("stream", start);
        if (s >= 0 && s < end && pdf.mid(s - 3, 3) != "end") {
            o.dict = pdf.mid(start, s - start);
            qsizetype data = s + 6;
            if (pdf[data] == '\r') ++data;
            if (pdf[data] == '\n') ++data;
            qsizetype stop = pdf.lastIndexOf("endstream", end);
            static const QRegularExpression length(QStringLiteral("/Length (\\d+)\\s*(?:/|>>)"));
            const auto lm = length.match(QString::fromLatin1(o.dict));
            const QByteArray raw = lm.hasMatch() ? pdf.mid(data, lm.captured(1).toLongLong()) : pdf.mid(data, stop - data);
            o.stream = o.dict.contains("/FlateDecode") ? pdfInflate(raw) : raw;
        } else {
            o.dict = pdf.mid(start, end - start);
        }
        out.insert(num, o);
    }
    return out;
}

// Glyph → text of a ToUnicode CMap (bfchar and bfrange sections).
inline QHash<uint, QString> pdfToUnicode(const QByteArray& cmap) {
    QHash<uint, QString> map;
    const auto hexText = [](const QString& hex) {
        QString t;
        for (qsizetype k = 0; k + 4 <= hex.size(); k += 4) t += QChar(char16_t(hex.mid(k, 4).toUInt(nullptr, 16)));
        return t;
    };
    const QString text = QString::fromLatin1(cmap);
    static const QRegularExpression chars(QStringLiteral("beginbfchar(.*?)endbfchar"), QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression pair(QStringLiteral("<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>"));
    for (auto it = chars.globalMatch(text); it.hasNext();)
        for (auto p = pair.globalMatch(it.next().captured(1)); p.hasNext();) {
            const auto m = p.next();
            map.insert(m.captured(1).toUInt(nullptr, 16), hexText(m.captured(2)));
        }
    static const QRegularExpression ranges(QStringLiteral("beginbfrange(.*?)endbfrange"), QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression range(QStringLiteral("<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>\\s*(<[0-9A-Fa-f]+>|\\[[^\\]]*\\])"));
    static const QRegularExpression hexItem(QStringLiteral("<([0-9A-Fa-f]+)>"));
    for (auto it = ranges.globalMatch(text); it.hasNext();)
        for (auto r = range.globalMatch(it.next().captured(1)); r.hasNext();) {
            const auto m = r.next();
            const uint a = m.captured(1).toUInt(nullptr, 16), b = m.captured(2).toUInt(nullptr, 16);
            const QString dst = m.captured(3);
            if (dst.startsWith(QLatin1Char('['))) {
                uint g = a;
                for (auto h = hexItem.globalMatch(dst); h.hasNext() && g <= b; ++g) map.insert(g, hexText(h.next().captured(1)));
            } else {
                const QString first = hexText(dst.mid(1, dst.size() - 2));
                for (uint g = a; g <= b && g - a < 65536; ++g)
                    map.insert(g, first.left(first.size() - 1) + QChar(char16_t(first.back().unicode() + (g - a))));
            }
        }
    return map;
}

// The text of each page, in page order (glyphs in drawing order, no spaces between them).
inline QStringList pdfPageTexts(const QByteArray& pdf) {
    const QMap<int, PdfObject> objects = pdfObjects(pdf);
    // Font resource names → the font's ToUnicode map.
    QHash<QString, QHash<uint, QString>> fonts;
    static const QRegularExpression fontRef(QStringLiteral("/(F\\d+) (\\d+) 0 R"));
    static const QRegularExpression toUnicode(QStringLiteral("/ToUnicode (\\d+) 0 R"));
    for (const PdfObject& o : objects)
        for (auto it = fontRef.globalMatch(QString::fromLatin1(o.dict)); it.hasNext();) {
            const auto m = it.next();
            const PdfObject font = objects.value(m.captured(2).toInt());
            const auto tu = toUnicode.match(QString::fromLatin1(font.dict));
            if (tu.hasMatch()) fonts.insert(m.captured(1), pdfToUnicode(objects.value(tu.captured(1).toInt()).stream));
        }
    // The pages in order: the /Kids of the page tree (/Type /Pages).
    QList<int> pages;
    static const QRegularExpression ref(QStringLiteral("(\\d+) 0 R"));
    for (const PdfObject& o : objects)
        if (o.dict.contains("/Type /Pages")) {
            const qsizetype k = o.dict.indexOf("/Kids");
            const QByteArray kids = o.dict.mid(k, o.dict.indexOf(']', k) - k);
            for (auto it = ref.globalMatch(QString::fromLatin1(kids)); it.hasNext();) pages << it.next().captured(1).toInt();
        }
    QStringList out;
    static const QRegularExpression contents(QStringLiteral("/Contents (\\d+) 0 R"));
    static const QRegularExpression op(QStringLiteral("/(F\\d+)\\s+[\\d.]+\\s+Tf|<([0-9A-Fa-f]*)>\\s*Tj|\\[([^\\]]*)\\]\\s*TJ"));
    static const QRegularExpression hexItem(QStringLiteral("<([0-9A-Fa-f]*)>"));
    for (int page : pages) {
        const auto c = contents.match(QString::fromLatin1(objects.value(page).dict));
        QString text;
        if (c.hasMatch()) {
            const QString stream = QString::fromLatin1(objects.value(c.captured(1).toInt()).stream);
            QHash<uint, QString> font;
            const auto glyphs = [&](const QString& hex) {
                for (qsizetype k = 0; k + 4 <= hex.size(); k += 4) text += font.value(hex.mid(k, 4).toUInt(nullptr, 16));
            };
            for (auto it = op.globalMatch(stream); it.hasNext();) {
                const auto m = it.next();
                if (!m.captured(1).isEmpty()) font = fonts.value(m.captured(1));
                else if (m.capturedStart(2) >= 0) glyphs(m.captured(2));
                else
                    for (auto h = hexItem.globalMatch(m.captured(3)); h.hasNext();) glyphs(h.next().captured(1));
            }
        }
        out << text;
    }
    return out;
}

// `text` without white space (the PDF has no glyphs for spaces).
inline QString withoutSpaces(QString text) {
    text.remove(QRegularExpression(QStringLiteral("\\s")));
    return text;
}

}  // namespace testsupport
