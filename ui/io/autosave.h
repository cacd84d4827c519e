#pragma once
// Autosave and crash recovery.
//
// Every running PosLab window owns one slot in the autosave directory
// (QStandardPaths::AppDataLocation/autosave): a lock file "autosave-N.lock" held for the whole
// run (QLockFile: it names the process, so a lock whose process is gone is recognised as
// stale) and the scene "autosave-N.poslab", written atomically shortly after each change
// (debounced) and periodically while changes keep coming. A clean exit (finish(), called on
// QCoreApplication::aboutToQuit) removes both. So an autosave file whose lock is not held by a
// running PosLab was left by one that crashed or was killed: leftovers() lists those, and the
// window offers to restore the newest (sessionactions.h). Several windows at once each have
// their own slot and never see each other's autosave as a leftover.
#include "ui/io/session.h"

#include <QDateTime>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <vector>

namespace poslab::ui {

class Autosave : public QObject {
    Q_OBJECT
public:
    // `dir` empty = defaultDirectory().
    explicit Autosave(const QString& dir = QString(), QObject* parent = nullptr);
    ~Autosave() override;   // keeps the files unless finish() was called (a crash keeps them too)

    static QString defaultDirectory();
    QString directory() const { return dir_; }

    struct Leftover {
        QString path;          // the autosave file
        QDateTime saved;       // when it was written
        Session session;
    };
    // Autosaves left by PosLab runs that did not exit cleanly, newest first. Files that cannot be
    // read as sessions are reported in *problems (if given) and skipped.
    std::vector<Leftover> leftovers(QStringList* problems = nullptr) const;
    // Removes a leftover (after it was restored or declined).
    static void discard(const Leftover& leftover);

    // Takes a slot; false (with *error) if the directory cannot be created or no slot is free.
    bool start(QString* error = nullptr);
    bool started() const { return lock_ != nullptr; }
    QString filePath() const { return file_; }

    // The scene to protect: written after `delay` ms of quiet, and at least every `maxDelay` ms
    // while changes keep coming.
    void setSession(const Session& session);
    void setScene(const SceneParams& scene);
    void setDelays(int delayMs, int maxDelayMs);
    // Writes now if there is something unsaved. False (and failed()) on a write error.
    bool saveNow();
    bool pending() const { return dirty_; }

    // Clean exit: removes this run's autosave and releases the slot.
    void finish();

Q_SIGNALS:
    void saved(const QString& path);
    void failed(const QString& error);

private:
    QString dir_;
    QString file_;
    std::unique_ptr<QLockFile> lock_;
    Session session_;
    bool dirty_ = false;
    QTimer quiet_, longest_;
};

}  // namespace poslab::ui
