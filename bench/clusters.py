#!/usr/bin/env python3
"""How well `rbcheck fuzz` names a planted bug: for each mutant of the reference engine, one
generated run at the default budget (seed given), and whether a kill yields exactly one cluster
(findings other than `engine nondeterministic`) and whether the first cluster's rule is the
mutant's (a clause the mutant's description names in parentheses, or a subclause of one).

    python3 bench/clusters.py [--rbcheck target/release/rbcheck] [--seed 0] [--every K]
                              [--jobs 2] [--out results.jsonl]
                              [--list --held-out | --mutants LIST.tsv --dir DIR]

`--list FLAG` measures another of the reference engine's lists (`--held-out`, `--held-out-2`,
`--held-out-3`); `--mutants LIST.tsv --dir DIR` measures a set of mutant engines kept outside the
repository, `DIR/NAME.py` for each line `NAME<TAB>description (rule)` of the list.

`--every K` measures every K-th mutant of `--list-mutants` (a fixed sample); mutants whose
description names no rule count for "one cluster" but not for "rule named first".
"""

import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = os.path.join(ROOT, "tests/engines/reference_engine.py")
CLAUSE = re.compile(r"\b(\d{3}(?:\.\d+)?(?:\.[a-z])?(?:\.\d+)?(?:\.[a-z])?)(?:[–-](\d+))?")


def clauses(text):
    """The rule numbers a text names, a range's end completed from its start."""
    out = []
    for m in CLAUSE.finditer(text or ""):
        a, b = m.group(1), m.group(2)
        out.append(a)
        if b and "." in a:
            out.append(a.rsplit(".", 1)[0] + "." + b)
    return out


def mutant_rules(desc):
    inside = re.findall(r"\(([^()]*)\)", desc)
    return [c for part in inside for c in clauses(part)]


def named(cited, rules):
    return any(c == r or c.startswith(r + ".") for c in cited for r in rules)


def run(rbcheck, name, desc, seed, engine):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        p = subprocess.run(
            [rbcheck, "fuzz", "--engine", engine,
             "--seed", str(seed), "--json", "--quiet", "--out", out],
            capture_output=True, text=True)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        return {"mutant": name, "error": p.stderr[-300:]}
    fs = [f for f in j["findings"] if f["kind"] != "engine nondeterministic"]
    first = fs[0] if fs else None
    cited = clauses(first.get("cited", first["kind"])) if first else []
    rules = mutant_rules(desc)
    return {"mutant": name, "killed": bool(fs), "clusters": len(fs), "rules": rules,
            "first": first["kind"] if first else None, "cited": cited,
            "named_first": bool(fs) and bool(rules) and named(cited, rules),
            "suspects": [x["clause"] for x in first.get("suspects", [])] if first else [],
            "findings": [{"cited": clauses(f.get("cited", f["kind"])), "hits": f.get("hits"),
                          "named": bool(rules) and named(clauses(f.get("cited", f["kind"])), rules)}
                         for f in fs],
            "seconds": j["seconds"]}


def main(argv):
    arg = lambda k, d: argv[argv.index(k) + 1] if k in argv else d
    rbcheck = arg("--rbcheck", os.path.join(ROOT, "target/release/rbcheck"))
    seed, every, jobs = int(arg("--seed", "0")), int(arg("--every", "1")), int(arg("--jobs", "2"))
    tsv, folder, flag = arg("--mutants", None), arg("--dir", None), arg("--list", None)
    if tsv:
        with open(tsv) as f:
            listed = f.read().splitlines()
        engine = lambda name: "python3 %s" % os.path.join(folder or os.path.dirname(tsv), name + ".py")
    else:
        listed = subprocess.run(["python3", REF] + ([flag] if flag else []) + ["--list-mutants"],
                                capture_output=True, text=True).stdout.splitlines()
        engine = lambda name: "python3 %s %s--mutant %s" % (REF, flag + " " if flag else "", name)
    mutants = [l.split("\t", 1) for l in listed if "\t" in l][::every]
    with ThreadPoolExecutor(jobs) as pool:
        rows = list(pool.map(lambda m: run(rbcheck, m[0], m[1], seed, engine(m[0])), mutants))
    out = arg("--out", None)
    if out:
        with open(out, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    killed = [r for r in rows if r.get("killed")]
    one = [r for r in killed if r["clusters"] == 1]
    ruled = [r for r in killed if r["rules"]]
    first = [r for r in ruled if r["named_first"]]
    both = [r for r in ruled if r["named_first"] and r["clusters"] == 1]
    print("mutants %d (every %d-th), seed %d: killed %d" % (len(rows), every, seed, len(killed)))
    print("one cluster: %d of %d kills (%.0f %%)" % (len(one), len(killed),
                                                     100.0 * len(one) / max(1, len(killed))))
    print("rule named first: %d of %d kills of mutants naming a rule (%.0f %%)"
          % (len(first), len(ruled), 100.0 * len(first) / max(1, len(ruled))))
    print("both: %d of %d (%.0f %%)" % (len(both), len(ruled),
                                         100.0 * len(both) / max(1, len(ruled))))
    for r in rows:
        if r.get("error") or not r.get("named_first") or r.get("clusters") != 1:
            print("  %s: %s" % (r["mutant"], r.get("error") or "%d clusters, first %s, rules %s"
                                % (r["clusters"], r["first"], r["rules"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
