# jd_content: what an array is, by its values.  The inputs of a case make
# every block unique (the program picks a seed where they are), so a message
# or a column of the result names the block it holds: a row chunk of A, a
# column shard of B, a block of C or a partial product, or nothing known.
#
# Matching is allclose-like with a tight tolerance, not equality: a product
# the candidate made (a view, another block shape) may differ from ours in the
# last bits, while two different blocks differ by far more.
import zlib

import numpy as np


def parts(length, n):
    """numpy.array_split's rule: [(begin, end)] for n parts."""
    q, r = divmod(length, n)
    out, b = [], 0
    for i in range(n):
        e = b + q + (1 if i < r else 0)
        out.append((b, e))
        b = e
    return out


def close(x, y):
    if x.shape != y.shape:
        return False
    if x.size == 0:
        return True
    try:
        d = np.max(np.abs(np.asarray(x, dtype=np.float64) - y))
    except (TypeError, ValueError):
        return False
    return bool(d <= 1e-7 * (1.0 + float(np.max(np.abs(y)))))


def fmt_range(b, e):
    return "%d:%d" % (b, e)


class Catalogue:
    """The blocks of one case, by shape."""

    def __init__(self, A, B, n):
        self.A, self.B, self.n = A, B, n
        self.M, self.K = A.shape
        self.N = B.shape[1]
        self.rows = parts(self.M, n)
        self.cols = parts(self.N, n)
        self.krows = parts(self.K, n)
        self.P = A @ B
        self.by_shape = {}
        for r, (b, e) in enumerate(self.rows):
            self._add(("A", r), A[b:e])
        self._add(("A*", -1), A)
        for k, (b, e) in enumerate(self.cols):
            self._add(("B", k), B[:, b:e])
        self._add(("B*", -1), B)
        for k, (b, e) in enumerate(self.krows):
            self._add(("Brows", k), B[b:e])
        for r, (b, e) in enumerate(self.rows):
            self._add(("C", r), self.P[b:e])
        for r, (b, e) in enumerate(self.rows):
            for k, (c0, c1) in enumerate(self.cols):
                self._add(("P", (r, k)), self.P[b:e, c0:c1])
        self._add(("C*", -1), self.P)

    def _add(self, label, arr):
        if arr.size == 0:
            return
        self.by_shape.setdefault(arr.shape, []).append((label, arr))

    def identify(self, x):
        """A label for one array: ("B", k), ("C", r), ("P", (r, k)),
        ("Cpart", (r, [k...])), ("empty", shape) or ("unknown", shape)."""
        shape = tuple(getattr(x, "shape", ()))
        if len(shape) != 2:
            return ("unknown", shape)
        if x.size == 0:
            return ("empty", shape)
        for label, arr in self.by_shape.get(shape, ()):
            if close(x, arr):
                return label
        # a rank's rows of C with some shards filled in and the others zero
        for r, (b, e) in enumerate(self.rows):
            if shape != (e - b, self.N) or e == b:
                continue
            filled, ok = [], True
            for k, (c0, c1) in enumerate(self.cols):
                blk = x[:, c0:c1]
                if c1 == c0:
                    continue
                if close(blk, self.P[b:e, c0:c1]):
                    filled.append(k)
                elif not np.all(np.asarray(blk) == 0):
                    ok = False
                    break
            if ok and filled:
                return ("Cpart", (r, filled))
        return ("unknown", shape)

    # ---- words -------------------------------------------------------------

    def words(self, label, owner=None):
        kind, idx = label
        if kind == "A":
            b, e = self.rows[idx]
            return "A's rows %s (rank %d's chunk)" % (fmt_range(b, e), idx)
        if kind == "A*":
            return "all of A"
        if kind == "B":
            b, e = self.cols[idx]
            s = "shard %d (B[:, %s])" % (idx, fmt_range(b, e))
        elif kind == "B*":
            s = "all of B"
        elif kind == "Brows":
            b, e = self.krows[idx]
            s = "B's rows %s (B split along the wrong axis)" % fmt_range(b, e)
        elif kind == "C":
            b, e = self.rows[idx]
            s = "rank %d's rows of C (C[%s])" % (idx, fmt_range(b, e))
        elif kind == "P":
            r, k = idx
            b, e = self.rows[r]
            c0, c1 = self.cols[k]
            s = "rank %d's product with shard %d (C[%s, %s])" % (r, k, fmt_range(b, e),
                                                               fmt_range(c0, c1))
        elif kind == "C*":
            s = "all of C"
        elif kind == "Cpart":
            r, ks = idx
            b, e = self.rows[r]
            s = "rank %d's rows of C (C[%s]) with only shard%s %s filled in" % (
                r, fmt_range(b, e), "" if len(ks) == 1 else "s", ", ".join(map(str, ks)))
        elif kind == "empty":
            s = "an empty %dx%d array" % tuple(idx)
        else:
            s = "an unknown %s array" % "x".join(str(d) for d in idx) if idx else \
                "something that is not an array"
        if owner is not None and kind == "B" and owner != idx:
            s += ", tagged as shard %d" % owner
        return s

    # ---- the result, column by column and row by row ----------------------

    def col_map(self, R, r, prefer_cut=False):
        """For rank r's rows of the result: what each column holds, as
        ("P", j) (column j of A @ B), ("T", j) (it cut to whole numbers),
        ("zero",) or ("unknown",).  Each column is first checked against its
        own column of the product (one pass for all); only the others are
        searched for."""
        b, e = self.rows[r]
        if e == b:
            return None
        Rr = np.asarray(R[b:e], dtype=np.float64)
        Pr = self.P[b:e]
        scale = 1e-7 * (1.0 + np.max(np.abs(Pr), axis=0))
        own = np.max(np.abs(Rr - Pr), axis=0) <= scale
        out = [("P", c) if own[c] else None for c in range(self.N)]
        if all(own):
            return out
        Tr = np.trunc(Pr)
        cut_own = np.max(np.abs(Rr - Tr), axis=0) == 0
        for c in range(self.N):
            if out[c] is not None:
                continue
            col = Rr[:, c:c + 1]
            zero = bool(np.all(col == 0))
            # an integer result's zeros are more likely fractions cut off
            if prefer_cut and cut_own[c]:
                out[c] = ("T", c)
                continue
            d = np.max(np.abs(Pr - col), axis=0)
            j = int(np.argmin(d))
            if d[j] <= scale[j]:
                out[c] = ("P", j)
            elif zero:
                out[c] = ("zero",)
            elif cut_own[c]:
                out[c] = ("T", c)
            else:
                dt = np.max(np.abs(Tr - col), axis=0)
                j = int(np.argmin(dt))
                out[c] = ("T", j) if dt[j] == 0 else ("unknown",)
        return out

    def row_map(self, R):
        """For each row of the result: the row of A @ B it equals, or -1
        (its own row checked first, the others searched only when needed)."""
        R = np.asarray(R, dtype=np.float64)
        if self.N == 0:
            return list(range(self.M))
        scale = 1e-7 * (1.0 + np.max(np.abs(self.P), axis=1))
        own = np.max(np.abs(R - self.P), axis=1) <= scale
        out = []
        for p in range(self.M):
            if own[p]:
                out.append(p)
                continue
            d = np.max(np.abs(self.P - R[p:p + 1]), axis=1)
            q = int(np.argmin(d))
            out.append(q if d[q] <= scale[q] else -1)
        return out

    def rank_of_row(self, q):
        for r, (b, e) in enumerate(self.rows):
            if b <= q < e:
                return r
        return -1

    def shard_of_col(self, j):
        for k, (b, e) in enumerate(self.cols):
            if b <= j < e:
                return k
        return -1


