"""What the content code reads in a lesson's Markdown besides its prose."""

import re

# A fenced block: its language, then its text (frontend/scripts/render-diagrams.mjs reads the same).
FENCE = re.compile(r"^```([A-Za-z0-9_-]*)[^\n]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)


def fenced_spans(markdown: str) -> list[tuple[int, int]]:
    """Where the fenced blocks are: prose is everything else."""
    return [(m.start(), m.end()) for m in FENCE.finditer(markdown)]


def in_spans(position: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in spans)
