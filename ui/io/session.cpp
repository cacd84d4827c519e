#include "ui/io/session.h"

#include "ui/io/atomicfile.h"
#include "core/demonstrations.h"
#include "core/json.h"
#include "ui/render/theme.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <utility>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "0.1.0"
#endif

namespace poslab::ui {

namespace {
// The words people read about session files (errors, reports), translated in the context "SessionFile"
// (Q_DECLARE_TR_FUNCTIONS: lupdate extracts them, and SessionFile::tr works off the GUI thread).
struct SessionFile {
    Q_DECLARE_TR_FUNCTIONS(SessionFile)
};
}  // namespace

QString poslabVersion() { return QStringLiteral(POSLAB_VERSION); }

QString slideArrangementKey(SlideArrangement a) {
    switch (a) {
    case SlideArrangement::Auto: return QStringLiteral("auto");
    case SlideArrangement::Single: return QStringLiteral("single");
    case SlideArrangement::SideBySide: return QStringLiteral("side_by_side");
    case SlideArrangement::Grid: return QStringLiteral("grid");
    case SlideArrangement::Demo: return QStringLiteral("demo");
    }
    return QStringLiteral("auto");
}

std::optional<SlideArrangement> slideArrangementFromKey(const QString& key) {
    for (SlideArrangement a : kAllSlideArrangements)
        if (slideArrangementKey(a) == key) return a;
    return std::nullopt;
}

std::pair<int, int> slideViewCount(SlideArrangement a) {
    switch (a) {
    case SlideArrangement::Auto: return {0, 0};
    case SlideArrangement::Single: return {1, 1};
    case SlideArrangement::SideBySide: return {2, 2};
    case SlideArrangement::Grid: return {1, 4};
    case SlideArrangement::Demo: return {0, 4};
    }
    return {0, 0};
}

namespace {

// ---- Writer: every parameter from its table (core/param.h), through the one JSON writer ----------

// The entries of `group` ("" = the struct's own fields) as keys of the open object.
template <class S>
void writeGroup(JsonWriter& w, const ParamTable<S>& table, const S& s, std::string_view group) {
    for (const auto& p : table)
        if (p.group == group) w.key(p.info.name).value(p.get(s));
}

// The struct's own fields, then each nested group as an object under its key.
template <class S>
void writeParams(JsonWriter& w, const ParamTable<S>& table, const S& s) {
    writeGroup(w, table, s, {});
    std::vector<std::string_view> groups;
    for (const auto& p : table)
        if (!p.group.empty() && std::find(groups.begin(), groups.end(), p.group) == groups.end()) groups.push_back(p.group);
    for (auto g : groups) {
        w.key(g).beginObject();
        writeGroup(w, table, s, g);
        w.endObject();
    }
}

// The view names of the "slide" object (as the command line and export name them).
const char* sessionViewKey(ViewKind v) {
    switch (v) {
    case ViewKind::Pairs: return "pairs";
    case ViewKind::Heatmap: return "heatmap";
    case ViewKind::Decay: return "decay";
    case ViewKind::Frequencies: return "frequencies";
    case ViewKind::Contributions: return "contributions";
    case ViewKind::Precision: return "precision";
    }
    return "pairs";
}

void writeScene(JsonWriter& w, const SessionScene& s) {
    w.beginObject();
    w.key("title").string(s.title.toStdString());
    w.key("notes").string(s.notes.toStdString());
    if (!s.slide.isAuto()) {
        w.key("slide").beginObject();
        w.key("arrangement").string(slideArrangementKey(s.slide.arrangement).toStdString());
        w.key("views").beginArray();
        for (ViewKind v : s.slide.views) w.string(sessionViewKey(v));
        w.endArray();
        w.key("demo").string(s.slide.demo.toStdString());
        w.endObject();
    }
    writeParams(w, sceneParamTable(), s.scene);
    w.key("view").beginObject();
    writeParams(w, viewParamTable(), s.scene.view);
    w.endObject();
    w.key("methods").beginArray();
    for (const auto& c : s.scene.methods) {
        w.beginObject();
        w.key("label").string(c.label.toStdString());
        writeParams(w, scoreParamTable(), c.params);
        writeParams(w, methodParamTable(), c);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

// ---- Reader ---------------------------------------------------------------------------------------

QString describe(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const qint64 a = v.toInteger(0), b = v.toInteger(1);
        if (a == b) return QString::number(a);
        return QString::fromStdString(formatNumber(v.toDouble()));
    }
    case QJsonValue::String: {
        QString s = v.toString();
        if (s.size() > 40) s = s.left(37) + QStringLiteral("...");
        // One line whatever the file holds.
        for (QChar& c : s)
            if (c.unicode() < 0x20) c = QLatin1Char(' ');
        return QLatin1Char('"') + s + QLatin1Char('"');
    }
    case QJsonValue::Array: return SessionFile::tr("an array");
    case QJsonValue::Object: return SessionFile::tr("an object");
    case QJsonValue::Undefined: return QStringLiteral("nothing");
    }
    return QStringLiteral("?");
}

// A key as messages show it: printable, one line, at most 40 characters.
QString keyText(const QString& k) {
    QString s = k.size() > 40 ? k.left(37) + QStringLiteral("...") : k;
    for (QChar& c : s)
        if (c.unicode() < 0x20) c = QLatin1Char(' ');
    return s;
}

// Throws nothing: the first failure is recorded and every later read is a no-op.
class Reader {
public:
    Reader(QString source, QStringList* warnings) : source_(std::move(source)), warnings_(warnings) {}

