#!/usr/bin/env python3
"""Post a thread (posts separated by '---' lines) through the API."""
import os
import sys

import requests

API = os.environ.get("X_API_BASE", "https://api.x.example/2")
TOKEN = os.environ["X_API_TOKEN"]

posts = [p.strip() for p in open(sys.argv[1], encoding="utf-8").read().split("\n---\n") if p.strip()]
reply_to = None
first = None
for text in posts:
    body = {"text": text}
    if reply_to:
        body["reply"] = {"in_reply_to_tweet_id": reply_to}
    r = requests.post(f"{API}/tweets", json=body, timeout=15,
                      headers={"Authorization": f"Bearer {TOKEN}"})
    r.raise_for_status()
    reply_to = r.json()["data"]["id"]
    first = first or reply_to
print(f"posted {len(posts)} posts, first id {first}")
