#include "ui/io/hfsnapshot.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace poslab::ui {

namespace {
// The words people read about model configs (errors, reports), translated in the context "ModelConfig"
// (Q_DECLARE_TR_FUNCTIONS: lupdate extracts them, and ModelConfig::tr works off the GUI thread).
struct ModelConfig {
    Q_DECLARE_TR_FUNCTIONS(ModelConfig)
};
}  // namespace

namespace {

QString configIn(const QDir& d) {
    const QString f = d.filePath(QStringLiteral("config.json"));
    return QFileInfo(f).isFile() ? f : QString();
}

// A cache folder's snapshot: the one refs/main names, else the only one.
QString fromCache(const QDir& cache, QString* error) {
    const QDir snapshots(cache.filePath(QStringLiteral("snapshots")));
    QFile ref(cache.filePath(QStringLiteral("refs/main")));
    if (ref.open(QIODevice::ReadOnly)) {
        const QString rev = QString::fromUtf8(ref.read(256)).trimmed();
        if (!rev.isEmpty() && !rev.contains(QLatin1Char('/')) && !rev.contains(QStringLiteral(".."))) {
            const QString f = configIn(QDir(snapshots.filePath(rev)));
            if (!f.isEmpty()) return f;
        }
    }
    QStringList withConfig;
    for (const QString& rev : snapshots.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (!configIn(QDir(snapshots.filePath(rev))).isEmpty()) withConfig << rev;
    if (withConfig.size() == 1) return configIn(QDir(snapshots.filePath(withConfig.front())));
    if (error)
        *error = withConfig.isEmpty()
                     ? ModelConfig::tr("a Hugging Face cache folder with no snapshot holding config.json")
                     : QStringLiteral("a Hugging Face cache folder with %1 snapshots and no refs/main naming one: give "
                                      "its snapshots/<revision> folder, one of %2")
                           .arg(withConfig.size())
                           .arg(withConfig.join(QStringLiteral(", ")).left(200));
    return {};
}

}  // namespace

QString configFileInFolder(const QString& folder, QString* error) {
    const QDir d(folder);
    if (const QString f = configIn(d); !f.isEmpty()) return f;
    if (QFileInfo(d.filePath(QStringLiteral("snapshots"))).isDir()) return fromCache(d, error);
    if (d.dirName() == QLatin1String("snapshots") && QFileInfo(d.filePath(QStringLiteral("../refs"))).isDir())
        return fromCache(QDir(QDir::cleanPath(d.filePath(QStringLiteral("..")))), error);
    if (error)
        *error = QStringLiteral("a folder without config.json, a Hugging Face snapshot folder (config.json inside) or "
                                "cache folder (models--org--name with snapshots/)");
    return {};
}

}  // namespace poslab::ui
