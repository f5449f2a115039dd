#!/usr/bin/env bash
# The image benchmark: folio against Hugo on the same photos, widths and
# formats (bench/gen_corpus.py --images: a 1600 x 1200 JPEG per post, every
# fifth stored sideways; each made upright at 480 and 960 pixels wide in JPEG
# and WebP, quality 75, Lanczos).
#
#   bench/images.sh [N] [RUNS]        (defaults: N=200 posts, RUNS=3)
#
# N posts in en, fr and de, on tmpfs. For each run and tool: a cold build (a
# fresh copy of the site, no cache, an empty output folder), a second build
# (nothing changed: folio decodes and encodes nothing, which its report
# counts), then one English post's photo replaced by another. Beside folio's
# second build, its no-op on the same site without `[images]` (the photos
# copied as they are, no variant): what the images add to a no-op, each the
# median of ten.
# Medians are printed as a markdown table. See bench/README.md.
set -euo pipefail
export LC_ALL=C

N=${1:-200}
RUNS=${2:-3}
[[ $N =~ ^[0-9]+$ && $N -ge 2 && $RUNS =~ ^[0-9]+$ && $RUNS -ge 1 ]] || {
    echo "usage: $0 [N>=2] [RUNS>=1]" >&2
    exit 2
}
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$BENCH_DIR/.." && pwd)
log() { printf '%s\n' "$*" >&2; }

command -v hugo >/dev/null 2>&1 || {
    log "installing hugo (apt)"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hugo >&2
}
BASE=$(mktemp -d /dev/shm/folio-images.XXXXXX)
trap 'rm -rf "$BASE"' EXIT

log "building folio (cargo build --release)"
(cd "$REPO" && cargo build --release --quiet) >&2
FOLIO="$BASE/folio"
cp "$REPO/target/release/folio" "$FOLIO"

for tool in folio hugo; do
    log "generating the $tool corpus: $N posts with photos"
    python3 "$BENCH_DIR/gen_corpus.py" --posts "$N" --format "$tool" --images "$BASE/pristine-$tool"
done
cp -r "$BASE/pristine-folio" "$BASE/pristine-plain"
sed -i '/^\[images\]/,$d' "$BASE/pristine-plain/site.toml"
EDIT=$(printf 'post-%05d' $(((N + 1) / 2)))
python3 -c "
import random, sys
sys.path.insert(0, '$BENCH_DIR')
import photos
open('$BASE/other.jpg', 'wb').write(photos.photo(random.Random('another photo'), 1600, 1200))"

declare -A R=()
timed() { # key cmd...: appends the wall seconds of cmd to R[key]
    local key=$1 t0 t1
    shift
    sync
    t0=$EPOCHREALTIME
    "$@" >"$BASE/last.out" 2>"$BASE/last.err" || {
        log "FAILED: $*"
        sed -n '1,20p' "$BASE/last.err" >&2
        exit 1
    }
    t1=$EPOCHREALTIME
    R[$key]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') "
}
build() { # tool site out
    case $1 in
        folio) "$FOLIO" build --root "$2" --out "$3" --json ;;
        hugo) hugo --source "$2" --destination "$3" --quiet ;;
    esac
}
counts() { # the report's images_decoded and images_encoded
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["images_decoded"], r["images_encoded"], len(r["written"]))' "$BASE/last.out"
}

for ((run = 1; run <= RUNS; run++)); do
    for tool in folio hugo; do
        site="$BASE/site-$tool" out="$BASE/out-$tool"
        rm -rf "$site" "$out"
        cp -r "$BASE/pristine-$tool" "$site"
        timed "$tool|cold" build "$tool" "$site" "$out"
        [[ $tool == folio ]] && log "  run $run folio cold: decoded, encoded, written: $(counts)"
        timed "$tool|second" build "$tool" "$site" "$out"
        [[ $tool == folio ]] && log "  run $run folio second: decoded, encoded, written: $(counts)"
        cp "$BASE/other.jpg" "$site/content/en/posts/$EDIT/photo.jpg"
        timed "$tool|replaced" build "$tool" "$site" "$out"
        [[ $tool == folio ]] && log "  run $run folio replaced: decoded, encoded, written: $(counts)"
    done
    site="$BASE/site-plain" out="$BASE/out-plain"
    rm -rf "$site" "$out"
    cp -r "$BASE/pristine-plain" "$site"
    build folio "$site" "$out" >/dev/null
    for ((i = 0; i < 10; i++)); do
        timed "plain|noop" build folio "$site" "$out"
        timed "folio|noop" build folio "$BASE/site-folio" "$BASE/out-folio"
    done
    log "  run $run: ${R[folio|cold]}| ${R[hugo|cold]}"
done

median() {
    printf '%s\n' $1 | sort -n | awk '{ a[n++] = $1 } END { print (n % 2) ? a[(n - 1) / 2] : (a[n / 2 - 1] + a[n / 2]) / 2 }'
}
m() { median "${R[$1]}"; }
echo "| $N posts × en, fr, de, a photo each ($RUNS runs, medians, s) | folio | Hugo $(hugo version | cut -d' ' -f2) | Hugo / folio |"
echo "|---|---|---|---|"
for sc in cold second replaced; do
    f=$(m "folio|$sc") h=$(m "hugo|$sc")
    echo "| $sc | $f | $h | $(awk -v a="$h" -v b="$f" 'BEGIN { printf "%.1f×", a / b }') |"
done
echo
noop=$(m 'folio|noop') plain=$(m 'plain|noop')
echo "folio's no-op with images: $noop s; without \`[images]\`: $plain s ($(awk -v a="$noop" -v b="$plain" 'BEGIN { printf "%+.0f%%", (a / b - 1) * 100 }'))"
