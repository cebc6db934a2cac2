#!/usr/bin/env bash
# docs_test: the README a newcomer reads and the docs/ pages it points to.
# The README opens with the two commands (set up and run; the tests), the
# test command is the one CI runs, it stays short (under 300 lines: the long
# explanations live in docs/), and every relative link in it and in docs/
# reaches a file that exists and, with #anchor, a heading of that file (as
# GitHub makes anchors: lower case, punctuation dropped, spaces to dashes).
set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT" || exit 1
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

lines=$(wc -l <README.md)
[ "$lines" -lt 300 ] && ok || bad "README.md has $lines lines (under 300: move the long parts to docs/)"
first=$(awk '/^```/{f++; next} f==1' README.md)
echo "$first" | sed -n 1p | grep -q '^make deps run' && ok || bad "README's first command is not 'make deps run': $(echo "$first" | sed -n 1p)"
echo "$first" | sed -n 2p | grep -q '^make deps test' && ok || bad "README's second command is not 'make deps test'"
grep -q '^make deps test$' .ci/run && ok || bad ".ci/run does not run the README's test command"

# Every relative link [text](target) outside code fences.
python3 - README.md docs/*.md <<'PY' && ok || bad "links above do not resolve"
import os, re, sys
def slug(h):
    h = h.strip().lower()
    h = re.sub(r'[^\w\- ]', '', h)
    return h.replace(' ', '-')
def anchors(path):
    out, fence = set(), False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
        elif not fence and re.match(r'#+ ', line):
            out.add(slug(line.lstrip('#')))
    return out
bad = 0
for f in sys.argv[1:]:
    fence = False
    for n, line in enumerate(open(f, encoding='utf-8'), 1):
        if line.startswith('```'):
            fence = not fence
            continue
        if fence:
            continue
        line = re.sub(r'`[^`]*`', '', line)  # an example in code is not a link
        for target in re.findall(r'\]\(([^)\s]+)\)', line):
            if re.match(r'[a-z]+:', target):
                continue
            path, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if not os.path.exists(dest):
                print(f"FAIL: {f}:{n}: {target}: no such file"); bad += 1
            elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
                print(f"FAIL: {f}:{n}: {target}: no such heading"); bad += 1
sys.exit(1 if bad else 0)
PY

echo "docs_test: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
