#!/usr/bin/env python3
"""A bench worker that breaks the protocol in one way, for the client's tests.

usage: lying-worker.py [--device=N] LIE

It says hello (a fake device), reads one request, and answers it with LIE:

  negative-time  a result whose median time is negative
  nan-time       a result whose median time is NaN
  no-samples     a result timed from zero samples
  other-launch   a result timing a launch the request does not have
  huge-blob      a result announcing a 32 GiB blob (and sending none)
  deep-json      a result nested 100000 levels deep
  outputs        a result with outputs nobody asked for
"""

import json
import sys

HELLO = {"type": "hello", "protocol": 1, "worker": "lying-worker",
         "device": {"name": "Lying GPU", "cc_major": 9, "cc_minor": 0,
                    "sm_count": 132, "l2_bytes": 52428800, "fake": True}}


def send(message, blob=b"", announce=None):
    text = json.dumps(message).encode() if isinstance(message, dict) else message
    size = len(blob) if announce is None else announce
    sys.stdout.buffer.write(b"DPLK1 %d %d\n" % (len(text), size) + text + blob)
    sys.stdout.buffer.flush()


def read():
    header = sys.stdin.buffer.readline().split()
    text = sys.stdin.buffer.read(int(header[1]))
    sys.stdin.buffer.read(int(header[2]))
    return json.loads(text)


def timing(launch, median=10.0, samples=10):
    return {"launch": launch, "median_us": median, "min_us": 9.0,
            "max_us": 11.0, "mean_us": 10.0, "variance_us2": 0.1,
            "spread": 0.01, "samples": samples}


def main():
    lie = sys.argv[-1]  # After the --device=N every worker gets.
    send(HELLO)
    request = read()
    launches = len(request["launches"])
    result = {"type": "result", "id": request["id"], "status": "ok",
              "detail": "", "verified": False,
              "timings": [timing(i) for i in range(launches)] + [timing(-1)]}
    if lie == "negative-time":
        result["timings"][0]["median_us"] = -5.0
        result["timings"][0]["min_us"] = -6.0
    elif lie == "nan-time":
        result["timings"][-1]["median_us"] = "nan"
    elif lie == "no-samples":
        result["timings"][-1]["samples"] = 0
    elif lie == "other-launch":
        result["timings"][0]["launch"] = launches + 4
    elif lie == "huge-blob":
        send(result, announce=1 << 35)
        sys.stdin.buffer.read()  # Waits to be killed.
        return
    elif lie == "deep-json":
        text = json.dumps(result).encode()
        send(text[:-1] + b', "x": ' + b"[" * 100000 + b"]" * 100000 + b"}")
        sys.stdin.buffer.read()
        return
    elif lie == "outputs":
        result["outputs"] = [{"offset": 0, "bytes": 4}]
        send(result, b"\0\0\0\0")
        sys.stdin.buffer.read()
        return
    send(result)
    sys.stdin.buffer.read()  # Until the client shuts it down.


if __name__ == "__main__":
    main()
