#pragma once
// The parameter panel: every control edits through the Scene (one undoable edit per change,
// slider drags merged), and is refreshed from the Scene after every change. Only the groups of
// the edited configuration's method are shown. Controls limit values to the core's valid ranges;
// a combination the core rejects is reported inline with the core's own message.
#include "ui/scene.h"

#include <QWidget>

#include <functional>
#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QFormLayout;
QT_END_NAMESPACE

namespace poslab::ui {

class SliderSpin;
class OptionalNumber;

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParameterPanel(Scene* scene, QWidget* parent = nullptr);

    // Re-reads every control from the scene (called on Scene::changed).
    void refresh();

    // Named controls (also for tests and the benchmark): "dim", "base", "length", "method", ...
    SliderSpin* dimControl() const { return dim_; }
    SliderSpin* baseControl() const { return base_; }
    SliderSpin* lengthControl() const { return length_; }
    QComboBox* methodControl() const { return method_; }
    QLabel* problemLabel() const { return problem_; }

    // Applies a model preset (core/presets.h) to the edited configuration, as one undo step.
    void applyPreset(const QString& key);

private:
    // Builders
    QWidget* buildConfigBox();
    QWidget* buildGeneral();
    QWidget* buildRope();
    QWidget* buildSinusoidal();
    QWidget* buildXpos();
    QWidget* buildLearned();
    QWidget* buildShaw();
    QWidget* buildT5();
    QWidget* buildTransformerXL();
    QWidget* buildAlibi();
    QWidget* buildView();

    // Edit helpers
    void editCfg(const QString& text, const QString& field, const std::function<void(ScoreParams&)>& f);
    void editScene(const QString& text, const QString& field, const std::function<void(SceneParams&)>& f);
    void connectFinish(SliderSpin* s);

    Scene* scene_;
    bool refreshing_ = false;

    // Config
    QComboBox* config_ = nullptr;
    QPushButton* addConfig_ = nullptr;
    QPushButton* removeConfig_ = nullptr;
    QLineEdit* label_ = nullptr;
    QComboBox* preset_ = nullptr;
    QLabel* presetNote_ = nullptr;
    QLabel* problem_ = nullptr;
    // General
    QComboBox* method_ = nullptr;
    QLabel* summary_ = nullptr;
    SliderSpin* dim_ = nullptr;
    SliderSpin* base_ = nullptr;
    SliderSpin* length_ = nullptr;
    QLineEdit* positions_ = nullptr;
    QLineEdit* pairs_ = nullptr;
    QSpinBox* head_ = nullptr;
    QComboBox* content_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QComboBox* precision_ = nullptr;
    // Groups per method
    QGroupBox* ropeBox_ = nullptr;
    QGroupBox* sinBox_ = nullptr;
    QGroupBox* xposBox_ = nullptr;
    QGroupBox* learnedBox_ = nullptr;
    QGroupBox* shawBox_ = nullptr;
    QGroupBox* t5Box_ = nullptr;
    QGroupBox* txlBox_ = nullptr;
    QGroupBox* alibiBox_ = nullptr;
    // RoPE
    QComboBox* ropeLayout_ = nullptr;
    QComboBox* ropeScaling_ = nullptr;
    QDoubleSpinBox* partial_ = nullptr;
    QSpinBox* rotaryDim_ = nullptr;
    OptionalNumber* factor_ = nullptr;
    QSpinBox* maxPos_ = nullptr;
    OptionalNumber* origMax_ = nullptr;
    OptionalNumber* seqLen_ = nullptr;
    QWidget* yarnRows_ = nullptr;
    QDoubleSpinBox* betaFast_ = nullptr;
    QDoubleSpinBox* betaSlow_ = nullptr;
    OptionalNumber* mscale_ = nullptr;
    OptionalNumber* mscaleAll_ = nullptr;
    QCheckBox* truncate_ = nullptr;
    OptionalNumber* attnFactor_ = nullptr;
    QWidget* llamaRows_ = nullptr;
    QDoubleSpinBox* lowFreq_ = nullptr;
    QDoubleSpinBox* highFreq_ = nullptr;
    QWidget* longRows_ = nullptr;
    QLineEdit* shortFactor_ = nullptr;
    QLineEdit* longFactor_ = nullptr;
    QLineEdit* theta_ = nullptr;
    // Sinusoidal
    QComboBox* sinLayout_ = nullptr;
    QComboBox* sinFreq_ = nullptr;
    QDoubleSpinBox* minTimescale_ = nullptr;
    // xPos
    SliderSpin* scaleBase_ = nullptr;
    // Learned
    QSpinBox* tableSize_ = nullptr;
    QSpinBox* learnedSeed_ = nullptr;
    // Shaw
    SliderSpin* shawK_ = nullptr;
    QSpinBox* shawSeed_ = nullptr;
    // T5
    QSpinBox* t5Buckets_ = nullptr;
    QSpinBox* t5MaxDist_ = nullptr;
    QSpinBox* t5Heads_ = nullptr;
    QSpinBox* t5Seed_ = nullptr;
    // Transformer-XL
    QSpinBox* clampLen_ = nullptr;
    QSpinBox* txlSeed_ = nullptr;
    // ALiBi
    QSpinBox* alibiHeads_ = nullptr;
    QDoubleSpinBox* biasMax_ = nullptr;
    // View
    QCheckBox* softmax_ = nullptr;
    QCheckBox* causal_ = nullptr;
    QComboBox* colormap_ = nullptr;
    QCheckBox* difference_ = nullptr;
    SliderSpin* decayMax_ = nullptr;
    QCheckBox* logX_ = nullptr;
    QCheckBox* logY_ = nullptr;
    QCheckBox* bound_ = nullptr;
    QComboBox* theme_ = nullptr;
    QDoubleSpinBox* fontScale_ = nullptr;
};

// "0.5,1,2" → numbers; nullopt on bad syntax or empty.
std::optional<std::vector<double>> parseNumberList(const QString& text);
QString numberListText(const std::vector<double>& v);

}  // namespace poslab::ui
