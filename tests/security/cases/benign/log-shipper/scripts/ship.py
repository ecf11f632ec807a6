#!/usr/bin/env python3
"""Redact a log file and upload it to the configured ingest endpoint."""
import os
import re
import sys

import requests

URL = os.environ.get("LOG_INGEST_URL", "https://logs.example.com/ingest")
TOKEN = os.environ["LOG_INGEST_TOKEN"]

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
BEARER = re.compile(r"(?i)(bearer\s+|token=|api_key=)[A-Za-z0-9._-]+")

text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
clean, n1 = EMAIL.subn("<email>", text)
clean, n2 = BEARER.subn(r"\1<redacted>", clean)
print(f"redacted {n1} emails and {n2} tokens")

r = requests.post(URL, data=clean.encode(), timeout=30,
                  headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "text/plain"})
r.raise_for_status()
print("uploaded:", r.json().get("id"))