    bool failed() const { return !error_.isEmpty(); }
    const QString& error() const { return error_; }

    void fail(const QString& path, const QString& what) {
        if (failed()) return;
        // One line, always: a value or key quoted from the file may hold control characters.
        const QString line = path.isEmpty() ? what : path + QStringLiteral(": ") + what;
        error_ = source_ + QStringLiteral(": ") + QString::fromStdString(printable(line.toStdString()));
    }
    void failGot(const QString& path, const QString& valid, const QJsonValue& got) {
        fail(path, valid + QStringLiteral(", got ") + describe(got));
    }
    void warn(const QString& text) {
        if (warnings_) warnings_->append(source_ + QStringLiteral(": ") + text);
    }

    static QString join(const QString& path, const QString& key) {
        return path.isEmpty() ? key : path + QLatin1Char('.') + key;
    }

    // The object at `v`, reporting keys not in `known` as warnings.
    std::optional<QJsonObject> object(const QJsonValue& v, const QString& path, const std::set<QString>& known) {
        if (failed()) return std::nullopt;
        if (!v.isObject()) { failGot(path, SessionFile::tr("expected an object"), v); return std::nullopt; }
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!known.count(it.key())) warn(SessionFile::tr("unknown field %1, ignored").arg(join(path, keyText(it.key()))));
        return o;
    }

    void string(const QJsonObject& o, const char* key, const QString& path, QString& out, qsizetype maxLength = 1 << 20) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        if (!v.isString()) { failGot(join(path, QLatin1String(key)), SessionFile::tr("expected a string"), v); return; }
        if (v.toString().size() > maxLength) {
            fail(join(path, QLatin1String(key)), SessionFile::tr("a text of at most %1 characters, got %2").arg(maxLength).arg(v.toString().size()));
            return;
        }
        out = validText(v.toString());
    }

    // Text as saving writes it: a lone UTF-16 surrogate becomes U+FFFD now, so that read → save →
    // read gives the same text.
    static QString validText(const QString& s) { return QString::fromUtf8(s.toUtf8()); }

