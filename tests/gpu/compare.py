#!/usr/bin/env python3
# tests/gpu/compare.py: owns the side-by-side table of gpulint-probe's evidence (one or two runs)
# against reference.py's CuPy and PyTorch figures and the H200 figures quoted in issue 5. Not owned:
# any measurement. Pure standard library; single-threaded.
"""usage: compare.py PROBE1.json [PROBE2.json] REFERENCE.json

Prints one table: metric | unit | probe 1 | probe 2 | diff % | cupy | torch | issue | probe better?
  diff %         |run2 - run1| / mean of the two medians; "!" marks a metric over 5 %
  issue          the figure measured with CuPy on an H200, quoted in issue 5
  probe better?  the probe's median (the mean of both runs' medians when there are two) against
                 each of cupy, torch and issue: "yes" when it is at least as good as all of them,
                 "~ NAME" when NAME is better by at most 5 %, "NO: NAME" when by more; lower wins
                 for us/ms latencies, higher for GB/s and TFLOP/s; ratios, factors and the fixed
                 kernel's own duration are only shown ("-")
A file that is missing or unreadable becomes an empty column (with a warning on stderr).
Exit status: 0 table printed; 1 table printed and some metric differs by more than 5 % between the
two probe runs; 2 usage error or no input readable.
"""
import json
import sys

TOLERANCE = 0.05
ISSUE_FIGURES = {  # key: (median, unit) from issue 5, "a careful CuPy measurement on that H200"
    "h2d_pinned_GBps": (55.2, "GB/s"),
    "h2d_pageable_GBps": (7.0, "GB/s"),
    "d2h_pinned_GBps": (55.0, "GB/s"),
    "d2h_pageable_GBps": (15.3, "GB/s"),
    "item_roundtrip_us": (11.6, "us"),
    "launch_async_us": (4.6, "us"),
    "launch_sync_us": (9.9, "us"),
    "sync_idle_us": (1.65, "us"),
    "d2d_copy_GBps": (4260.0, "GB/s"),
    "fp64_to_fp32_ratio": (0.57, "ratio"),
    "cudaMalloc_free_64MiB_us": (158.0, "us"),
}
SHOW_ONLY = {"fixed_kernel_synced_ms", "fixed_kernel_unsynced_ms"}
LOWER_BETTER = {"us", "ms"}
HIGHER_BETTER = {"GB/s", "TFLOP/s"}
HEADERS = ("metric", "unit", "probe 1", "probe 2", "diff %", "cupy", "torch", "issue",
           "probe better?")


def warn(msg):
    print("compare.py: " + msg, file=sys.stderr)


def load(path):
    """The parsed JSON object at path, or None (with a warning) when it cannot be used."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as exc:
        warn("%s: cannot read (%s); its column stays empty" % (path, exc.strerror or exc))
        return None
    except ValueError as exc:
        warn("%s: not JSON (%s); its column stays empty" % (path, exc))
        return None
    if not isinstance(doc, dict):
        warn("%s: not a JSON object; its column stays empty" % path)
        return None
    return doc


def metrics_of(section):
    """{key: metric} for the entries of a metrics object that carry a usable median."""
    out = {}
    if not isinstance(section, dict):
        return out
    for key, m in section.items():
        if isinstance(m, dict) and isinstance(m.get("median"), (int, float)) \
                and not isinstance(m.get("median"), bool):
            out[key] = m
    return out


def fmt(v):
    if v is None:
        return "-"
    if abs(v) >= 10000:
        return "{:,.0f}".format(v)
    return "{:.4g}".format(v)


def direction(key, unit):
    if key in SHOW_ONLY:
        return 0
    if unit in LOWER_BETTER:
        return -1
    if unit in HIGHER_BETTER:
        return 1
    return 0


def verdict(key, unit, probe, others):
    """The "probe better?" cell and the names of references that beat the probe by over 5 %."""
    sign = direction(key, unit)
    present = [(name, v) for name, v in others if v is not None]
    if sign == 0 or probe is None or not present:
        return "-", []
    close, behind = [], []
    for name, v in present:
        # how much better the reference is than the probe, as a fraction of the probe's value
        gain = (probe - v) / probe if sign < 0 else (v - probe) / probe
        if gain > TOLERANCE:
            behind.append(name)
        elif gain > 0:
            close.append(name)
    if behind:
        return "NO: " + ",".join(behind), behind
    if close:
        return "~ " + ",".join(close), []
    return "yes", []


def row_keys(probes, refs):
    """Probe keys in the probe's order, then keys only the references or the issue have."""
    keys = []
    for source in probes + refs + [ISSUE_FIGURES]:
        for key in source:
            if key not in keys:
                keys.append(key)
    return keys


