#pragma once
// Scene: the one front door for every edit of the SceneParams the window shows.
// Each edit is a QUndoCommand on undoStack(); consecutive edits of the same field of the same
// configuration (a slider drag, spin-box arrows) merge into one undo step until finishMerge()
// is called (slider released, editing finished) or 1.5 s pass. After every change — edit, undo,
// redo, setParams, preview — the Scene emits `changed` exactly once.
#include "ui/model/sceneparams.h"

#include <QElapsedTimer>
#include <QObject>
#include <QUndoStack>

#include <functional>

namespace poslab::ui {

class Scene : public QObject {
    Q_OBJECT
public:
    explicit Scene(QObject* parent = nullptr);

    // What the window shows: the scene, or its preview while there is one.
    const SceneParams& params() const { return preview_ ? shown_ : params_; }
    // The scene itself, without a preview: what edits, undo, sessions and the autosave hold.
    const SceneParams& committed() const { return params_; }
    QUndoStack* undoStack() { return &stack_; }

    // A transient look at a variant of the scene (an animation frame): while set, params() is
    // preview(committed()), recomputed after every change. Edits, undo and redo apply to the
    // committed scene; nothing of the preview reaches the undo stack. clearPreview() shows the
    // committed scene again. Each call emits `changed` once.
    void setPreview(std::function<SceneParams(const SceneParams&)> preview);
    void clearPreview();
    bool previewing() const { return bool(preview_); }

    // Replaces the whole scene (loading a session, the last scene at start-up) and clears the
    // undo history.
    void setParams(const SceneParams& p);

    // Called on every new value before it is stored (setParams, edit): the window sets
    // ui/io/qkfile.h refreshQk, so the query/key files a scene names are loaded (or their error
    // kept) whichever way the scene arrives — a session, the autosave, a slide, an edit of the head.
    void setLoader(std::function<void(SceneParams&)> loader) { loader_ = std::move(loader); }

    // An undoable edit: `change` modifies a copy of the scene; nothing happens if it is
    // unchanged. `field` names what is edited ("dim", "rope.base", ...): consecutive edits with
    // the same non-empty field merge. `text` is what Edit ▸ Undo shows.
    void edit(const QString& text, const QString& field, const std::function<void(SceneParams&)>& change);
    // Same, for the configuration the panel edits (activeConfig()).
    void editActive(const QString& text, const QString& field, const std::function<void(MethodConfig&)>& change);
    // A whole new value as one undoable step (presets, "reset to default").
    void apply(const QString& text, const SceneParams& p);

    // Ends the current merge run: the next edit starts a new undo step.
    void finishMerge() { ++mergeRun_; }

    // The configuration the panel edits (0 .. methods−1). Not part of the value; not undoable.
    int activeConfig() const;
    void setActiveConfig(int index);

    // Compare mode helpers (undoable): duplicate the active configuration / remove one.
    void addConfig();
    void removeConfig(int index);

    // Used by the undo commands.
    void restore(const SceneParams& p);
    int mergeRun() const { return mergeRun_; }

Q_SIGNALS:
    void changed();
    void activeConfigChanged(int index);

private:
    SceneParams params_;
    std::function<SceneParams(const SceneParams&)> preview_;
    std::function<void(SceneParams&)> loader_;
    SceneParams shown_;   // preview_(params_) while previewing
    QUndoStack stack_;
    int active_ = 0;
    int mergeRun_ = 0;
};

}  // namespace poslab::ui
