"""Everything C10K Lab asks of the Docker engine, in one place (the only module importing docker).

The Docker SDK blocks; the runner is its own process and calls it from plain threads.
"""

import contextlib
import io
import platform
import socket
import tarfile
from collections.abc import Iterator
from typing import Literal, TypedDict, Unpack, cast

import docker
from docker.errors import APIError, DockerException, ImageNotFound, NotFound
from docker.models.containers import Container

from c10klab.hosts.store import DockerState
from c10klab.runner.measure import DockerStats
from c10klab.runner.plan import (
    DEPLOYMENT_LABEL,
    LABEL,
    VARIANT_REPOSITORY,
    ContainerOptions,
    ContainerSpec,
)

EngineError = DockerException


class HostFacts(TypedDict):
    """What the engine says of its machine: a result's provenance records it."""

    docker_version: str | None
    kernel: str
    cpus: int | None
    cgroup_version: str | None


class Engine:
    def __init__(self) -> None:
        self.client = docker.from_env(timeout=30)

    # --- health --------------------------------------------------------------------------------

    @staticmethod
    def probe() -> DockerState:
        """Whether an engine answers, and its version; never raises."""
        try:
            client = docker.from_env(timeout=5)
            version = client.version().get("Version")
            client.close()
            return DockerState(reachable=True, version=version, error=None)
        except DockerException as exc:
            return DockerState(reachable=False, version=None, error=str(exc).splitlines()[0])

    def images_present(self, tags: list[str]) -> dict[str, bool]:
        present = {}
        for tag in tags:
            try:
                self.client.images.get(tag)
                present[tag] = True
            except ImageNotFound:
                present[tag] = False
        return present

    def host_name(self) -> str:
        """The machine the engine runs on. Runners in containers (the compose stack) each
        have a host name of their own, their container's; the engine's is the one they share,
        which is what tells that they share CPUs."""
        name = self.client.info().get("Name")
        return str(name) if name else socket.gethostname()

    def host_facts(self) -> HostFacts:
        info = self.client.info()
        return HostFacts(
            docker_version=self.client.version().get("Version"),
            kernel=info.get("KernelVersion") or platform.release(),
            cpus=info.get("NCPU"),
            cgroup_version=info.get("CgroupVersion"),
        )

    def image_id(self, tag: str) -> str | None:
        try:
            return str(self.client.images.get(tag).id)
        except ImageNotFound:
            return None

    # --- containers ----------------------------------------------------------------------------

    def start(self, spec: ContainerSpec, **joined: Unpack[ContainerOptions]) -> Container:
        """Start `spec`'s container, with `joined`'s options too (the namespaces of a container
        it joins); detached: the runner follows it, it never waits in here."""
        options = spec.kwargs | joined
        container: Container = self.client.containers.run(
            spec.image, spec.command, detach=True, **options
        )
        return container

    @staticmethod
    def is_running(container: Container) -> tuple[bool, int | None]:
        """(running?, exit code if it has exited)."""
        try:
            container.reload()
        except NotFound:
            return False, None
        state = container.attrs.get("State", {})
        return bool(state.get("Running")), state.get("ExitCode")

    @staticmethod
    def oom_killed(container: Container) -> bool:
        """Whether the memory limit's killer ended it (read after is_running's reload)."""
        return bool(container.attrs.get("State", {}).get("OOMKilled"))

    @staticmethod
    def output_chunks(container: Container) -> Iterator[bytes]:
        """Everything it writes, stdout and stderr, as it comes, until it ends."""
        chunks: Iterator[bytes] = container.logs(stream=True, follow=True)
        return chunks

    @staticmethod
    def stdout_chunks(container: Container) -> Iterator[bytes]:
        chunks: Iterator[bytes] = container.logs(
            stream=True, follow=True, stdout=True, stderr=False
        )
        return chunks

    @staticmethod
    def log_tail(container: Container, lines: int | Literal["all"] = 20) -> list[str]:
        try:
            raw: bytes = container.logs(stdout=True, stderr=True, tail=lines)
        except (NotFound, APIError):
            return []
        return raw.decode(errors="replace").splitlines()

    @staticmethod
    def output(container: Container) -> tuple[str, str]:
        """A finished container's whole stdout and stderr (its log driver caps them)."""
        try:
            out: bytes = container.logs(stdout=True, stderr=False)
            err: bytes = container.logs(stdout=False, stderr=True)
        except (NotFound, APIError):
            return "", ""
        return out.decode(errors="replace"), err.decode(errors="replace")

    @staticmethod
    def remove(container: Container) -> None:
        with contextlib.suppress(NotFound, APIError):
            container.remove(force=True)

    # --- learners' edited servers --------------------------------------------------------------

    def build_variant_image(
        self, tag: str, base: str, files: dict[str, bytes], deployment: str
    ) -> None:
        """Image `tag`: `base` with `files` (path: executable) added or replaced (the edited
        server, compiled in the build sandbox), labelled with the `deployment` that built
        it. Built from an in-memory context, with no network; nothing of the learner's runs
        here."""
        named = {f"file{i}": (path, data) for i, (path, data) in enumerate(files.items())}
        copies = "".join(f"COPY {name} {path}\n" for name, (path, _) in named.items())
        dockerfile = f"FROM {base}\n{copies}".encode()
        context = io.BytesIO()
        with tarfile.open(fileobj=context, mode="w") as tar:
            entries = [("Dockerfile", dockerfile)]
            entries += [(name, data) for name, (_, data) in named.items()]
            for name, data in entries:
                info = tarfile.TarInfo(name)
                info.size, info.mode = len(data), 0o755
                tar.addfile(info, io.BytesIO(data))
        context.seek(0)
        self.client.images.build(
            fileobj=context,
            custom_context=True,
            tag=tag,
            rm=True,
            forcerm=True,
            pull=False,
            network_mode="none",
            labels={"c10klab.variant": "1", DEPLOYMENT_LABEL: deployment},
        )

    def prune_variant_images(self, keep: int, deployment: str) -> int:
        """Remove all but the `keep` newest variant images this `deployment` built (another
        course on the same engine keeps its own); returns how many went."""
        images = self.client.images.list(
            name=VARIANT_REPOSITORY, filters={"label": f"{DEPLOYMENT_LABEL}={deployment}"}
        )
        images.sort(key=lambda image: str(image.attrs.get("Created", "")), reverse=True)
        for image in images[keep:]:
            with contextlib.suppress(NotFound, APIError):
                self.client.images.remove(str(image.id), force=True)
        return max(0, len(images) - keep)

    @staticmethod
    def stats(container: Container) -> Iterator[DockerStats]:
        """Docker's stats stream, one sample a second. Its JSON is taken for what DockerStats
        names without a check: measure reads every field as one that may be missing."""
        stream = container.stats(stream=True, decode=True)
        assert not isinstance(stream, dict)  # stream=True always answers with a generator
        return cast(Iterator[DockerStats], stream)

    @staticmethod
    def wait(container: Container, timeout_s: float) -> int | None:
        try:
            return int(container.wait(timeout=timeout_s)["StatusCode"])
        except Exception:  # a timeout surfaces as a requests exception, whichever kind
            return None

    @staticmethod
    def stop(container: Container, timeout_s: int) -> int | None:
        """SIGTERM, then SIGKILL after `timeout_s`; returns the exit code."""
        try:
            container.stop(timeout=timeout_s)
            return int(container.wait(timeout=timeout_s + 5)["StatusCode"])
        except (NotFound, APIError):
            return None

    @staticmethod
    def interrupt(container: Container, signal: str = "SIGINT") -> None:
        """SIGINT: what makes perf print its counts and exit; or another signal to one of our
        watchers (the profiler's SIGUSR1: recording on)."""
        with contextlib.suppress(NotFound, APIError):
            container.kill(signal=signal)

    @staticmethod
    def kill(container: Container) -> None:
        with contextlib.suppress(NotFound, APIError):  # already gone: that is what we wanted
            container.kill()

    def reap(self, store: str, run_id: str | None = None) -> int:
        """Remove every container the runs of `store` made (or one run's); returns how many."""
        labels = [f"{LABEL}={store}"] + ([f"c10klab.run={run_id}"] if run_id else [])
        # sparse: listed, not inspected one by one; a full list inspects each container and
        # fails outright when one is removed in between (a run ending, another reap).
        containers = self.client.containers.list(all=True, filters={"label": labels}, sparse=True)
        for container in containers:
            with contextlib.suppress(NotFound):
                container.remove(force=True)
        return len(containers)
