#!/usr/bin/env python3
"""Generates the man page poslab.1 (and poslab.1.gz) and the bash completion `poslab` from the
built program's own help texts, which the command line prints from its option tables (the same
tables that parse the options): nothing here is a copy of an option.

  poslab_docs.py POSLAB OUTDIR      (the build runs it; QT_QPA_PLATFORM=offscreen)

Sources: `poslab --help` (commands, the WHAT list), `poslab compute WHAT --help` for every WHAT,
`poslab figure --help` (its VIEW list) and `poslab figure layers|deck|demo KEY --help`,
`poslab presets --help`, `poslab demos --help`, and `poslab demos` (the demonstration keys).
"""
import gzip
import json
import os
import re
import subprocess
import sys
import unicodedata

ASCII = {"\u21a6": "->", "\u21a4": "<-"}

OPTION = re.compile(r"^  --([A-Za-z0-9][A-Za-z0-9-]*)(?: ([^ ]+))?(?: {2,}(.*))?$")
DETAIL = re.compile(r"^ {34}(default: .*)$")


def run(exe, *args):
    p = subprocess.run([exe] + list(args), capture_output=True, text=True,
                       env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), timeout=60)
    if p.returncode != 0:
        sys.exit("poslab_docs: `poslab %s` failed: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout


def parse_help(text):
    """(usage lines, description, [(name, arg, help, default, valid)]) of a --help text."""
    usage, description, options = [], [], []
    part = "usage"
    for line in text.splitlines():
        if part == "usage":
            if line.startswith("Usage: "):
                usage.append(line[len("Usage: "):])
            elif line.startswith("       ") and usage:
                usage.append(line.strip())
            elif line.strip():
                part = "description"
                description.append(line)
            elif usage:
                part = "description"
            continue
        if line == "Options:":
            part = "options"
            continue
        if part == "description":
            description.append(line)
            continue
        m = OPTION.match(line)
        if m:
            options.append([m.group(1), m.group(2) or "", (m.group(3) or "").strip(), "", ""])
            continue
        d = DETAIL.match(line)
        if d and options:
            detail = d.group(1)[len("default: "):]
            default, _, valid = detail.partition("; valid: ")
            options[-1][3], options[-1][4] = default, valid
    return usage, "\n".join(description).strip(), [tuple(o) for o in options]


def choices(valid):
    """The words of a "one of a, b, c" range, else []."""
    if not valid.startswith("one of "):
        return []
    words = [w.strip() for w in valid[len("one of "):].split(",")]
    return words if all(re.fullmatch(r"[A-Za-z0-9._+-]+", w) for w in words) else []


# ----- roff -----------------------------------------------------------------------------------

def roff(text):
    text = text.replace("\\", "\\e")
    # Non-ASCII characters (−, …, ·, θ) as groff's Unicode escapes: the page reads the same in any locale.
    # (combining marks, as in q̃, are dropped and arrows groff lacks spelled out).
    text = "".join(ASCII.get(c, c) for c in unicodedata.normalize("NFC", text) if not unicodedata.combining(c))
    text = "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)
    out = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def opt(name):
    return "\\fB\\-\\-" + name.replace("-", "\\-") + "\\fR"


def section(title, help_text):
    usage, description, options = parse_help(help_text)
    lines = [".SS \"%s\"" % title]
    for u in usage:
        lines += [".nf", roff(u), ".fi"]
    if description:
        lines += [".PP", roff(description).replace("\n\n", "\n.PP\n")]
    for name, arg, help_, default, valid in options:
        lines += [".TP", opt(name) + (" \\fI" + roff(arg) + "\\fR" if arg else ""), roff(help_)]
        detail = "Default: " + (default or "off") + ("; valid: " + valid if valid else "") + "."
        lines += [".br", roff(detail)]
    return "\n".join(lines)


def man_page(exe, version, data):
    top = data["top"]
    lines = [
        '.TH POSLAB 1 "" "poslab %s" "User Commands"' % version,
        ".SH NAME",
        "poslab \\- positional encodings of transformer language models: window, numbers and figures",
        ".SH SYNOPSIS",
    ]
    for line in top.splitlines():
        if line.startswith("  poslab"):
            lines += [".nf", roff(line.strip().split("   ")[0]), ".fi"]
    lines += [".SH DESCRIPTION",
              "The commands, as \\fBposlab \\-\\-help\\fR prints them:",
              ".PP", ".nf", roff(top.rstrip()), ".fi",
              ".SH OPTIONS"]
    for name in ("session", "help", "version"):
        for line in top.splitlines():
            if "--" + name in line:
                lines += [".TP", opt(name), roff(line.strip())]
                break
    lines += [".SH COMPUTE",
              "\\fBposlab compute WHAT [OPTIONS]\\fR prints one JSON object. Every WHAT and its options:"]
    for what in data["whats"]:
        lines.append(section("poslab compute " + what, data["compute"][what]))
    lines += [".SH FIGURE", "\\fBposlab figure VIEW [OPTIONS] \\-o FILE\\fR renders a view without a window."]
    for view, text in data["figure"].items():
        lines.append(section(("poslab figure " + view).strip(), text))
    lines += [".SH \"PRESETS AND DEMONSTRATIONS\"",
              section("poslab presets", data["presets"]),
              section("poslab demos", data["demos"]),
              ".PP", "Demonstration keys: " + roff(", ".join(data["demo_keys"])) + ".",
              ".SH \"EXIT STATUS\"",
              "0 success; 2 invalid usage or parameter (one line on standard error); 1 other failure (I/O).",
              ".SH PYTHON",
              "\\fBimport poslab\\fR (Debian's python3): every WHAT of \\fBposlab compute\\fR as a function of the "
              "same name, its options as keyword arguments, results as NumPy arrays; \\fBposlab.figure\\fR. "
              "See \\fBhelp(poslab)\\fR.",
              ""]
    return "\n".join(lines)


# ----- bash completion ------------------------------------------------------------------------

def sh_words(words):
    return "'" + " ".join(words).replace("'", "'\\''") + "'"


def completion(data):
    """A bash completion script: the tables as associative arrays, one function."""
    opts, args, chs = {}, {}, {}

    def add(key, help_text):
        _, _, options = parse_help(help_text)
        opts[key] = ["--" + o[0] for o in options] + ["--help"]
        for name, arg, _, _, valid in options:
            if arg:
                args[key + " --" + name] = arg
            c = choices(valid)
            if c:
                chs[key + " --" + name] = c

    for what in data["whats"]:
        add("compute " + what, data["compute"][what])
    for view in data["views"]:
        add("figure " + view, data["figure"].get(view, data["figure"][""]))
    add("figure", data["figure"][""])
    lines = [
        "# bash completion for poslab, generated from `poslab ... --help` (packaging/poslab_docs.py).",
        "declare -gA _poslab_opts=(",
    ]
    lines += ["  [%s]=%s" % (sh_words([k]), sh_words(v)) for k, v in sorted(opts.items())]
    lines += [")", "declare -gA _poslab_args=("]
    lines += ["  [%s]=%s" % (sh_words([k]), sh_words([v])) for k, v in sorted(args.items())]
    lines += [")", "declare -gA _poslab_choices=("]
    lines += ["  [%s]=%s" % (sh_words([k]), sh_words(v)) for k, v in sorted(chs.items())]
    lines += [
        ")",
        "_poslab_commands=%s" % sh_words(["compute", "figure", "presets", "demos", "--session", "--help", "--version"]),
        "_poslab_whats=%s" % sh_words(data["whats"]),
        "_poslab_views=%s" % sh_words(data["views"] + ["--batch", "--help"]),
        "_poslab_demo_keys=%s" % sh_words(data["demo_keys"]),
        r'''
_poslab() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd=${COMP_WORDS[1]} key="" first=3
    COMPREPLY=()
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$_poslab_commands" -- "$cur"))
        return
    fi
    case $cmd in
        --session) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -f -- "$cur")); return ;;
        presets|demos) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "--help" -- "$cur")); return ;;
        compute)
            if [[ $COMP_CWORD -eq 2 ]]; then COMPREPLY=($(compgen -W "$_poslab_whats" -- "$cur")); return; fi
            key="compute ${COMP_WORDS[2]}" ;;
        figure)
            if [[ $COMP_CWORD -eq 2 ]]; then COMPREPLY=($(compgen -W "$_poslab_views" -- "$cur")); return; fi
            key="figure ${COMP_WORDS[2]}"
            [[ -z ${_poslab_opts[$key]+x} ]] && key="figure" ;;
        *) return ;;
    esac
    if [[ ${COMP_WORDS[2]} == demo ]]; then
        if [[ $COMP_CWORD -eq 3 ]]; then COMPREPLY=($(compgen -W "$_poslab_demo_keys" -- "$cur")); return; fi
        first=4
    fi
    if [[ $COMP_CWORD -gt $((first - 1)) && $prev == --* && -n ${_poslab_args["$key $prev"]+x} ]]; then
        if [[ -n ${_poslab_choices["$key $prev"]+x} ]]; then
            COMPREPLY=($(compgen -W "${_poslab_choices["$key $prev"]}" -- "$cur"))
        elif [[ ${_poslab_args["$key $prev"]} == FILE || $prev == --output || $prev == --batch ]]; then
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        return
    fi
    COMPREPLY=($(compgen -W "${_poslab_opts[$key]}" -- "$cur"))
}
complete -o default -F _poslab poslab
''',
    ]
    return "\n".join(lines)


def collect(exe):
    top = run(exe, "--help")
    m = re.search(r"^WHAT: (.*)$", top, re.M)
    whats = [w.strip() for w in m.group(1).split(",")]
    compute = {w: run(exe, "compute", w, "--help") for w in whats}
    figure_help = run(exe, "figure", "--help")
    vm = re.search(r"VIEW: one of (.*?)\(all =", figure_help, re.S)
    views = []
    for v in re.split(r",\s*", vm.group(1).strip().rstrip(".")):
        v = v.split(" ")[0].strip()
        if v and v not in views:
            views.append(v)
    demo_keys = [d["key"] for d in json.loads(run(exe, "demos"))["demos"]]
    figure = {"": figure_help}
    for view in ("layers", "deck"):
        figure[view] = run(exe, "figure", view, "--help")
    figure["demo"] = run(exe, "figure", "demo", demo_keys[0], "--help")
    return dict(top=top, whats=whats, compute=compute, figure=figure, views=views, demo_keys=demo_keys,
                presets=run(exe, "presets", "--help"), demos=run(exe, "demos", "--help"),
                version=run(exe, "--version").split()[-1])


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: poslab_docs.py POSLAB OUTDIR")
    exe, out = sys.argv[1], sys.argv[2]
    data = collect(exe)
    os.makedirs(out, exist_ok=True)
    page = man_page(exe, data["version"], data)
    with open(os.path.join(out, "poslab.1"), "w", encoding="utf-8") as f:
        f.write(page)
    with open(os.path.join(out, "poslab.1.gz"), "wb") as f:   # reproducible: no name, no time
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9, mtime=0) as g:
            g.write(page.encode("utf-8"))
    os.makedirs(os.path.join(out, "completions"), exist_ok=True)
    with open(os.path.join(out, "completions", "poslab"), "w", encoding="utf-8") as f:
        f.write(completion(data))


if __name__ == "__main__":
    main()
