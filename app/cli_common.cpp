#include "app/cli_common.h"

#include "core/param.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonValue>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace poslab::cli {

namespace {

constexpr std::int64_t kMaxListItems = std::int64_t{1} << 20;

std::string quoteIfNeeded(const std::string& s) {
    if (s.empty()) return "an empty value";
    // Keep the line one line, whatever the input.
    std::string out;
    for (char c : s) out += (c == '\n' || c == '\r') ? ' ' : c;
    if (out.size() > 200) out = out.substr(0, 200) + "...";
    return out;
}

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> items;
    std::string cur;
    for (char c : s) {
        if (c == ',') {
            items.push_back(cur);
            cur.clear();
            if (static_cast<std::int64_t>(items.size()) > kMaxListItems) break;
        } else {
            cur += c;
        }
    }
    items.push_back(cur);
    return items;
}


}  // namespace

std::string kebab(const std::string& field) {
    std::string s = field;
    for (auto& c : s)
        if (c == '_') c = '-';
    return s;
}

void fail(const std::string& what, const std::string& valid, const std::string& got) {
    throw CliError{2, what + ", " + valid + ", got " + quoteIfNeeded(got)};
}

void failIo(const std::string& line) { throw CliError{1, line}; }

void failParam(const ParamError& e, const std::map<std::string, std::string>& rename) {
    if (e.parameter == "result")
        fail("the result is not finite", e.valid, e.got);
    auto it = rename.find(e.parameter);
    const std::string option = it != rename.end() ? it->second : kebab(e.parameter);
    fail("invalid --" + option, e.valid, e.got);
}

void guardOutput(std::int64_t entries, const std::string& option, const std::string& got) {
    if (entries > kMaxOutputEntries || entries < 0)
        fail("output too large for --" + option,
             "at most " + formatInt(kMaxOutputEntries) + " numbers in one JSON answer", got);
}

// ---------------------------------------------------------------------------------------------

Options::Options(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs, const std::string& context)
    : specs_(specs), context_(context) {
    auto known = [&](const std::string& n) -> const OptionSpec* {
        for (const auto& s : specs_)
            if (s.name == n) return &s;
        return nullptr;
    };
    auto validList = [&] {
        std::string l = "one of --help";
        for (const auto& s : specs_) l += ", --" + s.name;
        return l;
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-h" || a == "--help") {
            help_ = true;
            continue;
        }
        if (a.size() < 3 || a.compare(0, 2, "--") != 0)
            fail("unexpected argument for " + context_, "options of the form --name VALUE or --name=VALUE", a);
        const auto eq = a.find('=');
        const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        const OptionSpec* s = known(name);
        if (!s) fail("unknown option --" + name + " for " + context_, validList(), a);
        std::string value;
        if (s->arg.empty()) {
            if (eq != std::string::npos) fail("option --" + name + " takes no value", "--" + name + " alone", a);
        } else if (eq != std::string::npos) {
            value = a.substr(eq + 1);
        } else {
            if (i + 1 >= args.size()) fail("missing value for --" + name, s->valid, "nothing");
            value = args[++i];
        }
        // The second value would silently replace the first: refused, never ignored.
        if (values_.count(name) && !s->repeatable)
            fail("--" + name + " given twice", "each option at most once (the second would replace the first)",
                 s->arg.empty() ? "--" + name + " twice" : "--" + name + " " + values_[name] + " and --" + name + " " + value);
        values_[name] = value;
        repeated_[name].push_back(value);
    }
}

const OptionSpec& Options::spec(const std::string& name) const {
    for (const auto& s : specs_)
        if (s.name == name) return s;
    static const OptionSpec none;
    return none;
}

const std::string& Options::raw(const std::string& name) const {
    static const std::string empty;
    auto it = values_.find(name);
    return it == values_.end() ? empty : it->second;
}

std::vector<std::string> Options::all(const std::string& name) const {
    auto it = repeated_.find(name);
    return it == repeated_.end() ? std::vector<std::string>{} : it->second;
}

void Options::require(const std::string& name) const {
    if (!has(name)) fail("missing --" + name + " for " + context_, spec(name).valid, "nothing");
}

