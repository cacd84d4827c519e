#include "ui/io/export.h"

#include "core/json.h"

#include "ui/io/atomicfile.h"
#include "ui/model/compute.h"
#include "ui/render/contributionsrenderer.h"
#include "ui/render/precisionrenderer.h"
#include "ui/render/decayrenderer.h"
#include "ui/render/frequencyrenderer.h"
#include "ui/render/heatmaprenderer.h"
#include "ui/render/layersrenderer.h"
#include "ui/render/layout.h"
#include "ui/render/pairsrenderer.h"

#include <QCoreApplication>
#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QFont>
#include <QFontInfo>
#include <QRegularExpression>
#include <QImage>
#include <QImageReader>
#include <QImageWriter>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QXmlStreamReader>

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>

// CSV columns, one table per view (an all-views CSV has one section per view, each introduced
// by a line "# view: <key>" and separated by an empty line):
//   pairs        config,title,kind,pair,theta,position,x,y,angle,series,value
//                  kind query / key: the rotated 2-D pair (x, y) of `pair` at `position`,
//                        angle = the core's m·θ_i; trail: the query pair along the trail;
//                        curve: a point (x, y) of the named `series` of a non-rotating method;
//                        table: `value` at row label `position` and column `pair`
//   heatmap      panel,title,difference,query,key,value,aggregate,query_to,key_to
//                  (value empty = masked; aggregate exact/mean/max/min/sample; query, key the
//                  cell, the sampled cell or the block's first position, *_to the end, exclusive)
//   decay        config,title,distance,value,bound,distance_from,distance_to,value_min,value_max,
//                value_mean,bound_min,bound_max,bound_mean   (one row per plotted column: the
//                exact envelope and mean over distances from..to inclusive; bound_* empty when none)
//   frequencies  config,title,pair,theta_before,theta_after,wavelength_before,wavelength_after
// Numbers are written in their shortest round-trip form, as `poslab compute` prints them.

