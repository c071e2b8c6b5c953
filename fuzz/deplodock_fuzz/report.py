"""The fuzzer's report: per campaign the cases (mutants, frames, flag sets)
and runs tried and how many ended in each class; then every finding
(crashed, hung or wrong), grouped by signature, with the reproducer of its
first case. Findings listed in fuzz/known-findings.txt (each in
fuzz/FINDINGS.md) are reported apart and do not fail the run."""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from dataclasses import dataclass, field

from .runner import CLASSES, FAILURES


@dataclass
class Known:
    area: str
    pattern: re.Pattern
    what: str


def load_known(path: str) -> list:
    """Lines 'AREA | REGEX | WHAT' (# comments), the fields separated by
    " | "; the regex is searched for in a finding's signature."""
    known = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            # The regex may hold "|" itself: the fields end at " | ".
            area, rest = line.split(" | ", 1)
            pattern, what = rest.rsplit(" | ", 1)
            area, pattern, what = area.strip(), pattern.strip(), what.strip()
            known.append(Known(area, re.compile(pattern), what))
    return known


@dataclass
class Finding:
    signature: str
    kind: str
    known: Known | None
    count: int = 0
    cases: list = field(default_factory=list)  # (campaign, index, what, dir)
    reason: str = ""


@dataclass
class Campaign:
    name: str
    unit: str  # what a case is: mutants, frames, flag sets
    cases: int = 0
    units: int = 0
    runs: int = 0
    counts: dict = field(default_factory=lambda: {c: 0 for c in CLASSES})
    known: dict = field(default_factory=lambda: {c: 0 for c in CLASSES})
    seconds: float = 0.0


class Report:
    def __init__(self, known: list):
        self.known = known
        self.campaigns: "OrderedDict[str, Campaign]" = OrderedDict()
        self.findings: "OrderedDict[str, Finding]" = OrderedDict()

    def campaign(self, name: str, unit: str) -> Campaign:
        return self.campaigns.setdefault(name, Campaign(name, unit))

    def match(self, sig: str) -> Known | None:
        for k in self.known:
            if k.pattern.search(sig):
                return k
        return None

    def add(self, campaign: Campaign, result) -> None:
        campaign.cases += 1
        campaign.units += result.case.units
        for run in result.runs:
            campaign.runs += 1
            kind = run.outcome.kind
            campaign.counts[kind] += 1
            campaign.seconds += run.outcome.seconds
            if kind not in FAILURES:
                continue
            finding = self.findings.get(run.signature)
            if finding is None:
                finding = Finding(run.signature, kind, self.match(run.signature),
                                  reason=run.outcome.reason)
                self.findings[run.signature] = finding
            if finding.known:
                campaign.known[kind] += 1
            finding.count += 1
            if len(finding.cases) < 3:
                finding.cases.append((result.case.campaign, result.case.index,
                                      result.case.what, result.directory))

    def new_failures(self) -> int:
        return sum(f.count for f in self.findings.values() if not f.known)

    def text(self) -> str:
        lines = []
        total = {c: 0 for c in CLASSES}
        total_known = {c: 0 for c in CLASSES}
        for c in self.campaigns.values():
            lines.append("== %s: %d %s, %d runs (%.0f s of tool time)" % (
                c.name, c.units, c.unit, c.runs, c.seconds))
            lines.append("   " + _counts(c.counts, c.known))
            for k in CLASSES:
                total[k] += c.counts[k]
                total_known[k] += c.known[k]
        lines.append("== all: tried %d runs" % sum(total.values()))
        lines.append("   " + _counts(total, total_known))
        for title, known in (("new findings", False),
                             ("known findings (fuzz/FINDINGS.md)", True)):
            chosen = [f for f in self.findings.values()
                      if bool(f.known) == known]
            lines.append("== %s: %d" % (title, len(chosen)))
            for f in chosen:
                area = " (%s)" % f.known.area if f.known else ""
                lines.append("  [%s]%s %s" % (f.kind, area, f.signature))
                lines.append("      %d runs; e.g. %s" % (f.count, f.reason[:200]))
                for campaign, index, what, directory in f.cases:
                    lines.append("      %s #%d (%s): %s/repro.sh" % (
                        campaign, index, what[:160], directory))
        return "\n".join(lines)

    def json(self) -> str:
        return json.dumps({
            "campaigns": {c.name: {"unit": c.unit, "cases": c.cases,
                                   "units": c.units, "runs": c.runs,
                                   "counts": c.counts, "known": c.known}
                          for c in self.campaigns.values()},
            "findings": [{"signature": f.signature, "kind": f.kind,
                          "known": f.known.area if f.known else None,
                          "count": f.count, "reason": f.reason,
                          "cases": [{"campaign": c, "index": i, "what": w,
                                     "reproducer": d} for c, i, w, d in f.cases]}
                         for f in self.findings.values()],
        }, indent=1)


def _counts(counts: dict, known: dict) -> str:
    parts = []
    for k in CLASSES:
        text = "%s %d" % (k, counts[k])
        if known.get(k):
            text += " (%d known)" % known[k]
        parts.append(text)
    return "  ".join(parts)
