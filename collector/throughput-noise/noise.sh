#!/bin/sh
# Run-to-run noise and time split of one cell (7.4.1, gcc-12 -O2, the reference
# protocol, 3 repeats): collects it twice, independently (separate work
# directories, so separate builds), then prints the time per step, the
# collector's overhead, and per test the spread of the best-of-3 figure between
# the two collections.
#
# Usage: collector/throughput-noise/noise.sh GIT_REPO_OF_REDIS
# Pause other collections first: each run needs both cores.
set -eu
repo="$1"
cd "$(dirname "$0")"
out="${NOISE_DIR:-$PWD/../../work/noise}"
mkdir -p "$out"
(cd .. && go build -o "$out/collector" .)
for i in 1 2; do
  "$out/collector" run -config noise-matrix.toml -source git -git "$repo" \
    -data "$out/data$i" -work "$out/work$i" -no-progress
done
"$out/collector" stats -data "$out/data1" -compare "$out/data2"
