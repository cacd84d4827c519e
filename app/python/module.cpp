// The compiled half of `import poslab` (docs/spec/cli.md "Python"): runs the command line's
// `compute` entry (app/cli_compute.h) in process on an argument list that poslab/__init__.py
// builds from keyword arguments, and turns the result into Python objects.
//
// The command line writes its result with the streaming JSON writer (core/json.h). Here the
// result is captured in memory (cli::OutputCapture) with its arrays as numbers: the writer hands
// every array (vector, matrix, integers: the scores matrix, frequencies, rope tables, decay
// curves, ...) over as a double/int64 buffer and leaves a placeholder `@K` in the text. The
// reader below turns the text into dicts and the placeholders into NumPy arrays that own those
// buffers (no copy; the scores matrix is the buffer the core computed). Numbers still written
// as text (single values, element-wise arrays) are printed shortest round-trip, hence exact.
#include "app/cli.h"
#include "app/cli_common.h"
#include "app/cli_compute.h"
#include "app/cli_figure.h"
#include "app/cli_method.h"
#include "core/parallel.h"
#include "ui/model/poolparallel.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <QApplication>
#include <QThread>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <vector>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "0.0.0"
#endif

namespace py = pybind11;

namespace {

// A JSON document (RFC 8259, as core/json.h writes it) → Python. Objects → dict; `@K` (an array
// the writer handed over as numbers) → a NumPy array owning it: float64 for the writer's double
// arrays, int64 for its integer arrays (masked cells of `scores` are NaN); an array whose leaves
// are all numbers, null or such arrays and whose nesting is rectangular → one NumPy array (int64
// when every leaf is an integer, float64 otherwise, null → NaN); other arrays → list.
class Reader {
public:
    Reader(std::string_view text, std::vector<poslab::JsonArray>& arrays)
        : p_(text.data()), end_(text.data() + text.size()), arrays_(arrays) {}

    py::object document() {
        py::object v = value();
        space();
        if (p_ != end_) bad("text after the JSON value");
        return v;
    }

private:
    [[noreturn]] void bad(const char* what) const { throw std::runtime_error(std::string("unreadable result: ") + what); }
    void space() {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    }
    char peek() {
        space();
        if (p_ == end_) bad("unexpected end");
        return *p_;
    }
    void expect(char c) {
        if (peek() != c) bad("unexpected character");
        ++p_;
    }
    bool literal(std::string_view word) {
        if (static_cast<std::size_t>(end_ - p_) >= word.size() && std::string_view(p_, word.size()) == word) {
            p_ += word.size();
            return true;
        }
        return false;
    }

    py::object value() {
        const char c = peek();
        if (c == '{') return object();
        if (c == '[') return array();
        if (c == '"') return py::str(string());
        if (literal("true")) return py::bool_(true);
        if (literal("false")) return py::bool_(false);
        if (literal("null")) return py::none();
        if (c == '@') return handed(placeholder());
        bool isInt = false;
        std::int64_t i = 0;
        const double d = number(isInt, i);
        if (isInt) return py::int_(i);
        return py::float_(d);
    }

    // A number: integers (no fraction, no exponent) that fit int64 set isInt.
    double number(bool& isInt, std::int64_t& i) {
        space();
        const char* start = p_;
        bool integral = true;
        while (p_ != end_ && (std::isdigit(static_cast<unsigned char>(*p_)) || *p_ == '-' || *p_ == '+' || *p_ == '.' ||
                              *p_ == 'e' || *p_ == 'E')) {
            if (*p_ == '.' || *p_ == 'e' || *p_ == 'E') integral = false;
            ++p_;
        }
        if (p_ == start) bad("not a value");
        isInt = false;
        if (integral) {
            const auto r = std::from_chars(start, p_, i);
            if (r.ec == std::errc() && r.ptr == p_) {
                isInt = true;
                return static_cast<double>(i);
            }
        }
        double d = 0;
        const auto r = std::from_chars(start, p_, d);
        if (r.ec != std::errc() || r.ptr != p_) bad("not a number");
        return d;
    }

