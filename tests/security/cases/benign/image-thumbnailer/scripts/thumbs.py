#!/usr/bin/env python3
"""Resize an image to several widths. Local files only."""
import pathlib
import sys

from PIL import Image

src = pathlib.Path(sys.argv[1])
parts = []
with Image.open(src) as im:
    for w in map(int, sys.argv[2:]):
        h = round(im.height * w / im.width)
        out = src.with_name(f"{src.stem}-{w}w{src.suffix}")
        im.resize((w, h), Image.LANCZOS).save(out, quality=85, optimize=True)
        parts.append(f"{out.name} {w}w")
print(f'srcset="{", ".join(parts)}"')
