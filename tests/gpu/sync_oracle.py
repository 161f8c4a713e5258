#!/usr/bin/env python3
# tests/gpu/sync_oracle.py: owns the runtime check of the sync expectations in
# tests/gpu/sync_cases/*.py (issue 45): it runs every case under PyTorch's sync debug mode, counts
# the "synchronizing CUDA operation" warnings per line of the case file, compares them with the
# lines' annotations, and times the one entry the debug mode cannot see (non_blocking=True from
# pageable memory). Not owned: the annotation format and the GPU-free check (sync_check.py), the
# cases themselves. Standard library + torch; single-threaded; needs a CUDA GPU.
"""usage: sync_oracle.py [-o RESULTS.json] [--repeat N] [CASE.py ...]

For each case file (default: every tests/gpu/sync_cases/*.py): import it, run case("cuda") once
with the debug mode off (its executed lines are traced), synchronize, then run it N times (default
5) with torch.cuda.set_sync_debug_mode("warn"). Each sync warning is counted on the innermost
frame of the case file on the Python stack at warning time (a custom warnings.showwarning walks
the stack), so a sync inside torch's own Python code lands on the case line that called it.
  "# sync: yes" is confirmed when the line warned at least N times (once per run on average);
  "# sync: no"  is confirmed when the line ran and warned 0 times.
A line that warned without an annotation is reported as an "unannotated sync". An exception in a
case is reported; the lines it ran before the exception still count, the others are "not reached".
Prints a table; with -o writes JSON: {"schema", "version", "torch", "cuda", "device", "date",
"repeat", "entries": [{file, line, entry, expected, syncs_per_run, confirmed, reached,
raised}], "unannotated": [{file, line, syncs_per_run, source}], "timing": {entry,
pinned_return_ms, pageable_return_ms, queued_ms, confirmed, ...}, "errors": [{file, line, type,
message}]}. A line that raised is never confirmed.
Exit status: 0 ran (unconfirmed entries are findings, not failures); 2 usage error; 3 no usable
torch with CUDA (one line on stderr).
"""
import argparse
import collections
import datetime
import importlib.util
import json
import linecache
import math
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ next to sync_check.py or the cases
if HERE not in sys.path:
    sys.path.insert(0, HERE)
from sync_check import default_case_files, parse_case_file, rel_path  # noqa: E402

DEVICE = "cuda"
SYNC_TEXT = "called a synchronizing CUDA operation"
TIMING_ENTRY = "non_blocking=True from pageable memory blocks the host"
MiB = 1 << 20
torch = None  # imported in main(), after the arguments are checked


class SyncRecorder:
    """A warnings.showwarning replacement that counts sync warnings per line of one case file.

    showwarning is called synchronously while the warning is issued, so the Python stack of the
    operation that synchronized is still there to walk."""

    def __init__(self, case_path):
        self.case_real = os.path.realpath(case_path)
        self.counts = collections.Counter()
        self.outside = 0      # sync warnings with no frame of the case file on the stack
        self.other = 0        # warnings that are not sync warnings
        self._same = {}

    def same_file(self, filename):
        hit = self._same.get(filename)
        if hit is None:
            hit = os.path.realpath(filename) == self.case_real
            self._same[filename] = hit
        return hit

    def __call__(self, message, category, filename, lineno, file=None, line=None):
        if SYNC_TEXT not in str(message):
            self.other += 1
            return
        frame = sys._getframe(1)
        while frame is not None:
            if self.same_file(frame.f_code.co_filename):
                self.counts[frame.f_lineno] += 1
                return
            frame = frame.f_back
        if self.same_file(filename):
            self.counts[lineno] += 1
        else:
            self.outside += 1