namespace poslab::ui {

namespace {
// The words people read about figures and data exported (errors, reports), translated in the context "FigureExport"
// (Q_DECLARE_TR_FUNCTIONS: lupdate extracts them, and FigureExport::tr works off the GUI thread).
struct FigureExport {
    Q_DECLARE_TR_FUNCTIONS(FigureExport)
};
}  // namespace

namespace {

constexpr const char* kSessionKey = "poslab-session";
constexpr const char* kXmlNamespace = "https://example.org/poslab/ns/session/1";
constexpr double kScreenDpi = 96.0;

QString num(double v) { return std::isfinite(v) ? QString::fromStdString(formatNumber(v)) : QString(); }

QString csvField(const QString& s) {
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')) &&
        !s.contains(QLatin1Char('\r')))
        return s;
    QString q = s;
    q.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString csvRow(const QStringList& fields) {
    QStringList out;
    out.reserve(fields.size());
    for (const auto& f : fields) out << csvField(f);
    return out.join(QLatin1Char(',')) + QLatin1Char('\n');
}

// Figure data through the one JSON writer (core/json.h). A value that is not finite (a masked
// cell, a missing point) is written as null on purpose.
void jnum(JsonWriter& w, double v) {
    if (std::isfinite(v)) w.number(v);
    else w.null();
}
void jnums(JsonWriter& w, const std::vector<double>& v) {
    w.beginArray();
    for (double x : v) jnum(w, x);
    w.endArray();
}
void jstr(JsonWriter& w, const QString& s) { w.string(s.toStdString()); }

QString escapeXml(const QString& s) { return s.toHtmlEscaped(); }

QString describeScene(const SceneParams& scene) {
    QStringList parts;
    for (int c = 0; c < static_cast<int>(scene.methods.size()); ++c) {
        const auto& p = scene.methods[static_cast<std::size_t>(c)].params;
        parts << FigureExport::tr("%1 (dim %2)").arg(configTitle(scene, c)).arg(p.dim);
    }
    return QStringLiteral("%1; N = %2").arg(parts.join(QStringLiteral(", "))).arg(scene.length);
}

QString figureTitle(const SceneParams& scene, std::optional<ViewKind> view) {
    const QString what = view ? viewTitle(*view) : FigureExport::tr("All views");
    return QStringLiteral("PosLab — %1 — %2").arg(what, describeScene(scene));
}

// ---- Layout of the views: the layout engine's (ui/render/layout.h), as the window ---------------

std::vector<ViewPlacement> placeSceneViews(const QRectF& rect, const SceneParams& scene, std::optional<ViewKind> view,
                                           const Theme& theme) {
    ViewArrangement a = sceneArrangement(scene);
    if (view) a.views = {*view};
    return placeViews(rect, a, theme);
}

// The samples a view of this size asks for: what MainWindow::updateDisplay() asks the scheduler
// for, for a view widget of the same size.
DisplaySpec displayFor(const SceneParams& scene, ViewKind view, const QRectF& rect, const Theme& theme, double dpr) {
    DisplaySpec d;
    if (view == ViewKind::Heatmap) {
        d.heatmapCells = heatmapCellsFor(rect, heatmapPanelCount(scene), theme, dpr, scene.view.heatmapSquareCells,
                                         heatmapHasSinkStrip(scene), heatmapPanelCount(scene) - static_cast<int>(scene.methods.size()),
                                         heatmapDifferenceNote(scene));
        // A figure may take seconds to reduce every cell exactly (about 2^32 multiply-adds).
        d.heatmapWork = std::int64_t{1} << 32;
    }
    if (view == ViewKind::Pairs) d.autoPairs = automaticPairsFor(rect, static_cast<int>(scene.methods.size()), theme);
    if (view == ViewKind::Decay) d.decaySamples = std::clamp(static_cast<int>(rect.width() * dpr), 64, 2048);
    if (view == ViewKind::Contributions) d.decaySamples = std::clamp(static_cast<int>(rect.width() * dpr / 2), 32, 1024);
    if (view == ViewKind::Precision) {
        d.decaySamples = std::clamp(static_cast<int>(rect.width() * dpr / std::max<std::size_t>(1, scene.methods.size())), 32, 2048);
        d.precisionCells = precisionCellsFor(rect, static_cast<int>(scene.methods.size()), theme, dpr, scene.view.heatmapSquareCells);
        d.heatmapWork = std::int64_t{1} << 32;   // as the heatmap's figures: seconds at most
    }
    return d;
}

// exportBytes' `refusals` while it runs (one export per thread at a time: figures are made on
// the calling thread).
thread_local QStringList* tRefusals = nullptr;

// Notes a view whose every configuration (panel, series) carries an error: it draws only why.
template <class Items>
void noteRefusal(ViewKind view, const Items& items) {
    if (!tRefusals || items.empty()) return;
    for (const auto& i : items)
        if (i.error.isEmpty()) return;
    *tRefusals << viewKey(view) + QStringLiteral(": ") + items.front().error;
}
template <class Result>
const Result& noted(ViewKind view, const Result& r) {
    if constexpr (requires { r.panels; }) noteRefusal(view, r.panels);
    else if constexpr (requires { r.series; }) noteRefusal(view, r.series);
    else noteRefusal(view, r.configs);
    return r;
}

void paintOne(QPainter& p, const QRectF& rect, const SceneParams& scene, ViewKind view, const Theme& theme, double dpr) {
    const DisplaySpec d = displayFor(scene, view, rect, theme, dpr);
    p.save();
    p.setClipRect(rect);
    switch (view) {
    case ViewKind::Pairs: renderPairs(p, rect, noted(view, computePairs(scene, d)), theme); break;
    case ViewKind::Heatmap: renderHeatmap(p, rect, noted(view, computeHeatmap(scene, d)), theme); break;
    case ViewKind::Decay: renderDecay(p, rect, noted(view, computeDecay(scene, d)), theme); break;
    case ViewKind::Frequencies: renderFrequencies(p, rect, noted(view, computeFrequencies(scene)), theme); break;
    case ViewKind::Contributions: renderContributions(p, rect, noted(view, computeContributions(scene, d)), theme); break;
    case ViewKind::Precision: renderPrecision(p, rect, noted(view, computePrecision(scene, d)), theme); break;
    }
    p.restore();
}

QSizeF logicalSize(const ExportRequest& r) {
    const double s = kScreenDpi / r.dpi;
    return QSizeF(r.pixels.width() * s, r.pixels.height() * s);
}


// ---- Image formats ----------------------------------------------------------------------------

// The XMP metadata of a PDF: its title, description and the session that reproduces it.
QByteArray xmpPacket(const QString& title, const QString& description, const QByteArray& sessionJson) {
    const QString xml =
        QStringLiteral(
            "<?xpacket begin=\"%6\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
            " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
            "  <rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"\n"
            "    xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\"\n"
            "    xmlns:poslab=\"%1\">\n"
            "   <dc:format>application/pdf</dc:format>\n"
            "   <dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">%2</rdf:li></rdf:Alt></dc:title>\n"
            "   <dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">%3</rdf:li></rdf:Alt></dc:description>\n"
            "   <xmp:CreatorTool>PosLab %4</xmp:CreatorTool>\n"
            "   <pdf:Keywords>PosLab; positional encoding; poslab-session</pdf:Keywords>\n"
            "   <poslab:session>%5</poslab:session>\n"
            "  </rdf:Description>\n"
            " </rdf:RDF>\n"
            "</x:xmpmeta>\n"
            "<?xpacket end=\"w\"?>")
            .arg(QLatin1String(kXmlNamespace), escapeXml(title), escapeXml(description), poslabVersion(),
                 escapeXml(QString::fromUtf8(sessionJson)), QString(QChar(0xFEFF)));
    return xml.toUtf8();
}

// Font families as CSS lists: the family Qt actually drew with, then the generic family, so
// that viewers without the font (or with fontconfig aliases such as "Sans Serif") pick a
// matching one instead of their default serif.
QByteArray withFontFallbacks(const QByteArray& bytes) {
    static const QRegularExpression familyAttr(QStringLiteral("font-family=\"([^\"]*)\""));
    QString text = QString::fromUtf8(bytes);
    QString out;
    out.reserve(text.size() + 256);
    qsizetype last = 0;
    auto it = familyAttr.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        const QString family = m.captured(1);
        const QString resolved = QFontInfo(QFont(family)).family();
        const QString lower = family.toLower() + QLatin1Char(' ') + resolved.toLower();
        const QString generic = lower.contains(QLatin1String("mono")) ? QStringLiteral("monospace")
                                : (lower.contains(QLatin1String("serif")) && !lower.contains(QLatin1String("sans")))
                                    ? QStringLiteral("serif")
                                    : QStringLiteral("sans-serif");
        QStringList list;
        for (const QString& f : {resolved, family})
            if (!f.isEmpty() && !list.contains(f) && f.compare(QLatin1String("Sans Serif"), Qt::CaseInsensitive) != 0 &&
                f.compare(QLatin1String("Sans"), Qt::CaseInsensitive) != 0 && f.compare(QLatin1String("Serif"), Qt::CaseInsensitive) != 0 &&
                f.compare(QLatin1String("Monospace"), Qt::CaseInsensitive) != 0)
                list << f;
        list << generic;
        out += QStringView(text).mid(last, m.capturedStart(1) - last);
        out += escapeXml(list.join(QStringLiteral(", ")));
        last = m.capturedEnd(1);
    }
    out += QStringView(text).mid(last);
    return out.toUtf8();
}

std::optional<QByteArray> paintedSvg(const PaintedDocument& doc, const QSizeF& size, const PaintPicture& paint, QString* error) {
    QByteArray bytes;
    {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator gen;
        gen.setOutputDevice(&buffer);
        gen.setResolution(int(kScreenDpi));
        gen.setSize(QSize(qRound(size.width()), qRound(size.height())));
        gen.setViewBox(QRectF(QPointF(0, 0), size));
        // QSvgGenerator 6.4 writes title and description without escaping them.
        gen.setTitle(escapeXml(doc.title));
        if (!doc.description.isEmpty())
            gen.setDescription(escapeXml(QStringLiteral("Made with PosLab %1: %2").arg(poslabVersion(), doc.description)));
        QPainter p;
        if (!p.begin(&gen)) {
            if (error) *error = FigureExport::tr("the SVG generator could not start");
            return std::nullopt;
        }
        p.setRenderHint(QPainter::Antialiasing, true);
        paint(p, QRectF(QPointF(0, 0), size));
        p.end();
    }
    bytes = withFontFallbacks(bytes);
    if (doc.session.isEmpty()) return bytes;
    // The scene as metadata, right after <desc> (or the <svg> start tag).
    const QByteArray meta = "<metadata id=\"poslab-session\"><poslab:session xmlns:poslab=\"" + QByteArray(kXmlNamespace) +
                            "\">" + escapeXml(QString::fromUtf8(doc.session)).toUtf8() + "</poslab:session></metadata>\n";
    qsizetype at = bytes.indexOf("</desc>");
    if (at >= 0) {
        at += 7;
        if (at < bytes.size() && bytes[at] == '\n') ++at;
    } else {
        const qsizetype svg = bytes.indexOf("<svg");
        at = svg >= 0 ? bytes.indexOf('>', svg) + 1 : -1;
    }
    if (at <= 0) {
        if (error) *error = FigureExport::tr("the SVG generator wrote no <svg> element");
        return std::nullopt;
    }
    bytes.insert(at, meta);
    return bytes;
}

// A view's (or all views') picture: the painted picture of the scene, carrying the scene.
std::optional<QByteArray> renderImage(const SceneParams& scene, const ExportRequest& r, const Theme& theme, QString* error) {
    PaintedDocument doc;
    doc.title = figureTitle(scene, r.view);
    doc.description = describeScene(scene);
    doc.session = sceneToJson(scene, true);
    doc.attachmentName = QStringLiteral("scene.poslab");
    doc.attachment = sceneToJson(scene);
    const double dpr = r.dpi / kScreenDpi;
    return paintedPicture(r.format, doc, r.pixels, r.dpi, theme.background,
                          [&](QPainter& p, const QRectF& rect) { paintViews(p, rect, scene, r.view, theme, dpr); }, error);
}

}  // namespace