    std::string string() {
        expect('"');
        std::string s;
        while (true) {
            if (p_ == end_) bad("unterminated string");
            const char c = *p_++;
            if (c == '"') return s;
            if (c != '\\') {
                s += c;
                continue;
            }
            if (p_ == end_) bad("unterminated string");
            const char e = *p_++;
            switch (e) {
            case '"': s += '"'; break;
            case '\\': s += '\\'; break;
            case '/': s += '/'; break;
            case 'b': s += '\b'; break;
            case 'f': s += '\f'; break;
            case 'n': s += '\n'; break;
            case 'r': s += '\r'; break;
            case 't': s += '\t'; break;
            case 'u': {
                std::uint32_t cp = hex4();
                if (cp >= 0xD800 && cp < 0xDC00 && end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
                    p_ += 2;
                    const std::uint32_t lo = hex4();
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                utf8(s, cp);
                break;
            }
            default: bad("bad escape");
            }
        }
    }
    std::uint32_t hex4() {
        if (end_ - p_ < 4) bad("bad escape");
        std::uint32_t v = 0;
        const auto r = std::from_chars(p_, p_ + 4, v, 16);
        if (r.ptr != p_ + 4) bad("bad escape");
        p_ += 4;
        return v;
    }
    static void utf8(std::string& s, std::uint32_t cp) {
        if (cp < 0x80) {
            s += static_cast<char>(cp);
        } else if (cp < 0x800) {
            s += static_cast<char>(0xC0 | (cp >> 6));
            s += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            s += static_cast<char>(0xE0 | (cp >> 12));
            s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            s += static_cast<char>(0xF0 | (cp >> 18));
            s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    // `@K`: the index of an array handed over as numbers.
    std::size_t placeholder() {
        expect('@');
        std::size_t k = 0;
        const auto r = std::from_chars(p_, end_, k);
        if (r.ec != std::errc() || k >= arrays_.size()) bad("bad array placeholder");
        p_ = r.ptr;
        return k;
    }

    // Array K as a NumPy array that owns its buffer (moved out of the capture, freed with the array).
    py::object handed(std::size_t k) {
        poslab::JsonArray& a = arrays_[k];
        std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end());
        if (a.integer) {
            auto* v = new std::vector<std::int64_t>(std::move(a.ints));
            py::capsule owner(v, [](void* p) { delete static_cast<std::vector<std::int64_t>*>(p); });
            return py::array_t<std::int64_t>(shape, v->data(), owner);
        }
        auto* m = new poslab::Matrix(std::move(a.doubles));
        py::capsule owner(m, [](void* p) { delete static_cast<poslab::Matrix*>(p); });
        return py::array_t<double>(shape, m->data(), owner);
    }

    py::object object() {
        expect('{');
        py::dict d;
        if (peek() == '}') {
            ++p_;
            return d;
        }
        while (true) {
            const std::string k = string();
            expect(':');
            d[py::str(k)] = value();
            if (peek() == ',') {
                ++p_;
                continue;
            }
            expect('}');
            return d;
        }
    }

    py::object array() {
        const char* start = p_;
        Numeric n;
        if (numeric(0, n)) {
            std::vector<py::ssize_t> shape(n.shape.begin(), n.shape.begin() + static_cast<std::ptrdiff_t>(n.depth));
            if (n.allInt && !n.values.empty()) {
                py::array_t<std::int64_t> a(shape);
                std::copy(n.ints.begin(), n.ints.end(), a.mutable_data());
                return a;
            }
            py::array_t<double> a(shape);
            std::copy(n.values.begin(), n.values.end(), a.mutable_data());
            return a;
        }
        p_ = start;   // not a rectangular array of numbers: a list
        expect('[');
        py::list l;
        if (peek() == ']') {
            ++p_;
            return l;
        }
        while (true) {
            l.append(value());
            if (peek() == ',') {
                ++p_;
                continue;
            }
            expect(']');
            return l;
        }
    }

    struct Numeric {
        std::vector<std::size_t> shape;   // known extents, by level
        std::size_t depth = 0;            // 0 until the leaves' level is known
        std::vector<double> values;
        std::vector<std::int64_t> ints;
        bool allInt = true;
    };
    // Reads one (nested) array of numbers/null at `level`; false when it is not rectangular or
    // holds anything else (the caller re-reads it as a list).
    bool numeric(std::size_t level, Numeric& n) {
        expect('[');
        std::size_t count = 0;
        if (peek() == ']') {
            ++p_;
            if (n.depth != 0 && n.depth != level + 1) return false;
            n.depth = level + 1;
        } else {
            while (true) {
                const char c = peek();
                if (c == '[') {
                    if (n.depth != 0 && n.depth <= level + 1) return false;
                    if (!numeric(level + 1, n)) return false;
                } else if (c == '@') {
                    // An array handed over as numbers, as one element: its extents are the next levels.
                    const poslab::JsonArray& a = arrays_[placeholder()];
                    const std::size_t depth = level + 1 + a.shape.size();
                    if (n.depth != 0 && n.depth != depth) return false;
                    n.depth = depth;
                    constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
                    if (n.shape.size() < depth) n.shape.resize(depth, none);
                    for (std::size_t e = 0; e < a.shape.size(); ++e) {
                        auto& s = n.shape[level + 1 + e];
                        if (s == none) s = static_cast<std::size_t>(a.shape[e]);
                        if (s != static_cast<std::size_t>(a.shape[e])) return false;
                    }
                    if (a.integer) {
                        for (auto x : a.ints) n.values.push_back(static_cast<double>(x));
                        n.ints.insert(n.ints.end(), a.ints.begin(), a.ints.end());
                    } else {
                        n.values.insert(n.values.end(), a.doubles.data(), a.doubles.data() + a.doubles.size());
                        n.allInt = false;
                    }
                } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c)) || c == 'n') {
                    if (n.depth != 0 && n.depth != level + 1) return false;
                    n.depth = level + 1;
                    if (c == 'n') {
                        if (!literal("null")) return false;
                        n.values.push_back(std::numeric_limits<double>::quiet_NaN());
                        n.allInt = false;
                    } else {
                        bool isInt = false;
                        std::int64_t i = 0;
                        n.values.push_back(number(isInt, i));
                        if (isInt) n.ints.push_back(i);
                        else n.allInt = false;
                    }
                } else {
                    return false;
                }
                ++count;
                if (peek() == ',') {
                    ++p_;
                    continue;
                }
                expect(']');
                break;
            }
        }
        constexpr std::size_t unknown = std::numeric_limits<std::size_t>::max();
        if (n.shape.size() <= level) n.shape.resize(level + 1, unknown);
        if (n.shape[level] == unknown) n.shape[level] = count;
        return n.shape[level] == count;
    }

