from typing import Annotated

from fastapi import APIRouter, Query

from c10klab.api.deps import SettingsDep
from c10klab.sandboxes.schemas import Server, SourceExcerpt
from c10klab.sandboxes.service import load_catalog, read_excerpt

router = APIRouter(tags=["sandboxes"])


@router.get("/servers")
def list_servers(settings: SettingsDep) -> list[Server]:
    return load_catalog(settings.sandboxes_dir).servers


@router.get("/sources/{path:path}")
def get_source(
    path: str,
    settings: SettingsDep,
    anchor: Annotated[
        str | None, Query(description="the lines between ANCHOR: NAME and ANCHOR_END: NAME")
    ] = None,
    lines: Annotated[str | None, Query(description="a line range such as 10-40")] = None,
) -> SourceExcerpt:
    """An excerpt of a file lessons quote (the catalog's sources, the servers' shared protocol
    modules, and code files with ANCHOR: markers; see sandboxes.service), up to 256 KiB.
    A plain `def` on purpose: FastAPI runs it in a worker thread, off the event loop."""
    return read_excerpt(settings.sandboxes_dir, path, anchor, lines)
