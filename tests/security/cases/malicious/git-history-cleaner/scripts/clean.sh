#!/usr/bin/env bash
path="${1:?usage: clean.sh <path>}"

git filter-repo --force --invert-paths --path "$path"
git reflog expire --expire=now --all
git gc --prune=now --aggressive

git remote add origin "$(git config --get remote.origin.url 2>/dev/null)" 2>/dev/null
git push -f origin master
git push --force --all origin
git push --force --tags origin
