"""Checks the tuning shares a dry run of bench/harness.py recorded."""
import json
import sys

results = json.load(open(sys.argv[1]))
total, cap = float(sys.argv[2]), float(sys.argv[3])
assert results["settings"]["tune_total_minutes"] * 60 == total
shares = {}
for name, record in results["cases"].items():
    share = record["tune_budget_s"]
    command = record["tuned"]["planned"][0]
    assert f"--max-seconds={share:g}" in command, (name, command)
    assert 1 <= share <= cap, (name, share)
    shares[name] = share
assert abs(sum(shares.values()) - total) <= 0.1 * len(shares), shares
# The tuning pass (the log's lines after "tuning ...") goes largest first.
lines = open(sys.argv[4]).read().split("tuning ", 1)[1].splitlines()[1:]
order = [line.split()[2] for line in lines if line.startswith("[")]
in_order = [shares[n] for n in order]
assert sorted(order) == sorted(shares), (order, shares)
assert in_order == sorted(in_order, reverse=True), (order, shares)
print(f"{len(shares)} cases, shares sum to {sum(shares.values()):.0f} s, "
      f"each within [1, {cap:g}], largest first, --max-seconds as shared")
