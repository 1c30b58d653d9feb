# syntax=docker/dockerfile:1
#
# Grundy: one image for every role. `serve` (the web service and API) and `worker` (judging
# from the shared PostgreSQL queue) both run the `grundy` binary, with the compilers and
# interpreters of the judge's languages next to it. Workers need privileges for the sandbox:
# see docs/deploy.md and docker-compose.yml.
#
#   docker build -t grundy .
#   docker build -t grundy --build-arg EXTRA_PACKAGES="rustc golang-go" .   # + Rust and Go
#
# Needs BuildKit (the default builder since Docker 23): heredocs and cache mounts.

# ---- build --------------------------------------------------------------------------------------
FROM rust:1.95-bookworm AS builder

# aws-lc-sys (rustls' crypto provider) compiles its C with the system compiler and falls back to
# CMake; the rust image has gcc and make but not cmake.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends cmake \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# Only what the build reads: the manifests and sources, the SQL migrations (embedded by
# `sqlx::migrate!`) and the problem catalogue (embedded by `include_dir!`). Docs, scripts and the
# deployment files stay out, so editing them does not invalidate this layer.
COPY Cargo.toml Cargo.lock ./
COPY crates ./crates
COPY migrations ./migrations
COPY problems ./problems

# The crate registry and the target directory live in BuildKit cache mounts: after a source
# change only the workspace's own crates are recompiled, not the few hundred dependencies, and
# nothing is downloaded again. The binary is copied out of the cache mount, which is not part of
# the image.
RUN --mount=type=cache,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,target=/src/target,sharing=locked \
    cargo build --release --locked -p grundy-cli \
 && install -D -m 0755 target/release/grundy /out/grundy

# ---- runtime ------------------------------------------------------------------------------------
FROM debian:bookworm-slim AS runtime

# The judge's built-in languages, at the paths its language table expects (/usr/bin/gcc, g++,
# python3, node; Java 17 under /usr/lib/jvm): C and C++ (gcc, g++, libc6-dev, which gcc only
# recommends), Python 3, Java 17 and Node.js. Rust and Go are optional and off by default (they
# add about 1 GB): pass EXTRA_PACKAGES="rustc golang-go" for Debian's rustc 1.63 and Go 1.19,
# which the judge finds through `rustc --print sysroot` and `go env GOROOT`. A language whose
# tools are missing is simply unavailable (`grundy doctor` lists them).
# curl is for the health check below, postgresql-client for `grundy admin backup` and `restore`
# on PostgreSQL (pg_dump, pg_restore; Debian 12's are version 15, as the compose file's server).
# The man directory is one openjdk's post-install scripts expect and the slim image leaves out.
ARG EXTRA_PACKAGES=""
RUN mkdir -p /usr/share/man/man1 \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      gcc g++ libc6-dev \
      python3 \
      openjdk-17-jdk-headless \
      nodejs \
      ca-certificates curl \
      postgresql-client \
      ${EXTRA_PACKAGES} \
 && rm -rf /var/lib/apt/lists/*

# For judging workers on cgroup v2 (see docs/deploy.md, "cgroups"). With a private cgroup
# namespace the container's own cgroup is the root of /sys/fs/cgroup and holds the container's
# processes, and the kernel lets a cgroup that holds processes give no controllers to its
# children (the "no internal processes" rule), so the sandbox could not create per-run groups
# with memory, pids and cpu. This moves every process into a leaf group, `init`, enables those
# controllers for the children, then runs its arguments. It acts only in a private cgroup
# namespace on cgroup v2 (where its own group reads as "0::/"), never on the host's hierarchy
# (`cgroup: host`); it does nothing on cgroup v1 or when /sys/fs/cgroup is read-only (an
# unprivileged container): `grundy doctor` then says what is missing. (The same steps as
# Docker-in-Docker's entrypoint.)
COPY --chmod=0755 <<"EOF" /usr/local/bin/grundy-cgroup-nest
#!/bin/sh
cg=/sys/fs/cgroup
if [ "$(cat /proc/self/cgroup 2>/dev/null)" = "0::/" ] \
    && [ -f "$cg/cgroup.controllers" ] && [ -w "$cg/cgroup.subtree_control" ]; then
    mkdir -p "$cg/init"
    while read -r pid; do
        echo "$pid" > "$cg/init/cgroup.procs" 2>/dev/null || :
    done < "$cg/cgroup.procs"
    echo "+memory +pids +cpu" > "$cg/cgroup.subtree_control" \
        || echo "grundy-cgroup-nest: could not enable memory, pids and cpu for child cgroups" >&2
fi
exec "$@"
EOF

COPY --from=builder /out/grundy /usr/local/bin/grundy

# The SQLite database (when no GRUNDY_DATABASE_URL is given) and the test-set cache.
ENV GRUNDY_DATA_DIR=/var/lib/grundy
RUN mkdir -p /var/lib/grundy
VOLUME /var/lib/grundy
WORKDIR /var/lib/grundy

EXPOSE 8080

# Liveness of `serve` (it also checks the database). Workers serve no HTTP: compose disables
# this check for them.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD curl -fsS -o /dev/null http://127.0.0.1:8080/api/v1/health || exit 1

# Root: `serve` does not need it, but workers do (namespaces, cgroups, per-run uids), and one
# image serves both.
ENTRYPOINT ["grundy"]
CMD ["serve", "--listen", "0.0.0.0:8080", "--data-dir", "/var/lib/grundy"]
