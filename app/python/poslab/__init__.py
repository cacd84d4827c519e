"""PosLab from Python: every `poslab compute WHAT` as a function of the same name.

    import poslab
    f = poslab.frequencies(head_dim=128, rope_type="llama3", factor=8)
    f["inv_freq"]            # a NumPy array
    poslab.scores(method="rope", dim=64, length=256)["scores"]   # 256 x 256 float64

Dashes become underscores (`t5_buckets`, `head_dim=128`). Keyword arguments are the command
line's options: each function's signature, defaults, ranges and docstring (`help(poslab.WHAT)`)
are made at import from the option table the command parses with (generated from the core's
parameter tables), and the values are read by the command line's own parser: the same defaults,
ranges and error lines. A value may be a str, an int, a float, True (a flag), None (the option is
not given), a list/tuple/NumPy array of numbers (a LIST: comma-separated), a range with step 1
(a RANGE `A:B`) or an os.PathLike (a FILE).

Query and key rows (`scores`, `decay`, `contributions`, `figure`): `q=` and `k=` take files or
NumPy arrays (float16, float32 or float64, or integers, which become float64; shape [N, d],
[H, N, d] or [1, H, N, d]; finite), whose buffers the command line's own reader reads in place
(no temporary file): the files' checks and messages, "q (array)" where a file's name would be.

Each function returns a dict with the fields of the command's JSON: objects as dicts, arrays as
NumPy arrays: the command's arrays of real numbers as float64 (whatever their values), of integers
as int64; `scores` is an N x N float64 array (masked cells NaN), up to N = 5792 (the command line
prints at most 2048). These arrays are the numbers the computation produced, handed over without
text (the scores matrix is the very buffer the core computed into). Other values are Python values.
Bad input raises ValueError whose message is the command line's one error line (after
"poslab: error: ").

The computation runs in this process (no subprocess), through the command line's compute entry,
on as many threads as the machine has cores, with Python's lock released. Importing poslab and
computing make no Qt application; poslab.figure makes one at its first call (see its docstring).
"""

import inspect
import keyword
import math
import numbers
import os
import tempfile
import threading
import warnings

from . import _poslab

__version__ = _poslab.version

__all__ = ["__version__"]


def _number(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, numbers.Integral):
        return str(int(x))
    if isinstance(x, numbers.Real):
        x = float(x)
        if math.isfinite(x) and x == int(x) and abs(x) < 2**53:
            return str(int(x))
        return repr(x)
    return str(x)


def _text(value):
    """An option's value as the command line's text."""
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, str):
        return value
    if isinstance(value, range):
        if value.step != 1:
            raise ValueError("a range option takes a range with step 1 (A:B), got %r" % (value,))
        return "%d:%d" % (value.start, value.stop)
    if hasattr(value, "tolist") and not isinstance(value, (bool, numbers.Number)):
        value = value.tolist()   # a NumPy array or scalar
    if isinstance(value, (list, tuple)):
        flat = []

        def walk(v):
            if isinstance(v, (list, tuple)):
                for e in v:
                    walk(e)
            else:
                flat.append(_number(v))

        walk(value)
        return ",".join(flat)
    return _number(value)


def _arguments(kwargs, flags):
    """The command line's arguments for keyword arguments; `flags`: the options that take no value."""
    args = []
    for key, value in kwargs.items():
        name = key.replace("_", "-")
        if value is None:
            continue
        if name in flags and isinstance(value, bool):
            if value:
                args.append("--" + name)
            continue
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, (str, os.PathLike)) for v in value):
            for v in value:   # a repeatable option, given once per value
                args += ["--" + name, _text(v)]
            continue
        if name in flags:
            args.append("--%s=%s" % (name, _text(value)))   # the command line's "takes no value"
            continue
        args += ["--" + name, _text(value)]   # as typed on the command line: its errors quote the same
    return args


# ----- the option tables ---------------------------------------------------------------------------

