#include "ui/io/autosave.h"

#include "ui/io/atomicfile.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>

namespace poslab::ui {

namespace {

constexpr int kMaxSlots = 64;

QString slotName(int n, const char* suffix) { return QStringLiteral("autosave-%1.%2").arg(n).arg(QLatin1String(suffix)); }

std::unique_ptr<QLockFile> makeLock(const QString& path) {
    auto lock = std::make_unique<QLockFile>(path);
    // Held for the whole run, possibly for days: stale only when its process is gone, never by age.
    lock->setStaleLockTime(0);
    return lock;
}

}  // namespace

Autosave::Autosave(const QString& dir, QObject* parent)
    : QObject(parent), dir_(dir.isEmpty() ? defaultDirectory() : dir) {
    quiet_.setSingleShot(true);
    longest_.setSingleShot(true);
    setDelays(2000, 30000);
    connect(&quiet_, &QTimer::timeout, this, [this] { saveNow(); });
    connect(&longest_, &QTimer::timeout, this, [this] { saveNow(); });
}

Autosave::~Autosave() = default;   // the lock is released; the autosave file stays unless finish()ed

QString Autosave::defaultDirectory() {
    QString base = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (base.isEmpty()) base = QDir::homePath() + QStringLiteral("/.poslab");
    return base + QStringLiteral("/autosave");
}

void Autosave::setDelays(int delayMs, int maxDelayMs) {
    quiet_.setInterval(std::max(0, delayMs));
    longest_.setInterval(std::max(delayMs, maxDelayMs));
}

bool Autosave::start(QString* error) {
    if (lock_) return true;
    if (!QDir().mkpath(dir_)) {
        if (error) *error = tr("cannot create the autosave directory %1").arg(QDir::toNativeSeparators(dir_));
        return false;
    }
    const QDir d(dir_);
    for (int n = 0; n < kMaxSlots; ++n) {
        // A slot whose autosave is a leftover of a crashed run is kept for the restore offer.
        if (QFileInfo::exists(d.filePath(slotName(n, "poslab")))) continue;
        auto lock = makeLock(d.filePath(slotName(n, "lock")));
        if (!lock->tryLock(0)) continue;
        // Re-check under the lock (another run may have just written into this slot).
        if (QFileInfo::exists(d.filePath(slotName(n, "poslab")))) {
            lock->unlock();
            continue;
        }
        lock_ = std::move(lock);
        file_ = d.filePath(slotName(n, "poslab"));
        return true;
    }
    if (error) *error = tr("no free autosave slot in %1").arg(QDir::toNativeSeparators(dir_));
    return false;
}

std::vector<Autosave::Leftover> Autosave::leftovers(QStringList* problems) const {
    std::vector<Leftover> out;
    const QDir d(dir_);
    static const QRegularExpression name(QStringLiteral("^autosave-(\\d+)\\.poslab$"));
    for (const QFileInfo& fi : d.entryInfoList({QStringLiteral("autosave-*.poslab")}, QDir::Files, QDir::Name)) {
        const auto m = name.match(fi.fileName());
        if (!m.hasMatch()) continue;
        if (fi.absoluteFilePath() == QFileInfo(file_).absoluteFilePath() && lock_) continue;   // ours
        // Left over only if no running PosLab holds its lock.
        auto lock = makeLock(d.filePath(QStringLiteral("autosave-%1.lock").arg(m.captured(1))));
        if (!lock->tryLock(0)) continue;
        lock->unlock();
        QString error;
        auto session = loadSessionFile(fi.absoluteFilePath(), &error);
        if (!session) {
            if (problems) problems->append(error);
            continue;
        }
        out.push_back(Leftover{fi.absoluteFilePath(), fi.lastModified(), std::move(*session)});
    }
    std::sort(out.begin(), out.end(), [](const Leftover& a, const Leftover& b) { return a.saved > b.saved; });
    return out;
}

void Autosave::discard(const Leftover& leftover) { QFile::remove(leftover.path); }

void Autosave::setSession(const Session& session) {
    if (dirty_ && session == session_) return;
    session_ = session;
    dirty_ = true;
    quiet_.start();
    if (!longest_.isActive()) longest_.start();
}

void Autosave::setScene(const SceneParams& scene) {
    Session s;
    s.scenes = {SessionScene{QString(), QString(), scene, {}}};
    s.current = 0;
    setSession(s);
}

bool Autosave::saveNow() {
    quiet_.stop();
    longest_.stop();
    if (!dirty_) return true;
    if (!lock_) {
        QString error;
        if (!start(&error)) {
            Q_EMIT failed(error);
            return false;
        }
    }
    QString error;
    if (!saveSessionFile(file_, session_, &error)) {
        Q_EMIT failed(error);
        return false;
    }
    dirty_ = false;
    Q_EMIT saved(file_);
    return true;
}

void Autosave::finish() {
    quiet_.stop();
    longest_.stop();
    dirty_ = false;
    if (!lock_) return;
    QFile::remove(file_);
    lock_->unlock();
    lock_.reset();
}

}  // namespace poslab::ui