    const char* p_;
    const char* end_;
    std::vector<poslab::JsonArray>& arrays_;
};

// q=/k= arrays (option name → NumPy array) as buffers the command line reads in place
// (cli::QkArrays): C-ordered, native little-endian float16/32/64 (poslab/__init__.py converts
// what it can); anything else is ValueError naming the array. The arrays stay referenced by the
// caller for the whole call.
void addArrays(const py::dict& arrays, poslab::cli::QkArrays& out) {
    for (const auto& item : arrays) {
        const std::string name = py::str(item.first);
        const std::string label = name + " (array)";
        if (!py::isinstance<py::array>(item.second)) throw py::value_error(label + ": a NumPy array");
        const auto a = py::reinterpret_borrow<py::array>(item.second);
        const py::dtype dt = a.dtype();
        poslab::ui::TensorBuffer b;
        if (dt.kind() == 'f' && dt.itemsize() == 2) b.dtype = poslab::ui::TensorDType::F16;
        else if (dt.kind() == 'f' && dt.itemsize() == 4) b.dtype = poslab::ui::TensorDType::F32;
        else if (dt.kind() == 'f' && dt.itemsize() == 8) b.dtype = poslab::ui::TensorDType::F64;
        else
            throw py::value_error(label + ": wrong dtype, float16, float32 or float64 (integers become float64), got " +
                                  py::str(static_cast<py::handle>(dt)).cast<std::string>());
        const char order = dt.attr("byteorder").cast<std::string>().front();
        if (order == '>' || !(a.flags() & py::array::c_style))
            throw py::value_error(label + ": a C-ordered array in the machine's byte order (np.ascontiguousarray), got " +
                                  std::string(order == '>' ? "big-endian data" : "a strided array"));
        b.data = a.data();
        for (py::ssize_t i = 0; i < a.ndim(); ++i) b.shape.push_back(a.shape(i));
        b.label = QString::fromStdString(label);
        out.buffers.push_back(std::move(b));
    }
}

