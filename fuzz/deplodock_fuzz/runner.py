"""Runs one tool under a timeout and a memory limit and classifies how it
ended: clean, diagnosed, crashed, hung or wrong.

The classes, in the order they take precedence:

* hung: still running after the timeout (the whole process group is killed);
* crashed: a signal, or a crash signature on stderr (a fatal LLVM error, a
  stack dump, an assertion, a sanitizer report, an uncaught exception);
* wrong: the tool gave a wrong answer that an oracle caught (set by the
  campaigns, not here), or failed without saying why;
* diagnosed: a non-zero exit with an `error:` diagnostic;
* clean: exit 0.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass

CLASSES = ("clean", "diagnosed", "crashed", "hung", "wrong")
# The classes that fail a run (the others are what bad input should get).
FAILURES = ("crashed", "hung", "wrong")

# Crash signatures on stderr, the most telling first; the generic ones (a
# stack dump) are reported as such, without their machine-dependent text.
CRASH_SIGNATURES = (
    ("LLVM ERROR:", None),
    ("Assertion `", None),
    ("Assertion failed", None),
    ("ERROR: AddressSanitizer", None),
    ("ERROR: LeakSanitizer", None),
    (": runtime error: ", None),
    ("UndefinedBehaviorSanitizer", None),
    ("WARNING: ThreadSanitizer", None),
    ("terminate called", None),
    ("PLEASE submit a bug report", "stack dump"),
    ("Stack dump:", "stack dump"),
)


@dataclass
class Limits:
    """What every run gets: seconds, bytes of address space (0: none)."""

    timeout: float = 30.0
    memory: int = 4 << 30
    sanitized: bool = False


@dataclass
class Outcome:
    """How one run ended."""

    argv: list
    returncode: int | None  # None when it was killed at the timeout
    stdout: str
    stderr: str
    seconds: float
    kind: str = "clean"
    reason: str = ""
    raw_stdout: bytes = b""

    @property
    def text(self) -> str:
        return self.stdout + self.stderr


def _crash_line(stderr: str) -> str | None:
    for marker, summary in CRASH_SIGNATURES:
        at = stderr.find(marker)
        if at < 0:
            continue
        if summary:
            return summary
        start = stderr.rfind("\n", 0, at) + 1
        end = stderr.find("\n", at)
        return stderr[start:end if end >= 0 else len(stderr)].strip()[:300]
    return None


def classify(returncode: int | None, stderr: str,
             quoted_crash_ok: bool = False) -> tuple[str, str]:
    """The class and a one-line reason for a run that ended this way.

    quoted_crash_ok: the tool may quote another process's crash (the bench
    client quoting a worker that the test asked to crash); then only the
    tool's own signal counts."""
    if returncode is None:
        return "hung", "no exit before the timeout"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "signal %d" % -returncode
        line = _crash_line(stderr)
        return "crashed", name + (": " + line if line else "")
    line = None if quoted_crash_ok else _crash_line(stderr)
    if line:
        return "crashed", line
    if returncode == 0:
        return "clean", ""
    error = first_error(stderr)
    if error:
        return "diagnosed", error
    return "wrong", "exit %d without an error: diagnostic" % returncode


# LLVM's command-line parser says what is wrong without "error:".
_CL_ERROR = re.compile(r"^[\w.-]+: for the -+[\w-]+ option: |Unknown command "
                       r"line argument|Not enough positional|Too many "
                       r"positional|must be specified at least once|"
                       r"may only occur zero or one times|Cannot find "
                       r"option named")


def first_error(text: str) -> str:
    for line in text.splitlines():
        if "error:" in line or _CL_ERROR.search(line):
            return line.strip()
    return ""


_PRLIMIT = shutil.which("prlimit")


def run(argv: list, limits: Limits, cwd: str, stdin: bytes = b"",
        env: dict | None = None, quoted_crash_ok: bool = False) -> Outcome:
    """Runs argv in cwd with stdin, under limits; never raises for how the
    tool ends."""
    full_env = dict(os.environ if env is None else env)
    if limits.sanitized and limits.memory:
        # ASan reserves terabytes of address space: limit what it allocates.
        full_env["ASAN_OPTIONS"] = "%s:malloc_limit_mb=%d" % (
            full_env.get("ASAN_OPTIONS", ""), limits.memory >> 20)
    command = list(argv)
    if limits.memory and not limits.sanitized and _PRLIMIT:
        command = [_PRLIMIT, "--as=%d" % limits.memory, "--core=0", "--"] + command
    start = time.monotonic()
    try:
        proc = subprocess.Popen(command, cwd=cwd, env=full_env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return Outcome(argv, 127, "", "error: cannot start: %s\n" % e, 0.0,
                       "diagnosed", "cannot start: %s" % e)
    try:
        out, err = proc.communicate(stdin, timeout=limits.timeout)
        returncode = proc.returncode
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        returncode = None
    seconds = time.monotonic() - start
    stdout = out.decode("utf-8", errors="replace")
    stderr = err.decode("utf-8", errors="replace")
    kind, reason = classify(returncode, stderr, quoted_crash_ok)
    return Outcome(argv, returncode, stdout, stderr, seconds, kind, reason,
                   out)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-fA-F]+ (.*)$")
_SKIP_FRAME = re.compile(
    r"^(llvm::sys::|__|abort|raise|gsignal|llvm::report_fatal_error|"
    r"llvm::llvm_unreachable|llvm::reportFatal|std::terminate|_start|main$)")


def _frames(stderr: str) -> list:
    """(function, ours) of the stack dump's frames, parameters dropped;
    ours: the frame is in a Deplodock binary rather than a library."""
    frames = []
    for line in stderr.splitlines():
        m = _FRAME.match(line)
        if not m:
            continue
        text = m.group(1).replace("(anonymous namespace)", "anon")
        if text.startswith("("):  # no symbol
            continue
        name = text.split("(")[0].strip()
        if name and not _SKIP_FRAME.match(name):
            ours = "/deplodock-" in text or bool(re.search(r"\.cpp:\d+", text))
            frames.append((name, ours))
    return frames


def signature(outcome: Outcome, tool: str) -> str:
    """What identifies a finding across mutants: the tool, the class, its
    reason with numbers, paths and SSA names taken out, and for a crash
    the innermost frames of its stack dump."""
    reason = outcome.reason
    reason = re.sub(r"0x[0-9a-fA-F]+", "0x_", reason)
    reason = re.sub(r"(/[^\s:'\"]+)+", "PATH", reason)
    reason = re.sub(r"%[\w#]+", "%_", reason)
    reason = re.sub(r"\d+", "N", reason)
    text = "%s %s: %s" % (tool, outcome.kind, reason)
    if outcome.kind == "hung":
        # No stack to tell hangs apart: say what the tool was asked to do.
        modes = [a.split("=")[0] for a in outcome.argv[1:]
                 if a.startswith("--")][:2]
        text += " [%s]" % " ".join(modes)
    if outcome.kind == "crashed":
        frames = _frames(outcome.stderr)
        if frames:
            names = [frames[0][0]]
            ours = next((name for name, mine in frames if mine), None)
            if ours and ours != names[0]:
                names.append(ours)
            text += " at " + " < ".join(names)
    return text
