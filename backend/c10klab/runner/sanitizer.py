"""What a sanitized build said when it stopped a learner's server: AddressSanitizer's or
UBSan's report, dozens of lines ending in a map of shadow memory, read down to one sentence
(what went wrong, where, and from which line of the learner's file) and the lines worth
showing beside it."""

import re
from dataclasses import dataclass

# "==7==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020... at pc ..."
_ASAN_ERROR = re.compile(r"ERROR: AddressSanitizer: ([\w-]+)")
# "/work/src/epoll.c:123:9: runtime error: signed integer overflow: ..."
_UBSAN_ERROR = re.compile(r"(\S+?):(\d+):\d+: runtime error: (.+)")
# "    #1 0x55d0c1 in handle_readable /work/src/epoll.c:125"
_FRAME = re.compile(r"#\d+ 0x[0-9a-f]+ in (\w+) (\S+?):(\d+)")
# Lines of the report kept for the learner: its head holds the error and the stacks.
REPORT_LINES = 30


@dataclass(frozen=True)
class Finding:
    """One sanitizer report: its sentence, and the head of the report."""

    sentence: str
    report: list[str]


def _place(file: str, line: str) -> str:
    return f"{file.rsplit('/', 1)[-1]}:{line}"


def _asan_sentence(kind: str, frames: list[re.Match[str]], edited: str) -> str:
    sentence = f"AddressSanitizer found a {kind}"
    if not frames:
        return sentence
    first = frames[0]
    sentence += f" in {first[1]} ({_place(first[2], first[3])})"
    # Inside a shared module, the learner's line that called it is the one to look at.
    theirs = next((f for f in frames if f[2] == edited), None)
    if theirs is not None and theirs is not first:
        sentence += f", called from {theirs[1]} ({_place(theirs[2], theirs[3])})"
    return sentence


def _first_stack(lines: list[str]) -> list[re.Match[str]]:
    """The frames of the first stack after the error line (where the bad access was made)."""
    frames: list[re.Match[str]] = []
    for line in lines:
        frame = _FRAME.search(line)
        if frame is not None:
            frames.append(frame)
        elif frames:
            break
    return frames


def finding(logs: list[str], edited: str) -> Finding | None:
    """The first sanitizer report in a server's output, if any; `edited` is the path the
    learner's file was compiled from (its frames are named as theirs)."""
    for at, line in enumerate(logs):
        asan = _ASAN_ERROR.search(line)
        if asan is not None:
            sentence = _asan_sentence(asan[1], _first_stack(logs[at + 1 :]), edited)
            return Finding(sentence, logs[at : at + REPORT_LINES])
        ubsan = _UBSAN_ERROR.search(line)
        if ubsan is not None:
            where = _place(ubsan[1], ubsan[2])
            sentence = f"UBSan found undefined behaviour at {where}: {ubsan[3]}"
            return Finding(sentence, logs[at : at + REPORT_LINES])
    return None