std::int64_t Options::integer(const std::string& name, std::int64_t lo, std::int64_t hi) const {
    require(name);
    auto v = parseInteger(raw(name));
    if (!v || *v < lo || *v > hi) fail("invalid --" + name, spec(name).valid, raw(name));
    return *v;
}

std::optional<std::int64_t> Options::integerOpt(const std::string& name, std::int64_t lo, std::int64_t hi) const {
    if (!has(name)) return std::nullopt;
    return integer(name, lo, hi);
}

double Options::number(const std::string& name) const {
    require(name);
    auto v = parseReal(raw(name));
    if (!v) fail("invalid --" + name, spec(name).valid, raw(name));
    return *v;
}

std::optional<double> Options::numberOpt(const std::string& name) const {
    if (!has(name)) return std::nullopt;
    return number(name);
}

std::string Options::choice(const std::string& name, const std::vector<std::string>& choices, const std::string& def) const {
    if (!has(name)) return def;
    for (const auto& c : choices)
        if (raw(name) == c) return c;
    std::string valid = "one of ";
    for (std::size_t i = 0; i < choices.size(); ++i) valid += (i ? ", " : "") + choices[i];
    fail("invalid --" + name, valid, raw(name));
}

std::vector<double> Options::numberList(const std::string& name) const {
    require(name);
    const auto items = splitList(raw(name));
    if (static_cast<std::int64_t>(items.size()) > kMaxListItems)
        fail("invalid --" + name, "at most " + formatInt(kMaxListItems) + " comma-separated numbers", "a longer list");
    std::vector<double> out;
    out.reserve(items.size());
    for (const auto& it : items) {
        auto v = parseReal(it);
        if (!v) fail("invalid --" + name, "a comma-separated list of finite numbers (" + spec(name).valid + ")", raw(name));
        out.push_back(*v);
    }
    return out;
}

Positions Options::positions(const std::string& name, std::int64_t lo, std::int64_t hi) const {
    require(name);
    const std::string& text = raw(name);
    const std::string valid = "a LIST (0,1,9) or a RANGE A:B of integers from " + formatInt(lo) + " to " + formatInt(hi) +
                              " (at most " + formatInt(kMaxListItems) + " of them)";
    const auto colon = text.find(':');
    if (colon != std::string::npos) {
        auto a = parseInteger(text.substr(0, colon));
        auto b = parseInteger(text.substr(colon + 1));
        if (!a || !b) fail("invalid --" + name, valid, text);
        if (*b <= *a) fail("invalid --" + name, "a non-empty half-open RANGE A:B with A < B", text);
        if (*a < lo || *b - 1 > hi) fail("invalid --" + name, valid, text);
        if (*b - *a > kMaxListItems) fail("invalid --" + name, valid, text);
        return arangePositions(*a, *b);
    }
    const auto items = splitList(text);
    if (static_cast<std::int64_t>(items.size()) > kMaxListItems) fail("invalid --" + name, valid, "a longer list");
    Positions out;
    out.reserve(items.size());
    for (const auto& it : items) {
        auto v = parseInteger(it);
        if (!v || *v < lo || *v > hi) fail("invalid --" + name, valid, text);
        out.push_back(*v);
    }
    return out;
}

namespace {
thread_local HelpCapture* tHelp = nullptr;
}

HelpCapture::HelpCapture() : previous_(tHelp) { tHelp = this; }
HelpCapture::~HelpCapture() { tHelp = previous_; }

std::string helpText(const std::string& usage, const std::string& description, const std::vector<OptionSpec>& specs) {
    if (tHelp) {
        tHelp->usage = usage;
        tHelp->description = description;
        tHelp->specs = specs;
        tHelp->captured = true;
    }
    std::ostringstream o;
    o << "Usage: " << usage << "\n\n" << description << "\n\nOptions:\n";
    for (const auto& s : specs) {
        std::string head = "  --" + s.name + (s.arg.empty() ? "" : " " + s.arg);
        if (head.size() < 34) head.resize(34, ' ');
        else head += "  ";
        o << head << s.help << "\n" << std::string(34, ' ') << "default: " << (s.def.empty() ? "off" : s.def);
        if (!s.valid.empty()) o << "; valid: " << s.valid;
        o << "\n";
    }
    o << "  --help                          this text\n";
    return o.str();
}

