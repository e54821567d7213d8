"""Load a `--format model-explorer` overlay in the real Model Explorer, in headless Chromium.

    pip install 'dumpscope[model-explorer]' websocket-client   # and Debian's chromium
    python bench/model_explorer_browser.py [--keep DIR]

Builds the small ONNX model of tests/fusion_onoff_data.py, dumps it with onnxruntime (golden and
fp16, with one layer broken), writes our overlay, starts Model Explorer's server on loopback
with the ONNX adapter, opens the page in headless Chromium through the DevTools protocol and
prints what the page lists under "Node data": one line per node with our health code.  A
screenshot goes to DIR/model-explorer.png with ``--keep``.  Nothing is asserted (a check, not
a test: it needs a browser); exit 1 when the page never lists our node data.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ME_PORT, DEVTOOLS_PORT = 8093, 9333
NODE_DATA_NAME = "dumpscope health"


def make_overlay(root: Path) -> tuple[Path, Path]:
    """The model, its dumps (relu1 broken in the fp16 run) and our overlay under ``root``."""
    import numpy as np
    import onnx

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from fusion_onoff_data import _model

    from dumpscope.core import dump
    from dumpscope.tui.cli.main import main

    model = root / "m.onnx"
    onnx.save(_model(), model)
    dump(model, root / "g")
    dump(model, root / "t", target="fp16")
    broken = next((root / "t").glob("r1*.npy"))
    np.save(broken, np.load(broken) * 3 + 1)
    main(
        [
            "compare",
            str(root / "g"),
            str(root / "t"),
            "--model",
            str(model),
            "--format",
            "model-explorer",
            "-o",
            str(root / "overlay.json"),
        ]
    )
    return model, root / "overlay.json"


def start_server(model: Path, overlay: Path) -> subprocess.Popen[bytes]:
    """Model Explorer's server on 127.0.0.1 with the ONNX adapter, the model and the overlay."""
    command = [
        sys.executable,
        "-m",
        "model_explorer",
        str(model),
        "--extensions=model_explorer_onnx",
        f"--node_data_paths={overlay}",
        "--no_open_in_browser",
        "--host",
        "127.0.0.1",
        "--port",
        str(ME_PORT),
        "--skip_health_check",
    ]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(f"http://127.0.0.1:{ME_PORT}/check_health")
    return server


def page_url(model: Path, overlay: Path) -> str:
    """The URL the server prints: which model and node data the page loads."""
    data = {"models": [{"url": str(model)}], "nodeData": [str(overlay)], "nodeDataTargets": [""]}
    return f"http://127.0.0.1:{ME_PORT}/?data={urllib.parse.quote(json.dumps(data))}"


def wait_for(url: str, seconds: float = 60) -> bytes:
    """The body of ``url`` once it answers."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return bytes(response.read())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


class Browser:
    """Headless Chromium driven over the DevTools protocol (loopback only)."""

    def __init__(self, profile: Path) -> None:
        import websocket  # websocket-client

        self.process = subprocess.Popen(
            [
                shutil.which("chromium") or "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                f"--user-data-dir={profile}",
                "--enable-unsafe-swiftshader",
                "--use-angle=swiftshader",
                "--window-size=1600,1000",
                "--remote-debugging-address=127.0.0.1",
                f"--remote-debugging-port={DEVTOOLS_PORT}",
                f"--remote-allow-origins=http://127.0.0.1:{DEVTOOLS_PORT}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "HOME": str(profile)},
        )
        tabs = json.loads(wait_for(f"http://127.0.0.1:{DEVTOOLS_PORT}/json"))
        page = next(t for t in tabs if t["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60)
        self.calls = 0

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """One DevTools command; its result (events in between are skipped)."""
        self.calls += 1
        self.socket.send(json.dumps({"id": self.calls, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.calls:
                return dict(message.get("result", message))

    def text(self) -> str:
        result = self.call("Runtime.evaluate", expression="document.body.innerText", returnByValue=True)
        return str(result.get("result", {}).get("value", ""))

    def close(self) -> None:
        self.socket.close()
        self.process.terminate()
        self.process.wait(10)


def node_data_lines(text: str) -> list[str]:
    """The page's "Node data" table rows (``#  Node  value``) after our provider's column."""
    lines = text.splitlines()
    start = max((i for i, line in enumerate(lines) if line.strip() == "Node data"), default=len(lines))
    return [line for line in lines[start:] if line[:1].isdigit() and "\t" in line]


def load_page(browser: Browser, url: str, seconds: int = 120) -> str:
    """Navigate and wait until the graph is processed and our node data is listed."""
    browser.call("Page.enable")
    browser.call("Page.navigate", url=url)
    text = ""
    for _ in range(seconds):
        time.sleep(1)
        text = browser.text()
        if NODE_DATA_NAME in text and node_data_lines(text):
            break
    return text


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--keep", type=Path, help="write the files and model-explorer.png here (else a temp dir)"
    )
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="dumpscope-me-"))
    root.mkdir(parents=True, exist_ok=True)
    model, overlay = make_overlay(root)
    server = start_server(model, overlay)
    browser = Browser(root / "chromium-profile")
    try:
        text = load_page(browser, page_url(model, overlay))
        rows = node_data_lines(text)
        print("\n".join(["Model Explorer lists (# / node / dumpscope health):", *rows]))
        shot = browser.call("Page.captureScreenshot", format="png")
        (root / "model-explorer.png").write_bytes(base64.b64decode(shot["data"]))
        print(f"screenshot: {root / 'model-explorer.png'}")
    finally:
        browser.close()
        server.terminate()
        server.wait(10)
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
