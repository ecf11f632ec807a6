#!/usr/bin/env python3
"""Language-server benchmark for skill-lsp (and peers), standard library only.

Drives each server binary over stdio (LSP, Content-Length framing) and measures:

1. edit -> diagnostics: open a ~600-line SKILL.md, send N didChange edits one at a
   time (typing in the body; every 10th edit toggles an unquoted `: ` in the
   description so findings appear and disappear) and time each edit from writing
   the didChange to reading the publishDiagnostics whose `version` equals the
   edit's version (the next publish for the uri if the server sends no version).
   Edits are incremental or full-text according to the server's advertised
   textDocumentSync kind.
2. completion: M completion requests at a frontmatter key position.
3. startup (servers that answer `skill/catalog`): spawn -> initialize response,
   spawn -> skill/catalog answer (= index ready) on a workspace of many skills,
   and VmRSS / VmHWM of the server right after; then the same edit run on a
   (virtual, unsaved) SKILL.md inside that big workspace.

Also measured: the client/transport floor, as the round trip of a request for an
unknown method (the server answers MethodNotFound without doing any work).

Usage:
  python3 benches/bench_lsp.py [--server skill-lsp=PATH] [--server agnix-lsp=PATH]
                               [--edits 300] [--completions 100] [--runs 1]
                               [--skills-dir /tmp/skill-bench-10000]

Writes bench-out/lsp-results.md (and bench-out/lsp-logs/*.stderr.log).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import queue
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench-out"
LOGS = OUT / "lsp-logs"
WORK = OUT / "lsp-work"
DEFAULT_SKILL_LSP = ROOT / "target" / "release" / "skill-lsp"
DEFAULT_AGNIX_LSP = ROOT / ".bench" / "agnix-lsp" / "bin" / "agnix-lsp"

SKILL_NAME = "pdf-report-builder"


# --------------------------------------------------------------------------- utilities


def now() -> float:
    return time.perf_counter()


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def busy_compilers() -> list[str]:
    """Names of compiler-ish processes running now (noise indicator), from /proc."""
    names = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if comm in ("rustc", "cargo", "cc", "ld", "cc1", "lld", "clang", "gcc", "rust-lld"):
            names.append(comm)
    return sorted(names)


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS / VmHWM of a process in kB."""
    out: dict[str, int] = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


