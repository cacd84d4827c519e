#include "ui/teaching/deck.h"

#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>

namespace poslab::ui {

namespace {

bool sameState(const DeckModel::State& a, const DeckModel::State& b) {
    return a.deck == b.deck && a.isSession == b.isSession && a.window == b.window;
}

class DeckCommand : public QUndoCommand {
public:
    DeckCommand(DeckModel* model, const QString& text, QString mergeKey, DeckModel::State before, DeckModel::State after)
        : QUndoCommand(text), model_(model), key_(std::move(mergeKey)), before_(std::move(before)), after_(std::move(after)) {}
    void redo() override { model_->restore(after_); }
    void undo() override { model_->restore(before_); }
    int id() const override { return key_.isEmpty() ? -1 : 0x5e5e; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = dynamic_cast<const DeckCommand*>(other);
        if (!o || o->key_ != key_ || !sameState(o->before_, after_)) return false;
        after_ = o->after_;
        if (sameState(after_, before_)) setObsolete(true);
        return true;
    }

private:
    DeckModel* model_;
    QString key_;
    DeckModel::State before_, after_;
};

}  // namespace

SceneParams withLook(SceneParams scene, const SceneParams& look) {
    scene.view.theme = look.view.theme;
    scene.view.fontScale = look.view.fontScale;
    return scene;
}

QString copyTitle(const QString& title) {
    return title.isEmpty() ? DeckModel::tr("(copy)") : DeckModel::tr("%1 (copy)").arg(title);
}

DeckModel::DeckModel(Scene* scene, const Session& deck, QObject* parent) : QObject(parent), scene_(scene) {
    reset(deck, false);
    connect(scene_, &Scene::changed, this, &DeckModel::onSceneChanged);
}

void DeckModel::reset(const Session& deck, bool isSession) {
    deck_ = deck;
    if (deck_.scenes.empty()) deck_.scenes.push_back(SessionScene{});
    deck_.current = std::clamp(deck_.current, 0, count() - 1);
    isSession_ = isSession;
    Q_EMIT changed();
}

void DeckModel::onSceneChanged() {
    if (!isSession_ || restoring_) return;
    SceneParams& slot = deck_.scenes.at(std::size_t(deck_.current)).scene;
    if (slot == scene_->committed()) return;
    slot = scene_->committed();
    Q_EMIT changed();
}

DeckModel::State DeckModel::state() const { return State{deck_, isSession_, scene_->committed()}; }

void DeckModel::restore(const State& s) {
    restoring_ = true;
    deck_ = s.deck;
    isSession_ = s.isSession;
    if (!(scene_->committed() == s.window)) scene_->restore(s.window);
    restoring_ = false;
    Q_EMIT changed();
}

void DeckModel::edit(const QString& text, const QString& mergeKey, const std::function<void(Session&)>& change) {
    const State before = state();
    State after = before;
    change(after.deck);
    if (after.deck.scenes.empty()) return;
    after.deck.current = std::clamp(after.deck.current, 0, int(after.deck.scenes.size()) - 1);
    after.isSession = true;
    // The slide in the window, in the window's own theme and text size.
    after.window = withLook(after.deck.scenes.at(std::size_t(after.deck.current)).scene, before.window);
    if (sameState(before, after)) return;
    scene_->finishMerge();   // the next edit in the window is a step of its own
    scene_->undoStack()->push(new DeckCommand(this, text, mergeKey, before, after));
}

int DeckModel::addSlide(const SessionScene& slide, int at) {
    if (count() >= kMaxSessionScenes) return -1;
    const int index = at < 0 || at > count() ? count() : at;
    edit(tr("Add slide %1").arg(index + 1), {}, [&](Session& d) {
        d.scenes.insert(d.scenes.begin() + index, slide);
        d.current = index;
    });
    return index;
}

int DeckModel::addWindowScene(const QString& title) {
    SessionScene s;
    s.title = title;
    s.scene = scene_->committed();
    return addSlide(s, -1);
}

void DeckModel::moveSlide(int from, int to) {
    if (from < 0 || from >= count() || to < 0 || to >= count() || from == to) return;
    edit(tr("Move slide %1 to %2").arg(from + 1).arg(to + 1), {}, [&](Session& d) {
        const int cur = d.current;
        SessionScene s = d.scenes[std::size_t(from)];
        d.scenes.erase(d.scenes.begin() + from);
        d.scenes.insert(d.scenes.begin() + to, s);
        // The current slide stays the same slide.
        if (cur == from) d.current = to;
        else if (from < cur && to >= cur) d.current = cur - 1;
        else if (from > cur && to <= cur) d.current = cur + 1;
    });
}

void DeckModel::duplicateSlide(int i) {
    if (i < 0 || i >= count() || count() >= kMaxSessionScenes) return;
    edit(tr("Duplicate slide %1").arg(i + 1), {}, [&](Session& d) {
        SessionScene copy = d.scenes[std::size_t(i)];
        copy.title = copyTitle(copy.title);
        d.scenes.insert(d.scenes.begin() + i + 1, copy);
        d.current = i + 1;
    });
}

void DeckModel::removeSlide(int i) {
    if (i < 0 || i >= count() || count() <= 1) return;
    edit(tr("Delete slide %1").arg(i + 1), {}, [&](Session& d) {
        d.scenes.erase(d.scenes.begin() + i);
        // The slide that took its place (the one before it, at the end) is current: the
        // selection stays where it was.
        d.current = std::min(i, int(d.scenes.size()) - 1);
    });
}

void DeckModel::setTitle(int i, const QString& title) {
    if (i < 0 || i >= count() || slide(i).title == title) return;
    edit(tr("Retitle slide %1").arg(i + 1), QStringLiteral("title:%1").arg(i), [&](Session& d) {
        d.scenes[std::size_t(i)].title = title;
        if (!isSession_) d.current = i;
    });
}

void DeckModel::setNotes(int i, const QString& notes) {
    if (i < 0 || i >= count() || slide(i).notes == notes) return;
    edit(tr("Speaker notes of slide %1").arg(i + 1), QStringLiteral("notes:%1").arg(i), [&](Session& d) {
        d.scenes[std::size_t(i)].notes = notes;
        if (!isSession_) d.current = i;
    });
}

void DeckModel::setLayout(int i, const SlideLayout& layout) {
    if (i < 0 || i >= count() || slide(i).slide == layout) return;
    edit(tr("Arrange slide %1").arg(i + 1), {}, [&](Session& d) {
        d.scenes[std::size_t(i)].slide = layout;
        if (!isSession_) d.current = i;
    });
}

void DeckModel::openSlide(int i) {
    if (i < 0 || i >= count() || (isSession_ && i == current())) return;
    edit(tr("Show slide %1").arg(i + 1), QStringLiteral("open"), [&](Session& d) { d.current = i; });
}

void DeckModel::resetToLecture(const Session& lecture) {
    const State before = state();
    State after{lecture, false, scene_->committed()};
    if (after.deck.scenes.empty()) return;
    after.deck.current = std::clamp(after.deck.current, 0, int(after.deck.scenes.size()) - 1);
    if (sameState(before, after)) return;
    scene_->finishMerge();
    scene_->undoStack()->push(new DeckCommand(this, tr("Reset the deck to the lecture"), {}, before, after));
}

}  // namespace poslab::ui
