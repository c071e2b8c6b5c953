#!/bin/sh
# A deplodock-opt stand-in that rejects every input with a located error, as
# the real one does for an unsupported op. Used by check-errors.mlir.
for arg in "$@"; do
  case "$arg" in
    *.mlir) echo "$arg:4:1: error: 'linalg.softmax' op is not supported (test stub)" >&2 ;;
  esac
done
exit 1
