"""Differential tests: what each real client lists to the model against what
`skill-lsp catalog --target CLIENT --format json` predicts, skill by skill (presence, name as
listed, description text as shown, order). A disagreement fails unless known_differences.json
names it, with the client version and why."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cases import SCENARIOS, materialise
from clients import CLIENTS, PINS, installed

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("SKILL_LSP_BIN", str(REPO / "target" / "debug" / "skill-lsp"))
KNOWN = json.loads((Path(__file__).parent / "known_differences.json").read_text())
REPORT = Path(os.environ.get("SKILL_LSP_ORACLE_REPORT", REPO / "target" / "oracle-report.jsonl"))


def predicted(project: Path, client: str) -> tuple[list[tuple[str, str | None]], set[str]]:
    """The listing skill-lsp predicts, and the names whose winning copy the client picks anew
    on each run (OpenCode reads skills concurrently and keeps the copy it read last)."""
    done = subprocess.run(
        [BIN, "catalog", str(project), "--target", client, "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    catalog = json.loads(done.stdout)
    varies = set()
    for item in catalog.get("omitted", []):
        match = re.search(r"keeps one skill named '(.*)' and which one varies", item["why"])
        if item["reason"] == "shadowed" and match:
            varies.add(match[1])
    return [(item["name"], item["description"]) for item in catalog["listed"]], varies


@pytest.mark.parametrize("client", sorted(CLIENTS))
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_listing_matches_the_real_client(client, scenario):
    if installed(client) is None:
        pytest.fail(f"{client} {PINS[client][2]} is not installed: run cargo xtask clients")
    # A short absolute path: Codex charges the absolute paths of its skill roots against its
    # listing budget once they pass about 36 tokens (known_differences.json), and pytest's own
    # folders are long enough to.
    scratch = Path(tempfile.mkdtemp(prefix="oracle-"))
    try:
        project = scratch / "project"
        project.mkdir()
        materialise(SCENARIOS[scenario](), project)
        real = [(item.name, item.description) for item in CLIENTS[client].run(project).listing]
        ours, varies = predicted(project, client)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if not CLIENTS[client].ordered:
        real.sort(key=lambda item: (item[0], item[1] or ""))
        ours.sort(key=lambda item: (item[0], item[1] or ""))
    known = KNOWN.get(client, {}).get(scenario, {})
    disagreements = []
    for index in range(max(len(real), len(ours))):
        theirs = real[index] if index < len(real) else None
        mine = ours[index] if index < len(ours) else None
        # A name the client keeps any copy of: the copy listed may differ.
        if theirs and mine and theirs[0] == mine[0] and mine[0] in varies:
            continue
        if theirs != mine:
            disagreements.append({"line": index, "client": theirs, "skill-lsp": mine})
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    with REPORT.open("a") as report:
        report.write(
            json.dumps(
                {
                    "client": client,
                    "version": PINS[client][2],
                    "scenario": scenario,
                    "lines": len(real),
                    "agree": max(len(real), len(ours)) - len(disagreements),
                    "differ": len(disagreements),
                }
            )
            + "\n"
        )
    unexplained = [d for d in disagreements if str(d["line"]) not in known]
    assert not unexplained, json.dumps(unexplained[:10], ensure_ascii=False, indent=1)


def _claimed_skips(project: Path, client) -> set[Path]:
    done = subprocess.run(
        [BIN, "check", str(project), "--target", client.id, "--format", "json"],
        capture_output=True,
        text=True,
    )
    words = f"{client.display} skips this skill"
    return {
        Path(item["path"]).resolve()
        for item in json.loads(done.stdout)["diagnostics"]
        if words in item["message"]
    }


@pytest.mark.parametrize("client", sorted(c for c in CLIENTS if CLIENTS[c].roots))
@pytest.mark.parametrize("scenario", ["shared-tricky", "roots-and-quirks", "duplicates-and-bodies"])
def test_check_claims_a_skip_exactly_where_the_client_skips(client, scenario):
    """`skill-lsp check --target CLIENT` says the client skips a skill for each SKILL.md the
    client refused to load (as it reported), and for no SKILL.md it loaded."""
    if installed(client) is None:
        pytest.fail(f"{client} {PINS[client][2]} is not installed: run cargo xtask clients")
    scratch = Path(tempfile.mkdtemp(prefix="oracle-"))
    try:
        project = scratch / "project"
        project.mkdir()
        materialise(SCENARIOS[scenario](), project)
        run = CLIENTS[client].run(project)
        skipped = CLIENTS[client].skipped(run, project)
        claimed = _claimed_skips(project, CLIENTS[client])
        if skipped is None:
            # The client does not say what it refused: no skill it lists may be claimed skipped.
            listed = {Path(item.path).resolve() for item in run.listing if item.path}
            wrong = sorted(str(path) for path in claimed & listed)
            assert not wrong, json.dumps({"claimed but listed": wrong}, indent=1)
            return
        # The skills the client reads: <root>/<folder>/SKILL.md, hidden folders aside.
        seen = {
            path.resolve()
            for root in CLIENTS[client].roots
            for path in (project / root).glob("*/SKILL.md")
            if not path.parent.name.startswith(".")
        }
        missing = sorted(str(path) for path in skipped - claimed)
        wrong = sorted(str(path) for path in (claimed & seen) - skipped)
        assert not missing and not wrong, json.dumps({"not claimed": missing, "claimed but loaded": wrong}, indent=1)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