def pct(samples: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), int(-(-p * len(ordered) // 100))))
    return ordered[rank - 1]


def ms(value: float | None, digits: int = 2) -> str:
    if value is None or value != value:  # NaN
        return "n/a"
    return f"{value:.{digits}f}"


def file_uri(path: Path) -> str:
    return path.resolve().as_uri()


# --------------------------------------------------------------------------- LSP client


class LspError(Exception):
    pass


class LspClient:
    """A minimal LSP client over a child's stdio, with a reader thread.

    Responses go to per-id slots; publishDiagnostics go to a queue stamped with the
    perf_counter time at which the whole message had been read; server->client
    requests are answered with null (workspace/configuration: a null per item)."""

    # Address-space cap for the server (bytes; 0 = none) so a runaway server fails alone
    # instead of pushing a shared machine into the OOM killer.
    mem_limit = 0

    def __init__(self, argv: list[str], name: str, log_tag: str):
        LOGS.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.stderr = open(LOGS / f"{name}-{log_tag}.stderr.log", "wb")
        self.t_spawn = now()
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env={**os.environ, "RUST_LOG": os.environ.get("RUST_LOG", "warn")},
            preexec_fn=self._limit if self.mem_limit else None,
        )
        self.pid = self.proc.pid
        self._write_lock = threading.Lock()
        self._next_id = 0
        self._responses: dict[int, tuple[float, dict]] = {}
        self._cond = threading.Condition()
        self.diagnostics: queue.Queue[tuple[float, dict]] = queue.Queue()
        self.server_requests: list[str] = []
        self.progress: list[tuple[float, str, dict]] = []
        self.other_notifications: dict[str, int] = {}
        self.closed = False
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()

    @classmethod
    def _limit(cls) -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cls.mem_limit, cls.mem_limit))

    # -- transport

    def _send(self, message: dict) -> float:
        body = json.dumps(message, separators=(",", ":")).encode()
        data = b"Content-Length: %d\r\n\r\n" % len(body) + body
        with self._write_lock:
            t = now()
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError) as error:
                raise LspError(f"{self.name}: write failed: {error}") from error
        return t

    def _read_loop(self) -> None:
        stream = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = stream.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    key, _, value = line.decode("ascii", "replace").partition(":")
                    if key.lower() == "content-length":
                        length = int(value.strip())
                if length is None:
                    continue
                body = stream.read(length)
                stamp = now()
                if len(body) < length:
                    return
                try:
                    message = json.loads(body)
                except ValueError:
                    continue
                self._dispatch(stamp, message)
        finally:
            self.closed = True
            with self._cond:
                self._cond.notify_all()

    def _dispatch(self, stamp: float, message: dict) -> None:
        method = message.get("method")
        if method is None:
            with self._cond:
                self._responses[message.get("id")] = (stamp, message)
                self._cond.notify_all()
            return
        if "id" in message:  # a server -> client request
            self.server_requests.append(method)
            result = None
            if method == "workspace/configuration":
                items = (message.get("params") or {}).get("items") or []
                result = [None] * len(items)
            try:
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            except LspError:
                pass
            return
        if method == "textDocument/publishDiagnostics":
            self.diagnostics.put((stamp, message.get("params") or {}))
        elif method == "$/progress":
            value = (message.get("params") or {}).get("value") or {}
            with self._cond:
                self.progress.append((stamp, value.get("kind"), value))
                self._cond.notify_all()
        else:
            self.other_notifications[method] = self.other_notifications.get(method, 0) + 1

    # -- API

    def notify(self, method: str, params) -> float:
        return self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_async(self, method: str, params) -> tuple[int, float]:
        self._next_id += 1
        rid = self._next_id
        t = self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid, t

    def wait_response(self, rid: int, timeout: float) -> tuple[float, dict]:
        deadline = now() + timeout
        with self._cond:
            while rid not in self._responses:
                left = deadline - now()
                if left <= 0 or self.closed:
                    raise LspError(
                        f"{self.name}: no response to request {rid} "
                        f"({'server exited' if self.closed else 'timed out'})"
                    )
                self._cond.wait(left)
            return self._responses.pop(rid)

    def request(self, method: str, params, timeout: float = 30.0) -> tuple[float, float, dict]:
        """Returns (sent time, received time, response message)."""
        rid, sent = self.request_async(method, params)
        received, response = self.wait_response(rid, timeout)
        return sent, received, response

    def wait_progress_end(self, timeout: float) -> tuple[float, dict] | None:
        """The first `$/progress` end notification (skill-lsp: indexing done), if any."""
        deadline = now() + timeout
        with self._cond:
            while True:
                for stamp, kind, value in self.progress:
                    if kind == "end":
                        return stamp, value
                left = deadline - now()
                if left <= 0 or self.closed:
                    return None
                self._cond.wait(left)

    def next_diagnostics(self, timeout: float) -> tuple[float, dict]:
        try:
            return self.diagnostics.get(timeout=timeout)
        except queue.Empty:
            raise LspError(f"{self.name}: no publishDiagnostics within {timeout:.1f}s") from None

    def drain_diagnostics(self) -> int:
        count = 0
        while True:
            try:
                self.diagnostics.get_nowait()
                count += 1
            except queue.Empty:
                return count

    def close(self, timeout: float = 5.0) -> None:
        try:
            if self.proc.poll() is None and not self.closed:
                try:
                    self.request("shutdown", None, timeout=timeout)
                except LspError:
                    pass
                try:
                    self.notify("exit", None)
                except LspError:
                    pass
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=timeout)
        finally:
            self.stderr.close()


def client_capabilities() -> dict:
    return {
        "general": {"positionEncodings": ["utf-16"]},
        "workspace": {
            "workspaceFolders": True,
            "configuration": True,
            "didChangeConfiguration": {"dynamicRegistration": True},
            "didChangeWatchedFiles": {"dynamicRegistration": True},
            "applyEdit": True,
            "workspaceEdit": {"documentChanges": True},
        },
        "textDocument": {
            "synchronization": {"dynamicRegistration": True, "didSave": True},
            "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
            "completion": {
                "completionItem": {"snippetSupport": True},
                "contextSupport": True,
            },
            "hover": {"contentFormat": ["markdown", "plaintext"]},
        },
        "window": {"workDoneProgress": True},
    }


def start(argv: list[str], name: str, tag: str, root: Path, timeout: float = 30.0):
    """Spawns a server and initializes it. Returns (client, initialize result, timings)."""
    client = LspClient(argv, name, tag)
    params = {
        "processId": os.getpid(),
        "clientInfo": {"name": "bench_lsp.py"},
        "rootUri": file_uri(root),
        "rootPath": str(root),
        "workspaceFolders": [{"uri": file_uri(root), "name": root.name}],
        "capabilities": client_capabilities(),
        "initializationOptions": {},
    }
    try:
        _, received, response = client.request("initialize", params, timeout=timeout)
    except LspError:
        client.close()
        raise
    if "error" in response:
        client.close()
        raise LspError(f"{name}: initialize failed: {response['error']}")
    client.notify("initialized", {})
    return client, response.get("result") or {}, {"initialize": received - client.t_spawn}


def sync_kind(result: dict) -> int:
    sync = (result.get("capabilities") or {}).get("textDocumentSync")
    if isinstance(sync, int):
        return sync
    if isinstance(sync, dict):
        return int(sync.get("change") or 0)
    return 0


# --------------------------------------------------------------------------- the document


