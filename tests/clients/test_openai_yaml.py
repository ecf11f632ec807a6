"""Codex's `agents/openai.yaml` against `skill-lsp check`: each case is one skill with one
openai.yaml, read by the real Codex. Codex logs each value it drops (`ignoring interface.X: …`,
`ignoring dependencies.tools.F: …`) and each file it ignores whole (`invalid openai.yaml`, or a
YAML error); `allow_implicit_invocation: false` takes the skill out of the model's listing. The
findings must say exactly that: `openai-yaml-invalid` when the file is ignored, one
`openai-yaml-ignored` per dropped value, `openai-yaml-explicit-only` when the skill is not
listed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from clients import PINS, _env, installed
from recorder import Recorder

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("SKILL_LSP_BIN", str(REPO / "target" / "debug" / "skill-lsp"))
LONG = "x" * 1025

CASES = {
    "good": 'interface:\n  display_name: "PDF"\n  icon_small: "./assets/logo.png"\n  brand_color: "#3b82F6 "\ndependencies:\n  tools:\n    - type: "mcp"\n      value: "github"\n      url: 5\npolicy:\n  allow_implicit_invocation: true\n',
    "nulls": "interface: ~\npolicy: ~\ndependencies: ~\n",
    "syntax": 'interface:\n  display_name: "unclosed\n',
    "two-documents": "interface: {}\n---\ninterface: {}\n",
    "top-string": "just a string\n",
    "list-for-string": "interface:\n  short_description: [a]\n",
    "tools-null": "dependencies:\n  tools: ~\n",
    "tool-string": 'dependencies:\n  tools:\n    - "gh"\n',
    "bool-no": "policy:\n  allow_implicit_invocation: no\n",
    "bool-zero": "policy:\n  allow_implicit_invocation: 0\n",
    "explicit-only": "policy:\n  allow_implicit_invocation: False\n",
    "explicit-only-in-ignored-file": "policy:\n  allow_implicit_invocation: false\ninterface:\n  display_name: [x]\n",
    "empties": 'interface:\n  display_name: "   "\n  short_description: ""\n  brand_color: ""\n  default_prompt: ""\n  icon_large: ""\n',
    "lengths": f'interface:\n  display_name: "{"é" * 65}"\n  short_description: "{LONG}"\n  default_prompt: "{LONG}"\n',
    "at-the-limits": f'interface:\n  display_name: "{"é" * 64}"\n  short_description: "{LONG[1:]}"\n',
    "colours": 'interface:\n  brand_color: "#FFF"\n',
    "icons-outside": 'interface:\n  icon_small: "../x.png"\n  icon_large: "/abs/x.png"\n',
    "icons-elsewhere": 'interface:\n  icon_small: "./ASSETS/x.png"\n  icon_large: "x.png"\n',
    "icons-inside": 'interface:\n  icon_small: "./assets"\n  icon_large: "./assets/./sub/x.svg"\n',
    "tools-missing": 'dependencies:\n  tools:\n    - value: "gh"\n    - type: "mcp"\n      value: "  "\n',
}

IGNORED = re.compile(r"ignoring (interface\.\w+|dependencies\.tools\.\w+): ")


def codex(project: Path) -> tuple[str, str]:
    """What Codex sends as its skills instructions, and its log."""
    base = installed("codex")
    binary = base / "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
    with tempfile.TemporaryDirectory(prefix="oracle-codex-home-") as scratch, Recorder() as recorder:
        home = Path(scratch)
        env = _env(home, project, recorder.port)
        codex_home = home / ".codex"
        codex_home.mkdir()
        (codex_home / "config.toml").write_text(
            'model_provider = "mock"\nmodel = "gpt-5.1"\n'
            f'[model_providers.mock]\nname = "mock"\nbase_url = "http://127.0.0.1:{recorder.port}/v1"\n'
            'wire_api = "responses"\nenv_key = "MOCK_API_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\n'
            "[analytics]\nenabled = false\n"
        )
        env.update(CODEX_HOME=str(codex_home), MOCK_API_KEY="oracle-dummy", RUST_LOG="warn")
        done = subprocess.run(
            [str(binary), "exec", "--skip-git-repo-check", "-s", "read-only", "hello"],
            cwd=project, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
        )
        requests = list(recorder.requests)
    for _, body in requests:
        for item in body.get("input", []):
            for content in item.get("content") or []:
                if isinstance(content, dict) and "<skills_instructions>" in content.get("text", ""):
                    return content["text"], done.stderr
    raise AssertionError(f"no skills instructions in {len(requests)} requests; stderr: {done.stderr[-2000:]}")


def findings(project: Path) -> list[dict]:
    done = subprocess.run([BIN, "check", str(project), "--format", "json"], capture_output=True, text=True)
    return [d for d in json.loads(done.stdout)["diagnostics"] if d["path"].endswith("agents/openai.yaml")]


@pytest.mark.parametrize("case", sorted(CASES))
def test_openai_yaml_findings_match_codex(case, tmp_path):
    if installed("codex") is None:
        pytest.fail(f"codex {PINS['codex'][2]} is not installed: run cargo xtask clients")
    skill = tmp_path / "project" / ".agents" / "skills" / "sk"
    (skill / "agents").mkdir(parents=True)
    (skill / "assets").mkdir()
    (skill / "assets" / "logo.png").write_bytes(b"\x89PNG")
    (skill / "SKILL.md").write_text("---\nname: sk\ndescription: Fills forms. Use when asked to fill one.\n---\nBody\n")
    (skill / "agents" / "openai.yaml").write_text(CASES[case])
    listing, log = codex(tmp_path / "project")
    ours = findings(tmp_path / "project")
    rules = [d["rule"] for d in ours]
    whole_file = "invalid openai.yaml" in log
    assert whole_file == ("openai-yaml-invalid" in rules), f"Codex ignored the file: {whole_file}; ours: {ours}\n{log}"
    dropped = sorted(IGNORED.findall(log))
    said = sorted(
        re.match(r"interface\.\w+|this tool's \w+", d["message"]).group(0).replace("this tool's ", "dependencies.tools.")
        for d in ours
        if d["rule"] == "openai-yaml-ignored"
    )
    assert dropped == said, f"Codex dropped {dropped}; skill-lsp says {said}\n{log}"
    listed = "- sk:" in listing
    assert (not listed) == ("openai-yaml-explicit-only" in rules), f"listed: {listed}; ours: {rules}"