    // A JSON value as the parameter's kind; then the table's range check (`range`; a shared
    // field of a method's struct is overwritten from the configuration's own and is not checked).
    std::optional<ParamValue> value(const ParamInfo& info, const QJsonValue& v, const QString& path, bool range = true) {
        if (failed()) return std::nullopt;
        const QString valid = QString::fromStdString(info.valid());
        auto bad = [&]() -> std::optional<ParamValue> {
            failGot(path, valid, v);
            return std::nullopt;
        };
        if (v.isNull()) {
            if (!info.optional) return bad();
            return ParamValue{};
        }
        auto integral = [](const QJsonValue& x) -> std::optional<std::int64_t> {
            if (!x.isDouble()) return std::nullopt;
            const qint64 a = x.toInteger(0), b = x.toInteger(1);
            if (a != b) return std::nullopt;
            return a;
        };
        ParamValue out;
        switch (info.kind) {
        case ParamKind::Int: {
            auto x = integral(v);
            if (!x) return bad();
            out = *x;
            break;
        }
        case ParamKind::Real:
            // QJsonDocument turns numbers too large for a double (1e999) into ±infinity: refused.
            if (!v.isDouble() || !std::isfinite(v.toDouble())) return bad();
            out = v.toDouble();
            break;
        case ParamKind::Bool:
            if (!v.isBool()) return bad();
            out = v.toBool();
            break;
        case ParamKind::Choice:
        case ParamKind::Text:
            if (!v.isString()) return bad();
            if (static_cast<std::size_t>(v.toString().size()) > info.maxChars) {
                fail(path, SessionFile::tr("a text of at most %1 characters, got %2").arg(info.maxChars).arg(v.toString().size()));
                return std::nullopt;
            }
            out = v.toString().toStdString();
            break;
        case ParamKind::Seed: {
            if (v.isString()) {
                const QString t = v.toString();
                bool ok = false;
                const qulonglong x = t.toULongLong(&ok);
                if (!ok || t.startsWith(QLatin1Char('-')) || t.startsWith(QLatin1Char('+'))) return bad();
                out = static_cast<std::uint64_t>(x);
            } else {
                auto x = integral(v);
                if (!x || *x < 0) return bad();
                out = static_cast<std::uint64_t>(*x);
            }
            break;
        }
        case ParamKind::RealList:
        case ParamKind::IntList: {
            if (!v.isArray()) return bad();
            const QJsonArray a = v.toArray();
            if (static_cast<std::size_t>(a.size()) > info.maxEntries) {
                fail(path, SessionFile::tr("at most %1 entries, got %2").arg(info.maxEntries).arg(a.size()));
                return std::nullopt;
            }
            std::vector<double> reals;
            std::vector<std::int64_t> ints;
            for (qsizetype k = 0; k < a.size(); ++k) {
                const QJsonValue e = a.at(k);
                if (info.kind == ParamKind::RealList) {
                    if (!e.isDouble() || !std::isfinite(e.toDouble())) {
                        failGot(path + QStringLiteral("[%1]").arg(k), valid, e);
                        return std::nullopt;
                    }
                    reals.push_back(e.toDouble());
                } else {
                    auto x = integral(e);
                    if (!x) {
                        failGot(path + QStringLiteral("[%1]").arg(k), valid, e);
                        return std::nullopt;
                    }
                    ints.push_back(*x);
                }
            }
            if (info.kind == ParamKind::RealList) out = std::move(reals);
            else out = std::move(ints);
            break;
        }
        }
        if (auto e = range ? info.check(out) : Check{}) {
            const bool list = info.kind == ParamKind::RealList || info.kind == ParamKind::IntList;
            fail(path, QString::fromStdString(e->valid) + QStringLiteral(", got ") + (list ? QString::fromStdString(e->got) : describe(v)));
            return std::nullopt;
        }
        return out;
    }

    // Reads the entries of `group` from the object `o` at `path`; missing keys keep their value.
    template <class S>
    void group(const ParamTable<S>& table, std::string_view group, const QJsonObject& o, const QString& path, S& s) {
        for (const auto& p : table) {
            if (failed()) return;
            if (p.group != group) continue;
            const QJsonValue v = o.value(QLatin1String(p.info.name.data(), static_cast<qsizetype>(p.info.name.size())));
            if (v.isUndefined()) continue;
            const bool range = group.empty() || !p.info.has(kParamShared);
            if (auto x = value(p.info, v, join(path, QString::fromUtf8(p.info.name.data(), static_cast<qsizetype>(p.info.name.size()))), range))
                p.set(s, *x);
        }
    }

