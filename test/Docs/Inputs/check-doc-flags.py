"""Checks that every `--flag` a Markdown document gives one of our tools is
in that tool's --help.

    check-doc-flags.py --bin DIR --importer FILE.py DOC.md...

A command in a code block or code span (`deplodock-run --interp x.mlir`)
is checked against its tool. A flag on its own (`--fake-device`) is checked
against the tools its paragraph (or table) names, and when it names none,
against all of them; a paragraph that also names another program (cmake,
pip, a script) may mean that program's flag, which is not checked. A flag
only --help-hidden lists passes where the paragraph calls it hidden. The
name of a pass, pipeline or translation (`--lower-to-loop`, `--emit-cuda`)
names that step wherever it is written, as deplodock-run's --pipeline does.

Prints each flag that is nowhere, as DOC:LINE, and exits 1 if any.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

TOOLS = ("deplodock-opt", "deplodock-run", "deplodock-translate",
         "deplodock-tune", "deplodock-bench-worker", "deplodock-import")
# Programs whose flags are not ours to check.
FOREIGN = re.compile(
    r"\b(cmake|ninja|pip|pytest|lit|FileCheck|git|nvcc|python3?|ctest|"
    r"apt-get|scripts/[\w-]+\.sh|[\w-]+\.sh|[\w-]+\.py|torch\.[\w.]+|mlir-opt)\b")
FLAG = re.compile(r"(?<![\w-])--([A-Za-z][\w-]*)")
OPTION_LINE = re.compile(r"^\s+(?:-\w,\s+)?--?([A-Za-z][\w.-]*)")
FENCE = re.compile(r"^\s*```")


def help_flags(command, steps=None):
    """The options an option line of `command`'s output starts with; those
    indented as a pass, pipeline or translation also go to `steps`."""
    out = subprocess.run(command, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True).stdout
    flags = set()
    for line in out.splitlines():
        match = OPTION_LINE.match(line)
        if match:
            flags.add(match.group(1).split("=")[0])
            if steps is not None and line.startswith(" " * 6 + "-"):
                steps.add(match.group(1).split("=")[0])
    if not flags:
        sys.exit(f"check-doc-flags: no options in the output of {command}")
    return flags


def tool_of(word):
    name = os.path.basename(word)
    return name if name in TOOLS else None


def paragraphs(text):
    """(first line, lines, whether code) of each paragraph, table or fenced
    block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            start = i
            i += 1
            while i < len(lines) and not FENCE.match(lines[i]):
                i += 1
            yield start + 2, lines[start + 1:i], True
            i += 1
        elif not lines[i].strip():
            i += 1
        else:
            start = i
            while (i < len(lines) and lines[i].strip()
                   and not FENCE.match(lines[i])):
                i += 1
            yield start + 1, lines[start:i], False


def commands(code):
    """(line offset, words) of each shell command in `code`."""
    joined, offsets = [], []
    for offset, line in enumerate(code):
        if joined and joined[-1].endswith("\\"):
            joined[-1] = joined[-1][:-1] + " " + line
        else:
            joined.append(line)
            offsets.append(offset)
    for offset, line in zip(offsets, joined):
        line = line.split(" #", 1)[0]
        if line.lstrip().startswith("#"):
            continue
        for part in re.split(r"&&|\|\||;|\|(?!\w)|\$\(", line):
            try:
                words = shlex.split(part)
            except ValueError:
                words = part.split()
            while words and re.match(r"^\w+=", words[0]):
                words = words[1:]
            if words:
                yield offset, words


def named(block):
    """Our tools `block` names ("the worker" is the bench worker)."""
    tools = {t for t in TOOLS if re.search(rf"(?<![\w-]){t}(?![\w-])", block)}
    if re.search(r"\bthe (bench )?worker\b", block):
        tools.add("deplodock-bench-worker")
    return tools


CHECKED = [0]


def check(doc, known, hidden, steps):
    problems = []
    text = open(doc).read()
    # The paragraphs, each with its section (from one heading to the next).
    blocks, sections = [], [""]
    for first, lines, code in paragraphs(text):
        if not code and lines[0].startswith("#"):
            sections.append("")
        sections[-1] += "\n".join(lines) + "\n"
        blocks.append((first, lines, code, len(sections) - 1))

    def lone(flag, line, names, section, calls_hidden):
        CHECKED[0] += 1
        candidates = names | named(section) or set(TOOLS)
        if flag in steps or any(flag in known[t] for t in candidates):
            return
        if calls_hidden and any(flag in hidden[t] for t in candidates):
            return
        # No tool of ours has it and the section names another program:
        # that program's flag.
        if FOREIGN.search(section) and not any(flag in known[t] for t in TOOLS):
            return
        where = ", ".join(sorted(candidates))
        problems.append(f"{doc}:{line}: --{flag} is not an option of {where}")

    def command(words, line, calls_hidden):
        tool = tool_of(words[0])
        if not tool:
            return False
        for word in words[1:]:
            if word == "--":
                break
            match = FLAG.match(word)
            CHECKED[0] += bool(match)
            if match and match.group(1) not in known[tool] and not (
                    match.group(1) in hidden[tool] and calls_hidden):
                problems.append(
                    f"{doc}:{line}: --{match.group(1)} is not an option of "
                    f"{tool}")
        return True

    for first, lines, code, section in blocks:
        block = "\n".join(lines)
        names = named(block)
        section = sections[section]
        calls_hidden = "hidden" in block
        if code:
            found = list(commands(lines))
        else:
            found = [(offset, words) for offset, line in enumerate(lines)
                     for span in re.findall(r"`([^`]+)`", line)
                     for _, words in commands([span])]
        for offset, words in found:
            if command(words, first + offset, calls_hidden):
                continue
            # Another program's command line: its flags are its own, even
            # where one of our tools has a flag of the same name.
            if FOREIGN.fullmatch(os.path.basename(words[0])):
                continue
            for word in words:
                match = FLAG.match(word)
                if match:
                    lone(match.group(1), first + offset, names, section,
                         calls_hidden)
    return problems


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", required=True)
    p.add_argument("--importer", required=True)
    p.add_argument("docs", nargs="+")
    args = p.parse_args()
    known, hidden, steps = {}, {}, set()
    for tool in TOOLS:
        if tool == "deplodock-import":
            run = [sys.executable, args.importer]
            known[tool] = help_flags(run + ["--help"])
            hidden[tool] = set()
            continue
        run = [os.path.join(args.bin, tool)]
        known[tool] = help_flags(run + ["--help"], steps)
        hidden[tool] = help_flags(run + ["--help-hidden"])
    problems = []
    for doc in args.docs:
        problems += check(doc, known, hidden, steps)
    for problem in problems:
        print(problem)
    print(f"{len(args.docs)} documents, {CHECKED[0]} flags, "
          f"{len(problems)} unknown")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
