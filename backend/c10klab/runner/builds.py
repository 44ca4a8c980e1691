"""A learner's edited server, before it may be measured: compiled in the build sandbox into an
image of its own (kept, by the source's digest, for the next run of the same file), then
checked by the load generator for correct answers in both protocols.

Everything here fails with a reason a learner can act on: the compiler's diagnostics placed
on their lines, the limit the build hit, or the check that failed and what came back.
"""

import base64
import binascii
import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from docker.models.containers import Container
from pydantic import TypeAdapter

# pydantic checks gcc's JSON against these, and on Python 3.11 only typing_extensions' kind.
from typing_extensions import TypedDict

from c10klab.config import Settings
from c10klab.results.schemas import BuildOutcome, CheckFailure, CheckOutcome, Diagnostic
from c10klab.run_request import Knobs, Protocol
from c10klab.runner import sanitizer
from c10klab.runner.docker_engine import Engine, EngineError
from c10klab.runner.lines import CheckLine, parse_line
from c10klab.runner.plan import (
    BUILD_IMAGE,
    BUILD_LIMITS,
    VARIANT_REPOSITORY,
    build_spec,
    check_plan,
    deployment_label,
    edited_file,
    model_of,
    sanitized,
)
from c10klab.sandboxes.schemas import Server
from c10klab.variants.store import Variant

# Variant images kept on one engine, newest first; older ones are removed (a later run of one
# builds it again from the stored source).
KEEP_VARIANT_IMAGES = 100
SANDBOX_SOURCE_DIR = "/work/src/"
SANDBOX_SHARED_DIR = "/opt/c10klab/"
# gcc's driver, when a compiler pass dies of a signal (the memory limit's SIGKILL, SIGXCPU).
KILLED_COMPILER = "signal terminated program"
OOM_EXIT = 137  # SIGKILL: the memory limit's killer, or ours at the wall clock
CPU_LIMIT_EXIT = 128 + 24  # SIGXCPU: RLIMIT_CPU ran out


# What a learner's server may write to stdout and stderr while it is checked: a server that
# logs every request, or one that writes without end, is stopped there and told so.
OUTPUT_CAP_BYTES = 1024 * 1024
# Lines of a server's output shown with a failed check (a sanitizer's report: its head).
LOG_LINES = 20


class OutputCap:
    """Counts what a container writes, and kills it once that passes `cap` bytes."""

    def __init__(self, container: Container, cap: int = OUTPUT_CAP_BYTES) -> None:
        self.container, self.cap = container, cap
        self.written = 0
        self.exceeded = threading.Event()
        threading.Thread(target=self.count, daemon=True, name="output-cap").start()

    def count(self) -> None:
        try:
            for chunk in Engine.output_chunks(self.container):
                self.written += len(chunk)
                if self.written > self.cap:
                    self.exceeded.set()
                    Engine.kill(self.container)
                    return
        except EngineError:
            return  # the container went: nothing more to count


