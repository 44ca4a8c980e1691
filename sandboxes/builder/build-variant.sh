#!/bin/sh
# build-variant MODEL [FILE]: compile a learner's edited servers/c/MODEL.c (or, with FILE, the
# edited shared module servers/c/FILE, such as protocol.c) into c-MODEL, exactly as the
# course's Makefile builds the original (same flags, the other files the course's own), inside
# the build sandbox (images/build-c.Dockerfile).
#
# In:  $C10K_SOURCE_B64, the edited file, base64-encoded (an environment variable, because the
#      sandbox's root is read-only and its only writable place, a tmpfs, exists only once it
#      runs). The runner caps the file at 64 KiB before it gets here.
# Out: stderr: the compiler's diagnostics, gcc's JSON (one array per translation unit) mixed
#      with make's and the linker's plain lines, at most DIAGNOSTICS_MAX bytes;
#      stdout: on success only, two lines: the binary, then the same file built with the
#      Makefile's sanitizers (`make asan`: AddressSanitizer and UBSan, which the correctness
#      check runs), each base64-encoded and at most BINARY_MAX bytes before encoding.
#      Exit 0 when both built, 1 when one did not, 2 on a wrong call.
#
# Limits beyond this script's own caps are the container's: CPU seconds (ulimit -t), memory,
# processes, the tmpfs's size, and the runner's wall clock.
set -u
usage="usage: build-variant MODEL [FILE] (a model name such as epoll; a shared .c file)"
model=${1:-}
case $model in
    '' | *[!a-z0-9-]*) echo "$usage" >&2; exit 2 ;;
esac
file=${2:-$model.c}
case $file in
    *[!a-z0-9.-]* | .* | *..*) echo "$usage" >&2; exit 2 ;;
    *.c) ;;
    *) echo "$usage" >&2; exit 2 ;;
esac
shared=/opt/c10klab/servers/c
DIAGNOSTICS_MAX=262144
BINARY_MAX=16777216
work=/work
mkdir -p "$work/src" "$work/build" "$work/tmp" || exit 1
export TMPDIR="$work/tmp"   # the compiler's scratch files: the root is read-only

if ! printf '%s' "${C10K_SOURCE_B64:-}" | base64 -d > "$work/src/$file" 2>/dev/null; then
    echo "the source did not arrive intact (bad base64)" >&2
    exit 2
fi
if [ "$file" != "$model.c" ]; then
    # An edited shared module: the Makefile takes it from MODEL_DIR, beside the model file.
    [ -f "$shared/$file" ] || { echo "no shared module $file" >&2; exit 2; }
    cp "$shared/$model.c" "$work/src/" || exit 1
fi

cd "$shared" || exit 1
build() {   # build TARGET DIAGNOSTICS: make it, writing what the compiler says to DIAGNOSTICS
    make -s --no-print-directory MODEL_DIR="$work/src" BUILD="$work/build" \
        CFLAGS="-O2 -fdiagnostics-format=json" "$1" 2> "$2"
}
plain="$work/build/c-$model"
sanitized="$work/build/asan/c-$model"
build "$plain" "$work/diagnostics"
built=$?
# The sanitized build compiles the same file again: its warnings would repeat the first's,
# so they are added only when it fails where the first did not (-O1 warns differently).
if [ "$built" -eq 0 ] && ! build "$sanitized" "$work/sanitized"; then
    built=1
    cat "$work/sanitized" >> "$work/diagnostics"
fi
head -c "$DIAGNOSTICS_MAX" "$work/diagnostics" >&2
[ "$built" -eq 0 ] || exit 1

for binary in "$plain" "$sanitized"; do
    size=$(stat -c %s "$binary")
    if [ "$size" -gt "$BINARY_MAX" ]; then
        echo "the server binary is $size bytes; at most $BINARY_MAX are kept" >&2
        exit 1
    fi
done
base64 -w 0 "$plain"
echo
base64 -w 0 "$sanitized"
echo
