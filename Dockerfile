# syntax=docker/dockerfile:1
#
# bcserver container image: a static binary on an empty base, running as an
# unprivileged user. The build fetches nothing but Go modules (through the
# Go module proxy); the two base images are the only pulls.
#
#   docker build -t bcserver --build-arg VERSION=$(git describe --tags --always) \
#       --build-arg COMMIT=$(git rev-parse --short=12 HEAD) .
#   docker run --stop-timeout 20 -p 22101:22101/udp -p 8080:8080 -v bcserver-data:/data \
#       -e BCSERVER_ADMIN_TOKEN=$(openssl rand -hex 24) bcserver
#
# --stop-timeout 20: at SIGTERM the server tells every player and waits up
# to 15 s for their acknowledgements; Docker's default of 10 s would kill
# it first.
#
# Configuration: BCSERVER_<SECTION>_<KEY> variables (README, "Configuration
# from the environment"), or a file mounted at /data/bcserver.toml and
# BCSERVER_CONFIG=/data/bcserver.toml.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION}-bookworm AS build
WORKDIR /src
# Modules first, so source edits reuse the cached download layer.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
ARG COMMIT=unknown
RUN CGO_ENABLED=0 go build -trimpath \
        -ldflags "-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" \
        -o /out/bcserver ./cmd/bcserver \
 && mkdir -p /out/data

FROM scratch
COPY --from=build /out/bcserver /bcserver
# /data holds the match history, the generated admin token and the ban
# list; mount a volume there to keep them.
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
WORKDIR /data
# Bans and match history survive the container only on a volume.
VOLUME /data
# The admin API, console and /metrics listen on every interface of the
# container, which needs a token of the host's: BCSERVER_ADMIN_TOKEN (at
# least 16 characters), or a token written to /data/admin.token (or a
# mounted secret named by BCSERVER_ADMIN_TOKEN_FILE). Without one the
# server refuses to start and says why: a token it generated itself would
# be readable only inside the container.
ENV BCSERVER_ADMIN_LISTEN=0.0.0.0:8080 \
    BCSERVER_STORE_PATH=/data/bcserver.db \
    BCSERVER_ADMIN_TOKEN_FILE=/data/admin.token \
    BCSERVER_BANS_FILE=/data/banlist.txt
# 22101/udp: the game (stock port; LAN discovery also needs --network host).
# 8080/tcp: admin API, web console, /metrics, /healthz, /readyz.
EXPOSE 22101/udp 8080/tcp
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["/bcserver", "-healthcheck", "http://127.0.0.1:8080/healthz"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/bcserver"]
