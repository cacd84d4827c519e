#pragma once
// The deck as a deliverable (a handout, a backup of the slides): every slide of a deck drawn as
// presentation mode shows it to the audience (presentation.h: the same renderers, no key hints,
// no notes band), written through the figure writers of ui/io/export.h:
//   PDF   one page per slide, text as text; the whole deck in the XMP metadata (so the PDF opens
//         again as the deck: File ▸ Open session, `poslab figure deck --session F.pdf`) and
//         attached as "deck.poslab"
//   PNGs  one file per slide in a folder: 01-<key>.png, 02-<key>.png, … (the demonstration's key,
//         else the title in lower case with dashes, else "slide"); each carries its slide's scene
// With notes, each slide's speaker notes are set in a band under it, on the same page or image
// (every page of a deck the same size: the band is as tall as the longest notes need).
// Used by `poslab figure deck` and Teach ▸ Export the deck….
#include "ui/io/session.h"

#include <QByteArray>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace poslab::ui {

struct DeckExportOptions {
    QSize slide{1920, 1080};                        // a slide's size in pixels (PDF: at 96 dpi)
    QString theme = QStringLiteral("projector");    // projector, light or dark
    bool notes = false;                             // the speaker notes under each slide
};

// The first problem of a deck and options ("the deck has no slides", "width: an integer from 64
// to 16384, got 10", "theme: one of light, dark, projector, got x"), or nullopt.
std::optional<QString> deckExportProblem(const Session& deck, const DeckExportOptions& options);

// The size of each page or image: the slide, and with notes the band under it.
QSize deckPageSize(const Session& deck, const DeckExportOptions& options);

// The deck as one PDF (nullopt and *error on failure).
std::optional<QByteArray> deckPdf(const Session& deck, const DeckExportOptions& options, QString* error);
// Slide i as a PNG.
std::optional<QByteArray> deckSlidePng(const Session& deck, int i, const DeckExportOptions& options, QString* error);

// The PNG file names, in slide order: "01-rope-rotation.png", …
QStringList deckPngNames(const Session& deck);
// Writes every slide's PNG into `dir` (made if missing), replacing files of the same names; each
// write is atomic. False and *error at the first failure.
bool writeDeckPngs(const QString& dir, const Session& deck, const DeckExportOptions& options, QString* error);

}  // namespace poslab::ui