def make_skill(name: str = SKILL_NAME, lines_wanted: int = 600) -> tuple[list[str], dict]:
    """A realistic ~600-line SKILL.md as lines, plus the positions the bench edits."""
    lines = [
        "---",
        f"name: {name}",
        "description: Builds printable PDF reports from CSV, Excel and JSON tables with charts "
        "and a summary page. Use when the user asks for a report, a printable summary or an "
        "export of tabular data to PDF.",
        "license: Apache-2.0",
        "compatibility: Requires Python 3.10+ with reportlab and matplotlib installed.",
        "metadata:",
        '  author: "bench"',
        '  version: "1.4"',
        "---",
        "",
        "# PDF report builder",
        "",
        "This skill turns tabular data into a short, reviewable PDF report. It reads the input, "
        "checks the columns, draws the charts and writes one PDF per request.",
        "",
        "See [the layout guide](references/layout.md) for page sizes and fonts, and "
        "[chart recipes](references/charts.md) for the chart types that are supported.",
        "",
    ]
    topics = [
        ("Quick start", "python"),
        ("Reading the input", "python"),
        ("Checking the columns", "yaml"),
        ("Drawing the charts", "python"),
        ("Page layout", "yaml"),
        ("Writing the PDF", "bash"),
        ("Summaries", "python"),
        ("Troubleshooting", "bash"),
        ("Large inputs", "python"),
        ("Localisation", "yaml"),
        ("Accessibility", "bash"),
        ("Review checklist", "python"),
    ]
    prose = [
        "The script groups the rows by the key columns and keeps the original order of the groups.",
        "Each step writes a short log line so that the user can see what changed and why.",
        "A good report fits on a few pages; move long tables to an appendix instead of shrinking the font.",
        "When a column is missing, stop and ask the user instead of guessing what it should contain.",
        "Charts use the colours from the layout guide and always label both axes with units.",
        "Numbers are right-aligned and rounded to the precision the user asked for, two places by default.",
    ]
    code = {
        "python": [
            "import pandas as pd",
            "from report import build_pdf",
            "",
            "frame = pd.read_csv(path)",
            "summary = frame.groupby(keys).agg({'amount': 'sum'})",
            "build_pdf(summary, out='report.pdf', title=title)",
        ],
        "yaml": [
            "page:",
            "  size: A4",
            "  margin: 18mm",
            "fonts:",
            "  body: Inter",
            "  mono: JetBrains Mono",
        ],
        "bash": [
            "python3 scripts/build_report.py --input data.csv --out report.pdf",
            "python3 scripts/check_columns.py data.csv --require date,amount",
            "pdfinfo report.pdf | grep Pages",
        ],
    }
    section = 0
    while len(lines) < lines_wanted - 2:
        title, lang = topics[section % len(topics)]
        round_ = section // len(topics)
        lines.append(f"## {title}" + (f" ({round_ + 1})" if round_ else ""))
        lines.append("")
        for k in range(3):
            lines.append(prose[(section + k) % len(prose)])
        lines.append("")
        lines.append("Steps:")
        lines.append("")
        for k in range(5):
            lines.append(f"{k + 1}. {prose[(section * 3 + k) % len(prose)]}")
        lines.append("")
        lines.append(f"```{lang}")
        lines.extend(code[lang])
        lines.append("```")
        lines.append("")
        lines.append("- Inputs: CSV, TSV, Excel (`.xlsx`) and JSON arrays of objects.")
        lines.append("- Outputs: one PDF, plus a `summary.md` when the user asks for it.")
        if section % 3 == 0:
            lines.append(
                "- Run [`scripts/build_report.py`](scripts/build_report.py) rather than "
                "rewriting it; see [the spec](https://agentskills.io/specification)."
            )
        lines.append("")
        section += 1
    lines = lines[: lines_wanted - 2]
    lines += ["", "Questions about fonts go to [the layout guide](references/layout.md)."]

    # The line the bench types into: a prose line in the middle of the body.
    middle = len(lines) // 2
    while lines[middle] not in prose:
        middle += 1
    description_line = 2
    colon_at = lines[description_line].index("Use when") + len("Use when")
    positions = {
        "type_line": middle,
        "description_line": description_line,
        "colon_at": colon_at,
        "completion": (3, 0),  # start of the `license:` line: a frontmatter key site
    }
    return lines, positions


def write_workspace(base: Path, lines: list[str]) -> Path:
    """A one-skill workspace: base/skills/<name>/SKILL.md plus the files it links to."""
    if base.exists():
        shutil.rmtree(base)
    skill = base / "skills" / SKILL_NAME
    for relative in ("references/layout.md", "references/charts.md", "scripts/build_report.py",
                     "scripts/check_columns.py"):
        target = skill / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"# {relative}\n")
    path = skill / "SKILL.md"
    path.write_text("\n".join(lines) + "\n")
    return path


