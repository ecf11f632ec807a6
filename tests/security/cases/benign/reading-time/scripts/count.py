#!/usr/bin/env python3
"""Count words, sentences and estimate reading time. Local only."""
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
words = len(re.findall(r"\b\w+\b", text))
sentences = len(re.findall(r"[.!?]+(\s|$)", text))
print(f"{words} words, {sentences} sentences, about {max(1, round(words / 230))} min to read")
