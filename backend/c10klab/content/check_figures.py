"""The content checker's part for figures: a lesson's measured figures come from its recordings.

Three rules (content/figures.py says how a reference is written):
- every experiment block has an `id` (the name references use), unique in its lesson, and no
  two blocks of a lesson ask for the same run;
- every `{{ reference }}` resolves against the lesson's recordings;
- no figure in the prose looks measured (a number with requests/s, µs, ms, KiB, MiB, %,
  "calls per request", "×" ...) unless it is a reference, `given(...)`, or the text of a link
  to the outside source it is quoted from. Code, fenced blocks and link texts are not prose;
  speaker notes are, and so are the answers of Check yourself.
"""

import re

from c10klab.content.experiments import block_fields
from c10klab.content.figures import Recording, find_references
from c10klab.content.markdown import FENCE
from c10klab.content.schemas import ExperimentRef, Language

BLOCK_ID = re.compile(r"^[a-z][a-z0-9_]{0,39}$")

_NUMBER = r"(?<![\w.,])\d[\d,]*(?:\.\d+)?"
_UNIT = (
    r"(?:\s|\u00a0|\u202f)?k?\s*(?:"
    r"requests?/s\b|req/s\b|(?:requests?|round\s+trips?|replies|responses)\s+(?:per|a|each)\s+second"
    r"|(?:system\s+)?calls?\s+per\s+(?:request|round\s+trip|reply)"
    r"|switches\s+per\s+(?:request|second|round\s+trip)"
    r"|µs\b|ns\b|ms\b|KiB\b|MiB\b|GiB\b|kB\b|MB\b|GB\b|%|per\s?cent\b"
    r"|×|times\s+(?:faster|slower|more|fewer|less|as))"
)
# A figure with a unit that measurements are given in (English prose).
MEASURED_EN = re.compile(_NUMBER + _UNIT)
# A number in Chinese prose: Chinese puts no space before a number, and a Han character is a
# word character to `re`, so only a Latin letter, digit, `_`, `.` or `,` before it makes it part
# of something else.
_NUMBER_ZH = r"(?<![0-9A-Za-z_.,])\d[\d,]*(?:\.\d+)?"
# The same in Chinese prose: the units (and their Chinese names), %, 倍, 请求/秒, calls or
# switches per request, or 每秒 N 个/次.
MEASURED_ZH = re.compile(
    _NUMBER_ZH + r"\s*(?:µs|ns|ms|KiB|MiB|GiB|kB|MB|GB|%|×|倍|微秒|毫秒|纳秒"
    r"|次?请求/秒|次系统调用|次调用|次上下文切换|次切换)"
    r"|每秒\s*" + _NUMBER_ZH + r"\s*(?:个|次)"
)
REFERENCE_OR_CODE = re.compile(r"\{\{.*?\}\}|`[^`\n]*`|<!--.*?-->", re.DOTALL)
QUOTED_LINK = re.compile(r"\[([^\]]*)\]\((https?://[^)\s]+)\)")


def _blank(match: re.Match[str]) -> str:
    """The match's text replaced by spaces, its newlines kept: positions and lines stay."""
    return re.sub(r"[^\n]", " ", match.group(0))


def prose_only(markdown: str) -> str:
    """The Markdown with fenced blocks, references, code spans, comments and the texts of
    links to outside sources blanked out."""
    text = FENCE.sub(_blank, markdown)
    text = REFERENCE_OR_CODE.sub(_blank, text)
    return QUOTED_LINK.sub(_blank, text)


def _line(markdown: str, position: int) -> int:
    return markdown.count("\n", 0, position) + 1


def unmarked_figures(markdown: str, language: Language) -> list[tuple[int, str]]:
    """Figures that look measured and are neither references nor quoted with their link."""
    pattern = MEASURED_ZH if language == "zh" else MEASURED_EN
    prose = prose_only(markdown)
    return [
        (
            _line(markdown, m.start()),
            f"“{' '.join(m.group(0).split())}” looks measured: write it as a reference to the "
            "recording it comes from ({{ id.field }}, see content/figures.py), as the text of "
            'a link to the source it is quoted from, or as {{ given("...") }} when the course '
            "sets it",
        )
        for m in pattern.finditer(prose)
    ]


def reference_problems(
    markdown: str, recordings: dict[str, Recording], language: Language
) -> list[tuple[int, str]]:
    """Each reference that does not resolve, with why."""
    return [
        (_line(markdown, ref.start), f"figure {{{{ {ref.expression} }}}}: {ref.error}")
        for ref in find_references(markdown, recordings, language)
        if ref.error
    ]


def block_id_problems(
    blocks: list[tuple[int, str]], experiments: list[ExperimentRef], offset: int = 0
) -> list[tuple[int, str]]:
    """Every experiment block (its line and text) has a well-formed `id`, unique in the
    lesson, and asks for a run no other block of the lesson asks for. `offset` turns a block's
    line into the file's, for the messages that name another block."""
    problems = []
    seen_ids: dict[str, int] = {}
    seen_keys: dict[str, int] = {}
    for (line, body), experiment in zip(blocks, experiments, strict=True):
        try:
            value = block_fields(body).get("id")
        except ValueError:
            continue  # the block's own check says why it does not parse
        if value is None:
            problems.append((line, "needs an `id:` (lower case, digits, _): figures name it"))
        elif not isinstance(value, str) or not BLOCK_ID.match(value):
            problems.append((line, f"`id: {value}` is not lower case letters, digits and _"))
        elif value in seen_ids:
            other = seen_ids[value] + offset
            problems.append((line, f"`id: {value}` is also the block at line {other}"))
        else:
            seen_ids[value] = line
        if experiment.error is None:
            if experiment.key in seen_keys:
                other = seen_keys[experiment.key] + offset
                problems.append((line, f"asks for the same run as the block at line {other}"))
            seen_keys.setdefault(experiment.key, line)
    return problems