class Editor:
    """Keeps the client's copy of the text and produces didChange params."""

    TYPED = "and the reviewer checks the totals against the source table before sending. "

    def __init__(self, uri: str, lines: list[str], positions: dict, kind: int):
        self.uri = uri
        self.lines = list(lines)
        self.pos = positions
        self.kind = kind  # 1 = full, 2 = incremental
        self.version = 1
        self.typed = 0
        self.colon = False

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def next_change(self, index: int) -> dict:
        """Edit number `index` (1-based): typing in the body, every 10th toggles the colon."""
        if index % 10 == 0:
            line = self.pos["description_line"]
            col = self.pos["colon_at"]
            old = self.lines[line]
            if not self.colon:
                self.lines[line] = old[:col] + ":" + old[col:]
                change = {"range": rng(line, col, line, col), "text": ":"}
            else:
                self.lines[line] = old[:col] + old[col + 1:]
                change = {"range": rng(line, col, line, col + 1), "text": ""}
            self.colon = not self.colon
        else:
            line = self.pos["type_line"]
            ch = self.TYPED[self.typed % len(self.TYPED)]
            self.typed += 1
            col = len(self.lines[line])
            self.lines[line] += ch
            change = {"range": rng(line, col, line, col), "text": ch}
        self.version += 1
        if self.kind == 1:
            change = {"text": self.text()}
        return {
            "textDocument": {"uri": self.uri, "version": self.version},
            "contentChanges": [change],
        }


def rng(l1: int, c1: int, l2: int, c2: int) -> dict:
    return {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}


# --------------------------------------------------------------------------- measurements


def wait_publish(client: LspClient, uri: str, version: int | None, timeout: float):
    """Waits for the publish for `uri` whose version is `version` (or, for servers that
    send no version, the next one). Returns (time, params, skipped publishes)."""
    deadline = now() + timeout
    skipped = 0
    while True:
        left = deadline - now()
        if left <= 0:
            raise LspError(f"{client.name}: no publishDiagnostics for version {version}")
        stamp, params = client.next_diagnostics(left)
        if params.get("uri") != uri:
            skipped += 1
            continue
        got = params.get("version")
        if got is None or version is None or got == version:
            return stamp, params, skipped, got is not None
        skipped += 1  # a stale version (or an earlier one re-sent)


def ping_floor(client: LspClient, count: int = 100) -> list[float]:
    """Round trips of a request for an unknown method: the client + transport floor."""
    samples = []
    for _ in range(count):
        sent, received, _ = client.request("bench/ping", {}, timeout=10)
        samples.append((received - sent) * 1000)
    return samples


def edit_run(client: LspClient, uri: str, lines: list[str], positions: dict, kind: int,
             edits: int, gap: float, timeout: float, language_id: str = "markdown") -> dict:
    """didOpen, then `edits` didChange edits one at a time. Returns latencies in ms."""
    editor = Editor(uri, lines, positions, kind)
    client.drain_diagnostics()
    sent = client.notify("textDocument/didOpen", {
        "textDocument": {"uri": uri, "languageId": language_id, "version": 1,
                         "text": editor.text()},
    })
    stamp, params, _, versioned = wait_publish(client, uri, 1, timeout)
    open_ms = (stamp - sent) * 1000
    first_count = len(params.get("diagnostics") or [])
    time.sleep(gap)
    extra = client.drain_diagnostics()
    latencies: list[float] = []
    colon_lat: list[float] = []
    counts: set[int] = {first_count}
    timeouts = 0
    versioned_all = versioned
    for index in range(1, edits + 1):
        params_change = editor.next_change(index)
        sent = client.notify("textDocument/didChange", params_change)
        try:
            stamp, params, skipped, versioned = wait_publish(
                client, uri, editor.version, timeout)
        except LspError:
            timeouts += 1
            if timeouts >= 3:
                raise
            continue
        extra += skipped
        versioned_all = versioned_all and versioned
        latency = (stamp - sent) * 1000
        latencies.append(latency)
        if index % 10 == 0:
            colon_lat.append(latency)
        counts.add(len(params.get("diagnostics") or []))
        if gap:
            time.sleep(gap)
        extra += client.drain_diagnostics()
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    time.sleep(gap)
    client.drain_diagnostics()
    return {
        "open_ms": open_ms,
        "latencies": latencies,
        "colon_latencies": colon_lat,
        "typing_latencies": [v for i, v in enumerate(latencies, 1) if i % 10],
        "diagnostic_counts": sorted(counts),
        "extra_publishes": extra,
        "timeouts": timeouts,
        "versioned": versioned_all,
        "sync": {1: "full", 2: "incremental"}.get(kind, str(kind)),
    }


def completion_run(client: LspClient, uri: str, lines: list[str], position: tuple[int, int],
                   count: int, timeout: float) -> dict:
    text = "\n".join(lines) + "\n"
    client.notify("textDocument/didOpen", {
        "textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text},
    })
    time.sleep(0.2)
    client.drain_diagnostics()
    samples = []
    items = None
    for _ in range(count):
        sent, received, response = client.request("textDocument/completion", {
            "textDocument": {"uri": uri},
            "position": {"line": position[0], "character": position[1]},
            "context": {"triggerKind": 1},
        }, timeout=timeout)
        if "error" in response:
            client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            return {"error": response["error"].get("message", str(response["error"]))}
        samples.append((received - sent) * 1000)
        result = response.get("result")
        if isinstance(result, dict):
            result = result.get("items")
        items = len(result or [])
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    time.sleep(0.1)
    client.drain_diagnostics()
    return {"latencies": samples, "items": items}


