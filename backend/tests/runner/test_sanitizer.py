"""A sanitizer's report read down to one sentence: what went wrong, where, and from which line
of the learner's file. The reports are the sanitized build's own (c-epoll reading a
connection its reset had freed, and an overflow UBSan stops)."""

from c10klab.runner.sanitizer import REPORT_LINES, finding

EDITED = "/work/src/epoll.c"

USE_AFTER_FREE = """\
listening on port 9000
==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x60b000003160 at pc 0x5600df072146
READ of size 1 at 0x60b000003160 thread T0
    #0 0x5600df072145 in loop_wants_to_read /opt/c10klab/servers/c/readiness.c:146
    #1 0x5600df07230d in loop_read /opt/c10klab/servers/c/readiness.c:207
    #2 0x5600df07138c in handle_readable /work/src/epoll.c:125
    #3 0x5600df07138c in handle_client_event /work/src/epoll.c:142
    #4 0x7f4b6cd1e249  (/lib/x86_64-linux-gnu/libc.so.6+0x27249)

0x60b000003160 is located 80 bytes inside of 104-byte region [0x60b000003110,0x60b000003178)
freed by thread T0 here:
    #0 0x5600df027fb8 in __interceptor_free.part.0 (/usr/local/bin/c-epoll.sanitized+0xa4fb8)
    #1 0x5600df076295 in conn_free /opt/c10klab/servers/c/protocol.c:98
    #2 0x5600df07138c in handle_readable /work/src/epoll.c:119
""".splitlines()


def test_a_use_after_free_in_a_shared_module_names_the_learners_line_that_called_it() -> None:
    found = finding(USE_AFTER_FREE, EDITED)
    assert found is not None
    assert found.sentence == (
        "AddressSanitizer found a heap-use-after-free in loop_wants_to_read (readiness.c:146), "
        "called from handle_readable (epoll.c:125)"
    )
    assert found.report[0].endswith(
        "ERROR: AddressSanitizer: heap-use-after-free on address "
        "0x60b000003160 at pc 0x5600df072146"
    )
    assert len(found.report) <= REPORT_LINES


def test_a_bad_access_in_the_learners_own_file_is_named_once() -> None:
    own = [line.replace("/opt/c10klab/servers/c/readiness.c", EDITED) for line in USE_AFTER_FREE]
    found = finding(own, EDITED)
    assert found is not None
    assert found.sentence.endswith("in loop_wants_to_read (epoll.c:146)")


def test_undefined_behaviour_is_named_with_its_line() -> None:
    lines = [
        "listening on port 9000",
        "/work/src/epoll.c:130:17: runtime error: signed integer overflow: "
        "2147483647 + 1 cannot be represented in type 'int'",
        "    #0 0x55 in handle_readable /work/src/epoll.c:130",
    ]
    found = finding(lines, EDITED)
    assert found is not None
    assert found.sentence == (
        "UBSan found undefined behaviour at epoll.c:130: signed integer overflow: "
        "2147483647 + 1 cannot be represented in type 'int'"
    )


def test_a_server_that_only_failed_has_no_finding() -> None:
    assert finding(["listening on port 9000", "accept() failed: EMFILE"], EDITED) is None
