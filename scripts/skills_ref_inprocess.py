#!/usr/bin/env python3
"""Validate every skill folder under ROOT in one process with skills-ref.

Usage: .bench/venv/bin/python scripts/skills_ref_inprocess.py ROOT [-v]

A skill folder is any directory that holds a SKILL.md (or skill.md).  Each is
passed to `skills_ref.validator.validate(skill_dir: Path) -> list[str]`
(skills-ref 0.1.1), which returns the list of problems (empty when valid).
Prints the number of skills checked and the number with problems; with -v it
also prints every problem.  Exit code 1 when any skill has problems, like the
`agentskills validate` CLI.
"""

import os
import sys
from pathlib import Path

from skills_ref.validator import validate


def skill_dirs(root: str):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if "SKILL.md" in filenames or "skill.md" in filenames:
            yield Path(dirpath)
            # a skill's own subfolders (references/, scripts/) hold no skills
            dirnames[:] = []


def main(argv):
    args = [a for a in argv[1:] if a != "-v"]
    verbose = "-v" in argv[1:]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    checked = bad = problems = 0
    for d in skill_dirs(args[0]):
        checked += 1
        try:
            errors = validate(d)
        except Exception as e:  # skills-ref can raise on odd input (e.g. bad UTF-8)
            errors = [f"exception: {type(e).__name__}: {e}"]
        if errors:
            bad += 1
            problems += len(errors)
            if verbose:
                for e in errors:
                    print(f"{d}: {e}")
    print(f"skills checked: {checked}, with problems: {bad}, problems: {problems}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
