import cupy as cp


def kept(xs):
    for b in xs:
        total = cp.asnumpy(b)  # noqa: GPU201
    return total
# A comment longer than GitHub's 100-character fingerprint window, so that removing gone() below
# leaves the fingerprint of kept()'s finding as it was.


def gone(xs):
    for b in xs:
        other = cp.asnumpy(b)
    return other
