"""A fuzz case: input files and the tool runs made on them, each checked by
an oracle; and the engine that runs cases in parallel, each in a
directory of its own, and keeps the reproducer of every finding."""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Optional

from .runner import FAILURES, Limits, Outcome, run, signature

# An oracle looks at a run that ended without a crash or hang (and at the
# case's directory) and returns a (class, reason) that overrides how the run
# was classified (("wrong", why) for a wrong answer), else None.
Oracle = Callable[[Outcome, str], Optional[tuple]]


@dataclass
class Step:
    """One run of a tool on the case's files."""

    tool: str  # a tool in the bin dir (deplodock-opt), or an absolute path
    args: list
    stdin: bytes = b""
    oracle: Optional[Oracle] = None
    # Run only when the step with this index ended clean.
    after: Optional[int] = None
    # The tool quotes another process's crash on purpose (see runner).
    quoted_crash_ok: bool = False
    env: dict = field(default_factory=dict)
    timeout: Optional[float] = None


@dataclass
class Case:
    campaign: str
    index: int
    what: str  # how the input was made (the mutations)
    files: dict  # name -> bytes, written into the case's directory
    steps: list
    units: int = 1  # mutants or frames this case counts for


@dataclass
class Run:
    step: int
    tool: str
    outcome: Outcome
    signature: str


@dataclass
class Result:
    case: Case
    runs: list
    directory: Optional[str] = None  # kept when a run failed


# How much longer the run that confirms a hang may take.
HANG_CONFIRM_FACTOR = 5


def tool_path(bin_dir: str, tool: str) -> str:
    return tool if os.path.isabs(tool) else os.path.join(bin_dir, tool)


def run_case(case: Case, bin_dir: str, limits: Limits, work: str,
             keep: str) -> Result:
    directory = tempfile.mkdtemp(prefix="%s-%d-" % (case.campaign, case.index),
                                 dir=work)
    for name, data in case.files.items():
        path = os.path.join(directory, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    env = dict(os.environ)
    env["HOME"] = directory  # nothing lands in the user's home (tune dbs)
    env.pop("DEPLODOCK_TUNE_DB", None)
    env.pop("DEPLODOCK_FAKE_DEVICE", None)
    env["DEPLODOCK_FUZZ_BIN"] = bin_dir  # for fuzz_worker.py
    runs = []
    ended_clean = {}
    for i, step in enumerate(case.steps):
        if step.after is not None and not ended_clean.get(step.after):
            continue
        step_limits = limits
        if step.timeout:
            step_limits = Limits(step.timeout, limits.memory, limits.sanitized)
        outcome = run([tool_path(bin_dir, step.tool)] + step.args, step_limits,
                      directory, step.stdin, dict(env, **step.env),
                      step.quoted_crash_ok)
        if outcome.kind == "hung":
            # A hang is confirmed with a longer timeout: legal work that
            # needs a minute or two on a loaded machine (a 67 M element
            # softmax at two levels) ends then, and is judged as any run.
            patient = Limits(step_limits.timeout * HANG_CONFIRM_FACTOR,
                             step_limits.memory, step_limits.sanitized)
            outcome = run([tool_path(bin_dir, step.tool)] + step.args,
                          patient, directory, step.stdin,
                          dict(env, **step.env), step.quoted_crash_ok)
        if outcome.kind not in ("crashed", "hung") and step.oracle:
            verdict = step.oracle(outcome, directory)
            if verdict:
                outcome.kind, outcome.reason = verdict
        ended_clean[i] = outcome.kind == "clean"
        tool = os.path.basename(step.tool)
        runs.append(Run(i, tool, outcome, signature(outcome, tool)))
    result = Result(case, runs)
    if any(r.outcome.kind in FAILURES for r in runs):
        result.directory = os.path.join(keep, "%s-%d" % (case.campaign,
                                                         case.index))
        shutil.rmtree(result.directory, ignore_errors=True)
        shutil.copytree(directory, result.directory)
        write_reproducer(result, bin_dir)
    shutil.rmtree(directory, ignore_errors=True)
    return result


def write_reproducer(result: Result, bin_dir: str) -> None:
    """repro.sh in the kept directory: the failing runs, as commands."""
    lines = ["#!/bin/sh",
             "# %s #%d: %s" % (result.case.campaign, result.case.index,
                               result.case.what),
             'cd "$(dirname "$0")"',
             'BIN=${BIN:-%s}' % shlex.quote(bin_dir)]
    for r in result.runs:
        step = result.case.steps[r.step]
        tool = (step.tool if os.path.isabs(step.tool)
                else "$BIN/" + step.tool)
        command = " ".join([tool] + [shlex.quote(a) for a in step.args])
        env = " ".join("%s=%s" % (k, shlex.quote(v))
                       for k, v in step.env.items())
        if step.stdin:
            name = "stdin.%d" % r.step
            with open(os.path.join(result.directory, name), "wb") as f:
                f.write(step.stdin)
            command += " < " + name
        lines.append("# %s: %s" % (r.outcome.kind, r.outcome.reason))
        lines.append((env + " " if env else "") + command)
    path = os.path.join(result.directory, "repro.sh")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(path, 0o755)


def run_cases(cases, bin_dir: str, limits: Limits, jobs: int, work: str,
              keep: str, progress=None) -> list:
    """Runs the cases on `jobs` threads; returns their results in order."""
    results = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(
                lambda c: run_case(c, bin_dir, limits, work, keep), cases):
            results.append(result)
            if progress:
                progress(result)
    return results
