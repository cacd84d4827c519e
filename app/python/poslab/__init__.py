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

Each function returns a dict with the fields of the command's JSON: objects as dicts, every
rectangular array of numbers as a NumPy array (int64 when every entry is an integer, float64
otherwise; null, a masked cell, as NaN), other values as Python values. Bad input raises
ValueError whose message is the command line's one error line (after "poslab: error: ").

The computation runs in this process (no subprocess), through the command line's compute entry.
"""

import math
import numbers
import os
import re

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


def _arguments(kwargs):
    args = []
    for key, value in kwargs.items():
        name = key.replace("_", "-")
        if value is None:
            continue
        if name in _FLAGS and isinstance(value, bool):
            if value:
                args.append("--" + name)
            continue
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, (str, os.PathLike)) for v in value):
            for v in value:   # a repeatable option, given once per value
                args += ["--" + name, _text(v)]
            continue
        if name in _FLAGS:
            args.append("--%s=%s" % (name, _text(value)))   # the command line's "takes no value"
            continue
        args += ["--" + name, _text(value)]   # as typed on the command line: its errors quote the same
    return args


def _make(what, help_text):
    def function(**kwargs):
        return _poslab.compute([what] + _arguments(kwargs))

    function.__name__ = function.__qualname__ = what.replace("-", "_")
    function.__doc__ = ("poslab.%s(**options): `poslab compute %s` in process; options as keyword arguments "
                        "(dashes become underscores).\n\n%s" % (function.__name__, what, help_text))
    return function


def _make_demo(help_text):
    def demo(key, **kwargs):
        if not isinstance(key, str):
            raise ValueError("invalid demonstration KEY, a key of `poslab demos`, got %r" % (key,))
        return _poslab.compute(["demo", key] + _arguments(kwargs))

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
