"""`import poslab` (docs/spec/cli.md "Python"; issue #31) against the command line.

Run by CTest (test_python) with PYTHONPATH = build/<preset>/python, POSLAB_EXE = the built
`poslab` and POSLAB_SOURCE_DIR = the source tree.
"""

import inspect
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
        # JSON text cannot tell a real number from an integer (the writer prints 4.0 as 4): the
        # module's arrays of real numbers are float64 whatever their values.
        if got.dtype == np.float64 and want.dtype == np.int64:
            want = want.astype(np.float64)
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
    ("scores", dict(method="rope", dim=16, length=8, window=0)),
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


def cli_options(words):
    """(option, ARG or None, "default: ...; valid: ...") of every option `poslab WORDS... --help` prints."""
    p = subprocess.run([EXE] + words + ["--help"], capture_output=True, text=True, env=ENV, timeout=60)
    assert p.returncode == 0, p.stderr
    found = []
    lines = p.stdout.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^  --([a-z0-9-]+)(?: ([^ ]+))?(?:  |$)", line)
        if m and m.group(1) != "help":
            found.append((m.group(1), m.group(2), lines[i + 1].strip()))
    return found


COMPUTE_WHATS = [w.strip() for w in poslab._poslab.whats().split(",") if w.strip() != "demo"]


