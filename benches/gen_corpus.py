#!/usr/bin/env python3
"""Deterministic corpus generator for benchmarking skill linters.

Usage:
    python3 benches/gen_corpus.py OUT_DIR --skills N [--seed S] [--defect-rate R]
                                  [--broken-links K] [--commonmark] [--v1]

Writes OUT_DIR/skills/<name>/SKILL.md for N skills (average SKILL.md about
6.6 KB, so 10,000 skills are about 66 MB), plus, for some skills, a
references/*.md or scripts/*.py file that the body links to.  About 10 % of
the skills carry exactly one defect each (see DEFECTS); OUT_DIR/defects.tsv
lists which skill has which defect, and a summary is printed at the end.

With --broken-links K, every skill's body also links to K files that do not exist
(references/absent-1.md ...), one `broken-link` finding each: a corpus whose
findings outnumber its skills, for measuring what findings cost.

Corpus v2 (the default): every skill also ships what real skills ship, 1-3 scripts
(argparse CLIs, subprocess wrappers, clients of named HTTPS APIs, shell setup scripts) and
1-2 references, mostly benign, a few with what the security rules warn about (a download
piped into a shell, `rm -rf "$VAR/"`).  They come from a random stream of their own, so the
SKILL.md files are byte-identical to v1's (`--v1` writes v1, without them).

With --commonmark, every non-empty body also names its bundled files in code spans and links
to its references (as real skills do), so every body needs the CommonMark pass; the SKILL.md
files then differ from the plain corpus's in those lines only.

The same N, seed, defect rate, K and flags always give byte-identical output.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import sys
import time
from collections import Counter

MARKER = ".skill-bench-corpus"

DEFECTS = [
    "colon_in_description",  # description: Use when: the user asks ...
    "name_mismatch",  # name differs from the folder name
    "uppercase_name",  # name (and folder) contain uppercase letters
    "missing_description",
    "long_description",  # description > 1024 chars
    "unknown_key",  # version: 1.0  or  descripton: (typo)
    "bom",  # UTF-8 BOM before the opening ---
    "crlf",  # CRLF line endings
    "broken_link",  # link to a references/ file that does not exist
    "flow_list",  # allowed-tools: [Read, Grep]
    "argument_hint_list",  # argument-hint: [file]
    "tab_indent",  # tab used for indentation in the frontmatter
    "blank_line_before_frontmatter",
    "duplicate_key",
    "empty_body",
]

# --------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------

DOMAINS = [
    # (slug, display noun, file/artifact words)
    ("pdf", "PDF documents", ["PDF files", "forms", "scanned pages"]),
    ("excel", "Excel spreadsheets", [".xlsx workbooks", "pivot tables", "formulas"]),
    ("docx", "Word documents", [".docx files", "tracked changes", "comments"]),
    ("pptx", "PowerPoint decks", ["slides", "speaker notes", "layouts"]),
    ("csv", "CSV data", ["CSV exports", "delimited files", "column headers"]),
    ("json-schema", "JSON Schema definitions", ["schemas", "payloads", "$ref pointers"]),
    ("git", "Git repositories", ["commits", "branches", "merge conflicts"]),
    ("docker", "Docker images", ["Dockerfiles", "containers", "image layers"]),
    ("kubernetes", "Kubernetes manifests", ["deployments", "Helm charts", "pods"]),
    ("terraform", "Terraform modules", ["plans", "state files", "providers"]),
    ("postgres", "PostgreSQL databases", ["queries", "indexes", "migrations"]),
    ("sql", "SQL queries", ["joins", "query plans", "views"]),
    ("graphql", "GraphQL APIs", ["schemas", "resolvers", "queries"]),
    ("rest-api", "REST APIs", ["endpoints", "OpenAPI specs", "status codes"]),
    ("react", "React components", ["hooks", "props", "component trees"]),
    ("css", "CSS stylesheets", ["selectors", "design tokens", "layouts"]),
    ("accessibility", "web accessibility", ["ARIA roles", "contrast ratios", "screen readers"]),
    ("i18n", "translations", ["locale files", "message catalogs", "plural rules"]),
    ("logging", "application logs", ["log lines", "stack traces", "log levels"]),
    ("metrics", "service metrics", ["dashboards", "alerts", "time series"]),
    ("changelog", "changelogs", ["release entries", "version headings", "commit messages"]),
    ("release", "software releases", ["release notes", "tags", "artifacts"]),
    ("code-review", "code reviews", ["pull requests", "diffs", "review comments"]),
    ("unit-test", "unit tests", ["test cases", "fixtures", "assertions"]),
    ("benchmark", "benchmarks", ["timings", "baselines", "regressions"]),
    ("security", "security audits", ["vulnerabilities", "secrets", "dependencies"]),
    ("dependency", "dependency updates", ["lock files", "version ranges", "advisories"]),
    ("migration", "data migrations", ["schema changes", "backfills", "rollbacks"]),
    ("onboarding", "onboarding guides", ["checklists", "setup steps", "FAQs"]),
    ("brand", "brand guidelines", ["logos", "color palettes", "typography"]),
    ("slack", "Slack messages", ["threads", "announcements", "channels"]),
    ("email", "email drafts", ["replies", "follow-ups", "newsletters"]),
    ("meeting", "meeting notes", ["agendas", "action items", "decisions"]),
    ("invoice", "invoices", ["line items", "totals", "tax rates"]),
    ("data-cleaning", "tabular data", ["missing values", "duplicates", "outliers"]),
    ("chart", "charts", ["bar charts", "axes", "legends"]),
    ("image", "images", ["PNG files", "thumbnails", "EXIF data"]),
    ("video", "videos", ["clips", "subtitles", "codecs"]),
    ("audio", "audio recordings", ["transcripts", "waveforms", "speakers"]),
    ("web-scraping", "web pages", ["HTML", "selectors", "pagination"]),
    ("seo", "search optimization", ["meta tags", "sitemaps", "keywords"]),
    ("markdown", "Markdown documents", ["headings", "tables", "links"]),
    ("latex", "LaTeX papers", ["equations", "bibliographies", "figures"]),
    ("notebook", "Jupyter notebooks", ["cells", "outputs", "kernels"]),
    ("pandas", "pandas dataframes", ["columns", "group-bys", "merges"]),
    ("rust-crate", "Rust crates", ["Cargo.toml files", "features", "doc comments"]),
    ("python-package", "Python packages", ["pyproject.toml files", "wheels", "entry points"]),
    ("npm", "npm packages", ["package.json files", "scripts", "exports"]),
    ("ci", "CI pipelines", ["workflows", "jobs", "caches"]),
    ("github-actions", "GitHub Actions workflows", ["YAML workflows", "runners", "secrets"]),
    ("incident", "incident postmortems", ["timelines", "root causes", "follow-ups"]),
    ("runbook", "on-call runbooks", ["alerts", "mitigation steps", "escalations"]),
    ("feature-flag", "feature flags", ["rollouts", "targeting rules", "kill switches"]),
    ("ab-test", "A/B experiments", ["variants", "metrics", "sample sizes"]),
    ("support", "customer support tickets", ["replies", "macros", "escalations"]),
    ("forecast", "sales forecasts", ["pipelines", "quotas", "trends"]),
    ("contract", "contracts", ["clauses", "redlines", "signatures"]),
    ("privacy", "privacy policies", ["data flows", "retention rules", "consent"]),
    ("calendar", "calendars", ["events", "time zones", "availability"]),
    ("sqlite", "SQLite databases", ["tables", "pragmas", "WAL files"]),
]

ACTIONS = [
    ("processing", "process"), ("review", "review"), ("generator", "generate"),
    ("formatting", "format"), ("analysis", "analyze"), ("validation", "validate"),
    ("migration", "migrate"), ("cleanup", "clean up"), ("summarizer", "summarize"),
    ("writer", "write"), ("editor", "edit"), ("converter", "convert"),
    ("extractor", "extract"), ("linter", "lint"), ("debugging", "debug"),
    ("optimizer", "optimize"), ("reporting", "report on"), ("auditing", "audit"),
    ("builder", "build"), ("helper", "work with"), ("triage", "triage"),
    ("templates", "template"), ("checker", "check"), ("planner", "plan"),
    ("explainer", "explain"),
]

QUALIFIERS = [
    "", "", "", "", "team", "internal", "quick", "advanced", "legacy", "batch",
    "safe", "local", "cloud", "daily", "minimal", "strict", "bulk", "smart",
]

HEADINGS = [
    "Overview", "Quick start", "Instructions", "Workflow", "Examples",
    "Guidelines", "Common pitfalls", "Troubleshooting", "Output format",
    "Validation", "Checklist", "Advanced usage", "Reference", "Notes",
    "Step-by-step", "Inputs", "Outputs", "Conventions", "Edge cases",
    "Performance tips", "Before you start", "Verification", "Error handling",
]

SUBHEADINGS = [
    "Setup", "Basic usage", "Options", "Example", "When to stop", "Tips",
    "Configuration", "Gotchas", "Variants", "Result", "Cleanup", "Dry run",
]

SUBJECTS = [
    "The agent", "Claude", "The script", "This skill", "The workflow", "Each step",
    "The user", "The reviewer", "A good result", "The first pass", "The final check",
    "The helper", "A typical run", "The template", "The output",
]
VERBS = [
    "reads", "checks", "collects", "rewrites", "groups", "compares", "records",
    "validates", "summarizes", "normalizes", "lists", "highlights", "sorts",
    "filters", "splits", "merges", "annotates", "prints", "preserves", "skips",
]
OBJECTS = [
    "all of the {a}", "the relevant {a}", "the {t} in the working directory",
    "all {a} that changed", "the largest {a}", "each of the {a}",
    "the {a} named by the user", "only the {a} that fail", "the {t} before editing",
    "the existing {a}", "the {a} listed in the request", "any stale {a}",
]
TAILS = [
    "before it changes anything", "so that nothing is lost", "and reports what it found",
    "in a single pass", "without touching unrelated files", "and keeps the original order",
    "unless the user asks otherwise", "and stops at the first hard error",
    "using the bundled script", "so the result can be reviewed", "in a predictable order",
    "and writes a short summary", "while keeping a backup", "to keep the diff small",
    "and explains each change", "when the input is large",
]
ADVICE = [
    "Prefer small, reviewable changes over large rewrites.",
    "Ask for confirmation before deleting anything.",
    "Keep the original file until the new one has been verified.",
    "If the input is ambiguous, state the assumption you made.",
    "Do not guess values that are missing; report them instead.",
    "Run the validation step again after every fix.",
    "Quote the exact error message when something fails.",
    "Use `--dry-run` first when the command supports it.",
    "Favor the standard library over new dependencies.",
    "Report numbers with their units.",
    "Never commit credentials or tokens.",
    "Keep the output under 200 lines unless asked for more.",
    "When in doubt, choose the conservative option.",
    "Link to the source of every claim in the summary.",
    "Write dates in ISO 8601 format (YYYY-MM-DD).",
]

CODE_SNIPPETS = {
    "python": [
        "import json\nfrom pathlib import Path\n\n\ndef load(path: str) -> dict:\n    with open(path, encoding=\"utf-8\") as f:\n        return json.load(f)\n\n\nfor item in load(\"input.json\")[\"items\"]:\n    print(item[\"id\"], item.get(\"status\", \"unknown\"))\n",
        "import csv\n\nrows = []\nwith open(\"data.csv\", newline=\"\") as f:\n    for row in csv.DictReader(f):\n        if row[\"amount\"]:\n            rows.append(row)\nprint(f\"kept {len(rows)} rows\")\n",
        "from collections import Counter\n\ncounts = Counter(line.split()[0] for line in open(\"app.log\") if line.strip())\nfor level, n in counts.most_common():\n    print(f\"{level:>8} {n}\")\n",
        "import subprocess\n\nresult = subprocess.run([\"git\", \"status\", \"--porcelain\"], capture_output=True, text=True, check=True)\nchanged = [line[3:] for line in result.stdout.splitlines()]\nprint(\"\\n\".join(changed) or \"clean\")\n",
        "def chunk(items, size=100):\n    for i in range(0, len(items), size):\n        yield items[i:i + size]\n\n\nfor batch in chunk(list(range(1000))):\n    process(batch)\n",
    ],
    "bash": [
        "set -euo pipefail\nfind . -name '*.md' -print0 | xargs -0 wc -l | sort -n | tail -5\n",
        "git fetch origin\ngit checkout -b fix/update-docs origin/main\ngit diff --stat origin/main...HEAD\n",
        "python3 scripts/check.py --input ./data --report report.md\necho \"exit code: $?\"\n",
        "docker build -t app:dev .\ndocker run --rm -p 8080:8080 app:dev\n",
        "jq '.items[] | select(.status == \"failed\") | .id' results.json\n",
    ],
    "json": [
        "{\n  \"name\": \"example\",\n  \"version\": \"1.2.0\",\n  \"items\": [\n    {\"id\": 1, \"status\": \"ok\"},\n    {\"id\": 2, \"status\": \"failed\"}\n  ]\n}\n",
        "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"type\": \"object\",\n  \"required\": [\"id\", \"title\"],\n  \"properties\": {\n    \"id\": {\"type\": \"integer\"},\n    \"title\": {\"type\": \"string\"}\n  }\n}\n",
    ],
    "yaml": [
        "steps:\n  - name: checkout\n    uses: actions/checkout@v4\n  - name: test\n    run: make test\n",
        "service:\n  name: api\n  replicas: 3\n  env:\n    LOG_LEVEL: info\n",
    ],
    "text": [
        "Summary: 3 files changed, 2 warnings, 0 errors\n- report.md: updated\n- data.csv: 12 rows removed (duplicates)\n",
        "PASS  checks/format\nFAIL  checks/links (2 broken)\nPASS  checks/size\n",
    ],
}
CODE_LANGS = list(CODE_SNIPPETS)

LICENSES = ["MIT", "Apache-2.0", "Proprietary. LICENSE.txt has complete terms", "BSD-3-Clause"]
COMPAT = [
    "Requires Python 3.10+ and network access",
    "Designed for Claude Code (or similar products)",
    "Requires git and a POSIX shell",
]
ALLOWED_TOOLS = ["Read Grep Glob", "Bash(git:*) Read", "Read Write Edit", "Bash(python3:*) Read Grep"]
AUTHORS = ["example-org", "platform-team", "docs-guild", "data-eng", "acme"]


# --------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------


class Pools:
    """Pre-generated text fragments, so per-skill work is mostly joins."""

    def __init__(self, rng: random.Random):
        # Sentences keep "{t}" / "{a}" placeholders that are filled per skill.
        self.sentences = []
        for _ in range(4000):
            obj = rng.choice(OBJECTS)
            s = f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {obj} {rng.choice(TAILS)}."
            self.sentences.append(s)
        self.sentences.extend(ADVICE)
        self.paragraphs = []
        for _ in range(3000):
            k = rng.randint(2, 6)
            self.paragraphs.append(" ".join(rng.choice(self.sentences) for _ in range(k)))
        self.bullets = []
        for _ in range(2000):
            k = rng.randint(3, 6)
            items = []
            for _ in range(k):
                s = rng.choice(self.sentences)
                if rng.random() < 0.3:
                    w = s.split(" ", 2)
                    s = f"**{w[0]} {w[1]}** {w[2]}" if len(w) == 3 else s
                items.append(s)
            self.bullets.append(items)


def make_names(n: int, rng: random.Random):
    names = []
    seen = set()
    for i in range(n):
        for attempt in range(20):
            d = rng.randrange(len(DOMAINS))
            a = rng.randrange(len(ACTIONS))
            q = rng.choice(QUALIFIERS)
            parts = [q] if q else []
            parts += [DOMAINS[d][0], ACTIONS[a][0]]
            name = "-".join(parts)
            if attempt >= 10:
                name = f"{name}-{i}"
            if name not in seen:
                break
        seen.add(name)
        names.append((name, d, a))
    return names


def fill(text: str, topic: str, artifact: str) -> str:
    return text.replace("{t}", topic).replace("{a}", artifact)


def make_description(rng, topic, artifacts, verb, lo=100, hi=600, plain=True):
    a0, a1, a2 = artifacts
    what = rng.choice([
        f"{verb.capitalize()} {topic}, including {a0}, {a1} and {a2}.",
        f"Helps {verb} {topic} and their {a0}; produces a short report of what changed.",
        f"Tools and guidance to {verb} {topic} safely, with checks for {a1} and {a2}.",
        f"Consistent workflow to {verb} {a0} in {topic}, with a final validation step.",
    ])
    when = rng.choice([
        f"Use when the user asks to {verb} {topic} or mentions {a0}.",
        f"Use when working with {a0}, {a1} or {a2}, or when the user mentions {topic}.",
        f"Use when a task involves {topic} and the user wants a reviewable result.",
        f"Use when the request mentions {a1} or asks for help with {topic}.",
    ])
    extras = [
        f"Also covers {a2} and common mistakes with {a1}.",
        f"Works on single files and whole folders of {a0}.",
        f"Keeps the original {a0} untouched until the result is verified.",
        "Reports problems with exact locations so they can be fixed quickly.",
        f"Do not use for unrelated {a2} work.",
        "Prefers small, reviewable steps and explains each change.",
    ]
    target = rng.randint(lo, hi)
    desc = f"{what} {when}"
    i = rng.randrange(len(extras))
    while len(desc) < target:
        desc += " " + extras[i % len(extras)]
        i += 1
    if len(desc) > hi:
        cut = desc.rfind(". ", 0, hi)
        desc = desc[: cut + 1] if cut >= lo else desc[:hi].rstrip()
    if plain:
        # keep it a safe YAML plain scalar
        desc = desc.replace(": ", " - ").replace(" #", " no. ")
    return desc


def yaml_description(rng, desc):
    r = rng.random()
    if r < 0.75:
        return [f"description: {desc}"]
    if r < 0.88:
        esc = desc.replace("\\", "\\\\").replace('"', '\\"')
        return [f'description: "{esc}"']
    # folded block scalar, wrapped at ~80 columns
    lines, cur = [], ""
    for w in desc.split(" "):
        if cur and len(cur) + 1 + len(w) > 78:
            lines.append("  " + cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append("  " + cur)
    return ["description: >-"] + lines


def kind_of(x: float) -> str:
    if x < 0.38:
        return "para"
    if x < 0.56:
        return "ul"
    if x < 0.70:
        return "ol"
    if 0.92 <= x < 0.96:
        return "quote"
    return "other"


def make_body(rng, pools, title, topic, artifacts, target, links):
    """Markdown body of roughly `target` bytes; `links` are (text, href) pairs."""
    out = [f"# {title}\n\n"]
    size = len(out[0])
    intro = fill(rng.choice(pools.paragraphs), topic, rng.choice(artifacts))
    out.append(intro + "\n")
    size += len(intro)
    headings = rng.sample(HEADINGS, k=len(HEADINGS))
    hi = 0
    while size < target:
        h = headings[hi % len(headings)]
        if hi >= len(headings):
            h = f"{h} (part {hi // len(headings) + 1})"
        hi += 1
        block = [f"\n## {h}\n"]
        prev = None
        for _ in range(rng.randint(1, 4)):
            art = rng.choice(artifacts)
            kind = rng.random()
            # Two lists or quotes in a row would merge into one in Markdown.
            while prev is not None and prev != "para" and kind_of(kind) == prev:
                kind = rng.random()
            prev = kind_of(kind)
            if kind < 0.38:
                block.append("\n" + fill(rng.choice(pools.paragraphs), topic, art) + "\n")
            elif kind < 0.56:
                items = rng.choice(pools.bullets)
                block.append("\n" + "".join(f"- {fill(s, topic, art)}\n" for s in items))
            elif kind < 0.70:
                items = rng.choice(pools.bullets)
                block.append("\n" + "".join(f"{j}. {fill(s, topic, art)}\n" for j, s in enumerate(items, 1)))
            elif kind < 0.86:
                lang = rng.choice(CODE_LANGS)
                code = rng.choice(CODE_SNIPPETS[lang])
                block.append(f"\n```{lang}\n{code}```\n")
            elif kind < 0.92:
                block.append(
                    "\n| Input | Action | Result |\n| --- | --- | --- |\n"
                    + "".join(
                        f"| {a} | {rng.choice(VERBS)} | {rng.choice(['ok', 'warning', 'error', 'skipped'])} |\n"
                        for a in rng.sample(artifacts, 3)
                    )
                )
            elif kind < 0.96:
                block.append(f"\n> **Note:** {rng.choice(ADVICE)}\n")
            else:
                sub = f"{rng.choice(SUBHEADINGS)} for {h.lower()}"
                block.append(f"\n### {sub}\n\n" + fill(rng.choice(pools.paragraphs), topic, art) + "\n")
        s = "".join(block)
        out.append(s)
        size += len(s)
    if links:
        s = "\n## Additional resources\n\n" + "".join(f"- See [{t}]({h}) for details.\n" for t, h in links)
        out.append(s)
    return "".join(out)


def make_reference(rng, pools, topic, artifacts, title):
    parts = [f"# {title}\n\n## Contents\n\n- Details\n- Examples\n\n## Details\n\n"]
    for _ in range(rng.randint(2, 5)):
        parts.append(fill(rng.choice(pools.paragraphs), topic, rng.choice(artifacts)) + "\n\n")
    lang = rng.choice(CODE_LANGS)
    parts.append(f"## Examples\n\n```{lang}\n{rng.choice(CODE_SNIPPETS[lang])}```\n")
    return "".join(parts)


def make_script(rng, name, topic):
    return (
        "#!/usr/bin/env python3\n"
        f'"""Helper for the {name} skill: checks {topic}."""\n\n'
        "import argparse\nimport sys\nfrom pathlib import Path\n\n\n"
        "def main() -> int:\n"
        "    p = argparse.ArgumentParser()\n"
        '    p.add_argument("paths", nargs="+")\n'
        '    p.add_argument("--dry-run", action="store_true")\n'
        "    args = p.parse_args()\n"
        "    bad = 0\n"
        "    for path in map(Path, args.paths):\n"
        "        if not path.exists():\n"
        '            print(f"missing: {path}", file=sys.stderr)\n'
        "            bad += 1\n"
        "    return 1 if bad else 0\n\n\n"
        'if __name__ == "__main__":\n'
        "    sys.exit(main())\n"
    )


# --------------------------------------------------------------------------
# Corpus v2: the scripts and references real skills ship
# --------------------------------------------------------------------------

# Named HTTPS APIs the clients talk to, with the variable their key comes from.
APIS = [
    ("https://api.github.com", "GITHUB_TOKEN", "repos/{org}/{repo}/issues"),
    ("https://api.openai.com/v1", "OPENAI_API_KEY", "models"),
    ("https://slack.com/api", "SLACK_BOT_TOKEN", "conversations.list"),
    ("https://api.notion.com/v1", "NOTION_TOKEN", "databases/{repo}/query"),
    ("https://api.stripe.com/v1", "STRIPE_API_KEY", "invoices"),
    ("https://www.googleapis.com/drive/v3", "GOOGLE_API_KEY", "files"),
    ("https://api.linear.app", "LINEAR_API_KEY", "graphql"),
    ("https://api.atlassian.com", "JIRA_TOKEN", "ex/jira/{repo}/rest/api/3/search"),
    ("https://api.pagerduty.com", "PAGERDUTY_TOKEN", "incidents"),
    ("https://sentry.io/api/0", "SENTRY_AUTH_TOKEN", "projects/{org}/{repo}/issues/"),
]
TOOLS = ["git", "pandoc", "ffmpeg", "jq", "rg", "npx", "docker", "kubectl", "terraform", "psql", "sqlite3", "convert"]
ORGS = ["acme", "example-org", "platform-team", "data-eng", "docs-guild"]
PY_IMPORTS = ["json", "csv", "re", "sys", "os", "shutil", "logging", "hashlib", "datetime", "textwrap", "itertools"]
PY_LINES = [
    "    if not {v}:\n        return []\n",
    "    {v} = [x.strip() for x in {v} if x.strip()]\n",
    "    logging.debug(\"%d {a} left\", len({v}))\n",
    "    {v}.sort(key=lambda x: x.get(\"name\", \"\"))\n",
    "    seen = set()\n    {v} = [x for x in {v} if not (x[\"id\"] in seen or seen.add(x[\"id\"]))]\n",
    "    for i, item in enumerate({v}):\n        item[\"index\"] = i\n",
    "    total = sum(float(x.get(\"amount\") or 0) for x in {v})\n",
    "    {v} = {k: v for k, v in {v}.items() if v is not None}\n",
    "    out = Path(args.out) / \"{a}.json\"\n    out.write_text(json.dumps({v}, indent=2), encoding=\"utf-8\")\n",
    "    text = textwrap.dedent(text).strip()\n",
    "    if len({v}) > args.limit:\n        {v} = {v}[: args.limit]\n",
    "    digest = hashlib.sha256(json.dumps({v}).encode()).hexdigest()[:12]\n",
]


def ident(words: str) -> str:
    return "_".join(w for w in words.lower().replace("-", " ").replace(".", " ").split() if w.isalnum())


def py_helpers(rng, artifacts, count):
    out = []
    for _ in range(count):
        verb = rng.choice(VERBS).rstrip("s")
        art = ident(rng.choice(artifacts)) or "items"
        v = art.split("_")[0] or "items"
        body = "".join(fill(rng.choice(PY_LINES), "", art).replace("{v}", v) for _ in range(rng.randint(2, 5)))
        body = body.replace("{a}", art)
        out.append(
            f"def {verb}_{art}({v}, args):\n"
            f'    """{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(artifacts)} {rng.choice(TAILS)}."""\n'
            f"{body}    return {v}\n\n\n"
        )
    return "".join(out)


def py_cli(rng, name, topic, artifacts):
    imports = sorted(set(rng.sample(PY_IMPORTS, 4)) | {"argparse", "json", "logging", "sys"})
    helpers = py_helpers(rng, artifacts, rng.randint(2, 6))
    return (
        "#!/usr/bin/env python3\n"
        f'"""{name}: {rng.choice(VERBS)} {topic} from the command line.\n\n'
        f"Usage: python3 scripts/<this> INPUT [--out DIR] [--limit N]\n" + '"""\n\n'
        + "".join(f"import {m}\n" for m in imports)
        + "from pathlib import Path\n\n\n"
        + helpers
        + "def main(argv=None) -> int:\n"
        "    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])\n"
        '    p.add_argument("input", help="file or folder to read")\n'
        '    p.add_argument("--out", default="out", help="where to write results")\n'
        '    p.add_argument("--limit", type=int, default=500)\n'
        '    p.add_argument("--verbose", action="store_true")\n'
        "    args = p.parse_args(argv)\n"
        "    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO)\n"
        "    path = Path(args.input)\n"
        "    if not path.exists():\n"
        '        print(f"error: {path} not found", file=sys.stderr)\n'
        "        return 2\n"
        '    data = json.loads(path.read_text(encoding="utf-8")) if path.suffix == ".json" else path.read_text().splitlines()\n'
        '    print(json.dumps({"input": str(path), "count": len(data)}))\n'
        "    return 0\n\n\n"
        'if __name__ == "__main__":\n'
        "    sys.exit(main())\n"
    )


