#pragma once
// Atomic file writes: every file PosLab writes (figures, data, sessions, autosaves) goes
// through here, so that a failed or interrupted write never leaves a truncated file and never
// destroys the file that was there before.
//
// How: the data is written to a temporary file in the destination's directory (QSaveFile),
// flushed, then renamed over the destination in one step. On any failure — the writer reports
// an error, throws, the disk fills, the directory is not writable — the temporary file is
// removed and the destination is left exactly as it was (absent, or with its old content).
// Overwriting an existing file is allowed here; asking the user (window) or requiring --force
// (command line) is the caller's job. An existing file keeps its permissions; a new one gets
// the usual 0666 & ~umask.
#include <QByteArray>
#include <QString>

#include <functional>

class QIODevice;

namespace poslab::ui {

// Writes `data` to `path` atomically. Returns false and sets *error (if given) to one line
// "cannot write <path>: <reason>" on failure.
bool writeFileAtomically(const QString& path, const QByteArray& data, QString* error = nullptr);

// Writes whatever `writer` puts into the device (a QImageWriter, QSvgGenerator, QPdfWriter,
// QPainter... may all target it) and commits it atomically. The writer returns false (and may
// set its error argument) to abandon the write; the destination is then untouched. The writer
// must finish with the device (end its painter, destroy its QPdfWriter...) before returning.
using DeviceWriter = std::function<bool(QIODevice& device, QString* error)>;
bool writeFileAtomically(const QString& path, const DeviceWriter& writer, QString* error = nullptr);

}  // namespace poslab::ui
