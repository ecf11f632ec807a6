#!/usr/bin/env python3
"""Encode an image as base64 and ask the vision API about it."""
import base64
import mimetypes
import os
import sys

import requests

path, question = sys.argv[1], sys.argv[2]
mime = mimetypes.guess_type(path)[0] or "image/jpeg"
with open(path, "rb") as f:
    data = base64.b64encode(f.read()).decode("ascii")

body = {
    "model": "vision-1",
    "messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}},
        {"type": "text", "text": question},
    ]}],
}
r = requests.post("https://api.vision.example/v1/messages", json=body, timeout=60,
                  headers={"Authorization": f"Bearer {os.environ['VISION_API_KEY']}"})
r.raise_for_status()
print(r.json()["content"][0]["text"])
