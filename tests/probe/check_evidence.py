#!/usr/bin/env python3
# tests/probe/check_evidence.py FILE [--synthetic]: checks an evidence file strictly against schema
# version 1 (cuda-probe/README.md): JSON with no NaN/Infinity and no duplicate keys, exactly the
# top-level keys, a device name, metrics with known units, finite values in order and under the
# unit's cap. With --synthetic, also the exact values tests/probe/json_writer.c wrote.
import json
import math
import re
import sys

CAPS = {"us": 1e7, "ms": 1e6, "GB/s": 1e5, "TFLOP/s": 1e5, "ratio": 1e3, "x": 1e6}


def fail(msg):
    print(f"check_evidence: {msg}")
    sys.exit(1)


def reject_constant(name):
    fail(f"non-finite constant {name} in the JSON")


def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dup = {k for k in keys if keys.count(k) > 1}
    if dup:
        fail(f"duplicate keys {sorted(dup)}")
    return dict(pairs)


def check(doc):
    if set(doc) != {"schema", "version", "probe", "device", "metrics"}:
        fail(f"top-level keys are {sorted(doc)}")
    if doc["schema"] != "gpulint-evidence" or doc["version"] != 1:
        fail("wrong schema or version")
    probe = doc["probe"]
    if probe.get("name") != "gpulint-probe" or probe.get("mode") not in ("full", "quick"):
        fail(f"bad probe object {probe}")
    dev = doc["device"]
    if not isinstance(dev.get("name"), str) or not dev["name"]:
        fail("device.name missing or empty")
    if not isinstance(doc["metrics"], dict) or not doc["metrics"]:
        fail("metrics missing or empty")
    for key, m in doc["metrics"].items():
        if not re.fullmatch(r"[A-Za-z0-9_]+", key):
            fail(f"bad metric key {key!r}")
        if not set(m) <= {"unit", "median", "p10", "p90", "samples", "what"}:
            fail(f"{key}: keys {sorted(m)}")
        if m.get("unit") not in CAPS:
            fail(f"{key}: unit {m.get('unit')!r}")
        vals = [m.get("p10"), m.get("median"), m.get("p90")]
        for v in vals:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
                fail(f"{key}: value {v!r}")
        if not vals[0] <= vals[1] <= vals[2] or vals[2] > CAPS[m["unit"]]:
            fail(f"{key}: out of order or over the cap: {vals}")
        if not isinstance(m.get("samples"), int) or isinstance(m["samples"], bool) or m["samples"] < 1:
            fail(f"{key}: samples {m.get('samples')!r}")


def check_synthetic(doc):
    name = "Test \"GPU\" \\ tab\t nl\n bell\x07 \u00e9 bad\ufffd end"
    if doc["device"]["name"] != name:
        fail(f"device name decoded as {doc['device']['name']!r}")
    m = doc["metrics"]["item_roundtrip_us"]
    if (m["median"], m["p10"], m["p90"], m["samples"]) != (11, 10.2, 11.8, 21):
        fail(f"item_roundtrip_us is {m}")
    if len(doc["metrics"]) != 28:
        fail(f"{len(doc['metrics'])} metrics, expected 28")
    d = doc["device"]
    want = {"cc": "9.0", "sm_count": 132, "memory_bytes": 150121971712, "ecc": True,
            "driver_version": "13.0", "c2c": None, "pageable_memory_access": False,
            "pci": {"bus_id": "00000000:1B:00.0", "link_gen": 5, "link_width": 16,
                    "max_link_gen": 5, "max_link_width": 16}}
    for k, v in want.items():
        if d.get(k) != v:
            fail(f"device.{k} is {d.get(k)!r}, expected {v!r}")
    if doc["probe"] != {"name": "gpulint-probe", "version": "0.1.0", "mode": "full",
                        "created": "2026-11-29T23:10:00Z", "duration_s": 41.2}:
        fail(f"probe is {doc['probe']}")


def main():
    with open(sys.argv[1], "rb") as f:
        text = f.read().decode("utf-8")  # strict: invalid UTF-8 raises
    doc = json.loads(text, parse_constant=reject_constant, object_pairs_hook=no_duplicates)
    check(doc)
    if "--synthetic" in sys.argv[2:]:
        check_synthetic(doc)
    print(f"check_evidence: {sys.argv[1]}: {len(doc['metrics'])} metrics OK")


main()
