#!/usr/bin/env python3
"""Checks the dependencies of the build against docs/Architecture.md.

The document draws the parts (a mermaid graph: `A --> B`, A may depend on B
and on whatever B may), maps libraries and source paths to parts (a table),
and lists dependencies that must never hold. This script reads that, the link
graph CMake wrote (`target: dependency ...` lines) and the `#include`s of
every source file, and reports, one line each:
  * a link or include between parts the picture does not allow;
  * an arrow of the picture no link of the build realizes;
  * a library of the build no part claims;
  * a forbidden dependency the picture (or the build) allows.
It exits 1 when it reported anything.
"""

import argparse
import os
import re
import sys


def parse_doc(path):
    text = open(path, encoding="utf-8").read()
    mermaid = re.search(r"```mermaid\n(.*?)```", text, re.S)
    if not mermaid:
        sys.exit(f"{path}: no mermaid graph")
    edges = set()
    for line in mermaid.group(1).splitlines():
        m = re.match(r"\s*(\w+)\s*-->\s*(\w+)\s*$", line)
        if m:
            edges.add((m.group(1), m.group(2)))
    libraries, paths = {}, []
    never = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 2:
            continue
        if len(cells) == 3 and re.fullmatch(r"\w+", cells[0]):
            part = cells[0]
            for lib in re.findall(r"`([^`]+)`", cells[1]):
                libraries[lib] = part
            for p in re.findall(r"`([^`]+)`", cells[2]):
                paths.append((p.rstrip("*"), part))
        m = re.fullmatch(r"(\w+) --> (\w+)", cells[0])
        if m:
            never.append((m.group(1), m.group(2)))
    return edges, libraries, paths, never


def closure(edges):
    reach = {}
    for a, b in edges:
        reach.setdefault(a, set()).add(b)
    changed = True
    while changed:
        changed = False
        for a in list(reach):
            for b in list(reach[a]):
                new = reach.get(b, set()) - reach[a]
                if new:
                    reach[a] |= new
                    changed = True
    return reach


def part_of(path, paths):
    best = None
    for prefix, part in paths:
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, part)
    return best[1] if best else None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--doc", required=True)
    parser.add_argument("--graph", required=True)
    parser.add_argument("--root", required=True,
                        help="source tree whose lib, include and tools are scanned")
    args = parser.parse_args()

    drawn, libraries, paths, never = parse_doc(args.doc)
    allowed = closure(drawn)
    problems = []

    def may(a, b):
        return a == b or b == "LLVM" or b in allowed.get(a, set())

    for a, b in never:
        if b in allowed.get(a, set()):
            problems.append(f"the picture allows {a} --> {b}, which must never hold")

    realized = set()
    for line in open(args.graph, encoding="utf-8"):
        if ":" not in line:
            continue
        target, deps = line.split(":", 1)
        target = target.strip()
        source = libraries.get(target)
        if source is None:
            problems.append(f"no part claims {target}")
            continue
        for dep in deps.split():
            if dep == "LLVM":
                continue
            sink = libraries.get(dep)
            if sink is None:
                problems.append(f"{target} links {dep}, which no part claims")
                continue
            if source != sink:
                realized.add((source, sink))
            if not may(source, sink):
                problems.append(f"{target} links {dep}: {source} --> {sink} "
                                f"is not allowed")

    for a, b in sorted(drawn - realized):
        problems.append(f"the picture draws {a} --> {b}, which no link realizes")

    include = re.compile(r'^\s*#\s*include\s+"(Deplodock/[^"]+)"', re.M)
    for top in ("include", "lib", "tools"):
        for directory, _, files in os.walk(os.path.join(args.root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp", ".inc")):
                    continue
                full = os.path.join(directory, name)
                rel = os.path.relpath(full, args.root)
                source = part_of(rel, paths)
                if source is None:
                    continue
                text = open(full, encoding="utf-8", errors="replace").read()
                for header in include.findall(text):
                    sink = part_of("include/" + header, paths)
                    if sink is None or may(source, sink):
                        continue
                    problems.append(f"{rel} includes {header}: {source} --> "
                                    f"{sink} is not allowed")

    for problem in problems:
        print(f"architecture: {problem}")
    if problems:
        return 1
    print(f"architecture: {len(libraries)} libraries in {len(set(libraries.values()))} "
          f"parts, {len(drawn)} arrows: the build matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