class VariantFailed(Exception):
    """Why a variant cannot be measured; the compiler's `diagnostics` or the failed `check`
    go into the `failed` event."""

    def __init__(
        self,
        reason: str,
        logs: list[str] | None = None,
        *,
        diagnostics: list[Diagnostic] | None = None,
        check: CheckOutcome | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason, self.logs = reason, logs or []
        self.diagnostics, self.check = diagnostics, check


# --- the compiler's messages -------------------------------------------------------------------


class GccPoint(TypedDict, total=False):
    file: str
    line: int
    column: int


class GccLocation(TypedDict, total=False):
    caret: GccPoint
    finish: GccPoint


class GccDiagnostic(TypedDict, total=False):
    """One of gcc's JSON diagnostics (-fdiagnostics-format=json), as far as it is read."""

    kind: str
    message: str
    option: str
    locations: list[GccLocation]
    children: list["GccDiagnostic"]


# A line of gcc's JSON is checked as it is read: one that is not this is kept as plain text.
_GCC_LINE: TypeAdapter[list[GccDiagnostic]] = TypeAdapter(list[GccDiagnostic])


def _json_diagnostic(item: GccDiagnostic, edited: str) -> list[Diagnostic]:
    """One of gcc's JSON diagnostics, and its notes (`children`), as ours."""
    kind = item.get("kind", "error")
    severity: Literal["error", "warning", "note"] = (
        "error" if "error" in kind else "warning" if kind == "warning" else "note"
    )
    out = Diagnostic(
        severity=severity, message=item.get("message", ""), option=item.get("option") or None
    )
    locations = item.get("locations") or []
    if locations:
        where = locations[0]
        caret, finish = where.get("caret", GccPoint()), where.get("finish")
        file = caret.get("file", "")
        if file == edited:
            out.line, out.column = caret.get("line"), caret.get("column")
            if finish is not None:
                out.end_line, out.end_column = finish.get("line"), finish.get("column")
        else:
            out.file = f"{file.removeprefix(SANDBOX_SHARED_DIR)}:{caret.get('line')}"
    found = [out]
    for child in item.get("children") or []:
        found += _json_diagnostic(child, edited)
    return found


def parse_diagnostics(stderr: str, file: str) -> list[Diagnostic]:
    """The build's stderr (gcc's JSON, one array per translation unit, among make's and the
    linker's plain lines) as diagnostics; `file` is the edited file's name (epoll.c). make's
    own "*** Error" lines repeat what the compiler said and are dropped; anything else said
    in plain text (the linker's undefined references, the build script's limits) is an error
    with no line."""
    edited = f"{SANDBOX_SOURCE_DIR}{file}"
    found: list[Diagnostic] = []
    for line in stderr.splitlines():
        text = line.strip()
        if not text or text.startswith("make:") or text.startswith("make["):
            continue
        if text.startswith("["):
            try:
                for item in _GCC_LINE.validate_json(text):
                    found += _json_diagnostic(item, edited)
                continue
            except ValueError:  # not JSON, or not gcc's (pydantic's ValidationError is one)
                pass
        if text.startswith("collect2:"):
            continue  # "ld returned 1 exit status": the linker's lines above say why
        found.append(Diagnostic(severity="error", message=text.replace(edited, file)))
    return found


@dataclass(frozen=True)
class Binaries:
    """What one build makes: the server measured, and the sanitized one checked."""

    plain: bytes
    sanitized: bytes


def built_binaries(stdout: str) -> Binaries:
    """build-variant.sh's stdout: two lines, each a binary in base64."""
    try:
        plain, checked = (base64.b64decode(line, validate=True) for line in stdout.split())
    except (binascii.Error, ValueError) as exc:  # not base64, or not two of them
        raise VariantFailed("the build sandbox sent back no usable binaries") from exc
    return Binaries(plain=plain, sanitized=checked)


def describe_errors(diagnostics: list[Diagnostic], file: str) -> str:
    errors = [d for d in diagnostics if d.severity == "error"]
    if not errors:
        return f"{file} did not compile"
    first = errors[0]
    where = f"line {first.line}: " if first.line else ""
    count = f"{len(errors)} error{'s' if len(errors) != 1 else ''}"
    return f"{file} did not compile ({count}); the first, {where}{first.message}"


# --- building ---------------------------------------------------------------------------------


def variant_tag(variant: Variant, server_image_id: str, builder_id: str) -> str:
    """The image tag of one build: the source, and the images it was built from and into,
    so a rebuilt server image or build sandbox makes a new build."""
    key = f"{variant.source_sha256} {variant.server} {variant.file} {server_image_id} {builder_id}"
    return f"{VARIANT_REPOSITORY}:{hashlib.sha256(key.encode()).hexdigest()[:24]}"


@dataclass
class VariantBuilds:
    """Builds and checks for one runner; `say` tells the run being served how a step went
    (its `build` and `check` events)."""

    engine: Engine
    settings: Settings

    def tag_for(self, variant: Variant, server: Server) -> str:
        server_image = self.engine.image_id(server.image)
        builder = self.engine.image_id(BUILD_IMAGE)
        if server_image is None or builder is None:
            missing = server.image if server_image is None else BUILD_IMAGE
            raise VariantFailed(f"this runner lacks the image {missing}: run make images")
        return variant_tag(variant, server_image, builder)

    def build(
        self,
        run_id: str,
        variant: Variant,
        server: Server,
        tag: str,
        say: Callable[[BuildOutcome], None],
    ) -> BuildOutcome:
        """Compile the variant into image `tag`, unless this engine has it already; says and
        returns how it went (a `build` event's data)."""
        if self.engine.image_id(tag) is not None:
            cached = BuildOutcome(status="cached", seconds=None, diagnostics=[])
            say(cached)
            return cached
        model, file = model_of(server), edited_file(server, variant.file)
        started = time.monotonic()
        spec = build_spec(run_id, model, file, variant.source, self.settings)
        try:
            container = self.engine.start(spec)
        except EngineError as exc:
            raise VariantFailed(f"the build sandbox did not start: {exc}") from exc
        code = Engine.wait(container, BUILD_LIMITS.wall_s)
        if code is None:
            Engine.kill(container)
            raise VariantFailed(
                f"the compile did not finish within {BUILD_LIMITS.wall_s:g} s and was stopped "
                "(an #include of a file that never ends?)"
            )
        seconds = round(time.monotonic() - started, 2)
        stdout, stderr = self.engine.output(container)
        Engine.remove(container)
        diagnostics = parse_diagnostics(stderr, file)
        if code == CPU_LIMIT_EXIT:
            raise VariantFailed(
                f"the compile used up its {BUILD_LIMITS.cpu_s} s of CPU time and was stopped",
                diagnostics=diagnostics,
            )
        if code == OOM_EXIT:
            raise VariantFailed(
                f"the compile ran out of memory (the build sandbox has {BUILD_LIMITS.memory}B)",
                diagnostics=diagnostics,
            )
        if any(KILLED_COMPILER in d.message for d in diagnostics):
            raise VariantFailed(
                f"the compiler was stopped at the build sandbox's limits ({BUILD_LIMITS.memory}B "
                f"of memory, {BUILD_LIMITS.cpu_s} s of CPU time): does the file #include "
                "something endless, or build something huge?",
                diagnostics=diagnostics,
            )
        if code != 0:
            raise VariantFailed(describe_errors(diagnostics, file), diagnostics=diagnostics)
        binaries = built_binaries(stdout)
        deployment = deployment_label(self.settings)
        path = server.command[0]
        files = {path: binaries.plain, sanitized(path): binaries.sanitized}
        self.engine.build_variant_image(tag, server.image, files, deployment)
        self.engine.prune_variant_images(KEEP_VARIANT_IMAGES, deployment)
        compiled = BuildOutcome(status="compiled", seconds=seconds, diagnostics=diagnostics)
        say(compiled)
        return compiled

    # --- checking ------------------------------------------------------------------------------

    def check(
        self,
        run_id: str,
        server: Server,
        tag: str,
        say: Callable[[CheckOutcome], None],
        knobs: Knobs | None = None,
        file: str | None = None,
    ) -> list[CheckOutcome]:
        """The load generator's correctness check in every protocol the server speaks, the
        server run with `knobs`; the first failure ends it. `file`: the variant's edited
        shared module, if it is not the model file (a sanitizer's report names its lines)."""
        outcomes = []
        for protocol in server.protocols:
            outcome = self.check_protocol(run_id, server, tag, protocol, knobs, file)
            say(outcome)
            outcomes.append(outcome)
        return outcomes

    def check_protocol(
        self,
        run_id: str,
        server: Server,
        tag: str,
        protocol: Protocol,
        knobs: Knobs | None,
        file: str | None = None,
    ) -> CheckOutcome:
        plan = check_plan(run_id, server, tag, protocol, self.settings, knobs)
        try:
            served = self.engine.start(plan.server)
        except EngineError as exc:
            raise VariantFailed(f"your server's container did not start: {exc}") from exc
        cap = OutputCap(served)
        try:
            checker = self.engine.start(plan.loadgen, network_mode=f"container:{served.id}")
        except EngineError as exc:
            running, code = Engine.is_running(served)
            logs = Engine.log_tail(served)
            self.stop_for_limits(served, cap)
            Engine.remove(served)
            if not running:
                raise VariantFailed(
                    f"your server exited with code {code} before the check started", logs
                ) from exc
            raise VariantFailed(f"the check did not start: {exc}") from exc
        code = Engine.wait(checker, plan.deadline_s)
        report = last_check_line(self.engine.output(checker)[0])
        running, server_exit = Engine.is_running(served)
        found, logs = None, []
        if report is None or not report.ok:  # what the server said matters only then
            logs = Engine.log_tail(served, "all")
            found = sanitizer.finding(logs, f"{SANDBOX_SOURCE_DIR}{edited_file(server, file)}")
            logs = found.report if found is not None else logs[-LOG_LINES:]
        for container in (checker, served):
            Engine.kill(container)
        self.stop_for_limits(served, cap)
        for container in (checker, served):
            Engine.remove(container)
        if code is None:
            raise VariantFailed(
                f"the {protocol} check did not finish within {plan.deadline_s:g} s", logs
            )
        if report is None:
            raise VariantFailed(f"the {protocol} check ended (code {code}) without a report", logs)
        outcome = CheckOutcome(
            protocol=protocol, ok=report.ok, passed=report.passed, failed=report.failed
        )
        if not outcome.ok:
            failed = report.failed or CheckFailure(check="?", message="no detail")
            ended = "" if running else f" (your server had exited with code {server_exit})"
            why = "" if found is None else f"; {found.sentence}"
            raise VariantFailed(
                f"the correctness check failed ({protocol}): {failed.check}: "
                f"{failed.message}{ended}{why}",
                logs,
                check=outcome,
            )
        return outcome

    def stop_for_limits(self, served: Container, cap: OutputCap) -> None:
        """Fail with the limit the server hit, if it was one: its output or its memory."""
        if cap.exceeded.is_set():
            Engine.remove(served)
            raise VariantFailed(
                f"your server wrote more than {OUTPUT_CAP_BYTES // 1024} KiB to its output and "
                "was stopped: log less (only errors, not every request)"
            )
        if Engine.oom_killed(served):
            Engine.remove(served)
            raise VariantFailed(
                f"your server went over its memory limit ({self.settings.server_memory_mb} MiB) "
                "and was killed"
            )


def last_check_line(stdout: str) -> CheckLine | None:
    """loadgen --check's report: its last line of type `check`."""
    for text in reversed(stdout.splitlines()):
        line = parse_line(text)
        if isinstance(line, CheckLine):
            return line
    return None
