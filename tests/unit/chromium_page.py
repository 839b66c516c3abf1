# SPDX-License-Identifier: LGPL-2.1-or-later
"""A page in a real headless Chromium (Debian's ``chromium``), driven by the Chrome DevTools
protocol over --remote-debugging-pipe: JSON messages ending in NUL on file descriptors 3
(commands) and 4 (answers and events). No websocket client is needed, nothing is fetched.

Keys are typed and the mouse clicks through Input.dispatch*Event, as a user's would; every
uncaught exception (Runtime.exceptionThrown), console.error (Runtime.consoleAPICalled) and
browser log error (Log.entryAdded) is collected in ``errors``.
"""

import json
import os
import shutil
import subprocess
import tempfile
import time

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
FLAGS = (
    "--headless",
    "--no-sandbox",  # root in a container has no user namespaces
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-pipe",
)


class Page:
    def __init__(self, url: str, width: int = 1000, height: int = 800, timeout: float = 30.0):
        self.timeout, self.errors, self._id, self._buffer = timeout, [], 0, b""
        self._profile = tempfile.mkdtemp(prefix="cadbench-chromium-")
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()

        def on_fds_3_and_4():
            # Copies first: a pipe's own descriptor may already be 3 or 4.
            commands, answers = os.dup(commands_read), os.dup(answers_write)
            os.dup2(commands, 3)
            os.dup2(answers, 4)

        self._process = subprocess.Popen(
            [
                CHROMIUM,
                *FLAGS,
                f"--user-data-dir={self._profile}",
                f"--window-size={width},{height}",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # The descriptors must be 3 and 4 in the child: dup2 there, and keep them open
            # (close_fds would close them after preexec_fn; os.pipe's own are not inherited).
            close_fds=False,
            preexec_fn=on_fds_3_and_4,  # only dup2 between fork and exec
        )
        os.close(commands_read)
        os.close(answers_write)
        target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
        attached = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})
        self._session = attached["sessionId"]
        for domain in ("Runtime", "Log", "Page"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False,
        })  # fmt: skip
        self.call("Page.navigate", {"url": url})
        self._wait_for("Page.loadEventFired")

    # -- the protocol ---------------------------------------------------------------------
    def _send(self, method: str, params: dict, session: str | None) -> int:
        self._id += 1
        message = {"id": self._id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        return self._id

    def _next(self) -> dict:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message = json.loads(raw)
        self._note(message)
        return message

    def _note(self, message: dict) -> None:
        method, params = message.get("method"), message.get("params") or {}
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = (details.get("exception") or {}).get("description") or details.get("text")
            self.errors.append(f"exception: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.errors.append("console.error: " + " ".join(
                str(a.get("value", a.get("description"))) for a in params.get("args", [])
            ))  # fmt: skip
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            self.errors.append(f"log: {params['entry']['text']}")

    def _call(self, method: str, params: dict | None = None, session: str | None = None):
        wanted = self._send(method, params or {}, session)
        while True:
            message = self._next()
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def _wait_for(self, event: str) -> None:
        while self._next().get("method") != event:
            pass

    def call(self, method: str, params: dict | None = None):
        return self._call(method, params, self._session)

    # -- what a user does -------------------------------------------------------------------
    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (JSON-serialisable)."""
        answer = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in answer:
            raise RuntimeError(answer["exceptionDetails"])
        return answer["result"].get("value")

    def click(self, selector: str) -> None:
        """A left click in the middle of the first element the CSS selector finds."""
        box = self.evaluate(
            f"(function () {{ var e = document.querySelector({json.dumps(selector)});"
            "e.scrollIntoView({block: 'center', inline: 'center'});"
            "var r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];"
            "})()"
        )
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            event = {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1}
            self.call("Input.dispatchMouseEvent", event)

    def type_text(self, selector: str, text: str) -> None:
        """Focus the element, then one key press per character."""
        self.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
        for char in text:
            self.call("Input.dispatchKeyEvent", {"type": "keyDown", "text": char, "key": char})
            self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": char})

    def close(self) -> None:
        try:
            self._call("Browser.close")
        except (RuntimeError, OSError, TimeoutError):
            pass
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for fd in (self._commands, self._answers):
            os.close(fd)
        shutil.rmtree(self._profile, ignore_errors=True)