def arrays_in(item, depth=0):
    """The arrays in a message, each with the int just before it in the
    innermost tuple or list that holds it (the owner index of an
    (owner, shard) pair); a top-level (src, data) does not count src."""
    out = []
    if isinstance(item, np.ndarray):
        out.append((item, None))
        return out
    if depth > 3 or not isinstance(item, (tuple, list)):
        return out
    last_int = None
    for i, v in enumerate(item):
        if isinstance(v, np.ndarray):
            out.append((v, last_int))
        elif isinstance(v, (tuple, list)):
            out.extend(arrays_in(v, depth + 1))
        elif _is_int(v) and not (depth == 0 and i == 0 and isinstance(item, tuple)):
            last_int = int(v)
    return out


def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


RANK = {"B": 0, "B*": 1, "C": 0, "P": 0, "Cpart": 0, "C*": 1, "Brows": 2, "A": 3, "A*": 3,
        "empty": 4, "unknown": 5}


def identify_item(cat, item):
    """(label, owner, bytes, shape) of a message: its most telling array."""
    found = arrays_in(item)
    if not found:
        return ("unknown", ()), None, 0, None
    best = None
    nbytes = 0
    for arr, owner in found:
        nbytes += int(arr.nbytes)
        label = cat.identify(arr)
        if label[0] == "empty" and owner is not None and 0 <= owner < cat.n:
            c0, c1 = cat.cols[owner]
            if arr.shape == (cat.K, c1 - c0):
                label = ("B", owner)
        key = RANK.get(label[0], 9)
        if best is None or key < best[0]:
            best = (key, label, owner, tuple(arr.shape))
    return best[1], best[2], nbytes, best[3]


def checksum(item, depth=0):
    """A checksum of every array in a message (and of its plain values)."""
    if isinstance(item, np.ndarray):
        try:
            data = np.ascontiguousarray(item).tobytes()
        except (TypeError, ValueError):
            return ("?",)
        return (item.shape, str(item.dtype), zlib.crc32(data))
    if isinstance(item, (tuple, list)) and depth < 4:
        return tuple(checksum(v, depth + 1) for v in item)
    try:
        return ("v", hash(item))
    except TypeError:
        return ("v", id(item))
