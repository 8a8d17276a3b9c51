#!/bin/sh
# Makes the ibnetdiscover test inputs of tests/data/import/ with the real tools: Weft writes a
# fabric as an ibsim net file (weft-cli export --to ibsim), Debian's ibsim (ibsim-utils) serves
# it, and infiniband-diags' ibnetdiscover discovers it through ibsim-run (libumad2sim). Needs
# `apt-get install ibsim-utils infiniband-diags` and a built weft-cli (build/src/cli/weft-cli).
#
#   scripts/make-import-testdata.sh [BUILD_DIR]
#
# Fabrics (ibsim 0.10 knows link speeds up to HDR, so they use HDR switches and NICs):
#   a100-su4      4 x DGX A100, rail-optimized, 2 tiers of QM8700 (the round-trip fabric), also
#                 as the ports report (a100-su4.ports, ibnetdiscover -p) and with chassis
#                 grouping (a100-su4-chassis.ibnetdiscover, ibnetdiscover -g)
#   a100-ft16     16 x DGX A100, plain fat-tree, 2 tiers of QM8700
#   h100-messy    4 DGX H100-like servers (HCAs mlx5_0,3,4,5,6,9,10,11), Mellanox switch
#                 descriptions, a storage host, one uncabled rail, one 2x (degraded) cable and a
#                 leaf with one uplink fewer, described directly as an ibsim net file
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
cli=$build/src/cli/weft-cli
out=$here/tests/data/import
work=$(mktemp -d)
trap 'kill $simpid 2>/dev/null || true; rm -rf "$work"' EXIT
simpid=
mkdir -p "$out"

discover() { # NET OUT [OPTION]: serve NET with ibsim, discover it into OUT (ibnetdiscover OPTION)
    ibsim -s -n "$1" >"$work/ibsim.log" 2>&1 &
    simpid=$!
    sleep 2
    ibsim-run ibnetdiscover ${3:-} >"$2" 2>"$work/ibnetdiscover.err"
    kill "$simpid"
    wait "$simpid" 2>/dev/null || true
    simpid=
}

"$cli" generate --scaleup dgx-a100 --domains 4 --fabric rail-optimized --tiers 2 \
    --switch qm8700 -o "$work/a100-su4.weft" >/dev/null
"$cli" export "$work/a100-su4.weft" --to ibsim --out "$out/a100-su4.net" >/dev/null
discover "$out/a100-su4.net" "$out/a100-su4.ibnetdiscover"
# The same fabric in ibnetdiscover's other layouts: the ports report (-p) and the chassis
# grouping (-g).
discover "$out/a100-su4.net" "$out/a100-su4.ports" -p
discover "$out/a100-su4.net" "$out/a100-su4-chassis.ibnetdiscover" -g

"$cli" generate --scaleup dgx-a100 --domains 16 --fabric fat-tree --tiers 2 \
    --switch qm8700 -o "$work/a100-ft16.weft" >/dev/null
"$cli" export "$work/a100-ft16.weft" --to ibsim --out "$out/a100-ft16.net" >/dev/null
discover "$out/a100-ft16.net" "$out/a100-ft16.ibnetdiscover"

python3 - "$out/h100-messy.net" <<'PY'
import sys
# 4 servers x 8 rails on 8 rail leaves (40 ports), 4 spines; leaf L has 4 uplinks per spine.
hcas = [0, 3, 4, 5, 6, 9, 10, 11]  # DGX H100 compute ConnectX-7 device names
servers = [f"dgx-h{n:03d}" for n in range(1, 5)]
ports = {}  # node -> {port: (remote, rport, width)}
def cable(a, b, width=4):
    pa = len(ports.setdefault(a, {})) + 1
    pb = len(ports.setdefault(b, {})) + 1
    ports[a][pa] = (b, pb, width)
    ports[b][pb] = (a, pa, width)
leaf = lambda r: f"MF0;h-leaf-{r:02d}:MQM8700/U1"
spine = lambda s: f"MF0;h-spine-{s:02d}:MQM8700/U1"
for s, host in enumerate(servers):
    for r, dev in enumerate(hcas):
        if host == "dgx-h003" and r == 5:
            ports.setdefault(f"{host} mlx5_{dev}", {})  # rail 5 of dgx-h003 not cabled
            continue
        cable(leaf(r), f"{host} mlx5_{dev}", 2 if (host, r) == ("dgx-h002", 1) else 4)
cable(leaf(0), "stor-01 mlx5_0")
for r in range(8):
    for s in range(4):
        cable(leaf(r), spine(s))
        if not (r == 7 and s == 3):  # one leaf-spine cable missing
            cable(leaf(r), spine(s))
with open(sys.argv[1], "w") as f:
    f.write("# Hand-described messy fabric for Weft's importer tests (scripts/make-import-testdata.sh)\n")
    for node, p in ports.items():
        sw = node.startswith("MF0")
        f.write(f'\n{"Switch" if sw else "Hca"}\t{40 if sw else 1} "{node}"\t# "{node}"\n')
        for port in sorted(p):
            rem, rport, w = p[port]
            if sw:
                f.write(f'[{port}]\t"{rem}"[{rport}]\t\t# "{rem}" lid 0 {w}xHDR\n')
            else:
                f.write(f'[{port}]\t"{rem}"[{rport}]\t\t# lid 0 lmc 0 "{rem}" lid 0 {w}xHDR\n')
PY
discover "$out/h100-messy.net" "$out/h100-messy.ibnetdiscover"
ls -l "$out"
