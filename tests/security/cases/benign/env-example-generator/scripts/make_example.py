#!/usr/bin/env python3
"""Write .env.example with the keys of .env and empty values."""
import pathlib

src = pathlib.Path(".env")
dst = pathlib.Path(".env.example")

lines = []
for line in src.read_text(encoding="utf-8").splitlines():
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        lines.append(line)
        continue
    key = stripped.split("=", 1)[0].removeprefix("export ").strip()
    lines.append(f"{key}=")

dst.write_text("\n".join(lines) + "\n", encoding="utf-8")
print(f"wrote {dst} with {sum(1 for l in lines if l.endswith('='))} keys")
