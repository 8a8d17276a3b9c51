#!/usr/bin/env bash
# Weft developer entry point: installs missing Debian packages, configures and builds, then
#   run   launches the app on the bundled example design
#   test  runs the whole test suite through CTest
# Usage: scripts/dev.sh run|test   (as root, or as a user with sudo)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:-}
case "$mode" in run|test) ;; *) echo "usage: $0 run|test" >&2; exit 2 ;; esac

# Debian 12 packages Weft needs to build, test and run.
packages=(build-essential cmake pkg-config git
  qt6-base-dev qt6-base-dev-tools libqt6svg6-dev libgl1-mesa-dev libqcustomplot-dev
  nlohmann-json3-dev python3 python3-jsonschema xvfb xauth
  desktop-file-utils appstream dpkg-dev file)

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

build="$here/build"
werror=OFF
[ -n "${CI:-}" ] && werror=ON
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_WERROR=$werror
cmake --build "$build" -j"$(nproc)"

if [ "$mode" = test ]; then
  cd "$build"
  export QT_QPA_PLATFORM=offscreen
  ctest --output-on-failure -j"$(nproc)" --timeout 900
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
