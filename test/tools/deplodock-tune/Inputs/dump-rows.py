"""Prints a tune database's perf rows in the order they were written, then
its best rows: what must not depend on how many threads lowered them."""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
perf = db.execute("SELECT op_key, knobs, status, median_us FROM perf "
                  "ORDER BY rowid").fetchall()
print("perf", len(perf))
for row in perf:
    print(*row)
best = db.execute("SELECT kernel_key, op_key, knobs, median_us FROM best "
                  "ORDER BY kernel_key").fetchall()
print("best", len(best))
for row in best:
    print(*row)
