#pragma once
// Sessions: `.poslab` files (JSON) that hold one scene or a deck of scenes.
//
// Format (schema 1). Keys are written in this fixed order, numbers in their shortest
// round-trip form (integers as integers), so that saving the same scene always gives the same
// bytes and a save → open → save round trip is byte-identical:
//
//   {
//     "format": "poslab-session",          required, identifies the file
//     "schema": 1,                         required; a newer schema is refused with a message
//     "app_version": "0.1.0",              the PosLab that wrote it (informative)
//     "current": 0,                        index of the scene shown (a deck's current slide)
//     "scenes": [                          1 .. kMaxSessionScenes scenes
//       { "title": "", "notes": "",        deck slide title and speaker notes (may be empty)
//         "length": 64, "positions": [0, 1, 2], "pairs": [], "head": 0, "preset": "",
//         "view": { "softmax": false, "causal": false, "colormap": "auto",
//                   "show_difference": true, "decay_max_distance": 256, "decay_log_x": false,
//                   "decay_log_y": false, "decay_show_bound": true, "show_pairs": true,
//                   "show_heatmap": true, "show_decay": true, "show_frequencies": true,
//                   "theme": "light", "font_scale": 1 },
//         "methods": [                     1 .. kMaxConfigs configurations (compare mode)
//           { "label": "", "method": "rope", "dim": 64, "content": "ones", "seed": 0,
//             "head": 0, "causal": false, "softmax": false, "precision": "float32",
//             "rope": {every RopeParams field}, "xpos": {...}, "sinusoidal": {...},
//             "learned": {...}, "shaw": {...}, "t5": {...}, "transformer_xl": {...},
//             "alibi": {...} } ] } ] }
//
// A deck slide may add, after "notes", how it arranges its views (written only when it is not
// "auto", so scenes that are not authored slides keep their bytes; older files have none and
// load as "auto"):
//         "slide": { "arrangement": "single",   one of auto | single | side_by_side | grid | demo
//                    "views": ["heatmap"],      the views it shows, in order (pairs, heatmap,
//                                               decay, frequencies; no repeats): single 1,
//                                               side_by_side 2, grid 1..4, demo 0..4 (0 = the
//                                               scene's shown views), auto none
//                    "demo": "t5-buckets" },    the demonstration whose numbers it shows (demo
//                                               only; "" = the formula sheet)
//
// Field names are the core structs' snake_case field names; enums are written as the
// command line spells them ("float32", "half", "yarn", "tensor2tensor", ...); an unset optional
// is null; a seed above 2^63−1 is written as a decimal string. Every parameter of every method
// is stored (also those of methods not selected), so switching method after opening a session
// finds the values that were there.
//
// Reading never crashes on any input. It refuses, with one line naming the file, the field and
// what is valid: a file that is not JSON (truncated or damaged), not a PosLab session, from a
// newer schema ("written by a newer PosLab (schema 2), this version reads schema 1"), fields
// of the wrong type, numbers out of range (the core's validate() decides for method
// parameters), too many scenes/configurations/positions. Missing fields take their default.
// Unknown fields are ignored but reported, one warning each ("unknown field
// scenes[0].view.zoom, ignored").
#include "core/json.h"
#include "ui/model/sceneparams.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace poslab::ui {

inline constexpr int kSessionSchema = 1;
inline constexpr int kMaxSessionScenes = 1000;
inline constexpr qint64 kMaxSessionBytes = 64LL * 1024 * 1024;
inline constexpr const char* kSessionSuffix = "poslab";   // file name suffix, without the dot

// How a deck slide arranges its views (the "slide" object above). Auto = as before there was a
// choice: the scene's shown views in the window's grid, with a numbers column when there are at
// most two. Kept as data so that a layout engine can place it (ui/render).
enum class SlideArrangement { Auto, Single, SideBySide, Grid, Demo };
QString slideArrangementKey(SlideArrangement a);            // "auto", "single", "side_by_side", ...
std::optional<SlideArrangement> slideArrangementFromKey(const QString& key);
inline constexpr SlideArrangement kAllSlideArrangements[] = {SlideArrangement::Auto, SlideArrangement::Single,
                                                             SlideArrangement::SideBySide, SlideArrangement::Grid,
                                                             SlideArrangement::Demo};
// The number of views an arrangement takes: [min, max].
std::pair<int, int> slideViewCount(SlideArrangement a);

struct SlideLayout {
    SlideArrangement arrangement = SlideArrangement::Auto;
    std::vector<ViewKind> views;   // in order; see slideViewCount()
    QString demo;                  // a demonstration key (Demo only); empty = the formula sheet
    bool operator==(const SlideLayout&) const = default;
    bool isAuto() const { return arrangement == SlideArrangement::Auto && views.empty() && demo.isEmpty(); }
};

// One scene of a session, with what a deck shows around it.
struct SessionScene {
    QString title;     // slide title (presentation mode); empty = none
    QString notes;     // speaker notes; empty = none (never shown to the audience)
    SceneParams scene;
    SlideLayout slide;   // how the slide arranges its views
    bool operator==(const SessionScene& o) const {
        return title == o.title && notes == o.notes && scene == o.scene && slide == o.slide;
    }
};

// A session: one or more scenes and the one that is current.
struct Session {
    std::vector<SessionScene> scenes{SessionScene{}};
    int current = 0;
    bool operator==(const Session& o) const { return scenes == o.scenes && current == o.current; }
};

// The version written in "app_version" (the project version PosLab was built as).
QString poslabVersion();

// Serialises a session. `compact` = one line without spaces (for metadata embedded in figures);
// otherwise indented for people (what .poslab files contain). Deterministic.
QByteArray sessionToJson(const Session& session, bool compact = false);
// The session as one JSON object written into `w` (figure data embeds it).
void writeSessionJson(JsonWriter& w, const Session& session);
// Same for one scene (a session of one scene, current 0).
QByteArray sceneToJson(const SceneParams& scene, bool compact = false);

// Parses a session; `source` names it in messages (a file name, "metadata"...). On failure
// returns nullopt and sets *error to one line "<source>: <what>". Unknown fields go to
// *warnings (if given) as "<source>: unknown field <path>, ignored".
std::optional<Session> sessionFromJson(const QByteArray& json, const QString& source, QString* error,
                                       QStringList* warnings = nullptr);

// Files. Writing is atomic (atomicfile.h): a failed save leaves the old file as it was.
bool saveSession(const QString& path, const SceneParams& scene, QString* error);
bool saveSessionFile(const QString& path, const Session& session, QString* error);
// The current scene of the session in `path`.
std::optional<SceneParams> loadSession(const QString& path, QString* error, QStringList* warnings = nullptr);
std::optional<Session> loadSessionFile(const QString& path, QString* error, QStringList* warnings = nullptr);

}  // namespace poslab::ui
