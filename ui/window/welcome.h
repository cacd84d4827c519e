#pragma once
// The welcome page: shown at the first start (and at every start when asked; Help ▸ Welcome
// shows it any time), with three ways in:
//   Explore      close the page; the window's scene is ready to change
//   The lecture  the default deck: its first demonstration in the window, the deck panel open,
//                "Present the lecture" starts presentation mode (F5)
//   A real model a built-in preset (a real model's positional parameters) or File ▸ Open model
//                configuration… (config.json / GGUF)
// and the handbook (F1). Settings (QSettings): "welcome/seen" (set once shown) and
// "welcome/atEveryStart" (the checkbox).
#include <QDialog>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QPushButton;
QT_END_NAMESPACE

namespace poslab::ui {

class MainWindow;

class WelcomeDialog : public QDialog {
    Q_OBJECT
public:
    explicit WelcomeDialog(MainWindow* window);

    QPushButton* exploreButton() const { return explore_; }
    QPushButton* lectureButton() const { return lecture_; }
    QPushButton* presentButton() const { return present_; }
    QComboBox* presetBox() const { return presets_; }
    QPushButton* presetButton() const { return usePreset_; }
    QPushButton* openConfigButton() const { return openConfig_; }
    QPushButton* handbookButton() const { return handbook_; }
    QCheckBox* atEveryStartBox() const { return atEveryStart_; }

private:
    MainWindow* window_;
    QPushButton *explore_, *lecture_, *present_, *usePreset_, *openConfig_, *handbook_;
    QComboBox* presets_;
    QCheckBox* atEveryStart_;
};

// At start: the welcome page (shown, not modal) when this is the first start or the person asked
// for it at every start; else nullptr.
WelcomeDialog* welcomeAtStart(MainWindow* window);

}  // namespace poslab::ui
