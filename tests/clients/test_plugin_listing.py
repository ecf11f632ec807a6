"""Claude Code plugin skills, offline, against the real client: a local marketplace is added to a
scratch HOME (`claude plugin marketplace add PATH`), each of its plugins installed in the
marketplace's order (`claude plugin install ENTRY@MARKETPLACE`), and the listing Claude Code then
sends the model is compared with what `skill-lsp catalog --target claude-code --format json`
predicts for the marketplace's folder: the same `plugin:skill` names and descriptions, in the same
order. Who may invoke a plugin's skill is checked as test_invocation.py checks a project's: the
user types `/plugin:skill` and the skill was invoked when its body reaches the model.

What the pinned client showed when this was written: installed plugins are listed after the
project's skills, one plugin after another in the order they were installed, each plugin's skills
sorted as the project's are; a skill is named `plugin:folder`, with ` (plugin:name)` when its
frontmatter name differs; the plugin's name is plugin.json's `name` even where the marketplace
entry says otherwise, and the entry's for a plugin without a plugin.json."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from clients import CLIENTS, PINS, _env, installed
from recorder import Recorder

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("SKILL_LSP_BIN", str(REPO / "target" / "debug" / "skill-lsp"))
MARKETPLACE = "oracle-market"

# Each plugin: its entry in marketplace.json, its folder, its plugin.json (None: none), and its
# skills as folder -> frontmatter. A body holds a marker naming the skill's folder.
PLUGINS = [
    {
        "entry": "alpha",
        "folder": "plugins/alpha",
        "manifest": {"name": "alpha", "version": "1.0.0", "description": "The first plugin."},
        "skills": {
            "greet": "name: greet\ndescription: Greets the user <warmly>.",
            "manual": "name: manual\ndescription: Only by hand.\ndisable-model-invocation: true",
            "Named-Folder": "name: shown-name\ndescription: Folder and name differ.",
            "no-name": "description: No frontmatter name.",
            "long": "name: long\ndescription: " + "Long words. " * 160,
        },
    },
    {
        # A plugin whose name is neither its folder's nor its marketplace entry's.
        "entry": "beta",
        "folder": "plugins/beta-folder",
        "manifest": {"name": "beta-real", "version": "1.0.0", "description": "The second plugin."},
        "skills": {
            "deploy": "name: deploy\ndescription: Deploys things.\nwhen_to_use: when shipping",
            "zeta": "name: zeta\ndescription: Only the model.\nuser-invocable: false",
        },
    },
    {
        # No plugin.json: the entry names it.
        "entry": "loose",
        "folder": "loose",
        "manifest": None,
        "skills": {"tidy": "name: tidy\ndescription: Tidies up."},
    },
]
# The project's own skills sit beside the plugins and are listed before them.
PROJECT = {"zz-project": "name: zz-project\ndescription: A skill of the project."}


def marker(folder: str) -> str:
    return f"BODY-OF-{folder.upper()}"


def write_skill(folder: Path, frontmatter: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(f"---\n{frontmatter}\n---\n{marker(folder.name)}\n")


def materialise(root: Path) -> None:
    manifest = {
        "name": MARKETPLACE,
        "owner": {"name": "Oracle"},
        "plugins": [
            {"name": plugin["entry"], "source": f"./{plugin['folder']}", "description": "A plugin."}
            for plugin in PLUGINS
        ],
    }
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "marketplace.json").write_text(json.dumps(manifest, indent=2))
    for plugin in PLUGINS:
        folder = root / plugin["folder"]
        if plugin["manifest"] is not None:
            (folder / ".claude-plugin").mkdir(parents=True)
            (folder / ".claude-plugin" / "plugin.json").write_text(json.dumps(plugin["manifest"]))
        for skill, frontmatter in plugin["skills"].items():
            write_skill(folder / "skills" / skill, frontmatter)
    for skill, frontmatter in PROJECT.items():
        write_skill(root / ".claude" / "skills" / skill, frontmatter)


def claude(home: Path, project: Path, *args: str) -> subprocess.CompletedProcess:
    client = CLIENTS["claude-code"]
    env = _env(home, project, 9)
    client.configure(env, home, 9)
    binary = client.command(installed("claude-code"), project)[0]
    return subprocess.run(
        [binary, *args], cwd=project, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL
    )


@pytest.fixture(scope="module")
def installed_marketplace():
    """The marketplace's folder (also the project Claude Code runs in) and a HOME in which each
    of its plugins is installed, in the marketplace's order."""
    if installed("claude-code") is None:
        pytest.fail(f"claude-code {PINS['claude-code'][2]} is not installed: run cargo xtask clients")
    # Short paths, as test_oracles.py keeps them.
    scratch = Path(tempfile.mkdtemp(prefix="oracle-plugins-"))
    try:
        project, home = scratch / "market", scratch / "home"
        project.mkdir()
        home.mkdir()
        materialise(project)
        added = claude(home, project, "plugin", "marketplace", "add", str(project))
        assert added.returncode == 0, added.stdout + added.stderr
        for plugin in PLUGINS:
            done = claude(home, project, "plugin", "install", f"{plugin['entry']}@{MARKETPLACE}")
            assert done.returncode == 0, done.stdout + done.stderr
        yield project, home
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def predicted(project: Path) -> dict:
    done = subprocess.run(
        [BIN, "catalog", str(project), "--target", "claude-code", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def test_plugin_skills_are_listed_as_skill_lsp_predicts(installed_marketplace):
    project, home = installed_marketplace
    real = [(item.name, item.description) for item in CLIENTS["claude-code"].run(project, home=home).listing]
    catalog = predicted(project)
    ours = [(item["name"], item["description"]) for item in catalog["listed"]]
    assert real == ours, json.dumps({"claude-code": real, "skill-lsp": ours}, ensure_ascii=False, indent=1)
    # The prediction is not vacuous: every plugin's skills are in it, under their plugin's name.
    plugins = {item["plugin"] for item in catalog["listed"] if "plugin" in item}
    assert plugins == {"alpha", "beta-real", "loose"}, plugins
    assert any(name.startswith("alpha:Named-Folder (alpha:shown-name)") for name, _ in ours)


def invoked(project: Path, home: Path, prompt: str) -> set[str]:
    """The skill folders whose body Claude Code sent the model after the user typed `prompt`."""
    client = CLIENTS["claude-code"]
    with Recorder() as recorder:
        env = _env(home, project, recorder.port)
        client.configure(env, home, recorder.port)
        command = client.command(installed("claude-code"), project)
        command[command.index("hello")] = prompt
        subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
        sent = json.dumps(list(recorder.requests))
    folders = [skill for plugin in PLUGINS for skill in plugin["skills"]]
    return {folder for folder in folders if marker(folder) in sent}


# (the name explain is asked, the skill's folder, the slash command the user types)
INVOCATIONS = [
    ("manual", "manual", "/alpha:manual"),
    ("alpha:shown-name", "Named-Folder", "/alpha:shown-name"),
    ("beta-real:zeta", "zeta", "/beta-real:zeta"),
    ("tidy", "tidy", "/loose:tidy"),
]


@pytest.mark.parametrize("name,folder,slash", INVOCATIONS)
def test_plugin_skill_invocation_matches_explain(installed_marketplace, name, folder, slash):
    project, home = installed_marketplace
    done = subprocess.run(
        [BIN, "explain", name, "--root", str(project), "--target", "claude-code", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    ours = json.loads(done.stdout)[0]["clients"][0]
    assert "plugin" in ours, ours
    real = folder in invoked(project, home, slash)
    assert real == ours["user_invocable"]["can"], f"{slash}: Claude Code invoked it: {real}; skill-lsp says {ours}"
    if real:
        assert slash in ours["user_invocable"]["why"], ours["user_invocable"]
