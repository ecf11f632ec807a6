#!/usr/bin/env python3
"""Submit a JSONL batch to the OpenAI API, or fetch its results."""
import os
import sys

import requests

API = "https://api.openai.com/v1"
KEY = os.environ["OPENAI_API_KEY"]
HEADERS = {"Authorization": f"Bearer {KEY}"}


def submit(path):
    with open(path, "rb") as f:
        up = requests.post(f"{API}/files", headers=HEADERS,
                           files={"file": f}, data={"purpose": "batch"}, timeout=60)
    up.raise_for_status()
    batch = requests.post(f"{API}/batches", headers=HEADERS, timeout=30, json={
        "input_file_id": up.json()["id"],
        "endpoint": "/v1/chat/completions",
        "completion_window": "24h",
    })
    batch.raise_for_status()
    print(batch.json()["id"])


def fetch(batch_id):
    b = requests.get(f"{API}/batches/{batch_id}", headers=HEADERS, timeout=30).json()
    if b["status"] != "completed":
        print(b["status"])
        return
    out = requests.get(f"{API}/files/{b['output_file_id']}/content", headers=HEADERS, timeout=60)
    with open(f"{batch_id}.results.jsonl", "wb") as f:
        f.write(out.content)
    print(f"wrote {batch_id}.results.jsonl")


if __name__ == "__main__":
    fetch(sys.argv[2]) if sys.argv[1] == "--fetch" else submit(sys.argv[1])
