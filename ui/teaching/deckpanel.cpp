#include "ui/teaching/deckpanel.h"

#include "core/demonstrations.h"
#include "ui/io/export.h"
#include "ui/teaching/deck.h"
#include "ui/teaching/demoscenes.h"
#include "ui/teaching/demotext.h"

#include <QAbstractItemModel>
#include <QKeyEvent>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace poslab::ui {

QString slideArrangementTitle(SlideArrangement a) {
    switch (a) {
    case SlideArrangement::Auto: return DeckPanel::tr("As the scene shows them");
    case SlideArrangement::Single: return DeckPanel::tr("One view, full size");
    case SlideArrangement::SideBySide: return DeckPanel::tr("Two views side by side");
    case SlideArrangement::Grid: return DeckPanel::tr("Up to four views, 2×2 grid");
    case SlideArrangement::Demo: return DeckPanel::tr("A demonstration: views and its numbers");
    }
    return {};
}

namespace {

QString rowText(int i, const SessionScene& s) {
    const QString t = s.title.isEmpty() ? DeckPanel::tr("(untitled)") : s.title;
    return QStringLiteral("%1   %2").arg(i + 1, 2).arg(t);
}

// The four views, the scene's shown ones first.
std::vector<ViewKind> orderedViews(const SceneParams& scene) {
    std::vector<ViewKind> v = visibleViews(scene);
    for (ViewKind k : kAllViews)
        if (std::find(v.begin(), v.end(), k) == v.end()) v.push_back(k);
    return v;
}

// The views an arrangement starts with: the scene's shown ones first, then the others.
std::vector<ViewKind> defaultViews(SlideArrangement a, const SceneParams& scene) {
    std::vector<ViewKind> v = orderedViews(scene);
    const auto [lo, hi] = slideViewCount(a);
    if (a == SlideArrangement::Demo) return {};
    const int shown = int(visibleViews(scene).size());
    v.resize(std::size_t(std::clamp(shown, lo, hi)));
    return v;
}

}  // namespace

