#pragma once
// Shared pieces of the `poslab` command line: GNU long-option parsing against a table of option
// specs (which also writes --help), number/LIST/RANGE/FILE parsing with the contract's error
// lines, and a JSON writer that prints round-trip floats and never NaN/Infinity.
// Errors are thrown as CliError inside app/ and turned into exit codes by cli.cpp's run().
#include "core/json.h"
#include "core/types.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace poslab::cli {

// Exit 2 (usage/parameter) or 1 (I/O, other). `line` is the whole stderr line after "poslab: error: ".
struct CliError {
    int code = 2;
    std::string line;
};

// "<what>, <valid>, got <got>" → throws CliError{2}.
[[noreturn]] void fail(const std::string& what, const std::string& valid, const std::string& got);
[[noreturn]] void failIo(const std::string& line);

struct OptionSpec {
    std::string name;       // without dashes: "head-dim"
    std::string arg;        // "N", "F", "LIST", ... ; empty = a flag
    std::string help;       // one line
    std::string def;        // default as shown by --help ("required", "none", "10000", ...)
    std::string valid;      // valid range as shown by --help and in errors
    bool repeatable = false;   // may be given more than once (figure all --config A --config B);
                               // any other option given twice is exit 2 (cli.md "Added in 0.4")
};

// Parsed options of one command: name → raw text (flags map to "").
class Options {
public:
    // Parses args (after the command words) against specs; throws on unknown options, missing
    // values, positional arguments. `context` names the command in errors ("compute rope").
    Options(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs, const std::string& context);

    bool has(const std::string& name) const { return values_.count(name) != 0; }
    bool help() const { return help_; }
    const std::string& raw(const std::string& name) const;
    // Every value of a repeatable option, in the order given (empty when not given).
    std::vector<std::string> all(const std::string& name) const;

    // Typed getters: throw "invalid --name, <spec.valid>, got <raw>" when the text is not of the
    // type or outside [lo, hi].
    std::int64_t integer(const std::string& name, std::int64_t lo, std::int64_t hi) const;
    std::optional<std::int64_t> integerOpt(const std::string& name, std::int64_t lo, std::int64_t hi) const;
    double number(const std::string& name) const;   // any finite double
    std::optional<double> numberOpt(const std::string& name) const;
    std::string choice(const std::string& name, const std::vector<std::string>& choices, const std::string& def) const;
    std::vector<double> numberList(const std::string& name) const;                           // LIST
    Positions positions(const std::string& name, std::int64_t lo, std::int64_t hi) const;     // LIST | RANGE
    void require(const std::string& name) const;
    const OptionSpec& spec(const std::string& name) const;

private:
    std::map<std::string, std::string> values_;
    std::map<std::string, std::vector<std::string>> repeated_;
    std::vector<OptionSpec> specs_;
    std::string context_;
    bool help_ = false;
};

// --help text for a command: usage line, description, one line per option with default and range.
// While a HelpCapture is alive on this thread, the arguments are also recorded there.
std::string helpText(const std::string& usage, const std::string& description, const std::vector<OptionSpec>& specs);

// While alive, the option table a command writes its --help from (helpText's arguments, the
// last call on this thread) is kept here as it is: the Python module builds its functions'
// keyword arguments, defaults, ranges and docstrings from it (no --help text is parsed).
struct HelpCapture {
    std::string usage;
    std::string description;
    std::vector<OptionSpec> specs;
    bool captured = false;
    HelpCapture();
    ~HelpCapture();
    HelpCapture(const HelpCapture&) = delete;
    HelpCapture& operator=(const HelpCapture&) = delete;

private:
    HelpCapture* previous_;
};

// `args` without option `name` (every `--name VALUE`, `--name=VALUE`, or `--name` when a flag).
std::vector<std::string> withoutOption(const std::vector<std::string>& args, const std::string& name, bool flag);

// FILE ('-' = stdin) holding a JSON array of rows of numbers. Unreadable → exit 1; bad JSON,
// ragged rows, non-numbers, non-finite numbers → exit 2 naming `option`.
Matrix readMatrixFile(const std::string& path, const std::string& option);

// A core field's option name: snake_case → kebab-case (head_dim → head-dim).
std::string kebab(const std::string& field);

// Core ParamError → exit 2 with the field mapped to its option (`rename` overrides the
// default snake_case → --kebab-case mapping, e.g. head_dim → dim for `scores`).
[[noreturn]] void failParam(const ParamError& e, const std::map<std::string, std::string>& rename = {});
inline void check(const Check& c, const std::map<std::string, std::string>& rename = {}) {
    if (c) failParam(*c, rename);
}

// Output guard: `entries` numbers printed; above the limit → error naming `option`.
inline constexpr std::int64_t kMaxOutputEntries = std::int64_t{1} << 22;
void guardOutput(std::int64_t entries, const std::string& option, const std::string& got);

// The one JSON writer (core/json.h), compact. A non-finite number makes printJson fail (exit 2):
// NaN and Infinity are never printed. Made while an OutputCapture with `arrays` is alive on this
// thread, it hands its arrays to that capture as numbers (JsonWriter::setArraySink).
class Json : public JsonWriter {
public:
    Json();
};

// Writes one JSON document and a newline to stdout; I/O failure → exit 1.
void printJson(const Json& j);
// A command without options that prints one JSON object (`poslab presets`, `poslab demos`): with
// --help it prints `help`, else `write` fills the object, printed by printJson.
int runListing(const std::vector<std::string>& args, const std::string& command, const std::string& help,
               const std::function<void(JsonWriter&)>& write);
// Writes `text` and a newline to stdout (I/O failure → exit 1), or into the OutputCapture alive
// on this thread. printJson and a demonstration's answer go through it.
void printLine(const std::string& text);

// While alive, the result the command prints (printLine) goes into `text` instead of stdout:
// the Python module (app/python) runs the compute entry in process and reads the result here.
// With binaryArrays, the arrays of the result (JsonWriter::vector, matrix, ...) go into `arrays`
// as numbers and `text` holds their placeholders `@K` (core/json.h): no decimal text for them.
struct OutputCapture {
    std::string text;
    std::vector<JsonArray> arrays;
    bool binaryArrays = false;
    explicit OutputCapture(bool binaryArrays = false);
    ~OutputCapture();
    OutputCapture(const OutputCapture&) = delete;
    OutputCapture& operator=(const OutputCapture&) = delete;

private:
    OutputCapture* previous_;
};


}  // namespace poslab::cli
