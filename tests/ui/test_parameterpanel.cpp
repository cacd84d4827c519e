// ui/panel/parameterpanel: the panel generated from the parameter table. Every box accepts
// exactly what the core accepts (scientific notation included), shows anything else as invalid
// where it was typed with the valid range, and never clamps; the label follows the scene.
#include <QScrollArea>
#include <QScrollBar>
#include <QStyleOptionSlider>
#include <QtTest>
#include <QtTest/qtestspontaneevent.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include "support/markertranslator.h"
#include "ui/io/presets.h"
#include "ui/panel/controls.h"
#include "ui/panel/parameterpanel.h"
#include "ui/render/theme.h"

using namespace poslab;
using namespace poslab::ui;

Q_DECLARE_METATYPE(poslab::Method)

namespace {

ParamEdit* editOf(ParameterPanel& panel, const QString& path) {
    QWidget* w = panel.control(path);
    if (auto* s = qobject_cast<SliderSpin*>(w)) return s->edit();
    return qobject_cast<ParamEdit*>(w);
}

// Types `text` into the box as a person would (select all, type, Enter).
void type(ParamEdit* e, const QString& text) {
    e->setFocus();
    e->selectAll();
    QTest::keyClicks(e, text);
    QTest::keyClick(e, Qt::Key_Return);
}

QString problemOf(ParameterPanel& panel, const QString& path) {
    const QString name = path.section('.', -1);
    for (auto* l : panel.findChildren<QLabel*>(name + QStringLiteral("Problem")))
        if (l->isVisibleTo(&panel)) return l->text();
    return {};
}

// The widget a person points at for `path`: a slider-and-box row's slider, else the control.
QWidget* pointedAt(ParameterPanel& panel, const QString& path) {
    if (path == QLatin1String("config") || path == QLatin1String("preset")) return panel.findChild<QComboBox*>(path);
    QWidget* w = panel.control(path);
    if (auto* s = qobject_cast<SliderSpin*>(w)) return s->slider();
    return w;
}

// Turns the wheel one notch down over `w`'s centre, delivered as the window system does
// (QApplication offers it to the widget, then to its parents while nobody accepts it).
void wheelOver(QWidget* w, int notches = -1) {
    const QPointF local = QRectF(w->rect()).center();
    QWheelEvent e(local, w->mapToGlobal(local), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, Qt::NoModifier,
                  Qt::NoScrollPhase, false);
    // As from the window system (QtTest's way): only such events propagate to the parents.
    QSpontaneKeyEvent::setSpontaneous(&e);
    qApp->notify(w, &e);
}

// Significant digits a person reads in `number` ("24099999.999999996": 17, "2.41e7": 3,
// "500000": 1, "0.111803": 6).
int significantDigits(QString number) {
    const qsizetype e = number.indexOf(QLatin1Char('e'), 0, Qt::CaseInsensitive);
    if (e >= 0) number = number.left(e);
    number.remove(QLatin1Char('-'));
    number.remove(QChar(0x2212));
    const bool point = number.contains(QLatin1Char('.'));
    number.remove(QLatin1Char('.'));
    while (number.startsWith(QLatin1Char('0'))) number.remove(0, 1);
    if (!point)
        while (number.endsWith(QLatin1Char('0'))) number.chop(1);
    return int(number.size());
}

// A drag of the slider's handle by `dx` pixels, as a hand does it (press, move, release).
void dragHandle(QSlider* s, int dx) {
    QStyleOptionSlider opt;
    opt.initFrom(s);
    opt.orientation = s->orientation();
    opt.minimum = s->minimum();
    opt.maximum = s->maximum();
    opt.sliderPosition = s->sliderPosition();
    opt.sliderValue = s->value();
    const QRect handle = s->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, s);
    const QPoint from = handle.center(), to = from + QPoint(dx, 0);
    QTest::mousePress(s, Qt::LeftButton, Qt::NoModifier, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), s->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(s, &move);
    QTest::mouseRelease(s, Qt::LeftButton, Qt::NoModifier, to);
}

}  // namespace

class TestParameterPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void typedValues_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<double>("value");      // the scene's value afterwards
        QTest::addColumn<QString>("problem");   // what the row says (empty when accepted)
        QTest::newRow("base_1e12") << "rope.base" << "1e12" << true << 1e12 << "";
        QTest::newRow("base_minus5") << "rope.base" << "-5" << false << 10000.0 << "base: a number in (1, 1e12], got -5";
        QTest::newRow("base_0.5") << "rope.base" << "0.5" << false << 10000.0 << "base: a number in (1, 1e12], got 0.5";
        QTest::newRow("base_1e13") << "rope.base" << "1e13" << false << 10000.0 << "base: a number in (1, 1e12], got 1e13";
        QTest::newRow("base_word") << "rope.base" << "big" << false << 10000.0 << "base: a number in (1, 1e12], got big";
        QTest::newRow("dim_65536") << "dim" << "65536" << true << 65536.0 << "";
        QTest::newRow("dim_0.5") << "dim" << "0.5" << false << 64.0 << "dim: an integer from 1 to 65536, got 0.5";
        QTest::newRow("dim_65537") << "dim" << "65537" << false << 64.0 << "dim: an integer from 1 to 65536, got 65537";
        QTest::newRow("beta_fast_1e-3") << "rope.beta_fast" << "1e-3" << true << 1e-3 << "";
        QTest::newRow("beta_fast_0") << "rope.beta_fast" << "0" << false << 32.0 << "beta_fast: a number in (0, 1e6], got 0";
        QTest::newRow("max_positions_2^40") << "rope.max_positions" << "1099511627776" << true << 1099511627776.0 << "";
        QTest::newRow("length_65536") << "scene.length" << "65536" << true << 65536.0 << "";
        QTest::newRow("length_0") << "scene.length" << "0" << false << 64.0 << "length: an integer from 1 to 1048576, got 0";
    }
    void typedValues() {
        QFETCH(QString, path);
        QFETCH(QString, text);
        QFETCH(bool, accepted);
        QFETCH(double, value);
        QFETCH(QString, problem);
        Scene scene;
        SceneParams start;
        start.methods[0].params.rope.scaling = RopeScaling::Yarn;   // shows the YaRN rows
        start.methods[0].params.rope.factor = 4;
        scene.setParams(start);
        ParameterPanel panel(&scene);
        panel.show();
        ParamEdit* e = editOf(panel, path);
        QVERIFY2(e, qPrintable(path));
        QVERIFY(e->isVisibleTo(&panel));
        type(e, text);
        const SceneParams& s = scene.params();
        double got = 0;
        if (path == QLatin1String("scene.length")) got = static_cast<double>(s.length);
        else {
            const ParamValue v = findParam(scoreParamTable(), path.toStdString())->get(s.methods[0].params);
            if (auto* i = std::get_if<std::int64_t>(&v)) got = static_cast<double>(*i);
            else got = std::get<double>(v);
        }
        QCOMPARE(got, value);
        QCOMPARE(scene.undoStack()->count(), accepted ? 1 : 0);
        QCOMPARE(e->problem(), problem);
        QCOMPARE(problemOf(panel, path), problem);
        // What was refused stays where it was typed; what was accepted shows the scene's value.
        QCOMPARE(e->text(), accepted ? QString::fromStdString(formatParamValue(e->info(), parseParamText(e->info(), text.toStdString()).value()))
                                     : text);
        if (!accepted) {
            // Undo after a refused edit: the box shows the scene's value again.
            scene.setParams(start);
            QCOMPARE(e->problem(), QString());
        }
    }

    // Compare mode's "Link colour ranges" (auto / linked / own): a choice of the Views box,
    // offered with two configurations or more, one undo step, and the scene's (so its session's).
    void linkColourRangesIsAViewChoice_data() {
        QTest::addColumn<int>("configs");
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("link");
        QTest::newRow("one_config") << 1 << 2 << int(ColorRangeLink::Own);
        QTest::newRow("two_configs_linked") << 2 << 1 << int(ColorRangeLink::Linked);
        QTest::newRow("four_configs_own") << 4 << 2 << int(ColorRangeLink::Own);
    }
    void linkColourRangesIsAViewChoice() {
        QFETCH(int, configs);
        QFETCH(int, index);
        QFETCH(int, link);
        Scene scene;
        SceneParams start;
        start.methods.assign(std::size_t(configs), MethodConfig{});
        scene.setParams(start);
        ParameterPanel panel(&scene);
        panel.show();
        auto* box = qobject_cast<QComboBox*>(panel.control(QStringLiteral("view.link_color_ranges")));
        QVERIFY(box);
        QCOMPARE(box->count(), 3);
        QCOMPARE(box->currentIndex(), 0);   // automatic
        QCOMPARE(box->isEnabled(), configs > 1);
        if (configs == 1) return;
        box->setCurrentIndex(index);
        QCOMPARE(int(scene.params().view.colorLink), link);
        QCOMPARE(scene.undoStack()->count(), 1);
        scene.undoStack()->undo();
        QCOMPARE(scene.params().view.colorLink, ColorRangeLink::Auto);
        QCOMPARE(box->currentIndex(), 0);
    }

    // No control clamps: the panel has no spin boxes, and every declared parameter a
    // configuration owns has exactly one control.
    void everyParameterHasOneControl() {
        Scene scene;
        ParameterPanel panel(&scene);
        QVERIFY(panel.findChildren<QSpinBox*>().isEmpty());
        QVERIFY(panel.findChildren<QDoubleSpinBox*>().isEmpty());
        int controls = 0;
        for (const auto& p : scoreParamTable()) {
            if (p.info.has(kParamShared) || p.info.name == "head" || p.info.name == "causal" || p.info.name == "softmax") continue;
            QVERIFY2(panel.control(QString::fromStdString(p.path())), p.path().c_str());
            ++controls;
        }
        for (const auto& p : viewParamTable()) QVERIFY(panel.control(QStringLiteral("view.") + QString::fromStdString(p.path())));
        QVERIFY(controls > 40);
    }

    // Only the edited method's box, and inside RoPE only the rows its scaling uses.
    void rowsFollowTheScaling() {
        Scene scene;
        ParameterPanel panel(&scene);
        panel.show();
        QVERIFY(!panel.control(QStringLiteral("rope.beta_fast"))->isVisibleTo(&panel));
        QVERIFY(!panel.control(QStringLiteral("rope.low_freq_factor"))->isVisibleTo(&panel));
        auto* scaling = qobject_cast<QComboBox*>(panel.control(QStringLiteral("rope.scaling")));
        scaling->setCurrentIndex(scaling->findData(QStringLiteral("llama3")));
        QCOMPARE(scene.params().methods[0].params.rope.scaling, RopeScaling::Llama3);
        QVERIFY(scene.params().methods[0].params.rope.factor.has_value());   // a typical factor, shown
        QVERIFY(panel.control(QStringLiteral("rope.low_freq_factor"))->isVisibleTo(&panel));
        QVERIFY(!panel.control(QStringLiteral("rope.beta_fast"))->isVisibleTo(&panel));
        QVERIFY(!panel.control(QStringLiteral("alibi.heads"))->isVisibleTo(&panel));
    }

    // The attention box always; the model's layer box and a layer type's RoPE box only when the
    // configuration has a layer pattern with layers of that type. Typing a layer shows it (its
    // window, its RoPE) in one undo step.
    void layerBoxesFollowThePattern() {
        Scene scene;
        ParameterPanel panel(&scene);
        panel.show();
        const auto boxShown = [&](const char* name) {
            auto* box = panel.findChild<QGroupBox*>(QString::fromLatin1(name));
            return box && box->isVisibleTo(&panel);
        };
        QVERIFY(boxShown("attention"));
        QVERIFY(panel.control(QStringLiteral("attention.window"))->isVisibleTo(&panel));
        QVERIFY(!boxShown("model"));
        QVERIFY(!boxShown("model_rope_sliding"));
        SceneParams s;
        ScoreParams& p = s.methods[0].params;
        p.model.model_type = "gemma3_text";
        p.model.layer_types = "sliding,full";
        p.model.rope_layers = {1, 1};
        p.model.window = 512;
        p.model.rope_sliding.base = 10000;
        p.model.rope_full.base = 1e6;
        p.applyLayer(0);
        scene.setParams(s);
        QVERIFY(boxShown("model"));
        QVERIFY(boxShown("model_rope_full"));
        QVERIFY(boxShown("model_rope_sliding"));
        QVERIFY(!boxShown("model_rope_chunked"));
        QCOMPARE(scene.params().methods[0].params.attention.window, std::optional<std::int64_t>(512));
        type(editOf(panel, QStringLiteral("model.layer")), QStringLiteral("1"));
        const ScoreParams& after = scene.params().methods[0].params;
        QCOMPARE(after.model.layer, std::int64_t(1));
        QCOMPARE(after.attention.window, std::optional<std::int64_t>());
        QCOMPARE(after.rope.base, 1e6);
        QCOMPARE(scene.undoStack()->count(), 1);
        // The sliding layers' base, edited while the full layer is shown, changes the pattern only.
        type(editOf(panel, QStringLiteral("model_rope_sliding.base")), QStringLiteral("20000"));
        QCOMPARE(scene.params().methods[0].params.model.rope_sliding.base, 20000.0);
        QCOMPARE(scene.params().methods[0].params.rope.base, 1e6);
        scene.undoStack()->undo();
        scene.undoStack()->undo();
        QCOMPARE(scene.params().methods[0].params.attention.window, std::optional<std::int64_t>(512));
    }

    // The label follows the scene: a preset or a reset replaces it even while the field has the
    // focus, and Enter afterwards renames nothing.
    void labelFollowsPresets() {
        const ModelPreset* bloom = findPreset("bloom");
        const ModelPreset* mistral = findPreset("mistral-7b");
        QVERIFY(bloom && mistral);
        Scene scene;
        ParameterPanel panel(&scene);
        panel.show();
        QApplication::setActiveWindow(&panel);
        QLineEdit* label = panel.labelControl();
        label->setFocus();
        panel.applyPreset(QStringLiteral("bloom"));
        QCOMPARE(label->text(), QString::fromStdString(bloom->name));
        panel.applyPreset(QStringLiteral("mistral-7b"));
        QCOMPARE(label->text(), QString::fromStdString(mistral->name));
        const int steps = scene.undoStack()->count();
        QTest::keyClick(label, Qt::Key_Return);
        QCOMPARE(scene.params().methods[0].label, QString::fromStdString(mistral->name));
        QCOMPARE(scene.undoStack()->count(), steps);
        scene.apply(QStringLiteral("Reset"), SceneParams{});
        QCOMPARE(label->text(), QString());
        QTest::keyClick(label, Qt::Key_Return);
        QCOMPARE(scene.params().methods[0].label, QString());
        // Typing still renames.
        label->selectAll();
        QTest::keyClicks(label, QStringLiteral("mine"));
        QTest::keyClick(label, Qt::Key_Return);
        QCOMPARE(scene.params().methods[0].label, QStringLiteral("mine"));
    }

    // The method's summary and the title of its box are the core's words (core/method.cpp marks
    // them POSLAB_TR_NOOP("Method", …)) shown translated: a translator for the context "Method"
    // changes what the panel shows.
    void methodWordsAreTranslated_data() {
        QTest::addColumn<poslab::Method>("method");
        QTest::addRow("rope") << Method::Rope;
        QTest::addRow("alibi") << Method::Alibi;
        QTest::addRow("t5") << Method::T5;
    }
    void methodWordsAreTranslated() {
        QFETCH(poslab::Method, method);
        const testsupport::MarkerTranslator marker("Method");
        Scene scene;
        SceneParams s;
        s.methods[0].params.method = method;
        scene.apply(QStringLiteral("Method"), s);
        ParameterPanel panel(&scene);
        const QString summary = marker.mark() + QString::fromUtf8(methodSummary(method).data());
        bool shown = false;
        for (auto* l : panel.findChildren<QLabel*>()) shown = shown || l->text() == summary;
        QVERIFY2(shown, qPrintable(summary));
        auto* box = panel.findChild<QGroupBox*>(QString::fromUtf8(methodParamGroup(method).data()));
        QVERIFY(box);
        QCOMPARE(box->title(), marker.mark() + QString::fromUtf8(methodTitle(method).data()));
    }

    // The panel follows the theme and the text size.
    void panelFollowsThemeAndTextSize() {
        Scene scene;
        ParameterPanel panel(&scene);
        const double before = panel.font().pointSizeF();
        const QColor window = panel.palette().color(QPalette::Window);
        scene.edit(QStringLiteral("look"), QString(), [](SceneParams& s) {
            s.view.theme = QStringLiteral("projector");
            s.view.fontScale = 1.5;
        });
        QVERIFY(panel.font().pointSizeF() >= before * 1.5 - 1e-9);
        QCOMPARE(panel.palette().color(QPalette::Window), themeByName(QStringLiteral("projector")).panel);
        // Every control and label in it too (none keeps a font or colours of its own).
        int children = 0;
        for (QWidget* c : panel.findChildren<QWidget*>()) {
            if (!c->isVisibleTo(&panel) || qobject_cast<QScrollBar*>(c)) continue;
            ++children;
            QVERIFY2(c->font().pointSizeF() >= before * 1.5 - 1e-9,
                     qPrintable(QStringLiteral("%1 %2: %3 pt").arg(QString::fromLatin1(c->metaObject()->className()), c->objectName()).arg(c->font().pointSizeF())));
            // Its text colour (WindowText for labels, ButtonText for buttons, Text for fields; the
            // theme's muted colour where disabled, e.g. "Remove" with one configuration).
            const Theme projector = themeByName(QStringLiteral("projector"));
            const QColor ink = c->palette().color(c->foregroundRole());
            QVERIFY2(ink == (c->isEnabled() ? projector.foreground : projector.muted),
                     qPrintable(QStringLiteral("%1 %2: %3").arg(QString::fromLatin1(c->metaObject()->className()), c->objectName(), ink.name())));
        }
        QVERIFY(children > 20);
        QVERIFY(panel.palette().color(QPalette::Window) != window || themeByName(QStringLiteral("projector")).panel == window);
        scene.undoStack()->undo();
        QCOMPARE(panel.font().pointSizeF(), before);
    }

    // The wheel over a control that has not been clicked scrolls the panel and changes nothing
    // (it used to change the colour map or "Pixel shows" while the person scrolled the panel).
    void wheelOverUnfocusedControlScrollsThePanel_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("method_combo") << "method";
        QTest::newRow("colour_map_combo") << "view.colormap";
        QTest::newRow("pixel_shows_combo") << "view.aggregate";
        QTest::newRow("preset_combo") << "preset";
        QTest::newRow("base_slider") << "rope.base";
        QTest::newRow("dim_slider") << "dim";
        QTest::newRow("length_slider") << "scene.length";
    }
    void wheelOverUnfocusedControlScrollsThePanel() {
        QFETCH(QString, path);
        Scene scene;
        auto* panel = new ParameterPanel(&scene);
        QScrollArea area;
        area.setWidget(panel);
        area.setWidgetResizable(true);
        area.resize(420, 300);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        QWidget* w = pointedAt(*panel, path);
        QVERIFY2(w && w->isVisibleTo(panel), qPrintable(path));
        QScrollBar* bar = area.verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        area.ensureWidgetVisible(w, 0, 100);
        bar->setValue(std::min(bar->value(), bar->maximum() - 60));
        QVERIFY(!w->hasFocus());
        const SceneParams before = scene.params();
        const int scrolled = bar->value();
        wheelOver(w);
        QVERIFY2(scene.params() == before, qPrintable(path + QStringLiteral(" changed")));
        QCOMPARE(scene.undoStack()->count(), 0);
        QVERIFY2(bar->value() > scrolled, qPrintable(QStringLiteral("%1: the panel stayed at %2").arg(path).arg(bar->value())));
        QVERIFY(!w->hasFocus());   // the wheel does not give the focus either
        QVERIFY(w->focusPolicy() & Qt::ClickFocus);   // a click does
    }

    // The base slider moves on a log scale over the bases models use (10 … 1e7): the same drag
    // changes log10 θ by the same amount wherever it starts, and never by more than 1/25 of a
    // decade per pixel at the panel's usual width (38 px used to take 10000 to 2.41e7). The box
    // beside it shows at most six significant digits (it showed 24099999.999999996).
    void baseSliderIsLogUniform_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("pixels");
        for (const char* path : {"rope.base", "sinusoidal.base"})
            for (int px : {5, 38, 80}) QTest::newRow(qPrintable(QStringLiteral("%1_%2px").arg(QLatin1String(path)).arg(px))) << path << px;
    }
    void baseSliderIsLogUniform() {
        QFETCH(QString, path);
        QFETCH(int, pixels);
        Scene scene;
        scene.edit(QStringLiteral("method"), QString(), [&](SceneParams& s) {
            s.methods[0].params.method = path.startsWith(QLatin1String("rope")) ? Method::Rope : Method::Sinusoidal;
        });
        ParameterPanel panel(&scene);
        panel.resize(380, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* spin = qobject_cast<SliderSpin*>(panel.control(path));
        QVERIFY(spin);
        QSlider* s = spin->slider();
        QVERIFY2(s->width() >= 150, qPrintable(QString::number(s->width())));
        const auto base = [&] {
            return std::get<double>(findParam(scoreParamTable(), path.toStdString())->get(scene.params().methods[0].params));
        };
        const double decadesPerPixel = 1.0 / 25;
        QList<double> changes;
        for (double start : {30.0, 300.0, 3000.0}) {
            scene.edit(QStringLiteral("base"), QString(), [&](SceneParams& p) {
                ParamValue v{start};
                setParam(scoreParamTable(), p.methods[0].params, *findParam(scoreParamTable(), path.toStdString()), v);
            });
            QCOMPARE(base(), start);
            dragHandle(s, pixels);
            const double change = std::log10(base() / start);
            QVERIFY2(change > 0 && change <= pixels * decadesPerPixel,
                     qPrintable(QStringLiteral("%1 px from %2: %3 (%4 decades)").arg(pixels).arg(start).arg(base()).arg(change)));
            changes << change;
            const QString shown = spin->edit()->text();
            QVERIFY2(significantDigits(shown) <= 6, qPrintable(shown));
            QCOMPARE(std::stod(shown.toStdString()), base());
        }
        // Log-uniform: the same drag, the same change of log θ (within a slider step and the rounding to 3 digits).
        const double step = 6.0 / s->maximum() + 0.005;
        for (double c : changes) QVERIFY2(std::abs(c - changes.front()) <= 2 * step, qPrintable(QStringLiteral("%1 vs %2").arg(c).arg(changes.front())));
    }

    // A box shows a person at most six significant digits of a value with more (a session's
    // 1/√80); focused, to edit or copy, it holds the full value; Enter or leaving it unchanged
    // edits nothing.
    void boxesShowSixDigitsAndKeepTheFullValue_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("shown");
        QTest::newRow("base_2.41e7_float_error") << "rope.base" << 24099999.999999996 << "2.41e7";
        QTest::newRow("base_third") << "rope.base" << 1e5 / 3 << "33333.3";
        QTest::newRow("base_500000") << "rope.base" << 500000.0 << "500000";
        QTest::newRow("softmax_scale_1/sqrt80") << "attention.softmax_scale" << 1 / std::sqrt(80.0) << "0.111803";
        QTest::newRow("beta_fast_exact") << "rope.beta_fast" << 32.0 << "32";
    }
    void boxesShowSixDigitsAndKeepTheFullValue() {
        QFETCH(QString, path);
        QFETCH(double, value);
        QFETCH(QString, shown);
        Scene scene;
        SceneParams start;
        start.methods[0].params.rope.scaling = RopeScaling::Yarn;
        start.methods[0].params.rope.factor = 4;
        const Param<ScoreParams>* decl = findParam(scoreParamTable(), path.toStdString());
        QVERIFY2(decl, qPrintable(path));
        QVERIFY(!setParam(scoreParamTable(), start.methods[0].params, *decl, ParamValue{value}));
        scene.setParams(start);
        ParameterPanel panel(&scene);
        panel.show();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        ParamEdit* e = editOf(panel, path);
        QVERIFY2(e && e->isVisibleTo(&panel), qPrintable(path));
        QCOMPARE(e->text(), shown);
        const QString full = QString::fromStdString(formatParamValue(e->info(), ParamValue{value}));
        e->setFocus();
        QVERIFY(e->hasFocus());
        QCOMPARE(e->text(), full);
        QTest::keyClick(e, Qt::Key_Return);
        e->clearFocus();
        QCOMPARE(e->text(), shown);
        QCOMPARE(scene.undoStack()->count(), 0);
        QCOMPARE(std::get<double>(decl->get(scene.params().methods[0].params)), value);
    }

    // A slider drag is one undo step and proposes only valid values.
    void sliderDragIsOneStep() {
        Scene scene;
        ParameterPanel panel(&scene);
        QSlider* s = panel.dimControl()->slider();
        s->setSliderDown(true);
        for (int i = 0; i < 10; ++i) s->setValue(s->value() + 7);
        s->setSliderDown(false);
        Q_EMIT s->sliderReleased();
        QCOMPARE(scene.undoStack()->count(), 1);
        QVERIFY(!scene.params().methods[0].params.validate());
        QCOMPARE(panel.dimControl()->edit()->text(), QString::number(scene.params().methods[0].params.dim));
    }

    // Every position of the dimension slider proposes an even d (rope and xpos reject odd ones):
    // a drag never passes through an invalid scene, whose problem line would appear and vanish
    // on every other step. The slider steps by 2 over the head dimensions models use (2 … 256;
    // a larger d is typed): 60 px used to take d from 64 to 3876 on a log scale up to 65536.
    void dimSliderProposesEvenDimensions_data() {
        QTest::addColumn<int>("method");
        QTest::newRow("rope") << int(Method::Rope);
        QTest::newRow("xpos") << int(Method::Xpos);
        QTest::newRow("sinusoidal") << int(Method::Sinusoidal);
        QTest::newRow("alibi") << int(Method::Alibi);
    }
    void dimSliderProposesEvenDimensions() {
        QFETCH(int, method);
        Scene scene;
        scene.edit(QStringLiteral("method"), QString(), [&](SceneParams& s) { s.methods[0].params.method = Method(method); });
        ParameterPanel panel(&scene);
        auto* problem = panel.findChild<QLabel*>(QStringLiteral("problem"));
        QVERIFY(problem);
        QSlider* s = panel.dimControl()->slider();
        s->setSliderDown(true);
        QStringList wrong;
        std::int64_t last = -1;
        int values = 0;
        for (int pos = s->minimum(); pos <= s->maximum(); ++pos) {
            s->setValue(pos);
            const auto& p = scene.params().methods[0].params;
            if (p.dim != last) ++values;
            if (p.dim % 2 != 0 || (last >= 0 && p.dim != last + 2)) wrong << QStringLiteral("%1 → d = %2 after %3").arg(pos).arg(p.dim).arg(last);
            else if (method == int(Method::Rope) || method == int(Method::Xpos))
                QVERIFY2(problem->isHidden(), qPrintable(QStringLiteral("%1 → d = %2: %3").arg(pos).arg(p.dim).arg(problem->text())));
            last = p.dim;
        }
        s->setSliderDown(false);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.mid(0, 10).join(QStringLiteral(", "))));
        QCOMPARE(values, 128);   // 2, 4, …, 256
        QCOMPARE(last, std::int64_t{256});
        // A typed d beyond the slider is kept; the slider rests at its end.
        type(panel.dimControl()->edit(), QStringLiteral("4096"));
        QCOMPARE(scene.params().methods[0].params.dim, std::int64_t{4096});
        QCOMPARE(s->value(), s->maximum());
    }

    // Every control of the panel states what its parameter means and its valid range (the
    // table's help and range) in its tooltip, and so does its label in the form.
    void tooltipsStateTheRange() {
        Scene scene;
        ParameterPanel panel(&scene);
        int controls = 0;
        QStringList missing;
        auto check = [&](const ParamInfo& info, const QString& path) {
            QWidget* w = panel.control(path);
            if (!w) return;
            ++controls;
            const QString valid = QString::fromStdString(info.valid());
            QVERIFY2(!valid.isEmpty(), qPrintable(path));
            QWidget* shown = w;
            if (auto* s = qobject_cast<SliderSpin*>(w)) shown = s->edit();
            for (QWidget* x : {w, shown})
                if (!x->toolTip().contains(valid) || !x->toolTip().contains(QString::fromStdString(std::string(info.help))))
                    missing << path + QStringLiteral(": ") + x->toolTip();
            for (auto* l : panel.findChildren<QLabel*>())
                if (l->buddy() == w && !l->toolTip().contains(valid)) missing << path + QStringLiteral(" (label)");
        };
        for (const auto& p : scoreParamTable()) check(p.info, QString::fromStdString(p.path()));
        for (const auto& p : sceneParamTable()) check(p.info, QStringLiteral("scene.") + QString::fromStdString(p.path()));
        for (const auto& p : viewParamTable()) check(p.info, QStringLiteral("view.") + QString::fromStdString(p.path()));
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
        QVERIFY2(controls >= 40, qPrintable(QString::number(controls)));
    }
};

QTEST_MAIN(TestParameterPanel)
#include "test_parameterpanel.moc"
