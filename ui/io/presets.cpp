#include "ui/io/presets.h"

#include "core/method.h"
#include "ui/io/modelconfig.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace poslab::ui {

namespace {

// resources/presets/, compiled into this room (ui/CMakeLists.txt).
QByteArray resource(const QString& name) {
    QFile f(QStringLiteral(":/poslab/presets/") + name);
    if (!f.open(QIODevice::ReadOnly)) qFatal("preset file %s is not compiled in", qPrintable(name));
    return f.readAll();
}

// The configuration's positional encoding: method, dim and the method's own parameters; the
// rest (masking, layer pattern, attention details) at their defaults.
ScoreParams encodingOf(const ScoreParams& file) {
    ScoreParams p;
    const std::string_view group = methodParamGroup(file.method);
    for (const auto& e : scoreParamTable())
        if (e.path() == "method" || e.path() == "dim" || (!group.empty() && e.group == group)) e.set(p, e.get(file));
    return p;
}

std::vector<ModelPreset> load() {
    std::vector<ModelPreset> out;
    const QJsonArray list = QJsonDocument::fromJson(resource(QStringLiteral("presets.json"))).object().value(QLatin1String("presets")).toArray();
    for (const auto& v : list) {
        const QJsonObject o = v.toObject();
        ModelPreset m;
        m.key = o.value(QLatin1String("key")).toString().toStdString();
        m.name = o.value(QLatin1String("name")).toString().toStdString();
        m.source = o.value(QLatin1String("source")).toString().toStdString();
        m.note = o.value(QLatin1String("note")).toString().toStdString();
        const QString file = o.value(QLatin1String("config")).toString();
        const ModelConfigResult r = parseHfConfig(resource(file));
        if (!r.config) qFatal("preset %s: %s", qPrintable(file), qPrintable(r.error));
        m.heads = r.config->heads;
        m.params = encodingOf(r.config->params);
        out.push_back(std::move(m));
    }
    return out;
}

}  // namespace

const std::vector<ModelPreset>& modelPresets() {
    static const std::vector<ModelPreset> presets = load();
    return presets;
}

const ModelPreset* findPreset(std::string_view key) {
    for (const auto& p : modelPresets())
        if (p.key == key) return &p;
    return nullptr;
}

}  // namespace poslab::ui
