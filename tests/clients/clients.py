"""The real clients, run offline: each one installed from its npm package at a pinned version
under .cache/clients, started in a scratch project with a scratch HOME against a Recorder, and the
skill listing it sent to the model parsed back out of the recorded request."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from recorder import Recorder

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("SKILL_LSP_CLIENTS", REPO / ".cache" / "clients"))

# One pin per client: a new release is one line here and a re-run (cargo xtask clients installs them).
PINS = {
    "claude-code": ("claude", "@anthropic-ai/claude-code", "2.1.328"),
    "codex": ("codex", "@openai/codex", "0.169.0"),
    "gemini": ("gemini", "@google/gemini-cli", "0.61.0"),
    "opencode": ("opencode", "opencode-ai", "1.18.33"),
    "copilot": ("copilot", "@github/copilot", "1.0.102"),
}


@dataclass
class Listed:
    name: str
    description: str | None  # None: listed by name only
    path: str | None = None  # the SKILL.md, when the listing shows it


@dataclass
class Run:
    listing: list[Listed]
    stderr: str
    requests: list


def _env(home: Path, project: Path, port: int) -> dict[str, str]:
    return {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "CI": "1",
        "NO_COLOR": "1",
        "TERM": "dumb",
        "PWD": str(project),
        "LANG": "C.UTF-8",
    }


def installed(client: str) -> Path | None:
    folder, package, version = PINS[client]
    manifest = CACHE / folder / "node_modules" / package / "package.json"
    try:
        if json.loads(manifest.read_text())["version"] == version:
            return CACHE / folder
    except (OSError, ValueError, KeyError):
        pass
    return None


class Client:
    id: str
    # The client's own skills, listed whatever the project holds.
    own: frozenset[str] = frozenset()
    # The name `skill-lsp check` gives the client in its consequences.
    display: str = ""
    # The project's skills roots the client reads (for the check-claims oracle).
    roots: tuple[str, ...] = ()
    # Whether the listing's order is the client's own; False when it follows the file system's
    # directory order, which skill-lsp cannot know (the lines are then compared in name order).
    ordered: bool = True

    def skipped(self, run: "Run", project: Path) -> set[Path] | None:
        """The SKILL.md files the client refused to load, as it reported them; `None` when it
        does not say."""
        return None

    def command(self, base: Path, project: Path) -> list[str]:
        raise NotImplementedError

    def configure(self, env: dict[str, str], home: Path, port: int) -> None:
        pass

    def listing(self, requests: list) -> list[Listed]:
        raise NotImplementedError

    def run(self, project: Path, timeout: float = 180, home: Path | None = None) -> Run:
        """`home`: a HOME prepared beforehand (plugins installed in it), else a scratch one."""
        base = installed(self.id)
        if base is None:
            raise RuntimeError(f"{self.id} is not installed under {CACHE}")
        with tempfile.TemporaryDirectory(prefix=f"oracle-{self.id}-home-") as scratch, Recorder() as recorder:
            home = home or Path(scratch)
            env = _env(home, project, recorder.port)
            self.configure(env, home, recorder.port)
            done = subprocess.run(
                self.command(base, project),
                cwd=project,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
            requests = list(recorder.requests)
        try:
            listing = self.listing(requests)
        except LookupError as error:
            raise RuntimeError(
                f"{self.id}: no skill listing in {len(requests)} requests (exit {done.returncode}): {error}\n"
                f"stderr: {done.stderr[-2000:]}"
            ) from None
        return Run([item for item in listing if item.name not in self.own], done.stderr, requests)


def _texts(content) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [block.get("text", "") for block in content or [] if isinstance(block, dict)]


class ClaudeCode(Client):
    id = "claude-code"
    own = frozenset(
        "dataviz update-config keybindings-help code-review simplify fewer-permission-prompts loop "
        "claude-api workflow-authoring run plugin-authoring init security-review".split()
    )
    HEADER = "The following skills are available for use with the Skill tool:\n\n"
    LINE = re.compile(r"^- (?P<name>.+?)(?:: (?P<description>.*))?$")

    def command(self, base, project):
        return [str(base / "node_modules/@anthropic-ai/claude-code-linux-x64/claude"), "-p", "hello", "--max-turns", "1"]

    def configure(self, env, home, port):
        env.update(
            ANTHROPIC_BASE_URL=f"http://127.0.0.1:{port}",
            ANTHROPIC_API_KEY="sk-ant-oracle-dummy",
            DISABLE_TELEMETRY="1",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_AUTOUPDATER="1",
        )

    def listing(self, requests):
        for path, body in requests:
            if not path.startswith("/v1/messages"):
                continue
            for message in body.get("messages", []):
                for text in _texts(message.get("content")):
                    at = text.find(self.HEADER)
                    if at < 0:
                        continue
                    block = text[at + len(self.HEADER) :]
                    # The project's skills come first, one line each (Claude Code turns a newline
                    # in a description into a space); its own skills follow, and their
                    # descriptions may span lines, so the listing is read up to the first of them.
                    listed = []
                    for line in block.split("\n"):
                        item = self._line(line)
                        if not line.startswith("- ") or item.name in self.own:
                            break
                        listed.append(item)
                    return listed
        raise LookupError("no message holds the Skill tool's listing")

    def _line(self, line: str) -> Listed:
        # A name never holds ': ' (folder names are single path components; a ' (name)' suffix is
        # a valid skill name), so the first ': ' ends it.
        name, sep, description = line[2:].partition(": ")
        return Listed(name, description if sep else None)





class Codex(Client):
    id = "codex"
    own = frozenset("imagegen openai-docs skill-creator skill-installer".split())
    display = "Codex"
    roots = (".agents/skills", ".codex/skills")
    REFUSED = re.compile(r"failed to load skill (?P<path>/\S*SKILL\.md): ")

    def skipped(self, run, project):
        return {Path(match["path"]).resolve() for match in self.REFUSED.finditer(run.stderr)}

    def command(self, base, project):
        binary = base / "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
        return [str(binary), "exec", "--skip-git-repo-check", "-s", "read-only", "hello"]

    def configure(self, env, home, port):
        codex_home = home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        (codex_home / "config.toml").write_text(
            'model = "mock-model"\n'
            'model_provider = "mock"\n'
            "[analytics]\nenabled = false\n"
            "[model_providers.mock]\n"
            'name = "mock"\n'
            f'base_url = "http://127.0.0.1:{port}/v1"\n'
            'wire_api = "responses"\n'
            'env_key = "MOCK_API_KEY"\n'
            "request_max_retries = 0\n"
            "stream_max_retries = 0\n"
        )
        env.update(CODEX_HOME=str(codex_home), MOCK_API_KEY="mock-key")

    def block(self, requests) -> str:
        for path, body in requests:
            if not path.endswith("/responses"):
                continue
            for item in body.get("input", []):
                if not isinstance(item, dict) or item.get("role") != "developer":
                    continue
                for text in _texts(item.get("content")):
                    if "<skills_instructions>" in text:
                        return text
        raise LookupError("no developer message holds <skills_instructions>")

    def listing(self, requests):
        # `- name: description (file: rN/folder/SKILL.md)`, one line per skill (Codex collapses
        # white space); past its budget `- name: (file: ...)`.
        text = self.block(requests)
        section = text.split("### Available skills\n", 1)[1].split("</skills_instructions>", 1)[0]
        section = section.split("\n### ", 1)[0]
        listed = []
        for line in section.split("\n"):
            if not line.startswith("- ") or not line.endswith(")"):
                continue
            name, _, rest = line[2:].partition(": ")
            if rest.startswith("(file: "):
                listed.append(Listed(name, None))
            else:
                listed.append(Listed(name, rest.rpartition(" (file: ")[0]))
        return listed


def _walk_texts(value):
    """Every string inside a decoded JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _walk_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk_texts(item)


