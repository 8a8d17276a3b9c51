#!/usr/bin/env bash
# Weft developer entry point: installs missing Debian packages, configures and builds, then
#   run   launches the app on the bundled example design
#   test  runs the whole test suite through CTest, then fuzzes the file readers for 120 s
#   fuzz  [SECONDS] only the fuzzing step (default 120 s): a clang build of weft_core with
#         libFuzzer, ASan and UBSan in build-fuzz/, run on the seed corpus; a crash, a sanitizer
#         report or a hang fails (the input is kept as build-fuzz/crash-* and printed)
# Usage: scripts/dev.sh run|test|fuzz [SECONDS]   (as root, or as a user with sudo)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:-}
case "$mode" in run|test|fuzz) ;; *) echo "usage: $0 run|test|fuzz [SECONDS]" >&2; exit 2 ;; esac
fuzz_seconds=${2:-120}

# Debian 12 packages Weft needs to build, test and run.
packages=(build-essential cmake pkg-config git
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libgl1-mesa-dev libqcustomplot-dev
  nlohmann-json3-dev libpugixml-dev libyaml-cpp-dev python3 python3-jsonschema xvfb xauth
  desktop-file-utils appstream dpkg-dev file)
# The fuzzing step (test, fuzz): clang with libFuzzer and the sanitizer runtimes.
[ "$mode" = run ] || packages+=(clang libclang-rt-14-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Fuzzing: weft_core's readers (tests/fuzz/fuzz_readers.cpp) for $1 seconds on a seed corpus of
# the bundled examples, the test data and the catalog (files up to 1 MiB).
fuzz() {
  local seconds=$1 dir="$here/build-fuzz"
  cmake -S "$here" -B "$dir" -DWEFT_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_WERROR=$werror
  cmake --build "$dir" --target fuzz_readers -j"$(nproc)"
  rm -rf "$dir/seeds" && mkdir -p "$dir/seeds" "$dir/corpus"
  local i=0 seed
  while IFS= read -r -d '' seed; do
    i=$((i + 1))
    cp "$seed" "$dir/seeds/$i-$(basename "$seed")"
  done < <(find "$here/resources/examples" "$here/resources/catalog" "$here/tests/data" -type f \
    \( -name '*.weft' -o -name '*.json' -o -name '*.xml' \) -size -1025k -print0 | sort -z)
  echo "Fuzzing the file readers for $seconds s ($(ls "$dir/seeds" | wc -l) seeds)"
  cd "$dir"
  ./tests/fuzz/fuzz_readers -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 -print_final_stats=1 corpus seeds
}

build="$here/build"
werror=OFF
[ -n "${CI:-}" ] && werror=ON
if [ "$mode" = fuzz ]; then
  fuzz "$fuzz_seconds"
  exit 0
fi
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_WERROR=$werror
cmake --build "$build" -j"$(nproc)"

if [ "$mode" = test ]; then
  (
    cd "$build"
    export QT_QPA_PLATFORM=offscreen
    ctest --output-on-failure -j"$(nproc)" --timeout 900
  )
  fuzz "$fuzz_seconds"
else
  example="$here/resources/examples/dgx-h100-su.weft"
  args=()
  [ -f "$example" ] && args+=("$example")
  if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "No display found: starting Weft under Xvfb (xvfb-run)."
    exec xvfb-run -a "$build/src/app/weft" "${args[@]}"
  fi
  exec "$build/src/app/weft" "${args[@]}"
fi
