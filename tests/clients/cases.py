"""Scenarios for the client oracles: each is a project tree (relative path -> bytes, or a symlink
target) that one client run reads whole. Skills that cannot disturb each other share a project;
a budget or a shadowing case gets its own."""

from __future__ import annotations

import os
from pathlib import Path

CLAUDE = ".claude/skills"


def skill(folder: str, text: str, root: str = CLAUDE) -> tuple[str, bytes]:
    return f"{root}/{folder}/SKILL.md", text.encode()


def tricky() -> dict:
    """One skill per tricky input: YAML Claude Code repairs or gives up on, names, fallbacks,
    hidden skills, encodings, folder names and their order."""
    files = dict(
        [
            skill("c01-literal", "---\nname: c01-literal\ndescription: |\n  line one\n\n  line two\n---\nb\n"),
            skill("c02-spaces", '---\nname: c02-spaces\ndescription: "a  b\\tc\\u00a0d\\u200be"\n---\nb\n'),
            skill("c03-nodesc", "---\nname: c03-nodesc\n---\n\n## Heading   here\nmore\n"),
            skill("c04-empty", '---\nname: c04-empty\ndescription: ""\n---\nFirst body line\n'),
            skill("c05-number", "---\nname: c05-number\ndescription: 42.50\n---\nb\n"),
            skill("c06-numname", "---\nname: 3000\ndescription: numeric name\n---\nb\n"),
            skill("c07-dmi-yes", '---\nname: c07-dmi-yes\ndescription: dmi yes\ndisable-model-invocation: "yes"\n---\nb\n'),
            skill("c08-dmi-one", "---\nname: c08-dmi-one\ndescription: dmi one\ndisable-model-invocation: 1\n---\nb\n"),
            skill("c09-dmi-no", "---\nname: c09-dmi-no\ndescription: dmi no\ndisable-model-invocation: no\n---\nb\n"),
            skill("c10-uinv", "---\nname: c10-uinv\ndescription: user invocable false\nuser-invocable: false\n---\nb\n"),
            skill("c11-paths", '---\nname: c11-paths\ndescription: path scoped\npaths: ["*.py"]\n---\nb\n'),
            skill("c11b-paths-all", '---\nname: c11b-paths-all\ndescription: every path\npaths: ["**"]\n---\nb\n'),
            skill("c12-bom", "\ufeff---\nname: c12-bom\ndescription: has bom\n---\nb\n"),
            skill("c13-crlf", "---\r\nname: c13-crlf\r\ndescription: crlf file\r\n---\r\nb\r\n"),
            skill("c14-colon", "---\nname: c14-colon\ndescription: Use when: asked\n---\nb\n"),
            skill("c15-arghint", "---\nname: c15-arghint\ndescription: Arg hint skill\nargument-hint: [METHOD] [/path] [description]\n---\nb\n"),
            skill("c16-upper", "---\nname: My_Skill\ndescription: upper name\n---\nb\n"),
            skill("c17-spacename", "---\nname: my skill\ndescription: space name\n---\nb\n"),
            skill("c18-dupname", "---\nname: c01-literal\ndescription: claims another folder's name\n---\nb\n"),
            (f"{CLAUDE}/c19-lower/skill.md", b"---\nname: c19-lower\ndescription: lowercase file\n---\nb\n"),
            skill("c20-nofm", "# No frontmatter title\nbody\n"),
            skill("c21-dashes", "---\nname: c21-dashes\ndescription: a---b end\n---\nb\n"),
            skill("c22-long", "---\nname: c22-long\ndescription: " + ("word " * 400).strip() + "\n---\nb\n"),
            skill("c23-amp", '---\nname: c23-amp\ndescription: "Tom &amp; Jerry \U0001F600 <x> \u26a0\ufe0f"\n---\nb\n'),
            skill("c24-tabs", "---\nname: c24-tabs\ndescription: tabbed\nmetadata:\n\tauthor: me\n---\nb\n"),
            skill("c25 space folder", "---\nname: c25-space\ndescription: folder has a space\n---\nb\n"),
            skill("c26-longname", "---\nname: " + "n" * 70 + "\ndescription: long name\n---\nb\n"),
            skill("B-upper", "---\ndescription: sort B\n---\nb\n"),
            skill("_under", "---\ndescription: sort under\n---\nb\n"),
            skill("-dash", "---\ndescription: sort dash\n---\nb\n"),
            skill("1digit", "---\ndescription: sort digit\n---\nb\n"),
            skill("c27-wtu", "---\nname: c27-wtu\ndescription: with when\nwhen_to_use: |\n  multi\n  line\n---\nb\n"),
            skill("c28-flowdesc", "---\nname: c28-flowdesc\ndescription: [a, b]\n---\nFlow body\n"),
            skill("c29-hash", "---\nname: c29-hash\ndescription: Uses C# # and #tags\n---\nb\n"),
            skill("c30-quoteval", '---\nname: c30-quoteval\ndescription: "unterminated\n---\nQuote body\n'),
            skill("c32-body-long", "---\nname: c32-body-long\n---\n" + "x" * 150 + "\n"),
            skill("c33-bool-desc", "---\nname: c33-bool-desc\ndescription: true\n---\nb\n"),
            skill("c34-indented-body", "---\ndescription:\n---\n\n   #   Indented heading\n"),
            skill("c35-cjk", "---\nname: c35-cjk\ndescription: 用于处理中文文档的技能\n---\nb\n"),
            skill("c47-arghint-list", "---\nname: c47-arghint-list\ndescription: hint as a list\nargument-hint:\n  - file\n---\nb\n"),
            skill("c36-open-dashes", "---   \nname: c36-open-dashes\ndescription: spaces after the opening dashes\n---\nb\n"),
            skill("c37-no-close", "---\nname: c37-no-close\ndescription: never closed\n"),
            skill("c38-name-own", "---\nname: loop\ndescription: named like a client skill\n---\nb\n"),
            skill("c39-quoted-hash", "---\nname: c39-quoted-hash\ndescription: 'keeps # inside quotes'\n---\nb\n"),
            skill("c40-folded", "---\nname: c40-folded\ndescription: >\n  folded one\n  folded two\n---\nb\n"),
            (f"{CLAUDE}/c41-linked", ("link", "../../elsewhere/c41-linked")),
            ("elsewhere/c41-linked/SKILL.md", b"---\nname: c41-linked\ndescription: symlinked folder\n---\nb\n"),
            # Other clients' roots, which Claude Code does not read.
            skill("c45-folded-then-key", "---\nname: c45-folded-then-key\ndescription: >\n  folded then\n  another key\nlicense: MIT\n---\nb\n"),
            skill("c46-literal-then-key", "---\nname: c46-literal-then-key\ndescription: |\n  literal then\n  another key\nlicense: MIT\n---\nb\n"),
            skill("c44-meta-string", "---\nname: c44-meta-string\ndescription: metadata as text\nmetadata: just text\n---\nb\n"),
            skill("c42-agents-root", "---\nname: c42-agents-root\ndescription: in .agents/skills\n---\nb\n", ".agents/skills"),
            skill("c43-plain-root", "---\nname: c43-plain-root\ndescription: in skills/\n---\nb\n", "skills"),
        ]
    )
    return files


