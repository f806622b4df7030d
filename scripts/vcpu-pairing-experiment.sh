#!/bin/bash
# Do the two vCPUs of a machine run at one speed at one time? Two builds measured at once, each
# server with its own client on its own CPU (A on CPU 0 and B on CPU 1, swapped every round),
# fresh servers each round, one test with -P 1000. If the host slows both vCPUs together, the
# ratio B/A varies less than A alone and measuring at once would pair the builds; if each vCPU
# varies on its own, the ratio varies more (docs/evidence/noise-structure.md).
# Prints per round requests/second and server CPU ticks (user + system, /proc/PID/stat) of
# each, then the SD of ln A and of ln B/A for both.
# Usage: scripts/vcpu-pairing-experiment.sh SERVER_A SERVER_B CLIENT [ROUNDS] [TEST] [N]
# (quiet machine; nothing else running)
set -eu
a=$1 b=$2 client=$3 rounds=${4:-14} test=${5:-set} n=${6:-1000000}
out=$(mktemp -d /tmp/vcpu-XXXX)
started() { until "$client" -p "$1" -n 1 -t ping_inline -q > /dev/null 2>&1; do sleep 0.1; done; }
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then ca=0 cb=1; else ca=1 cb=0; fi
  taskset -c $ca "$a" --port 7001 --save "" --appendonly no --dir "$out" > /dev/null 2>&1 & A=$!
  taskset -c $cb "$b" --port 7002 --save "" --appendonly no --dir "$out" > /dev/null 2>&1 & B=$!
  started 7001; started 7002
  taskset -c $ca "$client" -p 7001 -n "$n" -P 1000 -d 64 -r 9999999999 --csv -t "$test" > "$out/a.csv" & CA=$!
  taskset -c $cb "$client" -p 7002 -n "$n" -P 1000 -d 64 -r 9999999999 --csv -t "$test" > "$out/b.csv" & CB=$!
  wait $CA $CB
  ta=$(awk '{print $14 + $15}' /proc/$A/stat) tb=$(awk '{print $14 + $15}' /proc/$B/stat)
  kill $A $B; wait $A $B 2> /dev/null || true
  ra=$(tail -1 "$out/a.csv" | cut -d, -f2 | tr -d '"') rb=$(tail -1 "$out/b.csv" | cut -d, -f2 | tr -d '"')
  echo "$r $ra $rb $ta $tb" | tee -a "$out/rounds.txt"
done
python3 - "$out/rounds.txt" <<'PY'
import sys, math, statistics as st
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
for name, ia, ib in (('requests/s', 1, 2), ('server CPU ticks', 3, 4)):
    alone = st.stdev(math.log(r[ia]) for r in rows)
    ratio = st.stdev(math.log(r[ib] / r[ia]) for r in rows)
    print(f'{name}: SD of ln A {100 * alone:.1f}%, SD of ln B/A {100 * ratio:.1f}% over {len(rows)} rounds')
PY
rm -rf "$out"
