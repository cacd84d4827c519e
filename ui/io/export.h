#pragma once
// Export: one view, or all the visible views laid out as in the window, to
//   PNG  raster, at a chosen pixel size and DPI (the DPI scales lines and text as a high-DPI
//        screen does, and is written in the file's pHYs chunk)
//   SVG  vector, text as <text>, the scene in <metadata>
//   PDF  vector, text as text with the fonts embedded, the scene in the XMP metadata and the
//        session attached as "scene.poslab"
//   CSV  the plotted values (see export.cpp for the columns of each view)
//   JSON the plotted values, structured, with the scene
// Every file carries the scene that produced it (a compact .poslab session, ui/io/session.h):
// PNG text chunk "poslab-session", SVG <metadata><poslab:session>, PDF XMP <poslab:session>,
// CSV comment line "# poslab-session: {...}", JSON key "session". sceneFromExport() reads it
// back, so a figure is enough to reproduce its scene.
//
// What is drawn is exactly what the window draws: the same compute*() functions at the
// resolution of the output, the same renderers (ui/render/*), the same theme. Size: for PNG the
// pixel size of the image; for SVG and PDF the same numbers give the physical size
// (width/dpi × height/dpi inches), so the three formats show the same picture. All writes are
// atomic (atomicfile.h): a failed export leaves no file and does not touch an existing one.
#include "core/json.h"
#include "ui/render/layout.h"
#include "ui/render/theme.h"
#include "ui/model/sceneparams.h"
#include "ui/io/session.h"

#include <QByteArray>
#include <QImage>
#include <QPainter>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace poslab::ui {

enum class ExportFormat { Png, Svg, Pdf, Csv, Json };

QString exportFormatKey(ExportFormat f);                   // "png", "svg", "pdf", "csv", "json"
QStringList exportFormatKeys();
std::optional<ExportFormat> exportFormatFromKey(const QString& key);
// From the file name's suffix (case-insensitive); nullopt if it is none of the five.
std::optional<ExportFormat> exportFormatFromPath(const QString& path);

QString viewKey(ViewKind v);                                // "pairs", "heatmap", "decay", "frequencies"
QString viewTitle(ViewKind v);                              // "Pair vectors", ...
QStringList viewKeys();                                     // the four, in window order
std::optional<ViewKind> viewFromKey(const QString& key);
inline constexpr ViewKind kAllViews[] = {ViewKind::Pairs, ViewKind::Heatmap, ViewKind::Decay, ViewKind::Frequencies,
                                         ViewKind::Contributions, ViewKind::Precision};

// The views "all" means for a scene: those shown in the window (all four if none is shown).
std::vector<ViewKind> visibleViews(const SceneParams& scene);

// Limits of the size and resolution options.
inline constexpr int kMinExportPixels = 64;
inline constexpr int kMaxExportPixels = 16384;
inline constexpr qint64 kMaxExportArea = 16384LL * 8192;   // pixels of one PNG
inline constexpr int kMinDpi = 24;
inline constexpr int kMaxDpi = 2400;

struct ExportRequest {
    std::optional<ViewKind> view;      // nullopt = all visible views
    ExportFormat format = ExportFormat::Png;
    QSize pixels{1600, 1000};          // PNG: image size; SVG/PDF: size at `dpi` (physical size)
    int dpi = 96;                      // 96 = the window's scale; 192 = a 2× high-DPI screen
    QString theme;                     // empty = the scene's (view.theme)
    std::optional<double> fontScale;   // none = the scene's (view.fontScale)
};

// The first problem of a request ("width: an integer from 64 to 16384, got 10"), or nullopt.
std::optional<QString> exportRequestProblem(const ExportRequest& request);

// Theme the export uses: the request's, else the scene's.
Theme exportTheme(const SceneParams& scene, const ExportRequest& request);

// Renders the views onto any painter in `rect` (logical pixels; `devicePixelRatio` = device
// pixels per logical pixel, used to choose how many samples to compute). The background is
// filled with the theme's. This is what every image format draws.
void paintViews(QPainter& painter, const QRectF& rect, const SceneParams& scene, std::optional<ViewKind> view,
                const Theme& theme, double devicePixelRatio = 1.0);