AGENTS = ".agents/skills"


def moved(files: dict, root: str) -> dict:
    """The same project with Claude Code's root renamed (other roots dropped)."""
    out = {}
    for relative, content in files.items():
        if relative.startswith(CLAUDE + "/"):
            out[root + relative[len(CLAUDE) :]] = content
        elif not relative.startswith((".agents/", "skills/")):
            out[relative] = content
    return out


def shared_tricky() -> dict:
    """The tricky skills in .agents/skills, the root every client but Claude Code reads, plus
    inputs that matter to those clients: quoting, names, lengths, nesting, duplicates."""
    files = moved(tricky(), AGENTS)
    long_description = ("long " * 300).strip()
    files.update(
        [
            skill("x01-1024", "---\nname: x01-1024\ndescription: " + "d" * 1024 + "\n---\nb\n", AGENTS),
            skill("x02-1025", "---\nname: x02-1025\ndescription: " + "e" * 1025 + "\n---\nb\n", AGENTS),
            skill("x03-1500", "---\nname: x03-1500\ndescription: " + long_description + "\n---\nb\n", AGENTS),
            skill("x04-noname", "---\ndescription: no name field\n---\nb\n", AGENTS),
            skill("x05-emptyname", "---\nname: ''\ndescription: empty name\n---\nb\n", AGENTS),
            skill("x06-quoted-newline", '---\nname: x06-quoted-newline\ndescription: "one\\ntwo"\n---\nb\n', AGENTS),
            skill("x07-list-desc", "---\nname: x07-list-desc\ndescription:\n  - a\n  - b\n---\nb\n", AGENTS),
            skill("x08-spacey", "---\nname: x08-spacey\ndescription:    padded    \n---\nb\n", AGENTS),
            skill("x10-meta", "---\nname: x10-meta\ndescription: with metadata\nmetadata:\n  short-description: short one\n---\nb\n", AGENTS),
            skill("x11-dupe-a", "---\nname: x11-same\ndescription: first of two\n---\nb\n", AGENTS),
            skill("x12-xml", "---\nname: x12-xml\ndescription: 'a \"q\" <b> & c'\n---\nb\n", AGENTS),
            skill("x13-dmi-true", "---\nname: x13-dmi-true\ndescription: dmi true\ndisable-model-invocation: true\n---\nb\n", AGENTS),
            skill("x14-unknown-key", "---\nname: x14-unknown-key\ndescription: unknown key\nmode: fast\n---\nb\n", AGENTS),
        ]
    )
    return files


