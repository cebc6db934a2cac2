# cast_tokens.py [--print] CAST: what moves along the links in an exported
# asciicast, read frame by frame, so a test sees the middle of a motion
# without racing it (the export draws on a virtual clock: the same frames
# every time).  Each transfer's motion is its frames up to its marker (put
# where the screen settled); the cells where a frame differs from the
# settled one are the moving labels.  Each group of them (cells touching
# side by side or one above the other) must read, left to right or top to
# bottom, as shard labels, "B3" or "B3B2": a lone "3" is the fault this
# catches.  Prints "labels N down M" (how many, how many read downward);
# exits 1 with the frame on the first label that does not read.  --print
# prints every frame instead ("@@ frame N", "@@ marker LABEL").
#
# The writer (app/export/cast.c) uses only what this replays: CUP, SGR
# (ignored: text only), ESC [ H ESC [ 2 J, ESC [ ? 25 l, then characters
# one cell each; a resize event starts a blank screen of its size.
import json
import re
import sys

ESC = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")
LABEL = re.compile(r"^(B[0-9]+)+$")


def frames(path):
    """Yields ("frame", rows) and ("marker", label) in the cast's order."""
    lines = open(path, encoding="utf-8").read().splitlines()
    head = json.loads(lines[0])
    cols, rows = head["width"], head["height"]
    scr = [[" "] * cols for _ in range(rows)]
    y = x = 0
    for line in lines[1:]:
        _, code, data = json.loads(line)
        if code == "m":
            yield "marker", data
            continue
        if code == "r":
            cols, rows = (int(v) for v in data.split("x"))
            scr = [[" "] * cols for _ in range(rows)]
            y = x = 0
            continue
        i = 0
        while i < len(data):
            m = ESC.match(data, i)
            if m:
                if m.group(2) == "H":
                    p = [int(v) for v in m.group(1).split(";")] if m.group(1) else [1, 1]
                    y, x = p[0] - 1, p[1] - 1
                elif m.group(2) == "J":
                    scr = [[" "] * cols for _ in range(rows)]
                i = m.end()
                continue
            if 0 <= y < rows and 0 <= x < cols:
                scr[y][x] = data[i]
            x += 1
            i += 1
        yield "frame", ["".join(r) for r in scr]


def boxes(f):
    """The cells of the titled boxes (the panels, the table) of frame f: a
    top-left corner with a title after it ("┌ rank 0", "┌0──", "┌─ sched"),
    to the first top-right corner on its row and the first bottom corner
    below it whose row closes the box."""
    inside = set()
    for y, row in enumerate(f):
        for x, ch in enumerate(row[:-2]):
            if ch not in "┌+" or not (row[x + 1] == " " or row[x + 1].isalnum() or
                                      (row[x + 1] in "─-" and row[x + 2] == " ")):
                continue
            right = next((c for c in range(x + 1, len(row)) if row[c] in "┐+"), None)
            if right is None:
                continue
            bottom = next((r for r in range(y + 1, len(f)) if f[r][x] in "└+" and
                           f[r][x + 1] in "─-" and f[r][right] in "┘+"), None)
            if bottom is not None:
                inside.update((r, c) for r in range(y, bottom + 1)
                              for c in range(x, right + 1))
    return inside


def groups(moving, still, inside):
    """The moving labels: the cells that differ outside the boxes, grouped
    by touching."""
    cells = {(y, x) for y in range(len(moving)) for x in range(len(moving[y]))
             if moving[y][x] != still[y][x] and (y, x) not in inside}
    while cells:
        todo, group = [cells.pop()], set()
        while todo:
            y, x = todo.pop()
            group.add((y, x))
            for n in ((y, x - 1), (y, x + 1), (y - 1, x), (y + 1, x)):
                if n in cells:
                    cells.discard(n)
                    todo.append(n)
        yield sorted(group)


def main():
    args = sys.argv[1:]
    if args[0] == "--print":
        n = 0
        for kind, what in frames(args[1]):
            if kind == "marker":
                print("@@ marker " + what)
            else:
                print("@@ frame %d" % n)
                print("\n".join(r.rstrip() for r in what))
                n += 1
        return 0
    shown, labels, down = [], 0, 0
    for kind, what in frames(args[0]):
        if kind == "frame":
            shown.append(what)
            continue
        if what.startswith("transfer") and len(shown) > 1:
            still = shown[-1]
            inside = boxes(still)
            for f in shown[:-1]:
                for g in groups(f, still, inside):
                    vertical = len({x for _, x in g}) == 1 and len(g) > 1
                    text = "".join(f[y][x] for y, x in
                                   (sorted(g, key=lambda c: (c[1], c[0])) if vertical else g))
                    if not LABEL.match(text):
                        print("a moving label reads '%s' (row %d, column %d) in:"
                              % (text, g[0][0] + 1, g[0][1] + 1))
                        print("\n".join(r.rstrip() for r in f))
                        return 1
                    labels += 1
                    down += vertical
        shown = []
    print("labels %d down %d" % (labels, down))
    return 0


sys.exit(main())
