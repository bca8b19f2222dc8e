#!/usr/bin/env python3
"""Write the test vectors under corpus/vectors/<revision>/<topic>.json.

Usage: python3 corpus/tools/make_vectors.py            # (re)write the files
       python3 corpus/tools/make_vectors.py --check    # exit 1 if they are stale
       python3 corpus/tools/make_vectors.py --summary  # counts per revision and family

The output is deterministic. Each case states by hand which rules fire at
which message and whether each plan message is shown by a conformant client;
vectorlib.Case turns that into the expected verdict, rule sets and states.
See corpus/README.md for the format.
"""

import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ next to the corpus
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from vectorlib import CORPUS, REVISIONS, render  # noqa: E402
import topics_framing  # noqa: E402
import topics_session  # noqa: E402
import topics_capability  # noqa: E402
import topics_shape  # noqa: E402
import topics_plans  # noqa: E402
import topics_readings  # noqa: E402
import topics_versions  # noqa: E402
import topics_lifecycle  # noqa: E402
import topics_replaystate  # noqa: E402
import topics_readings2  # noqa: E402
import topics_units  # noqa: E402

TOPICS = [
    ("framing", topics_framing.framing),
    ("session", topics_session.session),
    ("capability", topics_capability.capability),
    ("shape", topics_shape.shape),
    ("enums", topics_shape.enums),
    ("extensibility", topics_shape.extensibility),
    ("identity", topics_plans.identity),
    ("replacement", topics_plans.replacement),
    ("updates", topics_plans.updates),
    ("readings", topics_readings.readings),
    ("versions", topics_versions.versions),
    ("lifecycle", topics_lifecycle.lifecycle),
    ("replaystate", topics_replaystate.replaystate),
    ("readings2", topics_readings2.readings2),
    ("units", topics_units.units),
]


def groups():
    """Every file to write: path -> text."""
    out = {}
    seen = set()
    for rev in REVISIONS:
        for topic, make in TOPICS:
            description, cases = make(rev)
            if not cases:
                continue
            built = [c.build() for c in cases]
            for case in built:
                assert case["id"] not in seen, f"duplicate case id {case['id']}"
                seen.add(case["id"])
            group = {"description": description, "revision": rev.name, "cases": built}
            path = os.path.join(CORPUS, "vectors", rev.name, f"{topic}.json")
            out[path] = render(group) + "\n"
    return out


def summary(files):
    """Cases per revision, and per rule family: cases that trigger a rule of
    the family, and near misses for one."""
    families = ["TRACE", "ENV", "SES", "CAP", "SHAPE", "ID", "FULL"]
    rows = {}
    for text in files.values():
        group = json.loads(text)
        row = rows.setdefault(group["revision"], {"cases": 0, "conformant": 0, **{f: [0, 0] for f in families}})
        for case in group["cases"]:
            row["cases"] += 1
            row["conformant"] += case["expect"]["verdict"] == "conformant"
            triggered = {d["rule"].split("-")[0] for d in case["expect"]["diagnostics"]}
            near = {r.split("-")[0] for r in case.get("near_miss", [])}
            for f in families:
                row[f][0] += f in triggered
                row[f][1] += f in near
    print("revision        cases  conformant  " + "  ".join(f"{f:>9}" for f in families) + "   (triggers/near misses)")
    for rev, row in rows.items():
        print(f"{rev:<15} {row['cases']:>5}  {row['conformant']:>10}  "
              + "  ".join(f"{row[f][0]:>4}/{row[f][1]:<4}" for f in families))


def main():
    check = "--check" in sys.argv[1:]
    files = groups()
    if "--summary" in sys.argv[1:]:
        summary(files)
        return 0
    stale = []
    for path, text in sorted(files.items()):
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current == text:
            continue
        stale.append(path)
        if not check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    vectors = os.path.join(CORPUS, "vectors")
    for rev_dir in sorted(os.listdir(vectors)) if os.path.isdir(vectors) else []:
        for name in sorted(os.listdir(os.path.join(vectors, rev_dir))):
            path = os.path.join(vectors, rev_dir, name)
            if path not in files:
                stale.append(path + " (not generated)")
    total = sum(len(json.loads(t)["cases"]) for t in files.values())
    if check:
        if stale:
            print("stale vector files (run corpus/tools/make_vectors.py):", *stale, sep="\n  ")
            return 1
        print(f"{len(files)} files, {total} cases: up to date")
        return 0
    print(f"{len(files)} files, {total} cases; rewrote {len(stale)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
