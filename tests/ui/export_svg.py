# export_svg.py BASE COUNT [CHECK...]: checks an SVG export's series: the
# stills BASE-000.svg ... BASE-(COUNT-1).svg and the final BASE.svg exist,
# BASE-COUNT.svg does not, and each parses as XML: an <svg> root with a
# viewBox, a non-empty <title>, and <text> elements, each with one x a
# character, a cell (10 units) or more apart.  Each CHECK is
#   +TEXT  TEXT is in every still's text (the <text> contents, which a
#          viewer selects and searches)
#   =RAW   RAW is in the final still's markup
#   !RAW   RAW is in no still's markup
# Prints "svg: ok N" or exits 1 with "svg: ..." on the first thing wrong.
import os
import sys
import xml.dom.minidom


def fail(msg):
    print("svg: " + msg)
    sys.exit(1)


def texts(dom):
    out = []
    for t in dom.getElementsByTagName("text"):
        out.append("".join(n.data for n in t.childNodes if n.nodeType == n.TEXT_NODE))
    return out


def main():
    base, count, checks = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    files = ["%s-%03d.svg" % (base, i) for i in range(count)] + [base + ".svg"]
    if os.path.exists("%s-%03d.svg" % (base, count)):
        fail("%s-%03d.svg: one still too many" % (base, count))
    for path in files:
        try:
            raw = open(path, encoding="utf-8").read()
            dom = xml.dom.minidom.parseString(raw)
        except (OSError, UnicodeDecodeError, Exception) as e:  # expat raises its own
            fail("%s: %s" % (path, e))
        root = dom.documentElement
        if root.tagName != "svg" or not root.getAttribute("viewBox"):
            fail("%s: the root is not an <svg> with a viewBox" % path)
        title = dom.getElementsByTagName("title")
        if not title or not title[0].firstChild or not title[0].firstChild.data.strip():
            fail("%s: no title" % path)
        words = texts(dom)
        if not words:
            fail("%s: no text" % path)
        for t, w in zip(dom.getElementsByTagName("text"), words):
            xs = t.getAttribute("x").split()
            if len(xs) != len(w) or any(int(b) - int(a) < 10 for a, b in zip(xs, xs[1:])):
                fail("%s: '%s' is not placed a cell a character (x=\"%s\")" % (path, w, " ".join(xs)))
        joined = "\n".join(words)
        for c in checks:
            if c[0] == "+" and c[1:] not in joined:
                fail("%s: the text has no '%s'" % (path, c[1:]))
            if c[0] == "=" and path == files[-1] and c[1:] not in raw:
                fail("%s: no '%s' in the markup" % (path, c[1:]))
            if c[0] == "!" and c[1:] in raw:
                fail("%s: '%s' in the markup" % (path, c[1:]))
    print("svg: ok %d" % len(files))


main()