def roots_and_quirks() -> dict:
    """Every root a client might read, nesting, ordering of names and the YAML edge cases that
    split the clients: colons, flow syntax, comments, lengths in bytes and characters."""
    files = {}
    for root in ["skills", ".agents/skills", ".claude/skills", ".codex/skills", ".github/skills", ".opencode/skills", ".gemini/skills"]:
        tag = root.strip(".").split("/")[0]
        files.update([skill(f"r-{tag}", f"---\nname: r-{tag}\ndescription: in {root}\n---\nb\n", root)])
    A = AGENTS
    files.update(
        [
            skill("q01-colons", "---\nname: q01-colons\ndescription: a: b: c\n---\nb\n", A),
            skill("q02-flow-desc", "---\nname: q02-flow-desc\ndescription: [a] b\n---\nFlow body\n", A),
            skill("q03-broken-other", "---\nname: q03-broken-other\ndescription: fine\nother: [a] b\n---\nb\n", A),
            skill("q04-comment", "---\nname: q04-comment\ndescription: text # comment\n---\nb\n", A),
            skill("q05-name64", "---\nname: " + "a" * 64 + "\ndescription: name of 64\n---\nb\n", A),
            skill("q06-name65", "---\nname: " + "b" * 65 + "\ndescription: name of 65\n---\nb\n", A),
            skill("q07-name-multibyte", "---\nname: " + "\u00e9" * 40 + "\ndescription: 40 characters, 80 bytes\n---\nb\n", A),
            skill("q08-desc-multibyte", "---\nname: q08-desc-multibyte\ndescription: " + "\u00e9" * 1030 + "\n---\nb\n", A),
            skill("q10-outer", "---\nname: q10-outer\ndescription: holds another skill\n---\nb\n", A),
            skill(".q11-hidden", "---\nname: q11-hidden\ndescription: hidden folder\n---\nb\n", A),
            skill("q12-dupe-b", "---\nname: q12-same\ndescription: second folder\n---\nb\n", A),
            skill("q12-dupe-a", "---\nname: q12-same\ndescription: first folder\n---\nb\n", A),
            skill("q13-sort-e", "---\nname: \u00e9-accent\ndescription: sorts after z in bytes\n---\nb\n", A),
            skill("q14-sort-z", "---\nname: zz-last\ndescription: z\n---\nb\n", A),
            skill("q15-tabs", '---\nname: q15-tabs\ndescription: "a\\tb\\u2028c\\u3000d"\n---\nb\n', A),
            skill("q16-padded", '---\nname: "  q16-padded  "\ndescription: "  lead  trail  "\n---\nb\n', A),
            skill("q17-blank-block", "---\nname: q17-blank-block\ndescription: |\n\n---\nBlank block body\n", A),
            skill("q18-name-newline", '---\nname: "q18\\nnewline"\ndescription: name holds a newline\n---\nb\n', A),
            skill("q19-empty-fm", "---\n---\nEmpty frontmatter body\n", A),
            skill("q20-empty-file", "", A),
            skill("q21-space-desc", '---\nname: q21-space-desc\ndescription: "   "\n---\nSpace body\n', A),
            skill("q22-dash-body", "---\nname: q22-dash-body\ndescription: body has dashes\n---\nb\n---\nmore\n", A),
            skill("q23-null-name", "---\nname:\ndescription: null name\n---\nb\n", A),
            skill("q24-number-name", "---\nname: 1.50\ndescription: float name\n---\nb\n", A),
            skill("q25-anchor", "---\nname: q25-anchor\ndescription: &d anchored\nalias: *d\n---\nb\n", A),
            skill("q26-dup-key", "---\nname: q26-dup-key\ndescription: first\ndescription: second\n---\nb\n", A),
            skill("q27-trailing", "---\nname: q27-trailing\ndescription: trailing dashes\n--- \nb\n", A),
            skill("q28-indented-close", "---\nname: q28-indented-close\ndescription: indented close\n ---\nb\n", A),
        ]
    )
    return files


