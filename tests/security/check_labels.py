#!/usr/bin/env python3
"""Consistency check for the security test set. Reads files only; runs no sample.

    python3 tests/security/check_labels.py

Checks that labels.toml and the case folders agree, that every SKILL.md has
parseable frontmatter whose name matches its folder, that no file is
executable, that network destinations are reserved names (or a short list of
well-known services), and that each kind has enough cases. Prints the
kind x place table and exits non-zero on any problem.
"""

import ipaddress
import os
import re
import stat
import sys
import tomllib
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")

KINDS = ["hidden-text", "prompt-injection", "remote-code", "credential-access", "exfiltration",
         "persistence", "destructive", "obfuscation", "permissions", "capability-mismatch"]
PLACES = ["frontmatter", "prose", "code-block", "script", "reference", "hidden-markdown", "binary"]
MIN_PER_KIND = 9
MIN_TOTAL = 90
NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# Cyrillic and Greek letters that look like Latin ones, for the confusable-name cases.
SKELETON = str.maketrans({
    "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0443": "y",
    "\u0445": "x", "\u0456": "i", "\u0458": "j", "\u04bb": "h", "\u0501": "d", "\u03bf": "o",
    "\u03b1": "a", "\u03b5": "e", "\u03b9": "i", "\u03ba": "k", "\u03bd": "v", "\u03c1": "p",
})

# Hosts allowed besides reserved names: detectors key on these services, or the
# benign case names the service its token belongs to.
ALLOWED_HOSTS = {
    "webhook.site", "pastebin.com", "discord.com", "transfer.sh", "api.openai.com",
    "api.github.com", "github.com", "www.rfc-editor.org", "schemas.openxmlformats.org",
    "localhost",
}
ALLOWED_SUFFIXES = (".example", ".invalid", ".test", ".ngrok.io", ".localhost")
RESERVED_DOMAINS = ("example.com", "example.net", "example.org")
TEST_NETS = [ipaddress.ip_network(n) for n in
             ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "127.0.0.0/8", "0.0.0.0/32")]

URL_RE = re.compile(r"\b(?:https?|ftp)://([A-Za-z0-9.-]+)")
HOSTLIKE_RE = re.compile(r"(?<![\w@/.-])((?:[a-z0-9][a-z0-9-]*\.)+(?:com|net|org|io|site|dev|app|xyz|ru|cn))\b")
IP_RE = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.])")


def frontmatter(text):
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r") != "---":
        return None
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r") == "---":
            return "\n".join(lines[1:i])
    return None


def parse_fm(block):
    try:
        import yaml
    except ImportError:
        yaml = None
    if yaml is not None:
        data = yaml.safe_load(block)
        if not isinstance(data, dict):
            raise ValueError("frontmatter is not a mapping")
        return data
    data = {}
    for line in block.split("\n"):
        if not line.strip() or line.startswith((" ", "\t", "#", "-")):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"not key: value: {line!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        data[key.strip()] = value
    return data


def host_ok(host):
    host = host.lower().rstrip(".")
    if host in ALLOWED_HOSTS or host.endswith(ALLOWED_SUFFIXES):
        return True
    return any(host == d or host.endswith("." + d) for d in RESERVED_DOMAINS)


def ip_ok(ip):
    try:
        addr = ipaddress.ip_address(ip)
    except ValueError:
        return True  # a version number such as 2.32.3.1, not an address
    return any(addr in n for n in TEST_NETS)