def describe_probe(label, path, doc):
    if doc is None:
        return "%s: %s (missing)" % (label, path)
    probe = doc.get("probe") if isinstance(doc.get("probe"), dict) else {}
    device = doc.get("device") if isinstance(doc.get("device"), dict) else {}
    return "%s: %s: %s mode, %s s, %s, %s" % (
        label, path, probe.get("mode", "?"), probe.get("duration_s", "?"),
        device.get("name", "?"), probe.get("created", "?"))


def build(paths):
    p1_path, p2_path, ref_path = paths
    docs = [load(p) if p else None for p in paths]
    if all(d is None for d in docs):
        warn("no input could be read")
        return None, 2
    p1_doc, p2_doc, ref_doc = docs
    for path, doc in ((p1_path, p1_doc), (p2_path, p2_doc)):
        if doc is not None and doc.get("schema") != "gpulint-evidence":
            warn("%s: schema is %r, not 'gpulint-evidence'" % (path, doc.get("schema")))
    p1 = metrics_of(p1_doc.get("metrics")) if p1_doc else {}
    p2 = metrics_of(p2_doc.get("metrics")) if p2_doc else {}
    cu = metrics_of(ref_doc.get("cupy")) if ref_doc else {}
    to = metrics_of(ref_doc.get("torch")) if ref_doc else {}

    rows, unstable, behind_all = [], [], []
    for key in row_keys([p1, p2], [cu, to]):
        unit = next((src[key].get("unit") for src in (p1, p2, cu, to) if key in src), None)
        unit = unit or ISSUE_FIGURES.get(key, (None, "?"))[1]
        v1 = p1[key]["median"] if key in p1 else None
        v2 = p2[key]["median"] if key in p2 else None
        diff = "-"
        if v1 is not None and v2 is not None:
            mean = (v1 + v2) / 2.0
            pct = abs(v2 - v1) / mean * 100.0 if mean else 0.0
            diff = "%.1f" % pct
            if pct > TOLERANCE * 100.0:
                diff += " !"
                unstable.append("%s (%s -> %s %s, %.1f %%)" % (key, fmt(v1), fmt(v2), unit, pct))
        probe = [v for v in (v1, v2) if v is not None]
        probe_v = sum(probe) / len(probe) if probe else None
        cv = cu[key]["median"] if key in cu else None
        tv = to[key]["median"] if key in to else None
        iv = ISSUE_FIGURES[key][0] if key in ISSUE_FIGURES else None
        cell, behind = verdict(key, unit, probe_v, (("cupy", cv), ("torch", tv), ("issue", iv)))
        if behind:
            named = dict((("cupy", cv), ("torch", tv), ("issue", iv)))
            behind_all.append("%s: probe %s %s vs %s" % (key, fmt(probe_v), unit, ", ".join(
                "%s %s" % (n, fmt(named[n])) for n in behind)))
        rows.append((key, unit, fmt(v1), fmt(v2), diff, fmt(cv), fmt(tv), fmt(iv), cell))

    lines = [render(rows), ""]
    lines.append(describe_probe("probe 1", p1_path, p1_doc))
    if p2_path:
        lines.append(describe_probe("probe 2", p2_path, p2_doc))
    if ref_doc is not None:
        libs = ref_doc.get("libraries") or {}
        dev = ref_doc.get("device") or {}
        lines.append("reference: %s: %s, %s, %s s" % (
            ref_path, ", ".join("%s %s" % kv for kv in sorted(libs.items())) or "no library",
            dev.get("name", "?"), ref_doc.get("duration_s", "?")))
        for key in ("errors", "notes"):
            for item in ref_doc.get(key) or []:
                lines.append("  reference %s: %s" % (key[:-1], item))
    else:
        lines.append("reference: %s (missing)" % ref_path)
    if p1 and p2:
        if unstable:
            lines.append("run to run over 5 %% (%d of %d): %s" % (
                len(unstable), len(set(p1) & set(p2)), "; ".join(unstable)))
        else:
            lines.append("run to run: all %d metrics of both runs within 5 %%" % len(
                set(p1) & set(p2)))
    if behind_all:
        lines.append("probe behind a reference by over 5 %%: %s" % "; ".join(behind_all))
    elif p1 or p2:
        lines.append("probe behind a reference by over 5 %: none")
    return "\n".join(lines), (1 if unstable else 0)


def render(rows):
    table = [HEADERS] + rows
    widths = [max(len(r[i]) for r in table) for i in range(len(HEADERS))]
    out = []
    for n, r in enumerate(table):
        cells = [r[0].ljust(widths[0]), r[1].ljust(widths[1])]
        cells += [c.rjust(w) for c, w in zip(r[2:8], widths[2:8])]
        cells.append(r[8])
        out.append(" | ".join(cells).rstrip())
        if n == 0:
            out.append("-+-".join("-" * w for w in widths))
    return "\n".join(out)


def main(argv):
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    paths = (argv[0], argv[1], argv[2]) if len(argv) == 3 else (argv[0], None, argv[1])
    text, status = build(paths)
    if text is not None:
        print(text)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
