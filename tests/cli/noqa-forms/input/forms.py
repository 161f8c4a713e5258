import cupy as cp

for batch in range(3):
    a = cp.asnumpy(cp.ones(3))  # noqa: GPU201,GPU203
    b = cp.asnumpy(cp.ones(3))  # noqa:GPU201 GPU203
    c = cp.asnumpy(cp.ones(3))  #noqa
    d = cp.asnumpy(cp.ones(3))  # NOQA: GPU201 copied once per batch on purpose
    e = cp.asnumpy(cp.ones(3))  # noqa: gpu201 (lower case is no code: acts as bare)
    f = cp.asnumpy(cp.ones(3))  # noqa: GPU202 (another rule: still reported)
    g = cp.asnumpy(  # noqa: GPU201 (first line of a multi-line finding)
        cp.ones(3))
    h = cp.asnumpy(
        cp.ones(3))  # noqa: GPU201 (last line: does not count)
    s = cp.asnumpy(cp.array("""one
two"""))  # noqa: GPU201, GPU203 (first line ends in a string: goes where it ends)
    t = "# noqa: GPU201 inside a string is no comment"; u = cp.asnumpy(cp.ones(3))