def assert_signature_is_the_table(fn, options, skip=()):
    """fn's keyword-only parameters, flags, defaults and ranges are the command line's options."""
    params = [p for p in inspect.signature(fn).parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    want = [o for o in options if o[0] not in skip]
    assert [p.name for p in params] == [o.replace("-", "_") for o, _, _ in want]
    assert all(p.default is None for p in params)
    doc = fn.__doc__
    for option, arg, default_valid in want:
        name = option.replace("-", "_")
        table = fn.options[name]
        assert table["option"] == "--" + option
        assert table["arg"] == (arg or ""), option   # a flag takes no value
        assert ("default: %s" % table["default"]) + ("; valid: %s" % table["valid"] if table["valid"] else "") == default_valid
        assert "  %s=%s    %s" % (name, arg or "True (a flag)", table["help"]) in doc, option
        assert "      " + default_valid in doc, option


@pytest.mark.parametrize("what", COMPUTE_WHATS)
def test_keyword_arguments_are_the_command_lines_options(what):
    # The signature and docstring are made from the command's own option table (not from its
    # --help text); here they are compared with the --help the executable prints.
    fn = getattr(poslab, what.replace("-", "_"))
    assert_signature_is_the_table(fn, cli_options(["compute", what]))
    assert fn.__doc__.startswith("poslab.%s(**options): `poslab compute %s` in process" % (fn.__name__, what))


def test_figure_keyword_arguments_are_the_command_lines_options():
    assert_signature_is_the_table(poslab.figure, cli_options(["figure"]), skip=("output",))
    assert list(inspect.signature(poslab.figure).parameters)[:2] == ["view", "output"]


@pytest.mark.parametrize("key", ["rope-shift", "sinusoidal-shift"])
def test_demo_options_are_the_command_lines(key):
    options = cli_options(["compute", "demo", key])
    got = poslab.demo_options(key)
    assert list(got) == [o.replace("-", "_") for o, _, _ in options]
    assert all(got[o.replace("-", "_")]["arg"] == (a or "") for o, a, _ in options)


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
    options = {w: [o["option"][2:] for o in getattr(poslab, w.replace("-", "_")).options.values()]
               for w in whats if w != "demo"}
    options["demo"] = []
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


# ----- arrays as numbers (no JSON text): scores up to N = 5792, q/k as NumPy arrays ------------

def same_bits(got, want):
    """Equal bit for bit: the same float64 in every cell (NaN where the other has NaN; JSON prints
    −0 as 0, so a zero is compared by value)."""
    assert got.dtype == np.float64 and got.shape == want.shape
    nan = np.isnan(want)
    assert (np.isnan(got) == nan).all()
    g, w = got[~nan], want[~nan]
    nonzero = w != 0
    assert (g[~nonzero] == 0).all()
    assert np.array_equal(g[nonzero].view(np.uint64), w[nonzero].view(np.uint64))


def test_scores_at_4096_is_one_float64_array():
    s = poslab.scores(method="rope", dim=128, length=4096)["scores"]
    assert s.shape == (4096, 4096) and s.dtype == np.float64 and s.flags["C_CONTIGUOUS"]
    assert np.isfinite(s).all()
    # The array owns the buffer the core computed into (no copy, no text): its base is the capsule.
    assert type(s.base).__name__ == "PyCapsule"
    # Ones content, rope in float32: score(i, j) depends on i − j only up to float32 rounding, and
    # the diagonal is s·|R_i q|² = s·d = sqrt(128) up to that rounding.
    assert np.allclose(np.diag(s), np.sqrt(128), rtol=1e-5)


# N·N·d >= 2^20: the scores kernel, its rows in pieces on several threads.
BIG = [
    dict(method="rope", dim=64, length=128, content="random", seed=5),
    dict(method="rope", dim=64, length=160, content="formula", causal=True, softmax=True),
    dict(method="rope", dim=64, length=128, content="random", precision="double", window=17),
    dict(method="alibi", dim=64, length=128, content="formula", heads=8, head=3),
    dict(method="xpos", dim=64, length=128, content="random"),
    dict(method="nope", dim=64, length=128),
]


@pytest.mark.parametrize("kwargs", BIG, ids=["%s-%d" % (k["method"], i) for i, k in enumerate(BIG)])
def test_scores_bit_for_bit_with_the_command_line(kwargs):
    p = run_cli("scores", kwargs)
    assert p.returncode == 0, p.stderr
    want = expected(json.loads(p.stdout))["scores"].astype(np.float64)
    got = poslab.scores(**kwargs)["scores"]
    same_bits(got, want)


def test_real_arrays_are_float64_whatever_their_values():
    # ones content without position: every score is 16/4 = 4, still a float64 matrix
    s = poslab.scores(method="nope", dim=16, length=4)["scores"]
    assert s.dtype == np.float64 and (s == 4).all()
    d = poslab.decay(method="rope", dim=64, max_distance=100000)
    assert d["value"].dtype == np.float64 and d["value"].shape == (100001,)
    assert d["distance"].dtype == np.int64 and (d["distance"] == np.arange(100001)).all()
    assert type(d["value"].base).__name__ == "PyCapsule"
    r = poslab.rope(head_dim=8, positions=range(0, 5), vector=[1, 2, 3, 4, 5, 6, 7, 8])
    assert all(v.dtype == np.float64 for v in r.values() if isinstance(v, np.ndarray) and v.dtype.kind == "f")


def test_scores_length_past_the_matrix():
    for n in (5793, 0):
        with pytest.raises(ValueError, match=r"^invalid --length, an integer from 1 to 5792 for the matrix \(from Python\); "
                                             r"with --summary up to 65536 .*, got %d$" % n):
            poslab.scores(method="rope", dim=8, length=n)
    assert poslab.scores(method="t5", dim=8, length=5793, summary=True)["shape"].tolist() == [5793, 5793]


@pytest.fixture(scope="module")
def qk_rows():
    rng = np.random.default_rng(7)
    return rng.standard_normal((2, 24, 16)).astype(np.float32), rng.standard_normal((2, 24, 16)).astype(np.float32)


@pytest.mark.parametrize("what,kwargs", [("scores", dict(method="rope")), ("scores", dict(method="alibi", causal=True)),
                                         ("decay", dict(method="rope")), ("contributions", dict())],
                         ids=["scores-rope", "scores-alibi", "decay", "contributions"])
def test_qk_arrays_are_the_files(what, kwargs, qk_rows, tmp_path):
    q, k = qk_rows
    np.save(tmp_path / "q.npy", q)
    np.save(tmp_path / "k.npy", k)
    files = dict(kwargs, q=str(tmp_path / "q.npy"), k=str(tmp_path / "k.npy"), head=1)
    p = run_cli(what, files)
    assert p.returncode == 0, p.stderr
    want = expected(json.loads(p.stdout))
    fn = getattr(poslab, what)
    assert_same(fn(**dict(kwargs, q=q, k=k, head=1)), want)
    # one head as [N, d], from a list of lists too: head 0 of the files
    del files["head"]
    p = run_cli(what, files)
    assert p.returncode == 0, p.stderr
    assert_same(fn(**dict(kwargs, q=q[0], k=k[0].tolist())), expected(json.loads(p.stdout)))


SHAPES = r"\[N, d\], \[H, N, d\] or \[1, H, N, d\]"
# The reader's checks and messages, as for a file ("--q q.npy: wrong shape of q, ..."), the array's
# label in place of the file.
BAD_QK = [
    (dict(q=np.zeros(8), k=np.zeros(8)), r"^q \(array\): wrong shape of q, %s, got \[8\]$" % SHAPES),
    (dict(q=np.zeros((2, 2, 4, 8)), k=np.zeros((4, 8))), r"^q \(array\): wrong shape of q, %s, got \[2, 2, 4, 8\]$" % SHAPES),
    (dict(q=np.zeros((4, 8), complex), k=np.zeros((4, 8))),
     r"^q \(array\): wrong dtype, float16, float32 or float64 \(integers become float64\), got complex128$"),
    (dict(q=np.zeros((4, 8)), k=np.array([["a"] * 8] * 4)), r"^k \(array\): wrong dtype, .*got <U1$"),
    (dict(q=np.zeros((4, 8)), k=np.ones((4, 8), bool)), r"^k \(array\): wrong dtype, .*got bool$"),
    (dict(q=np.full((4, 8), np.nan), k=np.zeros((4, 8))),
     r"^q \(array\): tensor q \(head 0\), finite values, got NaN at row 0, column 0$"),
    (dict(q=np.zeros((4, 8)), k=np.array([[0.0] * 8] * 3 + [[0.0] * 7 + [np.inf]])),
     r"^k \(array\): tensor k \(head 0\), finite values, got Inf at row 3, column 7$"),
    (dict(q=np.zeros((0, 8)), k=np.zeros((0, 8))), r"^q \(array\): wrong shape of q, %s, got \[0, 8\]$" % SHAPES),
    (dict(q=[[1, 2], [3]], k=np.zeros((4, 8))), r"^q \(array\): a rectangular array of numbers, got a ragged"),
    (dict(q=np.zeros((4, 8))), r"^--q needs --k"),
    (dict(q=np.zeros((4, 8)), k=np.zeros((4, 6))), r"^k \(array\): shape of k, the N and d of q \(4, 8\), got \[4, 6\]$"),
    (dict(q=np.zeros((2, 4, 8)), k=np.zeros((2, 4, 8)), head=2),
     r"^q \(array\): --head, an integer from 0 to 1 \(the q tensor's heads − 1\), got 2$"),
    (dict(qk=np.zeros((4, 8))), r"^invalid qk, a \.npz or \.safetensors file"),
]


@pytest.mark.parametrize("kwargs,message", BAD_QK, ids=["1d", "4d", "complex", "str", "bool", "nan", "inf", "empty", "ragged",
                                                        "q-alone", "dims", "head", "qk"])
def test_bad_qk_arrays_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        poslab.scores(method="rope", **kwargs)


def test_qk_arrays_need_no_temporary_file(qk_rows, tmp_path):
    # The arrays' buffers go to the reader directly: no file is written (the script makes writing
    # one fail), and an array in the other byte order, or strided, gives the native one's numbers.
    q, k = qk_rows
    np.save(tmp_path / "q.npy", q[1])
    np.save(tmp_path / "k.npy", k[1])
    p = run_cli("scores", dict(method="rope", q=str(tmp_path / "q.npy"), k=str(tmp_path / "k.npy"), length=24))
    assert p.returncode == 0, p.stderr
    want = expected(json.loads(p.stdout))["scores"]
    script = textwrap.dedent("""
        import os, sys, tempfile
        import numpy as np
        import poslab
        q, k = np.load(sys.argv[1]), np.load(sys.argv[2])
        save = np.save
        def refuse(*args, **kwargs):
            raise AssertionError("a temporary file was made")
        tempfile.TemporaryDirectory = tempfile.mkdtemp = tempfile.mkstemp = tempfile.NamedTemporaryFile = refuse
        np.save = refuse
        runs = [poslab.scores(method="rope", q=q, k=k, length=24)["scores"],
                poslab.scores(method="rope", q=q.astype(">f4"), k=k.astype(">f8"), length=24)["scores"],
                poslab.scores(method="rope", q=np.asfortranarray(q), k=np.repeat(k, 2, axis=1)[:, ::2], length=24)["scores"],
                poslab.decay(method="rope", q=q, k=k, max_distance=5)["value"]]
        save(sys.argv[3], np.stack(runs[:3]))
        print(len(runs[3]))
    """)
    r = subprocess.run([sys.executable, "-c", script, str(tmp_path / "q.npy"), str(tmp_path / "k.npy"),
                        str(tmp_path / "got.npy")], capture_output=True, text=True, env=ENV, timeout=60)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split() == ["6"]
    for got in np.load(tmp_path / "got.npy"):
        assert np.array_equal(got, want)


NO_QT_APPLICATION = textwrap.dedent("""
    import ctypes, os
    libc = ctypes.CDLL(None)
    libc.getenv.restype = ctypes.c_char_p
    import poslab
    # Importing and computing make no Qt application: the one a figure needs sets QT_QPA_PLATFORM
    # (seen through the C library, as Qt sets it), and the module says whether one exists.
    poslab.frequencies(head_dim=64)
    poslab.scores(method="rope", dim=16, length=8)
    poslab.demo("sinusoidal-shift")
    assert "--method" in poslab.figure.__doc__
    print(libc.getenv(b"QT_QPA_PLATFORM"))
    print(poslab._poslab.has_qt_application())
    png = poslab.figure("heatmap", method="rope", dim=16, length=16, width=200, height=150)
    assert png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    print(libc.getenv(b"QT_QPA_PLATFORM"))
    print(poslab._poslab.has_qt_application())
""")


def test_import_and_compute_make_no_qt_application():
    env = {k: v for k, v in ENV.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    p = subprocess.run([sys.executable, "-c", NO_QT_APPLICATION], capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.splitlines() == ["None", "False", "b'offscreen'", "True"]


def test_first_figure_from_another_thread_is_a_clear_error():
    script = textwrap.dedent("""
        import threading
        import poslab
        out = []
        def draw():
            try:
                poslab.figure("demo rope-shift", width=320, height=200)
                out.append("drawn")
            except RuntimeError as e:
                out.append(str(e))
        t = threading.Thread(target=draw)
        t.start()
        t.join()
        print(out[0])
        print(poslab._poslab.has_qt_application())
    """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=ENV, timeout=60)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.splitlines() == ["poslab.figure: the first figure must be drawn from the main thread (the Qt "
                                     "application it makes lives there)", "False"]


# ----- poslab.figure: the figure command in process, no display ---------------------------------

def cli_figure(view, tmp_path, *args):
    out = tmp_path / "cli.png"
    p = subprocess.run([EXE, "figure"] + view.split() + list(args) + ["-o", str(out)], capture_output=True, text=True,
                       env=ENV, timeout=60)
    return p, out


FIGURES = [
    ("heatmap", dict(method="rope", dim=64, length=64, width=400, height=300)),
    ("decay", dict(method="alibi", dim=16, heads=4, theme="dark", width=320, height=200)),
    ("demo rope-shift", dict(width=640, height=360)),
]


@pytest.mark.parametrize("view,kwargs", FIGURES, ids=[v.split()[0] for v, _ in FIGURES])
def test_figure_is_the_command_lines_png(view, kwargs, tmp_path):
    png = poslab.figure(view, **kwargs)
    assert isinstance(png, bytes) and png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (kwargs["width"], kwargs["height"])
    assert png._repr_png_() == png   # a notebook shows it
    args = []
    for k, v in kwargs.items():
        args += ["--" + k.replace("_", "-"), str(v)]
    p, out = cli_figure(view, tmp_path, *args)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == png


def test_figure_writes_a_file(tmp_path):
    target = tmp_path / "slide.svg"
    assert poslab.figure("demo rope-shift", output=target) is None
    assert target.read_bytes().lstrip().startswith(b"<?xml") and b"<svg" in target.read_bytes()
    with pytest.raises(ValueError, match="^output file exists, pass --force to overwrite it"):
        poslab.figure("demo rope-shift", output=target)
    poslab.figure("demo rope-shift", output=str(target), force=True)


FIGURE_BAD = [
    ("heatmap", dict(method="rope", dim=-3)),
    ("heatmap", dict(method="rope", dim=64, no_such_option=1)),
    ("nosuch", dict()),
    ("decay", dict(method="rope", dim=64, width=10)),
    ("demo nope", dict()),
]


@pytest.mark.parametrize("view,kwargs", FIGURE_BAD, ids=["dim", "unknown", "view", "width", "demo"])
def test_figure_bad_option_is_the_command_lines_value_error(view, kwargs, tmp_path):
    args = []
    for k, v in kwargs.items():
        args += ["--" + k.replace("_", "-"), str(v)]
    p, out = cli_figure(view, tmp_path, *args)
    assert p.returncode == 2 and not out.exists()
    with pytest.raises(ValueError) as e:
        poslab.figure(view, **kwargs)
    assert str(e.value) == p.stderr.strip()[len("poslab: error: "):]


def test_figure_arguments_are_checked():
    for view in (None, 3, "", "  "):
        with pytest.raises(ValueError, match="^invalid view"):
            poslab.figure(view)
    with pytest.raises(ValueError, match="^invalid output"):
        poslab.figure("heatmap", output=3)
    with pytest.raises(ValueError, match="^invalid option output"):
        poslab.figure("heatmap", o="x.png")


def test_figure_takes_qk_arrays(qk_rows, tmp_path):
    q, k = qk_rows
    # Files named as the arrays are labelled (the figure names its rows' source: "q (array), k (array)").
    with open(tmp_path / "q (array)", "wb") as f:
        np.save(f, q[0])
    with open(tmp_path / "k (array)", "wb") as f:
        np.save(f, k[0])
    p, out = cli_figure("heatmap", tmp_path, "--method", "rope", "--q", str(tmp_path / "q (array)"), "--k",
                        str(tmp_path / "k (array)"), "--width", "300", "--height", "300")
    assert p.returncode == 0, p.stderr
    # The same pixels (the embedded scene names the files' paths, which differ): the IDAT chunks.
    png = poslab.figure("heatmap", method="rope", q=q[0], k=k[0], width=300, height=300)
    assert png_chunks(png, b"IDAT") == png_chunks(out.read_bytes(), b"IDAT")
    assert png_chunks(png, b"IDAT") != png_chunks(poslab.figure("heatmap", method="rope", width=300, height=300), b"IDAT")


def png_chunks(png, kind):
    at, found = 8, b""
    while at < len(png):
        n = int.from_bytes(png[at:at + 4], "big")
        if png[at + 4:at + 8] == kind:
            found += png[at + 8:at + 8 + n]
        at += 12 + n
    return found
