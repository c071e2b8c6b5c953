#!/usr/bin/env python3
"""A bench worker that lies, for the fuzzer's client campaign.

It relays a real `deplodock-bench-worker --fake-device` (from
$DEPLODOCK_FUZZ_BIN) and mutates one of its answers as the JSON file
$DEPLODOCK_FUZZ_WORKER_SPEC says:

    {"target": "hello" | "progress" | "result", "nth": N,
     "bytes": true (the frame's bytes) | false (its JSON), "seed": S}

Each lie is appended to lies.jsonl in the working directory, with
"refuse": why the protocol's rules (deplodock_fuzz/rules.py) make the
mutated answer one the client must refuse, or null.
"""

import json
import os
import random
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from deplodock_fuzz import frames, rules  # noqa: E402


def read_frame(stream):
    """(header line, JSON bytes, blob) of the next frame; JSON None when the
    line is not a frame header; None at the end of the stream."""
    header = stream.readline(80)
    if not header:
        return None
    words = header.split()
    if len(words) != 3 or words[0] != b"DPLK1" or not words[1].isdigit() or \
            not words[2].isdigit():
        return header, None, b""
    text = stream.read(int(words[1]))
    return header, text, stream.read(int(words[2]))


def lie(message, text, blob, rng, spec, requests):
    """The mutated frame's bytes and what was done."""
    request, request_id = {}, None
    for m, _ in reversed(requests):
        if isinstance(m, dict) and m.get("type") == "bench":
            request, request_id = m, m.get("id")
            break
    original = frames.encode(text, blob)
    if spec["bytes"]:
        data, what = frames.mutate_bytes(original, rng)
        got, problem = frames.decode_all(data)
        if got and got[0][0] == message and got[0][1] == blob:
            refuse = None  # the same frame first: what follows is not read
        elif problem or not got:
            refuse = "no frame to read: %s" % problem
        else:
            refuse = _refusal(got[0][0], got[0][1], spec["target"], request,
                              request_id)
        return data, {"what": what, "refuse": refuse}
    changed, what, _ = frames.mutate_json(message, rng)
    refuse = _refusal(changed, blob, spec["target"], request, request_id)
    sane = _refusal(message, blob, spec["target"], request, request_id)
    return frames.encode(changed, blob), {"what": what, "refuse": refuse,
                                          "original_refused": sane}


def _refusal(message, blob, target, request, request_id):
    if target == "result":
        return rules.result_refusal(message, blob, request, request_id)
    if target == "hello":
        if message.get("type") != "hello":
            return "a %r message instead of hello" % message.get("type")
        if message.get("protocol") != 1:
            return "protocol %r" % (message.get("protocol"),)
        if not isinstance(message.get("device"), dict):
            return "no device"
    return None


def main():
    with open(os.environ["DEPLODOCK_FUZZ_WORKER_SPEC"]) as f:
        spec = json.load(f)
    real = os.path.join(os.environ["DEPLODOCK_FUZZ_BIN"],
                        "deplodock-bench-worker")
    devices = [a for a in sys.argv[1:] if a.startswith("--device=")]
    proc = subprocess.Popen([real, "--fake-device"] + devices,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    requests = []

    def forward():
        while True:
            frame = read_frame(sys.stdin.buffer)
            if frame is None:
                break
            header, text, blob = frame
            if text is not None:
                try:
                    requests.append((json.loads(text), blob))
                except ValueError:
                    pass
            try:
                proc.stdin.write(header + (text or b"") + blob)
                proc.stdin.flush()
            except BrokenPipeError:
                break
        proc.stdin.close()

    threading.Thread(target=forward, daemon=True).start()
    rng = random.Random(spec["seed"])
    seen, done = 0, False
    out = sys.stdout.buffer
    while True:
        frame = read_frame(proc.stdout)
        if frame is None:
            break
        header, text, blob = frame
        if text is None:
            out.write(header)
            out.flush()
            continue
        message = json.loads(text)
        if not done and message.get("type") == spec["target"]:
            if seen == spec["nth"]:
                done = True
                data, record = lie(message, text, blob, rng, spec, requests)
                record["target"] = spec["target"]
                with open("lies.jsonl", "a") as f:
                    f.write(json.dumps(record) + "\n")
                out.write(data)
                out.flush()
                continue
            seen += 1
        out.write(header + text + blob)
        out.flush()
    proc.wait()


if __name__ == "__main__":
    main()
