// `poslab demos` and `poslab compute demo KEY`: the Teach menu's demonstrations as JSON, computed
// by the core (core/demonstrations.h). No maths here.
#include "app/cli_demo.h"

#include "app/cli_common.h"
#include "app/cli_method.h"
#include "core/scores.h"
#include "ui/teaching/demotext.h"

#include <cstdio>

namespace poslab::cli {

std::string demoKeyList() {
    std::string keys;
    for (const auto& d : demonstrations()) keys += (keys.empty() ? "" : ", ") + d.key;
    return "one of " + keys;
}

DemoId demoOrFail(const std::string& key) {
    if (key.empty() || key.rfind("-", 0) == 0) fail("missing demonstration KEY", demoKeyList(), key.empty() ? "nothing" : key);
    const auto id = demoFromKey(key);
    if (!id) fail("unknown demonstration KEY", demoKeyList(), key);
    return *id;
}

int runDemos(const std::vector<std::string>& args) {
    return runListing(args, "demos",
                      "Usage: poslab demos\n\nList the demonstrations of the Teach menu in lecture order as JSON: {\"demos\": "
                      "[{\"key\", \"title\", \"methods\", \"claim\"}]}.\n\"methods\" names the methods and RoPE scalings each "
                      "one is about. `poslab compute demo KEY` computes one, `poslab figure demo KEY -o F` draws its slide.\n",
                      [](JsonWriter& j) {
                          j.key("demos").beginArray();
                          for (const auto& d : demonstrations()) {
                              j.beginObject();
                              j.key("key").string(d.key);
                              j.key("title").string(ui::demoTitle(d.id).toStdString());
                              j.key("methods").beginArray();
                              for (const auto& m : d.methods) j.string(m);
                              j.endArray();
                              j.key("claim").string(ui::demoClaim(d.id).toStdString());
                              j.endObject();
                          }
                          j.endArray();
                      });
}

namespace {
// The JSON answer of demonstration `id` on the scene `rest` sets (options checked), and the
// options' specs in `specsOut`. --help prints and returns "".
std::string demoAnswer(DemoId id, const std::vector<std::string>& rest, std::vector<OptionSpec>* specsOut);
}  // namespace

int runComputeDemo(const std::vector<std::string>& args) {
    if (args.empty()) fail("missing demonstration KEY for compute demo", demoKeyList(), "nothing");
    if (args.front() == "--help" || args.front() == "-h") {
        const std::string t =
            "Usage: poslab compute demo KEY [method options]\n\n"
            "Compute a demonstration (`poslab demos` lists the keys) and print {\"key\", \"title\", \"claim\", \"holds\", "
            "\"measured\": {name: number or list}}.\nWithout options it runs on its own scene; the options of its method "
            "(`poslab compute demo KEY --help`) change that scene, and \"holds\" says whether the claim still holds there.\n";
        std::fwrite(t.data(), 1, t.size(), stdout);
        return 0;
    }
    const DemoId id = demoOrFail(args.front());
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    std::vector<OptionSpec> specs;
    const std::string answer = demoAnswer(id, rest, &specs);
    if (answer.empty()) return 0;   // --help
    // A demonstration declares the parameters it reads; whether one given here changes its
    // numbers depends on the others (a precision its measures do not round, a dim it does not
    // use): an option whose removal gives the same answer cannot change it, and is refused.
    const Options o(rest, specs, "compute demo " + demoInfo(id).key);
    for (const auto& spec : specs) {
        if (!o.has(spec.name)) continue;
        std::string other;
        try {
            other = demoAnswer(id, withoutOption(rest, spec.name, spec.arg.empty()), nullptr);
        } catch (const CliError&) {
            continue;   // needed by the others: it changes the answer
        }
        if (other == answer)
            fail("--" + spec.name + " cannot change the output",
                 "demonstration " + demoInfo(id).key + " gives the same numbers without it on this scene",
                 "--" + spec.name + (spec.arg.empty() ? "" : " " + o.raw(spec.name)));
    }
    printLine(answer);
    return 0;
}

namespace {
std::string demoAnswer(DemoId id, const std::vector<std::string>& rest, std::vector<OptionSpec>* specsOut) {
    const DemoInfo& info = demoInfo(id);
    ScoreParams p = demoParams(id);
    const ScoreParams own = p;
    const Method method = p.method;
    // Only the parameters the demonstration reads are options: any other would change nothing.
    const std::string group(methodParamGroup(method));
    bool wholeGroup = false;
    TableSelection sel;
    sel.group = group;
    std::vector<OptionSpec> specs;
    for (const auto& name : demoSceneParams(id)) {
        if (name == group + ".*") wholeGroup = true;
        else if (name.rfind(group + ".", 0) == 0 && !group.empty()) sel.only.insert(name.substr(group.size() + 1));
        else if (name == "causal") specs.push_back(flag("causal", "decoder form (T5: causal buckets)"));
        else {
            const Param<ScoreParams>* decl = findParam(scoreParamTable(), name);
            specs.push_back(paramSpec(name, decl ? decl->info.defaultText(decl->get(own)) : "", ""));
        }
    }
    if (wholeGroup) sel.only.clear();
    const bool anyMethodOption = !group.empty() && (wholeGroup || !sel.only.empty());
    if (anyMethodOption) {
        // A model's configuration sets the demonstration's method parameters (then the options).
        specs.push_back(configSpec());
        specs = concat(specs, layerSpecs());
        auto ms = tableSpecs(scoreParamTable(), sel);
        // Defaults: the demonstration's own scene, not the method's.
        for (auto& spec : ms)
            for (const auto& entry : scoreParamTable())
                if (entry.group == group && entry.info.kind != ParamKind::Bool && sel.option(entry.info) == spec.name)
                    spec.def = entry.info.defaultText(entry.get(own));
        specs = concat(specs, ms);
    }
    Options o(rest, specs, "compute demo " + info.key);
    if (specsOut) *specsOut = specs;
    if (o.help()) {
        std::fputs(helpText("poslab compute demo " + info.key + " [options]", ui::demoTitle(id).toStdString() + ": " + ui::demoClaim(id).toStdString(), specs).c_str(), stdout);
        return {};
    }
    if (anyMethodOption) {
        if (const auto c = peekConfig(rest)) {
            ScoreParams model = c->params;
            selectLayer(o, model, true);
            if (model.method != method)
                fail("--config " + o.raw("config") + " is not a " + std::string(methodKey(method)) + " model",
                     "a config of the demonstration's method (" + std::string(methodKey(method)) + ")",
                     "method " + std::string(methodKey(model.method)));
            // The parameters the demonstration reads, as the model has them.
            for (const auto& e : scoreParamTable())
                if (e.group == group && (wholeGroup || sel.only.count(std::string(e.info.name)))) e.set(p, e.get(model));
            for (const auto& name : demoSceneParams(id))
                if (name == "dim") p.dim = model.dim;
        } else {
            ScoreParams none;
            selectLayer(o, none, false);   // --layer without --config: exit 2
        }
    }
    readOwnOptions(o, {"dim", "precision"}, p);
    if (o.has("causal")) p.causal = true;
    std::map<std::string, std::string> rename{{"head_dim", "dim"}};
    if (anyMethodOption) {
        if (wholeGroup) readMethodOptions(o, method, false, p, rename);
        else readTable(o, scoreParamTable(), sel, p, rename);
    }
    std::optional<DemoSummary> result;
    try {
        check(p.validate(), rename);
        auto r = runDemonstration(id, p);
        if (!r) failParam(r.error(), rename);
        result = r.value();
    } catch (CliError& e) {
        // A model's values the demonstration cannot take: the error names the file that set them.
        if (o.has("config")) e.line = "--config " + o.raw("config") + " (as demonstration " + info.key + " reads it): " + e.line;
        throw;
    }
    const DemoSummary& s = *result;
    Json j;
    j.beginObject();
    j.key("key").string(info.key);
    j.key("title").string(ui::demoTitle(id).toStdString());
    j.key("claim").string(ui::demoClaim(id).toStdString());
    j.key("holds").boolean(s.holds);
    j.key("measured").beginObject();
    for (const auto& f : s.figures) {
        j.key(f.name);
        if (!f.list.empty()) j.doubles(f.list);
        else j.number(f.value);
    }
    j.endObject();
    j.endObject();
    if (!j.ok()) fail("the result is not finite", "parameters for which every number is finite", j.error());
    return j.text();
}
}  // namespace

}  // namespace poslab::cli