// Runs `poslab compute ARGS...` in process: its result as Python objects; its error line as
// ValueError (MemoryError when out of memory). `arrays`: q=/k= arrays, named in `args` by their
// labels ("--q", "q (array)").
py::object compute(const std::vector<std::string>& args, const py::dict& arrays) {
    std::string text;
    std::vector<poslab::JsonArray> arrays_;
    poslab::cli::QkArrays qk;
    addArrays(arrays, qk);
    try {
        // As the command line runs a command: the core's parallel work on hardware_concurrency
        // threads started for the call (app/cli.cpp); Python's lock released meanwhile.
        py::gil_scoped_release unlocked;
        const poslab::ParallelScope parallel(poslab::ui::threadsParallelFor(std::max(1u, std::thread::hardware_concurrency())));
        poslab::cli::OutputCapture capture(true);
        poslab::cli::runCompute(args);
        text = std::move(capture.text);
        arrays_ = std::move(capture.arrays);
    } catch (const poslab::cli::CliError& e) {
        throw py::value_error(poslab::cli::oneLine(e.line));
    }   // std::bad_alloc: MemoryError, other std::exception: RuntimeError (pybind11's translation)
    if (text.empty()) throw py::value_error("no result (was --help given?)");
    return Reader(text, arrays_).document();
}

// `poslab figure ARGS...` in process (the figure command's own code, app/cli_figure.h): its
// warnings as a list; its error line as ValueError. The QApplication it needs is made at the
// first figure (never at import: computing needs no Qt application), on the offscreen platform
// unless QT_QPA_PLATFORM names another (as the command does), and kept. An application the
// caller already runs (PyQt's, on the same Qt) is used when it is a QApplication and this is its
// thread; otherwise RuntimeError says why. Qt's own chatter ("XDG_RUNTIME_DIR not set", ...)
// stays out of the caller's stderr unless POSLAB_DEBUG is set, as for the command line's figures.
void quietQt(QtMsgType type, const QMessageLogContext&, const QString& msg) {
    if (type == QtFatalMsg || qEnvironmentVariableIsSet("POSLAB_DEBUG"))
        std::fprintf(stderr, "poslab: qt: %s\n", poslab::cli::oneLine(msg.toStdString()).c_str());
}

void ensureApplication() {
    if (QCoreApplication* running = QCoreApplication::instance()) {
        if (!qobject_cast<QApplication*>(running))
            throw std::runtime_error(std::string("poslab.figure draws with Qt Widgets and needs a QApplication; this process "
                                                 "already runs a ") +
                                     running->metaObject()->className() + ", and Qt allows one application per process");
        if (running->thread() != QThread::currentThread())
            throw std::runtime_error("poslab.figure must be called from the thread that runs this process's QApplication");
        return;
    }
    qInstallMessageHandler(quietQt);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "poslab";
    static char* argv[] = {name, nullptr};
    new QApplication(argc, argv);   // for the interpreter's life
}

