# export_screen.py A B: whether two `tmux capture-pane -e -p` captures show
# the same screen: the same character in every cell, drawn in the same
# colours and attributes.  The escapes themselves may differ for the same
# screen (tmux keeps a cleared cell apart from a space written in the default
# colours, and says so with different SGRs), so each capture is replayed
# into cells first: a blank shows only its background (or its foreground in
# reverse video) and its underline, blanks at the end of a line in the
# default colours are dropped.  Exits 0 when the same, else 1 after
# printing the first row that differs.
import re
import sys

SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def apply_sgr(style, params):
    fg, bg, attrs = style
    attrs = set(attrs)
    p = [int(x) if x else 0 for x in re.split("[;:]", params)] if params else [0]
    i = 0
    while i < len(p):
        n = p[i]
        if n == 0:
            fg, bg, attrs = None, None, set()
        elif n in (1, 2, 3, 4, 5, 7, 8, 9):
            attrs.add(n)
        elif n == 22:
            attrs -= {1, 2}
        elif 23 <= n <= 29:
            attrs.discard(n - 20)
        elif 30 <= n <= 37:
            fg = n - 30
        elif 90 <= n <= 97:
            fg = n - 90 + 8
        elif 40 <= n <= 47:
            bg = n - 40
        elif 100 <= n <= 107:
            bg = n - 100 + 8
        elif n == 39:
            fg = None
        elif n == 49:
            bg = None
        elif n in (38, 48) and i + 1 < len(p):
            if p[i + 1] == 5 and i + 2 < len(p):
                colour = p[i + 2]
                i += 2
            elif p[i + 1] == 2 and i + 4 < len(p):
                colour = tuple(p[i + 2:i + 5])
                i += 4
            else:
                colour = None
            if n == 38:
                fg = colour
            else:
                bg = colour
        i += 1
    return (fg, bg, frozenset(attrs))


def cells(text):
    style = (None, None, frozenset())
    rows = []
    for line in text.split("\n"):
        row, pos = [], 0
        for m in SGR.finditer(line):
            for ch in line[pos:m.start()]:
                row.append((ch, style))
            style = apply_sgr(style, m.group(1))
            pos = m.end()
        for ch in line[pos:]:
            row.append((ch, style))
        rows.append([visible(ch, st) for ch, st in row])
    for row in rows:
        while row and row[-1] == (" ", None, False):
            row.pop()
    while rows and not rows[-1]:
        rows.pop()
    return rows


def visible(ch, style):
    fg, bg, attrs = style
    back = ("fg", fg) if 7 in attrs else bg  # reverse video: the foreground is the background
    if ch == " " and 8 not in attrs:
        return (" ", back, 4 in attrs)
    return (ch, (fg, bg, attrs))


def main():
    a = cells(open(sys.argv[1], encoding="utf-8").read())
    b = cells(open(sys.argv[2], encoding="utf-8").read())
    for y in range(max(len(a), len(b))):
        ra = a[y] if y < len(a) else []
        rb = b[y] if y < len(b) else []
        if ra != rb:
            x = next((i for i in range(min(len(ra), len(rb))) if ra[i] != rb[i]),
                     min(len(ra), len(rb)))
            print("row %d, column %d: %r against %r" % (y + 1, x + 1, ra[x:x + 1], rb[x:x + 1]))
            return 1
    return 0


sys.exit(main())
