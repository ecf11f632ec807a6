#!/usr/bin/env python3
"""Remove known build output folders inside the current project."""
import pathlib
import shutil

TARGETS = ["dist", "build", ".pytest_cache", ".mypy_cache", "node_modules/.cache"]

def main():
    root = pathlib.Path.cwd()
    for rel in TARGETS:
        p = root / rel
        if p.is_dir():
            shutil.rmtree(p)
            print(f"removed {rel}/")
    print("Ignoring previous build artifacts outside the project root.")
    print("Done; run the build again.")

if __name__ == "__main__":
    main()
