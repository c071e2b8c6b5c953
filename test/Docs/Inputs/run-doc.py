"""Runs the ```sh and ```python blocks of a Markdown document, in order, as
a reader would: each from the root of a copy of the repository (links to
the source's entries, `build` linked to the build directory), with
build/bin on PATH and the Python package importable. A block whose first
line says it "needs the PyTorch venv" runs only with --torch-python, one
that "needs a GPU" never, one that "builds Deplodock" never (the test has).

    run-doc.py DOC.md --source SRC --build BUILD --workdir DIR [--torch-python PY]

Prints one line per block, then its output; on the first failure, what the
block was and its output, and exits 1.
"""

import argparse
import os
import pathlib
import re
import subprocess
import sys

FENCE = re.compile(r"^```(\w*)\s*$")


def blocks(text):
    """(line, language, code) of every fenced block."""
    language, start, lines = None, 0, []
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if language is None and match:
            language, start, lines = match.group(1), number, []
        elif language is not None and line.startswith("```"):
            yield start, language, "\n".join(lines) + "\n"
            language = None
        elif language is not None:
            lines.append(line)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("doc")
    p.add_argument("--source", required=True)
    p.add_argument("--build", required=True)
    p.add_argument("--workdir", required=True)
    p.add_argument("--torch-python")
    args = p.parse_args()

    root = pathlib.Path(args.workdir) / "repo"
    root.mkdir(parents=True)
    source = pathlib.Path(args.source).resolve()
    for entry in source.iterdir():
        if entry.name not in ("build", ".git"):
            (root / entry.name).symlink_to(entry)
    (root / "build").symlink_to(pathlib.Path(args.build).resolve())

    env = dict(os.environ)
    env["PATH"] = f"{root / 'build' / 'bin'}:/usr/bin:{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(root / "python")
    env["DEPLODOCK_PREFIX"] = str(root / "build")
    env["PYTHONDONTWRITEBYTECODE"] = "1"

    ran = skipped = 0
    for line, language, code in blocks(pathlib.Path(args.doc).read_text()):
        if language not in ("sh", "python"):
            continue
        first = code.splitlines()[0] if code.strip() else ""
        torch = "needs the PyTorch venv" in first
        if "needs a GPU" in first or "builds Deplodock" in first or (
                torch and not args.torch_python):
            print(f"line {line}: {language} block skipped ({first.lstrip('# ')})")
            skipped += 1
            continue
        if language == "sh":
            command = ["bash", "-euo", "pipefail", "-c", code]
        else:
            python = args.torch_python if torch else "/usr/bin/python3"
            command = [python, "-c", code]
        result = subprocess.run(command, cwd=root, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        if result.returncode != 0:
            print(f"line {line}: {language} block FAILED (exit {result.returncode}):")
            print(code)
            print(result.stdout)
            return 1
        print(f"line {line}: {language} block ok")
        for output in result.stdout.splitlines():
            print(f"  | {output}")
        ran += 1
    print(f"{ran} blocks ran, {skipped} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
