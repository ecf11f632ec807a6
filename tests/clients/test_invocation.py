"""Who can invoke a skill, as `skill-lsp explain --format json` says, against the real client:
the user types `/NAME` as the prompt, and the skill was invoked when its body reaches the model
(a skill the user may not invoke is refused before any request is sent)."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from clients import CLIENTS, PINS, _env, installed
from recorder import Recorder

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("SKILL_LSP_BIN", str(REPO / "target" / "debug" / "skill-lsp"))

# folder -> (frontmatter, the slash names to try); each body holds a marker naming its folder.
SKILLS = {
    "Shown-Folder": ("name: shown-name\ndescription: Name differs from the folder.", ["/Shown-Folder", "/shown-name"]),
    "no-slash": ("name: no-slash\ndescription: Only the model.\nuser-invocable: false", ["/no-slash"]),
    "by-hand": ("name: by-hand\ndescription: Only the user.\ndisable-model-invocation: true", ["/by-hand"]),
    "spaced": ("name: not valid\ndescription: A name with a space.", ["/spaced"]),
    "scoped": ("name: scoped\ndescription: Path-scoped.\npaths: [\"*.py\"]", ["/scoped"]),
    "built-in-name": ("name: status\ndescription: Named like a built-in command.", ["/built-in-name"]),
}


def marker(folder: str) -> str:
    return f"BODY-OF-{folder.upper()}"


def invoked(project: Path, prompt: str) -> set[str]:
    """The folders whose body the client sent to the model after the user typed `prompt`."""
    client = CLIENTS["claude-code"]
    with tempfile.TemporaryDirectory(prefix="oracle-invoke-home-") as scratch, Recorder() as recorder:
        env = _env(Path(scratch), project, recorder.port)
        client.configure(env, Path(scratch), recorder.port)
        command = client.command(installed("claude-code"), project)
        command[command.index("hello")] = prompt
        subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
        sent = json.dumps(list(recorder.requests))
    return {folder for folder in SKILLS if marker(folder) in sent}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("invocation")
    for folder, (frontmatter, _) in SKILLS.items():
        path = root / ".claude" / "skills" / folder / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\n{frontmatter}\n---\n{marker(folder)}\n")
    return root


def explained(project: Path, folder: str) -> dict:
    done = subprocess.run(
        [BIN, "explain", folder, "--root", str(project), "--target", "claude-code", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)[0]["clients"][0]


@pytest.mark.parametrize("folder", sorted(SKILLS))
def test_user_invocation_matches_claude_code(project, folder):
    if installed("claude-code") is None:
        pytest.fail(f"claude-code {PINS['claude-code'][2]} is not installed: run cargo xtask clients")
    ours = explained(project, folder)["user_invocable"]
    for slash in SKILLS[folder][1]:
        real = folder in invoked(project, slash)
        assert real == ours["can"], f"{slash}: Claude Code invoked it: {real}; skill-lsp says {ours}"
        if ours["can"]:
            assert slash in ours["why"], f"{slash} works in Claude Code; skill-lsp says {ours['why']!r}"
