#pragma once
// The export dialog: which view (or all), format, size in pixels, DPI, theme and text size.
// Starts from what the window shows (the view's size and the screen's DPI, the scene's theme);
// "As in the window" goes back to that. The file is chosen afterwards (SessionActions).
#include "ui/io/export.h"

#include <QDialog>

#include <functional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QSpinBox;
class QDoubleSpinBox;
class QLabel;
QT_END_NAMESPACE

namespace poslab::ui {

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    using Defaults = std::function<ExportRequest(std::optional<ViewKind>, ExportFormat)>;
    ExportDialog(const SceneParams& scene, Defaults windowDefaults, QWidget* parent = nullptr);

    ExportRequest request() const;
    void setRequest(const ExportRequest& request);

private:
    void resetToWindow();
    void updateNote();

    SceneParams scene_;
    Defaults defaults_;
    QComboBox* view_ = nullptr;
    QComboBox* format_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
    QSpinBox* dpi_ = nullptr;
    QComboBox* theme_ = nullptr;
    QDoubleSpinBox* fontScale_ = nullptr;
    QLabel* note_ = nullptr;
};

}  // namespace poslab::ui
