"""The lessons' "Check yourself" questions, for a class: numbered from 1 in the order their
answers (`<details><summary>…</summary>…</details>`) come in the section, the same in every
language; and the lesson's text as a class reads it, each answer marked for the page to ask
for the students' own (`<div class="class-question" data-question="N">`) and left out until the
instructor reveals it, so no student can open it early.
"""

import re

from c10klab.content.schemas import Language

# The section's heading in each language (content/README.md: "Check yourself").
HEADINGS: dict[Language, str] = {"en": "Check yourself", "zh": "自测"}
ANSWER = re.compile(r"<details><summary>[^<]*</summary>.*?</details>", re.DOTALL)
NEXT_SECTION = re.compile(r"^## ", re.MULTILINE)


def _section(markdown: str, language: Language) -> tuple[int, int] | None:
    """Where the lesson's Check yourself section is: from its heading to the next one."""
    heading = re.search(rf"^## {re.escape(HEADINGS[language])}[ \t]*$", markdown, re.MULTILINE)
    if heading is None:
        return None
    after = NEXT_SECTION.search(markdown, heading.end())
    return heading.end(), after.start() if after else len(markdown)


def question_count(markdown: str, language: Language) -> int:
    """How many questions the lesson's Check yourself section asks (answers it gives)."""
    where = _section(markdown, language)
    return len(ANSWER.findall(markdown, *where)) if where else 0


def marker(question: int) -> str:
    return f'<div class="class-question" data-question="{question}"></div>'


def for_class(markdown: str, language: Language, shown: frozenset[int] | None) -> str:
    """The lesson as a class reads it: before each answer of Check yourself, the place for the
    students' answers; the answer itself only if its number is `shown` (None: all of them, the
    instructor's copy). Indented as the answer was, so it stays inside its list item."""
    where = _section(markdown, language)
    if where is None:
        return markdown
    start, end = where
    section = markdown[start:end]
    numbered = iter(range(1, 1000))

    def mark(found: re.Match[str]) -> str:
        number = next(numbered)
        line_start = section.rfind("\n", 0, found.start()) + 1
        indent = section[line_start : found.start()]
        if shown is not None and number not in shown:
            return marker(number)
        return f"{marker(number)}\n\n{indent}{found.group(0)}"

    return markdown[:start] + ANSWER.sub(mark, section) + markdown[end:]
