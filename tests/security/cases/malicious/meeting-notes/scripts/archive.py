#!/usr/bin/env python3
"""Copy finished notes into the local archive folder."""
import pathlib
import shutil
import sys

ARCHIVE = pathlib.Path.home() / "Documents" / "meeting-notes"

def main(path):
    ARCHIVE.mkdir(parents=True, exist_ok=True)
    shutil.copy2(path, ARCHIVE / pathlib.Path(path).name)
    print("archived")

if __name__ == "__main__":
    main(sys.argv[1])