def has_catalog(client: LspClient) -> bool:
    try:
        _, _, response = client.request("skill/catalog", {}, timeout=30)
    except LspError:
        return False
    return "result" in response and isinstance(response["result"], dict)


class MemorySampler:
    """Polls VmRSS of a process while it works: the peak survives the process's death."""

    def __init__(self, pid: int, period: float = 0.02):
        self.pid = pid
        self.period = period
        self.peak_kb = 0
        self.last = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            status = proc_status(self.pid)
            if status:
                self.last = status
                self.peak_kb = max(self.peak_kb, status.get("VmRSS", 0), status.get("VmHWM", 0))
            self._stop.wait(self.period)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak_kb


def startup_run(argv: list[str], name: str, skills_dir: Path, tag: str,
                catalog_timeout: float) -> dict:
    """spawn -> initialize, -> indexing-done progress (if sent), -> skill/catalog answer."""
    client, result, times = start(argv, name, tag, skills_dir, timeout=60)
    out: dict = {"initialize_s": times["initialize"], "skills_dir": str(skills_dir),
                 "skills_on_disk": sum(1 for _ in (skills_dir / "skills").iterdir())}
    try:
        sampler = MemorySampler(client.pid)
        rid, sent = client.request_async("skill/catalog", {})
        end = client.wait_progress_end(catalog_timeout)
        if end:
            out["progress_end_s"] = end[0] - client.t_spawn
            out["progress_message"] = end[1].get("message")
        try:
            received, response = client.wait_response(rid, catalog_timeout)
        except LspError as error:
            out["error"] = str(error)
            out["peak_seen_kb"] = sampler.stop()
            try:
                code = client.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
            if code is not None:
                out["exit_code"] = code
            return out
        status = proc_status(client.pid)
        out["peak_seen_kb"] = sampler.stop()
        out["ready_s"] = received - client.t_spawn
        out["catalog_after_index_s"] = (received - end[0]) if end else None
        out["rss_kb"] = status.get("VmRSS")
        out["hwm_kb"] = status.get("VmHWM")
        if "error" in response:
            out["error"] = str(response["error"])
        else:
            body = response.get("result") or {}
            out["skills"] = len(body.get("skills") or [])
            out["prompt_chars"] = len(body.get("prompt") or "")
        return out
    finally:
        client.close()


def big_edit_run(argv: list[str], name: str, skills_dir: Path, edits: int, gap: float,
                 timeout: float) -> dict:
    """The edit run on an unsaved new SKILL.md inside the big workspace, once indexed."""
    client, result, _ = start(argv, name, "bigedit", skills_dir, timeout=60)
    try:
        end = client.wait_progress_end(120)
        status_ready = proc_status(client.pid)
        index_s = (end[0] - client.t_spawn) if end else None
        folder = skills_dir / "skills" / "zz-bench-lsp-edit"
        lines, positions = make_skill("zz-bench-lsp-edit")
        out = edit_run(client, file_uri(folder / "SKILL.md"), lines, positions,
                       sync_kind(result), edits, gap, max(timeout, 30))
        status = proc_status(client.pid)
        out["index_s"] = index_s
        out["rss_ready_kb"] = status_ready.get("VmRSS")
        out["rss_after_kb"] = status.get("VmRSS")
        out["hwm_after_kb"] = status.get("VmHWM")
        out["skills_dir"] = str(skills_dir)
        return out
    finally:
        client.close()


# --------------------------------------------------------------------------- driver