def load_case(path, index):
    name = "sync_case_%d_%s" % (index, os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(name, os.path.realpath(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.case


def traced_call(func, case_path, executed):
    """Calls func(DEVICE), adding to `executed` every line of the case file that runs."""
    same = SyncRecorder(case_path).same_file

    def local(frame, event, arg):
        if event == "line":
            executed.add(frame.f_lineno)
        return local

    def global_(frame, event, arg):
        return local if same(frame.f_code.co_filename) else None

    sys.settrace(global_)
    try:
        func(DEVICE)
    finally:
        sys.settrace(None)


def error_record(rel, same_file, where, exc):
    """The exception as reported; "line" is the innermost line of the case file it passed."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if same_file(tb.tb_frame.f_code.co_filename):
            line = tb.tb_lineno
        tb = tb.tb_next
    text = str(exc).strip().splitlines()
    return {"file": rel, "line": line, "type": type(exc).__name__,
            "message": "%s: %s" % (where, text[0] if text else "")}


def run_case(path, index, repeat, annotations):
    """Runs one case file; returns (entries, unannotated, errors). Never raises."""
    rel = rel_path(path)
    errors = []
    executed = set()
    recorder = SyncRecorder(path)
    same = recorder.same_file

    def report(where, exc):  # one record per distinct exception
        record = error_record(rel, same, where, exc)
        key = (record["type"], record["message"].split(": ", 1)[-1], record["line"])
        if all((e["type"], e["message"].split(": ", 1)[-1], e.get("line")) != key
               for e in errors):
            errors.append(record)

    try:
        case = load_case(path, index)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a case must not end the oracle
        report("import", exc)
        case = None
    if case is not None:
        torch.cuda.set_sync_debug_mode(0)
        try:
            traced_call(case, path, executed)          # warm-up, debug mode off
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - reported; earlier lines count
            report("warm-up", exc)
        try:
            torch.cuda.synchronize()
            with warnings.catch_warnings():
                warnings.simplefilter("always")
                warnings.showwarning = recorder
                torch.cuda.set_sync_debug_mode("warn")
                try:
                    for _ in range(repeat):
                        try:
                            case(DEVICE)
                        except (Exception, SystemExit) as exc:  # noqa: BLE001
                            report("debug-mode run", exc)
                finally:
                    torch.cuda.set_sync_debug_mode(0)
            torch.cuda.synchronize()
        except Exception as exc:  # noqa: BLE001
            report("oracle", exc)

    raised = {e["line"] for e in errors if e.get("line")}
    entries = []
    annotated_lines = set()
    for ann in annotations:
        line = ann["line"]
        annotated_lines.add(line)
        count = recorder.counts.get(line, 0)
        reached = line in executed
        if line in raised:
            confirmed = False
        elif ann["expected"] == "yes":
            confirmed = reached and count >= repeat
        else:
            confirmed = reached and count == 0
        entries.append({"file": rel, "line": line, "entry": ann["entry"],
                        "expected": ann["expected"], "syncs_per_run": round(count / repeat, 3),
                        "confirmed": bool(confirmed), "reached": reached,
                        "raised": line in raised})
    unannotated = []
    for line, count in sorted(recorder.counts.items()):
        if line not in annotated_lines:
            unannotated.append({"file": rel, "line": line,
                                "syncs_per_run": round(count / repeat, 3),
                                "source": linecache.getline(path, line).strip()})
    if recorder.outside:
        errors.append({"file": rel, "line": None, "type": "note",
                       "message": "%d sync warning(s) with no frame of the case file on the "
                       "stack" % recorder.outside})
    return entries, unannotated, errors


def pageable_nonblocking_check(repeats=5, target_ms=50.0, nbytes=64 * MiB):
    """Times how long t.to("cuda", non_blocking=True) takes to return behind ~50 ms of queued GPU
    work, for a pinned and for a pageable source. The debug mode does not warn for either."""
    a = torch.randn(4096, 4096, device=DEVICE)
    b = torch.randn(4096, 4096, device=DEVICE)
    c = torch.empty(4096, 4096, device=DEVICE)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    start.record()
    for _ in range(10):
        torch.matmul(a, b, out=c)
    end.record()
    end.synchronize()
    per_matmul_ms = start.elapsed_time(end) / 10
    n = max(1, min(2000, int(math.ceil(target_ms / max(per_matmul_ms, 1e-3)))))

    pinned = torch.empty(nbytes // 4, dtype=torch.float32, pin_memory=True).fill_(1.0)
    pageable = torch.empty(nbytes // 4, dtype=torch.float32).fill_(1.0)  # every page touched

    def one(src):
        torch.cuda.synchronize()
        start.record()
        for _ in range(n):
            torch.matmul(a, b, out=c)
        end.record()
        t0 = time.perf_counter()
        dst = src.to(DEVICE, non_blocking=True)
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        del dst
        return (t1 - t0) * 1e3, start.elapsed_time(end)

    one(pinned)       # warm-up: the device block for dst is cached from here on
    one(pageable)
    pinned_ms, pageable_ms, queued_ms = [], [], []
    for _ in range(repeats):
        r, q = one(pinned)
        pinned_ms.append(r)
        queued_ms.append(q)
        r, q = one(pageable)
        pageable_ms.append(r)
        queued_ms.append(q)

    # What the debug mode says about the same copy (expected: nothing).
    torch.cuda.synchronize()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cuda.set_sync_debug_mode("warn")
        try:
            dst = pageable.to(DEVICE, non_blocking=True)
        finally:
            torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    del dst
    debug_warnings = sum(SYNC_TEXT in str(w.message) for w in caught)

    pinned_med = statistics.median(pinned_ms)
    pageable_med = statistics.median(pageable_ms)
    queued_med = statistics.median(queued_ms)
    return {"entry": TIMING_ENTRY,
            "pinned_return_ms": round(pinned_med, 3),
            "pageable_return_ms": round(pageable_med, 3),
            "queued_ms": round(queued_med, 3),
            "confirmed": bool(pageable_med > 0.5 * queued_med and pinned_med < 0.1 * queued_med),
            "rule": "pageable > 50 % of queued and pinned < 10 % of queued (medians)",
            "bytes": nbytes, "repeats": repeats, "matmuls_queued": n,
            "per_matmul_ms": round(per_matmul_ms, 3),
            "debug_mode_warnings": debug_warnings}


def print_table(entries, unannotated, timing, errors, repeat):
    headers = ("case file", "line", "entry", "expected", "syncs/run", "confirmed")
    rows = []
    for e in entries:
        mark = "yes" if e["confirmed"] else (
            "NO (raised)" if e["raised"] else "NO (not reached)" if not e["reached"] else "NO")
        rows.append((e["file"], str(e["line"]), e["entry"], e["expected"],
                     "%.2f" % e["syncs_per_run"], mark))
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    fmt = " | ".join("%%-%ds" % w for w in widths)
    print(fmt % headers)
    print("-+-".join("-" * w for w in widths))
    for row in rows:
        print(fmt % row)
    ok = sum(e["confirmed"] for e in entries)
    print("\n%d of %d annotated lines confirmed (%d runs each)" % (ok, len(entries), repeat))
    for kind in ("yes", "no"):
        bad = [e for e in entries if e["expected"] == kind and not e["confirmed"]]
        if bad:
            print("not confirmed, expected %s: %s" % (kind, ", ".join(
                "%s:%d" % (os.path.basename(e["file"]), e["line"]) for e in bad)))
    for u in unannotated:
        print("unannotated sync: %s:%d (%.2f per run) %s" % (u["file"], u["line"],
                                                             u["syncs_per_run"], u["source"]))
    if timing:
        if "error" in timing:
            print("timing: %s: error: %s" % (timing["entry"], timing["error"]))
        else:
            print("timing: %s: %s (pinned returns in %.3f ms, pageable in %.3f ms, queued work "
                  "%.3f ms, %d debug-mode warning(s))" % (
                      timing["entry"], "confirmed" if timing["confirmed"] else "NOT confirmed",
                      timing["pinned_return_ms"], timing["pageable_return_ms"],
                      timing["queued_ms"], timing["debug_mode_warnings"]))
    for err in errors:
        if err["type"] == "annotation":
            print("error: annotation: %s" % err["message"])  # the message names file and line
            continue
        where = err["file"] + (":%d" % err["line"] if err.get("line") else "")
        print("error: %s: %s: %s" % (where, err["type"], err["message"]))


def write_json(path, doc):
    parent = os.path.dirname(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def main(argv):
    global torch
    ap = argparse.ArgumentParser(
        description="Check the sync annotations of tests/gpu/sync_cases on a CUDA GPU.")
    ap.add_argument("-o", "--output", help="write the results as JSON to this file")
    ap.add_argument("--repeat", type=int, default=5,
                    help="runs of each case under the debug mode (default: %(default)s)")
    ap.add_argument("cases", nargs="*",
                    help="case files (default: every tests/gpu/sync_cases/*.py)")
    args = ap.parse_args(argv)  # exits 2 on a usage error
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    files = args.cases or default_case_files()
    if not files:
        ap.error("no case files given and none in tests/gpu/sync_cases")
    for path in files:
        if not os.path.isfile(path) or not path.endswith(".py"):
            ap.error("not a case file: %s" % path)

    try:
        import torch as torch_module
    except Exception as exc:  # noqa: BLE001
        print("sync_oracle: cannot import torch: %s: %s" % (type(exc).__name__, exc),
              file=sys.stderr)
        return 3
    torch = torch_module
    if not torch.cuda.is_available():
        print("sync_oracle: CUDA is not available to torch %s (torch.cuda.is_available() is "
              "False); this needs an NVIDIA GPU" % torch.__version__, file=sys.stderr)
        return 3

    doc = {"schema": "gpulint-sync-oracle", "version": 1, "torch": torch.__version__,
           "cuda": torch.version.cuda, "device": torch.cuda.get_device_name(),
           "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "repeat": args.repeat, "entries": [], "unannotated": [], "timing": None, "errors": []}
    print("sync_oracle: torch %s, cuda %s, %s, %d runs per case" % (
        doc["torch"], doc["cuda"], doc["device"], args.repeat), flush=True)
    for index, path in enumerate(files):
        annotations, problems = parse_case_file(path)
        for problem in problems:
            doc["errors"].append({"file": rel_path(path), "line": None, "type": "annotation",
                                  "message": problem})
        entries, unannotated, errors = run_case(path, index, args.repeat, annotations)
        doc["entries"] += entries
        doc["unannotated"] += unannotated
        doc["errors"] += errors
        n_err = len(errors) + len(problems)
        print("  %s: %d of %d confirmed%s" % (
            rel_path(path), sum(e["confirmed"] for e in entries), len(entries),
            ", %d error(s)" % n_err if n_err else ""), flush=True)
        if args.output:
            write_json(args.output, doc)

    try:
        doc["timing"] = pageable_nonblocking_check()
    except Exception as exc:  # noqa: BLE001 - a finding is still written
        torch.cuda.set_sync_debug_mode(0)
        doc["timing"] = {"entry": TIMING_ENTRY, "pinned_return_ms": None,
                         "pageable_return_ms": None, "queued_ms": None, "confirmed": False,
                         "error": "%s: %s" % (type(exc).__name__, exc)}
    print()
    print_table(doc["entries"], doc["unannotated"], doc["timing"], doc["errors"], args.repeat)
    if args.output:
        write_json(args.output, doc)
        print("wrote %s" % args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
