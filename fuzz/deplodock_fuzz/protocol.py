"""The protocol campaigns.

worker: sessions of mutated and crafted DPLK1 frames sent to
`deplodock-bench-worker --fake-device`. The oracle decodes everything the
worker wrote: well-formed frames, a hello first, one answer per request in
order (an error, or a result with the request's id and the status its
fault asks for), a result only for requests the protocol's rules accept
(rules.py), and an exit status the docs give (0; 2 after an error about a
frame; 4 after a result that says the worker exits).

client: `deplodock-run --bench` and `deplodock-tune --backend=cuda` talking
to fuzz_worker.py, which relays a real fake-device worker and mutates one
of its answers. A client that exits 0 after an answer the rules refuse
gives a wrong answer.
"""

from __future__ import annotations

import json
import os
import random

from . import frames, rules
from .cases import Case, Step

KERNELS = ('extern "C" __global__ void k(const float* x, float* y) {}\n'
           'extern "C" __global__ void j(float* y) {}')


def _buffers():
    return [{"name": "x", "dtype": "f32", "shape": [4], "init": "seeded",
             "seed": 7, "stream": 0},
            {"name": "y", "dtype": "f32", "shape": [4]}]


def _launches():
    return [{"kernel": "k", "grid": [1, 1, 1], "block": [4, 1, 1],
             "params": [{"buffer": 0}, {"buffer": 1}], "writes": [1]},
            {"kernel": "j", "grid": [1, 1, 1], "block": [4, 1, 1], "smem": 0,
             "params": [{"buffer": 1}], "zero": [], "writes": [1]}]


def _timing():
    return {"warmup_ms": 0.1, "max_time_ms": 1, "min_samples": 2,
            "max_samples": 20}


def seed_requests():
    """Requests the worker must accept: (message with $bytes leaves,
    fault)."""
    expected = {"$bytes": ["f", [1.0, 2.0, 3.0, 4.0]]}
    plain = {"type": "bench", "id": 1, "source": KERNELS,
             "buffers": _buffers(), "launches": _launches(),
             "outputs": [{"buffer": 1, "expected": expected}],
             "timing": _timing()}
    seeds = [(plain, None)]
    for fault in ("compile_fail", "launch_fail", "wrong", "sticky",
                  "kernel_hang"):
        r = json.loads(json.dumps(plain))
        r["fake"] = {"fault": fault, "fault_kernel": "j"}
        r["kernel_timeout_s"] = 1
        seeds.append((r, fault))
    reference = {"type": "bench", "id": 2, "source": KERNELS,
                 "compile_options": ["-O3"], "buffers": _buffers(),
                 "launches": _launches(),
                 "reference": {"source": KERNELS, "compile_options": [],
                               "launches": _launches()[:1]},
                 "outputs": [{"buffer": 1, "tolerance": {"rtol": 1e-3,
                                                         "atol": 1e-5,
                                                         "scale": 0}}],
                 "timing": dict(_timing(), flush_l2=False, graph_below_us=5,
                                batch_us=50, target_spread=0.1),
                 "time": {"each_launch": True, "total": True},
                 "return_outputs": True, "timeout_s": 30,
                 "fake": {"default_us": 3, "kernel_us": {"k": 12.5},
                          "registers": 40}}
    seeds.append((reference, None))
    dtypes = {"type": "bench", "id": 3, "source": KERNELS,
              "buffers": [
                  {"dtype": "f16", "shape": [2, 3], "init": "zero"},
                  {"dtype": "bf16", "shape": [8], "init": "seeded"},
                  {"dtype": "i32", "shape": [4], "init": "data",
                   "data": {"$bytes": ["i", [1, -2, 3, 1 << 30]]}},
                  {"dtype": "i1", "shape": [3], "init": "poison"},
                  {"dtype": "f64", "shape": [1, 1, 2], "init": "data",
                   "data": {"$bytes": ["d", [0.5, -1e300]]}},
                  {"dtype": "i8", "shape": [5]}, {"dtype": "i64", "shape": [2]},
                  {"dtype": "i16", "shape": [2], "init": "zero"}],
              "launches": [{"kernel": "k", "grid": [2, 3, 4],
                            "block": [8, 4, 2], "smem": 1024,
                            "params": [{"buffer": i} for i in range(8)] +
                            [{"tma": {"buffer": 0, "box": [2, 3],
                                      "swizzle": 0}}],
                            "zero": [0], "writes": [5, 6]}],
              "outputs": [{"buffer": 5}, {"buffer": 6}],
              "return_outputs": True, "timing": _timing(),
              "time": {"each_launch": False, "total": True},
              "kernel_timeout_s": 5}
    seeds.append((dtypes, None))
    return seeds


