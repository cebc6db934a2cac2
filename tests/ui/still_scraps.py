# still_scraps.py FILE: whether a screen with the verification's box over
# the panels shows a scrap of a panel beside it ("52 B", "3]": the part of
# a panel the box did not cover).  FILE is a text capture (tmux capture-pane
# -p) or an SVG still exported with --ascii (its <text> runs put back into
# rows; the borders are then characters too).  Every letter and digit of
# the panels' area must be in the box, in a panel seen whole (its four
# corners), or in the schedule table: else it prints the row and exits 1.
# Prints "scraps: none, N panels whole" when all is well.
import re
import sys
import xml.dom.minidom

TL, TR, BL, BR = "┌┐└┘"


def rows_of(path):
    raw = open(path, encoding="utf-8").read()
    if not raw.lstrip().startswith("<"):
        return raw.split("\n")
    grid = {}
    dom = xml.dom.minidom.parseString(raw)
    for t in dom.getElementsByTagName("text"):
        s = "".join(n.data for n in t.childNodes if n.nodeType == n.TEXT_NODE)
        xs = [int(float(x)) for x in t.getAttribute("x").split()]
        y = int(float(t.getAttribute("y")))
        for ch, x in zip(s, xs):
            grid[(y, x)] = ch
    ys = sorted({y for y, _ in grid})
    step = min(b - a for a, b in zip(ys, ys[1:])) if len(ys) > 1 else 1
    x0 = min(x for _, x in grid)
    cell = 10
    out = []
    for y in range(ys[0], ys[-1] + 1, step):
        row = {(x - x0) // cell + 1: c for (yy, x), c in grid.items() if yy == y}
        out.append("".join(row.get(i, " ") for i in range(max(row) + 1 if row else 0)))
    return out


def corner(c, which):
    return c == which or c == "+"


def boxes(rows, title_re):
    """Rectangles (y, x, h, w) of boxes whose top border carries title_re."""
    found = []
    for y, line in enumerate(rows):
        for m in re.finditer(title_re, line):
            x = line.rfind(TL, 0, m.start())
            xa = line.rfind("+", 0, m.start())
            x = max(x, xa)
            if x < 0:
                continue
            r = m.end()
            while r < len(line) and not corner(line[r], TR):
                r += 1
            if r >= len(line):
                continue
            for b in range(y + 1, len(rows)):
                if len(rows[b]) > r and corner(rows[b][x], BL) and corner(rows[b][r], BR):
                    found.append((y, x, b - y + 1, r - x + 1))
                    break
    return found


def whole(rows, rect):
    """Every row of its sides a side, its bottom a bottom: nothing over it."""
    y, x, h, w = rect
    for yy in range(y + 1, y + h - 1):
        line = rows[yy]
        if len(line) < x + w or line[x] not in "│├┤|+" or line[x + w - 1] not in "│├┤|+":
            return False
    return all(c in "─┬┴└┘-+" for c in rows[y + h - 1][x:x + w])


def inside(rects, y, x):
    return any(ry <= y < ry + h and rx <= x < rx + w for ry, rx, h, w in rects)


def main():
    rows = rows_of(sys.argv[1])
    box = boxes(rows, r"C = A @ B on rank 0|C on rank 0: MISMATCH|the verification on rank 0")
    if not box:
        print("scraps: no verification box on screen")
        sys.exit(1)
    panels = [p for p in boxes(rows, r" rank \d+ ") if whole(rows, p)]
    table = boxes(rows, r"schedule|training step:")
    keep = box + panels + table
    last = max(y + h for y, x, h, w in keep)  # the panels' area ends with its lowest box
    for y in range(1, min(last + 1, len(rows))):
        for x, c in enumerate(rows[y]):
            if not c.isalnum() or inside(keep, y, x):
                continue
            # an arrowhead in ASCII ("v" under a link), not a word
            near = rows[y][x - 1:x] + rows[y][x + 1:x + 2]
            if c == "v" and not any(ch.isalnum() for ch in near):
                continue
            print("scraps: row %d col %d: %r" % (y, x, rows[y]))
            sys.exit(1)
    print("scraps: none, %d panels whole" % len(panels))


main()
