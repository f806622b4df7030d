#!/bin/sh
# Runs every test: Go (unit + end-to-end build and benchmark of a real Redis
# release), TypeScript unit tests (Vitest) and browser tests (Playwright with
# Debian's Chromium). Installs what it needs first.
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh

need_debs chromium:chromium valgrind:valgrind clang-19:clang-19 ld.lld-19:lld-19 llvm-ar-19:llvm-19 llvm-nm-19:llvm-19 gcc-12:gcc-12 make:make taskset:util-linux git:git
export RCB_DEBIAN_TARBALLS="$PWD/.cache/debian-redis"
debian_redis_tarball "$RCB_DEBIAN_TARBALLS"

echo "== Go: vet and tests (incl. end-to-end build of Redis 7.0.15 with gcc -O2 and clang -O2 -flto, and its count under Valgrind with gcc -O2 and -Os)"
(cd collector && go vet ./... && go test -p 1 -count=1 -timeout 45m ./...)

echo "== TypeScript: type check (site, tests, tooling) and unit tests"
need_node_modules
npm run typecheck
npm test

echo "== Browser tests (Playwright, /usr/bin/chromium)"
npm run test:e2e
echo "all tests passed"