def server_version(argv0: str, init_result: dict) -> str:
    info = init_result.get("serverInfo") or {}
    if info.get("version"):
        return f"{info.get('name', '?')} {info['version']}"
    try:
        text = subprocess.run([argv0, "--version"], capture_output=True, text=True,
                              timeout=10).stdout.strip()
        return text.splitlines()[0] if text else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def bench_server(name: str, path: str, args) -> dict:
    argv = [path, "serve", "--stdio"] if name == "skill-lsp" else [path]
    lines, positions = make_skill()
    workspace = WORK / name
    skill_path = write_workspace(workspace, lines)
    uri = file_uri(skill_path)
    report: dict = {"name": name, "path": path, "runs": [], "startup": [], "big_edit": [],
                    "notes": [], "server_requests": []}
    report["load_before"] = loadavg()
    for run in range(args.runs):
        client, result, _ = start(argv, name, f"edit{run + 1}", workspace)
        try:
            if run == 0:
                report["version"] = server_version(path, result)
                caps = result.get("capabilities") or {}
                report["completion_provider"] = "completionProvider" in caps
                report["sync_kind"] = sync_kind(result)
                report["catalog"] = has_catalog(client)
            if "edit" not in args.parts and "completion" not in args.parts:
                break
            kind = sync_kind(result)
            if kind not in (1, 2):
                report["notes"].append(f"textDocumentSync kind {kind}: no edit run")
                break
            entry: dict = {"floor": ping_floor(client), "edit": None, "completion": None}
            if "edit" in args.parts:
                entry["edit"] = edit_run(client, uri, lines, positions, kind, args.edits,
                                         args.gap / 1000, args.timeout)
            if "completion" in args.parts and report["completion_provider"]:
                entry["completion"] = completion_run(client, uri, lines,
                                                     positions["completion"],
                                                     args.completions, args.timeout)
            entry["load"] = loadavg()
            entry["compilers"] = busy_compilers()
            report["runs"].append(entry)
            report["server_requests"].extend(client.server_requests)
        except LspError as error:
            report["notes"].append(f"run {run + 1} failed: {error}")
        finally:
            client.close()
    if not report.get("catalog"):
        report["notes"].append("no skill/catalog: startup/index part skipped")
        report["load_after"] = loadavg()
        return report
    for skills_dir in map(Path, args.skills_dir):
        if not (skills_dir / "skills").is_dir():
            report["notes"].append(f"{skills_dir}/skills missing: skipped")
            continue
        if "startup" in args.parts:
            for run in range(args.startup_runs):
                try:
                    entry = startup_run(argv, name, skills_dir, f"startup{run + 1}",
                                        args.catalog_timeout)
                except LspError as error:
                    entry = {"error": str(error), "skills_dir": str(skills_dir)}
                entry["load"] = loadavg()
                entry["run"] = run + 1
                report["startup"].append(entry)
        if "bigedit" in args.parts:
            try:
                report["big_edit"].append(big_edit_run(argv, name, skills_dir, args.edits,
                                                       args.gap / 1000, args.timeout))
            except LspError as error:
                report["notes"].append(f"edit run in {skills_dir} failed: {error}")
    report["load_after"] = loadavg()
    return report


def pooled(report: dict, key: str, sub: str = "latencies") -> list[float]:
    out = []
    for run in report["runs"]:
        part = run.get(key)
        if part and sub in part:
            out.extend(part[sub])
    return out


def mb(kb) -> str:
    return "n/a" if not kb else f"{kb / 1024:.1f}"


def secs(value) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def edit_row(label: str, edit: dict, floor: list[float] | None = None) -> str:
    lat = edit["latencies"]
    return (f"| {label} | {edit['sync']}{'' if edit['versioned'] else ' (no version)'} | "
            f"{ms(edit['open_ms'])} | {ms(pct(lat, 50))} | {ms(pct(lat, 90))} | "
            f"{ms(pct(lat, 99))} | {ms(max(lat) if lat else None)} | "
            f"{ms(pct(edit['typing_latencies'], 50))} | "
            f"{ms(pct(edit['colon_latencies'], 50))} | "
            f"{ms(pct(floor, 50)) if floor else ''} | {ms(pct(floor, 99)) if floor else ''} | "
            f"{', '.join(map(str, edit['diagnostic_counts']))} | {edit['extra_publishes']} |")


def merge_edits(edits: list[dict]) -> dict:
    merged = dict(edits[0])
    for key in ("latencies", "typing_latencies", "colon_latencies"):
        merged[key] = [v for e in edits for v in e[key]]
    merged["open_ms"] = statistics.median(e["open_ms"] for e in edits)
    merged["diagnostic_counts"] = sorted({c for e in edits for c in e["diagnostic_counts"]})
    merged["extra_publishes"] = sum(e["extra_publishes"] for e in edits)
    merged["versioned"] = all(e["versioned"] for e in edits)
    return merged


