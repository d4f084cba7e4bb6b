"""A headless Chromium (Debian's ``chromium``) driven through the DevTools protocol.

Enough of the protocol for the tests to open a page, press keys, touch, read the page
back with JavaScript and list every request the page made; spoken over the browser's own
WebSocket with aiohttp (a dependency of discord.py already), so nothing new is installed.
The browser is kept off every network but the loopback its DevTools listen on.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

# No sync, no component updates, no QUIC, no background fetches: a test browser that
# asks the network for nothing of its own.
QUIET = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-default-browser-check",
    "--mute-audio",
    "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,Translate,MediaRouter",
    # Whatever is still asked for resolves nowhere (the DevTools socket is the browser's own).
    "--host-resolver-rules=MAP * ~NOTFOUND",
)


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class Tab:
    """One page of the browser, attached with a session of its own."""

    socket: aiohttp.ClientWebSocketResponse
    session: str
    events: list[dict[str, Any]] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _waiting: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = answer
        message = {"id": number, "method": method, "params": params, "sessionId": self.session}
        await self.socket.send_str(json.dumps(message))
        result = await asyncio.wait_for(answer, 60)
        if "error" in result:
            raise RuntimeError(f"{method}: {result['error']}")
        return dict(result.get("result", {}))

    def received(self, message: dict[str, Any]) -> None:
        number = message.get("id")
        if number is not None and number in self._waiting:
            self._waiting.pop(number).set_result(message)
        elif "method" in message:
            self.events.append(message)

    async def evaluate(self, expression: str) -> Any:
        result = await self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            await self.send(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                code=key,
                windowsVirtualKeyCode=code,
                nativeVirtualKeyCode=code,
            )

    async def swipe(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        steps = [start, ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2), end]
        await self.send("Input.dispatchTouchEvent", type="touchStart", touchPoints=[point(start)])
        for step in steps[1:]:
            await self.send("Input.dispatchTouchEvent", type="touchMove", touchPoints=[point(step)])
        await self.send("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    async def wait_for(self, method: str, timeout: float = 60) -> dict[str, Any]:
        """The first event ``method`` received (now or within ``timeout`` seconds)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            for event in self.events:
                if event["method"] == method:
                    return event
            await asyncio.sleep(0.05)
        raise TimeoutError(method)

    def requests(self) -> list[str]:
        """Every URL the page asked for, as the browser's network layer saw them."""
        return [
            e["params"]["request"]["url"]
            for e in self.events
            if e["method"] == "Network.requestWillBeSent"
        ]


def point(at: tuple[int, int]) -> dict[str, int]:
    return {"x": at[0], "y": at[1]}


@contextlib.asynccontextmanager
async def browser(net_log: Path | None = None) -> AsyncIterator[Tab]:
    """A fresh headless Chromium with one blank tab; closed (and its net log written) after."""
    binary = chromium()
    if binary is None:
        raise RuntimeError("chromium is not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        args = [binary, *QUIET, f"--user-data-dir={profile}", "--remote-debugging-port=0"]
        if net_log is not None:
            args.append(f"--log-net-log={net_log}")
        process = subprocess.Popen(
            [*args, "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            port_file = Path(profile) / "DevToolsActivePort"
            for _ in range(600):
                if port_file.exists() and len(port_file.read_text().splitlines()) >= 2:
                    break
                if process.poll() is not None:
                    raise RuntimeError(f"chromium exited with {process.returncode}")
                await asyncio.sleep(0.1)
            port, path = port_file.read_text().splitlines()[:2]
            async with (
                aiohttp.ClientSession() as http,
                http.ws_connect(f"ws://127.0.0.1:{port}{path}", max_msg_size=0) as socket,
            ):
                tab = Tab(socket, session="")
                reader = asyncio.create_task(_read(socket, tab))
                try:
                    target = await tab.send("Target.createTarget", url="about:blank")
                    attached = await tab.send(
                        "Target.attachToTarget", targetId=target["targetId"], flatten=True
                    )
                    page = Tab(socket, attached["sessionId"], _ids=tab._ids)
                    tab.page = page  # type: ignore[attr-defined]
                    for domain in ("Page", "Runtime", "Network", "Log"):
                        await page.send(f"{domain}.enable")
                    yield page
                    with contextlib.suppress(Exception):
                        await tab.send("Browser.close")
                finally:
                    reader.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await reader
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


async def _read(socket: aiohttp.ClientWebSocketResponse, root: Tab) -> None:
    async for message in socket:
        if message.type != aiohttp.WSMsgType.TEXT:
            continue
        data = json.loads(message.data)
        page: Tab | None = getattr(root, "page", None)
        if page is not None and data.get("sessionId") == page.session:
            page.received(data)
        else:
            root.received(data)


def on_ci() -> bool:
    return bool(os.environ.get("CI"))