def py_api(rng, name, topic, artifacts):
    base, var, route = rng.choice(APIS)
    route = route.format(org=rng.choice(ORGS), repo=ident(rng.choice(artifacts)) or "main")
    helpers = py_helpers(rng, artifacts, rng.randint(1, 4))
    return (
        "#!/usr/bin/env python3\n"
        f'"""Fetch {topic} for the {name} skill from {base}."""\n\n'
        "import argparse\nimport json\nimport logging\nimport os\nimport sys\nimport time\nfrom pathlib import Path\n\n"
        "import requests\n\n"
        f'API = "{base}"\n'
        f'TOKEN = os.environ.get("{var}")\n\n\n'
        + helpers
        + "def get(route: str, params=None, retries: int = 3) -> dict:\n"
        '    headers = {"Accept": "application/json"}\n'
        "    if TOKEN:\n"
        '        headers["Authorization"] = f"Bearer {TOKEN}"\n'
        "    for attempt in range(retries):\n"
        '        r = requests.get(f"{API}/{route}", headers=headers, params=params, timeout=30)\n'
        "        if r.status_code == 429:\n"
        "            time.sleep(2**attempt)\n"
        "            continue\n"
        "        r.raise_for_status()\n"
        "        return r.json()\n"
        '    raise RuntimeError(f"{route}: rate limited")\n\n\n'
        "def main() -> int:\n"
        "    p = argparse.ArgumentParser()\n"
        '    p.add_argument("--out", default="results.json")\n'
        '    p.add_argument("--page-size", type=int, default=50)\n'
        "    args = p.parse_args()\n"
        "    if not TOKEN:\n"
        f'        print("set {var} first", file=sys.stderr)\n'
        "        return 2\n"
        f'    data = get("{route}", {{"per_page": args.page_size}})\n'
        '    Path(args.out).write_text(json.dumps(data, indent=2), encoding="utf-8")\n'
        '    logging.info("wrote %s", args.out)\n'
        "    return 0\n\n\n"
        'if __name__ == "__main__":\n'
        "    sys.exit(main())\n"
    )