DeckPanel::DeckPanel(DeckModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setObjectName(QStringLiteral("deckPanel"));
    auto* outer = new QVBoxLayout(this);
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("deckList"));
    list_->setDragDropMode(QAbstractItemView::InternalMove);
    list_->setDefaultDropAction(Qt::MoveAction);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->setToolTip(tr("The slides in the order they are presented; drag a slide to move it"));
    outer->addWidget(list_, 3);

    auto* buttons = new QHBoxLayout;
    auto button = [&](QPushButton*& b, const QString& text, const QString& name, const QString& tip) {
        b = new QPushButton(text, this);
        b->setObjectName(name);
        b->setToolTip(tip);
        buttons->addWidget(b);
    };
    button(up_, tr("Up"), QStringLiteral("deckUp"), tr("Move the slide one place earlier"));
    button(down_, tr("Down"), QStringLiteral("deckDown"), tr("Move the slide one place later"));
    button(duplicate_, tr("Duplicate"), QStringLiteral("deckDuplicate"), tr("A copy of the slide after it"));
    button(delete_, tr("Delete"), QStringLiteral("deckDelete"), tr("Remove the slide (Edit ▸ Undo brings it back)"));
    outer->addLayout(buttons);
    auto* buttons2 = new QHBoxLayout;
    add_ = new QPushButton(tr("Add this scene"), this);
    add_->setObjectName(QStringLiteral("deckAdd"));
    add_->setToolTip(tr("The window's scene as a new slide at the end"));
    present_ = new QPushButton(tr("Present from here"), this);
    present_->setObjectName(QStringLiteral("deckPresent"));
    present_->setToolTip(tr("Presentation mode from the selected slide (F5 starts at the current one)"));
    buttons2->addWidget(add_);
    buttons2->addWidget(present_);
    outer->addLayout(buttons2);

    auto* form = new QFormLayout;
    title_ = new QLineEdit(this);
    title_->setObjectName(QStringLiteral("deckTitle"));
    title_->setMaxLength(200);
    title_->setToolTip(tr("The slide's title, shown at the top of the slide (up to 200 characters)"));
    form->addRow(tr("&Title"), title_);
    arrangement_ = new QComboBox(this);
    arrangement_->setObjectName(QStringLiteral("deckArrangement"));
    for (SlideArrangement a : kAllSlideArrangements) arrangement_->addItem(slideArrangementTitle(a), int(a));
    arrangement_->setToolTip(tr("How the slide arranges its views"));
    form->addRow(tr("&Shows"), arrangement_);
    // The combos size to a short text, not their longest item, and the four views sit in a 2×2
    // grid like the slide: the dock stays narrow enough for a 1280-pixel screen.
    const auto narrow = [](QComboBox* c) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(10);
    };
    narrow(arrangement_);
    auto* viewsRow = new QWidget(this);
    auto* vl = new QGridLayout(viewsRow);
    vl->setContentsMargins(0, 0, 0, 0);
    for (int k = 0; k < 4; ++k) {
        views_[k] = new QComboBox(viewsRow);
        views_[k]->setObjectName(QStringLiteral("deckView%1").arg(k + 1));
        views_[k]->addItem(tr("—"), -1);
        for (ViewKind v : kAllViews) views_[k]->addItem(viewTitle(v), int(v));
        views_[k]->setToolTip(tr("View %1 of the slide (left to right, then top to bottom)").arg(k + 1));
        narrow(views_[k]);
        vl->addWidget(views_[k], k / 2, k % 2);
        connect(views_[k], &QComboBox::activated, this, &DeckPanel::layoutEdited);
    }
    viewsLabel_ = new QLabel(tr("&Views"), this);
    viewsLabel_->setBuddy(views_[0]);
    form->addRow(viewsLabel_, viewsRow);
    demo_ = new QComboBox(this);
    demo_->setObjectName(QStringLiteral("deckDemo"));
    demo_->addItem(tr("The formula sheet of the method"), QString());
    for (const auto& d : demonstrations()) demo_->addItem(demoTitle(d.id), QString::fromStdString(d.key));
    narrow(demo_);
    demo_->setToolTip(tr("Whose numbers the column beside the views shows"));
    demoLabel_ = new QLabel(tr("&Numbers"), this);
    demoLabel_->setBuddy(demo_);
    form->addRow(demoLabel_, demo_);
    notes_ = new QPlainTextEdit(this);
    notes_->setObjectName(QStringLiteral("deckNotes"));
    notes_->setPlaceholderText(tr("Speaker notes: only you see them (N in presentation mode)"));
    notes_->setToolTip(tr("Speaker notes, never shown to the audience; N shows them on the presenter's screen"));
    form->addRow(tr("N&otes"), notes_);
    outer->addLayout(form, 2);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("deckStatus"));
    status_->setWordWrap(true);
    outer->addWidget(status_);

    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (updating_ || row < 0) return;
        selected_ = row;
        if (model_->isSession()) model_->openSlide(row);
        showSlide();
    });
    connect(list_->model(), &QAbstractItemModel::rowsMoved, this,
            [this](const QModelIndex&, int start, int, const QModelIndex&, int row) {
                if (updating_) return;
                rowsMoved(start, row > start ? row - 1 : row);
            });
    connect(up_, &QPushButton::clicked, this, [this] {
        if (selected_ > 0) rowsMoved(selected_, selected_ - 1);
    });
    connect(down_, &QPushButton::clicked, this, [this] {
        if (selected_ + 1 < model_->count()) rowsMoved(selected_, selected_ + 1);
    });
    // The model makes the copy current (and a deleted slide's successor); the panel follows.
    connect(duplicate_, &QPushButton::clicked, this, [this] {
        const int i = selected_;
        model_->duplicateSlide(i);
        selected_ = i + 1;
        refresh();
    });
    connect(delete_, &QPushButton::clicked, this, [this] {
        const int i = selected_;
        model_->removeSlide(i);
        selected_ = std::min(i, model_->count() - 1);
        refresh();
    });
    // Delete (or Backspace) in the list removes the selected slide, as the Delete button does.
    list_->installEventFilter(this);
    connect(add_, &QPushButton::clicked, this, &DeckPanel::addSceneRequested);
    connect(present_, &QPushButton::clicked, this, [this] { Q_EMIT presentRequested(selected_); });
    connect(title_, &QLineEdit::textEdited, this, [this](const QString& t) { model_->setTitle(selected_, t); });
    connect(notes_, &QPlainTextEdit::textChanged, this, [this] {
        if (!updating_) model_->setNotes(selected_, notes_->toPlainText());
    });
    connect(arrangement_, &QComboBox::activated, this, &DeckPanel::layoutEdited);
    connect(demo_, &QComboBox::activated, this, &DeckPanel::layoutEdited);
    connect(model_, &DeckModel::changed, this, &DeckPanel::refresh);
    refresh();
}

