#!/usr/bin/env bash
# Installs Weft's .deb on a clean Debian 12 (bookworm) root and starts it there (issue 7).
#
#   packaging/linux/test-deb-install.sh [--deb FILE] [--root DIR] [--mirror URL]
#                                       [--cache-dir DIR] [--keep] [--no-gui-tools]
#
# Needs root (debootstrap, chroot, mount) and network access to a Debian mirror; install
# debootstrap with `apt-get install debootstrap`. Steps:
#   1. debootstrap --variant=minbase bookworm into a new directory (removed afterwards
#      unless --keep);
#   2. apt-get install --no-install-recommends ./weft_*.deb inside it: every dependency must
#      come from the .deb's Depends (shlibdeps + the ones packaging/CMakeLists.txt names);
#   3. checks the installed files, `weft --version`, `weft-cli --version`, `weft --help`,
#      `weft-cli validate` on an installed example, `weft-cli generate` + `simulate`;
#   4. starts `weft` on the installed example with the offscreen platform (it must still be
#      running after 8 s, printing no error), then with the xcb platform under Xvfb
#      inside the root: takes a screenshot (weft-xcb.png next to the log) and quits it with
#      Ctrl+Q, which must end it with exit code 0. Xvfb, xauth and xdotool are installed into
#      the root only AFTER step 2, so they cannot hide a missing dependency of weft
#      (--no-gui-tools skips this part).
# --deb defaults to the newest build/weft_*.deb of this checkout; --mirror to the first
# deb.debian.org-style URI in /etc/apt/sources.list*, else http://deb.debian.org/debian;
# --cache-dir keeps the downloaded .debs between runs (debootstrap --cache-dir).
# Prints each step with its duration; exits non-zero on the first failure.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
deb=""
root=""
mirror=""
cache=""
keep=0
gui_tools=1
while [ $# -gt 0 ]; do
  case "$1" in
    --deb) deb=$2; shift 2 ;;
    --root) root=$2; shift 2 ;;
    --mirror) mirror=$2; shift 2 ;;
    --cache-dir) cache=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --no-gui-tools) gui_tools=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "test-deb-install: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

fail() { echo "test-deb-install: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot and mount); run it with sudo"
command -v debootstrap >/dev/null || fail "debootstrap is missing: apt-get install debootstrap"

if [ -z "$deb" ]; then
  deb=$(ls -t "$here"/build/weft_*.deb 2>/dev/null | head -n1 || true)
  [ -n "$deb" ] || fail "no build/weft_*.deb: build it with 'cd build && cpack -G DEB' or pass --deb"
fi
[ -f "$deb" ] || fail "$deb: no such file"
deb=$(readlink -f "$deb")

if [ -z "$mirror" ]; then
  mirror=$(grep -hoE '(URIs:|^deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list \
             /etc/apt/sources.list.d/* 2>/dev/null | head -n1 | awk '{print $2}' || true)
  mirror=${mirror:-http://deb.debian.org/debian}
fi

made_root=0
if [ -z "$root" ]; then
  root=$(mktemp -d /var/tmp/weft-deb12.XXXXXX)
  made_root=1
elif [ -e "$root" ] && [ -n "$(ls -A "$root" 2>/dev/null)" ]; then
  fail "$root exists and is not empty: a clean root is needed"
fi
mkdir -p "$root"
root=$(readlink -f "$root")
logdir=$(dirname "$deb")
shot="$logdir/weft-xcb.png"

cleanup() {
  for m in dev/pts proc sys; do
    mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m" || true
  done
  if [ "$keep" -eq 0 ]; then
    rm -rf --one-file-system "$root"
  else
    echo "kept the root: $root"
  fi
}
trap cleanup EXIT

# Xvfb's -fbdir frame buffer (XWD, 24-bit TrueColor in 32-bit pixels) to an RGB PNG.
xwd_to_png() {
  python3 - "$1" "$2" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
h = struct.unpack('>25I', data[:100])
size, width, height, msb, bpp, bpl, ncolors = h[0], h[4], h[5], h[7], h[11], h[12], h[19]
if bpp != 32:
    sys.exit('unsupported XWD: %d bits per pixel' % bpp)
off = size + ncolors * 12
rows = bytearray()
for y in range(height):
    line = data[off + y * bpl: off + y * bpl + 4 * width]
    rows.append(0)
    for x in range(0, 4 * width, 4):
        rows += bytes((line[x + 1], line[x + 2], line[x + 3])) if msb else \
            bytes((line[x + 2], line[x + 1], line[x]))
def chunk(kind, body):
    return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0))
open(sys.argv[2], 'wb').write(png + chunk(b'IDAT', zlib.compress(bytes(rows), 6)) + chunk(b'IEND', b''))
PY
}

t0=$(date +%s)
step_start=$t0
step() {
  local now
  now=$(date +%s)
  echo "== [$((now - t0)) s] $*"
  step_start=$now
}
done_step() { echo "   ok ($(($(date +%s) - step_start)) s)"; }
# A login session's minimum: PATH, HOME, a UTF-8 locale and XDG_RUNTIME_DIR (made below).
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
                   LANG=C.UTF-8 XDG_RUNTIME_DIR=/run/user/0 "$@"; }
