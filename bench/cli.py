"""Command-line pieces shared by the bench scripts: case selection, errors."""

from __future__ import annotations

import argparse
import pathlib
import sys
from typing import NoReturn

import cases as suite

REPO = suite.REPO


def _names(values: list[str] | None) -> list[str] | None:
    """Flattens repeated and comma-separated option values."""
    if not values:
        return None
    return [n.strip() for v in values for n in v.split(",") if n.strip()]


def add_selection_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "case selection (comma-separated or repeated; every filter applies)")
    group.add_argument("--cases", action="append", metavar="NAME",
                       help="case names or shell patterns ('matmul.qwen.*'); a "
                       "pattern also matches names without the dtype suffix")
    group.add_argument("--families", action="append", metavar="FAMILY",
                       help=f"families: {', '.join(suite.FAMILIES)}")
    group.add_argument("--models", action="append", metavar="MODEL",
                       help=f"models: {', '.join(suite.MODELS)} (default: "
                       "the suite's, without the test model 'mini')")
    group.add_argument("--dtypes", "--dtype", action="append", metavar="DTYPE",
                       dest="dtypes",
                       help=f"dtypes: {', '.join(suite.DTYPES)}")


def selected_cases(args: argparse.Namespace) -> list[suite.Case]:
    """The cases the selection arguments name; exits 2 on a bad name."""
    try:
        chosen = suite.select(cases=_names(args.cases),
                              families=_names(args.families),
                              models=_names(args.models),
                              dtypes=_names(args.dtypes))
    except suite.SelectionError as e:
        fail(str(e))
    if not chosen:
        fail("the filters select no case")
    return chosen


def fail(message: str, code: int = 2) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(code)


def default_bin_dir() -> pathlib.Path:
    """Where the tools are looked for when neither flag nor env names them."""
    return REPO / "build" / "bin"
