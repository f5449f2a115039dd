#!/usr/bin/env bash
# Side-by-side benchmark: folio vs Hugo vs Zola on the same generated corpus.
#
#   bench/run.sh [N] [RUNS]                 (defaults: N=5000 posts, RUNS=3)
#   [RUNS=R] bench/run.sh --folio-only [N...] (defaults: N=1000 5000 20000, RUNS=3)
#   bench/run.sh --disk-pairs [N] [PAIRS]    (defaults: N=5000 posts, PAIRS=7)
#
# N posts, each in en, fr and de. For each tool and each output location
# (tmpfs and the real disk), RUNS times: cold build, no-op rebuild, rebuild
# after appending a sentence to one English post, rebuild after changing that
# post's title. Medians are printed as one markdown table, then the ratios and
# the floors (cp -r of folio's output, cat and sha256sum of the sources).
#
# --folio-only: the same four scenarios for folio alone, on tmpfs only, at each
# N in turn (RUNS from the environment), printed as one table with a row per N
# and the cold build's microseconds per page written, to show how cost grows
# with N, beside cp -r of the output it wrote: the kernel's part of that cost
# at the same N. Hugo and Zola are neither installed nor run.
#
# --disk-pairs: folio's cold build on the real disk against cp -r of its
# output there, PAIRS times, the two alternating which goes first; prints each
# pair and the median of their ratios. File creation on these disks varies by
# several times from minute to minute, so one pair (what the side-by-side run
# takes) says little. Hugo and Zola are neither installed nor run.
# See bench/README.md.
set -euo pipefail
export LC_ALL=C

