#!/usr/bin/env python3
"""A misbehaving engine for rbcheck's robustness tests: the reference engine, except that on every
N-th case (by id) it crashes, hangs, or prints garbage; or, with --fail wrong-version, every other
start of the process answers the hello with another protocol version (and the process exits after
every N-th case, so that it is restarted).

Fail modes that answer every case (--every is ignored) and say nothing wrong, only nothing useful:
unsupported-all answers `unsupported` to every case its hello claims; empty-results answers every
case with a result stating no field. Fail modes that name what does not exist, on every N-th case:
unknown-item adds item 4294967295 to the result, unknown-unit a unit `NOPE`, unknown-gear a gear
`NOPE`, unknown-player a player `nobody`.

Protocol v2 (every case; each wrong in one result field, so that a test sees it caught):
wrong-mode answers another mode for every execution of a modal card, wrong-might one more Might
for every unit on the board, wrong-status every such unit's exhausted/ready flipped, wrong-entered
every unit played from hand said to enter exhausted if it entered ready and the other way round,
wrong-grants the Temporal Portal grant flipped, wrong-hand the last named card in each hand
replaced by another (Wind Wall, or Defy for a Wind Wall) and an empty one given a Wind Wall,
wrong-order the events in reverse. count-shape declares a
count-based Repeat (`"repeat": "count"`) and answers as such an engine would: every execution's
mode is the first's. v1 answers the hello in rbcheck-engine/1 (and results without v2 fields);
v1-strict is a v1 engine that exits on any hello but a v1 one, as engines written for v1 may.
wrong-gear-status flips every gear's exhausted flag; wrong-token-might adds 1 to each token's Might.

Engines that state too little or cannot say everything (each a bug rbcheck must not pass):
legal-only answers `{"legal": true}` and nothing else to every case. count-overpay declares a
count-based Repeat and accepts a payment past the item's instances (it is the reference engine with
its unlimited-payments mistake); count-one-target-list declares a count and uses the first
execution's targets for every execution (mistake one-target-list); count-declines declares a count
and answers `unsupported` (feature `per-execution-choices`, or `repeat-instances` for an instance
paid out of order or twice) to what a count cannot say; automatic declares `"repeat":
"automatic"` and never pays [Repeat]: it skips every instance the case pays and drops every choice
of a later execution.

    fake_engine.py --fail crash|hang|garbage|wrong-version|always-wrong-version|unsupported-all
                          |empty-results|unknown-item|unknown-unit|unknown-gear|unknown-player
                   |wrong-mode|wrong-might|wrong-status|wrong-entered|wrong-grants|wrong-hand
                   |wrong-order
                   |count-shape|count-overpay|count-one-target-list|count-declines|automatic
                   |legal-only|wrong-gear-status|wrong-token-might
                   |v1|v1-strict
                   [--every N] [--state FILE]
"""

import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_engine  # noqa: E402


def v2_wrong(fail, reply):
    """The reference engine's answer with one v2 field wrong, as `fail` says."""
    if reply.get("type") != "result" or not reply.get("legal", True):
        return reply
    for it in reply.get("items", []):
        if "modes" in it and fail == "wrong-mode":
            it["modes"] = [m % 2 + 1 for m in it["modes"]]
        if "entered" in it and fail == "wrong-entered":
            it["entered"]["ready"] = not it["entered"]["ready"]
        if "modes" in it and fail == "count-shape":
            it["modes"] = [it["modes"][0]] * len(it["modes"]) if it["modes"] else []
    for u in reply.get("units", {}).values():
        if "might" in u and fail == "wrong-might":
            u["might"] += 1
        if "status" in u and fail == "wrong-status":
            u["status"]["exhausted"] = not u["status"]["exhausted"]
    for p in reply.get("players", {}).values():
        if "grants" in p and fail == "wrong-grants":
            p["grants"]["portal"] = not p["grants"]["portal"]
        if "hand" in p and fail == "wrong-hand":
            other = "Defy" if p["hand"][-1:] == ["Wind Wall"] else "Wind Wall"
            p["hand"] = p["hand"][:-1] + [other]
    for g in reply.get("gear", {}).values():
        if "exhausted" in g and fail == "wrong-gear-status":
            g["exhausted"] = not g["exhausted"]
    for p in reply.get("players", {}).values():
        if "token_mights" in p and fail == "wrong-token-might":
            p["token_mights"] = [m + 1 for m in p["token_mights"]]
    if fail == "wrong-order" and "events" in reply:
        reply["events"] = list(reversed(reply["events"]))
    return reply


def count_cannot_say(req):
    """What a count-based Repeat cannot say in a request: `per-execution-choices` (an execution
    choosing otherwise than the first) or `repeat-instances` (an instance paid out of order or
    twice), or None."""
    paid, per_exec = 0, {}

    def differs():
        return any(k > 1 and v != per_exec.get(1, []) for k, v in per_exec.items())
    for st in req.get("plays", []):
        do = st.get("do")
        if do == "play":
            if differs():
                return "per-execution-choices"
            paid, per_exec = 0, {}
        elif do == "repeat" and st.get("pay"):
            if st.get("instance") != paid + 1:
                return "repeat-instances"
            paid += 1
        elif do in ("mode", "target", "no-more-targets", "destination"):
            rest = {k: v for k, v in st.items() if k not in ("line", "exec")}
            per_exec.setdefault(st.get("exec"), []).append(json.dumps(rest, sort_keys=True))
    return "per-execution-choices" if differs() else None


