"""GET /healthz and GET /metrics on their own port (QUIZHOST_OPS_LISTEN), whatever the platforms:
a load balancer checks /healthz (200 while the worker can store presses and reach its platforms,
503 otherwise; the JSON body names each part's state) and Prometheus scrapes /metrics."""

from __future__ import annotations

import asyncio

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.adapters.ops.metrics import Operations


class OpsServer:
    def __init__(self, ops: Operations, host: str, port: int) -> None:
        self.ops, self.host, self.port = ops, host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._health)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host or None, self.port)
        await site.start()
        if self.port == 0:  # tests ask for any free port: learn which one
            self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def serve(self) -> None:
        """Serve until cancelled."""
        await self.start()
        try:
            await asyncio.Event().wait()
        finally:
            await self.stop()

    async def _health(self, request: web.Request) -> web.Response:
        healthy, parts = await self.ops.health()
        return web.json_response(parts, status=200 if healthy else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=self.ops.metrics(), headers={"Content-Type": CONTENT_TYPE_LATEST})