def main():
    problems = []
    with open(os.path.join(HERE, "labels.toml"), "rb") as f:
        cases = tomllib.load(f)["case"]

    seen = Counter(c["dir"] for c in cases)
    problems += [f"duplicate label for {d}" for d, n in seen.items() if n > 1]

    on_disk = {f"{group}/{d}" for group in ("malicious", "benign")
               for d in os.listdir(os.path.join(CASES, group))}
    problems += [f"folder without label: {d}" for d in sorted(on_disk - set(seen))]
    problems += [f"label without folder: {d}" for d in sorted(set(seen) - on_disk)]

    names = Counter()
    for c in cases:
        d = c["dir"]
        group, _, folder = d.partition("/")
        for key in ("dir", "kind", "place", "malicious", "note"):
            if key not in c:
                problems.append(f"{d}: missing {key}")
        if set(c) - {"dir", "kind", "place", "malicious", "note"}:
            problems.append(f"{d}: unknown keys {sorted(set(c) - {'dir', 'kind', 'place', 'malicious', 'note'})}")
        if c.get("kind") not in KINDS:
            problems.append(f"{d}: unknown kind {c.get('kind')!r}")
        if c.get("place") not in PLACES:
            problems.append(f"{d}: unknown place {c.get('place')!r}")
        if c.get("malicious") is not (group == "malicious"):
            problems.append(f"{d}: malicious={c.get('malicious')!r} but folder is under {group}/")
        if not c.get("note") or "\n" in c["note"]:
            problems.append(f"{d}: note must be one non-empty line")
        if not NAME_RE.match(folder) or len(folder) > 64:
            problems.append(f"{d}: folder is not a kebab-case id of at most 64 chars")
        names[folder] += 1

        skill_md = os.path.join(CASES, d, "SKILL.md")
        if not os.path.isfile(skill_md):
            problems.append(f"{d}: no SKILL.md")
            continue
        text = open(skill_md, encoding="utf-8").read()
        block = frontmatter(text)
        if block is None:
            problems.append(f"{d}: no frontmatter")
            continue
        try:
            fm = parse_fm(block)
        except Exception as e:  # noqa: BLE001 - report any parser error
            problems.append(f"{d}: frontmatter does not parse: {e}")
            continue
        name, desc = fm.get("name"), fm.get("description")
        if not isinstance(name, str) or not isinstance(desc, str):
            problems.append(f"{d}: name and description must be strings")
            continue
        if name != folder:
            confusable = not name.isascii() and name.translate(SKELETON) == folder
            if not (confusable and c.get("kind") == "hidden-text" and c.get("malicious")):
                problems.append(f"{d}: name {name!r} != folder {folder!r}")
        if len(desc) > 1024 or "\n" in desc:
            problems.append(f"{d}: description longer than 1024 chars or not one line ({len(desc)})")
        if "Use when" not in desc:
            problems.append(f"{d}: description has no 'Use when'")

    dup = [n for n, k in names.items() if k > 1]
    problems += [f"id used twice: {n}" for n in dup]

    # file modes and network destinations
    for root, _, files in os.walk(CASES):
        for fn in files:
            p = os.path.join(root, fn)
            rel = os.path.relpath(p, CASES)
            if os.stat(p).st_mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH):
                problems.append(f"{rel}: executable bit set")
            try:
                text = open(p, encoding="utf-8").read()
            except UnicodeDecodeError:
                continue  # a binary case
            for m in URL_RE.finditer(text):
                h = m.group(1)
                if not (host_ok(h) or (IP_RE.fullmatch(h) and ip_ok(h))):
                    problems.append(f"{rel}: URL host {h} is not reserved or allow-listed")
            for m in HOSTLIKE_RE.finditer(text):
                if not host_ok(m.group(1)):
                    problems.append(f"{rel}: host-like name {m.group(1)} is not reserved or allow-listed")
            for m in IP_RE.finditer(text):
                if not ip_ok(m.group(1)):
                    problems.append(f"{rel}: IP {m.group(1)} is outside TEST-NET")

    # counts
    for mal in (True, False):
        label = "malicious" if mal else "benign"
        sub = [c for c in cases if c.get("malicious") is mal]
        table = Counter((c["kind"], c["place"]) for c in sub)
        print(f"\n{label}: {len(sub)} cases")
        head = "kind".ljust(20) + "".join(p[:8].rjust(9) for p in PLACES) + "    total"
        print(head)
        for k in KINDS:
            row = [table[(k, p)] for p in PLACES]
            print(k.ljust(20) + "".join(str(n or ".").rjust(9) for n in row) + str(sum(row)).rjust(9))
            if sum(row) < MIN_PER_KIND:
                problems.append(f"{label} {k}: {sum(row)} cases, need {MIN_PER_KIND}")
        totals = [sum(table[(k, p)] for k in KINDS) for p in PLACES]
        print("total".ljust(20) + "".join(str(n).rjust(9) for n in totals) + str(len(sub)).rjust(9))
        if len(sub) < MIN_TOTAL:
            problems.append(f"{label}: {len(sub)} cases, need {MIN_TOTAL}")

    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print("  " + p)
        return 1
    print("\nok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
