#pragma once
// Shared helpers for the Qt Test executables: files (read, write, the shipped model configs),
// golden-file loading, JSON <-> Eigen, tolerant comparisons with messages that say where and by
// how much two tables differ.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <vector>

#include "core/types.h"

namespace testsupport {

inline QJsonObject loadJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot open %s", qPrintable(path));
    QJsonParseError err{};
    const auto doc = QJsonDocument::fromJson(f.readAll(), &err);
    if (err.error != QJsonParseError::NoError) qFatal("%s: %s", qPrintable(path), qPrintable(err.errorString()));
    return doc.object();
}

// The bytes of a file; empty when it cannot be read.
inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Writes `bytes` to the file `name` in `dir` and returns its path (a failed write ends the test run).
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) qFatal("cannot write %s", qPrintable(path));
    return path;
}

// A model configuration shipped in resources/models ("gemma-3-27b").
inline QString modelFile(const QString& key) {
    return QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/") + key + QStringLiteral(".json");
}

// One golden file from tests/data/golden (the reference cases of docs/spec/conventions.md).
inline QJsonObject golden(const QString& file) { return loadJson(QStringLiteral(POSLAB_GOLDEN_DIR "/") + file); }

// The case named `name` in a golden file.
inline QJsonObject goldenCase(const QString& file, const QString& name) {
    const auto cases = golden(file).value("cases").toArray();
    for (const auto& c : cases)
        if (c.toObject().value("name").toString() == name) return c.toObject();
    qFatal("no case %s in %s", qPrintable(name), qPrintable(file));
    return {};
}

inline std::vector<double> toDoubles(const QJsonArray& a) {
    std::vector<double> v;
    v.reserve(a.size());
    for (const auto& x : a) v.push_back(x.toDouble());
    return v;
}

inline poslab::Vector toVector(const QJsonArray& a) {
    const auto v = toDoubles(a);
    return Eigen::Map<const poslab::Vector>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// Array of rows -> Matrix. Nested deeper arrays are flattened in row-major order into rows of
// the innermost length (e.g. [1, heads, seq, d] -> (heads·seq) × d).
inline void flattenInto(const QJsonValue& v, std::vector<std::vector<double>>& rows) {
    const auto a = v.toArray();
    if (!a.isEmpty() && !a.first().isArray()) { rows.push_back(toDoubles(a)); return; }
    for (const auto& x : a) flattenInto(x, rows);
}
inline poslab::Matrix toMatrix(const QJsonValue& v) {
    std::vector<std::vector<double>> rows;
    flattenInto(v, rows);
    if (rows.empty()) return {};
    poslab::Matrix m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.front().size()));
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < rows[r].size(); ++c) m(Eigen::Index(r), Eigen::Index(c)) = rows[r][c];
    return m;
}

// Largest |a − b| over all entries, or +inf when shapes differ.
inline double maxAbsDiff(const poslab::Matrix& a, const poslab::Matrix& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    if (a.size() == 0) return 0;
    return (a - b).cwiseAbs().maxCoeff();
}
inline double maxRelDiff(const poslab::Vector& a, const poslab::Vector& b) {
    if (a.size() != b.size()) return INFINITY;
    double worst = 0;
    for (Eigen::Index i = 0; i < a.size(); ++i) {
        const double scale = std::max(std::abs(b[i]), 1e-300);
        worst = std::max(worst, std::abs(a[i] - b[i]) / scale);
    }
    return worst;
}

}  // namespace testsupport

// QVERIFY with the measured difference in the message.
#define POSLAB_VERIFY_ABS(a, b, tol)                                                                    \
    do {                                                                                                \
        const double d__ = testsupport::maxAbsDiff((a), (b));                                           \
        QVERIFY2(d__ <= (tol), qPrintable(QStringLiteral("max |diff| %1 > tol %2 (shapes %3x%4 vs %5x%6)") \
                                            .arg(d__).arg(tol).arg((a).rows()).arg((a).cols())           \
                                            .arg((b).rows()).arg((b).cols())));                          \
    } while (0)