def nested() -> dict:
    """SKILL.md files deeper than <root>/<folder>/: inside another skill's folder, and in a
    folder that is no skill."""
    return dict(
        [
            skill("n01-plain", "---\nname: n01-plain\ndescription: one level\n---\nb\n", AGENTS),
            skill("n02-outer", "---\nname: n02-outer\ndescription: holds another skill\n---\nb\n", AGENTS),
            skill("n02-outer/inner", "---\nname: n02-inner\ndescription: inside a skill folder\n---\nb\n", AGENTS),
            skill("n03-group/a/b", "---\nname: n03-deep\ndescription: three levels down\n---\nb\n", AGENTS),
            skill("n04-last", "---\nname: n04-last\ndescription: sorts last\n---\nb\n", AGENTS),
        ]
    )


def copilot_budget() -> dict:
    """Copilot lists skills while their XML fits 15,000 characters: sizes picked so that the
    27th item fits only if the block's opening tag is not counted, and the 29th (short) only if
    the listing goes on past the 28th, which does not fit."""
    files = {}

    def item_of(name: str, size: int) -> str:
        overhead = len(f"<skill>\n  <name>{name}</name>\n  <description></description>\n  <location>project</location>\n</skill>\n")
        return "d" * (size - overhead)

    sizes = [550] * 26 + [690, 1000, 120, 550]
    for index, size in enumerate(sizes):
        name = f"b{index:02d}"
        files.update([skill(name, f"---\nname: {name}\ndescription: {item_of(name, size)}\n---\nb\n", AGENTS)])
    return files