bool DeckPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == list_ && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Delete || key->key() == Qt::Key_Backspace) && key->modifiers() == Qt::NoModifier) {
            if (delete_->isEnabled()) delete_->click();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void DeckPanel::select(int index) {
    if (index < 0 || index >= model_->count()) return;
    selected_ = index;
    if (model_->isSession()) model_->openSlide(index);
    refresh();
}

void DeckPanel::focusTitle() {
    title_->setFocus();
    title_->selectAll();
}

void DeckPanel::rowsMoved(int from, int to) {
    model_->moveSlide(from, to);
    selected_ = std::clamp(to, 0, model_->count() - 1);
    refresh();
}

void DeckPanel::refresh() {
    updating_ = true;
    const Session& d = model_->deck();
    if (model_->isSession()) selected_ = d.current;
    selected_ = std::clamp(selected_, 0, model_->count() - 1);
    // Rows: rebuilt only where the text changed (a drag in the window updates the deck often).
    while (list_->count() > model_->count()) delete list_->takeItem(list_->count() - 1);
    for (int i = 0; i < model_->count(); ++i) {
        const SessionScene& s = model_->slide(i);
        const QString text = rowText(i, s);
        if (i >= list_->count()) list_->addItem(text);
        QListWidgetItem* item = list_->item(i);
        if (item->text() != text) item->setText(text);
        const QString tip = slideArrangementTitle(s.slide.arrangement);
        if (item->toolTip() != tip) item->setToolTip(tip);
    }
    if (list_->currentRow() != selected_) list_->setCurrentRow(selected_);
    up_->setEnabled(selected_ > 0);
    down_->setEnabled(selected_ + 1 < model_->count());
    delete_->setEnabled(model_->count() > 1);
    status_->setText(model_->isSession()
                         ? tr("%n slide(s). The deck is saved with the session; the window shows slide %1.", nullptr, model_->count())
                               .arg(d.current + 1)
                         : tr("%n slide(s): the default lecture. Your first change makes it part of the session.", nullptr, model_->count()));
    updating_ = false;
    showSlide();
}

void DeckPanel::showSlide() {
    updating_ = true;
    const SessionScene& s = model_->slide(selected_);
    if (title_->text() != s.title) title_->setText(s.title);
    if (notes_->toPlainText() != s.notes) notes_->setPlainText(s.notes);
    arrangement_->setCurrentIndex(arrangement_->findData(int(s.slide.arrangement)));
    const auto [lo, hi] = slideViewCount(s.slide.arrangement);
    for (int k = 0; k < 4; ++k) {
        views_[k]->setVisible(k < hi);
        const int kind = k < int(s.slide.views.size()) ? int(s.slide.views[std::size_t(k)]) : -1;
        views_[k]->setCurrentIndex(views_[k]->findData(kind));
    }
    viewsLabel_->setVisible(hi > 0);
    const bool demo = s.slide.arrangement == SlideArrangement::Demo;
    demo_->setVisible(demo);
    demoLabel_->setVisible(demo);
    demo_->setCurrentIndex(std::max(0, demo_->findData(s.slide.demo)));
    updating_ = false;
}

void DeckPanel::layoutEdited() {
    if (updating_) return;
    const SessionScene& s = model_->slide(selected_);
    SlideLayout l;
    l.arrangement = SlideArrangement(arrangement_->currentData().toInt());
    if (l.arrangement != s.slide.arrangement) {
        l.views = defaultViews(l.arrangement, s.scene);
        if (l.arrangement == SlideArrangement::Demo)
            if (auto id = demoOfSlide(s)) l.demo = QString::fromStdString(demoInfo(*id).key);
    } else {
        const auto [lo, hi] = slideViewCount(l.arrangement);
        for (int k = 0; k < hi; ++k) {
            const int kind = views_[k]->currentData().toInt();
            if (kind < 0) continue;
            if (std::find(l.views.begin(), l.views.end(), ViewKind(kind)) == l.views.end()) l.views.push_back(ViewKind(kind));
        }
        // Too few: the rest from the defaults.
        for (ViewKind v : orderedViews(s.scene))
            if (int(l.views.size()) < lo && std::find(l.views.begin(), l.views.end(), v) == l.views.end()) l.views.push_back(v);
        if (l.arrangement == SlideArrangement::Demo) l.demo = demo_->currentData().toString();
    }
    model_->setLayout(selected_, l);
    refresh();
}

}  // namespace poslab::ui
