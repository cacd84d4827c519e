// libFuzzer target: the session reader (ui/io/session.h sessionFromJson), the parser of every
// `.poslab` file, of the scene embedded in every exported figure and of the autosave.
// Build and run: tests/fuzz/run_fuzzers.sh (the `fuzz` CMake preset, clang with
// -fsanitize=fuzzer,address,undefined); seeds in tests/fuzz/corpus/session/.
//
// Beyond "no crash, no sanitizer report", the reader's contract aborts on violation:
//   - a refusal is exactly one line naming the source;
//   - an accepted session has 1 … kMaxSessionScenes scenes, a current index among them, and
//     scenes of 1 … kMaxConfigs configurations that validate (sceneProblemApartFromFiles: the
//     query/key files a scene names are checked when it is shown);
//   - what is accepted saves and reads back, and the second save gives the same bytes.
#include "ui/io/session.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "fuzzcheck.h"

#include <cstdint>

using namespace poslab::ui;
using fuzzcheck::oneLine;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString source = QStringLiteral("fuzz.poslab");
    QString error;
    QStringList warnings;
    const auto session = sessionFromJson(json, source, &error, &warnings);
    for (const auto& w : warnings)
        assert((w.startsWith(source + QStringLiteral(": ")) && oneLine(w)) ||
               fuzzcheck::explain("warning not one line naming the source", w));
    if (!session) {
        assert((error.startsWith(source + QStringLiteral(": ")) && error.size() > source.size() + 2 &&
                oneLine(error)) ||
               fuzzcheck::explain("refusal not one line naming the source", error));
        return 0;
    }
    assert((!session->scenes.empty() && session->scenes.size() <= std::size_t(kMaxSessionScenes)) ||
           fuzzcheck::explain("scene count", QString::number(session->scenes.size())));
    assert((session->current >= 0 && session->current < int(session->scenes.size())) ||
           fuzzcheck::explain("current", QString::number(session->current)));
    for (const auto& s : session->scenes) {
        assert((!s.scene.methods.empty() && s.scene.methods.size() <= std::size_t(kMaxConfigs)) ||
               fuzzcheck::explain("configuration count", QString::number(s.scene.methods.size())));
        const auto p = sceneProblemApartFromFiles(s.scene);
        assert(!p || fuzzcheck::explain("accepted a scene that does not validate", p ? *p : QString()));
    }
    const QByteArray saved = sessionToJson(*session);
    QString again;
    const auto back = sessionFromJson(saved, source, &again);
    assert(back.has_value() || fuzzcheck::explain("accepted, saved, then refused", again));
    assert(sessionToJson(*back) == saved ||
           fuzzcheck::explain("save → open → save changed the bytes", QString::fromUtf8(saved.left(300))));
    return 0;
}