def py_subprocess(rng, name, topic, artifacts):
    tool = rng.choice(TOOLS)
    helpers = py_helpers(rng, artifacts, rng.randint(1, 4))
    return (
        "#!/usr/bin/env python3\n"
        f'"""Run {tool} over {topic} and collect what it reports."""\n\n'
        "import argparse\nimport json\nimport logging\nimport shutil\nimport subprocess\nimport sys\nfrom pathlib import Path\n\n\n"
        + helpers
        + "def run(args: list[str], cwd: Path) -> str:\n"
        '    logging.debug("running %s", " ".join(args))\n'
        "    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)\n"
        "    if result.returncode != 0:\n"
        '        raise SystemExit(f"{args[0]} failed: {result.stderr.strip()}")\n'
        "    return result.stdout\n\n\n"
        "def main() -> int:\n"
        "    p = argparse.ArgumentParser()\n"
        '    p.add_argument("folder", nargs="?", default=".")\n'
        '    p.add_argument("--json", action="store_true")\n'
        "    args = p.parse_args()\n"
        f'    if shutil.which("{tool}") is None:\n'
        f'        print("{tool} is not installed", file=sys.stderr)\n'
        "        return 2\n"
        f'    out = run(["{tool}", "--version"], Path(args.folder))\n'
        '    print(json.dumps({"version": out.strip()}) if args.json else out)\n'
        "    return 0\n\n\n"
        'if __name__ == "__main__":\n'
        "    sys.exit(main())\n"
    )


