// Decay view and frequencies: the chart's lines hold the core's decay values (and RoPE's
// bound), log axes work, the chart renders onto any QPainter for export, the view shows the
// worker's picture and the tooltip the exact value; the frequency result is the core's inv_freq before and after
// scaling, with the original context marked.
#include "support/runposlab.h"
#include "core/attention.h"
#include "core/decay.h"
#include "core/rope.h"
#include "ui/io/export.h"
#include "ui/model/compute.h"
#include "ui/render/decayrenderer.h"
#include "ui/render/frequencyrenderer.h"
#include "ui/render/plot.h"
#include "ui/views/views.h"

#include "ui/render/layout.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <map>

using namespace poslab;
using namespace poslab::ui;

namespace {
// The chart of `r` at a window-like size in the light theme.
DecayPlot lightChart(const DecayResult& r, QSizeF size = {900, 500}) {
    return decayPlot(QRectF(QPointF(0, 0), size), r, themeByName(QStringLiteral("light")));
}
// The lines with a legend entry (not bands).
std::vector<const DecayLine*> namedLines(const DecayPlot& c) {
    std::vector<const DecayLine*> out;
    for (const auto& l : c.lines)
        if (!l.band && !l.name.isEmpty()) out.push_back(&l);
    return out;
}
}  // namespace