# The fake device's faults that take the worker process down on purpose
# (to test the parent's recovery, lib/Runtime/Worker.cpp): a mutation that
# writes one of these names into `fake.fault` asks for a crash, not a
# defect, so sessions drop it.
PROCESS_FAULTS = ("crash", "segfault", "exit", "hang", "garbage")


def drop_process_fault(message) -> bool:
    """Drops from `message` a `fake.fault` that takes the process down;
    whether there was one."""
    fake = message.get("fake") if isinstance(message, dict) else None
    if isinstance(fake, dict) and fake.get("fault") in PROCESS_FAULTS:
        del fake["fault"]
        return True
    return False


STATUS_OF_FAULT = {None: "ok", "compile_fail": "compile_fail",
                   "launch_fail": "launch_fail", "wrong": "wrong_result",
                   "sticky": "launch_fail", "kernel_hang": "timeout"}


def _session(rng: random.Random):
    """The bytes sent and what each frame expects."""
    seeds = seed_requests()
    data, expect = bytearray(), []
    for n in range(rng.choice((1, 1, 2, 3, 4))):
        r = rng.random()
        if r < 0.1:
            message, fault = {"type": rng.choice(("info", "info", "shutdown",
                                                  "hello", "result", ""))}, None
            blob = b""
            # Only info and shutdown are requests; the rest must be refused.
            mutated = message["type"] not in ("info", "shutdown")
        else:
            message, fault = rng.choice(seeds)
            message, blob = frames.encode_with_refs(message)
            message["id"] = 100 + n
            mutated = False
        whats = []
        for _ in range(rng.choices((0, 1, 2, 3), (15, 50, 25, 10))[0]):
            message, what, _ = frames.mutate_json(message, rng)
            if what != frames.NOTHING:
                whats.append(what)
                mutated = True
        if drop_process_fault(message):
            whats.append("process fault dropped")
        packed = message
        encoded = frames.encode(packed, blob)
        raw = rng.random() < 0.15
        if raw:
            encoded, what = frames.mutate_bytes(encoded, rng)
            whats.append(what)
        data += encoded
        kind = ("raw" if raw else packed.get("type")
                if isinstance(packed, dict) else "?")
        expect.append({"kind": kind, "id": packed.get("id", 0),
                       "fault": fault, "mutated": mutated,
                       "refuse": (rules.request_refusal(packed, blob)
                                  if kind == "bench" else None),
                       "what": "; ".join(whats) or "as seeded"})
        if raw or kind == "shutdown":
            break
    else:
        data += frames.encode({"type": "info"})
        expect.append({"kind": "info", "id": None, "fault": None,
                       "mutated": False, "refuse": None, "what": "final info"})
    return bytes(data), expect


def _worker_oracle(expect):
    def check(outcome, directory):
        return judge_worker(outcome.raw_stdout, outcome.returncode, expect)
    return check


def judge_worker(out: bytes, rc: int, expect: list):
    got, problem = frames.decode_all(out)
    if problem:
        return "wrong", "the worker wrote a malformed frame: " + problem
    if not got or got[0][0].get("type") != "hello":
        return "wrong", "the worker did not say hello first"
    answers = [m for m, _ in got[1:] if m.get("type") != "progress"]
    # Exit 4 only after a result that says the worker exits.
    exits_said = any(m.get("type") == "result" and m.get("worker_exits")
                     for m in answers)
    errors, exits, broken = 0, False, False
    for i, e in enumerate(expect):
        if e["kind"] == "raw":
            broken = True  # out of step: any answer, exit 0 or 2
            break
        if e["kind"] == "shutdown" and not e["mutated"]:
            exits = True
            break
        if not answers:
            if rc in (2, 4) and (errors or exits):
                break
            return "wrong", "frame #%d (%s) got no answer" % (i, e["what"])
        answer = answers.pop(0)
        kind = answer.get("type")
        if kind == "error":
            errors += 1
            if not e["mutated"]:
                return "wrong", "refused frame #%d, which is valid: %s" % (
                    i, answer.get("message"))
            continue
        if e["kind"] == "info" and not e["mutated"]:
            if kind != "hello":
                return "wrong", "answered info with %r" % kind
            continue
        if kind != "result":
            if e["kind"] == "info" and kind == "hello":
                continue
            return "wrong", "answered frame #%d with a %r message" % (i, kind)
        if e["kind"] != "bench":
            return "wrong", "a result for a %r message" % e["kind"]
        if e["refuse"]:
            return "wrong", "accepted request #%d that the protocol refuses (%s; %s)" % (
                i, e["refuse"], e["what"])
        if answer.get("id") != e["id"]:
            return "wrong", "result id %r for request id %r" % (answer.get("id"),
                                                                e["id"])
        status = answer.get("status")
        want = STATUS_OF_FAULT.get(e["fault"])
        if not e["mutated"] and status != want:
            return "wrong", "status %r for a request with fault %r" % (status,
                                                                        e["fault"])
        if answer.get("worker_exits"):
            exits = True
            break
    if answers and not broken:
        return "wrong", "%d answers more than requests" % len(answers)
    allowed = {0}
    if errors or broken:
        allowed.add(2)
    if exits_said:
        allowed.add(4)
    if rc not in allowed:
        return "wrong", "exit %s after these answers (expected %s)" % (
            rc, sorted(allowed))
    return ("diagnosed", "answered with an error") if errors or rc else (
        "clean", "")


