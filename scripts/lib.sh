# Shared helpers for scripts/*.sh: install what the project needs on Debian.

# as_root runs a command as root (directly, or through sudo).
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# need_debs installs the Debian packages whose commands are missing.
# Arguments: pairs of "command:package".
need_debs() {
  missing=""
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
  done
  if [ -n "$missing" ]; then
    echo "installing Debian packages:$missing"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
  fi
}

# need_node_modules installs the locked packages unless node_modules matches
# package-lock.json. It uses `npm ci`, which installs exactly the lock and never
# writes it. The lock lists tailwind's optional native packages for every
# platform (as npm writes it where the registry has them all); a lock missing
# some makes `npm install` add them on every fresh clone and `npm ci` refuse.
need_node_modules() {
  if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.rcb-lock; then
    npm ci --no-audit --no-fund
    cp package-lock.json node_modules/.rcb-lock
  fi
}

# debian_redis_tarball downloads Debian's Redis source package (a real release
# tree, 7.0.15 on bookworm) into $1 unless it is already there.
debian_redis_tarball() {
  dir="$1"
  mkdir -p "$dir"
  if ls "$dir"/redis_*.orig.tar.gz >/dev/null 2>&1; then return 0; fi
  if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    echo "adding a deb-src entry for bookworm"
    as_root sh -c 'cat > /etc/apt/sources.list.d/rcb-debian-src.sources' <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    as_root apt-get update -q
  fi
  (cd "$dir" && apt-get source --download-only redis)
}
