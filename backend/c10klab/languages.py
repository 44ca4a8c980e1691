"""The course's languages: English, in which everything is written first, and its translations,
each in content/<language>/ with the English file names (content/README.md). Lessons, the
glossary and the exercises come in them; several domains name them, so they live apart."""

from pathlib import Path
from typing import Literal

Language = Literal["en", "zh"]


def language_dir(content_dir: Path, language: Language) -> Path:
    """Where a language's files live: English at the top of content/, a translation in its own
    folder (content/zh/)."""
    return content_dir if language == "en" else content_dir / language
