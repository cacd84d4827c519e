// Every claim shown by its own figure (issue 27, items 4 and 8), read off the slides of the
// default deck as presented (the layout report of PresentationWindow at 1280×720 and 1920×1080):
// the numbers beside a figure are the figure's quantity, named as the figure names it, written
// for people (real superscripts, "× 10⁻¹⁶", never a caret or printf's "e-16"), one name for one
// frequency. Each slide is drawn once per size and test.
#include "support/testsupport.h"

#include "core/demonstrations.h"
#include "core/format.h"
#include "core/t5.h"
#include "ui/model/compute.h"
#include "ui/render/layout.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/demotext.h"
#include "ui/teaching/presentation.h"

#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace poslab;
using namespace poslab::ui;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The slide of demonstration `id` as presented at `size`: its layout report.
LayoutReport slideOf(DemoId id, QSize size) {
    Session deck = demoDeck();
    for (std::size_t i = 0; i < deck.scenes.size(); ++i)
        if (demoOfSlide(deck.scenes[i]) == id) deck.current = int(i);
    PresentationWindow p(deck);
    p.setKeyHints(false);
    p.resize(size);
    return p.slideLayout(size);
}

QStringList textsOf(const LayoutReport& r) {
    QStringList out;
    for (const auto& i : r.items)
        if (i.kind == LayoutItemKind::Text) out << i.text;
    return out;
}

// The slide's words with line breaks, no-break spaces and word joiners as plain spaces (a label
// wrapped over lines is one text).
QString plain(const QStringList& texts) {
    QString s = texts.join(QLatin1Char(' '));
    s.remove(QChar(0x2060));
    s.replace(QChar(0x00A0), QLatin1Char(' '));
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return s;
}

// A number as the slides' numbers column writes it.
QString shown(double v) { return qs(formatReadable(v, 4, NumberStyle::Typeset)); }

const DemoSummary& summaryOf(DemoId id) {
    static std::map<DemoId, DemoSummary> cache;
    auto it = cache.find(id);
    if (it == cache.end()) it = cache.emplace(id, runDemonstration(id).value()).first;
    return it->second;
}

void sizes() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1920x1080") << QSize(1920, 1080);
}

}  // namespace

