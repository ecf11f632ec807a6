#!/usr/bin/env python3
"""Summarise `git diff --numstat` output for a quick overview of a change.

Reads numstat lines ("ADDED<TAB>DELETED<TAB>PATH") from a file or standard
input and prints totals, a per-directory breakdown, the largest files, and
binary files (which numstat reports as "-<TAB>-").

Examples:
    git diff --numstat main...HEAD | python3 diff_stats.py
    git diff --numstat HEAD~3 > stats.txt && python3 diff_stats.py stats.txt
    git diff --numstat | python3 diff_stats.py --top 5 --depth 2
"""

import argparse
import sys
from collections import defaultdict

TEST_MARKERS = ("test", "tests", "spec", "specs", "__tests__")


def parse_path(raw):
    """Return the destination path, resolving git's rename notations."""
    # Renames appear as "old => new" or "dir/{old => new}/file".
    if "{" in raw and " => " in raw and "}" in raw:
        start = raw.index("{")
        end = raw.index("}", start)
        inner = raw[start + 1:end]
        new_part = inner.split(" => ", 1)[1]
        path = raw[:start] + new_part + raw[end + 1:]
        return path.replace("//", "/")
    if " => " in raw:
        return raw.split(" => ", 1)[1]
    return raw


def parse_numstat(lines):
    """Yield (added, deleted, path) tuples; added/deleted are None for binaries."""
    for lineno, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        parts = line.split("\t", 2)
        if len(parts) != 3:
            raise ValueError(f"line {lineno}: expected 3 tab-separated fields: {line!r}")
        added, deleted, path = parts
        if added == "-" and deleted == "-":
            yield None, None, parse_path(path)
            continue
        try:
            yield int(added), int(deleted), parse_path(path)
        except ValueError:
            raise ValueError(f"line {lineno}: counts are not integers: {line!r}") from None


def directory_of(path, depth):
    parts = path.split("/")[:-1]
    if not parts:
        return "."
    return "/".join(parts[:depth])


def is_test_path(path):
    lowered = path.lower()
    segments = lowered.split("/")
    name = segments[-1]
    return (
        any(seg in TEST_MARKERS for seg in segments[:-1])
        or name.startswith("test_")
        or "_test." in name
        or ".test." in name
        or ".spec." in name
    )


def summarise(entries, top, depth, out):
    files = [e for e in entries if e[0] is not None]
    binaries = [e[2] for e in entries if e[0] is None]
    total_add = sum(e[0] for e in files)
    total_del = sum(e[1] for e in files)

    if not entries:
        print("No changes.", file=out)
        return

    print(f"Files changed: {len(entries)} ({len(binaries)} binary)", file=out)
    print(f"Lines: +{total_add} -{total_del} (churn {total_add + total_del})", file=out)

    test_churn = sum(a + d for a, d, p in files if is_test_path(p))
    src_churn = total_add + total_del - test_churn
    print(f"Test churn: {test_churn}  Other churn: {src_churn}", file=out)
    if src_churn > 0 and test_churn == 0:
        print("Note: no test files changed.", file=out)
    if src_churn > 400:
        print("Note: over 400 changed non-test lines; consider splitting.", file=out)

    by_dir = defaultdict(lambda: [0, 0, 0])
    for added, deleted, path in entries:
        bucket = by_dir[directory_of(path, depth)]
        bucket[0] += 1
        bucket[1] += added or 0
        bucket[2] += deleted or 0
    print("\nBy directory:", file=out)
    width = max(len(d) for d in by_dir)
    for name, (count, added, deleted) in sorted(
        by_dir.items(), key=lambda item: -(item[1][1] + item[1][2])
    ):
        print(f"  {name:<{width}}  {count:>4} files  +{added:<6} -{deleted}", file=out)

    if files:
        print(f"\nLargest {min(top, len(files))} files:", file=out)
        for added, deleted, path in sorted(files, key=lambda e: -(e[0] + e[1]))[:top]:
            print(f"  {added + deleted:>6}  +{added:<6} -{deleted:<6} {path}", file=out)

    if binaries:
        print("\nBinary files:", file=out)
        for path in sorted(binaries):
            print(f"  {path}", file=out)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Summarise `git diff --numstat` output (from a file or stdin).",
        epilog="Example: git diff --numstat main...HEAD | python3 diff_stats.py --top 5",
    )
    parser.add_argument("file", nargs="?", help="numstat file to read (default: stdin)")
    parser.add_argument("--top", type=int, default=10, help="how many largest files to list (default 10)")
    parser.add_argument("--depth", type=int, default=1, help="directory depth for grouping (default 1)")
    args = parser.parse_args(argv)

    if args.top < 0 or args.depth < 1:
        parser.error("--top must be >= 0 and --depth must be >= 1")

    try:
        if args.file:
            with open(args.file, encoding="utf-8", errors="replace") as handle:
                entries = list(parse_numstat(handle))
        else:
            if sys.stdin.isatty():
                parser.error("no input: pipe `git diff --numstat` output in or pass a file")
            entries = list(parse_numstat(sys.stdin))
    except OSError as exc:
        print(f"error: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1

    summarise(entries, args.top, args.depth, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
