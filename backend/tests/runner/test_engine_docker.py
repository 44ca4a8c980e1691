"""What the runner does to a Docker engine other courses may share (real Docker)."""

import contextlib

import docker
import pytest
from docker.errors import ImageNotFound

from c10klab.runner.docker_engine import Engine
from c10klab.runner.plan import VARIANT_REPOSITORY

pytestmark = pytest.mark.docker

BASE = "c10klab/base:bookworm"


def test_pruning_edited_servers_images_leaves_another_deployments_alone() -> None:
    """Issue 23.10: pruning removed every course's variant images on a shared engine."""
    engine = Engine()
    tags = {
        "ours-old": ("aaaaaaaaaaaa", b"1"),
        "ours-new": ("aaaaaaaaaaaa", b"2"),
        "theirs": ("bbbbbbbbbbbb", b"3"),
    }
    names = {name: f"{VARIANT_REPOSITORY}:prune-test-{name}" for name in tags}
    try:
        for name, (deployment, binary) in tags.items():  # oldest first
            engine.build_variant_image(names[name], BASE, {"/usr/local/bin/x": binary}, deployment)
        assert engine.prune_variant_images(1, "aaaaaaaaaaaa") == 1
        client = docker.from_env()
        with pytest.raises(ImageNotFound):
            client.images.get(names["ours-old"])
        client.images.get(names["ours-new"])  # the newest of ours is kept
        client.images.get(names["theirs"])  # and nothing of theirs is touched
    finally:
        client = docker.from_env()
        for tag in names.values():
            with contextlib.suppress(ImageNotFound):
                client.images.remove(tag, force=True)
