#pragma once
// Teaching mode, installed into the main window with one call:
//   installTeaching(window)
// adds
//   * a "Teach" menu (before Help): every demonstration (one click to open the menu, one to apply
//     it: at most two clicks from the default scene), the worked examples, the formula panel,
//     the deck (edit the deck, add this scene, reset to the lecture, open/save a deck),
//     presentation mode (F5; with the presenter view: Shift+F5), the animation and its GIF / PNG export
//   * a "Deck" dock (deckpanel.h) to author the deck; its edits are undo steps (deck.h)
//   * a "Teaching" toolbar with a demonstration chooser (two clicks as well) and "Present"
//   * a "Teaching" dock with tabs: Demonstration (claim + numbers + evidence), Formulas (the
//     current method's formulas with live numbers), Worked example (stepper), Animate.
// Applying a demonstration sets its ready scene through the Scene front door (one undo step,
// keeping the current theme and text size) and shows its numbers in the Demonstration tab.
#include "core/demonstrations.h"
#include "ui/io/session.h"

#include <QObject>
#include <QPointer>

#include <vector>

QT_BEGIN_NAMESPACE
class QAction;
class QComboBox;
class QDockWidget;
class QMenu;
class QTabWidget;
class QToolBar;
QT_END_NAMESPACE

namespace poslab::ui {

class MainWindow;
class DemoPanel;
class FormulaPanel;
class WorkedExampleWidget;
class Animator;
class AnimationPanel;
class PresentationWindow;
class PresenterView;
class DeckModel;
class DeckPanel;
enum class WorkedKind;

class TeachingController : public QObject {
    Q_OBJECT
public:
    explicit TeachingController(MainWindow* window);

    QMenu* menu() const { return menu_; }
    QAction* menuAction() const;                    // the menu bar entry "Teach"
    QAction* demoAction(DemoId id) const;
    const std::vector<QAction*>& demoActions() const { return demoActions_; }
    QAction* presentAction() const { return present_; }
    QComboBox* demoChooser() const { return chooser_; }
    QToolBar* toolBar() const { return toolbar_; }
    QDockWidget* dock() const { return dock_; }
    QTabWidget* tabs() const { return tabs_; }
    DemoPanel* demoPanel() const { return demoPanel_; }
    FormulaPanel* formulaPanel() const { return formulaPanel_; }
    WorkedExampleWidget* workedExample() const { return worked_; }
    Animator* animator() const { return animator_; }
    AnimationPanel* animationPanel() const { return animationPanel_; }
    PresentationWindow* presentation() const;

    const Session& deck() const;
    // Replaces the deck (not the session's: see deck.h; no undo step).
    void setDeck(const Session& deck);
    DeckModel* deckModel() const { return deckModel_; }
    DeckPanel* deckPanel() const { return deckPanel_; }
    QDockWidget* deckDock() const { return deckDock_; }
    // Shows the deck panel with slide `index` selected (−1 = keep the selection).
    void showDeck(int index = -1);

public Q_SLOTS:
    void applyDemo(poslab::DemoId id);
    void showWorkedExample(poslab::ui::WorkedKind kind);
    void showFormulas();
    // Adds the window's scene as the last slide (one undo step) and opens the deck panel with it
    // selected and its title ready to type.
    void addSceneToDeck();
    // Opens presentation mode on the deck at `from` (−1 = the deck's current slide);
    // fullScreen = false keeps a normal window (tests). With two or more screens (and fullScreen)
    // the presenter view comes with it (startPresenterView).
    PresentationWindow* startPresentation(bool fullScreen = true, int from = -1);
    // Presentation with the presenter view (presenter.h): the audience's slide full screen on
    // another screen than the window's, the presenter view on the window's; with one screen both
    // as windows (a rehearsal). Returns the audience's window.
    PresentationWindow* startPresenterView(int from = -1);
    PresenterView* presenterView() const;
    // Teach ▸ Export the deck…: asks for a PDF file or a folder of PNGs (and whether to add the
    // speaker notes), then writes the deck (deckexport.h). exportDeckTo() does it without dialogs.
    void exportDeck();
    bool exportDeckTo(const QString& path, bool notes, QString* error);

Q_SIGNALS:
    void demoApplied(poslab::DemoId id);
    // Teach ▸ Open a deck… read `deck` from `path` (and made it the teaching deck).
    void deckOpened(const QString& path, const poslab::ui::Session& deck);

private:
    void buildMenu();
    void buildDock();
    void syncTheme();
    // The slide a presentation starts at: `from`, else the slide selected in the open deck list,
    // else the first.
    int firstSlide(int from) const;
    // One screen: the audience's window and the presenter view side by side (rehearsalGeometry).
    void placeSideBySide();

    MainWindow* window_;
    QMenu* menu_ = nullptr;
    QAction* present_ = nullptr;
    std::vector<QAction*> demoActions_;
    QComboBox* chooser_ = nullptr;
    QToolBar* toolbar_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    DemoPanel* demoPanel_ = nullptr;
    FormulaPanel* formulaPanel_ = nullptr;
    WorkedExampleWidget* worked_ = nullptr;
    Animator* animator_ = nullptr;
    AnimationPanel* animationPanel_ = nullptr;
    QPointer<PresentationWindow> presentation_;
    QPointer<PresenterView> presenter_;
    DeckModel* deckModel_ = nullptr;
    DeckPanel* deckPanel_ = nullptr;
    QDockWidget* deckDock_ = nullptr;
    QString themeName_;
    double fontScale_ = 0;
};

// Installs teaching mode into `window` (once; a second call returns the same controller).
TeachingController* installTeaching(MainWindow* window);
// The controller installed into `window`, or nullptr.
TeachingController* teachingOf(MainWindow* window);

}  // namespace poslab::ui
