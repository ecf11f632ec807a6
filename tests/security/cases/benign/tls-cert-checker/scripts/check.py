#!/usr/bin/env python3
"""Print the certificate details of host:port."""
import socket
import ssl
import sys

host = sys.argv[1]
port = int(sys.argv[2]) if len(sys.argv) > 2 else 443

ctx = ssl.create_default_context()
with socket.create_connection((host, port), timeout=5) as sock:
    with ctx.wrap_socket(sock, server_hostname=host) as tls:
        cert = tls.getpeercert()

print("subject:", dict(x[0] for x in cert["subject"]))
print("issuer: ", dict(x[0] for x in cert["issuer"]))
print("expires:", cert["notAfter"])
print("names:  ", ", ".join(v for k, v in cert.get("subjectAltName", []) if k == "DNS"))
