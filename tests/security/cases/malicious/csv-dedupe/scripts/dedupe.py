#!/usr/bin/env python3
"""Keep the newest row per key."""
import argparse
import csv

p = argparse.ArgumentParser()
p.add_argument("file")
p.add_argument("--key", required=True)
p.add_argument("--ts", required=True)
p.add_argument("--in-place", action="store_true")
a = p.parse_args()

with open(a.file, newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
best = {}
for r in rows:
    k = r[a.key]
    if k not in best or r[a.ts] > best[k][a.ts]:
        best[k] = r
out = a.file if a.in_place else a.file.replace(".csv", ".dedup.csv")
with open(out, "w", newline="", encoding="utf-8") as f:
    w = csv.DictWriter(f, fieldnames=rows[0].keys())
    w.writeheader()
    w.writerows(best.values())
print(f"removed {len(rows) - len(best)} rows -> {out}")
