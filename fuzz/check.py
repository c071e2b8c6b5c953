#!/usr/bin/env python3
"""Runs one tool as the fuzzer does (timeout, memory limit) and fails
unless it ended as expected: the regression test of a fuzz finding.

    check.py [--expect=diagnosed|clean|handled] [--timeout=S]
             [--memory-gb=G] [--stdin=FILE] -- TOOL ARGS...

handled (the default): clean or diagnosed, i.e. no crash, no hang, and no
non-zero exit without an error: diagnostic. Prints the class and why.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from deplodock_fuzz.runner import Limits, run  # noqa: E402

EXPECTED = {"handled": ("clean", "diagnosed"), "clean": ("clean",),
            "diagnosed": ("diagnosed",)}


def main():
    if "--" not in sys.argv:
        sys.exit(__doc__)
    split = sys.argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("--expect", choices=sorted(EXPECTED),
                        default="handled")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--memory-gb", type=float, default=4)
    parser.add_argument("--stdin")
    args = parser.parse_args(sys.argv[1:split])
    command = sys.argv[split + 1:]
    stdin = b""
    if args.stdin:
        with open(args.stdin, "rb") as f:
            stdin = f.read()
    # Under a sanitizer (scripts/sanitize.sh sets this) no address-space limit.
    limits = Limits(args.timeout, int(args.memory_gb * (1 << 30)),
                    sanitized=bool(os.environ.get("DEPLODOCK_FUZZ_SANITIZED")))
    outcome = run(command, limits, os.getcwd(), stdin)
    sys.stdout.write(outcome.stdout)
    sys.stdout.write(outcome.stderr)
    print("fuzz-check: %s%s" % (outcome.kind, ": " + outcome.reason
                                if outcome.reason else ""))
    return 0 if outcome.kind in EXPECTED[args.expect] else 1


if __name__ == "__main__":
    sys.exit(main())
