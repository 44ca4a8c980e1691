from fastapi import APIRouter

from c10klab.deps import SettingsDep
from c10klab.sandboxes.schemas import Server, SourceExcerpt
from c10klab.sandboxes.service import load_catalog, read_excerpt

router = APIRouter(tags=["sandboxes"])


@router.get("/servers")
def list_servers(settings: SettingsDep) -> list[Server]:
    return load_catalog(settings.sandboxes_dir).servers


@router.get("/sources/{path:path}")
def get_source(
    path: str, settings: SettingsDep, anchor: str | None = None, lines: str | None = None
) -> SourceExcerpt:
    return read_excerpt(settings.sandboxes_dir, path, anchor, lines)
