#!/bin/sh
# A deplodock-run stand-in for wrong.mlir: runs the real one
# ($REAL_DEPLODOCK_RUN), then spoils one element of result0.npy (with
# $TEST_PYTHON, which has numpy), as a kernel with a bad index would.
"$REAL_DEPLODOCK_RUN" "$@" || exit $?
dir=
for arg in "$@"; do
  case "$arg" in
    --output-dir=*) dir=${arg#--output-dir=} ;;
  esac
done
[ -n "$dir" ] || exit 0
exec "$TEST_PYTHON" -c '
import sys
import numpy as np
path = sys.argv[1] + "/result0.npy"
a = np.load(path)
a.flat[5] += 1 + abs(a.flat[5])
np.save(path, a)
' "$dir"
