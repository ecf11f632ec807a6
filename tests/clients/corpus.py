"""A real-skill corpus through a real client and through `skill-lsp catalog --target CLIENT`.

    python3 tests/clients/corpus.py CORPUS CLIENT [--batch N] [--big N ...] [--out FILE]

CORPUS is a folder of skill folders (`CORPUS/<folder>/SKILL.md`, the folder names as their
authors wrote them: Claude Code lists skills by folder). The skills are laid out in the client's
first project root (`.claude/skills`, `.agents/skills`) in batches of N (default 50, small
enough that no client's budget cuts a description), each batch run through the client offline
and through `skill-lsp`, and compared line by line: which skills are listed, under which name,
with which text; and the order of the lines where the client keeps one. `--big N` adds one project of N
skills (each N once) for the budgets. Prints one line per batch and the totals; `--out` writes
every disagreement as JSON lines. The corpus is not part of the repository: gather one from
public skill collections (the closing notes of issue 23 say how the 3,272-skill corpus was
built) and keep it outside the clone.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clients import CLIENTS, PINS, installed  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("SKILL_LSP_BIN", str(REPO / "target" / "debug" / "skill-lsp"))


def root_of(client: str) -> str:
    return ".claude/skills" if client == "claude-code" else ".agents/skills"


def ours(project: Path, client: str) -> list[tuple[str, str | None]]:
    done = subprocess.run(
        [BIN, "catalog", str(project), "--target", client, "--format", "json"],
        capture_output=True, text=True, check=True,
    )
    return [(item["name"], item["description"]) for item in json.loads(done.stdout)["listed"]]


def compare(corpus: Path, client: str, folders: list[str]) -> dict:
    scratch = Path(tempfile.mkdtemp(prefix="corpus-"))
    try:
        project = scratch / "project"
        root = project / root_of(client)
        for folder in folders:
            (root / folder).mkdir(parents=True)
            shutil.copyfile(corpus / folder / "SKILL.md", root / folder / "SKILL.md")
        real = [(item.name, item.description) for item in CLIENTS[client].run(project, timeout=900).listing]
        mine = ours(project, client)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    # The lines both sides show, counted as a multiset (a listing may repeat a name).
    common = Counter(real) & Counter(mine)
    return {
        "skills": len(folders),
        "client_lines": len(real),
        "ours_lines": len(mine),
        "agree": sum(common.values()),
        "lines": max(len(real), len(mine)),
        "order_same": [line for line in real if line in common] == [line for line in mine if line in common]
        if CLIENTS[client].ordered
        else None,
        "only_client": sorted(set(real) - set(mine), key=str),
        "only_ours": sorted(set(mine) - set(real), key=str),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("client", choices=sorted(CLIENTS))
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--big", type=int, action="append", default=[])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if installed(args.client) is None:
        print(f"{args.client} {PINS[args.client][2]} is not installed: run cargo xtask clients", file=sys.stderr)
        return 2
    folders = sorted(p.name for p in args.corpus.iterdir() if (p / "SKILL.md").is_file())
    order = folders[:]
    random.Random(1234).shuffle(order)
    batches = [(f"b{i // args.batch:03d}", order[i : i + args.batch]) for i in range(0, len(order), args.batch)]
    batches += [(f"big{n}", random.Random(n).sample(folders, min(n, len(folders)))) for n in args.big]
    total = agree = 0
    out = args.out.open("w") if args.out else None
    for name, members in batches:
        result = compare(args.corpus, args.client, members)
        order_note = {True: "order same", False: "ORDER DIFFERS", None: "unordered"}[result["order_same"]]
        print(
            f"{name}: {result['skills']} skills, client {result['client_lines']} lines, ours {result['ours_lines']}, "
            f"lines agree {result['agree']}/{result['lines']}, {order_note}",
            flush=True,
        )
        if not name.startswith("big"):
            total += result["lines"]
            agree += result["agree"]
        if out:
            out.write(json.dumps({"batch": name, **result}, ensure_ascii=False) + "\n")
    version = PINS[args.client][2]
    print(
        f"{args.client} {version}: {agree} of {total} listed lines agree ({100 * agree / max(total, 1):.2f} %) "
        f"in batches of {args.batch}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
