"""`import poslab` (docs/spec/cli.md "Python"; issue #31) against the command line.

Run by CTest (test_python) with PYTHONPATH = build/<preset>/python, POSLAB_EXE = the built
`poslab` and POSLAB_SOURCE_DIR = the source tree.
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import poslab

EXE = os.environ["POSLAB_EXE"]
SOURCE = pathlib.Path(os.environ.get("POSLAB_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
LLAMA = str(SOURCE / "tests/data/config/real/llama-3.1-8b.json")
ENV = dict(os.environ, QT_QPA_PLATFORM="offscreen")


def cli_args(what, kwargs):
    """The command line that poslab.<what>(**kwargs) stands for, written independently of the module."""
    args = [EXE, "compute"] + what.split(" ")
    for key, value in kwargs.items():
        name = "--" + key.replace("_", "-")
        if value is True:
            args.append(name)
        elif isinstance(value, (list, tuple)):
            args += [name, ",".join(str(v) for v in value)]
        else:
            args += [name, str(value)]
    return args


def run_cli(what, kwargs):
    p = subprocess.run(cli_args(what, kwargs), capture_output=True, text=True, env=ENV, timeout=60)
    return p


def numeric_shape(v):
    """The shape of a rectangular nested list whose leaves are numbers or null; None otherwise."""
    if not isinstance(v, list):
        return None
    if not v:
        return (0,)
    if all(isinstance(e, list) for e in v):
        shapes = {numeric_shape(e) for e in v}
        return (len(v),) + shapes.pop() if len(shapes) == 1 and None not in shapes else None
    if all(e is None or (isinstance(e, (int, float)) and not isinstance(e, bool)) for e in v):
        return (len(v),)
    return None


def flatten(v):
    return [x for e in v for x in flatten(e)] if isinstance(v, list) else [v]


def expected(value):
    """The JSON value as the module documents it: dicts; rectangular arrays of numbers/null as NumPy
    arrays (int64 when every entry is an integer, float64 otherwise, null as NaN); other lists as lists."""
    if isinstance(value, dict):
        return {k: expected(v) for k, v in value.items()}
    if isinstance(value, list):
        shape = numeric_shape(value)
        if shape is None:
            return [expected(v) for v in value]
        flat = flatten(value)
        if flat and all(isinstance(x, int) for x in flat):
            return np.array(flat, dtype=np.int64).reshape(shape)
        return np.array([np.nan if x is None else x for x in flat], dtype=np.float64).reshape(shape)
    return value


def assert_same(got, want, where="result"):
    if isinstance(want, dict):
        assert isinstance(got, dict), where
        assert list(got) == list(want), where
        for k in want:
            assert_same(got[k], want[k], where + "." + k)
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), "%s: %r is not an array" % (where, type(got))
        assert got.dtype == want.dtype, "%s: dtype %s, expected %s" % (where, got.dtype, want.dtype)
        assert got.shape == want.shape, "%s: shape %s, expected %s" % (where, got.shape, want.shape)
        assert np.array_equal(got, want, equal_nan=want.dtype.kind == "f"), where
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, "%s[%d]" % (where, i))
    else:
        assert type(got) is type(want) and got == want, "%s: %r, expected %r" % (where, got, want)


@pytest.fixture(scope="module")
def vectors(tmp_path_factory):
    path = tmp_path_factory.mktemp("vectors") / "rows.json"
    path.write_text(json.dumps([[0.5 * (r + 1) - c * 0.25 for c in range(8)] for r in range(4)]))
    return str(path)


# A sample of every WHAT of `poslab compute` (what, keyword arguments).
SAMPLES = [
    ("frequencies", dict(head_dim=128)),
    ("frequencies", dict(head_dim=64, scaling="yarn", factor=4, original_max_positions=4096)),
    ("frequencies", dict(config=LLAMA)),
    ("rope", dict(head_dim=8, positions="0:5", vector=[1, 2, 3, 4, 5, 6, 7, 8])),
    ("precision", dict(head_dim=64, positions="0:32", precision="bfloat16")),
    ("precision", dict(config=LLAMA, positions=[0, 1000, 4096], precision="float16", summary=True)),
    ("xpos", dict(head_dim=8, vectors="VECTORS")),
    ("sinusoidal", dict(dim=16, positions="0:6")),
    ("t5-buckets", dict(relative=[-200, -3, 0, 1, 5, 500])),
    ("t5-buckets", dict(query_length=4, key_length=6)),
    ("alibi", dict(heads=4, length=5)),
    ("shaw", dict(key_length=6, max_relative_position=2)),
    ("transformer-xl", dict(dim=8, key_length=5)),
    ("scores", dict(method="rope", dim=16, length=12, content="random", seed=3)),
    ("scores", dict(method="alibi", dim=8, length=6, heads=4, causal=True)),
    ("scores", dict(method="t5", dim=8, length=64, summary=True)),
    ("decay", dict(method="rope", dim=64, max_distance=300)),
    ("decay", dict(config=LLAMA, max_distance=2000)),
    ("contributions", dict(dim=16, max_distance=40)),
    ("layers", dict(config=LLAMA)),
    ("config", dict(config=LLAMA)),
    ("positions", dict(tokens="text:3,image:1x4x4,text:2", model="qwen2-vl")),
    ("positions", dict(vision="qwen", grid="1x4x6")),
    ("demo sinusoidal-shift", dict()),
]


def whats_sampled():
    return {w.split(" ")[0] for w, _ in SAMPLES}


def test_every_what_is_sampled():
    assert whats_sampled() == {w.strip() for w in poslab._poslab.whats().split(",")}


@pytest.mark.parametrize("what,kwargs", SAMPLES, ids=["%s-%d" % (w.split(" ")[0], i) for i, (w, _) in enumerate(SAMPLES)])
def test_agrees_with_the_command_line(what, kwargs, vectors):
    kwargs = {k: (vectors if v == "VECTORS" else v) for k, v in kwargs.items()}
    p = run_cli(what, kwargs)
    assert p.returncode == 0, p.stderr
    want = expected(json.loads(p.stdout))
    if what.startswith("demo "):
        got = poslab.demo(what.split(" ")[1], **kwargs)
    else:
        got = getattr(poslab, what.replace("-", "_"))(**kwargs)
    assert_same(got, want)


BAD = [
    ("frequencies", dict()),
    ("frequencies", dict(head_dim=0)),
    ("frequencies", dict(head_dim=64, scaling="nonsense")),
    ("frequencies", dict(head_dim=64, base=float("nan"))),
    ("frequencies", dict(head_dim=64, no_such_option=3)),
    ("scores", dict(method="rope", dim=16, length=5000)),
    ("scores", dict(method="rope", dim=16, length=8, content="sideways")),
    ("alibi", dict(heads=-1)),
    ("layers", dict(config="/nonexistent/config.json")),
    ("t5-buckets", dict(relative="3:1")),
    ("demo no-such-demo", dict()),
]


@pytest.mark.parametrize("what,kwargs", BAD, ids=["%s-%d" % (w.split(" ")[0], i) for i, (w, _) in enumerate(BAD)])
def test_bad_input_raises_the_command_lines_message(what, kwargs):
    cli = {k: ("nan" if isinstance(v, float) else v) for k, v in kwargs.items()}
    p = run_cli(what, cli)
    assert p.returncode in (1, 2) and p.stdout == ""
    line = p.stderr.strip()
    assert line.startswith("poslab: error: ") and "\n" not in line
    with pytest.raises(ValueError) as e:
        if what.startswith("demo "):
            poslab.demo(what.split(" ")[1], **kwargs)
        else:
            getattr(poslab, what.replace("-", "_"))(**kwargs)
    assert str(e.value) == line[len("poslab: error: "):]


def test_documented_shapes_and_dtypes():
    s = poslab.scores(method="rope", dim=32, length=17)["scores"]
    assert s.shape == (17, 17) and s.dtype == np.float64
    causal = poslab.scores(method="rope", dim=32, length=9, causal=True)["scores"]
    assert causal.shape == (9, 9) and np.isnan(causal[0, 1]) and not np.isnan(causal).any(axis=None) is True
    assert np.isnan(np.triu(causal, 1)[np.triu_indices(9, 1)]).all() and np.isfinite(np.tril(causal)).all()
    f = poslab.frequencies(head_dim=128)
    assert f["inv_freq"].shape == (64,) and f["inv_freq"].dtype == np.float64
    a = poslab.alibi(heads=8, length=6)
    assert a["slopes"].shape == (8,) and a["bias"].shape == (8, 6, 6) and a["bias"].dtype == np.float64
    b = poslab.t5_buckets(relative=range(-8, 8))
    assert b["bucket"].dtype == np.int64 and b["bucket"].shape == (16,)
    assert b["relative"].dtype == np.int64 and list(b["relative"]) == list(range(-8, 8))


def test_version_is_the_command_lines():
    p = subprocess.run([EXE, "--version"], capture_output=True, text=True, env=ENV)
    assert p.stdout.strip() == "poslab " + poslab.__version__


@pytest.mark.parametrize("what", [w.strip() for w in "frequencies, scores, decay, alibi, t5-buckets, positions".split(",")])
def test_docstring_is_the_command_lines_help(what):
    p = subprocess.run([EXE, "compute", what, "--help"], capture_output=True, text=True, env=ENV)
    doc = getattr(poslab, what.replace("-", "_")).__doc__
    assert p.stdout in doc
    options = re.findall(r"^  --([a-z0-9-]+)", p.stdout, re.M)
    assert options and all(("--" + o) in doc for o in options)


def test_keyword_arguments_are_the_options():
    # Each option of the help is accepted under its underscore name (no "unknown option" error).
    # (yarn without a factor reads both contexts: factor = max/original.)
    f = poslab.frequencies(head_dim=64, max_positions=8192, original_max_positions=4096, scaling="yarn",
                           beta_fast=16, beta_slow=2)
    assert f["inv_freq"].shape == (32,)
    with pytest.raises(ValueError, match="unknown option --max-position "):
        poslab.frequencies(head_dim=64, max_position=8192)


RANDOM_CALLS = textwrap.dedent(r"""
    import math, random, re, sys
    import numpy as np
    import poslab

    rng = random.Random(31)
    whats = [w.strip() for w in poslab._poslab.whats().split(",")]
    options = {w: re.findall(r"^  --([a-z0-9-]+)", poslab._poslab.help([w, "--help"]), re.M) for w in whats}
    values = [None, True, False, 0, 1, 2, 3, 8, 16, -1, -7, 2**63, 2**64 + 1, 0.5, -0.0, 1e-300, 1e308,
              float("nan"), float("inf"), "", "abc", "0:4", "4:0", "-3:3", "1,2,3", ",,", "1e400", "nan",
              "llama3", "yarn", "rope", "alibi", "t5", "float16", "bfloat16", "qwen", "1x2x2",
              "text:2,image:1x2x2", "/nonexistent", "-", "\u00e9\u2013", [1, 2, 3, 4], [], [0.5] * 8,
              range(0, 6), np.arange(4.0), np.float32(2.5), np.int64(4), ("a", "b")]
    base = {"frequencies": {"head_dim": 64}, "scores": {"method": "rope", "dim": 16, "length": 8},
            "decay": {"method": "rope", "dim": 16, "max_distance": 64}, "alibi": {"heads": 4},
            "sinusoidal": {"dim": 8}, "t5-buckets": {"relative": "0:8"}, "precision": {"head_dim": 16,
            "positions": "0:8", "precision": "bfloat16"}, "shaw": {"key_length": 4, "max_relative_position": 2},
            "transformer-xl": {"dim": 8, "key_length": 4}, "contributions": {"dim": 8, "max_distance": 16}}
    ok = errors = 0
    for i in range(400):
        what = rng.choice(whats)
        names = options[what] + ["no-such", "help-me"]
        # Half the calls start from a valid call of that WHAT, so that values reach the computation.
        kwargs = dict(base.get(what, {})) if rng.random() < 0.5 else {}
        for name in rng.sample(names, k=min(len(names), rng.randint(0, 3))):
            if name == "help":
                continue
            kwargs[name.replace("-", "_")] = rng.choice(values)
        try:
            if what == "demo":
                poslab.demo(rng.choice(["permutation", "sinusoidal-shift", "nope", ""]), **kwargs)
            else:
                getattr(poslab, what.replace("-", "_"))(**kwargs)
            ok += 1
        except ValueError as e:
            msg = str(e)
            assert msg and "\n" not in msg, (what, kwargs, msg)
            errors += 1
    print(ok, errors)
""")


def test_random_arguments_never_crash_the_interpreter():
    p = subprocess.run([sys.executable, "-X", "faulthandler", "-c", RANDOM_CALLS], capture_output=True, text=True,
                       env=ENV, timeout=120)
    assert p.returncode == 0, (p.returncode, p.stderr[-3000:])
    ok, errors = map(int, p.stdout.split())
    assert ok + errors == 400 and ok > 0 and errors > 0


def test_the_example_runs():
    p = subprocess.run([sys.executable, str(SOURCE / "docs/python-example.py")], capture_output=True, text=True,
                       env=ENV, timeout=60)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "Llama 3.1" in p.stdout and "bfloat16" in p.stdout
