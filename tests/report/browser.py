"""Open a page in headless Chromium and watch it through the Chrome DevTools protocol (a
websocket; the `websockets` package's synchronous client): console errors, uncaught exceptions
and browser log errors are collected, and JavaScript expressions can be evaluated in the page."""
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request

from websockets.sync.client import connect

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)
# software WebGL (SwiftShader) so that the plotly 3D scene starts without a GPU
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader",
         "--use-angle=swiftshader", "--no-first-run", "--no-default-browser-check",
         "--window-size=1280,900", "--remote-debugging-port=0")


class Page:
    """``with Page(url) as page``: page.errors (list of str), page.evaluate(js)."""

    def __init__(self, url, timeout=120.0):
        self.url, self.timeout, self.errors, self._id = url, timeout, [], 0

    def __enter__(self):
        # chromium's helper processes can still write into the profile while it is removed
        self._profile = tempfile.TemporaryDirectory(ignore_cleanup_errors=True)
        self._proc = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={self._profile.name}", "about:blank"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.monotonic() + self.timeout
        while port is None and time.monotonic() < deadline:
            line = self._proc.stderr.readline()
            if "DevTools listening on ws://" in line:
                port = int(line.split("ws://")[1].split("/")[0].rsplit(":", 1)[1])
            elif not line and self._proc.poll() is not None:
                raise RuntimeError("chromium exited before its DevTools endpoint opened")
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30))
        ws_url = next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")
        self._connection = connect(ws_url, max_size=None, open_timeout=30)
        self._ws = self._connection.__enter__()
        for method in ("Runtime.enable", "Log.enable", "Page.enable"):
            self._call(method)
        self._call("Page.navigate", url=self.url)
        self._wait_event("Page.loadEventFired")
        return self

    def __exit__(self, *exc):
        try:
            self._connection.__exit__(None, None, None)
        finally:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
            self._profile.cleanup()

    def _note(self, msg):
        method, p = msg.get("method"), msg.get("params", {})
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            self.errors.append("console: " + " ".join(str(a.get("value", a.get("description", "")))
                                                      for a in p.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            self.errors.append("exception: " + str(d.get("exception", {}).get("description", d.get("text"))))
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            e = p["entry"]
            self.errors.append(f"log ({e.get('source')}): {e.get('text')} {e.get('url', '')}")

    def _recv(self, until):
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            msg = json.loads(self._ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            self._note(msg)
            if until(msg):
                return msg
        raise TimeoutError(f"no answer from the page within {self.timeout} s")

    def _call(self, method, **params):
        self._id += 1
        k = self._id
        self._ws.send(json.dumps({"id": k, "method": method, "params": params}))
        msg = self._recv(lambda m: m.get("id") == k)
        if "error" in msg:
            raise RuntimeError(f"{method}: {msg['error']}")
        return msg.get("result", {})

    def _wait_event(self, name):
        return self._recv(lambda m: m.get("method") == name)

    def evaluate(self, expression, await_promise=False):
        """The JSON value of a JavaScript expression evaluated in the page."""
        r = self._call("Runtime.evaluate", expression=expression, returnByValue=True,
                       awaitPromise=await_promise)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression[:60]}...: {r['exceptionDetails'].get('text')}")
        return r["result"].get("value")

    def wait_for(self, expression, timeout=None):
        """Poll ``expression`` until it is truthy; return its value (None on timeout)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.2)
        return None