class _Table:
    """One command's option table, as the command builds it (_poslab.options): the keyword
    arguments, the flags among them, the signature and the docstring's option list."""

    def __init__(self, info, skip=()):
        self.usage = info["usage"]
        self.description = info["description"]
        self.options = {}   # Python name -> {"option", "arg", "help", "default", "valid", "repeatable"}
        self.flags = set()
        for o in info["options"] or []:
            if o["name"] in skip:
                continue
            name = o["name"].replace("-", "_")
            self.options[name] = {"option": "--" + o["name"], "arg": o["arg"], "help": o["help"],
                                  "default": o["default"], "valid": o["valid"], "repeatable": o["repeatable"]}
            if not o["arg"]:
                self.flags.add(o["name"])

    def parameters(self):
        """Keyword-only parameters, None (not given) by default; the command line's default is in the docstring."""
        return [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None)
                for name in self.options if name.isidentifier() and not keyword.iskeyword(name)]

    def doc(self):
        lines = ["Keyword arguments (the command line's options; None or left out = not given):"]
        for name, o in self.options.items():
            kind = "True (a flag)" if not o["arg"] else o["arg"]
            lines.append("  %s=%s    %s" % (name, kind, o["help"]))
            lines.append("      default: %s%s%s" % (o["default"], "; valid: " + o["valid"] if o["valid"] else "",
                                                     " (repeatable: a list gives it once per value)" if o["repeatable"] else ""))
        return "\n".join(lines)


_QK_ARRAY_OPTIONS = ("q", "k")


def _rows_array(name, value):
    """q= or k= given as an array: a C-ordered float16/32/64 NumPy array in the machine's byte order
    (integers become float64); other dtypes and every shape go to the command line's reader, which
    checks them as it checks a file's."""
    import numpy as np

    try:
        a = np.asarray(value)
    except (ValueError, TypeError):   # ragged lists and the like
        raise ValueError("%s (array): a rectangular array of numbers, got a ragged or non-numeric %s"
                         % (name, type(value).__name__)) from None
    if a.dtype.kind in "iu":
        if a.size and np.abs(a).max(initial=0) > 2**53:
            raise ValueError("%s (array): integers of magnitude at most 2^53 (exact as float64), got %s" % (name, a.dtype))
        a = a.astype(np.float64)
    elif a.dtype.kind == "f" and not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    return np.ascontiguousarray(a)


def _split_arrays(kwargs):
    """kwargs with q=/k= arrays named by their labels ("q (array)"), and the arrays by option name."""
    qk = kwargs.get("qk")
    if qk is not None and not isinstance(qk, (str, os.PathLike)):
        raise ValueError("invalid qk, a .npz or .safetensors file holding q and k (arrays: q=array, k=array), got %s"
                         % type(qk).__name__)
    arrays = {}
    for k in _QK_ARRAY_OPTIONS:
        v = kwargs.get(k)
        if v is not None and not isinstance(v, (str, os.PathLike)):
            arrays[k] = _rows_array(k, v)
    if not arrays:
        return kwargs, arrays
    return dict(kwargs, **{k: "%s (array)" % k for k in arrays}), arrays


def _make(what, table):
    def function(**kwargs):
        kwargs, arrays = _split_arrays(kwargs)
        return _poslab.compute([what] + _arguments(kwargs, table.flags), arrays)

    name = what.replace("-", "_")
    function.__name__ = function.__qualname__ = name
    function.__signature__ = inspect.Signature(table.parameters())
    function.options = table.options
    function.__doc__ = ("poslab.%s(**options): `poslab compute %s` in process (usage: %s).\n\n%s\n\n%s"
                        % (name, what, table.usage, table.description, table.doc()))
    return function


def _make_demo(info):
    def demo(key, **kwargs):
        if not isinstance(key, str):
            raise ValueError("invalid demonstration KEY, a key of `poslab demos`, got %r" % (key,))
        # The options of demonstration KEY: its own table (`poslab compute demo KEY --help`).
        flags = _Table(_poslab.options(["demo", key, "--help"])).flags if kwargs else set()
        return _poslab.compute(["demo", key] + _arguments(kwargs, flags))

    demo.__doc__ = ("poslab.demo(key, **options): `poslab compute demo KEY` in process. Each demonstration's options "
                    "are those of `poslab compute demo KEY --help` (poslab.demo_options(key)).\n\n" + info["text"])
    return demo


