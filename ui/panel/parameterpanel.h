#pragma once
// The parameter panel, generated from the parameter tables (core/param.h): one control per
// declared parameter, in declaration order, grouped as the tables group them (the
// configuration's own fields, one box per method, the scene, the views). A control accepts
// exactly its declaration's valid range; every edit goes through the Scene (one undoable edit
// per change, slider drags merged by the parameter's path), and the panel is refreshed from the
// Scene after every change. Only the active configuration's method box is shown, and inside it
// only the rows that matter for the current values (Param::relevant).
#include "ui/io/modelconfig.h"
#include "ui/model/scene.h"

#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
QT_END_NAMESPACE

namespace poslab::ui {

class SliderSpin;
class ParamEdit;
class TokenLayoutEditor;

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParameterPanel(Scene* scene, QWidget* parent = nullptr);

    // Re-reads every control from the scene (called on Scene::changed).
    void refresh();

    // Named controls (also for tests and the benchmark).
    SliderSpin* dimControl() const { return dim_; }
    SliderSpin* baseControl() const { return base_; }      // RoPE's base θ
    SliderSpin* lengthControl() const { return length_; }
    QComboBox* methodControl() const { return method_; }
    QLabel* problemLabel() const { return problem_; }
    QLineEdit* labelControl() const { return label_; }
    // The control of a parameter by its path ("dim", "rope.base", "scene.length",
    // "view.font_scale"): a SliderSpin, ParamEdit, QComboBox or QCheckBox; nullptr if none.
    QWidget* control(const QString& path) const;

    // Applies a model preset (ui/io/presets.h) to the edited configuration, as one undo step.
    void applyPreset(const QString& key);
    // Applies a model configuration file's parameters (ui/io/modelconfig.h) to the edited
    // configuration, as one undo step; the preset note then names the file and the keys that
    // came from it, for as long as the configuration holds exactly those parameters.
    void applyModelConfig(const ModelFileConfig& config, const QString& fileName);
    QLabel* presetNoteLabel() const { return presetNote_; }
    // The token layout's editor (scene.mrope.tokens).
    TokenLayoutEditor* tokenLayoutEditor() const { return tokens_; }

Q_SIGNALS:
    // The theme or text size changed the panel's fonts: its minimum width changed.
    void lookChanged();

private:
    // One generated control: how to show the value and whether the row matters now.
    struct Row {
        QString path;
        QWidget* widget = nullptr;      // the control
        QWidget* rowLabel = nullptr;    // its label in the form (nullptr for check boxes)
        QLabel* message = nullptr;      // the inline problem of what was typed
        std::function<void()> refresh;  // shows the scene's value
        std::function<bool()> relevant; // row visible
    };
    QWidget* buildConfigBox();
    template <class S>
    void addRows(QFormLayout* form, QWidget* parent, const ParamTable<S>& table, std::string_view group,
                 const QString& prefix, std::function<const S&()> get,
                 std::function<void(const QString&, const QString&, std::function<void(S&)>)> edit,
                 const std::vector<std::string_view>& skip = {});
    QWidget* makeControl(const ParamInfo& info, const QString& path, std::function<ParamValue()> value,
                         std::function<void(const ParamValue&, bool merge)> commit, Row& row);
    void applyLook(const QString& themeName, double fontScale);
    void editConfig(const QString& text, const QString& path, std::function<void(ScoreParams&)> f);
    void editScene(const QString& text, const QString& path, std::function<void(SceneParams&)> f);

    Scene* scene_;
    bool refreshing_ = false;
    std::vector<Row> rows_;

    QComboBox* config_ = nullptr;
    QPushButton* addConfig_ = nullptr;
    QPushButton* removeConfig_ = nullptr;
    QLineEdit* label_ = nullptr;
    QString labelShown_;
    QComboBox* preset_ = nullptr;
    QString modelFileNote(const ModelFileConfig& config, const QString& fileName) const;
    QLabel* presetNote_ = nullptr;
    // The last model configuration file applied: its parameters and the note shown for them.
    std::optional<ScoreParams> fileParams_;
    QString fileNote_;
    QLabel* problem_ = nullptr;
    QLabel* summary_ = nullptr;
    QComboBox* method_ = nullptr;
    SliderSpin* dim_ = nullptr;
    SliderSpin* base_ = nullptr;
    SliderSpin* length_ = nullptr;
    std::vector<std::pair<Method, QGroupBox*>> methodBoxes_;
    // The model's layer pattern (shown when the configuration has one) and the RoPE parameters
    // of each layer type (shown when the pattern has layers of that type).
    QGroupBox* modelBox_ = nullptr;
    std::vector<std::pair<LayerType, QGroupBox*>> layerRopeBoxes_;
    QString lookKey_;
    TokenLayoutEditor* tokens_ = nullptr;
};

}  // namespace poslab::ui
