#pragma once
// The token layout of the scene (issue 30, scene.mrope.tokens) as a small editor, not a raw
// string: one row per entry — text (its number of tokens), image (H × W patches) or video
// (T frames × H × W patches) — with buttons to move it up or down and to remove it, and buttons
// that add a text, image or video entry at the end. Every change is one undoable edit through
// the Scene (spin-box steps of one field merge into one step), and sets the scene's N to the
// layout's token count. Vision entries step by the merge size (which must divide H and W); an
// image or video added right after one of its kind gets a short text entry between them (the
// rule numbers two adjacent ones as one run and fails).
#include "ui/model/scene.h"

#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QSpinBox;
class QToolButton;
class QVBoxLayout;
QT_END_NAMESPACE

namespace poslab::ui {

class TokenLayoutEditor : public QWidget {
    Q_OBJECT
public:
    explicit TokenLayoutEditor(Scene* scene, QWidget* parent = nullptr);
    // Shows the scene's layout (rebuilding the rows only when its entries' kinds changed).
    void refresh();

    // What the buttons do (also for tests).
    void addEntry(TokenKind kind);
    void removeEntry(int row);
    void moveEntry(int row, int delta);
    // Sets field `field` of entry `row`: text 0 = N; vision 0 = T, 1 = H, 2 = W.
    void setField(int row, int field, std::int64_t value);

    int rowCount() const { return static_cast<int>(rows_.size()); }
    // The spin box of a row's field (as setField numbers them), or nullptr.
    QSpinBox* fieldControl(int row, int field) const;
    QPushButton* addButton(TokenKind kind) const;

private:
    struct RowWidgets {
        QWidget* holder = nullptr;
        QLabel* kind = nullptr;
        std::vector<QSpinBox*> fields;
        QLabel* count = nullptr;   // "→ 16 tokens"
        QToolButton *up = nullptr, *down = nullptr, *remove = nullptr;
    };
    TokenLayout layout() const;   // the scene's, parsed (empty when none or unreadable)
    void commit(const QString& text, const QString& field, const TokenLayout& layout);
    void rebuild(const TokenLayout& layout);

    Scene* scene_;
    bool refreshing_ = false;
    QVBoxLayout* rowsLayout_ = nullptr;
    QLabel* hint_ = nullptr;
    std::vector<RowWidgets> rows_;
    std::vector<TokenKind> kinds_;   // what the rows were built for
    QPushButton *addText_ = nullptr, *addImage_ = nullptr, *addVideo_ = nullptr;
};

}  // namespace poslab::ui
