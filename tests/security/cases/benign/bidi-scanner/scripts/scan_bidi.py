#!/usr/bin/env python3
"""Fail if any given file contains bidi controls or invisible characters."""
import sys

SUSPECT = {
    "\u202a": "LRE", "\u202b": "RLE", "\u202c": "PDF", "\u202d": "LRO", "\u202e": "RLO",
    "\u2066": "LRI", "\u2067": "RLI", "\u2068": "FSI", "\u2069": "PDI",
    "\u200b": "ZWSP", "\u200c": "ZWNJ", "\u200d": "ZWJ", "\u2060": "WJ",
}


def scan(path):
    found = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            for ch in line:
                if ch in SUSPECT or 0xE0000 <= ord(ch) <= 0xE007F:
                    name = SUSPECT.get(ch, f"TAG U+{ord(ch):05X}")
                    print(f"{path}:{n}: {name}")
                    found += 1
    return found


if __name__ == "__main__":
    total = sum(scan(p) for p in sys.argv[1:])
    sys.exit(1 if total else 0)