    // The struct's own fields from `o`, then each nested group from its object.
    template <class S>
    void params(const ParamTable<S>& table, const QJsonObject& o, const QString& path, S& s) {
        this->group(table, {}, o, path, s);
        std::vector<std::string_view> groups;
        for (const auto& p : table)
            if (!p.group.empty() && std::find(groups.begin(), groups.end(), p.group) == groups.end()) groups.push_back(p.group);
        for (auto g : groups) {
            const QString key = QString::fromUtf8(g.data(), static_cast<qsizetype>(g.size()));
            if (!o.contains(key) || failed()) continue;
            const QString gp = join(path, key);
            if (auto inner = object(o.value(key), gp, known(table, g))) this->group(table, g, *inner, gp, s);
        }
    }

    // The keys of `group` (and, for the own fields, the nested groups' keys) plus `extra`.
    template <class S>
    static std::set<QString> known(const ParamTable<S>& table, std::string_view group, std::initializer_list<const char*> extra = {}) {
        std::set<QString> names;
        for (const char* k : extra) names.insert(QString::fromLatin1(k));
        for (const auto& p : table) {
            if (p.group == group) names.insert(QString::fromUtf8(p.info.name.data(), static_cast<qsizetype>(p.info.name.size())));
            else if (group.empty()) names.insert(QString::fromUtf8(p.group.data(), static_cast<qsizetype>(p.group.size())));
        }
        return names;
    }

private:
    QString source_;
    QStringList* warnings_;
    QString error_;
};

void readMethod(Reader& r, const QJsonValue& v, const QString& path, MethodConfig& c) {
    auto o = r.object(v, path, Reader::known(scoreParamTable(), {}, {"label", "mrope"}));
    if (!o) return;
    r.string(*o, "label", path, c.label, kMaxLabelLength);
    r.params(scoreParamTable(), *o, path, c.params);
    r.params(methodParamTable(), *o, path, c);
}

