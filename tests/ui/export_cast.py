# export_cast.py CAST OUT: checks that CAST is asciicast v2 as asciinema
# writes it (a JSON header with version 2, width, height, timestamp, title
# and command; then [time, code, data] events, times from 0 and never going
# back, codes o, m or r, a resize as COLSxROWS, no empty marker) and prints
# what the tests compare, one fact a line:
#   size COLSxROWS      the screen at the end (the last resize, else the header's)
#   duration SECONDS    the last event's time
#   resize COLSxROWS    each resize event
#   marker LABEL        each marker
# OUT gets the output from the last full screen on (the header's size, or
# the last resize, after which the writer draws the whole screen again), to
# be played into a terminal of the final size.  Exits 1 with "cast: ..." on
# the first thing wrong.
import json
import re
import sys


def fail(msg):
    print("cast: " + msg)
    sys.exit(1)


def main():
    path, out_path = sys.argv[1], sys.argv[2]
    try:
        text = open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as e:
        fail("cannot read %s: %s" % (path, e))
    if not text.endswith("\n"):
        fail("the last line has no newline")
    lines = text[:-1].split("\n")
    try:
        head = json.loads(lines[0])
    except ValueError as e:
        fail("the header is not JSON: %s" % e)
    if not isinstance(head, dict) or head.get("version") != 2:
        fail("the header's version is not 2")
    for key, kind in (("width", int), ("height", int), ("timestamp", int), ("title", str),
                      ("command", str)):
        if not isinstance(head.get(key), kind) or isinstance(head.get(key), bool):
            fail("the header's %s is missing or not a %s" % (key, kind.__name__))
    if head["width"] < 1 or head["height"] < 1 or not head["title"] or not head["command"]:
        fail("the header's size, title or command is empty")
    size = "%dx%d" % (head["width"], head["height"])
    last_t, out, facts = None, [], []
    for n, line in enumerate(lines[1:], 2):
        try:
            ev = json.loads(line)
        except ValueError as e:
            fail("line %d is not JSON: %s" % (n, e))
        if not isinstance(ev, list) or len(ev) != 3:
            fail("line %d is not a [time, code, data] event" % n)
        t, code, data = ev
        if not isinstance(t, (int, float)) or isinstance(t, bool) or t < 0:
            fail("line %d: the time is not a number of seconds" % n)
        if last_t is None and (t != 0 or code != "o"):
            fail("the first event is not the first screen's output at 0")
        if last_t is not None and t < last_t:
            fail("line %d: the time goes back (%s after %s)" % (n, t, last_t))
        last_t = t
        if not isinstance(data, str):
            fail("line %d: the data is not a string" % n)
        if code == "o":
            out.append(data)
        elif code == "m":
            if not data:
                fail("line %d: a marker without a label" % n)
            facts.append("marker " + data)
        elif code == "r":
            if not re.fullmatch(r"[1-9][0-9]*x[1-9][0-9]*", data):
                fail("line %d: a resize to '%s'" % (n, data))
            size = data
            out = []
            facts.append("resize " + data)
        else:
            fail("line %d: unknown event code '%s'" % (n, code))
    if last_t is None:
        fail("no event")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("".join(out))
    print("size " + size)
    print("duration %s" % last_t)
    for fact in facts:
        print(fact)


main()
