#pragma once
// The teaching deck and its authoring operations.
//
// A DeckModel holds the deck (a Session: slides = scenes with title, speaker notes and view
// arrangement, ui/io/session.h) and whether it is the open session:
//   * not the session (the start: the default lecture, demoDeck()): the window's scene is its own;
//     presenting steps through the deck.
//   * the session (after the first authoring edit, or when a deck is opened or restored): the
//     current slide IS the window's scene — an edit in the window edits that slide, and showing
//     another slide (openSlide) puts its scene in the window. Showing a slide keeps the window's
//     own theme and text size (withLook): a click in the deck list does not restyle the explorer. Save, autosave and restore carry the
//     whole deck (sessionactions.h).
// Every authoring operation is one step on the scene's undo stack (Edit ▸ Undo), and undoing it
// restores the deck, whether it was the session, and the window's scene as they were. Title and
// notes typed into the same slide merge into one step.
#include "ui/model/scene.h"
#include "ui/io/session.h"

#include <QObject>

#include <functional>

namespace poslab::ui {

// `scene` in the look (theme and text size) of `look`: a slide shown in the window keeps the
// window's look.
SceneParams withLook(SceneParams scene, const SceneParams& look);

// The title of a duplicate: "<title> (copy)".
QString copyTitle(const QString& title);

class DeckModel : public QObject {
    Q_OBJECT
public:
    // The deck starts as `deck`, not the session.
    DeckModel(Scene* scene, const Session& deck, QObject* parent = nullptr);

    const Session& deck() const { return deck_; }
    int count() const { return int(deck_.scenes.size()); }
    int current() const { return deck_.current; }
    const SessionScene& slide(int i) const { return deck_.scenes.at(std::size_t(i)); }
    bool isSession() const { return isSession_; }

    // Replaces the deck without an undo step (opening a file, a restore). `isSession` = its current
    // slide is (from now on) the window's scene; the caller puts that scene in the window.
    void reset(const Session& deck, bool isSession);

    // ---- Authoring; each is one undo step and makes the deck the session. Indices out of range
    // do nothing.
    // Inserts `slide` at `at` (−1 = the end) and makes it current; returns its index.
    int addSlide(const SessionScene& slide, int at = -1);
    // Adds the window's scene (titled `title`) after the last slide, current.
    int addWindowScene(const QString& title);
    void moveSlide(int from, int to);
    void duplicateSlide(int i);          // the copy ("<title> (copy)") goes after it and becomes current
    void removeSlide(int i);             // never the last slide; the slide now at i (else i − 1) becomes current
    void setTitle(int i, const QString& title);
    void setNotes(int i, const QString& notes);
    void setLayout(int i, const SlideLayout& layout);
    // Shows slide i in the window (its scene becomes the window's).
    void openSlide(int i);
    // The default lecture again (the deck is no longer the session; the window keeps its scene).
    void resetToLecture(const Session& lecture);

    // Used by the undo command.
    struct State {
        Session deck;
        bool isSession = false;
        SceneParams window;
    };
    State state() const;
    void restore(const State& s);

Q_SIGNALS:
    // Anything changed: an edit, undo or redo of one, a reset, or the current slide's scene.
    void changed();

private:
    void edit(const QString& text, const QString& mergeKey, const std::function<void(Session&)>& change);
    void onSceneChanged();

    Scene* scene_;
    Session deck_;
    bool isSession_ = false;
    bool restoring_ = false;
};

}  // namespace poslab::ui