usage() {
    echo "usage: $0 [N>=2] [RUNS>=1]" >&2
    echo "       [RUNS=R] $0 --folio-only [N>=2 ...]" >&2
    echo "       $0 --disk-pairs [N>=2] [PAIRS>=1]" >&2
    exit 2
}
FOLIO_ONLY=0
DISK_PAIRS=0
if [[ ${1:-} == --disk-pairs ]]; then
    DISK_PAIRS=1
    shift
    [[ $# -le 2 ]] || usage
    N=${1:-5000}
    PAIRS=${2:-7}
    RUNS=1
    [[ $N =~ ^[0-9]+$ && $N -ge 2 && $N -le 99999 && $PAIRS =~ ^[0-9]+$ && $PAIRS -ge 1 ]] || usage
elif [[ ${1:-} == --folio-only ]]; then
    FOLIO_ONLY=1
    shift
    NS=("$@")
    [[ ${#NS[@]} -gt 0 ]] || NS=(1000 5000 20000)
    RUNS=${RUNS:-3}
    for n in "${NS[@]}"; do [[ $n =~ ^[0-9]+$ && $n -ge 2 && $n -le 99999 ]] || usage; done
else
    [[ $# -le 2 ]] || usage
    N=${1:-5000}
    RUNS=${2:-3}
    [[ $N =~ ^[0-9]+$ && $N -ge 2 && $N -le 99999 ]] || usage
fi
LANGS=en,fr,de
[[ $RUNS =~ ^[0-9]+$ && $RUNS -ge 1 ]] || usage

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$BENCH_DIR/.." && pwd)
ANCHORS="$(dirname "$REPO")/shared/anchors"
TOOLS=(folio hugo zola)
LOCS=(tmpfs disk)
if [[ $FOLIO_ONLY == 1 ]]; then
    TOOLS=(folio)
    LOCS=(tmpfs)
elif [[ $DISK_PAIRS == 1 ]]; then
    TOOLS=(folio)
    LOCS=(disk)
fi
ANCHORS_TOO=$((FOLIO_ONLY == 0 && DISK_PAIRS == 0))
SCENARIOS=(cold noop body title)

log() { printf '%s\n' "$*" >&2; }

# ---------------------------------------------------------------- installs
APT_UPDATED=0
apt_install() {
    if [[ $APT_UPDATED == 0 ]]; then
        apt-get update -qq >&2
        APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}
if [[ $ANCHORS_TOO == 1 ]]; then
    command -v hugo >/dev/null 2>&1 || { log "installing hugo (apt)"; apt_install hugo; }
    command -v xz >/dev/null 2>&1 || { log "installing xz-utils (apt)"; apt_install xz-utils; }
fi
[[ -x /usr/bin/time ]] || { log "installing GNU time (apt)"; apt_install time; }
command -v python3 >/dev/null 2>&1 || { log "installing python3 (apt)"; apt_install python3; }

# ---------------------------------------------------------------- scratch
fstype() { df --output=fstype "$1" | tail -n 1 | tr -d ' '; }
TMPFS_BASE=$(mktemp -d /dev/shm/folio-bench.XXXXXX)
case $(fstype "$TMPFS_BASE") in tmpfs | ramfs) ;; *) log "warning: /dev/shm is not a tmpfs here" ;; esac
DISK_BASE=
cleanup() { rm -rf "$TMPFS_BASE" ${DISK_BASE:+"$DISK_BASE"}; }
trap cleanup EXIT
trap 'exit 130' INT TERM
if [[ $FOLIO_ONLY == 0 ]]; then # --folio-only measures on tmpfs only
    for cand in /tmp "$REPO/target"; do
        mkdir -p "$cand"
        case $(fstype "$cand") in
            tmpfs | ramfs | overlay-tmpfs) continue ;;
            *) DISK_BASE=$(mktemp -d "$cand/folio-bench.XXXXXX"); break ;;
        esac
    done
    if [[ -z $DISK_BASE ]]; then
        log "warning: neither /tmp nor target/ is on a real disk; 'disk' rows use /tmp anyway"
        DISK_BASE=$(mktemp -d /tmp/folio-bench.XXXXXX)
    fi
fi
declare -A LOC_DIR=([tmpfs]="$TMPFS_BASE" [disk]="$DISK_BASE")

# Zola: not in Debian; unpack the anchor binary.
ZOLA=$(command -v zola 2>/dev/null || true)
HUGO=$(command -v hugo 2>/dev/null || true)
if [[ $ANCHORS_TOO == 1 ]] && [[ -z $ZOLA || "$("$ZOLA" --version 2>/dev/null)" != "zola 0.22.1" ]]; then
    ZOLA="$TMPFS_BASE/bin/zola"
    mkdir -p "$TMPFS_BASE/bin"
    if [[ -f "$ANCHORS/zola-0.22.1-x86_64-linux.xz" ]]; then
        xz -dc "$ANCHORS/zola-0.22.1-x86_64-linux.xz" >"$ZOLA" && chmod +x "$ZOLA"
    else
        log "warning: $ANCHORS/zola-0.22.1-x86_64-linux.xz not found: Zola will fail"
        printf '#!/bin/sh\necho "zola binary not found" >&2\nexit 127\n' >"$ZOLA"
        chmod +x "$ZOLA"
    fi
fi

log "building folio (cargo build --release)"
(cd "$REPO" && cargo build --release --quiet) >&2
# Snapshot the binary: someone rebuilding target/ during the run must not
# change the folio being measured halfway through.
mkdir -p "$TMPFS_BASE/bin"
FOLIO="$TMPFS_BASE/bin/folio"
cp "$REPO/target/release/folio" "$FOLIO"
FOLIO_SHA=$(sha256sum "$FOLIO" | cut -c1-12)
FOLIO_REV=$(cd "$REPO" && git rev-parse --short HEAD 2>/dev/null || echo "?")
FOLIO_DIRTY=$(cd "$REPO" && git status --porcelain -- src Cargo.toml Cargo.lock templates 2>/dev/null | head -n 1)

# ---------------------------------------------------------------- corpora
PRISTINE="$TMPFS_BASE/pristine"
declare -A EDIT_SRC=() # tool -> path of the edited English source inside its site
EDIT_NAME= EDIT_PAGE= SRC_FILES= SRC_MB=
make_corpora() { # n: one pristine corpus of n posts per tool in TOOLS
    local n=$1 t
    rm -rf "$PRISTINE"
    for t in "${TOOLS[@]}"; do
        log "generating the $t corpus: $n posts x $LANGS"
        python3 "$BENCH_DIR/gen_corpus.py" --posts "$n" --langs "$LANGS" --format "$t" "$PRISTINE/$t"
    done
    EDIT_NAME=$(printf 'post-%05d' $(((n + 1) / 2)))
    EDIT_SRC=(
        [folio]="content/en/posts/$EDIT_NAME.md"
        [hugo]="content/en/posts/$EDIT_NAME.md"
        [zola]="content/posts/$EDIT_NAME.md"
    )
    EDIT_PAGE="posts/$EDIT_NAME/index.html" # its English page, in every tool's output
    SRC_FILES=$(find "$PRISTINE/folio/content" -name '*.md' | wc -l)
    SRC_MB=$(du -sm "$PRISTINE/folio/content" | cut -f1)
}

# ---------------------------------------------------------------- measuring
declare -A R=()    # key "tool|loc|scenario|what" -> space-separated values, one per run
declare -A FAIL=() # key "tool|loc|scenario" -> 1
declare -A NOTE=() # free-form warnings, printed at the end
T_WALL=0
T_RSS=0

# run_timed PREFIX CMD...: runs CMD under GNU time, stdout/stderr to PREFIX.out/.err.
# Sets T_WALL (wall seconds, ms resolution, from bash's clock around the run;
# %e alone has 10 ms resolution) and T_RSS (peak RSS in KB, from %M).
run_timed() {
    local pfx=$1 t0 t1 rc=0
    shift
    # Untimed: the writeback of what the previous step copied or deleted
    # (a site of 118 MB, an output tree of 24,000 files) would otherwise
    # land on whichever command runs next, on the disk.
    sync
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%e %M' -o "$pfx.time" "$@" >"$pfx.out" 2>"$pfx.err" || rc=$?
    t1=$EPOCHREALTIME
    T_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    T_RSS=$(tail -n 1 "$pfx.time" 2>/dev/null | awk '{ print $2 + 0 }')
    return $rc
}

build_cmd() { # tool site out -> the command, one word per line
    case $1 in
        folio) printf '%s\n' "$FOLIO" build --root "$2" --out "$3" --json ;;
        hugo) printf '%s\n' "$HUGO" --source "$2" --destination "$3" --quiet ;;
        zola) printf '%s\n' "$ZOLA" --root "$2" build --output-dir "$3" --force ;;
    esac
}

