#pragma once
// The window's File menu for sessions and export, recent files, and crash recovery.
//
// SessionActions attaches to a MainWindow: it puts Open session…, Open recent ▸, Save session,
// Save session as…, and Export figure or data… into the File menu (in place of the window's
// own Open/Save-as entries), keeps the current file in the title (with the modified mark), the
// recent list in QSettings, autosaves the open session (autosave.h) and, when a previous run
// crashed or was killed, offers to restore it. Every write is atomic; replacing an existing file
// is asked first.
//
// The open session is a whole deck: every scene with its title and notes, and the current one,
// which is the scene the window shows (each edit of the window's scene is an edit of it). Open,
// save, the autosave and its restore all carry the whole deck; a deck (two scenes or more) is
// also the teaching deck (teaching.h), and a deck opened from the Teach menu becomes the open
// session. A deck authored in the deck panel (deck.h) becomes the open session at its first edit,
// so that save, reopen and the autosave keep it.
#include "ui/io/autosave.h"
#include "ui/io/export.h"

#include <QObject>
#include <QMessageBox>
#include <QPointer>
#include <QStringList>

#include <functional>

QT_BEGIN_NAMESPACE
class QAction;
class QMenu;

QT_END_NAMESPACE

namespace poslab::ui {

class MainWindow;

// Recent session files (QSettings "sessions/recent"), newest first, existing files only.
inline constexpr int kMaxRecentSessions = 10;
QStringList recentSessions();
void addRecentSession(const QString& path);
void removeRecentSession(const QString& path);
void clearRecentSessions();

class SessionActions : public QObject {
    Q_OBJECT
public:
    struct Options {
        bool recentFiles = true;     // read/write the recent list in QSettings
        bool autosave = true;        // autosave and offer restores
        QString autosaveDir;         // empty = Autosave::defaultDirectory()
    };
    SessionActions(MainWindow* window, const Options& options);
    explicit SessionActions(MainWindow* window) : SessionActions(window, Options{}) {}
    ~SessionActions() override;

    // The open session (see above); its current scene is the window's (committed) scene.
    const Session& session() const { return session_; }
    // Replaces the open session: the window shows its current scene (without undo history), a
    // deck becomes the teaching deck, and the autosave holds it.
    void setSession(const Session& session);

    // Opens a session (every scene; the window shows the current one); on failure a message box
    // (or *error when given).
    // Unknown fields are listed in the status bar and a message box.
    bool openFile(const QString& path, QString* error = nullptr);
    // Saves the open session to `path` (atomically); becomes the current file.
    bool saveTo(const QString& path, QString* error = nullptr);
    bool save();        // to the current file, else Save as
    bool saveAs();
    QString currentFile() const { return current_; }

    // The export dialog (view, format, size, DPI, theme, text size, then the file).
    void exportDialog();
    // Exports without dialogs; asks before replacing an existing file unless `confirmed`.
    bool exportTo(const QString& path, const ExportRequest& request, QString* error = nullptr);
    // What the window shows for a view: its size in device pixels and its DPI (96 × the screen's
    // device pixel ratio). For all views: the whole central area.
    ExportRequest windowRequest(std::optional<ViewKind> view, ExportFormat format) const;

    // If a previous run left an autosave, asks (non-modally) whether to restore it.
    void offerRestore();
    QMessageBox* restorePrompt() const { return prompt_; }
    Autosave* autosave() { return autosave_.get(); }

    // Replaces the question "replace the existing file?" (tests).
    void setConfirmReplace(std::function<bool(const QString& path)> ask) { confirmReplace_ = std::move(ask); }

    QAction* openAction() const { return open_; }
    QAction* saveAction() const { return save_; }
    QAction* saveAsAction() const { return saveAs_; }
    QAction* exportAction() const { return export_; }
    QMenu* recentMenu() const { return recent_; }

private:
    void install();
    void rebuildRecent();
    void updateTitle();
    void onSceneChanged();
    void onDeckChanged();
    void autosaveSession();
    void setCurrent(const QString& path);
    bool confirmReplace(const QString& path);

    MainWindow* window_;
    Options options_;
    std::unique_ptr<Autosave> autosave_;
    Session session_;
    QString current_;
    QString baseTitle_;
    bool sessionIsDeck_ = false;   // the session is the teaching deck (deck.h)
    bool adopting_ = false;        // setSession() is putting a session in place
    QAction* open_ = nullptr;
    QAction* save_ = nullptr;
    QAction* saveAs_ = nullptr;
    QAction* export_ = nullptr;
    QMenu* recent_ = nullptr;
    QPointer<QMessageBox> prompt_;
    std::function<bool(const QString&)> confirmReplace_;
};

}  // namespace poslab::ui