def sh_setup(rng, name, topic, artifacts):
    lines = [
        "#!/usr/bin/env bash\n",
        f"# Set up what the {name} skill needs: a virtualenv and its Python packages.\n",
        "set -euo pipefail\n\n",
        'HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\n',
        f'CACHE="${{XDG_CACHE_HOME:-$HOME/.cache}}/{name}"\n',
        'mkdir -p "$CACHE"\n\n',
        'if [ ! -d "$HERE/.venv" ]; then\n  python3 -m venv "$HERE/.venv"\nfi\n',
        '. "$HERE/.venv/bin/activate"\n',
        'pip install --quiet --upgrade pip\n',
        'pip install --quiet -r "$HERE/requirements.txt"\n\n',
    ]
    tool = rng.choice(TOOLS)
    lines.append(f'command -v {tool} >/dev/null 2>&1 || echo "note: {tool} not found; some steps will be skipped" >&2\n')
    risk = rng.random()
    if risk < 0.03:
        # What the remote-code rule warns about; real setup scripts do it.
        lines.append(f"curl -fsSL https://raw.githubusercontent.com/{rng.choice(ORGS)}/{ident(topic) or 'tool'}/main/install.sh | bash\n")
    elif risk < 0.05:
        lines.append('rm -rf "$BUILD_DIR/"\n')
    for _ in range(rng.randint(1, 4)):
        lines.append(f'echo "{fill(rng.choice(ADVICE), topic, rng.choice(artifacts))}"\n')
    lines.append('echo "ready: $CACHE"\n')
    return "".join(lines)


