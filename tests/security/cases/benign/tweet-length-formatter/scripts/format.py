#!/usr/bin/env python3
"""Split text into numbered posts of at most 280 characters. Local only."""
import sys

LIMIT = 280


def split(text):
    posts, cur = [], ""
    for w in text.split():
        if len(cur) + len(w) + 1 > LIMIT - 6:
            posts.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    if cur:
        posts.append(cur)
    n = len(posts)
    return [f"{p} {i}/{n}" if n > 1 else p for i, p in enumerate(posts, 1)]


if __name__ == "__main__":
    for post in split(open(sys.argv[1], encoding="utf-8").read()):
        print(post)
        print("---")