# What weft must not print when it starts: Qt failing to load a plugin, a library or a file.
bad_output='[Cc]ould not|[Cc]annot|[Ff]ailed|[Ee]rror|not found|No such'


step "debootstrap --variant=minbase bookworm $root ($mirror)"
args=(--variant=minbase)
if [ -n "$cache" ]; then
  mkdir -p "$cache"
  args+=(--cache-dir="$(readlink -f "$cache")")
fi
debootstrap "${args[@]}" bookworm "$root" "$mirror" > "$root.debootstrap.log" 2>&1 \
  || { tail -n 30 "$root.debootstrap.log" >&2; fail "debootstrap failed (log above)"; }
rm -f "$root.debootstrap.log"
echo "   $(in_root dpkg-query -W -f '.\n' | wc -l) packages in the clean root"
done_step

step "mount /proc, /sys, /dev/pts; resolv.conf"
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mkdir -p "$root/dev/pts"
mount -t devpts devpts "$root/dev/pts"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
install -d -m 0700 "$root/run/user/0"
done_step

step "apt-get install ./$(basename "$deb") (dependencies from the package's Depends)"
cp "$deb" "$root/tmp/"
in_root dpkg-query -W -f '${Package}\n' | sort > "$root/tmp/before.txt"
in_root apt-get -o APT::Sandbox::User=root update -qq
echo "   Depends: $(dpkg-deb -f "$deb" Depends)"
in_root env DEBIAN_FRONTEND=noninteractive apt-get -o APT::Sandbox::User=root install -y -q --no-install-recommends \
  "/tmp/$(basename "$deb")" > "$root/tmp/install.log" 2>&1 \
  || { tail -n 40 "$root/tmp/install.log" >&2; fail "apt-get install of the .deb failed"; }
in_root dpkg-query -W -f '${Package}\n' | sort > "$root/tmp/after.txt"
added=$(comm -13 "$root/tmp/before.txt" "$root/tmp/after.txt")
echo "   $(echo "$added" | wc -l) packages added: $(echo "$added" | tr '\n' ' ')"
in_root dpkg -s weft | grep -E '^(Status|Version|Installed-Size)'
done_step

step "installed files"
for f in /usr/bin/weft /usr/bin/weft-cli /usr/share/applications/org.weft.Weft.desktop \
         /usr/share/metainfo/org.weft.Weft.metainfo.xml /usr/share/mime/packages/org.weft.Weft.xml \
         /usr/share/icons/hicolor/scalable/apps/org.weft.Weft.svg \
         /usr/share/weft/examples/dgx-h100-su.weft /usr/share/doc/weft/copyright; do
  [ -e "$root$f" ] || fail "$f is not installed"
done
# shared-mime-info's trigger must have registered the design type.
grep -q 'application/x-weft-design' "$root/usr/share/mime/globs2" \
  || fail "*.weft is not in the MIME database after installation"