class TestSlideClaims : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Exponents for people on every slide: no caret ("2^(−8(h+1)/H)" on slides 12, 13 and 15
    // before) and no printf exponent ("8.882e-16" beside "8.882 × 10⁻¹⁶" on slide 13) in the
    // slide's own words (the claim, the numbers, the conclusion).
    void noRawExponentOnASlide_data() {
        QTest::addColumn<int>("id");
        QTest::addColumn<QSize>("size");
        for (const auto& d : demonstrations())
            for (QSize s : {QSize(1280, 720), QSize(1920, 1080)})
                QTest::newRow(qPrintable(QStringLiteral("%1-%2x%3").arg(qs(d.key)).arg(s.width()).arg(s.height()))) << int(d.id) << s;
    }
    void noRawExponentOnASlide() {
        QFETCH(int, id);
        QFETCH(QSize, size);
        const LayoutReport r = slideOf(DemoId(id), size);
        static const QRegularExpression printfExponent(QStringLiteral("\\d[eE][+\\-−]\\d"));
        QStringList found;
        for (const auto& i : r.items) {
            if (i.kind != LayoutItemKind::Text) continue;
            if (i.text.contains(QStringLiteral("^(")) || i.text.contains(QStringLiteral("^{"))) found << i.text;
            // Tick labels of log axes ("1e-5") are the plots' compact form; the slide's sentences
            // and numbers (view "slide") are for reading.
            if (i.view == QLatin1String("slide") && printfExponent.match(i.text).hasMatch()) found << i.text;
        }
        QVERIFY2(found.isEmpty(), qPrintable(found.mid(0, 4).join(QLatin1Char('\n'))));
    }

    // Slide 16: its claim names RoPE, ALiBi, T5 and Shaw; the slide shows each one's number (T5's
    // and Shaw's stale errors after softmax were computed but not shown).
    void kvCacheSlideShowsEveryMethodsNumber_data() { sizes(); }
    void kvCacheSlideShowsEveryMethodsNumber() {
        QFETCH(QSize, size);
        const QString words = plain(textsOf(slideOf(DemoId::KvCache, size)));
        const DemoSummary& s = summaryOf(DemoId::KvCache);
        for (const char* name : {"rope_cache_error", "alibi_stale_error", "t5_stale_error", "shaw_stale_error"}) {
            const DemoFigure* f = s.find(name);
            QVERIFY2(f, name);
            QVERIFY2(words.contains(shown(f->value)), qPrintable(QStringLiteral("%1 = %2 not on the slide: %3").arg(QLatin1String(name), shown(f->value), words)));
        }
        QVERIFY(s.find("t5_stale_error")->value > 1e-3 && s.find("shaw_stale_error")->value > 1e-3);
        QVERIFY2(words.contains(QStringLiteral("T5 after softmax")) && words.contains(QStringLiteral("Shaw after softmax")), qPrintable(words));
    }

    // Slide 20: the log plot draws the cos/sin error (≈ 2 and ≈ 0.002), not the angle's; where it
    // is drawn its axis says so ("max |Δ|" alone before). Since the score-error heatmaps have square
    // cells the slide has no room for it at either size: then no bare "max |Δ|" is left, and the
    // conclusion names both quantities with their numbers.
    void bf16LogPlotNamesCosAndSin_data() { sizes(); }
    void bf16LogPlotNamesCosAndSin() {
        QFETCH(QSize, size);
        const LayoutReport r = slideOf(DemoId::RopeBf16, size);
        for (const auto& i : r.items)
            if (i.kind == LayoutItemKind::Text && i.text.contains(QStringLiteral("max |Δ|")))
                QVERIFY2(i.text.contains(QStringLiteral("cos")), qPrintable(i.text));
        const QString words = plain(textsOf(r));
        const DemoFigure* cosSin = summaryOf(DemoId::RopeBf16).find("legacy_max_cos_sin_error");
        QVERIFY2(cosSin && words.contains(shown(cosSin->value)), qPrintable(words));
        QVERIFY2(words.contains(QStringLiteral("rad")) && words.contains(QStringLiteral("cos, sin")), qPrintable(words));
    }

    // Slide 14: "max |B − A|" beside the difference heatmap is the largest |B − A| it draws (it
    // was measured on other content: 1.29 beside a colour bar to ±5).
    void layoutsNumberIsTheDrawnDifferencesMax() {
        const HeatmapResult h = computeHeatmap(demoScene(DemoId::HalfVsInterleaved));
        double drawn = -1;
        for (const auto& p : h.panels)
            if (p.difference)
                for (Eigen::Index k = 0; k < p.values.size(); ++k)
                    if (std::isfinite(p.values.data()[k])) drawn = std::max(drawn, std::abs(p.values.data()[k]));
        QVERIFY2(drawn > 0, "no difference panel on slide 14");
        const double measured = summaryOf(DemoId::HalfVsInterleaved).find("wrong_layout_error")->value;
        QVERIFY2(std::abs(measured - drawn) <= 1e-4 * drawn, qPrintable(QStringLiteral("shown %1, drawn %2").arg(measured).arg(drawn)));
        QVERIFY(plain(textsOf(slideOf(DemoId::HalfVsInterleaved, QSize(1280, 720)))).contains(shown(measured)));
    }

    // Slide 10: one content, the one drawn (x = ones at every position), measured and described
    // as such; nothing on the slide speaks of random vectors.
    void ropeNormDescribesTheContentItDraws_data() { sizes(); }
    void ropeNormDescribesTheContentItDraws() {
        QFETCH(QSize, size);
        QCOMPARE(int(demoScene(DemoId::RopeNorm).methods.front().params.content), int(Content::Ones));
        const DemoFigure* before = summaryOf(DemoId::RopeNorm).find("norm_before");
        QVERIFY(before && !before->list.empty());
        const int dim = demoScene(DemoId::RopeNorm).methods.front().params.dim;
        QCOMPARE(before->list.front(), std::sqrt(double(dim)));   // |(1, …, 1)|
        const QString words = plain(textsOf(slideOf(DemoId::RopeNorm, size)));
        QVERIFY2(!words.contains(QStringLiteral("random")), qPrintable(words));
    }

    // Slide 3: the numbers are PE·PE, the plot PE·PE/√d (2 at distance 0 for d = 16): the label
    // says which.
    void sinusoidalNumbersSayHowThePlotScalesThem() {
        const QString words = plain(textsOf(slideOf(DemoId::SinusoidalRelative, QSize(1920, 1080))));
        QVERIFY2(words.contains(QStringLiteral("plotted ÷√16")), qPrintable(words));
    }

    // Slides 2 and 3: the sinusoidal frequency has one name, wᵢ (the claims', the formula sheet's
    // and the worked example's), not also θᵢ (the dials) and ωᵢ (the pairs' note).
    void oneNameForTheSinusoidalFrequency_data() {
        QTest::addColumn<int>("id");
        QTest::addColumn<QSize>("size");
        for (DemoId id : {DemoId::SinusoidalShift, DemoId::SinusoidalRelative})
            for (QSize s : {QSize(1280, 720), QSize(1920, 1080)})
                QTest::newRow(qPrintable(QStringLiteral("%1-%2x%3").arg(qs(demoInfo(id).key)).arg(s.width()).arg(s.height()))) << int(id) << s;
    }
    void oneNameForTheSinusoidalFrequency() {
        QFETCH(int, id);
        QFETCH(QSize, size);
        const QString words = plain(textsOf(slideOf(DemoId(id), size)));
        QVERIFY2(!words.contains(QStringLiteral("θᵢ")) && !words.contains(QChar(0x03C9)), qPrintable(words));
        QVERIFY2(words.contains(QStringLiteral("wᵢ")), qPrintable(words));
    }

    // Slide 7: the last bucket begins where the staircase reaches it (91 for T5's 32 buckets and
    // maximum distance 128), and the slide says so, not that it begins at the maximum distance
    // (the staircase's dashed line and its words said 128).
    void t5SlideSaysWhereTheLastBucketBegins_data() { sizes(); }
    void t5SlideSaysWhereTheLastBucketBegins() {
        QFETCH(QSize, size);
        T5Params tp = demoParams(DemoId::T5Buckets).t5Params();
        const std::int64_t last = t5Bucket(-tp.max_distance, tp);
        std::int64_t from = 0;
        while (t5Bucket(-from, tp) != last) ++from;
        QVERIFY(from < tp.max_distance);
        QCOMPARE(summaryOf(DemoId::T5Buckets).fact("last_bucket_from"), double(from));
        const LayoutReport r = slideOf(DemoId::T5Buckets, size);
        const QString words = plain(textsOf(r));
        QVERIFY2(words.contains(QStringLiteral("from %1 on").arg(from)), qPrintable(words));
        QVERIFY2(!words.contains(QStringLiteral("past the maximum distance")) && !words.contains(QStringLiteral("bucket at the maximum distance")),
                 qPrintable(words));
        for (const auto& i : r.items) QVERIFY2(i.text != QStringLiteral("maximum distance %1").arg(tp.max_distance), "a line at 128 named as the bound");
        // Where the staircase is drawn, its line marks where the last bucket begins.
        if (words.contains(QStringLiteral("exact up to"))) QVERIFY2(words.contains(QStringLiteral("last bucket from %1").arg(from)), qPrintable(words));
    }

    // Slide 17: the conclusion is what the figure shows (pairs above the training length's line
    // reach unseen angles; the scalings bring them back), not the setup.
    void extrapolationConcludesWhatItsFigureShows() {
        const DemoSummary& s = summaryOf(DemoId::Extrapolation);
        const QString c = describeDemo(s).conclusion;
        QVERIFY2(c.contains(QStringLiteral("the %1 RoPE pairs").arg(s.find("rope_unseen_pairs")->value)), qPrintable(c));
        QVERIFY2(c.contains(QStringLiteral("wavelengths lie above the training length")), qPrintable(c));
    }
};

QTEST_MAIN(TestSlideClaims)
#include "test_slideclaims.moc"