def duplicates_and_bodies() -> dict:
    """One name in several roots (which copy wins), descriptions taken from the body, and the
    boolean fields some clients type-check."""
    G, C, A = ".github/skills", CLAUDE, AGENTS
    return dict(
        [
            skill("a-dup", "---\nname: dup-one\ndescription: from .github\n---\nb\n", G),
            skill("b-dup", "---\nname: dup-one\ndescription: from .claude\n---\nb\n", C),
            skill("c-dup", "---\nname: dup-one\ndescription: from .agents\n---\nb\n", A),
            skill("z-dup", "---\nname: dup-two\ndescription: from .github, folder z\n---\nb\n", G),
            skill("a-dup2", "---\nname: dup-two\ndescription: from .agents, folder a\n---\nb\n", A),
            skill("same-folder", "---\nname: same-folder\ndescription: folder in .claude\n---\nb\n", C),
            skill("same-folder", "---\nname: same-folder\ndescription: folder in .agents\n---\nb\n", A),
            skill("p01-body-para", "---\nname: p01-body-para\n---\n# Title\n\nline a\nline b\n\nsecond para\n", A),
            skill("p02-body-long", "---\nname: p02-body-long\n---\n" + ("word " * 300) + "\n", A),
            skill("p03-body-empty", "---\nname: p03-body-empty\n---\n", A),
            skill("p04-body-list", "---\nname: p04-body-list\n---\n- item one\n- item two\n", A),
            skill("p05-body-code", "---\nname: p05-body-code\n---\n```\ncode\n```\nafter code\n", A),
            skill("p06-dmi-false", "---\nname: p06-dmi-false\ndescription: dmi false\ndisable-model-invocation: false\n---\nb\n", A),
            skill("p07-uinv-no", "---\nname: p07-uinv-no\ndescription: user-invocable no\nuser-invocable: no\n---\nb\n", A),
            skill("p08-name-colon", "---\nname: 'ns:tool.v2'\ndescription: colon and dot in the name\n---\nb\n", A),
            skill("p09-emoji", "---\nname: p09-emoji\ndescription: \"" + "\U0001F600" * 600 + "\"\n---\nb\n", A),
            skill("p10-quote", "---\nname: p10-quote\ndescription: \"it's \\\"quoted\\\" & <tagged>\"\n---\nb\n", A),
            skill("p11-body-html", "---\nname: p11-body-html\n---\n<!-- comment -->\nText **bold** and `code`.\n", A),
        ]
    )


def crowded(count: int = 200, length: int = 300, root: str = CLAUDE) -> dict:
    """More skills than the listing budget holds."""
    return dict(
        skill(f"s{i:03d}", f"---\nname: s{i:03d}\ndescription: {(f'skill {i:03d} ' + 'x' * length)[:length]}\n---\nb\n", root)
        for i in range(count)
    )


def crowded_mixed() -> dict:
    """Over budget with uneven lengths and non-ASCII text, so that the greedy fit and the
    character count matter."""
    files = {}
    for i in range(160):
        length = 40 + (i * 37) % 500
        word = "é" if i % 3 == 0 else ("字" if i % 3 == 1 else "x")
        files.update([skill(f"m{i:03d}", f"---\nname: m{i:03d}\ndescription: d{i} {word * length}\n---\nb\n")])
    return files


SCENARIOS = {
    "tricky": tricky,
    "nested": nested,
    "agents-crowded": lambda: crowded(200, 300, AGENTS),
    "agents-crowded-mixed": lambda: moved(crowded_mixed(), AGENTS),
    "agents-overflow": lambda: crowded(700, 300, AGENTS),
    "copilot-budget": copilot_budget,
    "duplicates-and-bodies": duplicates_and_bodies,
    "shared-tricky": shared_tricky,
    "roots-and-quirks": roots_and_quirks,
    "crowded": crowded,
    "crowded-mixed": crowded_mixed,
}


def materialise(files: dict, project: Path) -> None:
    for relative, content in files.items():
        path = project / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, tuple):
            os.symlink(content[1], path)
        else:
            path.write_bytes(content)