py::list figure(const std::vector<std::string>& args, const py::dict& arrays) {
    poslab::cli::QkArrays qk;
    addArrays(arrays, qk);
    ensureApplication();
    QStringList warnings;
    try {
        py::gil_scoped_release unlocked;
        const poslab::ParallelScope parallel(poslab::ui::threadsParallelFor(std::max(1u, std::thread::hardware_concurrency())));
        warnings = poslab::cli::runFigureInProcess(args);
    } catch (const poslab::cli::CliError& e) {
        if (e.code == 0) return py::list();   // --help
        throw py::value_error(poslab::cli::oneLine(e.line));
    }
    py::list out;
    for (const QString& w : warnings) out.append(py::str(poslab::cli::oneLine(w.toStdString())));
    return out;
}

// The option table of `poslab compute ARGS... --help` (figure: `poslab figure ARGS... --help`),
// as the command built it (cli::HelpCapture: the OptionSpecs it parses with, generated from the
// core's parameter tables): {"usage", "description", "options": [{"name", "arg", "help",
// "default", "valid", "repeatable"}], "text": the help as printed}. Commands whose help is prose
// only (`compute demo --help`) have "options" None. No Qt application is made.
py::dict helpTable(const std::vector<std::string>& args, bool figureCommand) {
    std::fflush(stdout);
    std::FILE* tmp = std::tmpfile();
    if (!tmp) throw std::runtime_error("cannot create a temporary file");
    const int saved = ::dup(1);
    ::dup2(::fileno(tmp), 1);   // the help writers print on stdout
    std::string error;
    poslab::cli::HelpCapture table;
    try {
        if (figureCommand) poslab::cli::runFigureInProcess(args);
        else poslab::cli::runCompute(args);
    } catch (const poslab::cli::CliError& e) {
        if (e.code != 0) error = e.line;
    }
    std::fflush(stdout);
    ::dup2(saved, 1);
    ::close(saved);
    std::string text;
    std::rewind(tmp);
    char buf[4096];
    std::size_t got = 0;
    while ((got = std::fread(buf, 1, sizeof buf, tmp)) > 0) text.append(buf, got);
    std::fclose(tmp);
    if (!error.empty()) throw py::value_error(poslab::cli::oneLine(error));
    py::dict out;
    out["text"] = py::str(text);
    out["usage"] = py::str(table.usage);
    out["description"] = py::str(table.description);
    if (!table.captured) {
        out["options"] = py::none();
        return out;
    }
    py::list options;
    for (const auto& spec : table.specs) {
        py::dict o;
        o["name"] = spec.name;
        o["arg"] = spec.arg;
        o["help"] = spec.help;
        o["default"] = spec.def.empty() ? std::string("off") : spec.def;
        o["valid"] = spec.valid;
        o["repeatable"] = spec.repeatable;
        options.append(o);
    }
    out["options"] = options;
    return out;
}

}  // namespace

PYBIND11_MODULE(_poslab, m) {
    m.doc() = "The compiled half of poslab: runs `poslab compute` in process.";
    m.attr("version") = POSLAB_VERSION;
    m.def("compute", &compute, py::arg("args"), py::arg("arrays") = py::dict(),
          "compute(args, arrays={}): the result of `poslab compute ARGS...` as Python objects and NumPy arrays; "
          "arrays: q/k NumPy arrays by option name, given in args by their labels (\"q (array)\").");
    m.def("options", [](const std::vector<std::string>& args) { return helpTable(args, false); }, py::arg("args"),
          "options(args): the option table of `poslab compute ARGS... --help`.");
    m.def("figure_options", [](const std::vector<std::string>& args) { return helpTable(args, true); }, py::arg("args"),
          "figure_options(args): the option table of `poslab figure ARGS... --help`.");
    m.def("figure", &figure, py::arg("args"), py::arg("arrays") = py::dict(),
          "figure(args, arrays={}): runs `poslab figure ARGS...` in process; its warnings as a list of lines.");
    m.def("whats", [] { return poslab::cli::computeWhatNames(); }, "The WHATs of `poslab compute`, comma-separated.");
    m.def("has_qt_application", [] { return QCoreApplication::instance() != nullptr; },
          "Whether a Qt application exists in this process (poslab makes one at the first figure only).");
}