def automatic(req):
    """The request as an engine that never pays [Repeat] runs it: no Repeat decision, no choice
    of a later execution."""
    req = dict(req)
    req["plays"] = [dict(st, pay=False) if st.get("do") == "repeat" else st
                    for st in req.get("plays", []) if (st.get("exec") or 1) == 1]
    req.pop("case_text", None)
    return req


def main(argv):
    fail = argv[argv.index("--fail") + 1]
    every = int(argv[argv.index("--every") + 1]) if "--every" in argv else 5
    state = argv[argv.index("--state") + 1] if "--state" in argv else None
    start = 1
    if fail == "spawns-child":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        with open(state, "a") as f:
            f.write("%d\n" % child.pid)
        state = None
    if state:
        try:
            start = int(open(state).read().strip() or "0") + 1
        except OSError:
            start = 1
        with open(state, "w") as f:
            f.write(str(start))
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            proto = reference_engine.PROTOCOL
            if fail == "wrong-version" and start % 2 == 0 or fail == "always-wrong-version":
                proto = "rbcheck-engine/0"
            if fail == "v1-strict" and msg.get("protocol") != reference_engine.PROTOCOL_V1:
                sys.stderr.write("fake engine: only rbcheck-engine/1\n")
                return 2
            if fail in ("v1", "v1-strict"):
                proto = reference_engine.PROTOCOL_V1
                reference_engine.V1 = True
            reply = {"type": "hello", "protocol": proto, "engine": "fake-" + fail,
                     "version": "0", "rules": ["rup4"], "features": reference_engine.FEATURES}
            if fail in ("count-shape", "count-overpay", "count-one-target-list", "count-declines"):
                reply["repeat"] = "count"
            if fail == "automatic":
                reply["repeat"] = "automatic"
            if fail == "count-overpay":
                reference_engine.MUTANT = "unlimited-payments"
            if fail == "count-one-target-list":
                reference_engine.MUTANT = "one-target-list"
        elif kind == "case":
            if fail == "non-utf8-stderr":
                if msg["id"] % every == 0:
                    sys.stderr.buffer.write(b"fake engine: \xff\xfe is not UTF-8\n")
                sys.stderr.buffer.write(b"fake engine: case %d\n" % msg["id"])
                sys.stderr.flush()
            if msg["id"] % every == 0 and fail == "non-utf8-stdout":
                sys.stdout.buffer.write(b"{\"type\": \"result\", \"note\": \"\xff\xfe\"}\n")
                sys.stdout.flush()
                continue
            if msg["id"] % every == 0 and fail == "endless-line":
                chunk = b"x" * 65536
                while True:
                    sys.stdout.buffer.write(chunk)
            if msg["id"] % every == 0 and fail == "two-lines":
                line = json.dumps(reference_engine.answer(msg)) + "\n"
                sys.stdout.write(line + line)
                sys.stdout.flush()
                continue
            if msg["id"] % every == 0 and fail == "spawns-child":
                time.sleep(3600)
            if fail == "unsupported-all":
                reply = {"type": "unsupported", "id": msg["id"], "feature": "everything",
                         "detail": "fake engine: declines every case"}
                sys.stdout.write(json.dumps(reply) + "\n")
                sys.stdout.flush()
                continue
            if fail == "legal-only":
                sys.stdout.write(json.dumps({"type": "result", "id": msg["id"], "legal": True}) + "\n")
                sys.stdout.flush()
                continue
            if fail == "count-declines" and count_cannot_say(msg):
                reply = {"type": "unsupported", "id": msg["id"], "feature": count_cannot_say(msg),
                         "detail": "fake engine: a count-based Repeat cannot say this"}
                sys.stdout.write(json.dumps(reply) + "\n")
                sys.stdout.flush()
                continue
            if fail == "automatic":
                msg = automatic(msg)
            if fail == "empty-results":
                sys.stdout.write(json.dumps({"type": "result", "id": msg["id"]}) + "\n")
                sys.stdout.flush()
                continue
            if msg["id"] % every == 0 and fail.startswith("unknown-"):
                reply = reference_engine.answer(msg)
                res = reply
                if reply.get("type") == "result" and reply.get("legal", True):
                    what = fail[len("unknown-"):]
                    if what == "item":
                        res.setdefault("items", []).append({"item": 4294967295, "executions": 1})
                    elif what == "unit":
                        res.setdefault("units", {})["NOPE"] = {"zone": "board"}
                    elif what == "gear":
                        res.setdefault("gear", {})["NOPE"] = {"zone": "board"}
                    elif what == "player":
                        res.setdefault("players", {})["nobody"] = {"hand_size": 0}
                sys.stdout.write(json.dumps(reply) + "\n")
                sys.stdout.flush()
                continue
            if msg["id"] % every == 0:
                if fail == "crash":
                    sys.stderr.write("fake engine: crashing on case %d\n" % msg["id"])
                    sys.exit(3)
                if fail == "hang":
                    time.sleep(3600)
                if fail == "garbage":
                    sys.stdout.write("this is not a protocol message\n")
                    sys.stdout.flush()
                    continue
                if fail == "wrong-version":
                    sys.exit(0)
            reply = v2_wrong(fail, reference_engine.answer(msg))
        elif kind == "bye":
            return 0
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