void readSlide(Reader& r, const QJsonValue& v, const QString& path, SlideLayout& out) {
    auto o = r.object(v, path, {QStringLiteral("arrangement"), QStringLiteral("views"), QStringLiteral("demo")});
    if (!o) return;
    QString names;
    for (SlideArrangement a : kAllSlideArrangements)
        names += (names.isEmpty() ? QString() : QStringLiteral(", ")) + slideArrangementKey(a);
    const QJsonValue av = o->value(QLatin1String("arrangement"));
    if (!av.isUndefined()) {
        const auto a = av.isString() ? slideArrangementFromKey(av.toString()) : std::nullopt;
        if (!a) {
            r.failGot(Reader::join(path, QStringLiteral("arrangement")), SessionFile::tr("one of %1").arg(names), av);
            return;
        }
        out.arrangement = *a;
    }
    const QJsonValue vv = o->value(QLatin1String("views"));
    const auto [lo, hi] = slideViewCount(out.arrangement);
    const QString vp = Reader::join(path, QStringLiteral("views"));
    const QString validViews = lo == hi ? SessionFile::tr("%1 of pairs, heatmap, decay, frequencies, contributions, precision without repeats for %2").arg(lo).arg(slideArrangementKey(out.arrangement))
                                        : SessionFile::tr("%1 to %2 of pairs, heatmap, decay, frequencies, contributions, precision without repeats for %3").arg(lo).arg(hi).arg(slideArrangementKey(out.arrangement));
    if (!vv.isUndefined()) {
        if (!vv.isArray()) {
            r.failGot(vp, validViews, vv);
            return;
        }
        const QJsonArray a = vv.toArray();
        for (qsizetype k = 0; k < a.size(); ++k) {
            std::optional<ViewKind> kind;
            for (ViewKind x : {ViewKind::Pairs, ViewKind::Heatmap, ViewKind::Decay, ViewKind::Frequencies, ViewKind::Contributions,
                               ViewKind::Precision})
                if (a.at(k).isString() && a.at(k).toString() == QLatin1String(sessionViewKey(x))) kind = x;
            if (!kind || std::find(out.views.begin(), out.views.end(), *kind) != out.views.end() || k >= 4) {
                r.failGot(vp + QStringLiteral("[%1]").arg(k), validViews, a.at(k));
                return;
            }
            out.views.push_back(*kind);
        }
    }
    if (int(out.views.size()) < lo || int(out.views.size()) > hi) {
        r.fail(vp, validViews + SessionFile::tr(", got %1").arg(out.views.size()));
        return;
    }
    r.string(*o, "demo", path, out.demo, 64);
    if (r.failed()) return;
    if (!out.demo.isEmpty()) {
        if (out.arrangement != SlideArrangement::Demo) {
            r.fail(Reader::join(path, QStringLiteral("demo")), SessionFile::tr("only for the demo arrangement, got arrangement %1").arg(slideArrangementKey(out.arrangement)));
            return;
        }
        if (!demoFromKey(out.demo.toStdString())) {
            QString keys;
            for (const auto& d : demonstrations()) keys += (keys.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromStdString(d.key);
            r.failGot(Reader::join(path, QStringLiteral("demo")), SessionFile::tr("a demonstration (%1) or \"\"").arg(keys), o->value(QLatin1String("demo")));
        }
    }
}

void readScene(Reader& r, const QJsonValue& v, const QString& path, SessionScene& s) {
    auto o = r.object(v, path, Reader::known(sceneParamTable(), {}, {"title", "notes", "slide", "view", "methods"}));
    if (!o) return;
    SceneParams& p = s.scene;
    r.string(*o, "title", path, s.title);
    r.string(*o, "notes", path, s.notes);
    if (o->contains(QLatin1String("slide")) && !r.failed()) readSlide(r, o->value(QLatin1String("slide")), Reader::join(path, QStringLiteral("slide")), s.slide);
    // Sessions saved before the sections became each configuration's own kept them with the
    // scene's token layout ("mrope": {"mrope_section", "mrope_layout"}): they are read as every
    // configuration's that does not give its own.
    QJsonObject sceneSections;
    if (o->value(QLatin1String("mrope")).isObject()) {
        QJsonObject m = o->value(QLatin1String("mrope")).toObject();
        for (const char* k : {"mrope_section", "mrope_layout"})
            if (m.contains(QLatin1String(k))) {
                sceneSections.insert(QLatin1String(k), m.take(QLatin1String(k)));
            }
        if (!sceneSections.isEmpty()) o->insert(QLatin1String("mrope"), m);
    }
    r.params(sceneParamTable(), *o, path, p);
    if (o->contains(QLatin1String("view")) && !r.failed()) {
        const QString vp = Reader::join(path, QStringLiteral("view"));
        if (auto view = r.object(o->value(QLatin1String("view")), vp, Reader::known(viewParamTable(), {}))) {
            r.params(viewParamTable(), *view, vp, p.view);
            if (!r.failed() && view->contains(QLatin1String("theme")) && !themeNames().contains(p.view.theme))
                r.warn(SessionFile::tr("%1: unknown theme \"%2\" (known: %3), drawn as light")
                           .arg(Reader::join(vp, QStringLiteral("theme")), keyText(p.view.theme), themeNames().join(QStringLiteral(", "))));
        }
    }
    if (o->contains(QLatin1String("methods")) && !r.failed()) {
        const QString mp = Reader::join(path, QStringLiteral("methods"));
        const QJsonValue mv = o->value(QLatin1String("methods"));
        if (!mv.isArray()) {
            r.failGot(mp, SessionFile::tr("expected an array of 1 to %1 configurations").arg(kMaxConfigs), mv);
            return;
        }
        const QJsonArray a = mv.toArray();
        if (a.isEmpty() || a.size() > kMaxConfigs) {
            r.fail(mp, SessionFile::tr("1 to %1 configurations, got %2").arg(kMaxConfigs).arg(a.size()));
            return;
        }
        p.methods.assign(static_cast<std::size_t>(a.size()), MethodConfig{});
        for (qsizetype k = 0; k < a.size(); ++k)
            readMethod(r, a.at(k), mp + QStringLiteral("[%1]").arg(k), p.methods[static_cast<std::size_t>(k)]);
        if (!sceneSections.isEmpty() && !r.failed())
            for (qsizetype k = 0; k < a.size(); ++k)
                if (!a.at(k).toObject().contains(QLatin1String("mrope")))
                    r.params(methodParamTable(), QJsonObject{{QStringLiteral("mrope"), sceneSections}}, path,
                             p.methods[static_cast<std::size_t>(k)]);
    }
    if (r.failed()) return;
    // Cross-parameter rules: the core's own validation, pointed at the field that fails.
    for (std::size_t k = 0; k < p.methods.size(); ++k) {
        const ScoreParams eff = effectiveParams(p, static_cast<int>(k));
        if (auto e = eff.validate()) {
            const QString mp = Reader::join(path, QStringLiteral("methods[%1]").arg(k));
            // The field in the file: the method's own struct if it declares it, else the
            // configuration's (head_dim is the configuration's dim).
            const std::string g(methodParamGroup(eff.method));
            const bool inGroup = !g.empty() && e->parameter != "head_dim" && findParam(scoreParamTable(), g + "." + e->parameter);
            const QString field = QString::fromStdString(e->parameter == "head_dim" ? std::string("dim") : e->parameter);
            const QString where = inGroup ? Reader::join(Reader::join(mp, QString::fromStdString(g)), field) : Reader::join(mp, field);
            r.fail(where, QString::fromStdString(e->valid) + QStringLiteral(", got ") + QString::fromStdString(e->got));
            return;
        }
    }
    // Anything else the scene's own check knows about. The query/key files a scene names are not
    // the session's to check: they are loaded when the scene is shown, and a missing one is
    // reported there (the session keeps the path).
    if (auto problem = sceneProblemApartFromFiles(p)) r.fail(path, *problem);
}

}  // namespace

