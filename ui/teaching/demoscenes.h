#pragma once
// Ready scenes for the demonstrations (core/demonstrations.h): what the window shows while the
// demonstration panel shows the numbers. Also the default teaching deck: one slide per
// demonstration, in the order of the lecture, as a Session (ui/io/session.h) that presentation mode
// steps through and that can be saved like any session.
//
// A deck slide made from a demonstration has the "demo" arrangement with the demonstration's key
// (SlideLayout, ui/io/session.h) and its claim as speaker notes. Decks written before arrangements
// existed carry the key in the notes as the first token "[demo:<key>]"; demoOfSlide() reads both.
#include "core/demonstrations.h"
#include "ui/io/session.h"

#include <optional>

namespace poslab::ui {

// The scene that goes with a demonstration (valid: sceneProblem() is nullopt).
SceneParams demoScene(DemoId id);

// One slide per demonstration (titles = the demonstrations' titles), current = 0.
Session demoDeck();

// A slide for a demonstration; and the demonstration a slide was made from, if any.
SessionScene demoSlide(DemoId id);
std::optional<DemoId> demoOfSlide(const SessionScene& slide);

// The speaker notes of a slide without the "[demo:…]" tag.
QString slideNotesText(const SessionScene& slide);

}  // namespace poslab::ui
