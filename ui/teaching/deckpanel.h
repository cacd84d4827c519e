#pragma once
// The deck panel (Teach ▸ Edit the deck…, a dock): the slides of the teaching deck in order, and
// for the selected slide its title, how it arranges its views and its speaker notes.
//   list        one row per slide ("3  T5: buckets"); drag a row to move the slide
//   buttons     Up, Down, Duplicate, Delete (or the Delete key in the list), Add this scene, Present from here
//   Title       the slide's title
//   Shows       Auto (the scene's shown views) | One view full size | Two views side by side |
//               2×2 grid | A demonstration (views + its numbers); then which views, in order, and
//               for a demonstration which one's numbers
//   Notes       speaker notes: only the presenter sees them (N in presentation mode)
// Every change goes through the DeckModel (deck.h): one undo step each. While the deck is the
// open session, selecting a slide shows it in the window.
#include "ui/io/session.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
QT_END_NAMESPACE

namespace poslab::ui {

class DeckModel;

class DeckPanel : public QWidget {
    Q_OBJECT
public:
    DeckPanel(DeckModel* model, QWidget* parent = nullptr);

    int selected() const { return selected_; }
    void select(int index);
    // Puts the cursor in the title field with its text selected (after "Add this scene").
    void focusTitle();

    QListWidget* list() const { return list_; }
    QLineEdit* titleEdit() const { return title_; }
    QPlainTextEdit* notesEdit() const { return notes_; }
    QComboBox* arrangementBox() const { return arrangement_; }
    QComboBox* viewBox(int slot) const { return views_[slot]; }
    QComboBox* demoBox() const { return demo_; }
    QPushButton* upButton() const { return up_; }
    QPushButton* downButton() const { return down_; }
    QPushButton* duplicateButton() const { return duplicate_; }
    QPushButton* deleteButton() const { return delete_; }
    QPushButton* addButton() const { return add_; }
    QPushButton* presentButton() const { return present_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

Q_SIGNALS:
    void addSceneRequested();
    void presentRequested(int index);

private:
    void refresh();
    void showSlide();
    void layoutEdited();
    void rowsMoved(int from, int to);

    DeckModel* model_;
    int selected_ = 0;
    bool updating_ = false;
    QListWidget* list_ = nullptr;
    QLineEdit* title_ = nullptr;
    QPlainTextEdit* notes_ = nullptr;
    QComboBox* arrangement_ = nullptr;
    QComboBox* views_[4] = {};
    QLabel* viewsLabel_ = nullptr;
    QComboBox* demo_ = nullptr;
    QLabel* demoLabel_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton *up_ = nullptr, *down_ = nullptr, *duplicate_ = nullptr, *delete_ = nullptr, *add_ = nullptr, *present_ = nullptr;
};

// Names for people: "One view full size", ...
QString slideArrangementTitle(SlideArrangement a);

}  // namespace poslab::ui
