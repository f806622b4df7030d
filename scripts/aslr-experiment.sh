#!/bin/bash
# Does the server's address-space layout make the per-run noise of requests/second
# (docs/method.md, precision protocol: where the noise lies)? One build measured in
# ROUNDS rounds, each one run with ASLR (as the collector runs servers) and one without
# (setarch -R), in alternating order; a run = a fresh server pinned to CPU 0 and the client on
# CPU 1 over the default tests with -n N. Prints per arm the SD over runs of the mean ln rps
# (the run part) and the SD of the rest per test.
# Usage: scripts/aslr-experiment.sh SERVER CLIENT [ROUNDS] [N]   (quiet machine; nothing else running)
# SERVER: a built redis-server (e.g. <work>/cells/7.4.1_gcc_-O2/redis-server); CLIENT: redis-benchmark.
set -eu
server=$1 client=$2 rounds=${3:-8} n=${4:-150000}
out=$(mktemp -d /tmp/aslr-XXXX)
port=6399
runone() { # $1 arm (aslr|noaslr) $2 round
  local wrap=""
  [ "$1" = noaslr ] && wrap="setarch -R"
  rm -f "$out/dump.rdb"
  taskset -c 0 $wrap "$server" --port $port --save "" --appendonly no --dir "$out" --daemonize no > "$out/server.log" 2>&1 &
  local pid=$!
  until "$client" -p $port -n 1 -t ping_inline -q > /dev/null 2>&1; do sleep 0.1; done
  taskset -c 1 "$client" -p $port -n "$n" --csv -d 64 -r 9999999999 | tail -n +2 | \
    awk -F'","' -v OFS='\t' -v arm="$1" -v r="$2" '{gsub(/"/,"",$1); gsub(/"/,"",$2); print arm, r, $1, $2}' >> "$out/rps.tsv"
  kill $pid; wait $pid 2>/dev/null || true
}
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then runone aslr "$r"; runone noaslr "$r"; else runone noaslr "$r"; runone aslr "$r"; fi
  echo "round $r done" >&2
done
python3 - "$out/rps.tsv" <<'PY'
import sys, math, statistics as st, collections
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
parts = {}
for arm in ('aslr', 'noaslr'):
    x = collections.defaultdict(dict)  # round -> test -> ln rps
    for a, r, t, v in rows:
        if a == arm: x[r][t] = math.log(float(v))
    tests = sorted(set.intersection(*[set(d) for d in x.values()]))
    tmean = {t: st.mean(x[r][t] for r in x) for t in tests}
    runs = {r: st.mean(x[r][t] - tmean[t] for t in tests) for r in x}
    rest = [x[r][t] - tmean[t] - runs[r] for r in x for t in tests]
    print(f"{arm}: {len(x)} runs, {len(tests)} tests: run part SD {100*st.stdev(runs.values()):.2f}%, "
          f"rest per test SD {100*math.sqrt(sum(e*e for e in rest)/((len(x)-1)*(len(tests)-1))):.2f}%")
    parts[arm] = [runs[r] for r in sorted(x, key=int)]
# Do the two runs of a round (back to back) share their run part? (a slow drift of the host would)
print(f"correlation of the two arms' run parts over the rounds: {st.correlation(parts['aslr'], parts['noaslr']):+.2f}")
PY
echo "raw: $out/rps.tsv"