class TestDecayView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seriesHoldTheCoresCurve_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<qint64>("maxDistance");
        QTest::addColumn<bool>("logX");
        QTest::newRow("rope_D100_linear") << int(Method::Rope) << qint64(100) << false;
        QTest::newRow("rope_D100000_log") << int(Method::Rope) << qint64(100000) << true;
        QTest::newRow("alibi_D500_linear") << int(Method::Alibi) << qint64(500) << false;
        QTest::newRow("xpos_D2000_log") << int(Method::Xpos) << qint64(2000) << true;
    }
    void seriesHoldTheCoresCurve() {
        QFETCH(int, method);
        QFETCH(qint64, maxDistance);
        QFETCH(bool, logX);
        SceneParams s;
        s.methods[0].params.method = static_cast<Method>(method);
        s.view.decayMaxDistance = maxDistance;
        s.view.decayLogX = logX;
        DisplaySpec d;
        d.decaySamples = 300;
        const DecayResult r = computeDecay(s, d);
        const auto& ser = r.series.at(0);
        QVERIFY2(ser.error.isEmpty(), qPrintable(ser.error));
        QVERIFY(ser.distance.size() <= 301);
        // The columns tile the distances (from 1 on a log axis) up to maxDistance; each holds
        // the exact min, max and mean of the core's whole curve over its distances.
        QCOMPARE(ser.distanceTo.back(), std::int64_t{maxDistance});
        QCOMPARE(ser.distanceFrom.front(), std::int64_t{logX ? 1 : 0});
        auto core = decayCurve(effectiveParams(s, 0), maxDistance);
        QVERIFY(core.ok());
        const Vector& v = core.value().value;
        for (std::size_t i = 0; i < ser.distance.size(); ++i) {
            if (i > 0) QCOMPARE(ser.distanceFrom[i], ser.distanceTo[i - 1] + 1);
            QVERIFY(ser.distance[i] >= ser.distanceFrom[i] && ser.distance[i] <= ser.distanceTo[i]);
            const auto a = static_cast<Eigen::Index>(ser.distanceFrom[i]), n = static_cast<Eigen::Index>(ser.distanceTo[i]) - a + 1;
            QCOMPARE(ser.valueMin[i], v.segment(a, n).minCoeff());
            QCOMPARE(ser.valueMax[i], v.segment(a, n).maxCoeff());
            QVERIFY(std::abs(ser.value[i] - v.segment(a, n).mean()) <= 1e-12 * (1 + std::abs(ser.value[i])));
        }
        QCOMPARE(ser.bound.empty(), !core.value().bound.has_value());

        const DecayPlot chart = lightChart(r);
        QVERIFY(!chart.lines.empty());
        // Columns of several distances: first the band (min … max), then the mean line.
        const bool wide = ser.distanceTo.back() > ser.distanceFrom.back();
        const DecayLine* line = namedLines(chart).front();
        QCOMPARE(line->name, ser.title);
        if (wide) {
            const DecayLine& band = chart.lines.front();
            QVERIFY(band.band && band.name.isEmpty());
            QCOMPARE(band.points.back().y(), decayPlotValue(ser.valueMax.back(), false));
            QCOMPARE(band.lower.back().y(), decayPlotValue(ser.valueMin.back(), false));
        }
        const auto& pts = line->points;
        QCOMPARE(pts.size(), ser.distance.size());
        QCOMPARE(pts.back().y(), ser.value.back());
        QCOMPARE(chart.x.log, logX);
        if (!ser.bound.empty()) QCOMPARE(int(chart.lines.size()), wide ? 4 : 2);
        // The distance axis is the window exactly; the value axis holds every point.
        QCOMPARE(chart.x.hi, double(r.distanceTo - 1));
        for (const auto& pt : pts) QVERIFY(pt.y() >= chart.y.lo && pt.y() <= chart.y.hi);
    }

    // RoFormer's bound is drawn where it is a bound: on |score|, in the score's units, on the
    // score's axis, never rescaled; at every distance drawn, the bound's point is at or above the
    // score's (linear axis: above the score, as it bounds |score|; log axis: above |score|).
    void boundIsNeverBelowTheScore_data() {
        QTest::addColumn<QString>("content");
        QTest::addColumn<bool>("logY");
        QTest::addColumn<bool>("logX");
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("base");
        QTest::addColumn<QString>("scaling");
        QTest::addColumn<QString>("layout");
        QTest::addColumn<qint64>("maxDistance");
        QTest::newRow("ones_d64_linear") << "ones" << false << false << 64 << 10000.0 << "none" << "half" << qint64(2000);
        QTest::newRow("ones_d64_log") << "ones" << true << true << 64 << 10000.0 << "none" << "half" << qint64(4096);
        QTest::newRow("random_d64_linear") << "random" << false << false << 64 << 10000.0 << "none" << "half" << qint64(2000);
        QTest::newRow("random_d16_interleaved_log") << "random" << true << false << 16 << 10000.0 << "none" << "interleaved" << qint64(300);
        QTest::newRow("ones_d128_base500000_yarn") << "ones" << false << true << 128 << 500000.0 << "yarn" << "half" << qint64(100000);
        QTest::newRow("random_d32_base100_linear") << "random" << false << false << 32 << 100.0 << "linear" << "interleaved" << qint64(50);
    }
    void boundIsNeverBelowTheScore() {
        QFETCH(QString, content);
        QFETCH(bool, logY);
        QFETCH(bool, logX);
        QFETCH(int, dim);
        QFETCH(double, base);
        QFETCH(QString, scaling);
        QFETCH(QString, layout);
        QFETCH(qint64, maxDistance);
        SceneParams s;
        ScoreParams& p = s.methods[0].params;
        p.content = *enumFromKey<Content>(content.toStdString());
        p.dim = dim;
        p.rope.head_dim = dim;
        p.rope.base = base;
        p.rope.layout = *enumFromKey<RopeLayout>(layout.toStdString());
        p.rope.scaling = *enumFromKey<RopeScaling>(scaling.toStdString());
        if (p.rope.scaling == RopeScaling::Linear) p.rope.factor = 4;
        if (p.rope.scaling == RopeScaling::Yarn) {
            p.rope.factor = 8;
            p.rope.original_max_positions = 4096;
            p.rope.max_positions = 32768;
        }
        s.view.decayMaxDistance = maxDistance;
        s.view.decayLogY = logY;
        s.view.decayLogX = logX;
        DisplaySpec d;
        d.decaySamples = 200;
        const DecayResult r = computeDecay(s, d);
        const auto& ser = r.series.at(0);
        QVERIFY2(ser.error.isEmpty(), qPrintable(ser.error));
        QVERIFY(!ser.scoreBound.empty());
        QCOMPARE(ser.scoreBound.size(), ser.value.size());
        // The data: at every column the bound's envelope holds the score's.
        for (std::size_t i = 0; i < ser.value.size(); ++i) {
            const double tol = 1e-9 * std::max(1.0, ser.scoreBoundMax[i]);
            QVERIFY2(ser.scoreBoundMax[i] + tol >= ser.absMax[i],
                     qPrintable(QStringLiteral("distance %1: bound %2, |score| up to %3").arg(ser.distance[i]).arg(ser.scoreBoundMax[i]).arg(ser.absMax[i])));
            QVERIFY(ser.scoreBound[i] + tol >= std::abs(ser.value[i]));
        }
        // The drawing: the dashed bound's points against the score line's, point for point.
        const DecayPlot chart = lightChart(r);
        const DecayLine *bound = nullptr, *score = nullptr;
        for (const DecayLine* line : namedLines(chart)) {
            if (line->name.contains(QStringLiteral("bound"))) bound = line;
            else if (line->name == ser.title) score = line;
        }
        QVERIFY(bound && score);
        QVERIFY2(!bound->name.contains(QStringLiteral("×")), qPrintable(bound->name));   // never rescaled
        QCOMPARE(bound->pen.style(), Qt::DashLine);
        const auto &bp = bound->points, &sp = score->points;
        QCOMPARE(bp.size(), sp.size());
        QVERIFY(!bp.empty());
        for (std::size_t i = 0; i < bp.size(); ++i) {
            QCOMPARE(bp[i].x(), sp[i].x());
            QVERIFY2(bp[i].y() + 1e-9 * std::max(1.0, std::abs(bp[i].y())) >= sp[i].y(),
                     qPrintable(QStringLiteral("at %1 the bound is drawn at %2, below the score at %3").arg(bp[i].x()).arg(bp[i].y()).arg(sp[i].y())));
        }
        // Both on the one value axis, |value| on a log one.
        QCOMPARE(chart.y.log, logY);
        // The score stays legible (never a flat line at 0 under a loose bound): a linear axis
        // spans at most about ten times the score's reach; a bound reaching beyond runs above
        // the plot, in the same units, and the chart's title says so.
        if (!logY) {
            double reach = 0, boundTop = 0;
            for (const auto& pt : sp) reach = std::max(reach, std::abs(pt.y()));
            for (const auto& pt : bp) boundTop = std::max(boundTop, pt.y());
            for (const auto& pt : sp) QVERIFY(pt.y() >= chart.y.lo && pt.y() <= chart.y.hi);
            QVERIFY2(chart.y.hi - chart.y.lo <= 10 * reach,
                     qPrintable(QStringLiteral("axis %1 … %2 for a score reaching %3").arg(chart.y.lo).arg(chart.y.hi).arg(reach)));
            QCOMPARE(boundTop > chart.y.hi, chart.titleForms.front().contains(QStringLiteral("above the plot")));
            QCOMPARE(boundTop > chart.y.hi, chart.boundAbove);
            // The legend too (a small chart has no title).
            QCOMPARE(boundTop > chart.y.hi, bound->name.contains(QStringLiteral("above the plot")));
        }
    }

    // One meaning per axis: where the decay plots a method's positional term alone (its content
    // term left out), the value axis says so, never "score" (a heatmap's "score" includes it).
    void decayAxisNamesWhatItPlots_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<QString>("axis");
        QTest::newRow("rope") << int(Method::Rope) << "score";
        QTest::newRow("learned") << int(Method::Learned) << "positional term";
        QTest::newRow("shaw") << int(Method::Shaw) << "positional term";
        QTest::newRow("t5") << int(Method::T5) << "positional term";
        QTest::newRow("alibi") << int(Method::Alibi) << "positional term";
    }
    void decayAxisNamesWhatItPlots() {
        QFETCH(int, method);
        QFETCH(QString, axis);
        SceneParams s;
        s.methods[0].params.method = static_cast<Method>(method);
        s.view.decayMaxDistance = 60;
        const DecayResult r = computeDecay(s, DisplaySpec{});
        QVERIFY(r.series.at(0).error.isEmpty());
        QCOMPARE(lightChart(r).yTitleForms.front(), axis);
    }

    void rendersOntoAPainterForExport() {
        SceneParams s;
        const DecayResult r = computeDecay(s, DisplaySpec{});
        const Theme theme = themeByName(QStringLiteral("light"));
        QImage img(640, 400, QImage::Format_RGB32);
        img.fill(Qt::black);
        QPainter p(&img);
        renderDecay(p, QRectF(0, 0, 640, 400), r, theme);
        p.end();
        QCOMPARE(QColor(img.pixel(3, 3)), theme.background);
        int seriesPixels = 0;
        const QColor c = theme.series(0);
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor px(img.pixel(x, y));
                if (std::abs(px.red() - c.red()) + std::abs(px.green() - c.green()) + std::abs(px.blue() - c.blue()) < 30) ++seriesPixels;
            }
        QVERIFY2(seriesPixels > 200, "the curve must be drawn");
    }

    // Any size and any values: nothing drawn outside the rectangle, no point mapped to NaN, the
    // plot at least 1 × 1, an error named in the title (in the error colour) even when short.
    void rendersAnySizeAndAnyValues_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("values");
        for (const QSize sz : {QSize(1, 1), QSize(24, 18), QSize(120, 60), QSize(640, 10), QSize(640, 400)})
            for (const char* v : {"empty", "nan_inf", "error", "constant", "near_constant", "huge", "log_zero"})
                QTest::newRow(qPrintable(QStringLiteral("%1x%2_%3").arg(sz.width()).arg(sz.height()).arg(QLatin1String(v)))) << sz << QString::fromLatin1(v);
    }
    void rendersAnySizeAndAnyValues() {
        QFETCH(QSize, size);
        QFETCH(QString, values);
        DecayResult r;
        if (values != QLatin1String("empty")) {
            SceneParams s;
            s.view.decayMaxDistance = 40;
            s.view.decayLogY = values == QLatin1String("log_zero");
            s.view.decayLogX = values == QLatin1String("log_zero");
            if (values == QLatin1String("log_zero")) s.methods[0].params.method = Method::Alibi;   // 0 at distance 0
            r = computeDecay(s, DisplaySpec{});
            DecaySeries& d = r.series.at(0);
            if (values == QLatin1String("nan_inf")) {
                d.value[3] = std::numeric_limits<double>::quiet_NaN();
                d.value[5] = std::numeric_limits<double>::infinity();
                if (!d.scoreBound.empty()) d.scoreBound[4] = std::numeric_limits<double>::quiet_NaN();
            }
            if (values == QLatin1String("constant")) std::fill(d.value.begin(), d.value.end(), 2.5);
            if (values == QLatin1String("near_constant")) {
                // A span of one ulp (a tick loop by k · step never advanced past 2^53).
                std::fill(d.value.begin(), d.value.end(), 2.5);
                d.value[1] = std::nextafter(2.5, 3.0);
                r.showBound = false;
            }
            if (values == QLatin1String("huge")) {
                d.value[2] = 1e308;
                d.value[6] = -1e308;
            }
            if (values == QLatin1String("error")) d.error = QStringLiteral("base must be > 1, got 0.5");
        }
        const Theme theme = themeByName(QStringLiteral("light"));
        const QRectF rect(QPointF(10, 10), QSizeF(size));
        const DecayPlot c = decayPlot(rect, r, theme);
        QVERIFY(c.plot.width() >= 1 && c.plot.height() >= 1);
        for (double v : {c.x.lo, c.x.hi, c.y.lo, c.y.hi}) QVERIFY(std::isfinite(v));
        QVERIFY(c.x.hi > c.x.lo && c.y.hi > c.y.lo);
        for (const auto& l : c.lines)
            for (const auto& pt : l.points)
                if (std::isfinite(pt.y())) QVERIFY(std::isfinite(c.y.map(pt.y())) && std::isfinite(c.x.map(pt.x())));
        QVERIFY(c.yTicks.values.size() <= 65);
        // ALiBi's 0 at distance 0 does not pull a log axis down to the floor (1e-12): the axis
        // starts within a decade of its smallest non-zero |term| (1 · m, m = 1/2 at head 0).
        if (values == QLatin1String("log_zero")) QVERIFY2(c.y.lo >= 0.04, qPrintable(QString::number(c.y.lo)));
        if (values == QLatin1String("error")) {
            QVERIFY(c.error);
            QVERIFY2(c.title.contains(QStringLiteral("RoPE: base must be > 1, got 0.5")), qPrintable(c.title));
            // Whole, wrapped, where there is room for it.
            if (size.width() >= 120 && size.height() >= 60) QVERIFY(c.titleRect.height() > 0);
        }
        // Drawn inside its rectangle only (a frame of another colour around it stays untouched).
        QImage img(size + QSize(20, 20), QImage::Format_RGB32);
        img.fill(Qt::magenta);
        {
            QPainter p(&img);
            renderDecay(p, rect, r, theme);
        }
        int errorInk = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                if (!rect.contains(QPointF(x + 0.5, y + 0.5))) QCOMPARE(QColor(img.pixel(x, y)), QColor(Qt::magenta));
                errorInk += QColor(img.pixel(x, y)) == theme.error;
            }
        // The error is drawn, in the error colour.
        if (values == QLatin1String("error") && size.width() >= 120 && size.height() >= 60) QVERIFY(errorInk > 20);
        if (const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR"); !dir.isEmpty())
            img.save(dir + QStringLiteral("/decay_any_") + QString::fromLatin1(QTest::currentDataTag()) + QStringLiteral(".png"));
    }

    // A window or chunk: the curve stops at the largest visible distance (core decay's
    // visibleTo, `compute decay`'s "visible_to"), and the chart says so with a line at the stop.
    void decayStopsWhereTheLayerStopsSeeing_data() {
        QTest::addColumn<qint64>("window");
        QTest::addColumn<qint64>("chunk");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<qint64>("stop");
        QTest::newRow("window128_causal") << qint64(128) << qint64(0) << true << qint64(127);
        QTest::newRow("window128_bidirectional") << qint64(128) << qint64(0) << false << qint64(64);
        QTest::newRow("chunk200") << qint64(0) << qint64(200) << false << qint64(199);
        QTest::newRow("window1024_past_the_axis") << qint64(1024) << qint64(0) << true << qint64(1023);
    }
    void decayStopsWhereTheLayerStopsSeeing() {
        QFETCH(qint64, window);
        QFETCH(qint64, chunk);
        QFETCH(bool, causal);
        QFETCH(qint64, stop);
        SceneParams s;
        s.view.causal = causal;
        s.view.decayMaxDistance = 256;
        if (window > 0) s.methods[0].params.attention.window = window;
        if (chunk > 0) s.methods[0].params.attention.chunk = chunk;
        const DecayResult r = computeDecay(s, DisplaySpec{});
        const DecaySeries& d = r.series[0];
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        const auto core = decayCurve(effectiveParams(s, 0), 256).value();
        QCOMPARE(core.visibleTo, std::optional<std::int64_t>(stop));
        QCOMPARE(d.visibleTo, core.visibleTo);
        QCOMPARE(d.distanceTo.back(), std::min<std::int64_t>(stop, 256));
        QVERIFY2(d.stopText.contains(QStringLiteral("no key further than %1").arg(stop)), qPrintable(d.stopText));
        const DecayPlot chart = lightChart(r);
        const DecayLine* stopLine = nullptr;
        for (const DecayLine* line : namedLines(chart))
            if (line->name == d.stopText) stopLine = line;
        QCOMPARE(stopLine != nullptr, stop <= 256);   // drawn only where the axis reaches
        if (stopLine) {
            QCOMPARE(stopLine->points.size(), std::size_t(2));
            QCOMPARE(stopLine->points[0].x(), double(stop));
            QCOMPARE(stopLine->points[1].x(), double(stop));
            QCOMPARE(stopLine->pen.style(), Qt::DashDotLine);
        }
        const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            QImage img(960, 540, QImage::Format_RGB32);
            QPainter p(&img);
            renderDecay(p, QRectF(0, 0, 960, 540), r, themeByName(QStringLiteral("projector")));
            p.end();
            img.save(dir + QStringLiteral("/decay_") + QString::fromLatin1(QTest::currentDataTag()) + QStringLiteral(".png"));
        }
    }

    // A NoPE layer shows NoPE in the frequency view: no frequencies; with Llama 4's temperature
    // tuning, the query scale τ(i) up to 10M positions, its marks the core's temperatureScale.
    void frequenciesOfANopeLayer_data() {
        QTest::addColumn<bool>("tuned");
        QTest::newRow("nope") << false;
        QTest::newRow("nope_temperature_8192_0.1") << true;
    }
    void frequenciesOfANopeLayer() {
        QFETCH(bool, tuned);
        SceneParams s;
        s.methods[0].params.attention.nope = true;
        if (tuned) s.methods[0].params.attention.temperature_tuning = {8192, 0.1};
        const FrequencyResult r = computeFrequencies(s);
        const FrequencyConfigResult& f = r.configs[0];
        QVERIFY2(f.error.isEmpty(), qPrintable(f.error));
        QVERIFY(f.nope && !f.hasFrequencies && f.before.empty());
        QVERIFY(f.note.contains(QStringLiteral("no positional encoding")));
        QCOMPARE(f.temperatureScale.empty(), !tuned);
        const AttentionParams& a = s.methods[0].params.attention;
        if (tuned) {
            QCOMPARE(f.temperatureMarks, (std::vector<std::int64_t>{8192, 131072, 1048576, 10485760}));
            for (std::size_t k = 0; k < f.temperatureMarks.size(); ++k)
                QCOMPARE(f.temperatureAtMarks[k], temperatureScale(a, f.temperatureMarks[k], Precision::Double));
            QVERIFY(std::abs(f.temperatureAtMarks.back() - (std::log1p(std::floor(10485761.0 / 8192)) * 0.1 + 1)) < 1e-12);
            QCOMPARE(f.temperaturePositions.back(), std::int64_t{10485759});
            QVERIFY(std::is_sorted(f.temperaturePositions.begin(), f.temperaturePositions.end()));
            for (std::size_t k = 0; k < f.temperaturePositions.size(); ++k)
                QCOMPARE(f.temperatureScale[k], temperatureScale(a, f.temperaturePositions[k], Precision::Double));
        }
        const Theme theme = themeByName(QStringLiteral("light"));
        QImage img(960, 540, QImage::Format_RGB32);
        QPainter p(&img);
        renderFrequencies(p, QRectF(0, 0, 960, 540), r, theme);
        p.end();
        int curve = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) curve += QColor(img.pixel(x, y)) == theme.series(0) ? 1 : 0;
        QCOMPARE(curve > 100, tuned);   // the τ curve is drawn only where there is one
        const QString dir = qEnvironmentVariable("POSLAB_SCREENSHOT_DIR");
        if (!dir.isEmpty()) img.save(dir + QStringLiteral("/frequencies_") + QString::fromLatin1(QTest::currentDataTag()) + QStringLiteral(".png"));
    }

    // The chart's linear value axis for a curve over [lo, hi]: ticks a step of 1, 2 or 5 × 10^k
    // apart (plot::tickStep, the other plots' rule), at least two, all inside the axis, the data
    // inside it and filling at least a fifth of it; a tick at zero exactly 0 (its label "0", not
    // "-1.11e-16": the Shaw slide).
    void valueAxisIsNiceAndHoldsTheData_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::newRow("0_256") << 0.0 << 256.0;
        QTest::newRow("-1.3_17.9") << -1.3 << 17.9;
        QTest::newRow("2.2_2.3") << 2.2 << 2.3;
        QTest::newRow("-1e6_3") << -1e6 << 3.0;
        QTest::newRow("1e-9_4e-9") << 1e-9 << 4e-9;
        QTest::newRow("0_1048576") << 0.0 << 1048576.0;
        QTest::newRow("-0.53_0.23") << -0.53 << 0.23;
        QTest::newRow("-0.6_0.4") << -0.6 << 0.4;
        QTest::newRow("-3.1_0.7") << -3.1 << 0.7;
        QTest::newRow("-0.07_0.3") << -0.07 << 0.3;
        for (int k = 0; k < 40; ++k) {
            const double lo = std::sin(k * 1.7) * std::pow(10.0, k % 7 - 3), hi = lo + std::pow(10.0, (k * 3) % 9 - 4) * (1 + k % 5);
            QTest::newRow(qPrintable(QStringLiteral("sampled_%1").arg(k))) << lo << hi;
        }
        for (int k = 0; k < 20; ++k) {
            const double lo = -std::abs(std::sin(k * 1.3)) * std::pow(10.0, k % 5 - 2), hi = std::abs(std::cos(k * 0.7)) * std::pow(10.0, k % 3 - 1);
            QTest::newRow(qPrintable(QStringLiteral("across_zero_%1").arg(k))) << lo << hi;
        }
    }
    void valueAxisIsNiceAndHoldsTheData() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        SceneParams s;
        s.view.decayMaxDistance = 40;
        DecayResult r = computeDecay(s, DisplaySpec{});
        r.showBound = false;
        DecaySeries& d = r.series.at(0);
        for (std::size_t i = 0; i < d.value.size(); ++i) d.value[i] = lo + (hi - lo) * double(i) / double(d.value.size() - 1);
        const DecayPlot c = decayPlot(QRectF(0, 0, 640, 400), r, themeByName(QStringLiteral("light")));
        const auto& t = c.yTicks.values;
        QVERIFY2(t.size() >= 2 && t.size() <= 12, qPrintable(QString::number(t.size())));
        const double step = t[1] - t[0];
        const double unit = std::pow(10.0, std::floor(std::log10(step) + 1e-6));
        const double mantissa = step / unit;
        QVERIFY2(std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 || std::abs(mantissa - 5) < 1e-6,
                 qPrintable(QString::number(step, 'g', 17)));
        for (double v : t) QVERIFY(v >= c.y.lo - step * 1e-9 && v <= c.y.hi + step * 1e-9);
        QVERIFY(c.y.lo <= lo && c.y.hi >= hi);
        QVERIFY2(hi - lo >= (c.y.hi - c.y.lo) / 5 - 1e-12,
                 qPrintable(QStringLiteral("[%1, %2] for [%3, %4]").arg(c.y.lo).arg(c.y.hi).arg(lo).arg(hi)));
        int zeros = 0;
        for (qsizetype i = 0; i < qsizetype(t.size()); ++i) {
            QVERIFY2(t[std::size_t(i)] == 0 || std::abs(t[std::size_t(i)]) > 1e-9 * step, qPrintable(QString::number(t[std::size_t(i)], 'g', 17)));
            if (t[std::size_t(i)] == 0) {
                ++zeros;
                QCOMPARE(c.yTicks.labels.at(i), QStringLiteral("0"));
            }
        }
        if (t.front() < 0 && t.back() > 0) QCOMPARE(zeros, 1);   // a range across zero has its tick at 0
    }

    void logValueAxisPlotsMagnitudes() {
        QCOMPARE(decayPlotValue(-3.5, true), 3.5);
        QCOMPARE(decayPlotValue(-3.5, false), -3.5);
        QVERIFY(decayPlotValue(0.0, true) > 0);
    }

    void viewTooltipShowsExactValue() {
        SceneParams s;
        s.view.decayMaxDistance = 50;
        DecayView v;
        v.resize(600, 400);
        v.setTheme(themeByName(QStringLiteral("light")));
        DecayResult r = computeDecay(s, DisplaySpec{});
        r.generation = 1;
        v.setResult(std::make_shared<const decltype(r)>(r));
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const DecayPlot& c = v.chart();
        const QPoint widgetPt(int(std::lround(c.x.map(20))), int(std::lround(c.y.map(r.series[0].value[20]))));
        const QString tip = v.toolTipAt(widgetPt);
        QVERIFY2(tip.contains(QStringLiteral("distance i − j = 20")), qPrintable(tip));
        QVERIFY(tip.contains(formatValue(r.series[0].value[20])));
        QVERIFY(v.toolTipAt(QPoint(1, 1)).isEmpty());   // outside the plot: none
    }

    // The window's decay chart has the figures' legend: every series named in full, in as many
    // rows as the width needs, inside the view and below the plot; its tick labels are written
    // as the figures write them (plot::tickLabels: one format per axis, 0 rather than
    // "-5.551e-17"); what the view shows is the renderer's drawing, pixel for pixel.
    void windowLegendInFullAndTicksOneWay_data() {
        QTest::addColumn<int>("configs");
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<bool>("logX");
        QTest::addColumn<bool>("logY");
        QTest::addColumn<int>("first");   // the first configuration's method
        QTest::addColumn<qint64>("maxDistance");
        QTest::newRow("1config_w360_projector") << 1 << 360 << QStringLiteral("projector") << false << false << int(Method::Rope) << qint64(256);
        QTest::newRow("3configs_w420_projector") << 3 << 420 << QStringLiteral("projector") << false << false << int(Method::Rope) << qint64(256);
        QTest::newRow("4configs_w600_light") << 4 << 600 << QStringLiteral("light") << false << false << int(Method::Rope) << qint64(256);
        QTest::newRow("4configs_w1200_dark") << 4 << 1200 << QStringLiteral("dark") << false << false << int(Method::Rope) << qint64(256);
        QTest::newRow("2configs_w600_light_logX") << 2 << 600 << QStringLiteral("light") << true << false << int(Method::Rope) << qint64(256);
        QTest::newRow("2configs_w600_light_logY") << 2 << 600 << QStringLiteral("light") << false << true << int(Method::Rope) << qint64(256);
        QTest::newRow("alibi_D1000000_w600_light_logXY") << 1 << 600 << QStringLiteral("light") << true << true << int(Method::Alibi) << qint64(1000000);
        QTest::newRow("alibi_D100000_w600_light_logY") << 2 << 600 << QStringLiteral("light") << false << true << int(Method::Alibi) << qint64(100000);
        QTest::newRow("nope_D256_w400_projector") << 1 << 400 << QStringLiteral("projector") << false << false << int(Method::NoPE) << qint64(256);
        QTest::newRow("4configs_w800_projector_logXY") << 4 << 800 << QStringLiteral("projector") << true << true << int(Method::Rope) << qint64(256);
    }
    void windowLegendInFullAndTicksOneWay() {
        QFETCH(int, configs);
        QFETCH(int, width);
        QFETCH(QString, theme);
        QFETCH(bool, logX);
        QFETCH(bool, logY);
        QFETCH(int, first);
        QFETCH(qint64, maxDistance);
        const Method methods[] = {static_cast<Method>(first), Method::Shaw, Method::TransformerXL, Method::Sinusoidal};
        SceneParams s;
        s.methods.clear();
        for (int c = 0; c < configs; ++c) {
            MethodConfig m;
            m.params.method = methods[c];
            m.params.dim = 64;
            s.methods.push_back(m);
        }
        s.view.decayLogX = logX;
        s.view.decayLogY = logY;
        s.view.decayMaxDistance = maxDistance;
        DecayView v;
        v.resize(width, 420);
        v.setTheme(themeByName(theme));
        DecayResult r = computeDecay(s, DisplaySpec{});
        r.generation = 1;
        v.setResult(std::make_shared<const decltype(r)>(r));
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        LayoutReport report;
        QImage shown;
        {
            const LayoutCapture capture(report);
            shown = v.grab().toImage();
        }
        const DecayPlot& c = v.chart();
        const DecayLegend& l = v.legend();
        QStringList names;
        for (const auto& line : c.lines)
            if (!line.band && !line.name.isEmpty()) names << line.name;
        QVERIFY(names.size() >= configs);
        QCOMPARE(int(l.entries.size()), int(names.size()));
        const double room = v.width() - 8.0;
        for (const auto& row : l.rows) {
            double w = -l.spacing;
            for (std::size_t i : row) w += l.spacing + l.entries[i].width;
            QVERIFY2(w <= room + 0.5, qPrintable(QStringLiteral("legend row %1 px wide in %2").arg(w).arg(room)));
        }
        for (std::size_t i = 0; i < l.entries.size(); ++i) QCOMPARE(l.entries[i].name, names[qsizetype(i)]);
        // Below the plot area and its distance labels, inside the view.
        QVERIFY2(c.plot.bottom() + QFontMetricsF(themeByName(theme).smallFont()).height() <= c.legendRect.top(), "the legend has no room below the plot");
        QVERIFY(c.legendRect.bottom() <= v.height());
        // Every axis' numeric labels, as painted, are plot::tickLabels of their values.
        std::map<int, QStringList> groups;
        for (const LayoutItem& item : report.items)
            if (item.kind == LayoutItemKind::Text && item.group > 0) groups[item.group] << item.text;
        int axes = 0;
        for (const auto& [g, shownLabels] : groups) {
            std::vector<double> values;
            bool numbers = true;
            for (QString t : shownLabels) {
                bool ok = false;
                values.push_back(t.replace(QChar(0x2212), QLatin1Char('-')).toDouble(&ok));
                numbers = numbers && ok;
            }
            if (!numbers || shownLabels.size() < 2) continue;
            ++axes;
            QVERIFY2(shownLabels == plot::tickLabels(values) || shownLabels == plot::tickLabels(values, true), qPrintable(shownLabels.join(u' ')));
            // No rounding residue for 0 (a value a billion times smaller than the axis' largest).
            double top = 0;
            bool decades = true;
            for (std::size_t i = 0; i < values.size(); ++i) {
                top = std::max(top, std::abs(values[i]));
                // (a log axis: each label a power of ten times the last)
                const double k = i == 0 ? 1.0 : std::log10(values[i] / values[i - 1]);
                decades = decades && values[i] > 0 && k > 0.5 && std::abs(k - std::round(k)) < 1e-6;
            }
            for (double x : values) QVERIFY2(decades || x == 0 || std::abs(x) > top * 1e-9, qPrintable(shownLabels.join(u' ')));
        }
        QVERIFY2(axes >= 2, qPrintable(QString::number(axes)));
        // The view is the renderer's drawing (no other code paints it).
        QImage drawn(shown.size(), QImage::Format_ARGB32_Premultiplied);
        drawn.setDevicePixelRatio(shown.devicePixelRatio());
        {
            QPainter p(&drawn);
            renderDecay(p, QRectF(v.rect()), r, themeByName(theme));
        }
        QCOMPARE(shown.convertToFormat(QImage::Format_RGB32), drawn.convertToFormat(QImage::Format_RGB32));
    }

    // The θ axis on the right of the frequency plot is ticked at θ's own round values (1, 0.1,
    // 0.01 …) where 2π/θ falls on the wavelength axis, not at 2π/(10^k) ("6.283e-05").
    void thetaAxisHasRoundTicks_data() {
        QTest::addColumn<double>("base");
        QTest::newRow("base_10000") << 10000.0;
        QTest::newRow("base_500000") << 500000.0;
    }
    void thetaAxisHasRoundTicks() {
        QFETCH(double, base);
        SceneParams s;
        s.methods[0].params.rope.base = base;
        ExportRequest r;
        r.view = ViewKind::Frequencies;
        r.format = ExportFormat::Json;
        r.pixels = QSize(1200, 800);
        const LayoutReport report = exportLayout(s, r);
        QStringList texts;
        for (const auto& item : report.items) texts << item.text;
        QVERIFY2(!texts.filter(QStringLiteral("6.283")).size(), qPrintable(texts.join(QLatin1Char('|'))));
        // θ_0 = 1 and θ_last ≈ base^(−(d−2)/d): every power of ten in between is a tick, all
        // written one way (plot::tickLabels: past 1e-4 in exponent form, never "0.001" beside "1e-5").
        for (const QString& tick : {QStringLiteral("1e0"), QStringLiteral("1e-1"), QStringLiteral("1e-2"), QStringLiteral("1e-3"), QStringLiteral("1e-4")})
            QVERIFY2(texts.contains(tick), qPrintable(tick + QStringLiteral(" not in ") + texts.join(QLatin1Char('|'))));
        QVERIFY2(!texts.contains(QStringLiteral("0.001")), qPrintable(texts.join(QLatin1Char('|'))));
    }

    void frequenciesAreTheCoresBeforeAndAfter_data() {
        QTest::addColumn<int>("scaling");
        QTest::newRow("none") << int(RopeScaling::None);
        QTest::newRow("linear") << int(RopeScaling::Linear);
        QTest::newRow("yarn") << int(RopeScaling::Yarn);
        QTest::newRow("llama3") << int(RopeScaling::Llama3);
    }
    void frequenciesAreTheCoresBeforeAndAfter() {
        QFETCH(int, scaling);
        SceneParams s;
        auto& rp = s.methods[0].params.rope;
        rp.scaling = static_cast<RopeScaling>(scaling);
        rp.factor = 8.0;
        rp.max_positions = 8192;
        rp.original_max_positions = 1024;
        const FrequencyResult r = computeFrequencies(s);
        const auto& c = r.configs.at(0);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const RopeParams ep = effectiveParams(s, 0).ropeParams();
        const RopeFrequencies after = ropeFrequencies(ep, s.length);
        const RopeFrequencies before = ropeDefaultFrequencies(ep);
        QCOMPARE(static_cast<Eigen::Index>(c.after.size()), after.inv_freq.size());
        for (std::size_t i = 0; i < c.after.size(); ++i) {
            QCOMPARE(c.after[i], after.inv_freq(static_cast<Eigen::Index>(i)));
            QCOMPARE(c.before[i], before.inv_freq(static_cast<Eigen::Index>(i)));
        }
        QCOMPARE(c.attentionFactor, after.attention_factor);
        QCOMPARE(c.originalContext, std::int64_t{scaling == int(RopeScaling::None) ? 0 : 1024});
        QCOMPARE(c.context, std::int64_t{8192});
        QCOMPARE(c.scaled, scaling != int(RopeScaling::None));
        FrequencyHit hit{5};
        const QString tip = frequencyToolTip(r, hit);
        QVERIFY(tip.contains(formatValue(after.inv_freq(5))));
        QVERIFY(tip.contains(formatValue(after.wavelength()(5))));
        QImage img(600, 400, QImage::Format_RGB32);
        QPainter p(&img);
        renderFrequencies(p, QRectF(0, 0, 600, 400), r, themeByName(QStringLiteral("light")));
    }
};


class TestDecayCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // What the decay tooltip says equals `poslab compute decay`, number for number.
    void decayTooltipAgreesWithPoslabCompute() {
        // The command line run as a user runs it (tests/support/runposlab.h); when it fails, the
        // test fails naming the run: a broken CLI is a failure, never a skip.
        const auto run = testsupport::runPoslab({QStringLiteral("compute"), QStringLiteral("decay"), QStringLiteral("--method"),
                                                 QStringLiteral("rope"), QStringLiteral("--max-distance"), QStringLiteral("60"),
                                                 QStringLiteral("--dim"), QStringLiteral("64")});
        QVERIFY2(run.code == 0, qPrintable(run.describe()));
        const QJsonObject out = run.json();
        SceneParams s;
        s.view.decayMaxDistance = 60;
        const DecayResult r = computeDecay(s, DisplaySpec{});
        const auto value = out.value(QStringLiteral("value")).toArray();
        const auto bound = out.value(QStringLiteral("bound")).toArray();
        QCOMPARE(static_cast<std::size_t>(value.size()), r.series[0].distance.size());
        for (int d : {0, 1, 17, 60}) {
            QVERIFY(r.series[0].value[static_cast<std::size_t>(d)] == value[d].toDouble());
            const QString tip = decayToolTip(r, static_cast<std::size_t>(d));
            QVERIFY2(tip.contains(formatValue(value[d].toDouble())), qPrintable(tip));
            QVERIFY(tip.contains(formatValue(bound[d].toDouble())));
        }
    }
    // The frequencies tooltip equals `poslab compute frequencies`.
    void frequencyTooltipAgreesWithPoslabCompute() {
        const auto run = testsupport::runPoslab({QStringLiteral("compute"), QStringLiteral("frequencies"), QStringLiteral("--head-dim"),
                                                 QStringLiteral("64"), QStringLiteral("--scaling"), QStringLiteral("yarn"),
                                                 QStringLiteral("--factor"), QStringLiteral("4"), QStringLiteral("--original-max-positions"),
                                                 QStringLiteral("2048")});
        QVERIFY2(run.code == 0, qPrintable(run.describe()));
        const QJsonObject out = run.json();
        SceneParams s;
        auto& rp = s.methods[0].params.rope;
        rp.scaling = RopeScaling::Yarn;
        rp.factor = 4.0;
        rp.max_positions = 8192;
        rp.original_max_positions = 2048;
        const FrequencyResult r = computeFrequencies(s);
        const auto inv = out.value(QStringLiteral("inv_freq")).toArray();
        const auto wl = out.value(QStringLiteral("wavelength")).toArray();
        QCOMPARE(static_cast<std::size_t>(inv.size()), r.configs[0].after.size());
        QVERIFY(r.configs[0].attentionFactor == out.value(QStringLiteral("attention_factor")).toDouble());
        for (int i : {0, 9, 20, 31}) {
            QVERIFY(r.configs[0].after[static_cast<std::size_t>(i)] == inv[i].toDouble());
            const QString tip = frequencyToolTip(r, FrequencyHit{i});
            QVERIFY2(tip.contains(formatValue(inv[i].toDouble())), qPrintable(tip));
            QVERIFY2(tip.contains(formatValue(wl[i].toDouble())), qPrintable(tip));
        }
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    int status = 0;
    {
        TestDecayView t;
        status |= QTest::qExec(&t, argc, argv);
    }
    {
        TestDecayCli t;
        status |= QTest::qExec(&t, argc, argv);
    }
    return status;
}
#include "test_decay_view.moc"