def sh_run(rng, name, topic, artifacts):
    return (
        "#!/bin/sh\n"
        f"# Run the {name} checks over every file given, or the current folder.\n"
        "set -eu\n\n"
        'status=0\n'
        'for f in "${@:-.}"; do\n'
        '  if [ ! -e "$f" ]; then\n    echo "missing: $f" >&2\n    status=1\n    continue\n  fi\n'
        f'  find "$f" -type f -name "*.{rng.choice(["md", "json", "csv", "py", "yaml"])}" | while read -r file; do\n'
        '    wc -l "$file"\n'
        "  done\n"
        "done\n"
        'exit "$status"\n'
    )


SCRIPT_KINDS = [(py_cli, "py", 0.40), (py_api, "py", 0.20), (py_subprocess, "py", 0.15), (sh_setup, "sh", 0.15), (sh_run, "sh", 0.10)]
SCRIPT_STEMS = ["extract", "convert", "validate", "fetch", "report", "sync", "check", "build", "clean", "summarize", "export", "setup", "run"]
REFERENCE_STEMS = ["guide", "api-notes", "workflow", "schema", "faq", "style", "cheatsheet", "patterns", "glossary", "limits"]


def pick_kind(rng):
    x = rng.random()
    for make, ext, p in SCRIPT_KINDS:
        if x < p:
            return make, ext
        x -= p
    return SCRIPT_KINDS[-1][:2]


