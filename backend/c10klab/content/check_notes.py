"""The content checker's part for what the course shows outside its lessons.

A learner reads more than lessons. The lab shows each server's catalog texts beside every run
(its title, each knob's label and help, the notes on its limits: GET /api/catalog sends them),
and GET /api/sources serves the files lessons quote, each opening with a comment that says what
the file shows. No figure reference resolves there, so a figure measured once and typed into
them cannot follow its recording: it goes stale, and nothing says so (a poll() cost per idle
connection "on the course machine" that later recordings contradicted is how this rule came to
be). So, in those texts:

- no figure looks measured (a number with µs, ms, KiB, MiB, %, requests/s, "× faster" ...)
  unless it is one of the course's settings in GIVEN: a figure the course sets, listed with the
  file under sandboxes/ and the name (a #define, a constant) that sets it, which the checker
  finds there, so a setting that is gone from its file cannot keep its figure allowed;
- a sentence that says it was measured ("measured here", "on the course machine") holds no
  number at all.

What was measured belongs in a lesson, as a reference to its recording (content/figures.py).
"""

import json
import re
from dataclasses import dataclass
from pathlib import Path

from c10klab.sandboxes.service import load_catalog, quotable_sources


@dataclass(frozen=True)
class Setting:
    """A figure the course sets, and where: `name` must appear in `path` (under sandboxes/)."""

    figure: str
    path: str
    name: str
    what: str


GIVEN = (
    Setting("256 KiB", "servers/c/readiness.h", "OUTPUT_HIGH_WATER_BYTES",
            "replies queued for a client before the server stops reading from it"),
    Setting("16 KiB", "servers/c/runtime.h", "DEFAULT_BUFFER_BYTES",
            "the default --buffer-bytes"),
    Setting("16 MiB", "servers/c/protocol.h", "MAX_BODY_BYTES",
            "the largest --body-bytes; also the io_uring servers' default buffers x 16 KiB"),
    Setting("1 GiB", "servers/c/io-uring.c", "MAX_BUFFER_RING_BYTES",
            "the most receive-buffer memory the io_uring server accepts"),
    Setting("8 MiB", "servers/c/threaded.c", "DEFAULT_STACK_KIB",
            "the default --stack-kib, glibc's default thread stack"),
    Setting("8 KiB", "servers/c/protocol.h", "HTTP_MAX_HEAD_BYTES",
            "the longest HTTP request head the servers accept"),
    Setting("100 ms", "servers/c/io-uring.c", "SQ_THREAD_IDLE_MS",
            "how long the SQPOLL thread waits for work before it sleeps"),
    Setting("100 µs", "servers/c/io-uring.c", "WAIT_USEC",
            "the longest the io_uring loop waits for more completions"),
    Setting("1 ns", "loadgen/src/pacing.rs", "PR_SET_TIMERSLACK, 1",
            "the timer slack each load generator worker asks for"),
)  # fmt: skip

_DIGITS = r"\d[\d,]*(?:\.\d+)?"
# A number, or a range of two (`0.14-0.23 us`, `30–80 µs`): a range is reported whole.
_NUMBER = rf"(?<![\w.,]){_DIGITS}(?:\s?[-–]\s?{_DIGITS})?"
_RATE = r"(?:requests?|req|round\s+trips?|replies|responses|connections)"
_MORE = r"(?:faster|slower|more|fewer|less|as|bigger|smaller)\b"
# A figure with a unit measurements come in, as the catalog and code comments write them
# (`us` for µs, `x` for ×). `19000 x 16 KiB` is a product, not a ratio: an `x` followed by a
# number is not a unit.
MEASURED = re.compile(
    _NUMBER + r"(?:\s|\u00a0|\u202f)?k?\s*(?:"
    r"(?:µs|us|ns|ms)\b|(?:KiB|MiB|GiB|kB|KB|MB|GB)\b|%|per\s?cent\b"
    rf"|{_RATE}/s\b|{_RATE}\s+(?:per|a|each)\s+second\b"
    r"|(?:system\s+)?calls?\s+per\s+(?:request|round\s+trip|reply)\b"
    r"|switches\s+per\s+(?:request|second|round\s+trip)\b"
    rf"|[×x]\s*{_MORE}|×(?!\s*\d)|x(?=[\s,.;:)]|$)(?!\s*\d)"
    rf"|times\s+{_MORE})"
)
# Words that say a figure was measured, not set.
MEASURED_WORDS = re.compile(
    r"\bmeasured\b|\bon (?:the|this) (?:(?:course|lab)(?:'s)? )?machine\b", re.IGNORECASE
)
# A sentence, or the part of a comment between two semicolons: up to a `.`, `;`, `!` or `?`
# that ends a word (the point of `0.23` does not).
SENTENCE = re.compile(r"(?:[^.;!?]|[.;!?](?=\S))+")


