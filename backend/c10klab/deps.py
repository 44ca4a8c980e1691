"""Typed dependencies shared by the routers."""

from typing import Annotated

from fastapi import Depends, Request

from c10klab.config import Settings
from c10klab.store import Store


def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


SettingsDep = Annotated[Settings, Depends(get_app_settings)]
StoreDep = Annotated[Store, Depends(get_store)]
