"""PosLab from Python: every `poslab compute WHAT` as a function of the same name.

    import poslab
    f = poslab.frequencies(head_dim=128, rope_type="llama3", factor=8)
    f["inv_freq"]            # a NumPy array
    poslab.scores(method="rope", dim=64, length=256)["scores"]   # 256 x 256 float64

Dashes become underscores (`t5_buckets`, `head_dim=128`). Keyword arguments are the command
line's options (`poslab compute WHAT --help`, also `help(poslab.WHAT)`), read by the command
line's own parser: the same defaults, ranges and error lines. A value may be a str, an int, a
float, True (a flag), None (the option is not given), a list/tuple/NumPy array of numbers
(a LIST: comma-separated), a range with step 1 (a RANGE `A:B`) or an os.PathLike (a FILE).

Query and key rows (`scores`, `decay`, `contributions`): `q=` and `k=` take files or NumPy
arrays (float16, float32 or float64, or integers, which become float64; shape [N, d], [H, N, d] or
[1, H, N, d]; finite), read by the command line's own reader.

Each function returns a dict with the fields of the command's JSON: objects as dicts, arrays as
NumPy arrays: the command's arrays of real numbers as float64 (whatever their values), of integers
as int64; `scores` is an N x N float64 array (masked cells NaN), up to N = 5792 (the command line
prints at most 2048). These arrays are the numbers the computation produced, handed over without
text (the scores matrix is the very buffer the core computed into). Other values are Python values.
Bad input raises ValueError whose message is the command line's one error line (after
"poslab: error: ").

The computation runs in this process (no subprocess), through the command line's compute entry,
on as many threads as the machine has cores, with Python's lock released.
"""

import contextlib
import math
import numbers
import os
import re
import tempfile
import warnings

from . import _poslab

__version__ = _poslab.version

__all__ = ["__version__"]

_OPTION = re.compile(r"^  --([A-Za-z0-9][A-Za-z0-9-]*)( [^ ]+)?(?:  |$)")


def _options(help_text):
    """(name, takes_value) of every option a --help text lists."""
    found = []
    for line in help_text.splitlines():
        m = _OPTION.match(line)
        if m and m.group(1) != "help":
            found.append((m.group(1), m.group(2) is not None))
    return found


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


# Every option that is a flag (takes no value) in some command's --help.
_FLAGS = set()


def _arguments(kwargs, flags=_FLAGS):
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


_QK_DTYPES = ("float16", "float32", "float64")


def _rows_array(name, value):
    """q= or k= given as an array: a C-ordered float16/32/64 NumPy array, or ValueError."""
    import numpy as np

    try:
        a = np.asarray(value)
    except (ValueError, TypeError):   # ragged lists and the like
        raise ValueError("invalid %s, an array of shape [N, d], [H, N, d] or [1, H, N, d], got a ragged or "
                         "non-numeric %s" % (name, type(value).__name__)) from None
    if a.dtype.kind in "iu":
        if a.size and np.abs(a).max(initial=0) > 2**53:
            raise ValueError("invalid %s, integers of magnitude at most 2^53 (exact as float64), got %s" % (name, a.dtype))
        a = a.astype(np.float64)
    if a.dtype.name not in _QK_DTYPES:
        raise ValueError("invalid %s, an array of dtype float16, float32, float64 or integers, got dtype %s"
                         % (name, a.dtype))
    if a.ndim not in (2, 3, 4) or (a.ndim == 4 and a.shape[0] != 1):
        raise ValueError("invalid %s, an array of shape [N, d], [H, N, d] or [1, H, N, d], got shape %s"
                         % (name, list(a.shape)))
    if a.size == 0:
        raise ValueError("invalid %s, an array with at least one row and one column, got shape %s" % (name, list(a.shape)))
    if not np.isfinite(a).all():
        raise ValueError("invalid %s, finite numbers, got a NaN or infinity" % name)
    return np.ascontiguousarray(a)


