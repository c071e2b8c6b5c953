"""Prints a layer manifest one JSON object a line, for FileCheck: each
buffer, each launch, then the other fields (keys sorted)."""
import json
import sys

manifest = json.load(open(sys.argv[1]))
for item in manifest["buffers"] + manifest["launches"]:
    print(json.dumps(item, sort_keys=True))
print(json.dumps({k: v for k, v in manifest.items() if k not in ("buffers", "launches")},
                 sort_keys=True))
