#!/bin/sh
# Runs the slow real-build checks that scripts/test.sh leaves out to stay within its time: each
# builds Redis several times (and one counts it under Valgrind) from Debian's source packages:
# - the shard-and-merge of collector count (shards' counts equal one serial run's),
# - one clang -O2 -flto code hash across work directories and ccache,
# - stock builds taking the release's own flags (7.0.15, and 8.0.2 with gcc and clang),
# - -O3 and -O3 -flto reaching 8.0.2's compile and link, and nothing the Makefile adds,
# - profile-guided builds with each compiler.
# About an hour on a quiet 2-core machine. .github/workflows/slow-tests.yml runs it weekly.
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh

need_debs valgrind:valgrind clang-19:clang-19 ld.lld-19:lld-19 llvm-ar-19:llvm-19 llvm-profdata-19:llvm-19 gcc-12:gcc-12 make:make ccache:ccache git:git
export RCB_DEBIAN_TARBALLS="$PWD/.cache/debian-redis"
debian_redis_tarball "$RCB_DEBIAN_TARBALLS"
export RCB_SLOW_TESTS=1
cd collector
go test -p 1 -count=1 -timeout 150m \
  -run 'TestCountShardsMergeToTheSerialCounts|TestCodeHashReproducibleRealRedis|TestStockBuildRealRedis|TestExtendedFlagSetsReachCompileAndLinkRealRedis|TestPGOBuildRealRedis' ./...