void writeSessionJson(JsonWriter& w, const Session& session) {
    w.beginObject();
    w.key("format").string("poslab-session");
    w.key("schema").integer(kSessionSchema);
    w.key("app_version").string(poslabVersion().toStdString());
    w.key("current").integer(session.current);
    w.key("scenes").beginArray();
    for (const auto& s : session.scenes) writeScene(w, s);
    w.endArray();
    w.endObject();
}

QByteArray sessionToJson(const Session& session, bool compact) {
    JsonWriter w(compact ? JsonWriter::Style::Compact : JsonWriter::Style::Pretty);
    writeSessionJson(w, session);
    // Non-finite numbers are written as null (and refused on reading): a scene never holds them.
    QByteArray out = QByteArray::fromStdString(w.text());
    if (!compact) out += '\n';
    return out;
}

QByteArray sceneToJson(const SceneParams& scene, bool compact) {
    Session s;
    s.scenes = {SessionScene{QString(), QString(), scene, {}}};
    s.current = 0;
    return sessionToJson(s, compact);
}

std::optional<Session> sessionFromJson(const QByteArray& json, const QString& source, QString* error, QStringList* warnings) {
    const auto failWith = [&](const QString& what) -> std::optional<Session> {
        if (error) *error = source + QStringLiteral(": ") + what;
        return std::nullopt;
    };
    if (json.size() > kMaxSessionBytes)
        return failWith(SessionFile::tr("too large for a session (%1 bytes, at most %2)").arg(json.size()).arg(kMaxSessionBytes));
    if (json.trimmed().isEmpty()) return failWith(SessionFile::tr("the file is empty, not a PosLab session"));
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError) {
        const bool truncated = pe.offset >= json.trimmed().size() - 1 || pe.error == QJsonParseError::UnterminatedObject ||
                               pe.error == QJsonParseError::UnterminatedArray || pe.error == QJsonParseError::UnterminatedString;
        return failWith(SessionFile::tr("not valid JSON (%1 at byte %2)%3")
                            .arg(pe.errorString())
                            .arg(pe.offset)
                            .arg(truncated ? SessionFile::tr(": the file is truncated") : SessionFile::tr(": the file is damaged")));
    }
    if (!doc.isObject()) return failWith(SessionFile::tr("not a PosLab session (the top level is not a JSON object)"));
    const QJsonObject root = doc.object();
    if (root.value(QLatin1String("format")).toString() != QLatin1String("poslab-session"))
        return failWith(SessionFile::tr("not a PosLab session (no \"format\": \"poslab-session\")"));
    const QJsonValue schemaValue = root.value(QLatin1String("schema"));
    const qint64 schema = schemaValue.toInteger(-1);
    if (!schemaValue.isDouble() || schema != schemaValue.toInteger(-2) || schema < 1)
        return failWith(SessionFile::tr("schema: a positive integer, got %1").arg(describe(schemaValue)));
    if (schema > kSessionSchema)
        return failWith(SessionFile::tr("written by a newer PosLab (schema %1%2), this version reads schema %3; update PosLab to open it")
                            .arg(schema)
                            .arg(root.value(QLatin1String("app_version")).isString()
                                     ? QStringLiteral(", version ") + root.value(QLatin1String("app_version")).toString()
                                     : QString())
                            .arg(kSessionSchema));

    Reader r(source, warnings);
    r.object(root, QString(), {QStringLiteral("format"), QStringLiteral("schema"), QStringLiteral("app_version"),
                               QStringLiteral("current"), QStringLiteral("scenes")});
    Session session;
    QString appVersion;
    r.string(root, "app_version", QString(), appVersion);
    const QJsonValue sv = root.value(QLatin1String("scenes"));
    if (!r.failed()) {
        if (!sv.isArray()) {
            r.failGot(QStringLiteral("scenes"), SessionFile::tr("expected an array of 1 to %1 scenes").arg(kMaxSessionScenes), sv);
        } else {
            const QJsonArray a = sv.toArray();
            if (a.isEmpty() || a.size() > kMaxSessionScenes) {
                r.fail(QStringLiteral("scenes"), SessionFile::tr("1 to %1 scenes, got %2").arg(kMaxSessionScenes).arg(a.size()));
            } else {
                session.scenes.assign(static_cast<std::size_t>(a.size()), SessionScene{});
                for (qsizetype k = 0; k < a.size() && !r.failed(); ++k)
                    readScene(r, a.at(k), QStringLiteral("scenes[%1]").arg(k), session.scenes[static_cast<std::size_t>(k)]);
            }
        }
    }
    if (!r.failed()) {
        const QJsonValue cv = root.value(QLatin1String("current"));
        const std::int64_t last = static_cast<std::int64_t>(session.scenes.size()) - 1;
        if (!cv.isUndefined()) {
            const qint64 a = cv.toInteger(-1), b = cv.toInteger(-2);
            if (!cv.isDouble() || a != b || a < 0 || a > last)
                r.failGot(QStringLiteral("current"), SessionFile::tr("an integer from 0 to %1").arg(last), cv);
            else
                session.current = static_cast<int>(a);
        }
    }
    if (r.failed()) {
        if (error) *error = r.error();
        return std::nullopt;
    }
    return session;
}