@contextlib.contextmanager
def _array_files(kwargs):
    """kwargs with q=/k= arrays written as .npy files (the command line's reader reads them) for the call."""
    arrays = {k: v for k, v in kwargs.items()
              if k in ("q", "k", "qk") and v is not None and not isinstance(v, (str, os.PathLike))}
    if not arrays:
        yield kwargs, {}
        return
    if "qk" in arrays:
        raise ValueError("invalid qk, a .npz or .safetensors file holding q and k (arrays: q=array, k=array), got %s"
                         % type(arrays["qk"]).__name__)
    import numpy as np

    checked = {k: _rows_array(k, v) for k, v in arrays.items()}
    with tempfile.TemporaryDirectory(prefix="poslab-") as d:
        paths = {}
        for k, a in checked.items():
            paths[k] = os.path.join(d, k + ".npy")
            np.save(paths[k], a, allow_pickle=False)
        yield dict(kwargs, **paths), paths


def _call(args_of, kwargs):
    with _array_files(kwargs) as (kwargs, paths):
        try:
            return _poslab.compute(args_of(kwargs))
        except ValueError as e:
            message = str(e)
            for k, path in paths.items():   # the file stands for the array the caller gave
                message = message.replace("--%s %s: " % (k, os.path.basename(path)), "%s (array): " % k)
                message = message.replace(path, "%s (array)" % k)
            if message != str(e):
                raise ValueError(message) from None
            raise


def _make(what, help_text):
    def function(**kwargs):
        return _call(lambda kw: [what] + _arguments(kw), kwargs)

    function.__name__ = function.__qualname__ = what.replace("-", "_")
    function.__doc__ = ("poslab.%s(**options): `poslab compute %s` in process; options as keyword arguments "
                        "(dashes become underscores).\n\n%s" % (function.__name__, what, help_text))
    return function


def _make_demo(help_text):
    def demo(key, **kwargs):
        if not isinstance(key, str):
            raise ValueError("invalid demonstration KEY, a key of `poslab demos`, got %r" % (key,))
        return _call(lambda kw: ["demo", key] + _arguments(kw), kwargs)

    demo.__doc__ = ("poslab.demo(key, **options): `poslab compute demo KEY` in process.\n\n" + help_text)
    return demo


def _setup():
    functions = {}
    for what in _poslab.whats().split(", "):
        what = what.strip()
        if not what:
            continue
        text = _poslab.help([what, "--help"])
        _FLAGS.update(name for name, takes_value in _options(text) if not takes_value)
        functions[what.replace("-", "_")] = _make_demo(text) if what == "demo" else _make(what, text)
    return functions


_functions = _setup()
globals().update(_functions)
__all__ += sorted(_functions)


class PNG(bytes):
    """The bytes of a PNG image; a notebook shows it inline (_repr_png_)."""

    def _repr_png_(self):
        return bytes(self)


def figure(view, output=None, **options):
    # The docstring is `poslab figure --help` (set below).
    if not isinstance(view, str) or not view.split():
        raise ValueError("invalid view, a view of `poslab figure` (e.g. \"heatmap\", \"demo nope\"), got %r" % (view,))
    if "output" in options or "o" in options:
        raise ValueError("invalid option output, the figure's file as poslab.figure(view, output=FILE), got it as an option")
    words = view.split()
    with _array_files(options) as (options, paths):
        def run(target):
            try:
                found = _poslab.figure(words + _arguments(options, _FIGURE_FLAGS) + ["--output", target])
            except ValueError as e:
                message = str(e)
                for k, path in paths.items():
                    message = message.replace("--%s %s: " % (k, os.path.basename(path)), "%s (array): " % k)
                    message = message.replace(path, "%s (array)" % k)
                raise ValueError(message) from None
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


# The flags of `poslab figure` (every view's --help).
_FIGURE_FLAGS = set()


def _setup_figure():
    text = _poslab.figure_help(["--help"])
    _FIGURE_FLAGS.update(name for name, takes_value in _options(text) if not takes_value)
    figure.__doc__ = ("poslab.figure(view, output=None, **options): `poslab figure VIEW [OPTIONS] -o FILE` in "
                      "process (no display needed).\nWithout output: the PNG's bytes (a bytes object a notebook "
                      "shows inline); with output=FILE: writes FILE (its extension chooses the format) and returns "
                      "None. Options as keyword arguments (dashes become underscores; q=/k= also as arrays); bad "
                      "input raises ValueError with the command line's line; warnings are Python warnings.\n\n" + text)


_setup_figure()
__all__ += ["figure"]
