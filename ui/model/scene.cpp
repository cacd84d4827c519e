#include "ui/model/scene.h"

#include <QDateTime>
#include <QHash>
#include <QUndoCommand>

#include <algorithm>

namespace poslab::ui {

namespace {

constexpr qint64 kMergeWindowMs = 1500;

class EditCommand : public QUndoCommand {
public:
    EditCommand(Scene* scene, const QString& text, const QString& field, SceneParams before, SceneParams after)
        : QUndoCommand(text), scene_(scene), field_(field), before_(std::move(before)), after_(std::move(after)),
          run_(scene->mergeRun()), lastMs_(QDateTime::currentMSecsSinceEpoch()) {
        id_ = field.isEmpty() ? -1 : static_cast<int>(qHash(field) & 0x3fffffff);
    }
    void redo() override { scene_->restore(after_); }
    void undo() override { scene_->restore(before_); }
    int id() const override { return id_; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = dynamic_cast<const EditCommand*>(other);
        if (!o || o->field_ != field_ || o->run_ != run_) return false;
        if (o->lastMs_ - lastMs_ > kMergeWindowMs) return false;
        if (!(o->before_ == after_)) return false;
        after_ = o->after_;
        lastMs_ = o->lastMs_;
        if (after_ == before_) setObsolete(true);
        return true;
    }

private:
    Scene* scene_;
    QString field_;
    SceneParams before_, after_;
    int run_;
    qint64 lastMs_;
    int id_;
};

}  // namespace

Scene::Scene(QObject* parent) : QObject(parent) { stack_.setUndoLimit(500); }

void Scene::setParams(const SceneParams& p) {
    stack_.clear();
    ++mergeRun_;
    if (loader_) {
        SceneParams loaded = p;
        loader_(loaded);
        restore(loaded);
        return;
    }
    restore(p);
}

void Scene::restore(const SceneParams& p) {
    params_ = p;
    if (params_.methods.empty()) params_.methods.push_back(MethodConfig{});
    const int clamped = std::clamp(active_, 0, static_cast<int>(params_.methods.size()) - 1);
    const bool activeMoved = clamped != active_;
    active_ = clamped;
    if (activeMoved) Q_EMIT activeConfigChanged(active_);
    if (preview_) shown_ = preview_(params_);
    Q_EMIT changed();
}

void Scene::setPreview(std::function<SceneParams(const SceneParams&)> preview) {
    preview_ = std::move(preview);
    if (preview_) shown_ = preview_(params_);
    Q_EMIT changed();
}

void Scene::clearPreview() {
    if (!preview_) return;
    preview_ = nullptr;
    shown_ = SceneParams{};
    Q_EMIT changed();
}

void Scene::edit(const QString& text, const QString& field, const std::function<void(SceneParams&)>& change) {
    SceneParams next = params_;
    change(next);
    if (next.methods.empty()) return;
    if (loader_) loader_(next);
    if (next == params_) return;
    const QString key = field.isEmpty() ? QString() : field + QLatin1Char('@') + QString::number(active_);
    stack_.push(new EditCommand(this, text, key, params_, std::move(next)));
}

void Scene::editActive(const QString& text, const QString& field, const std::function<void(MethodConfig&)>& change) {
    const int a = activeConfig();
    edit(text, field, [&](SceneParams& p) {
        change(p.methods[static_cast<std::size_t>(a)]);
        p.presetKey.clear();
    });
}

void Scene::apply(const QString& text, const SceneParams& p) {
    ++mergeRun_;
    edit(text, QString(), [&](SceneParams& s) { s = p; });
    ++mergeRun_;
}

int Scene::activeConfig() const { return std::clamp(active_, 0, static_cast<int>(params_.methods.size()) - 1); }

void Scene::setActiveConfig(int index) {
    index = std::clamp(index, 0, static_cast<int>(params_.methods.size()) - 1);
    if (index == active_) return;
    active_ = index;
    ++mergeRun_;
    Q_EMIT activeConfigChanged(active_);
}

void Scene::addConfig() {
    if (static_cast<int>(params_.methods.size()) >= kMaxConfigs) return;
    const int a = activeConfig();
    ++mergeRun_;
    edit(tr("Add comparison"), QString(), [&](SceneParams& p) {
        MethodConfig copy = p.methods[static_cast<std::size_t>(a)];
        copy.label.clear();
        p.methods.push_back(copy);
    });
    setActiveConfig(static_cast<int>(params_.methods.size()) - 1);
}

void Scene::removeConfig(int index) {
    if (params_.methods.size() <= 1 || index < 0 || index >= static_cast<int>(params_.methods.size())) return;
    ++mergeRun_;
    edit(tr("Remove comparison"), QString(),
         [&](SceneParams& p) { p.methods.erase(p.methods.begin() + index); });
    setActiveConfig(std::min(active_, static_cast<int>(params_.methods.size()) - 1));
}

}  // namespace poslab::ui
