#!/usr/bin/env python3
"""Subcommands as methods, dispatched by name."""
import sys


class Cli:
    def cmd_greet(self, name="world"):
        print(f"hello, {name}")

    def cmd_add(self, *nums):
        print(sum(int(n) for n in nums))

    def commands(self):
        return sorted(n[4:] for n in dir(self) if n.startswith("cmd_"))


def main(argv):
    cli = Cli()
    if not argv or argv[0] not in cli.commands():
        print("commands:", ", ".join(cli.commands()))
        return 2
    handler = getattr(cli, "cmd_" + argv[0])
    handler(*argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