def make_long_reference(rng, pools, topic, artifacts, title, siblings):
    parts = [f"# {title}\n\n"]
    parts.append(fill(rng.choice(pools.paragraphs), topic, rng.choice(artifacts)) + "\n\n")
    for h in rng.sample(HEADINGS, rng.randint(2, 6)):
        parts.append(f"## {h}\n\n")
        for _ in range(rng.randint(1, 3)):
            x = rng.random()
            art = rng.choice(artifacts)
            if x < 0.45:
                parts.append(fill(rng.choice(pools.paragraphs), topic, art) + "\n\n")
            elif x < 0.65:
                parts.append("".join(f"- {fill(s, topic, art)}\n" for s in rng.choice(pools.bullets)) + "\n")
            elif x < 0.85:
                lang = rng.choice(CODE_LANGS)
                parts.append(f"```{lang}\n{rng.choice(CODE_SNIPPETS[lang])}```\n\n")
            elif x < 0.93:
                parts.append("| Field | Meaning |\n| --- | --- |\n" + "".join(
                    f"| `{ident(a) or 'field'}` | {rng.choice(pools.sentences)} |\n" for a in artifacts) + "\n")
            else:
                base = rng.choice(APIS)[0]
                parts.append(f"See the [upstream documentation]({base}/docs) for limits and errors.\n\n")
    if siblings:
        parts.append("## See also\n\n" + "".join(f"- [{s}]({s.split('/')[-1]})\n" for s in siblings))
    return "".join(parts)


