# syntax=docker/dockerfile:1
#
# gamebot container image.
#
#   docker build -t gamebot .                       (BuildKit is required: RUN --mount, COPY --chmod)
#   docker run --rm -p 8080:8080 gamebot            (= gamebot serve, listening on $GAMEBOT_LISTEN)
#
# Build stage: the official Rust image, pinned to the toolchain in Cargo.toml's rust-version and to
# the same Debian release (12, bookworm, glibc 2.36) as the runtime stage below.
#
# Dependency caching: instead of the "copy Cargo.toml, build a dummy main.rs, then copy src/" trick
# (fragile here: the crate has a lib, several bins, criterion [[bench]] targets and include_str!'d
# files, and Cargo refuses to load a manifest whose declared targets are missing), the cargo
# registry, git checkouts and target/ live in BuildKit cache mounts. A source change therefore
# recompiles only the gamebot crate itself; the ~200 dependencies stay compiled in the cache
# across builds. .dockerignore keeps target/, .git etc. out of the context so `COPY . .` is cheap.
FROM rust:1.95.0-slim-bookworm AS builder

WORKDIR /build

# Everything the crate can need at compile time: Cargo.toml/Cargo.lock, src/ (lib + bins),
# config/default.toml and openapi.yaml (include_str!), benches/, examples/, tests/ (Cargo
# validates declared targets even when it does not build them).
COPY . .

# The commit the binary reports (/healthz, the gamebot-version header, gamebot_build_info):
# .git is not in the build context, so pass it: --build-arg REVISION=$(git rev-parse --short=12 HEAD).
ARG REVISION=unknown

# --locked: fail instead of silently updating Cargo.lock. Only the server binary goes into the
# image. The binary is copied out of the cache-mounted target/ in the same RUN, because cache
# mounts are not part of the resulting layer.
RUN --mount=type=cache,id=gamebot-cargo-registry,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,id=gamebot-cargo-git,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,id=gamebot-target,target=/build/target,sharing=locked \
    GAMEBOT_COMMIT="${REVISION}" cargo build --release --locked --bin gamebot \
 && install -D -m 0755 target/release/gamebot /out/gamebot

# Runtime stage: distroless "cc" = glibc + libgcc_s (needed by Rust's panic unwinding) + CA certs
# + tzdata, no shell and no package manager. The :nonroot tag runs as uid/gid 65532.
# Distroless publishes no versioned tags; to pin it byte-for-byte, append the digest
# (@sha256:...) from `docker buildx imagetools inspect gcr.io/distroless/cc-debian12:nonroot`.
FROM gcr.io/distroless/cc-debian12:nonroot AS runtime

ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown

LABEL org.opencontainers.image.title="gamebot" \
      org.opencontainers.image.description="HTTP game-bot microservice: Dou Dizhu, mahjong and gomoku decisions in milliseconds" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="gcr.io/distroless/cc-debian12:nonroot"

COPY --from=builder --chown=0:0 --chmod=0755 /out/gamebot /usr/local/bin/gamebot

# Listen on all interfaces inside the container. `gamebot healthcheck` reads the port from this
# variable too, so if you change the port, change it here (or via -e/environment:), not only in
# the serve arguments.
ENV GAMEBOT_LISTEN=0.0.0.0:8080

# Non-root (distroless "nonroot" user). Numeric so Kubernetes runAsNonRoot can verify it.
USER 65532:65532

EXPOSE 8080

# The server drains in-flight requests on SIGTERM (default drain timeout 10 s): give it longer
# than that before SIGKILL (docker stop -t 15 / compose stop_grace_period / k8s
# terminationGracePeriodSeconds).
STOPSIGNAL SIGTERM

# Exec form: distroless has no /bin/sh. The subcommand GETs http://127.0.0.1:<port>/healthz and
# exits 0 on HTTP 200, non-zero otherwise.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["/usr/local/bin/gamebot", "healthcheck"]

# Exec form, so gamebot is PID 1 and receives SIGTERM directly (no shell in between).
ENTRYPOINT ["/usr/local/bin/gamebot"]
CMD ["serve"]