apply_edit() { # tool site scenario
    local f="$2/${EDIT_SRC[$1]}"
    case $3 in
        body) printf '\nOne more sentence, appended by the benchmark to change the body.\n' >>"$f" ;;
        title) sed -i -E '0,/^title/ s/^(title(: | = )")/\1Edited /' "$f" ;;
    esac
}

bench_tool() { # run tool loc
    local run=$1 tool=$2 loc=$3
    local base=${LOC_DIR[$loc]}
    local site="$base/site-$tool" out="$base/out-$tool" logs="$base/logs"
    local marker="$base/marker" sc key pfx files rc
    local -a cmd
    mkdir -p "$logs"
    rm -rf "$site" "$out"
    cp -r "$PRISTINE/$tool" "$site"
    rm -rf "$site/.folio"
    mkdir -p "$out"
    mapfile -t cmd < <(build_cmd "$tool" "$site" "$out")
    for sc in "${SCENARIOS[@]}"; do
        key="$tool|$loc|$sc"
        pfx="$logs/$tool-$loc-$sc-$run"
        apply_edit "$tool" "$site" "$sc"
        touch "$marker"
        sleep 0.05 # so that files written by the build are strictly newer than the marker
        rc=0
        run_timed "$pfx" "${cmd[@]}" || rc=$?
        if [[ $rc != 0 ]]; then
            FAIL[$key]=1
            log "FAILED: $tool on $loc, $sc build (run $run), exit $rc: ${cmd[*]}"
            sed -n '1,25p' "$pfx.err" "$pfx.out" | sed 's/^/    /' >&2
            return 0 # the remaining scenarios of this run would start from an unknown state
        fi
        local found
        found=$(find "$out" -type f -newer "$marker" | wc -l)
        if [[ $tool == folio ]]; then
            files=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["written"]))' "$pfx.out" 2>/dev/null || echo "?")
            if [[ $files != "$found" ]]; then
                NOTE["folio-count-$loc-$sc"]="folio on $loc, $sc: report lists $files written files, find -newer counts $found"
            fi
        else
            files=$found
        fi
        case $sc in
            body) grep -q 'appended by the benchmark' "$out/$EDIT_PAGE" 2>/dev/null ||
                NOTE["stale-$tool-$loc-$sc"]="$tool on $loc: the body edit is not in $EDIT_PAGE after the rebuild" ;;
            title) grep -q 'Edited ' "$out/$EDIT_PAGE" 2>/dev/null ||
                NOTE["stale-$tool-$loc-$sc"]="$tool on $loc: the title edit is not in $EDIT_PAGE after the rebuild" ;;
        esac
        R["$key|s"]+="$T_WALL "
        R["$key|mb"]+="$(awk -v k="$T_RSS" 'BEGIN { printf "%.1f", k / 1024 }') "
        R["$key|files"]+="$files "
        log "  run $run $loc $tool $sc: ${T_WALL}s, $((T_RSS / 1024)) MB, $files files"
    done
}

