#!/bin/sh
# Rewrites resources/examples/*.weft from resources/examples/examples.txt with a built weft-cli.
# Usage: scripts/regenerate-examples.sh [path/to/weft-cli]   (default: build/src/cli/weft-cli)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-"$root/build/src/cli/weft-cli"}
grep -v '^#' "$root/resources/examples/examples.txt" | while IFS=: read -r file flags; do
    [ -n "$file" ] || continue
    # shellcheck disable=SC2086 # the flags are meant to be split into words
    "$cli" generate $flags -o "$root/resources/examples/$file"
done