missing=$(in_root ldd /usr/bin/weft /usr/bin/weft-cli | grep 'not found' || true)
[ -z "$missing" ] || fail "unresolved shared libraries: $missing"
done_step

example=/usr/share/weft/examples/dgx-h100-su.weft
step "weft-cli --version, weft --version, weft --help (no display)"
in_root weft-cli --version
in_root weft --version
in_root weft --help | grep -q 'FILE' || fail "weft --help"
done_step

step "weft-cli validate $example; generate a cluster with a workload and simulate it"
in_root weft-cli validate "$example"
in_root weft-cli generate --scaleup dgx-h100 --domains 4 --fabric rail-optimized \
  --model llama3-8b --tp 8 --pp 1 --dp 4 -o /tmp/llama3-8b.weft
in_root weft-cli simulate /tmp/llama3-8b.weft > "$root/tmp/simulate.txt" 2>&1 \
  || { cat "$root/tmp/simulate.txt" >&2; fail "weft-cli simulate failed"; }
head -n 4 "$root/tmp/simulate.txt"
done_step

step "weft $example on the offscreen platform for 8 s"
set +e
in_root env QT_QPA_PLATFORM=offscreen WEFT_NO_AUTOSAVE_PROMPT=1 \
  timeout 8 weft "$example" > "$root/tmp/weft-offscreen.log" 2>&1
rc=$?
set -e
cat "$root/tmp/weft-offscreen.log"
[ "$rc" -eq 124 ] || fail "weft ended early (exit $rc) instead of running until the timeout"
! grep -qE "$bad_output" "$root/tmp/weft-offscreen.log" || fail "weft printed errors (above)"
done_step

if [ "$gui_tools" -eq 1 ]; then
  step "weft on X11 (xcb) under Xvfb in the root: screenshot, then Ctrl+Q"
  in_root env DEBIAN_FRONTEND=noninteractive apt-get -o APT::Sandbox::User=root install -y -q --no-install-recommends \
    xvfb xauth xdotool > "$root/tmp/xtools.log" 2>&1 \
    || { tail -n 20 "$root/tmp/xtools.log" >&2; fail "could not install Xvfb/xdotool in the root"; }
  cat > "$root/tmp/run-xcb.sh" <<'EOF'
#!/bin/sh
# Runs inside xvfb-run: start weft, wait for its window, screenshot, quit with Ctrl+Q.
weft "$1" > /tmp/weft-xcb.log 2>&1 &
pid=$!
win=$(timeout 30 xdotool search --sync --onlyvisible --name 'Weft' | head -n1)
[ -n "$win" ] || { echo "no Weft window appeared"; kill $pid; exit 1; }
sleep 3
cp /tmp/fb/Xvfb_screen0 /tmp/screen.xwd
xdotool windowfocus "$win" key ctrl+q
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
if kill -0 $pid 2>/dev/null; then echo "weft did not quit on Ctrl+Q"; kill $pid; exit 1; fi
wait $pid
rc=$?
echo "weft exited with code $rc"
exit $rc
EOF
  chmod +x "$root/tmp/run-xcb.sh"
  mkdir -p "$root/tmp/fb"
  set +e
  in_root env WEFT_NO_AUTOSAVE_PROMPT=1 xvfb-run -a \
    -s "-screen 0 1280x800x24 -fbdir /tmp/fb" /tmp/run-xcb.sh "$example"
  rc=$?
  set -e
  cat "$root/tmp/weft-xcb.log"
  [ "$rc" -eq 0 ] || fail "weft under Xvfb: exit $rc"
  ! grep -qE "$bad_output" "$root/tmp/weft-xcb.log" || fail "weft printed errors (above)"
  if [ -f "$root/tmp/screen.xwd" ]; then
    if command -v python3 >/dev/null; then
      xwd_to_png "$root/tmp/screen.xwd" "$shot" && echo "   screenshot: $shot"
    else
      cp "$root/tmp/screen.xwd" "${shot%.png}.xwd" && echo "   screenshot: ${shot%.png}.xwd"
    fi
  fi
  done_step
fi

echo "== PASS: $(basename "$deb") installs on a clean Debian 12 and starts ($(($(date +%s) - t0)) s)"