bench_floors() { # run loc [floor...]: needs folio's output and site of this run in place
    local run=$1 loc=$2 floor
    shift 2
    local -a floors=("$@")
    [[ ${#floors[@]} -gt 0 ]] || floors=(cp cat sha)
    local base=${LOC_DIR[$loc]}
    local logs="$base/logs" site="$base/site-folio" out="$base/out-folio" dst="$base/cp-floor"
    [[ -d $out ]] || return 0
    for floor in "${floors[@]}"; do
        local -a cmd
        case $floor in
            cp) rm -rf "$dst"; cmd=(cp -r "$out" "$dst") ;;
            cat) cmd=(bash -c 'find "$1/content" -name "*.md" -print0 | xargs -0 cat >/dev/null' _ "$site") ;;
            sha) cmd=(bash -c 'find "$1/content" -name "*.md" -print0 | xargs -0 sha256sum >/dev/null' _ "$site") ;;
        esac
        if run_timed "$logs/$floor-$loc-$run" "${cmd[@]}"; then
            R["floor|$loc|$floor|s"]+="$T_WALL "
        else FAIL["floor|$loc|$floor"]=1; fi
        rm -rf "$dst" # tmpfs is memory
    done
}

# ---------------------------------------------------------------- medians and cells
median() { # values... -> median (empty when none)
    printf '%s\n' "$@" | awk 'NF { a[n++] = $1 } END {
        if (n == 0) exit
        # insertion sort, n is small
        for (i = 1; i < n; i++) { v = a[i]; for (j = i - 1; j >= 0 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
        if (n % 2) print a[(n - 1) / 2]; else printf "%.3f\n", (a[n / 2 - 1] + a[n / 2]) / 2 }'
}
med() { # key -> median of R[key] or empty
    local v=${R[$1]:-}
    # shellcheck disable=SC2086
    [[ -n $v ]] && median $v || true
}
cell() { # tool loc scenario [with-files]
    local key="$1|$2|$3" s f
    if [[ -n ${FAIL[$key]:-} ]]; then echo "failed"; return; fi
    s=$(med "$key|s")
    [[ -z $s ]] && { echo "failed"; return; }
    f=$(med "$key|files")
    printf '%.3f (%s)' "$s" "${f%.*}"
}
ratio() { # a b [decimals] -> a/b with 1 decimal (or as many as asked), or "n/a"
    awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { if (a == "" || b == "" || b + 0 <= 0) print "n/a"; else printf "%.*f×", d, a / b }'
}

fl() { local v; v=$(med "floor|$1|$2|s"); [[ -n ${FAIL[floor|$1|$2]:-} || -z $v ]] && echo failed || echo "$v"; }

# ---------------------------------------------------------------- --disk-pairs
# folio's cold build on disk against cp -r of its output, in pairs whose order
# alternates, so that neither side always runs on a disk just synced.
if [[ $DISK_PAIRS == 1 ]]; then
    make_corpora "$N"
    base=$DISK_BASE
    site="$base/site-folio" out="$base/out-folio" ref="$base/ref-out" dst="$base/cp-floor" logs="$base/logs"
    mkdir -p "$logs"
    cp -r "$PRISTINE/folio" "$site"
    rm -rf "$site/.folio" "$PRISTINE"
    log "disk: $DISK_BASE ($(fstype "$DISK_BASE")); $PAIRS pairs of a folio cold build and cp -r, $N posts"
    # Untimed: the tree cp -r copies in every pair is folio's own output.
    "$FOLIO" build --root "$site" --out "$ref" --json >/dev/null
    REF_FILES=$(find "$ref" -type f | wc -l)
    REF_MB=$(du -sm "$ref" | cut -f1)
    ROWS=() RATIOS=() FOLIO_S=() CP_S=()
    for ((pair = 1; pair <= PAIRS; pair++)); do
        order=(folio cp)
        ((pair % 2 == 0)) && order=(cp folio)
        for what in "${order[@]}"; do
            # Every command starts from an empty destination, after a sync
            # (run_timed) that keeps this deletion's writeback out of it.
            rm -rf "$out" "$dst" "$site/.folio"
            case $what in
                folio) run_timed "$logs/pair-$pair-folio" "$FOLIO" build --root "$site" --out "$out" --json || failed=1
                    t_folio=$T_WALL ;;
                cp) run_timed "$logs/pair-$pair-cp" cp -r "$ref" "$dst" || failed=1
                    t_cp=$T_WALL ;;
            esac
            if [[ -n ${failed:-} ]]; then
                # The logs are in the scratch folder, which the exit removes.
                log "FAILED: $what in pair $pair:"
                sed -n '1,25p' "$logs/pair-$pair-$what.err" "$logs/pair-$pair-$what.out" | sed 's/^/    /' >&2
                exit 1
            fi
        done
        r=$(awk -v a="$t_folio" -v b="$t_cp" 'BEGIN { printf "%.2f", a / b }')
        log "  pair $pair (${order[0]} first): folio ${t_folio}s, cp -r ${t_cp}s, ${r}×"
        ROWS+=("| $pair | ${order[0]} | $t_folio | $t_cp | ${r}× |")
        RATIOS+=("$r") FOLIO_S+=("$t_folio") CP_S+=("$t_cp")
    done
    echo
    echo "## folio's cold build on disk against cp -r of its output: $N posts × 3 languages, $PAIRS pairs"
    echo
    echo "folio $FOLIO_REV${FOLIO_DIRTY:+ + uncommitted changes} (binary sha256 $FOLIO_SHA); $(nproc) CPUs."
    echo "disk = $DISK_BASE ($(fstype "$DISK_BASE")); sources, index and output all live there."
    echo "cp -r copies folio's output ($REF_FILES files, $REF_MB MB) to a fresh folder; each timed command starts after a sync."
    echo
    echo "| pair | first | folio cold s | cp -r s | folio ÷ cp -r |"
    echo "|---:|---|---:|---:|---:|"
    printf '%s\n' "${ROWS[@]}"
    echo
    echo "Median of the ratios: $(printf '%.2f' "$(median "${RATIOS[@]}")")× (medians: folio $(median "${FOLIO_S[@]}") s, cp -r $(median "${CP_S[@]}") s)"
    exit 0
