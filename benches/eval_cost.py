#!/usr/bin/env python3
"""What one trigger-eval run costs, and our own time for a 20-query x 3-run eval.

Runs `skill-lsp eval` on a copy of the bundled skills with a 20-query set for `pdf`, against the
scripted model server (examples/scripted_model, which answers at once), several times, and reports:

- our own time: the CPU time (user + system) of the skill-lsp process for the 60 runs, and its wall
  time (the server answers at once, so the wall time is our overhead plus loopback HTTP);
- the bytes of one routing request as sent (recorded by the server) and its tokens estimated as
  bytes / 4, against the published size of Claude Code's request that skill-creator's
  run_eval.py sends per run.

Usage: benches/eval_cost.py [--repeat N] [--bin PATH] [--model PATH]
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERIES = 20
RUNS = 3


def workspace(tmp: Path) -> Path:
    """The bundled skills, with pdf's set grown to 20 queries from the other skills' sets."""
    ws = tmp / "ws"
    shutil.copytree(ROOT / "skills", ws / "skills")
    cases = json.loads((ws / "skills/pdf/evals/triggers.json").read_text())
    for other in ("code-review", "mcp-builder", "agent-builder"):
        for case in json.loads((ws / "skills" / other / "evals/triggers.json").read_text()):
            seen = {known["query"] for known in cases}
            if len(cases) < QUERIES and case["should_trigger"] and case["query"] not in seen:
                cases.append({"query": case["query"], "should_trigger": False})
    assert len(cases) == QUERIES, len(cases)
    (ws / "skills/pdf/evals/triggers.json").write_text(json.dumps(cases, indent=1))
    return ws


def one_eval(bin_path: str, model_path: str, ws: Path, tmp: Path, index: int):
    script = tmp / f"script-{index}.json"
    reply = {"blocks": [{"tool": "load_skill", "id": "t1", "input": {"name": "pdf"}}]}
    script.write_text(json.dumps([reply] * (QUERIES * RUNS)))
    record = tmp / f"requests-{index}.jsonl"
    server = subprocess.Popen(
        [model_path, str(script), "--record", str(record)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = server.stdout.readline().strip()
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("OPENAI_", "ANTHROPIC_"))
        }
        env.update(ANTHROPIC_API_KEY="bench-key", ANTHROPIC_BASE_URL=url, MODEL_ID="bench-model")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [bin_path, "eval", "pdf", "--root", str(ws), "--runs", str(RUNS), "--no-cache",
             "--format", "json"],
            env=env,
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):
            sys.exit(f"skill-lsp eval failed ({done.returncode}): {done.stderr}")
        report = json.loads(done.stdout)
        assert report["run"]["requests"] == QUERIES * RUNS, report["run"]
        cpu = (after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime)
        time.sleep(0.2)  # the server appends its record every 50 ms
        bodies = [json.loads(line)["body"] for line in record.read_text().splitlines()]
        return wall, cpu, bodies
    finally:
        server.kill()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--bin", default=str(ROOT / "target/release/skill-lsp"))
    parser.add_argument("--model", default=str(ROOT / "target/release/examples/scripted_model"))
    args = parser.parse_args()
    if not (Path(args.bin).exists() and Path(args.model).exists()):
        subprocess.run(
            ["cargo", "build", "--release", "--quiet", "--bin", "skill-lsp", "--example",
             "scripted_model"],
            cwd=ROOT,
            check=True,
        )
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        ws = workspace(tmp)
        walls, cpus, sizes = [], [], []
        for index in range(args.repeat):
            wall, cpu, bodies = one_eval(args.bin, args.model, ws, tmp, index)
            walls.append(wall)
            cpus.append(cpu)
            sizes.extend(len(json.dumps(body, separators=(",", ":")).encode()) for body in bodies)
    body = statistics.median(sizes)
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{QUERIES} queries x {RUNS} runs = {QUERIES * RUNS} routing requests, {args.repeat} evals")
    user = statistics.median(cpu[0] for cpu in cpus) * 1000
    system = statistics.median(cpu[1] for cpu in cpus) * 1000
    print(f"skill-lsp CPU time per eval (median): {user:.0f} ms user + {system:.0f} ms system"
          f" (the kernel's share: a loopback connection per run, as each stream is dropped at its"
          f" first tool call, and a cache file per run)")
    print(f"skill-lsp wall time per eval: median {statistics.median(walls) * 1000:.0f} ms,"
          f" min {min(walls) * 1000:.0f} ms")
    print(f"routing request body: median {body:.0f} B (~{body / 4:.0f} tokens at 4 bytes per token)"
          f", max_tokens {json.loads(json.dumps(bodies[0]))['max_tokens']}")


if __name__ == "__main__":
    main()
