# syntax=docker/dockerfile:1
# quire: one static-ish binary on a slim Debian; data in /data.

FROM rust:1-bookworm AS build
WORKDIR /src
# Dependencies first, in their own layer: rebuilt only when Cargo.toml/lock change.
COPY Cargo.toml Cargo.lock build.rs ./
RUN mkdir -p src benches migrations/sqlite \
 && echo 'fn main() {}' > src/main.rs && touch src/lib.rs \
 && for b in history search password; do echo 'fn main() {}' > "benches/$b.rs"; done \
 && cargo build --release --locked \
 && rm -rf src benches
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY src ./src
COPY benches ./benches
RUN touch src/lib.rs src/main.rs && cargo build --release --locked --bin quire

FROM debian:bookworm-slim
# ca-certificates follows Debian's security updates; a pinned version would stop
# building the day Debian replaces it.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin quire \
 && mkdir -p /data && chown quire:quire /data
COPY --from=build /src/target/release/quire /usr/local/bin/quire
USER 10001:10001
WORKDIR /data
ENV QUIRE_BIND=0.0.0.0:8080 \
    QUIRE_DATABASE_URL=sqlite:///data/quire.db
VOLUME ["/data"]
EXPOSE 8080
# SIGTERM: stop accepting, finish requests in flight (30 s at most), close the database.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["quire", "healthcheck"]
ENTRYPOINT ["quire"]
CMD ["serve"]