// What the layout engine and the renderers placed in the request's figure (PNG pixels): the
// `layout` of the JSON export; its minPlot the theme's minPlotSide in those pixels.
// `textFree`: receives the figure drawn without the text the report records as unpainted
// (LayoutCapture::setPaintText), for layoutInkProblems.
LayoutReport exportLayout(const SceneParams& scene, const ExportRequest& request, QImage* textFree = nullptr);

// The plotted values as CSV / JSON (the data formats), computed at the request's resolution.
// A layout report as the `layout` array of a figure's JSON (cli.md): [{"view", "kind", "rect":
// [x, y, w, h], "text" and "px" (text items: its font's pixel size), "elided"}], written as the
// next value of `w`.
void writeLayoutJson(JsonWriter& w, const LayoutReport& report);
QByteArray exportCsv(const SceneParams& scene, const ExportRequest& request);
QByteArray exportJson(const SceneParams& scene, const ExportRequest& request);

// The file's bytes in the request's format (images include their metadata). nullopt and
// *error on failure (invalid scene or request, renderer failure).
// `refusals`: one line for each view whose every configuration (or panel) the computation
// refused, so that the view shows only why ("heatmap: length: a sample within the work limit …,
// got …"); the figure is still made (`poslab figure` turns a refused single view into exit 2).
std::optional<QByteArray> exportBytes(const SceneParams& scene, const ExportRequest& request, QString* error,
                                      QStringList* refusals = nullptr);

// Writes the export to `path` atomically. Overwriting is the caller's decision (the window
// asks, the command line needs --force); this function overwrites.
bool exportToFile(const QString& path, const SceneParams& scene, const ExportRequest& request, QString* error);

// The writers every picture goes through (the figures above, the deck, ui/teaching/deckexport.h).
// A PDF of `pages` pages of `size` logical pixels at 96 dpi, each painted by paint(painter, page)
// in logical pixels: vector, text as text. `session` (a compact session JSON) goes into the XMP
// metadata, where sessionFromExport() reads it; `attachment` (if named) is attached as a file.
struct PaintedDocument {
    QString title;
    QString description;
    QByteArray session;
    QString attachmentName;
    QByteArray attachment;
};
std::optional<QByteArray> paintedPdf(const PaintedDocument& doc, const QSizeF& size, int pages,
                                     const std::function<void(QPainter&, int)>& paint, QString* error);
// THE image writer: one picture painted by paint(painter, rect) in logical pixels (`rect` is
// `pixels` at 96/dpi) as PNG, SVG or PDF bytes. PNG: `pixels` device pixels at dpi/96 device
// pixels per logical pixel (lines and text grow as on a high-DPI screen), filled with
// `background`, antialiased, the DPI in its pHYs chunk; SVG and PDF: vector at 96 dpi, text as
// text, font families with their generic fallback (SVG). `doc` is what the file carries: the
// title (SVG <title>, PDF info), the description and the session (PNG text chunks, SVG <desc>
// and <metadata>, PDF XMP and attachment). nullopt and *error for Csv/Json or a failed writer.
// Every picture goes through it: exportBytes' views, `figure layers`, `figure positions`, slides.
using PaintPicture = std::function<void(QPainter&, const QRectF&)>;
std::optional<QByteArray> paintedPicture(ExportFormat format, const PaintedDocument& doc, QSize pixels, int dpi,
                                         const QColor& background, const PaintPicture& paint, QString* error);
// A PNG of `image` with its title, description and session (text chunk "poslab-session"); without
// a session it is written bare (no text chunks: `figure layers` and `figure positions`).
std::optional<QByteArray> encodePng(QImage image, const QString& title, const QString& description,
                                    const QByteArray& sessionJson, QString* error);

// The session embedded in an exported file (any of the five formats), or nullopt with *error.
std::optional<Session> sessionFromExport(const QString& path, QString* error, QStringList* warnings = nullptr);

}  // namespace poslab::ui
