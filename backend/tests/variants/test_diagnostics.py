"""The build's stderr, as the build sandbox prints it, read into diagnostics on their lines."""

import json

from c10klab.results.schemas import Diagnostic
from c10klab.runner.builds import describe_errors, parse_diagnostics


def said(found: list[Diagnostic]) -> list[dict[str, object]]:
    """The diagnostics as the API sends them, without the fields they lack."""
    return [d.model_dump(exclude_none=True) for d in found]


def gcc_array(*items: dict[str, object]) -> str:
    return json.dumps(list(items))


def at(line: int, column: int, file: str = "/work/src/epoll.c") -> dict[str, object]:
    return {"line": line, "column": column, "file": file, "byte-column": column}


def test_errors_in_the_edited_file_keep_their_line_column_and_range() -> None:
    stderr = "\n".join(
        [
            gcc_array(
                {
                    "kind": "error",
                    "message": "expected ';' before '}' token",
                    "locations": [{"caret": at(69, 97), "finish": at(69, 99)}],
                    "children": [
                        {
                            "kind": "note",
                            "message": "to match this '('",
                            "locations": [{"caret": at(68, 5)}],
                        }
                    ],
                },
                {
                    "kind": "error",
                    "message": "unused variable 'ev'",
                    "option": "-Werror=unused-variable",
                    "locations": [{"caret": at(68, 24)}],
                },
            ),
            "[]",
            "[]",
            "make: *** [Makefile:51: /work/build/c-epoll] Error 1",
        ]
    )
    found = parse_diagnostics(stderr, "epoll.c")
    assert said(found) == [
        {
            "severity": "error",
            "message": "expected ';' before '}' token",
            "line": 69,
            "column": 97,
            "end_line": 69,
            "end_column": 99,
        },
        {"severity": "note", "message": "to match this '('", "line": 68, "column": 5},
        {
            "severity": "error",
            "message": "unused variable 'ev'",
            "option": "-Werror=unused-variable",
            "line": 68,
            "column": 24,
        },
    ]
    assert describe_errors(found, "epoll.c") == (
        "epoll.c did not compile (2 errors); the first, line 69: expected ';' before '}' token"
    )


def test_a_message_about_a_shared_module_names_that_file_instead_of_a_line() -> None:
    stderr = gcc_array(
        {
            "kind": "warning",
            "message": "declared here",
            "locations": [{"caret": at(120, 6, "/opt/c10klab/servers/c/readiness.h")}],
        }
    )
    assert said(parse_diagnostics(stderr, "epoll.c")) == [
        {"severity": "warning", "message": "declared here", "file": "servers/c/readiness.h:120"}
    ]


def test_the_linkers_plain_lines_are_errors_without_a_line() -> None:
    stderr = "\n".join(
        [
            "[]",
            "/usr/bin/ld: /work/tmp/ccX.o: in function `main':",
            "/work/src/epoll.c:(.text+0x1a): undefined reference to `serve_forever'",
            "collect2: error: ld returned 1 exit status",
            "make: *** [Makefile:51: /work/build/c-epoll] Error 1",
        ]
    )
    found = parse_diagnostics(stderr, "epoll.c")
    assert [d.severity for d in found] == ["error", "error"]
    assert found[1].message == "epoll.c:(.text+0x1a): undefined reference to `serve_forever'"
    assert all(d.line is None for d in found)
    assert describe_errors(found, "epoll.c").startswith("epoll.c did not compile (2 errors)")


def test_a_broken_json_line_is_kept_as_text_rather_than_lost() -> None:
    found = parse_diagnostics('[{"kind": "error", "message": "cut', "epoll")
    assert said(found) == [{"severity": "error", "message": '[{"kind": "error", "message": "cut'}]
    # JSON, but not gcc's: kept as text too
    assert said(parse_diagnostics('[{"kind": 7}]', "epoll")) == [
        {"severity": "error", "message": '[{"kind": 7}]'}
    ]
