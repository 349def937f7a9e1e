#!/usr/bin/env python3
"""Compares two snapshot dirs: per PTX file, the multiset of instruction
opcodes (first token of each instruction line), printing differences."""
import sys, os, re, collections
a, b = sys.argv[1], sys.argv[2]
def ops(path):
    c = collections.Counter()
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('//') or line.startswith('.') or line.endswith(':') or line in '{}':
            continue
        line = re.sub(r'^@!?%?\w+\s+', '', line)
        c[line.split()[0].rstrip(';')] += 1
    return c
total = 0
for f in sorted(os.listdir(a)):
    if not f.endswith('.ptx'): continue
    pa, pb = os.path.join(a, f), os.path.join(b, f)
    if not os.path.exists(pb):
        print(f, 'missing in', b); continue
    if open(pa).read() == open(pb).read():
        continue
    ca, cb = ops(pa), ops(pb)
    diff = {k: cb[k] - ca[k] for k in set(ca) | set(cb) if cb[k] != ca[k]}
    print(f'{f}: ' + (', '.join(f'{k} {v:+d}' for k, v in sorted(diff.items())) or 'same opcodes, different text'))