def summarize(reports: list[dict], args, started: str, load_start: str) -> str:
    out = []
    out.append("# skill-lsp language-server benchmark\n")
    out.append(f"- date: {started}")
    out.append(f"- host: {platform.node()} ({os.cpu_count()} cores), "
               f"{platform.system()} {platform.release()}, Python {platform.python_version()}")
    out.append(f"- load average (1/5/15 min): at start {load_start}, at end {loadavg()} "
               "(another engineer compiles on this machine now and then)")
    for report in reports:
        compilers = sorted({c for run in report["runs"] for c in run.get("compilers", [])})
        out.append(f"- {report['name']}: `{report.get('version', '?')}` ({report['path']}); "
                   f"textDocumentSync {report.get('sync_kind')}; 1-min load during its runs: "
                   + (", ".join(run["load"].split()[0] for run in report["runs"]) or "n/a")
                   + (f"; compilers seen running: {', '.join(compilers)}" if compilers else ""))
    out.append(f"- {args.edits} edits per run (typing at the end of a prose line in the body "
               f"of a 600-line SKILL.md; every 10th edit toggles an unquoted `: ` in the "
               f"description), {args.gap:g} ms pause between edits, {args.runs} run(s) pooled; "
               f"{args.completions} completions at the start of the `license:` line "
               "(frontmatter key site)")
    out.append("- latency = write of the didChange -> publishDiagnostics with that version "
               "fully read by the client; floor = round trip of an unknown-method request "
               "(MethodNotFound): the cost of this Python client + stdio + JSON-RPC alone\n")

    rows: dict[str, dict] = {}
    if "edit" in args.parts or any(r.get("big_edit") for r in reports):
        out.append("## Edit -> diagnostics (ms)\n")
        out.append("| server | sync | open->first | p50 | p90 | p99 | max | typing p50 | "
                   "colon-toggle p50 | floor p50 | floor p99 | findings seen | "
                   "extra publishes |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for report in reports:
            edits = [run["edit"] for run in report["runs"] if run.get("edit")]
            for big in report.get("big_edit", []):
                out.append(edit_row(f"{report['name']}, unsaved SKILL.md in "
                                    f"{big['skills_dir']}", big))
            if not edits:
                continue
            merged = merge_edits(edits)
            floor = [v for run in report["runs"] for v in run["floor"]]
            rows[report["name"]] = {"p50": pct(merged["latencies"], 50),
                                    "p99": pct(merged["latencies"], 99)}
            out.append(edit_row(report["name"], merged, floor))
        if args.runs > 1:
            out.append("\nPer-run p50 / p99 (ms): " + "; ".join(
                f"{r['name']}: " + ", ".join(
                    f"{ms(pct(run['edit']['latencies'], 50))}/"
                    f"{ms(pct(run['edit']['latencies'], 99))}"
                    for run in r["runs"] if run.get("edit")) for r in reports))

    if "completion" in args.parts:
        out.append("\n## Completion (ms)\n")
        out.append("| server | p50 | p99 | max | items |")
        out.append("|---|---|---|---|---|")
        for report in reports:
            if not report.get("completion_provider"):
                out.append(f"| {report['name']} | not supported (no completionProvider) "
                           "| | | |")
                continue
            errors = [run["completion"]["error"] for run in report["runs"]
                      if run.get("completion") and "error" in run["completion"]]
            if errors:
                out.append(f"| {report['name']} | error: {errors[0]} | | | |")
                continue
            lat = pooled(report, "completion")
            if not lat:
                continue
            items = report["runs"][0]["completion"]["items"]
            note = " (none at that position)" if not items else ""
            rows.setdefault(report["name"], {})["c50"] = pct(lat, 50)
            rows[report["name"]]["c99"] = pct(lat, 99)
            out.append(f"| {report['name']} | {ms(pct(lat, 50))} | {ms(pct(lat, 99))} | "
                       f"{ms(max(lat))} | {items}{note} |")

    if "startup" in args.parts:
        out.append("\n## Startup and index\n")
        out.append("Times from spawning the process. *index done* = skill-lsp's `$/progress` "
                   "end notification (\"Indexing skills\"; with the catalog request already pending it can be held back by the catalog's work: the undisturbed index time is given below the table); *catalog answered* = the "
                   "`skill/catalog` response, sent right after `initialized` (the server waits "
                   "for the index, then builds the catalog). RSS is read from /proc right "
                   "after the answer; *peak seen* is the highest VmRSS/VmHWM polled every 20 ms "
                   f"while waiting (servers run under a {args.mem_limit_mb} MB address-space "
                   "limit).\n")
        out.append("| server | workspace | run | initialize (s) | index done (s) | "
                   "catalog answered (s) | skills | VmRSS (MB) | VmHWM (MB) | peak seen (MB) "
                   "| 1-min load | result |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for report in reports:
            if not report.get("startup"):
                out.append(f"| {report['name']} | | | skipped: "
                           f"{'; '.join(report['notes']) or 'no startup runs'} "
                           "| | | | | | | | |")
                continue
            for run in report["startup"]:
                result = "ok"
                if run.get("error"):
                    result = "FAILED: " + run["error"]
                    code = run.get("exit_code")
                    if code is not None:
                        result += (f" (killed by signal {-code})" if code < 0
                                   else f" (exit code {code})")
                out.append(
                    f"| {report['name']} | {run.get('skills_dir')} "
                    f"({run.get('skills_on_disk', '?')}) | {run.get('run')} | "
                    f"{secs(run.get('initialize_s'))} | {secs(run.get('progress_end_s'))} | "
                    f"{secs(run.get('ready_s'))} | {run.get('skills', 'n/a')} | "
                    f"{mb(run.get('rss_kb'))} | {mb(run.get('hwm_kb'))} | "
                    f"{mb(run.get('peak_seen_kb'))} | {run.get('load', '?').split()[0]} | "
                    f"{result} |")
        for report in reports:
            for big in report.get("big_edit", []):
                out.append(f"\n{report['name']} without skill/catalog, then an unsaved "
                           f"SKILL.md opened in {big['skills_dir']}: index done "
                           f"{secs(big['index_s'])} s after spawn; VmRSS "
                           f"{mb(big['rss_ready_kb'])} MB when indexed, {mb(big['rss_after_kb'])} MB after the edits "
                           f"(VmHWM {mb(big['hwm_after_kb'])} MB).")

    if "skill-lsp" in rows and "agnix-lsp" in rows:
        a, s = rows["agnix-lsp"], rows["skill-lsp"]
        out.append("\n## Ratio agnix-lsp / skill-lsp (> 1: skill-lsp is faster)\n")
        if "p50" in a and "p50" in s:
            out.append(f"- edit->diagnostics p50: {a['p50'] / s['p50']:.2f}x, "
                       f"p99: {a['p99'] / s['p99']:.2f}x")
        if "c50" in a and "c50" in s:
            out.append(f"- completion p50: {a['c50'] / s['c50']:.2f}x, "
                       f"p99: {a['c99'] / s['c99']:.2f}x")

    notes = [f"{r['name']}: {n}" for r in reports for n in r["notes"]]
    for report in reports:
        reqs = sorted(set(report.get("server_requests", [])))
        if reqs:
            notes.append(f"{report['name']} sent requests (answered with null): "
                         f"{', '.join(reqs)}")
    if notes:
        out.append("\n## Notes\n")
        out.extend(f"- {n}" for n in notes)
    return "\n".join(out) + "\n"


PARTS = ("edit", "completion", "startup", "bigedit")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", action="append", default=[], metavar="NAME=PATH",
                        help="a server to bench (skill-lsp runs `PATH serve --stdio`, others "
                             "`PATH`); default: skill-lsp and agnix-lsp when present")
    parser.add_argument("--edits", type=int, default=300)
    parser.add_argument("--completions", type=int, default=100)
    parser.add_argument("--runs", type=int, default=1, help="edit/completion runs per server")
    parser.add_argument("--startup-runs", type=int, default=3)
    parser.add_argument("--gap", type=float, default=20.0,
                        help="pause between edits in ms (extra publishes are counted in it)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds to wait for one publish/response")
    parser.add_argument("--catalog-timeout", type=float, default=120.0,
                        help="seconds to wait for the skill/catalog answer")
    parser.add_argument("--skills-dir", action="append", default=None,
                        help="workspace root holding skills/<name>/SKILL.md (repeatable; "
                             "default /tmp/skill-bench-10000; '' to skip)")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"comma-separated subset of {','.join(PARTS)} (bigedit = the edit "
                             "run on an unsaved SKILL.md inside each --skills-dir)")
    parser.add_argument("--mem-limit-mb", type=int, default=4096,
                        help="address-space limit for each server process (0 = none)")
    parser.add_argument("--out", default=str(OUT / "lsp-results.md"))
    parser.add_argument("--json", default=str(OUT / "lsp-results.json"))
    args = parser.parse_args()
    args.parts = [part.strip() for part in args.parts.split(",") if part.strip()]
    unknown = set(args.parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    if args.skills_dir is None:
        args.skills_dir = ["/tmp/skill-bench-10000"]
    args.skills_dir = [d for d in args.skills_dir if d]

    servers: list[tuple[str, str]] = []
    for spec in args.server:
        name, sep, path = spec.partition("=")
        if not sep:
            parser.error(f"--server wants NAME=PATH, got {spec!r}")
        servers.append((name, path))
    if not servers:
        if not DEFAULT_SKILL_LSP.exists():
            print("[bench-lsp] building skill-lsp (cargo build --release)", file=sys.stderr)
            subprocess.run(["cargo", "build", "--release"], cwd=ROOT, check=False)
        if DEFAULT_SKILL_LSP.exists():
            servers.append(("skill-lsp", str(DEFAULT_SKILL_LSP)))
        else:
            print("[bench-lsp] skill-lsp binary missing; skipped", file=sys.stderr)
        if DEFAULT_AGNIX_LSP.exists():
            servers.append(("agnix-lsp", str(DEFAULT_AGNIX_LSP)))
        else:
            print(f"[bench-lsp] {DEFAULT_AGNIX_LSP} missing; agnix-lsp skipped", file=sys.stderr)
    if not servers:
        print("no servers to bench", file=sys.stderr)
        return 1

    LspClient.mem_limit = args.mem_limit_mb * 1024 * 1024
    OUT.mkdir(parents=True, exist_ok=True)
    started = _dt.datetime.now().astimezone().isoformat(timespec="seconds")
    load_start = loadavg()
    reports = []
    for name, path in servers:
        print(f"[bench-lsp] {name}: {path} (load {loadavg()})", file=sys.stderr)
        try:
            reports.append(bench_server(name, path, args))
        except LspError as error:
            print(f"[bench-lsp] {name} failed: {error}", file=sys.stderr)
            reports.append({"name": name, "path": path, "runs": [], "startup": [],
                            "big_edit": [], "notes": [f"failed: {error}"]})
    text = summarize(reports, args, started, load_start)
    Path(args.out).write_text(text)
    Path(args.json).write_text(json.dumps(reports, indent=1, default=str))
    print(text)
    print(f"[bench-lsp] wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
