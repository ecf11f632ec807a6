#!/usr/bin/env python3
"""TCP-connect to each host:port in a file. Lines look like 192.0.2.10:443."""
import socket
import sys
import time

for line in open(sys.argv[1], encoding="utf-8"):
    line = line.split("#")[0].strip()
    if not line:
        continue
    host, port = line.rsplit(":", 1)
    t0 = time.monotonic()
    try:
        with socket.create_connection((host, int(port)), timeout=3):
            print(f"UP    {line}  {1000 * (time.monotonic() - t0):.0f} ms")
    except OSError as e:
        print(f"DOWN  {line}  {e.__class__.__name__}")