fi

# ---------------------------------------------------------------- --folio-only
# folio alone, tmpfs only, one row per N: does the cost grow linearly with N?
if [[ $FOLIO_ONLY == 1 ]]; then
    log "tmpfs: $TMPFS_BASE ($(fstype "$TMPFS_BASE")); folio only; N = ${NS[*]}; $RUNS run(s) each"
    ROWS=()
    ALL_NOTES=()
    for N in "${NS[@]}"; do
        R=() FAIL=() NOTE=()
        make_corpora "$N"
        log "N=$N: $SRC_FILES sources, $SRC_MB MB"
        for ((run = 1; run <= RUNS; run++)); do
            bench_tool "$run" folio tmpfs
            bench_floors "$run" tmpfs cp
            rm -rf "$TMPFS_BASE/site-folio" "$TMPFS_BASE/out-folio" # tmpfs is memory
        done
        rm -rf "$PRISTINE"
        if [[ -n ${FAIL[folio|tmpfs|cold]:-} || -z $(med "folio|tmpfs|cold|s") ]]; then
            pages=failed cold=failed mb=failed us=failed per_cp=n/a
        else
            pages=$(med "folio|tmpfs|cold|files")
            cold=$(med "folio|tmpfs|cold|s")
            mb=$(printf '%.0f' "$(med "folio|tmpfs|cold|mb")")
            us=$(awk -v s="$cold" -v p="$pages" 'BEGIN { if (p + 0 <= 0) print "n/a"; else printf "%.0f", s / p * 1e6 }')
            per_cp=n/a
            [[ -n ${FAIL[floor|tmpfs|cp]:-} ]] || per_cp=$(ratio "$cold" "$(med "floor|tmpfs|cp|s")" 2)
            cold=$(printf '%.3f' "$cold")
            pages=${pages%.*}
        fi
        ROWS+=("| $N | $pages | $cold | $mb | $(cell folio tmpfs noop) | $(cell folio tmpfs body) | $(cell folio tmpfs title) | $us | $(fl tmpfs cp) | $per_cp |")
        for k in "${!FAIL[@]}"; do ALL_NOTES+=("N=$N: failed: $k"); done
        for k in "${!NOTE[@]}"; do ALL_NOTES+=("N=$N: ${NOTE[$k]}"); done
    done

    echo
    echo "## folio alone at N = ${NS[*]} posts × 3 languages, tmpfs, median of $RUNS run(s)"
    echo
    echo "folio $FOLIO_REV${FOLIO_DIRTY:+ + uncommitted changes} (binary sha256 $FOLIO_SHA); $(nproc) CPUs."
    echo "tmpfs = $TMPFS_BASE ($(fstype "$TMPFS_BASE")); sources, index and output all live there."
    echo "Pages written = files written by the cold build (pages, feeds, sitemap, robots.txt, style.css)."
    echo "Cells: wall seconds (files written). Edits touch the middle English post. µs/page = cold s ÷ pages written × 10⁶."
    echo "cp -r s = copying folio's output to a fresh folder on the same tmpfs, measured after each run: the kernel's"
    echo "own cost of creating that many files, which need not grow linearly with their number either."
    echo
    echo "| N posts | pages written | cold s | cold peak MB | no-op s (files) | body-edit s (files) | title-edit s (files) | cold µs/page | cp -r s | cold ÷ cp -r |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${ROWS[@]}"
    if [[ ${#ALL_NOTES[@]} -gt 0 ]]; then
        echo
        echo "Notes:"
        printf -- '- %s\n' "${ALL_NOTES[@]}"
    fi
    echo
    echo "Command: folio build --root SITE --out OUT --json (folio = a copy of $REPO/target/release/folio)"
    exit 0
fi

# ---------------------------------------------------------------- side by side
make_corpora "$N"
log "tmpfs: $TMPFS_BASE ($(fstype "$TMPFS_BASE")); disk: $DISK_BASE ($(fstype "$DISK_BASE"))"
for ((run = 1; run <= RUNS; run++)); do
    for loc in "${LOCS[@]}"; do
        for tool in "${TOOLS[@]}"; do
            bench_tool "$run" "$tool" "$loc"
            if [[ $tool == folio ]]; then
                bench_floors "$run" "$loc"
                FOLIO_OUT_FILES=$(find "${LOC_DIR[$loc]}/out-folio" -type f 2>/dev/null | wc -l)
                FOLIO_OUT_MB=$(du -sm "${LOC_DIR[$loc]}/out-folio" 2>/dev/null | cut -f1)
            fi
            # Free the space (tmpfs is memory) before the next tool.
            rm -rf "${LOC_DIR[$loc]}/site-$tool" "${LOC_DIR[$loc]}/out-$tool"
        done
    done
done

# ---------------------------------------------------------------- report
HUGO_V=$("$HUGO" version 2>/dev/null | awk '{ print $2 }' || echo "?")
ZOLA_V=$("$ZOLA" --version 2>/dev/null || echo "?")
echo
echo "## folio vs Hugo vs Zola: $N posts × 3 languages ($((N * 3)) sources, $SRC_MB MB), median of $RUNS run(s)"
echo
echo "folio $FOLIO_REV${FOLIO_DIRTY:+ + uncommitted changes} (binary sha256 $FOLIO_SHA), hugo $HUGO_V, $ZOLA_V; $(nproc) CPUs."
echo "tmpfs = $TMPFS_BASE ($(fstype "$TMPFS_BASE")), disk = $DISK_BASE ($(fstype "$DISK_BASE")); sources, index and output all live there."
echo "Cells: wall seconds (files written). Edits touch content of $EDIT_NAME (English)."
echo
echo "| tool | output | cold s (files) | cold peak MB | no-op s (files) | body-edit s (files) | title-edit s (files) |"
echo "|---|---|---:|---:|---:|---:|---:|"
for tool in "${TOOLS[@]}"; do
    for loc in "${LOCS[@]}"; do
        mb=$(med "$tool|$loc|cold|mb")
        [[ -n ${FAIL[$tool|$loc|cold]:-} || -z $mb ]] && mb=failed || mb=$(printf '%.0f' "$mb")
        echo "| $tool | $loc | $(cell "$tool" "$loc" cold) | $mb | $(cell "$tool" "$loc" noop) | $(cell "$tool" "$loc" body) | $(cell "$tool" "$loc" title) |"
    done
done

echo
echo "Ratios (tmpfs; above 1× means folio is faster):"
echo
echo "| ratio | cold | no-op | body-edit | title-edit |"
echo "|---|---:|---:|---:|---:|"
for other in hugo zola; do
    row="| ${other^} ÷ folio |"
    for sc in "${SCENARIOS[@]}"; do
        a=$(med "$other|tmpfs|$sc|s"); b=$(med "folio|tmpfs|$sc|s")
        [[ -n ${FAIL[$other|tmpfs|$sc]:-} || -n ${FAIL[folio|tmpfs|$sc]:-} ]] && a=""
        row+=" $(ratio "$a" "$b") |"
    done
    echo "$row"
done
a=$(med "folio|disk|cold|s"); b=$(med "floor|disk|cp|s")
[[ -n ${FAIL[folio|disk|cold]:-} ]] && a=""
echo
echo "folio disk cold ÷ cp -r of its output on disk: $(ratio "$a" "$b")"

echo
echo "Floors (wall seconds, median):"
echo
echo "| floor | tmpfs s | disk s |"
echo "|---|---:|---:|"
echo "| cp -r folio's output (${FOLIO_OUT_FILES:-?} files, ${FOLIO_OUT_MB:-?} MB) to a fresh folder | $(fl tmpfs cp) | $(fl disk cp) |"
echo "| cat all $SRC_FILES sources > /dev/null | $(fl tmpfs cat) | $(fl disk cat) |"
echo "| sha256sum all $SRC_FILES sources | $(fl tmpfs sha) | $(fl disk sha) |"

if [[ ${#NOTE[@]} -gt 0 || ${#FAIL[@]} -gt 0 ]]; then
    echo
    echo "Notes:"
    for k in "${!FAIL[@]}"; do echo "- failed: $k"; done | sort
    for k in "${!NOTE[@]}"; do echo "- ${NOTE[$k]}"; done | sort
fi
echo
echo "Commands: folio build --root SITE --out OUT --json | hugo --source SITE --destination OUT --quiet | zola --root SITE build --output-dir OUT --force"
echo "(folio = a copy of $REPO/target/release/folio; hugo = $HUGO; zola = $ZOLA)"
