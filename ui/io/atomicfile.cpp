#include "ui/io/atomicfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include <exception>

namespace poslab::ui {

namespace {
// The words people read about saving files (errors, reports), translated in the context "FileWriter"
// (Q_DECLARE_TR_FUNCTIONS: lupdate extracts them, and FileWriter::tr works off the GUI thread).
struct FileWriter {
    Q_DECLARE_TR_FUNCTIONS(FileWriter)
};
}  // namespace

namespace {

bool fail(QString* error, const QString& path, const QString& reason) {
    if (error) *error = FileWriter::tr("cannot write %1: %2").arg(QDir::toNativeSeparators(path), reason);
    return false;
}

}  // namespace

bool writeFileAtomically(const QString& path, const DeviceWriter& writer, QString* error) {
    if (path.isEmpty()) return fail(error, path, FileWriter::tr("no file name given"));
    const QFileInfo info(path);
    if (info.isDir()) return fail(error, path, FileWriter::tr("it is a directory"));
    const QFileInfo dir(info.absolutePath());
    if (!dir.exists()) return fail(error, path, FileWriter::tr("the directory %1 does not exist").arg(QDir::toNativeSeparators(dir.filePath())));
    if (!dir.isDir()) return fail(error, path, FileWriter::tr("%1 is not a directory").arg(QDir::toNativeSeparators(dir.filePath())));

    QSaveFile file(path);
    file.setDirectWriteFallback(false);  // never write in place: atomic or nothing
    if (!file.open(QIODevice::WriteOnly)) return fail(error, path, file.errorString());

    QString writerError;
    bool ok = false;
    try {
        ok = writer ? writer(file, &writerError) : false;
        if (!writer) writerError = FileWriter::tr("nothing to write");
    } catch (const std::exception& e) {
        ok = false;
        writerError = QString::fromLocal8Bit(e.what());
    } catch (...) {
        ok = false;
        writerError = FileWriter::tr("unexpected failure while writing");
    }
    if (!ok) {
        file.cancelWriting();
        file.commit();  // with writing cancelled this only discards the temporary file
        return fail(error, path, writerError.isEmpty() ? FileWriter::tr("the output could not be produced") : writerError);
    }
    if (file.error() != QFileDevice::NoError) {
        const QString reason = file.errorString();
        file.cancelWriting();
        file.commit();
        return fail(error, path, reason);
    }
    if (!file.commit()) return fail(error, path, file.errorString());
    return true;
}

bool writeFileAtomically(const QString& path, const QByteArray& data, QString* error) {
    return writeFileAtomically(
        path,
        [&data](QIODevice& device, QString* err) {
            qint64 written = 0;
            while (written < data.size()) {
                const qint64 n = device.write(data.constData() + written, data.size() - written);
                if (n <= 0) {
                    *err = device.errorString();
                    return false;
                }
                written += n;
            }
            return true;
        },
        error);
}

}  // namespace poslab::ui
