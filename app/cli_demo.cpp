// `poslab demos` and `poslab compute demo KEY`: the Teach menu's demonstrations as JSON, computed
// by the core (core/demonstrations.h). No maths here.
#include "app/cli_demo.h"

#include "app/cli_common.h"
#include "app/cli_method.h"
#include "core/scores.h"

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
    Options o(args, {}, "demos");
    if (o.help()) {
        const std::string t =
            "Usage: poslab demos\n\nList the demonstrations of the Teach menu in lecture order as JSON: {\"demos\": [{\"key\", "
            "\"title\", \"methods\", \"claim\"}]}.\n\"methods\" names the methods and RoPE scalings each one is about. "
            "`poslab compute demo KEY` computes one, `poslab figure demo KEY -o F` draws its slide.\n";
        std::fwrite(t.data(), 1, t.size(), stdout);
        return 0;
    }
    Json j;
    j.beginObject();
    j.key("demos").beginArray();
    for (const auto& d : demonstrations()) {
        j.beginObject();
        j.key("key").string(d.key);
        j.key("title").string(d.title);
        j.key("methods").beginArray();
        for (const auto& m : d.methods) j.string(m);
        j.endArray();
        j.key("claim").string(d.claim);
        j.endObject();
    }
    j.endArray();
    j.endObject();
    printJson(j);
    return 0;
}

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
    const DemoInfo& info = demoInfo(id);
    const std::vector<std::string> rest(args.begin() + 1, args.end());
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
        auto ms = tableSpecs(scoreParamTable(), sel);
        // Defaults: the demonstration's own scene, not the method's.
        for (auto& spec : ms)
            for (const auto& entry : scoreParamTable())
                if (entry.group == group && entry.info.kind != ParamKind::Bool && sel.option(entry.info) == spec.name)
                    spec.def = entry.info.defaultText(entry.get(own));
        specs = concat(specs, ms);
    }
    Options o(rest, specs, "compute demo " + info.key);
    if (o.help()) {
        std::fputs(helpText("poslab compute demo " + info.key + " [options]", info.title + ": " + info.claim, specs).c_str(), stdout);
        return 0;
    }
    readOwnOptions(o, {"dim", "precision"}, p);
    if (o.has("causal")) p.causal = true;
    std::map<std::string, std::string> rename{{"head_dim", "dim"}};
    if (anyMethodOption) {
        if (wholeGroup) readMethodOptions(o, method, false, p, rename);
        else readTable(o, scoreParamTable(), sel, p, rename);
    }
    check(p.validate(), rename);
    auto r = runDemonstration(id, p);
    if (!r) failParam(r.error(), rename);
    const DemoSummary& s = r.value();
    Json j;
    j.beginObject();
    j.key("key").string(info.key);
    j.key("title").string(info.title);
    j.key("claim").string(info.claim);
    j.key("holds").boolean(s.holds);
    j.key("measured").beginObject();
    for (const auto& f : s.figures) {
        j.key(f.name);
        if (!f.list.empty()) j.doubles(f.list);
        else j.number(f.value);
    }
    j.endObject();
    j.endObject();
    printJson(j);
    return 0;
}

}  // namespace poslab::cli