class Copilot(Client):
    id = "copilot"
    own = frozenset("customize-cloud-agent github-pr-media".split())
    display = "Copilot"
    roots = (".github/skills", ".agents/skills", ".claude/skills")
    FAILED = re.compile(r"^  \S+ (?P<path>\S.*?/SKILL\.md): ", re.M)

    def skipped(self, run, project):
        # A prompt run drops them silently; `copilot skill list` names them.
        base = installed(self.id)
        with tempfile.TemporaryDirectory(prefix="oracle-copilot-home-") as scratch:
            home = Path(scratch)
            env = _env(home, project, 9)
            self.configure(env, home, 9)
            done = subprocess.run(
                [self.command(base, project)[0], "skill", "list"],
                cwd=project,
                env=env,
                capture_output=True,
                text=True,
                timeout=180,
                stdin=subprocess.DEVNULL,
            )
        return {(project / match["path"]).resolve() for match in self.FAILED.finditer(done.stderr)}

    def command(self, base, project):
        binary = base / "node_modules/@github/copilot-linux-x64/copilot"
        return [str(binary), "-p", "hello", "--allow-all-tools", "--trust-folder", "--disable-client-telemetry", "--no-auto-update", "-s"]

    def configure(self, env, home, port):
        env.update(
            COPILOT_OFFLINE="true",
            COPILOT_PROVIDER_BASE_URL=f"http://127.0.0.1:{port}/v1",
            COPILOT_PROVIDER_TYPE="openai",
            COPILOT_PROVIDER_API_KEY="mock-key",
            COPILOT_MODEL="gpt-5.1",
            COPILOT_ALLOW_ALL="true",
            COPILOT_AUTO_UPDATE="false",
            COPILOT_CACHE_HOME=str(CACHE / "copilot" / ".copilot-cache"),
        )

    def block(self, requests) -> str:
        for _, body in requests:
            for text in _walk_texts(body):
                at = text.find("<available_skills>")
                if at >= 0:
                    return text[at:]
        raise LookupError("no request holds <available_skills>")

    ENTRY = re.compile(
        r"<skill>\n  <name>(?P<name>.*?)</name>\n  <description>(?P<description>.*?)</description>\n"
        r"  <location>(?P<location>[a-z]+)</location>\n</skill>",
        re.S,
    )

    def listing(self, requests):
        # Escaped XML entries, compared as the model sees them (entities kept); past its budget,
        # one line of names.
        text = self.block(requests)
        block = text[: text.index("</available_skills>")]
        listed = [Listed(match["name"], match["description"]) for match in self.ENTRY.finditer(block)]
        marker = "Additional skills available (invoke by name): "
        if marker in block:
            names = block.split(marker, 1)[1].split("\n", 1)[0]
            listed += [Listed(name, None) for name in names.split(", ") if name]
        return listed