// ---------------------------------------------------------------------------------------------

Matrix readMatrixFile(const std::string& path, const std::string& option) {
    std::string data;
    if (path == "-") {
        char buf[65536];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) data.append(buf, n);
        if (std::ferror(stdin)) failIo("cannot read --" + option + " from standard input");
    } else {
        errno = 0;
        std::ifstream f(path, std::ios::binary);
        if (!f) failIo("cannot read --" + option + " file '" + path + "': " + std::strerror(errno ? errno : ENOENT));
        data.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        if (f.bad()) failIo("cannot read --" + option + " file '" + path + "': " + std::strerror(errno ? errno : EIO));
    }
    const std::string valid = "a JSON array of rows of finite numbers, all rows the same length";
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(data), &err);
    if (err.error != QJsonParseError::NoError)
        fail("invalid --" + option, valid,
             "bad JSON (" + err.errorString().toStdString() + " at offset " + std::to_string(err.offset) + ")");
    if (!doc.isArray()) fail("invalid --" + option, valid, "a JSON document that is not an array");
    const QJsonArray rows = doc.array();
    if (rows.isEmpty()) fail("invalid --" + option, valid, "an empty array");
    std::int64_t cols = -1;
    Matrix m;
    for (qsizetype r = 0; r < rows.size(); ++r) {
        if (!rows[r].isArray()) fail("invalid --" + option, valid, "row " + std::to_string(r) + " is not an array");
        const QJsonArray row = rows[r].toArray();
        if (cols < 0) {
            cols = row.size();
            if (cols == 0) fail("invalid --" + option, valid, "an empty row 0");
            if (static_cast<std::int64_t>(rows.size()) * cols > (std::int64_t{1} << 26))
                fail("invalid --" + option, "at most 67108864 numbers", std::to_string(rows.size() * cols));
            m.resize(rows.size(), cols);
        }
        if (row.size() != cols)
            fail("invalid --" + option, valid,
                 "row " + std::to_string(r) + " of " + std::to_string(row.size()) + " numbers after rows of " +
                     std::to_string(cols));
        for (qsizetype c = 0; c < row.size(); ++c) {
            if (!row[c].isDouble())
                fail("invalid --" + option, valid, "a non-number at row " + std::to_string(r) + ", column " + std::to_string(c));
            const double v = row[c].toDouble();
            if (!std::isfinite(v))
                fail("invalid --" + option, valid, "a non-finite number at row " + std::to_string(r) + ", column " + std::to_string(c));
            m(r, c) = v;
        }
    }
    return m;
}

// ---------------------------------------------------------------------------------------------

namespace {
thread_local OutputCapture* tCapture = nullptr;
}

OutputCapture::OutputCapture(bool binary) : binaryArrays(binary), previous_(tCapture) { tCapture = this; }

Json::Json() {
    if (tCapture && tCapture->binaryArrays) setArraySink(&tCapture->arrays);
}
OutputCapture::~OutputCapture() { tCapture = previous_; }

void printLine(const std::string& t) {
    if (tCapture) {
        tCapture->text = t;
        return;
    }
    if (std::fwrite(t.data(), 1, t.size(), stdout) != t.size() || std::fputc('\n', stdout) == EOF ||
        std::fflush(stdout) != 0)
        failIo("cannot write to standard output");
}

void printJson(const Json& j) {
    if (!j.ok()) fail("the result is not finite", "parameters for which every number is finite", j.error());
    printLine(j.text());
}

int runListing(const std::vector<std::string>& args, const std::string& command, const std::string& help,
               const std::function<void(JsonWriter&)>& write) {
    Options o(args, {}, command);
    if (o.help()) {
        std::fwrite(help.data(), 1, help.size(), stdout);
        return 0;
    }
    Json j;
    j.beginObject();
    write(j);
    j.endObject();
    printJson(j);
    return 0;
}

std::vector<std::string> withoutOption(const std::vector<std::string>& args, const std::string& name, bool flag) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--" + name) {
            if (!flag) ++i;
            continue;
        }
        if (args[i].rfind("--" + name + "=", 0) == 0) continue;
        out.push_back(args[i]);
    }
    return out;
}

}  // namespace poslab::cli
