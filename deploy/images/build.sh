#!/usr/bin/env bash
# `make images`: every image the compose stack runs, built here from Debian's packages and
# PyPI, with no registry: a bookworm rootfs made by debootstrap and imported as the base,
# then the app and learner images (deploy/Dockerfile, on a Python base made from Debian's
# python3) and Redis, Postgres and Prometheus from Debian's packages. Cached: the rootfs
# tarball under .cache/images/ (git-ignored), the imported base while podman keeps it, and
# each build's layers. deploy/compose.local.yml runs the stack on these images.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${DESIGNRL_IMAGE_CACHE:-$ROOT/.cache/images}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
PODMAN=(podman --runtime runc --cgroup-manager cgroupfs)
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
step() { printf '\n== %s (%ss)\n' "$1" "$SECONDS"; }

step "tools: podman, runc, debootstrap"
if ! command -v podman >/dev/null || ! command -v runc >/dev/null \
   || ! command -v debootstrap >/dev/null; then
  command -v apt-get >/dev/null || { echo "install podman, runc and debootstrap"; exit 1; }
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap
fi
# crun and podman's default ulimits fail on hosts whose cgroups deny them; runc with
# cgroupfs and no default ulimits run everywhere we have tried
if ! grep -qs '^default_ulimits *= *\[\]' /etc/containers/containers.conf; then
  $SUDO mkdir -p /etc/containers
  printf '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n' \
    | $SUDO tee -a /etc/containers/containers.conf >/dev/null
fi

step "base: Debian bookworm rootfs"
mkdir -p "$CACHE"
if ! "${PODMAN[@]}" image exists localhost/designrl-base:bookworm; then
  if [ ! -f "$CACHE/bookworm.tar" ]; then
    rm -rf "$CACHE/rootfs"
    $SUDO debootstrap --variant=minbase bookworm "$CACHE/rootfs" "$MIRROR"
    # debootstrap lists bookworm alone: add its updates and security (Chromium's fixes)
    printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s-security bookworm-security main\n' \
      "$MIRROR" "$MIRROR" "$MIRROR" | $SUDO tee "$CACHE/rootfs/etc/apt/sources.list" >/dev/null
    $SUDO rm -rf "$CACHE/rootfs/var/cache/apt/archives/"*.deb
    $SUDO tar -C "$CACHE/rootfs" -cf "$CACHE/bookworm.tar.part" . \
      && mv "$CACHE/bookworm.tar.part" "$CACHE/bookworm.tar"
    $SUDO rm -rf "$CACHE/rootfs"
  fi
  "${PODMAN[@]}" import --change 'CMD ["/bin/bash"]' "$CACHE/bookworm.tar" \
    localhost/designrl-base:bookworm
fi

# This machine's trust store and local wheels reach pip only while a build runs (PyPI
# behind a TLS-inspecting proxy; torch's CPU wheel from disk), never the images: a pip.conf
# mounted at /etc/pip.conf for the build alone.
PIP_CONF="$CACHE/pip.conf"
printf '[global]\ncert = /run/host-ca.crt\n' > "$PIP_CONF"
BUILD_MOUNTS=(--volume "$PIP_CONF:/etc/pip.conf:ro"
              --volume /etc/ssl/certs/ca-certificates.crt:/run/host-ca.crt:ro)
if [ -d /opt/wheels ]; then
  echo "find-links = /run/wheels" >> "$PIP_CONF"
  BUILD_MOUNTS+=(--volume /opt/wheels:/run/wheels:ro)
fi
build() {  # build NAME CONTAINERFILE [ARGS...]
  local name=$1 file=$2; shift 2
  step "image: $name"
  "${PODMAN[@]}" build --network host --layers -t "localhost/$name" -f "$file" "$@" "$ROOT"
}

build designrl-python:bookworm deploy/images/python.Containerfile
BASE=(--build-arg BASE=localhost/designrl-python:bookworm "${BUILD_MOUNTS[@]}")
build designrl:latest deploy/Dockerfile --target app "${BASE[@]}"
build designrl-learner:latest deploy/Dockerfile --target learner "${BASE[@]}"
build designrl-redis:bookworm deploy/images/redis.Containerfile
build designrl-postgres:bookworm deploy/images/postgres.Containerfile
build designrl-prometheus:bookworm deploy/images/prometheus.Containerfile

step "done"
"${PODMAN[@]}" images --filter reference='localhost/designrl*'
