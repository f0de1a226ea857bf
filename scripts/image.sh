#!/usr/bin/env bash
# image: build the container image of configs/deploy/image/Containerfile with
# podman (or buildah), FROM scratch, and render the Kubernetes manifests with its
# tag into dist/k8s/. `make image` runs it after `make release`.
#
#   scripts/image.sh [--check]
#
# The root filesystem is staged from this machine: dist/arena-linux-amd64 as
# /usr/local/bin/arena, Stockfish (apt's /usr/games/stockfish) and dash as
# /bin/sh, each with the shared libraries ldd lists for it. --check exports the
# built image's filesystem and runs its programs in a chroot (running the image
# itself needs a container runtime, which this sandbox refuses: setrlimit):
# `arena --version` must name the commit and Stockfish must answer `uci`.
# The image is tagged arena:COMMIT (12 hex digits; IMAGE_TAG overrides), never
# :latest, so that a cluster runs the build it was given.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=dist/arena-linux-amd64
[ -x "$BIN" ] || { echo "image: $BIN missing (make release)" >&2; exit 1; }
COMMIT=$(git rev-parse HEAD)
TAG=${IMAGE_TAG:-${COMMIT:0:12}}
STOCKFISH=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$STOCKFISH" ] || { echo "image: Stockfish not found (apt-get install stockfish)" >&2; exit 1; }
BUILDER=$(command -v podman || command -v buildah || true)
[ -n "$BUILDER" ] || { echo "image: neither podman nor buildah found (apt-get install podman)" >&2; exit 1; }

CTX=$(mktemp -d /tmp/arena-image.XXXXXX)
trap 'rm -rf "$CTX"' EXIT
ROOT=$CTX/rootfs
mkdir -p "$ROOT"/{usr/local/bin,usr/games,bin,tmp,results,config}
chmod 1777 "$ROOT/tmp"

# with_libs FILE DEST copies FILE to ROOT/DEST and every library ldd names for
# it (and the dynamic loader) to the same path inside ROOT.
with_libs() {
	cp "$1" "$ROOT/$2"
	ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | while read -r lib; do
		mkdir -p "$ROOT/$(dirname "$lib")"
		cp -L "$lib" "$ROOT/$lib"
	done
}
cp "$BIN" "$ROOT/usr/local/bin/arena"
with_libs "$STOCKFISH" usr/games/stockfish
with_libs "$(readlink -f /bin/sh)" bin/sh
cp configs/deploy/image/Containerfile "$CTX/"

if [ "$(basename "$BUILDER")" = podman ]; then
	podman build --quiet -t "arena:$TAG" -f "$CTX/Containerfile" "$CTX" >/dev/null
else
	buildah bud --quiet -t "arena:$TAG" -f "$CTX/Containerfile" "$CTX" >/dev/null
fi
echo "image: built arena:$TAG ($(basename "$BUILDER"))"

mkdir -p dist/k8s
sed "s|image: arena:IMAGE_TAG|image: arena:$TAG|" configs/deploy/k8s/arena-indexed-job.yaml >dist/k8s/arena-indexed-job.yaml
echo "image: dist/k8s/arena-indexed-job.yaml names arena:$TAG"

[ "${1:-}" = --check ] || exit 0
# The image's own files, run in a chroot: what a pod would run.
FS=$CTX/fs
mkdir -p "$FS"
cid=$(podman create "arena:$TAG")
podman export "$cid" | tar -x -C "$FS"
podman rm "$cid" >/dev/null
version=$(chroot "$FS" /usr/local/bin/arena --version)
echo "image: arena --version in the image: $version"
case "$version" in *"${COMMIT:0:12}"*) ;; *) echo "image: FAIL: the image's arena does not name commit ${COMMIT:0:12}" >&2; exit 1 ;; esac
printf 'uci\nquit\n' | chroot "$FS" /usr/games/stockfish | grep -q '^uciok' ||
	{ echo "image: FAIL: Stockfish in the image does not answer uci" >&2; exit 1; }
chroot "$FS" /bin/sh -c 'exit 0' || { echo "image: FAIL: no working /bin/sh in the image" >&2; exit 1; }
echo "image: check passed (arena names the commit, Stockfish answers uci, /bin/sh runs)"