def make_extras(rng, pools, name, topic, artifacts, taken):
    """The scripts and references of one v2 skill: {relative path: text}."""
    files = {}
    for _ in range(rng.randint(1, 3)):
        make, ext = pick_kind(rng)
        rel = f"scripts/{rng.choice(SCRIPT_STEMS)}_{ident(rng.choice(artifacts)) or 'data'}.{ext}"
        if rel not in taken and rel not in files:
            files[rel] = make(rng, name, topic, artifacts)
    refs = []
    for _ in range(rng.randint(1, 2)):
        rel = f"references/{rng.choice(REFERENCE_STEMS)}.md"
        if rel not in taken and rel not in files and rel not in refs:
            refs.append(rel)
    for rel in refs:
        title = f"{topic.capitalize()}: {rel[11:-3].replace('-', ' ')}"
        files[rel] = make_long_reference(rng, pools, topic, artifacts, title, [r for r in refs if r != rel])
    return files


BUNDLED_NOTES = [
    "run it with `--help` for its options.",
    "reads the input and prints a summary.",
    "safe to run twice.",
    "needs Python 3.10 or later.",
    "writes nothing unless `--out` is given.",
]


def commonmark_lines(rng, extras):
    """What a body says of its bundled files, in code spans and links, as real skills do:
    (a sentence after the intro, a closing section)."""
    scripts = [p for p in extras if p.startswith("scripts/")]
    refs = [p for p in extras if p.startswith("references/")]
    lead = []
    if scripts:
        lead.append(f"Start with `{scripts[0]}`; it {rng.choice(VERBS)} the input {rng.choice(TAILS)}.")
    if refs:
        lead.append(f"The details are in [{refs[0][11:]}]({refs[0]}).")
    section = ["\n## Bundled files\n\n"]
    for p in scripts:
        section.append(f"- `{p}`: {rng.choice(BUNDLED_NOTES)}\n")
    for p in refs:
        section.append(f"- [{p}]({p}) {rng.choice(['for details', 'when in doubt', 'for the full list'])}.\n")
    return " ".join(lead), "".join(section)



