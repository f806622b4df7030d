#!/bin/sh
# Builds the site with the bundled dataset (public/data) and serves it.
# Usage: ./scripts/serve.sh [port]   (default 4173)
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node_modules
npm run build
echo "serving on http://127.0.0.1:${1:-4173}/"
exec npx vite preview --host 127.0.0.1 --port "${1:-4173}" --strictPort
