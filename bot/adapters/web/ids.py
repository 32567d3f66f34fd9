"""Ids in the pages' addresses: read in one place, so an id no row can have is a 404 on every
route, never a number the store fails on (bot.domain.records.row_id)."""

from __future__ import annotations

from aiohttp import web

from bot.domain.records import row_id


def id_in(request: web.Request, name: str) -> int:
    """The id the address holds as `name`; 404 when it is not one a row may have."""
    found = row_id(request.match_info[name])
    if found is None:
        raise web.HTTPNotFound()
    return found