def generate(out_dir: str, n: int, seed: int, defect_rate: float, size_kb: float, broken_links: int = 0,
             v2: bool = True, commonmark: bool = False):
    rng = random.Random(seed)
    pools = Pools(random.Random(seed ^ 0x5EED))
    names = make_names(n, rng)
    # lognormal body size with mean ~= size_kb KB (sigma 0.55)
    sigma = 0.55
    # Generated files overshoot the body target by roughly half a block plus
    # the frontmatter and resources section; compensate.
    mean_target = size_kb * 1024 - 880
    mu = math.log(max(mean_target, 500)) - sigma * sigma / 2

    skills_dir = os.path.join(out_dir, "skills")
    if os.path.isdir(skills_dir) and os.listdir(skills_dir):
        if not os.path.exists(os.path.join(out_dir, MARKER)):
            sys.exit(f"error: {skills_dir} exists and was not made by this script; refusing to overwrite")
        shutil.rmtree(skills_dir)
    os.makedirs(skills_dir, exist_ok=True)
    with open(os.path.join(out_dir, MARKER), "w") as f:
        f.write(f"skills={n} seed={seed} defect_rate={defect_rate} corpus={'v2' if v2 else 'v1'} "
                f"commonmark={int(commonmark)} broken_links={broken_links}\n")

    counts = Counter()
    defect_rows = []
    total_skill_bytes = 0
    total_other_bytes = 0
    n_refs = n_scripts = 0
    n_defective = 0
    name_set = {x[0] for x in names}

    for i, (name, d, a) in enumerate(names):
        slug, topic, artifacts = DOMAINS[d]
        verb = ACTIONS[a][1]
        defect = None
        if rng.random() < defect_rate:
            defect = DEFECTS[n_defective % len(DEFECTS)]
            n_defective += 1
            counts[defect] += 1

        folder = name
        fm_name = name
        if defect == "uppercase_name":
            # Uppercase in the name, folder matches it, so only one defect.
            folder = fm_name = "-".join(p.upper() if j == 0 else p.capitalize() for j, p in enumerate(name.split("-")))
        elif defect == "name_mismatch":
            # e.g. the folder was renamed but the frontmatter was not
            fm_name = f"{name}-{ACTIONS[(a + 1) % len(ACTIONS)][0]}"
            if fm_name in name_set or len(fm_name) > 64:
                fm_name = name[:60] + "-old"

        title = " ".join(w.capitalize() for w in name.split("-"))
        skill_path = os.path.join(skills_dir, folder)
        os.mkdir(skill_path)

        # --- resources ---------------------------------------------------
        links = []
        files = {}
        r = rng.random()
        if defect == "empty_body":
            pass  # nothing in the body could link to a bundled file
        elif r < 0.25:
            ref = rng.choice(["REFERENCE.md", "forms.md", "api.md", "examples.md", "troubleshooting.md"])
            links.append((f"references/{ref}", f"references/{ref}"))
            files[f"references/{ref}"] = make_reference(rng, pools, topic, artifacts, f"{title} {ref[:-3].capitalize()}")
        elif r < 0.40:
            scr = f"{verb.split()[0]}_{slug.replace('-', '_')}.py"
            links.append((f"scripts/{scr}", f"scripts/{scr}"))
            files[f"scripts/{scr}"] = make_script(rng, name, topic)
        if defect == "broken_link":
            links.append(("references/advanced.md", "references/missing-advanced.md"))
        if defect != "empty_body":
            for k in range(1, broken_links + 1):
                links.append((f"references/absent-{k}.md", f"references/absent-{k}.md"))

        # --- frontmatter -------------------------------------------------
        fm = [f"name: {fm_name}"]
        if defect == "colon_in_description":
            fm.append(f"description: Use when: the user asks to {verb} {topic} or mentions {artifacts[0]}. "
                      f"Covers {artifacts[1]} and {artifacts[2]}.")
        elif defect == "long_description":
            fm.append("description: " + make_description(rng, topic, artifacts, verb, 1100, 1600))
        elif defect == "missing_description":
            pass
        elif defect == "unknown_key" and counts[defect] % 2 == 0:
            fm.append("descripton: " + make_description(rng, topic, artifacts, verb))
        else:
            fm.extend(yaml_description(rng, make_description(rng, topic, artifacts, verb)))
        if rng.random() < 0.30:
            fm.append(f"license: {rng.choice(LICENSES)}")
        if rng.random() < 0.10:
            fm.append(f"compatibility: {rng.choice(COMPAT)}")
        if defect == "flow_list":
            fm.append("allowed-tools: [Read, Grep]")
        elif rng.random() < 0.12:
            fm.append(f"allowed-tools: {rng.choice(ALLOWED_TOOLS)}")
        if defect == "argument_hint_list":
            fm.append("argument-hint: [file]")
        if defect == "unknown_key" and counts[defect] % 2 == 1:
            fm.append("version: 1.0")
        if defect == "tab_indent":
            fm.append(f"metadata:\n\tauthor: {rng.choice(AUTHORS)}\n\tversion: \"1.0\"")
        elif rng.random() < 0.25:
            fm.append(f"metadata:\n  author: {rng.choice(AUTHORS)}\n  version: \"{rng.randint(1, 3)}.{rng.randint(0, 9)}\"")
        if defect == "duplicate_key":
            fm.insert(1, f"name: {fm_name}")

        # --- body --------------------------------------------------------
        if defect == "empty_body":
            body = ""
        else:
            target = min(max(int(rng.lognormvariate(mu, sigma)), 600), 60000)
            body = make_body(rng, pools, title, topic, artifacts, target, links)
        if v2:
            # A stream of its own per skill: the main one, and so every SKILL.md, stays v1's.
            xrng = random.Random(seed * 1_000_003 + i)
            extras = make_extras(xrng, pools, name, topic, artifacts, files)
            if commonmark and body:
                lead, section = commonmark_lines(xrng, extras)
                head_end = body.index("\n", len(f"# {title}\n\n")) + 1
                body = body[:head_end] + "\n" + lead + "\n" + body[head_end:] + section
            files.update(extras)

        text = "---\n" + "\n".join(fm) + "\n---\n" + ("\n" + body if body else "")
        if defect == "crlf":
            text = text.replace("\n", "\r\n")
        elif defect == "bom":
            text = "\ufeff" + text
        elif defect == "blank_line_before_frontmatter":
            text = "\n" + text

        data = text.encode("utf-8")
        with open(os.path.join(skill_path, "SKILL.md"), "wb") as f:
            f.write(data)
        total_skill_bytes += len(data)
        for rel, content in files.items():
            sub = os.path.join(skill_path, os.path.dirname(rel))
            os.makedirs(sub, exist_ok=True)
            b = content.encode("utf-8")
            with open(os.path.join(skill_path, rel), "wb") as f:
                f.write(b)
            total_other_bytes += len(b)
            if rel.startswith("references/"):
                n_refs += 1
            else:
                n_scripts += 1
        if defect:
            defect_rows.append(f"{folder}\t{defect}\n")

    with open(os.path.join(out_dir, "defects.tsv"), "w") as f:
        f.write("skill\tdefect\n")
        f.writelines(defect_rows)

    return dict(
        counts=counts, n_defective=n_defective, total_skill_bytes=total_skill_bytes,
        total_other_bytes=total_other_bytes, n_refs=n_refs, n_scripts=n_scripts,
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--skills", type=int, required=True, help="number of skills")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--defect-rate", type=float, default=0.10, help="fraction of skills with one defect (default 0.10)")
    ap.add_argument("--broken-links", type=int, default=0, help="links to absent files in every body (default 0)")
    ap.add_argument("--v1", action="store_true", help="the v1 corpus: no extra scripts and references")
    ap.add_argument("--commonmark", action="store_true",
                    help="every body names its bundled files in code spans and links")
    ap.add_argument("--size-kb", type=float, default=6.6, help="target mean SKILL.md size in KB (default 6.6)")
    args = ap.parse_args(argv)
    if args.skills < 1:
        ap.error("--skills must be >= 1")

    t0 = time.perf_counter()
    os.makedirs(args.out_dir, exist_ok=True)
    if args.v1 and args.commonmark:
        ap.error("--commonmark needs the v2 corpus (its links point to the v2 files)")
    r = generate(args.out_dir, args.skills, args.seed, args.defect_rate, args.size_kb, args.broken_links,
                 v2=not args.v1, commonmark=args.commonmark)
    dt = time.perf_counter() - t0

    n = args.skills
    print(f"corpus: {os.path.join(args.out_dir, 'skills')}")
    print(f"skills: {n} (seed {args.seed}) in {dt:.2f} s")
    print(f"SKILL.md bytes: {r['total_skill_bytes']:,} (avg {r['total_skill_bytes'] / n / 1024:.2f} KB)")
    print(f"resource files: {r['n_refs']} references/*.md, {r['n_scripts']} scripts/* "
          f"({r['total_other_bytes']:,} bytes)")
    print(f"defective skills: {r['n_defective']} ({100.0 * r['n_defective'] / n:.1f} %), "
          f"listed in {os.path.join(args.out_dir, 'defects.tsv')}")
    for d in DEFECTS:
        print(f"  {d:<32} {r['counts'].get(d, 0)}")


if __name__ == "__main__":
    main()
