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

# debian_redis_tarball downloads Debian's Redis source packages (real release
# trees: 7.0.15 from bookworm, 8.0.2 from trixie) into $1 unless they are
# already there. It keeps a deb-src entry of its own for both suites and asks
# for each upstream version by name, so other deb-src entries on the machine
# cannot change which release it gets.
debian_redis_tarball() {
  dir="$1"
  mkdir -p "$dir"
  if [ -f "$dir/redis_7.0.15.orig.tar.gz" ] && [ -f "$dir/redis_8.0.2.orig.tar.gz" ]; then return 0; fi
  list=/etc/apt/sources.list.d/rcb-debian-src.sources
  want='Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg'
  if [ "$(cat "$list" 2>/dev/null)" != "$want" ]; then
    echo "adding deb-src entries for bookworm and trixie ($list)"
    printf '%s\n' "$want" | as_root sh -c "cat > $list"
    as_root apt-get update -q
  fi
  for upstream in 7.0.15 8.0.2; do
    [ -f "$dir/redis_$upstream.orig.tar.gz" ] && continue
    debian=$(apt-cache showsrc redis | awk -v v="5:$upstream-" '$1 == "Version:" && index($2, v) == 1 { print $2; exit }')
    if [ -z "$debian" ]; then echo "no Debian source package of Redis $upstream (apt-cache showsrc redis)" >&2; return 1; fi
    # The orig tarball is what the tests use; a point release's .dsc can lag
    # behind it on the mirror, so judge by the tarball.
    (cd "$dir" && apt-get source --download-only "redis=$debian") || true
    if [ ! -f "$dir/redis_$upstream.orig.tar.gz" ]; then echo "could not download redis_$upstream.orig.tar.gz" >&2; return 1; fi
  done
}
