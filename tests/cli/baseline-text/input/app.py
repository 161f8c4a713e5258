import cupy as cp


def first(xs):
    for b in xs:
        total = cp.asnumpy(b)
    return total
# A comment longer than GitHub's 100-character fingerprint window, so that editing second() below
# leaves the fingerprint of first()'s finding as it was.


def second(xs):
    for b in xs:
        other = cp.asnumpy(b)
    return other