def worker_cases(count: int, seed: int, start: int = 0) -> list:
    cases = []
    for index in range(start, start + count):
        rng = random.Random("%d:worker:%d" % (seed, index))
        data, expect = _session(rng)
        cases.append(Case("worker", index,
                          " | ".join(e["what"] for e in expect),
                          {"frames.bin": data},
                          [Step("deplodock-bench-worker", ["--fake-device"],
                                stdin=data, oracle=_worker_oracle(expect))],
                          units=len(expect)))
    return cases


def _client_oracle():
    def check(outcome, directory):
        lies = []
        path = os.path.join(directory, "lies.jsonl")
        if os.path.exists(path):
            with open(path) as f:
                lies = [json.loads(line) for line in f if line.strip()]
        refused = [lie for lie in lies if lie.get("refuse")]
        if outcome.returncode == 0 and refused:
            return "wrong", "took an answer the protocol refuses: %s (%s)" % (
                refused[0]["refuse"], refused[0]["what"])
        if outcome.returncode == 0 and not os.path.exists(
                os.path.join(directory, "out.json")) and outcome.argv[0].endswith(
                "deplodock-run"):
            return "wrong", "exit 0 without writing --bench-json"
        return None
    return check


def client_cases(count: int, seed: int, start: int, fuzz_dir: str,
                 ir_seeds: list) -> list:
    layers = [(n, t) for n, level, t in ir_seeds
              if level == "tensor" and n in ("matmul", "softmax", "silu_mul",
                                             "rmsnorm", "matmul_add")]
    worker = os.path.join(fuzz_dir, "fuzz_worker.py")
    cases = []
    for index in range(start, start + count):
        rng = random.Random("%d:client:%d" % (seed, index))
        name, text = rng.choice(layers)
        spec = {"target": rng.choice(("result", "result", "result", "hello",
                                      "progress")),
                "bytes": rng.random() < 0.25, "seed": rng.randrange(1 << 30),
                "nth": rng.choice((0, 0, 0, 1))}
        env = {"DEPLODOCK_FUZZ_WORKER_SPEC": "spec.json"}
        if rng.random() < 0.8:
            step = Step("deplodock-run", [
                "--bench", "in.mlir", "--worker=" + worker,
                "--bench-json=out.json", "--bench-timeout=5",
                "--warmup-ms=0.1", "--max-time-ms=1", "--min-samples=1"] +
                (["--output-dir=res"] if rng.random() < 0.5 else []),
                # A hello cut short is waited for 60 s (the client's start
                # timeout), a deadline of its own and not a hang.
                env=env, oracle=_client_oracle(), timeout=150)
        else:
            # The tuner's deadline is not an option (80 s): no frames cut
            # short, which it would wait that long for.
            spec["bytes"] = False
            step = Step("deplodock-tune", [
                "in.mlir", "--backend=cuda", "--worker=" + worker, "--no-db",
                "--max-variants=2", "--quiet"], env=env,
                oracle=_client_oracle(), timeout=150)
        cases.append(Case("client", index, "%s: lie about %s" % (
            name, json.dumps(spec)), {"in.mlir": text.encode(),
                                      "spec.json": json.dumps(spec).encode()},
            [step]))
    return cases