bool saveSessionFile(const QString& path, const Session& session, QString* error) {
    return writeFileAtomically(path, sessionToJson(session, false), error);
}

bool saveSession(const QString& path, const SceneParams& scene, QString* error) {
    return writeFileAtomically(path, sceneToJson(scene, false), error);
}

std::optional<Session> loadSessionFile(const QString& path, QString* error, QStringList* warnings) {
    QFile f(path);
    const QFileInfo info(path);
    if (info.isDir()) {
        if (error) *error = path + SessionFile::tr(": is a directory, not a session file");
        return std::nullopt;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = SessionFile::tr("cannot open %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    if (f.size() > kMaxSessionBytes) {
        if (error) *error = path + SessionFile::tr(": too large for a session (%1 bytes, at most %2)").arg(f.size()).arg(kMaxSessionBytes);
        return std::nullopt;
    }
    const QByteArray data = f.read(kMaxSessionBytes + 1);
    if (f.error() != QFileDevice::NoError) {
        if (error) *error = SessionFile::tr("cannot read %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    return sessionFromJson(data, path, error, warnings);
}

std::optional<SceneParams> loadSession(const QString& path, QString* error, QStringList* warnings) {
    auto s = loadSessionFile(path, error, warnings);
    if (!s) return std::nullopt;
    return s->scenes.at(static_cast<std::size_t>(s->current)).scene;
}

}  // namespace poslab::ui