std::optional<QByteArray> paintedPdf(const PaintedDocument& doc, const QSizeF& size, int pages,
                                     const std::function<void(QPainter&, int)>& paint, QString* error) {
    if (pages < 1 || !(size.width() > 0) || !(size.height() > 0)) {
        if (error) *error = FigureExport::tr("a PDF needs at least one page of a positive size");
        return std::nullopt;
    }
    QByteArray bytes;
    {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter pdf(&buffer);
        pdf.setResolution(int(kScreenDpi));
        pdf.setTitle(doc.title);
        pdf.setCreator(QStringLiteral("PosLab ") + poslabVersion());
        if (!doc.session.isEmpty()) pdf.setDocumentXmpMetadata(xmpPacket(doc.title, doc.description, doc.session));
        if (!doc.attachmentName.isEmpty())
            pdf.addFileAttachment(doc.attachmentName, doc.attachment, QStringLiteral("application/json"));
        const QSizeF inches(size.width() / kScreenDpi, size.height() / kScreenDpi);
        pdf.setPageLayout(QPageLayout(QPageSize(inches, QPageSize::Inch, QString(), QPageSize::ExactMatch),
                                      QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        QPainter p;
        if (!p.begin(&pdf)) {
            if (error) *error = FigureExport::tr("the PDF writer could not start");
            return std::nullopt;
        }
        // The page in the painter's coordinates (device pixels at 96 dpi): scale the logical
        // size onto it exactly, whatever rounding the page size went through.
        const QRect page = p.viewport();
        for (int k = 0; k < pages; ++k) {
            if (k > 0 && !pdf.newPage()) {
                if (error) *error = FigureExport::tr("the PDF writer could not start page %1").arg(k + 1);
                return std::nullopt;
            }
            p.save();
            p.scale(page.width() / size.width(), page.height() / size.height());
            paint(p, k);
            p.restore();
        }
        p.end();
    }
    if (!bytes.startsWith("%PDF")) {
        if (error) *error = FigureExport::tr("the PDF writer produced no document");
        return std::nullopt;
    }
    return bytes;
}

std::optional<QByteArray> paintedPicture(ExportFormat format, const PaintedDocument& doc, QSize pixels, int dpi,
                                         const QColor& background, const PaintPicture& paint, QString* error) {
    const double dpr = dpi / kScreenDpi, s = kScreenDpi / dpi;
    const QSizeF size(pixels.width() * s, pixels.height() * s);   // logical pixels
    switch (format) {
    case ExportFormat::Png: {
        QImage img(pixels, QImage::Format_ARGB32_Premultiplied);
        if (img.isNull()) {
            if (error) *error = FigureExport::tr("not enough memory for a %1 × %2 image").arg(pixels.width()).arg(pixels.height());
            return std::nullopt;
        }
        // Paint at the screen's 96 dpi scale with the DPI as device pixel ratio (text and lines
        // grow with it, as on a high-DPI screen), then record the DPI for the file's pHYs chunk.
        const int screenDpm = qRound(kScreenDpi / 0.0254);
        img.setDotsPerMeterX(screenDpm);
        img.setDotsPerMeterY(screenDpm);
        img.setDevicePixelRatio(dpr);
        img.fill(background);
        {
            QPainter p;
            if (!p.begin(&img)) {
                if (error) *error = FigureExport::tr("could not paint the PNG");
                return std::nullopt;
            }
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setRenderHint(QPainter::TextAntialiasing, true);
            paint(p, QRectF(QPointF(0, 0), size));
        }
        img.setDevicePixelRatio(1.0);
        const int dpm = qRound(dpi / 0.0254);
        img.setDotsPerMeterX(dpm);
        img.setDotsPerMeterY(dpm);
        return encodePng(img, doc.title, doc.description, doc.session, error);
    }
    case ExportFormat::Svg: return paintedSvg(doc, size, paint, error);
    case ExportFormat::Pdf:
        return paintedPdf(doc, size, 1, [&](QPainter& p, int) {
            p.setRenderHint(QPainter::Antialiasing, true);
            paint(p, QRectF(QPointF(0, 0), size));
        }, error);
    case ExportFormat::Csv:
    case ExportFormat::Json: break;
    }
    if (error) *error = FigureExport::tr("%1 is not an image format").arg(exportFormatKey(format));
    return std::nullopt;
}

std::optional<QByteArray> encodePng(QImage image, const QString& title, const QString& description,
                                    const QByteArray& sessionJson, QString* error) {
    if (!sessionJson.isEmpty()) {
        image.setText(QStringLiteral("Title"), title);
        image.setText(QStringLiteral("Software"), QStringLiteral("PosLab ") + poslabVersion());
        if (!description.isEmpty()) image.setText(QStringLiteral("Description"), description);
        image.setText(QString::fromLatin1(kSessionKey), QString::fromUtf8(sessionJson));
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image)) {
        if (error) *error = FigureExport::tr("PNG encoder: ") + writer.errorString();
        return std::nullopt;
    }
    return bytes;
}

namespace {

// ---- Data formats ---------------------------------------------------------------------------------

QString pairsCsv(const PairsResult& res) {
    QString out = csvRow({QStringLiteral("config"), QStringLiteral("title"), QStringLiteral("kind"), QStringLiteral("pair"),
                          QStringLiteral("theta"), QStringLiteral("position"), QStringLiteral("x"), QStringLiteral("y"),
                          QStringLiteral("angle"), QStringLiteral("series"), QStringLiteral("value")});
    for (int c = 0; c < static_cast<int>(res.configs.size()); ++c) {
        const auto& cfg = res.configs[static_cast<std::size_t>(c)];
        const QString cs = QString::number(c);
        for (const auto& pp : cfg.pairs) {
            for (std::size_t m = 0; m < cfg.positions.size() && m < pp.query.size(); ++m) {
                out += csvRow({cs, cfg.title, QStringLiteral("query"), QString::number(pp.pair), num(pp.theta),
                               QString::number(cfg.positions[m]), num(pp.query[m].x()), num(pp.query[m].y()),
                               m < pp.angle.size() ? num(pp.angle[m]) : QString(), QString(), QString()});
            }
            for (std::size_t m = 0; m < cfg.positions.size() && m < pp.key.size(); ++m) {
                out += csvRow({cs, cfg.title, QStringLiteral("key"), QString::number(pp.pair), num(pp.theta),
                               QString::number(cfg.positions[m]), num(pp.key[m].x()), num(pp.key[m].y()),
                               m < pp.angle.size() ? num(pp.angle[m]) : QString(), QString(), QString()});
            }
            for (std::size_t t = 0; t < cfg.trailPositions.size() && t < pp.trail.size(); ++t) {
                out += csvRow({cs, cfg.title, QStringLiteral("trail"), QString::number(pp.pair), num(pp.theta),
                               QString::number(cfg.trailPositions[t]), num(pp.trail[t].x()), num(pp.trail[t].y()),
                               QString(), QString(), QString()});
            }
        }
        for (const auto& s : cfg.curves)
            for (std::size_t k = 0; k < s.x.size() && k < s.y.size(); ++k)
                out += csvRow({cs, cfg.title, QStringLiteral("curve"), QString(), QString(), QString(), num(s.x[k]),
                               num(s.y[k]), QString(), s.name, QString()});
        for (Eigen::Index i = 0; i < cfg.table.rows(); ++i)
            for (Eigen::Index j = 0; j < cfg.table.cols(); ++j)
                out += csvRow({cs, cfg.title, QStringLiteral("table"),
                               QString::number(std::size_t(j) < cfg.tableCols.size() ? cfg.tableCols[std::size_t(j)] : j), QString(),
                               static_cast<std::size_t>(i) < cfg.tableRows.size() ? QString::number(cfg.tableRows[std::size_t(i)]) : QString::number(i),
                               QString(), QString(), QString(), cfg.tableTitle, num(cfg.table(i, j))});
    }
    return out;
}

void pairsJson(JsonWriter& w, const PairsResult& res) {
    w.beginObject().key("configs").beginArray();
    for (const auto& cfg : res.configs) {
        w.beginObject();
        jstr(w.key("title"), cfg.title);
        w.key("method").string(methodKey(cfg.method));
        if (!cfg.error.isEmpty()) jstr(w.key("error"), cfg.error);
        w.key("positions").integers(cfg.positions);
        w.key("trail_positions").integers(cfg.trailPositions);
        const auto pts = [&w](const char* key, const std::vector<QPointF>& v) {
            w.key(key).beginArray();
            for (const auto& p : v) {
                w.beginArray();
                jnum(w, p.x());
                jnum(w, p.y());
                w.endArray();
            }
            w.endArray();
        };
        w.key("pairs").beginArray();
        for (const auto& pp : cfg.pairs) {
            w.beginObject();
            w.key("pair").integer(pp.pair);
            jnum(w.key("theta"), pp.theta);
            w.key("channels").integers({pp.channelA, pp.channelB});
            jnums(w.key("angle"), pp.angle);
            pts("query", pp.query);
            pts("key", pp.key);
            pts("trail", pp.trail);
            w.endObject();
        }
        w.endArray();
        w.key("curves").beginArray();
        for (const auto& c : cfg.curves) {
            w.beginObject();
            jstr(w.key("name"), c.name);
            jnums(w.key("x"), c.x);
            jnums(w.key("y"), c.y);
            w.endObject();
        }
        w.endArray();
        if (cfg.table.size() > 0) {
            w.key("table").beginObject();
            jstr(w.key("title"), cfg.tableTitle);
            w.key("rows").integers(cfg.tableRows);
            w.key("cols").integers(cfg.tableCols);
            w.key("values").beginArray();
            for (Eigen::Index i = 0; i < cfg.table.rows(); ++i) {
                w.beginArray();
                for (Eigen::Index j = 0; j < cfg.table.cols(); ++j) jnum(w, cfg.table(i, j));
                w.endArray();
            }
            w.endArray();
            w.endObject();
        }
        w.endObject();
    }
    w.endArray().endObject();
}

bool maskedCell(const HeatmapResult& res, const HeatmapPanel& panel, Eigen::Index i, Eigen::Index j) {
    return heatmapCellMasked(panel, res.causal, i, j);
}

// "exact", "mean", "max", "min" or "sample": what each value stands for (cli.md).
const char* cellsKey(const HeatmapPanel& p) {
    switch (p.cells) {
    case HeatmapCells::Exact: return "exact";
    case HeatmapCells::Sample: return "sample";
    case HeatmapCells::Aggregate: return p.aggregate == Aggregate::Mean ? "mean" : p.aggregate == Aggregate::Max ? "max" : "min";
    }
    return "exact";
}

void jranges(JsonWriter& w, const std::vector<PositionRange>& ranges) {
    w.beginArray();
    for (const auto& r : ranges) {
        w.beginArray();
        w.integer(r.from);
        w.integer(r.to);
        w.endArray();
    }
    w.endArray();
}

QString heatmapCsv(const HeatmapResult& res) {
    QString out = csvRow({QStringLiteral("panel"), QStringLiteral("title"), QStringLiteral("difference"),
                          QStringLiteral("query"), QStringLiteral("key"), QStringLiteral("value"), QStringLiteral("aggregate"),
                          QStringLiteral("query_to"), QStringLiteral("key_to")});
    for (int k = 0; k < static_cast<int>(res.panels.size()); ++k) {
        const auto& p = res.panels[static_cast<std::size_t>(k)];
        const QString ks = QString::number(k), diff = p.difference ? QStringLiteral("true") : QStringLiteral("false");
        const QString agg = QString::fromLatin1(cellsKey(p));
        // query, key: the cell (exact, sample) or the block's first position; query_to, key_to:
        // the block's end (exclusive) — the cell + 1 for exact values.
        auto end = [&](const std::vector<PositionRange>& r, const Positions& pos, Eigen::Index i) {
            if (p.cells == HeatmapCells::Aggregate && std::size_t(i) < r.size()) return r[std::size_t(i)].to;
            return pos[std::size_t(i)] + 1;
        };
        for (Eigen::Index i = 0; i < p.values.rows(); ++i)
            for (Eigen::Index j = 0; j < p.values.cols(); ++j)
                out += ks + QLatin1Char(',') + csvField(p.title) + QLatin1Char(',') + diff + QLatin1Char(',') +
                       QString::number(p.queries[std::size_t(i)]) + QLatin1Char(',') + QString::number(p.keys[std::size_t(j)]) +
                       QLatin1Char(',') + (maskedCell(res, p, i, j) ? QString() : num(p.values(i, j))) + QLatin1Char(',') + agg +
                       QLatin1Char(',') + QString::number(end(p.queryRanges, p.queries, i)) + QLatin1Char(',') +
                       QString::number(end(p.keyRanges, p.keys, j)) + QLatin1Char('\n');
    }
    return out;
}

void heatmapJson(JsonWriter& w, const HeatmapResult& res) {
    w.beginObject();
    w.key("length").integer(res.length);
    w.key("softmax").boolean(res.softmax);
    w.key("causal").boolean(res.causal);
    w.key("head").integer(res.head);
    if (res.panels.size() > 1) w.key("own_color_ranges").boolean(res.ownRanges);
    if (!res.differenceNote.isEmpty()) jstr(w.key("difference_note"), res.differenceNote);
    w.key("panels").beginArray();
    for (const auto& p : res.panels) {
        w.beginObject();
        jstr(w.key("title"), p.title);
        w.key("difference").boolean(p.difference);
        if (!p.quantity.isEmpty()) jstr(w.key("quantity"), p.quantity);   // e.g. "score error" (precision view)
        if (!p.error.isEmpty()) jstr(w.key("error"), p.error);
        // What each value stands for (cli.md, "What figure writes for long ranges"): one cell,
        // a statistic over the block query_ranges[r] × key_ranges[c], or the one cell
        // (queries[r], keys[c]) sampled from that block.
        if (p.error.isEmpty()) w.key("aggregate").string(cellsKey(p));
        w.key("queries").integers(p.queries);
        w.key("keys").integers(p.keys);
        if (p.cells != HeatmapCells::Exact) {
            jranges(w.key("query_ranges"), p.queryRanges);
            jranges(w.key("key_ranges"), p.keyRanges);
        }
        w.key("values").beginArray();
        for (Eigen::Index i = 0; i < p.values.rows(); ++i) {
            w.beginArray();
            for (Eigen::Index j = 0; j < p.values.cols(); ++j) {
                if (maskedCell(res, p, i, j)) w.null();
                else jnum(w, p.values(i, j));
            }
            w.endArray();
        }
        w.endArray();
        w.key("color_range").beginArray();
        jnum(w, p.lo);
        jnum(w, p.hi);
        w.endArray();
        w.key("colormap").string(p.diverging ? "diverging" : "viridis");
        w.endObject();
    }
    w.endArray().endObject();
}

QString decayCsv(const DecayResult& res) {
    QString out = csvRow({QStringLiteral("config"), QStringLiteral("title"), QStringLiteral("distance"),
                          QStringLiteral("value"), QStringLiteral("bound"), QStringLiteral("distance_from"),
                          QStringLiteral("distance_to"), QStringLiteral("value_min"), QStringLiteral("value_max"),
                          QStringLiteral("value_mean"), QStringLiteral("bound_min"), QStringLiteral("bound_max"),
                          QStringLiteral("bound_mean")});
    for (int c = 0; c < static_cast<int>(res.series.size()); ++c) {
        const auto& s = res.series[static_cast<std::size_t>(c)];
        for (std::size_t k = 0; k < s.distance.size() && k < s.value.size(); ++k) {
            const bool b = k < s.bound.size();
            out += csvRow({QString::number(c), s.title, QString::number(s.distance[k]), num(s.value[k]),
                           b ? num(s.bound[k]) : QString(), QString::number(s.distanceFrom[k]),
                           QString::number(s.distanceTo[k]), num(s.valueMin[k]), num(s.valueMax[k]), num(s.value[k]),
                           b ? num(s.boundMin[k]) : QString(), b ? num(s.boundMax[k]) : QString(),
                           b ? num(s.bound[k]) : QString()});
        }
    }
    return out;
}

void decayJson(JsonWriter& w, const DecayResult& res) {
    w.beginObject();
    w.key("max_distance").integer(res.maxDistance);
    w.key("log_x").boolean(res.logX);
    w.key("log_y").boolean(res.logY);
    w.key("series").beginArray();
    for (const auto& s : res.series) {
        w.beginObject();
        jstr(w.key("title"), s.title);
        if (!s.error.isEmpty()) jstr(w.key("error"), s.error);
        if (!s.note.isEmpty()) jstr(w.key("note"), s.note);
        // Each column stands for every integer distance from distance_from to distance_to
        // (inclusive): value_min/value_max its exact envelope, value_mean (= value) its mean.
        // "sampled": the whole curve was past the work limit, each column is one distance.
        w.key("sampled").boolean(s.sampled);
        w.key("distance").integers(s.distance);
        w.key("distance_from").integers(s.distanceFrom);
        w.key("distance_to").integers(s.distanceTo);
        jnums(w.key("value"), s.value);
        jnums(w.key("value_min"), s.valueMin);
        jnums(w.key("value_max"), s.valueMax);
        jnums(w.key("value_mean"), s.value);
        if (!s.bound.empty()) {
            jnums(w.key("bound"), s.bound);
            jnums(w.key("bound_min"), s.boundMin);
            jnums(w.key("bound_max"), s.boundMax);
            jnums(w.key("bound_mean"), s.bound);
        }
        w.endObject();
    }
    w.endArray().endObject();
}

QString frequenciesCsv(const FrequencyResult& res) {
    QString out = csvRow({QStringLiteral("config"), QStringLiteral("title"), QStringLiteral("pair"),
                          QStringLiteral("theta_before"), QStringLiteral("theta_after"),
                          QStringLiteral("wavelength_before"), QStringLiteral("wavelength_after")});
    for (int c = 0; c < static_cast<int>(res.configs.size()); ++c) {
        const auto& f = res.configs[static_cast<std::size_t>(c)];
        const std::size_t n = std::max(f.before.size(), f.after.size());
        for (std::size_t i = 0; i < n; ++i) {
            const double b = i < f.before.size() ? f.before[i] : NAN;
            const double a = i < f.after.size() ? f.after[i] : NAN;
            out += csvRow({QString::number(c), f.title, QString::number(i), num(b), num(a),
                           b > 0 ? num(2 * M_PI / b) : QString(), a > 0 ? num(2 * M_PI / a) : QString()});
        }
    }
    return out;
}

void frequenciesJson(JsonWriter& w, const FrequencyResult& res) {
    w.beginObject().key("configs").beginArray();
    for (const auto& f : res.configs) {
        w.beginObject();
        jstr(w.key("title"), f.title);
        w.key("method").string(methodKey(f.method));
        if (!f.error.isEmpty()) jstr(w.key("error"), f.error);
        jstr(w.key("note"), f.note);
        jnums(w.key("theta_before"), f.before);
        jnums(w.key("theta_after"), f.after);
        w.key("scaled").boolean(f.scaled);
        jnum(w.key("attention_factor"), f.attentionFactor);
        w.key("original_context").integer(f.originalContext);
        w.key("context").integer(f.context);
        w.endObject();
    }
    w.endArray().endObject();
}

QString contributionsCsv(const ContributionsResult& res) {
    QString out = csvRow({QStringLiteral("config"), QStringLiteral("title"), QStringLiteral("pair"), QStringLiteral("distance"),
                          QStringLiteral("contribution")});
    for (int c = 0; c < static_cast<int>(res.configs.size()); ++c) {
        const auto& k = res.configs[static_cast<std::size_t>(c)];
        for (Eigen::Index p = 0; p < k.value.rows(); ++p)
            for (Eigen::Index t = 0; t < k.value.cols(); ++t)
                out += csvRow({QString::number(c), k.title, QString::number(p),
                               QString::number(k.distance[static_cast<std::size_t>(t)]), num(k.value(p, t))});
    }
    return out;
}

void contributionsJson(JsonWriter& w, const ContributionsResult& res) {
    w.beginObject().key("configs").beginArray();
    for (const auto& k : res.configs) {
        w.beginObject();
        jstr(w.key("title"), k.title);
        if (!k.error.isEmpty()) jstr(w.key("error"), k.error);
        jstr(w.key("content"), k.content);
        w.key("distance").integers(k.distance);
        // Each column: its distances [distance_from, distance_to] and the mean of c_p over them
        // ("sample": at one distance only, past the work limit).
        w.key("distance_from").integers(k.distance);
        w.key("distance_to").integers(k.distanceTo);
        w.key("aggregate").string(k.sampled ? "sample" : "mean");
        w.key("contribution").matrix(k.value);
        jnums(w.key("share"), k.share);
        jnums(w.key("wavelength_before"), k.wavelengthBefore);
        jnums(w.key("wavelength_after"), k.wavelengthAfter);
        w.key("training_context").integer(k.trainingContext);
        w.key("scaled").boolean(k.scaled);
        w.endObject();
    }
    w.endArray().endObject();
}

QString precisionCsv(const PrecisionResult& res) {
    QString out = csvRow({QStringLiteral("config"), QStringLiteral("title"), QStringLiteral("pair"), QStringLiteral("position_from"),
                          QStringLiteral("position_to"), QStringLiteral("angle_error_min"), QStringLiteral("angle_error_max"),
                          QStringLiteral("cos_error_min"), QStringLiteral("cos_error_max"), QStringLiteral("collides")});
    for (int c = 0; c < static_cast<int>(res.configs.size()); ++c) {
        const auto& k = res.configs[static_cast<std::size_t>(c)];
        for (std::size_t i = 0; i < k.pairs.size(); ++i)
            for (std::size_t col = 0; col < k.columns.size(); ++col)
                out += csvRow({QString::number(c), k.title, QString::number(k.pairs[i]), QString::number(k.columns[col].from),
                               QString::number(k.columns[col].to - 1), num(k.angleMin[i][col]), num(k.angleMax[i][col]),
                               num(k.cosMin[i][col]), num(k.cosMax[i][col]),
                               k.columnCollides[col] ? QStringLiteral("true") : QStringLiteral("false")});
    }
    return out;
}

void precisionJson(JsonWriter& w, const PrecisionResult& res) {
    w.beginObject().key("configs").beginArray();
    for (const auto& k : res.configs) {
        w.beginObject();
        jstr(w.key("title"), k.title);
        if (!k.error.isEmpty()) {
            jstr(w.key("error"), k.error);
            w.endObject();
            continue;
        }
        jstr(w.key("path"), k.path);
        jstr(w.key("angle_dtype"), k.dtypeName);
        w.key("pairs").beginArray();
        for (int p : k.pairs) w.integer(p);
        w.endArray();
        w.key("sampled").boolean(k.sampled);
        std::vector<std::int64_t> from, to;
        for (const auto& r : k.columns) {
            from.push_back(r.from);
            to.push_back(r.to - 1);
        }
        w.key("position_from").integers(from);
        w.key("position_to").integers(to);
        const auto perPair = [&](const char* name, const std::vector<std::vector<double>>& v) {
            w.key(name).beginArray();
            for (const auto& row : v) jnums(w, row);
            w.endArray();
        };
        perPair("angle_error_min", k.angleMin);
        perPair("angle_error_max", k.angleMax);
        perPair("cos_error_min", k.cosMin);
        perPair("cos_error_max", k.cosMax);
        perPair("sin_error_min", k.sinMin);
        perPair("sin_error_max", k.sinMax);
        w.key("colliding_positions").integer(k.colliding);
        if (k.firstCollision) w.key("first_collision").integer(*k.firstCollision);
        else w.key("first_collision").null();
        std::vector<std::int64_t> cols;
        for (std::size_t c = 0; c < k.columnCollides.size(); ++c)
            if (k.columnCollides[c]) cols.push_back(static_cast<std::int64_t>(c));
        w.key("colliding_columns").integers(cols);
        w.key("log_positions").integers(k.logPositions);
        jnums(w.key("log_max_abs_error"), k.logMaxAbs);
        // The score error heatmap, as the heatmap view's panels are written.
        heatmapJson(w.key("score_error"), k.scoreError);
        w.endObject();
    }
    w.endArray().endObject();
}

// The view's results at the resolution a figure of the request's size would use.
struct ViewData {
    ViewKind view;
    QString csv;
    std::function<void(JsonWriter&)> json;   // writes the view's values as one object
};

std::vector<ViewData> viewData(const SceneParams& scene, const ExportRequest& r) {
    const Theme theme = exportTheme(scene, r);
    const double dpr = r.dpi / kScreenDpi;
    std::vector<ViewData> out;
    for (const auto& placed : placeSceneViews(QRectF(QPointF(0, 0), logicalSize(r)), scene, r.view, theme)) {
        const DisplaySpec d = displayFor(scene, placed.view, placed.rect, theme, dpr);
        ViewData v{placed.view, {}, {}};
        switch (placed.view) {
        case ViewKind::Pairs: {
            const auto res = noted(placed.view, computePairs(scene, d));
            v.csv = pairsCsv(res);
            v.json = [res](JsonWriter& w) { pairsJson(w, res); };
            break;
        }
        case ViewKind::Heatmap: {
            const auto res = noted(placed.view, computeHeatmap(scene, d));
            v.csv = heatmapCsv(res);
            v.json = [res](JsonWriter& w) { heatmapJson(w, res); };
            break;
        }
        case ViewKind::Decay: {
            const auto res = noted(placed.view, computeDecay(scene, d));
            v.csv = decayCsv(res);
            v.json = [res](JsonWriter& w) { decayJson(w, res); };
            break;
        }
        case ViewKind::Frequencies: {
            const auto res = noted(placed.view, computeFrequencies(scene));
            v.csv = frequenciesCsv(res);
            v.json = [res](JsonWriter& w) { frequenciesJson(w, res); };
            break;
        }
        case ViewKind::Contributions: {
            const auto res = noted(placed.view, computeContributions(scene, d));
            v.csv = contributionsCsv(res);
            v.json = [res](JsonWriter& w) { contributionsJson(w, res); };
            break;
        }
        case ViewKind::Precision: {
            const auto res = noted(placed.view, computePrecision(scene, d));
            v.csv = precisionCsv(res);
            v.json = [res](JsonWriter& w) { precisionJson(w, res); };
            break;
        }
        }
        out.push_back(std::move(v));
    }
    return out;
}

// What is wrong with a PNG file's structure, or nullopt when it is sound: the signature, every
// chunk complete and matching its CRC, a valid IHDR first, PLTE where libpng needs it, no unknown
// critical chunk, IEND at the end. Checked before libpng reads the file, because libpng reports
// a damaged file on stderr itself (its default error handler: "libpng error: Read Error"), which
// would break the command line's one-line errors and which the window cannot show.
std::optional<QString> pngDamage(QIODevice& in) {
    static const QByteArray signature("\x89PNG\r\n\x1a\n", 8);
    if (in.read(8) != signature) return FigureExport::tr("not a PNG image (no PNG signature)");
    static const auto table = [] {
        std::array<quint32, 256> t{};
        for (quint32 n = 0; n < 256; ++n) {
            quint32 c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    const auto update = [](quint32 crc, const QByteArray& bytes) {
        for (char b : bytes) crc = table[(crc ^ quint8(b)) & 0xff] ^ (crc >> 8);
        return crc;
    };
    const auto be32 = [](const QByteArray& b, int at) {
        return (quint32(quint8(b[at])) << 24) | (quint32(quint8(b[at + 1])) << 16) | (quint32(quint8(b[at + 2])) << 8) |
               quint32(quint8(b[at + 3]));
    };
    qint64 offset = 8;
    int colourType = -1;
    bool havePalette = false, haveData = false;
    for (;;) {
        const QByteArray head = in.read(8);
        if (head.size() < 8) return FigureExport::tr("the PNG is truncated (no IEND chunk, the file ends at byte %1)").arg(offset + head.size());
        const quint32 length = be32(head, 0);
        const QByteArray type = head.mid(4, 4);
        for (char c : type)
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')))
                return FigureExport::tr("damaged PNG: invalid chunk type at byte %1").arg(offset + 4);
        const QString name = QString::fromLatin1(type);
        if (length > 0x7fffffffu) return FigureExport::tr("damaged PNG: chunk %1 at byte %2 has an invalid length").arg(name).arg(offset);
        quint32 crc = update(0xffffffffu, type);
        QByteArray data;   // kept for the small chunks checked below
        for (qint64 left = length; left > 0;) {
            const QByteArray piece = in.read(std::min<qint64>(left, 1 << 16));
            if (piece.isEmpty())
                return FigureExport::tr("the PNG is truncated (chunk %1 at byte %2 is cut short)").arg(name).arg(offset);
            crc = update(crc, piece);
            if (length <= 13) data += piece;
            left -= piece.size();
        }
        const QByteArray stored = in.read(4);
        if (stored.size() < 4) return FigureExport::tr("the PNG is truncated (chunk %1 at byte %2 is cut short)").arg(name).arg(offset);
        if (be32(stored, 0) != (crc ^ 0xffffffffu))
            return FigureExport::tr("damaged PNG: chunk %1 at byte %2 fails its CRC check").arg(name).arg(offset);
        if (colourType < 0) {
            if (type != "IHDR" || length != 13) return FigureExport::tr("damaged PNG: it does not start with an IHDR chunk");
            const quint32 w = be32(data, 0), h = be32(data, 4);
            const int depth = quint8(data[8]);
            colourType = quint8(data[9]);
            // libpng's limits (png_check_IHDR with its default user limits).
            if (w < 1 || h < 1 || w > 1000000 || h > 1000000)
                return FigureExport::tr("damaged PNG: IHDR size %1 × %2, valid: 1 to 1000000 pixels per side").arg(w).arg(h);
            const bool depthOk = (colourType == 0 && (depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16)) ||
                                 (colourType == 3 && (depth == 1 || depth == 2 || depth == 4 || depth == 8)) ||
                                 ((colourType == 2 || colourType == 4 || colourType == 6) && (depth == 8 || depth == 16));
            if (!depthOk || data[10] != 0 || data[11] != 0 || quint8(data[12]) > 1)
                return FigureExport::tr("damaged PNG: invalid IHDR (colour type %1, bit depth %2)").arg(colourType).arg(depth);
        } else if (type == "IHDR") {
            return FigureExport::tr("damaged PNG: a second IHDR chunk at byte %1").arg(offset);
        } else if (type == "PLTE") {
            if (havePalette || haveData || length == 0 || length % 3 != 0 || length > 768)
                return FigureExport::tr("damaged PNG: invalid PLTE chunk at byte %1").arg(offset);
            havePalette = true;
        } else if (type == "IDAT") {
            if (colourType == 3 && !havePalette) return FigureExport::tr("damaged PNG: a palette image without PLTE");
            haveData = true;
        } else if (type == "IEND") {
            if (!haveData) return FigureExport::tr("damaged PNG: no image data (IDAT) before IEND");
            return std::nullopt;
        } else if (type[0] >= 'A' && type[0] <= 'Z') {
            return FigureExport::tr("damaged PNG: unknown critical chunk %1 at byte %2").arg(name).arg(offset);
        }
        offset += 12 + qint64(length);
    }
}

QString unescapeXml(QString s) {
    s.replace(QStringLiteral("&quot;"), QStringLiteral("\""));
    s.replace(QStringLiteral("&#39;"), QStringLiteral("'"));
    s.replace(QStringLiteral("&apos;"), QStringLiteral("'"));
    s.replace(QStringLiteral("&lt;"), QStringLiteral("<"));
    s.replace(QStringLiteral("&gt;"), QStringLiteral(">"));
    s.replace(QStringLiteral("&amp;"), QStringLiteral("&"));
    return s;
}

}  // namespace

// ---- Names ------------------------------------------------------------------------------------------

QString exportFormatKey(ExportFormat f) {
    switch (f) {
    case ExportFormat::Png: return QStringLiteral("png");
    case ExportFormat::Svg: return QStringLiteral("svg");
    case ExportFormat::Pdf: return QStringLiteral("pdf");
    case ExportFormat::Csv: return QStringLiteral("csv");
    case ExportFormat::Json: return QStringLiteral("json");
    }
    return {};
}

QStringList exportFormatKeys() {
    return {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"), QStringLiteral("csv"), QStringLiteral("json")};
}

std::optional<ExportFormat> exportFormatFromKey(const QString& key) {
    for (ExportFormat f : {ExportFormat::Png, ExportFormat::Svg, ExportFormat::Pdf, ExportFormat::Csv, ExportFormat::Json})
        if (key.compare(exportFormatKey(f), Qt::CaseInsensitive) == 0) return f;
    return std::nullopt;
}

std::optional<ExportFormat> exportFormatFromPath(const QString& path) {
    return exportFormatFromKey(QFileInfo(path).suffix());
}

QString viewKey(ViewKind v) {
    switch (v) {
    case ViewKind::Pairs: return QStringLiteral("pairs");
    case ViewKind::Heatmap: return QStringLiteral("heatmap");
    case ViewKind::Decay: return QStringLiteral("decay");
    case ViewKind::Frequencies: return QStringLiteral("frequencies");
    case ViewKind::Contributions: return QStringLiteral("contributions");
    case ViewKind::Precision: return QStringLiteral("precision");
    }
    return {};
}

QString viewTitle(ViewKind v) {
    switch (v) {
    case ViewKind::Pairs: return FigureExport::tr("Pair vectors");
    case ViewKind::Heatmap: return FigureExport::tr("Attention heatmap");
    case ViewKind::Decay: return FigureExport::tr("Decay with distance");
    case ViewKind::Frequencies: return FigureExport::tr("Frequencies");
    case ViewKind::Contributions: return FigureExport::tr("Per-pair contributions");
    case ViewKind::Precision: return FigureExport::tr("Precision");
    }
    return {};
}

QStringList viewKeys() {
    QStringList out;
    for (ViewKind v : kAllViews) out << viewKey(v);
    return out;
}

std::optional<ViewKind> viewFromKey(const QString& key) {
    for (ViewKind v : kAllViews)
        if (key == viewKey(v)) return v;
    return std::nullopt;
}

std::vector<ViewKind> visibleViews(const SceneParams& scene) { return sceneArrangement(scene).views; }

// ---- Requests -------------------------------------------------------------------------------------

std::optional<QString> exportRequestProblem(const ExportRequest& r) {
    const auto side = [](const char* name, int v) -> std::optional<QString> {
        if (v < kMinExportPixels || v > kMaxExportPixels)
            return FigureExport::tr("%1: an integer from %2 to %3, got %4").arg(QLatin1String(name)).arg(kMinExportPixels).arg(kMaxExportPixels).arg(v);
        return std::nullopt;
    };
    if (auto e = side("width", r.pixels.width())) return e;
    if (auto e = side("height", r.pixels.height())) return e;
    if (qint64(r.pixels.width()) * r.pixels.height() > kMaxExportArea)
        return FigureExport::tr("width × height: at most %1 pixels, got %2").arg(kMaxExportArea).arg(qint64(r.pixels.width()) * r.pixels.height());
    if (r.dpi < kMinDpi || r.dpi > kMaxDpi)
        return FigureExport::tr("dpi: an integer from %1 to %2, got %3").arg(kMinDpi).arg(kMaxDpi).arg(r.dpi);
    // The picture must stay large enough to lay out the views: at least 64 logical pixels.
    const double scale = kScreenDpi / r.dpi;
    if (r.pixels.width() * scale < kMinExportPixels || r.pixels.height() * scale < kMinExportPixels)
        return FigureExport::tr("dpi: at most %1 for a %2 × %3 figure (at least 64 × 64 at 96 dpi), got %4")
            .arg(int(std::floor(std::min(r.pixels.width(), r.pixels.height()) * kScreenDpi / kMinExportPixels)))
            .arg(r.pixels.width()).arg(r.pixels.height()).arg(r.dpi);
    if (!r.theme.isEmpty() && !themeNames().contains(r.theme))
        return FigureExport::tr("theme: one of %1, got %2").arg(themeNames().join(QStringLiteral(", ")), r.theme);
    if (r.fontScale && !(*r.fontScale >= 0.5 && *r.fontScale <= 3.0))
        return FigureExport::tr("font scale: a number from 0.5 to 3, got %1").arg(num(*r.fontScale).isEmpty() ? QStringLiteral("nan") : num(*r.fontScale));
    return std::nullopt;
}

Theme exportTheme(const SceneParams& scene, const ExportRequest& r) {
    return themeByName(r.theme.isEmpty() ? scene.view.theme : r.theme, r.fontScale.value_or(scene.view.fontScale));
}

void paintViews(QPainter& painter, const QRectF& rect, const SceneParams& scene, std::optional<ViewKind> view,
                const Theme& theme, double devicePixelRatio) {
    painter.fillRect(rect, theme.background);
    QRectF area = rect;
    if (const int layers = view ? -1 : layersConfigOf(scene); layers >= 0) {
        // The layer overview, as the window shows it: a row of its own under the other views.
        const auto [views, overview] = splitForLayers(rect, theme);
        area = views;
        if (auto* capture = currentLayoutCapture()) capture->setView(QStringLiteral("layers"));
        painter.save();
        painter.setClipRect(overview);
        painter.setRenderHint(QPainter::TextAntialiasing, true);
        drawLayers(painter, overview, layersPictureOf(scene, layers), theme);
        painter.restore();
    }
    for (const auto& placed : placeSceneViews(area, scene, view, theme)) {
        if (auto* capture = currentLayoutCapture()) capture->setView(viewKey(placed.view));
        paintOne(painter, placed.rect, scene, placed.view, theme, devicePixelRatio);
    }
}

LayoutReport exportLayout(const SceneParams& scene, const ExportRequest& r, QImage* textFree) {
    LayoutReport report;
    report.bounds = QRectF(0, 0, r.pixels.width(), r.pixels.height());
    if (exportRequestProblem(r) || sceneProblem(scene)) return report;
    const Theme theme = exportTheme(scene, r);
    const double dpr = r.dpi / kScreenDpi;
    report.minPlot = minPlotSide(theme) * dpr;
    // Drawn as the PNG is (same size, same device pixel ratio), into a throwaway image.
    QImage img(r.pixels, QImage::Format_ARGB32_Premultiplied);
    if (img.isNull()) return report;
    img.setDevicePixelRatio(dpr);
    {
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setRenderHint(QPainter::TextAntialiasing, true);
        LayoutCapture capture(report, dpr);
        capture.setPaintText(textFree == nullptr);
        paintViews(p, QRectF(QPointF(0, 0), logicalSize(r)), scene, r.view, theme, dpr);
    }
    if (textFree) {
        img.setDevicePixelRatio(1.0);
        *textFree = std::move(img);
    }
    return report;
}

void writeLayoutJson(JsonWriter& w, const LayoutReport& report) {
    w.beginArray();
    for (const auto& item : report.items) {
        if (item.kind == LayoutItemKind::Panel) continue;   // the report's bookkeeping (layout.h), not cli.md's
        w.beginObject();
        jstr(w.key("view"), item.view);
        jstr(w.key("kind"), layoutItemKindKey(item.kind));
        w.key("rect").beginArray();
        for (double v : {item.rect.x(), item.rect.y(), item.rect.width(), item.rect.height()}) w.number(std::round(v * 100) / 100);
        w.endArray();
        if (item.kind == LayoutItemKind::Text) {
            jstr(w.key("text"), item.text);
            w.key("px").number(std::round(item.px * 100) / 100);
        }
        if (!item.cells.isEmpty()) w.key("cells").beginArray().integer(item.cells.width()).integer(item.cells.height()).endArray();
        w.key("elided").boolean(item.elided);
        w.endObject();
    }
    w.endArray();
}

QByteArray exportCsv(const SceneParams& scene, const ExportRequest& r) {
    QString out = QStringLiteral("# PosLab %1 — %2\n# %3: %4\n")
                      .arg(poslabVersion(), figureTitle(scene, r.view), QLatin1String(kSessionKey),
                           QString::fromUtf8(sceneToJson(scene, true)));
    const auto data = viewData(scene, r);
    for (std::size_t k = 0; k < data.size(); ++k) {
        if (data.size() > 1) {
            if (k) out += QLatin1Char('\n');
            out += QStringLiteral("# view: %1\n").arg(viewKey(data[k].view));
        }
        out += data[k].csv;
    }
    return out.toUtf8();
}

QByteArray exportJson(const SceneParams& scene, const ExportRequest& r) {
    JsonWriter w(JsonWriter::Style::Pretty);
    w.beginObject();
    w.key("format").string("poslab-data");
    jstr(w.key("app_version"), poslabVersion());
    jstr(w.key("title"), figureTitle(scene, r.view));
    w.key("views").beginObject();
    for (const auto& v : viewData(scene, r)) v.json(w.key(viewKey(v.view).toStdString()));
    w.endObject();
    // What the layout engine placed in the figure of this size (cli.md: `layout`).
    writeLayoutJson(w.key("layout"), exportLayout(scene, r));
    writeSessionJson(w.key("session"), Session{{SessionScene{QString(), QString(), scene, {}}}, 0});
    w.endObject();
    return QByteArray::fromStdString(w.text()) + '\n';
}

std::optional<QByteArray> exportBytes(const SceneParams& scene, const ExportRequest& r, QString* error, QStringList* refusals) {
    QStringList* const outer = tRefusals;
    tRefusals = refusals;
    const auto restore = qScopeGuard([outer] { tRefusals = outer; });
    if (auto e = exportRequestProblem(r)) {
        if (error) *error = *e;
        return std::nullopt;
    }
    if (auto e = sceneProblem(scene)) {
        if (error) *error = FigureExport::tr("the scene is not valid: ") + *e;
        return std::nullopt;
    }
    // Every figure carries its scene, which must open again: refuse what the session reader
    // refuses (it checks more than sceneProblem(): at most kMaxConfigs configurations, the head,
    // the pairs, the view's ranges).
    {
        const QString source = QStringLiteral("scene");
        QString why;
        if (!sessionFromJson(sceneToJson(scene, true), source, &why)) {
            if (error) *error = FigureExport::tr("the scene is not valid: ") + why.mid(source.size() + 2);
            return std::nullopt;
        }
    }
    const Theme theme = exportTheme(scene, r);
    try {
        switch (r.format) {
        case ExportFormat::Png:
        case ExportFormat::Svg:
        case ExportFormat::Pdf: return renderImage(scene, r, theme, error);
        case ExportFormat::Csv: return exportCsv(scene, r);
        case ExportFormat::Json: return exportJson(scene, r);
        }
    } catch (const std::bad_alloc&) {
        if (error) *error = FigureExport::tr("not enough memory for this figure");
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
    }
    return std::nullopt;
}

bool exportToFile(const QString& path, const SceneParams& scene, const ExportRequest& request, QString* error) {
    QString why;
    const auto bytes = exportBytes(scene, request, &why);
    if (!bytes) {
        if (error) *error = FigureExport::tr("cannot export %1: %2").arg(path, why);
        return false;
    }
    return writeFileAtomically(path, *bytes, error);
}

std::optional<Session> sessionFromExport(const QString& path, QString* error, QStringList* warnings) {
    const auto failWith = [&](const QString& what) -> std::optional<Session> {
        if (error) *error = path + QStringLiteral(": ") + what;
        return std::nullopt;
    };
    const auto format = exportFormatFromPath(path);
    if (!format) return failWith(FigureExport::tr("not an exported figure (.png, .svg, .pdf, .csv or .json)"));
    QByteArray json;
    if (*format == ExportFormat::Png) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) return failWith(f.errorString());
        if (auto damage = pngDamage(f)) return failWith(*damage);
        f.close();
        QImageReader reader(path, "png");
        if (!reader.canRead()) return failWith(FigureExport::tr("cannot read the PNG: ") + reader.errorString());
        json = reader.text(QString::fromLatin1(kSessionKey)).toUtf8();
    } else {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) return failWith(f.errorString());
        const QByteArray data = f.read(256LL * 1024 * 1024);
        if (*format == ExportFormat::Svg) {
            QXmlStreamReader xml(data);
            while (!xml.atEnd()) {
                if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("session") &&
                    xml.namespaceUri() == QLatin1String(kXmlNamespace)) {
                    json = xml.readElementText().toUtf8();
                    break;
                }
            }
        } else if (*format == ExportFormat::Pdf) {
            const qsizetype a = data.indexOf("<poslab:session>");
            const qsizetype b = data.indexOf("</poslab:session>", a);
            if (a >= 0 && b > a) json = unescapeXml(QString::fromUtf8(data.mid(a + 16, b - a - 16))).toUtf8();
        } else if (*format == ExportFormat::Csv) {
            const QByteArray marker = "# " + QByteArray(kSessionKey) + ": ";
            const qsizetype a = data.indexOf(marker);
            if (a >= 0) json = data.mid(a + marker.size(), data.indexOf('\n', a) - a - marker.size());
        } else {
            const QJsonObject root = QJsonDocument::fromJson(data).object();
            if (root.contains(QStringLiteral("session")))
                json = QJsonDocument(root.value(QStringLiteral("session")).toObject()).toJson(QJsonDocument::Compact);
        }
    }
    if (json.isEmpty()) return failWith(FigureExport::tr("carries no PosLab scene"));
    return sessionFromJson(json, path, error, warnings);
}

}  // namespace poslab::ui
