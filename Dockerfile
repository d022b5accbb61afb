# syntax=docker/dockerfile:1
# quire: one binary on a slim Debian, with Litestream beside it; data in /data.
# Runs as quire (uid 10001, gid 10001) everywhere: the server, the restore on an
# empty volume and the Litestream sidecar, so every file in /data has one owner.

# The official Litestream image only lends its one static binary.
FROM litestream/litestream:0.5.17 AS litestream

FROM rust:1-bookworm AS build
WORKDIR /src
# Dependencies first, in their own layer: rebuilt only when Cargo.toml/lock change.
# The stub targets are read from Cargo.toml, so a new bench never breaks this step.
COPY Cargo.toml Cargo.lock build.rs ./
COPY deploy/cargo-stubs.sh /usr/local/bin/cargo-stubs
RUN cargo-stubs Cargo.toml \
 && cargo build --release --locked --bin quire \
 && rm -rf src benches examples tests
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY src ./src
COPY benches ./benches
RUN touch src/lib.rs src/main.rs && cargo build --release --locked --bin quire
# Symbols are of no use in the image: 21 MB -> 17 MB.
RUN strip target/release/quire

FROM debian:bookworm-slim
# CA certificates (Litestream's S3 and SFTP replicas need them) come from the build
# stage's up-to-date bundle: the whole ca-certificates package with openssl would add
# 9 MB for one 220 KB file.
RUN groupadd --system --gid 10001 quire \
 && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin quire \
 && mkdir -p /data /backup \
 && chown 10001:10001 /data /backup
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=litestream /usr/local/bin/litestream /usr/local/bin/litestream
COPY --from=build /src/target/release/quire /usr/local/bin/quire
COPY deploy/entrypoint.sh /usr/local/bin/quire-entrypoint
COPY deploy/litestream.yml /etc/litestream.yml
USER 10001:10001
WORKDIR /data
ENV QUIRE_BIND=0.0.0.0:8080 \
    QUIRE_DB_PATH=/data/quire.db \
    QUIRE_DATABASE_URL=sqlite:///data/quire.db \
    QUIRE_LITESTREAM=/usr/local/bin/litestream
VOLUME ["/data"]
EXPOSE 8080
# SIGTERM: stop accepting, finish requests in flight (30 s at most), close the database.
STOPSIGNAL SIGTERM
# A short interval: compose starts the Litestream sidecar only once quire is healthy
# (Docker 20.10 and compose v1 know no start_interval).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["quire", "healthcheck"]
# `serve` restores an empty volume from the replica first; any other arguments
# run that quire command (`docker run quire user add ...`).
ENTRYPOINT ["quire-entrypoint"]
CMD ["serve"]