class OpenCode(Client):
    id = "opencode"
    own = frozenset(["customize-opencode"])
    display = "OpenCode"
    roots = (".claude/skills", ".agents/skills", ".opencode/skills")

    def command(self, base, project):
        binary = base / "node_modules/opencode-linux-x64/bin/opencode"
        return [str(binary), "run", "-m", "mock/mock-model", "--dir", str(project), "--title", "probe", "hello"]

    def configure(self, env, home, port):
        config = {
            "$schema": "https://opencode.ai/config.json",
            "provider": {
                "mock": {
                    "npm": "@ai-sdk/openai-compatible",
                    "options": {"baseURL": f"http://127.0.0.1:{port}/v1", "apiKey": "mock-key"},
                    "models": {"mock-model": {}},
                }
            },
            "model": "mock/mock-model",
        }
        env.update(
            OPENCODE_CONFIG_CONTENT=json.dumps(config),
            OPENCODE_DISABLE_MODELS_FETCH="1",
            OPENCODE_DISABLE_AUTOUPDATE="1",
            OPENCODE_DISABLE_LSP_DOWNLOAD="1",
            OPENCODE_DISABLE_DEFAULT_PLUGINS="1",
            OPENCODE_DISABLE_SHARE="1",
        )

    def block(self, requests) -> str:
        for _, body in requests:
            for text in _walk_texts(body):
                at = text.find("<available_skills>")
                if at >= 0:
                    return text[at:]
        raise LookupError("no request holds <available_skills>")

    ENTRY = re.compile(
        r"  <skill>\n    <name>(?P<name>.*?)</name>\n    <description>(?P<description>.*?)</description>\n"
        r"    <location>(?P<location>[^<]*)</location>\n  </skill>",
        re.S,
    )

    def listing(self, requests):
        # Names and descriptions as written (OpenCode escapes only the location).
        text = self.block(requests)
        block = text[: text.index("</available_skills>")]
        return [
            Listed(match["name"], match["description"], html.unescape(match["location"]))
            for match in self.ENTRY.finditer(block)
        ]


class Gemini(Client):
    id = "gemini"
    own = frozenset(["skill-creator", "antigravity-support"])
    display = "Gemini CLI"
    roots = (".gemini/skills", ".agents/skills")
    ordered = False

    def command(self, base, project):
        return ["node", str(base / "node_modules/@google/gemini-cli/bundle/gemini.js"), "-p", "hello", "-o", "text"]

    def configure(self, env, home, port):
        settings = home / ".gemini"
        settings.mkdir(parents=True, exist_ok=True)
        (settings / "settings.json").write_text(
            json.dumps(
                {
                    "security": {"auth": {"selectedType": "gemini-api-key"}},
                    "telemetry": {"enabled": False},
                    "privacy": {"usageStatisticsEnabled": False},
                }
            )
        )
        env.update(
            GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{port}",
            GEMINI_API_KEY="mock-key",
            GEMINI_CLI_TRUST_WORKSPACE="true",
        )

    def block(self, requests) -> str:
        for _, body in requests:
            instruction = body.get("systemInstruction") or {}
            for text in _walk_texts(instruction):
                at = text.find("<available_skills>")
                if at >= 0:
                    return text[at:]
        raise LookupError("no request holds <available_skills>")

    ENTRY = re.compile(
        r"  <skill>\n    <name>(?P<name>.*?)</name>\n    <description>(?P<description>.*?)</description>\n"
        r"    <location>(?P<location>[^<]*)</location>\n  </skill>",
        re.S,
    )

    def listing(self, requests):
        # Names and descriptions as written: Gemini CLI escapes nothing.
        text = self.block(requests)
        block = text[: text.index("</available_skills>")]
        return [
            Listed(match["name"], match["description"], match["location"])
            for match in self.ENTRY.finditer(block)
        ]


CLIENTS = {client.id: client for client in [ClaudeCode(), Codex(), Copilot(), OpenCode(), Gemini()]}