def normal_figure(text: str) -> str:
    """A figure as GIVEN lists it: digits without separators, one space, `µs` and `×`."""
    number = re.match(_NUMBER, text)
    if number is None:
        return " ".join(text.split())
    unit = " ".join(text[number.end() :].split())
    unit = {"us": "µs", "x": "×", "percent": "%", "per cent": "%"}.get(unit, unit)
    return f"{number.group(0).replace(',', '')} {unit}".strip()


ALLOWED = {normal_figure(s.figure) for s in GIVEN}


def unset_figures(text: str) -> list[tuple[int, str]]:
    """Where `text` holds a figure that looks measured and is not one of the course's
    settings, or a number in a sentence that says it was measured: (offset, why)."""
    found = [
        (m.start(), f"“{' '.join(m.group(0).split())}” looks measured")
        for m in MEASURED.finditer(text)
        if normal_figure(m.group(0)) not in ALLOWED
    ]
    for sentence in SENTENCE.finditer(text):
        words = MEASURED_WORDS.search(sentence.group(0))
        if words and re.search(r"\d", sentence.group(0)):
            where = sentence.start() + words.start()
            found.append((where, f"“{words.group(0)}” says a figure here was measured"))
    return sorted(found)


ADVICE = (
    "a measured figure cannot follow its recording here: say it in a lesson, as a reference "
    "to the recording (content/figures.py), and leave the number out here; a figure the course "
    "sets goes in GIVEN (content/check_notes.py) with the file and name that set it"
)


def catalog_texts(sandboxes_dir: Path) -> list[tuple[str, str, str]]:
    """Every text the catalog shows a learner: (its server, where, text), e.g.
    (`c-poll`, `notes[1]`, "Every poll() call ...")."""
    texts = []
    for server in load_catalog(sandboxes_dir).servers:
        texts.append((server.id, "title", server.title))
        for knob in server.knobs:
            texts.append((server.id, f"knob {knob.name} label", knob.label))
            texts.append((server.id, f"knob {knob.name} help", knob.help))
        texts += [(server.id, f"notes[{i}]", n) for i, n in enumerate(server.limits.notes)]
    return texts


def catalog_problems(sandboxes_dir: Path) -> list[str]:
    """Each figure of the catalog's texts that looks measured, at its line of catalog.json."""
    raw = (sandboxes_dir / "catalog.json").read_text()
    problems = []
    for server, where, text in catalog_texts(sandboxes_dir):
        entry = max(raw.find(json.dumps(server)), 0)
        at = raw.find(json.dumps(text, ensure_ascii=False), entry)
        line = raw.count("\n", 0, at) + 1 if at >= 0 else 1
        problems += [
            f"catalog.json:{line}: {server} {where}: {why}; {ADVICE}"
            for _, why in unset_figures(text)
        ]
    return problems


def header_comment(text: str, suffix: str) -> str:
    """The comment a source file opens with, blank where the code starts (lines kept): a C
    file's first block comment, the leading `//` (and `//!`) lines of a Rust file, the
    leading `#` lines of a shell or Python file."""
    if suffix in (".c", ".h"):
        start = len(text) - len(text.lstrip())
        if not text.startswith("/*", start):
            return ""
        end = text.find("*/", start)
        return text[: len(text) if end < 0 else end + 2]
    marker = "//" if suffix == ".rs" else "#"
    lines = []
    for line in text.splitlines(keepends=True):
        if line.strip() and not line.lstrip().startswith(marker):
            break
        lines.append(line)
    return "".join(lines)


def header_problems(sandboxes_dir: Path) -> list[str]:
    """Each figure that looks measured in the opening comment of a file GET /api/sources
    serves, at its line."""
    problems = []
    for rel in sorted(quotable_sources(sandboxes_dir)):
        path = sandboxes_dir / rel
        header = header_comment(path.read_text(errors="replace"), path.suffix)
        problems += [
            f"{rel}:{header.count(chr(10), 0, at) + 1}: its opening comment: {why}; {ADVICE}"
            for at, why in unset_figures(header)
        ]
    return problems


def given_problems(sandboxes_dir: Path) -> list[str]:
    """Each setting of GIVEN whose name is no longer in its file: its figure is allowed only
    while the course still sets it."""
    problems = []
    for setting in GIVEN:
        path = sandboxes_dir / setting.path
        if not path.is_file() or setting.name not in path.read_text(errors="replace"):
            problems.append(
                f"content/check_notes.py: GIVEN allows “{setting.figure}” as {setting.name} "
                f"in {setting.path}, which no longer sets it: correct or remove the entry"
            )
    return problems


def shown_text_problems(sandboxes_dir: Path) -> list[str]:
    """Every problem of the texts the course shows outside its lessons."""
    return (
        given_problems(sandboxes_dir)
        + catalog_problems(sandboxes_dir)
        + header_problems(sandboxes_dir)
    )