def demo_options(key):
    """The keyword arguments of poslab.demo(key, ...): {name: {"option", "arg", "help", "default", "valid", "repeatable"}}."""
    if not isinstance(key, str):
        raise ValueError("invalid demonstration KEY, a key of `poslab demos`, got %r" % (key,))
    return _Table(_poslab.options(["demo", key, "--help"])).options


def _setup():
    functions = {}
    for what in _poslab.whats().split(", "):
        what = what.strip()
        if not what:
            continue
        info = _poslab.options([what, "--help"])
        functions[what.replace("-", "_")] = _make_demo(info) if what == "demo" else _make(what, _Table(info))
    return functions


_functions = _setup()
globals().update(_functions)
__all__ += sorted(_functions) + ["demo_options"]


# ----- figures -----------------------------------------------------------------------------------

class PNG(bytes):
    """The bytes of a PNG image; a notebook shows it inline (_repr_png_)."""

    def _repr_png_(self):
        return bytes(self)


def figure(view, output=None, **options):
    # The docstring and signature are made from `poslab figure --help`'s table (below).
    if not isinstance(view, str) or not view.split():
        raise ValueError("invalid view, a view of `poslab figure` (e.g. \"heatmap\", \"demo nope\"), got %r" % (view,))
    if "output" in options or "o" in options:
        raise ValueError("invalid option output, the figure's file as poslab.figure(view, output=FILE), got it as an option")
    if not _poslab.has_qt_application() and threading.current_thread() is not threading.main_thread():
        raise RuntimeError("poslab.figure: the first figure must be drawn from the main thread (the Qt application "
                           "it makes lives there)")
    words = view.split()
    options, arrays = _split_arrays(options)

    def run(target):
        found = _poslab.figure(words + _arguments(options, _FIGURE.flags) + ["--output", target], arrays)
        for w in found:
            warnings.warn(w, stacklevel=3)

    if output is not None:
        if not isinstance(output, (str, os.PathLike)) or not os.fspath(output):
            raise ValueError("invalid output, a file name (.png, .svg, .pdf, .csv or .json), got %r" % (output,))
        run(os.fspath(output))
        return None
    with tempfile.TemporaryDirectory(prefix="poslab-") as d:
        target = os.path.join(d, "figure.png")
        run(target)
        with open(target, "rb") as f:
            return PNG(f.read())


# The options of `poslab figure` (every view's and method's: its --help table); no Qt application
# is made for it.
_FIGURE = _Table(_poslab.figure_options(["--help"]), skip=("output",))
figure.__signature__ = inspect.Signature(
    [inspect.Parameter("view", inspect.Parameter.POSITIONAL_OR_KEYWORD),
     inspect.Parameter("output", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)] + _FIGURE.parameters())
figure.options = _FIGURE.options
figure.__doc__ = ("poslab.figure(view, output=None, **options): `poslab figure VIEW [OPTIONS] -o FILE` in process (no "
                  "display needed).\nWithout output: the PNG's bytes (a bytes object a notebook shows inline); with "
                  "output=FILE: writes FILE (its extension chooses the format) and returns None. Options as keyword "
                  "arguments (dashes become underscores; q=/k= also as arrays); bad input raises ValueError with the "
                  "command line's line; warnings are Python warnings.\nThe first call makes the Qt application figures "
                  "are drawn with (offscreen unless QT_QPA_PLATFORM says otherwise), from the main thread; when the "
                  "process already runs a QApplication (PyQt or PySide on the same Qt) it is used from its own thread, "
                  "any other Qt application is a RuntimeError.\n\n%s\n\n%s" % (_FIGURE.description, _FIGURE.doc()))
__all__ += ["figure"]
