#!/usr/bin/env bash
# Regenerates fixtures/opensm-vl/: small fabrics routed by OpenSM 3.3.23's
# virtual-lane engines (dfsssp, lash, nue) over the ibsim simulator, with QoS
# on (-Q) so that OpenSM writes opensm-sl2vl.dump, and the path SLs its SA
# hands out, read with saquery while the SM keeps running.
#
#   scripts/make-opensm-vl-fixtures.sh [PEER_DIR]   (default ../shared/peers/opensm)
#
# Fabrics: ring6 (the peer harness's 6-switch ring), torus4x4 (a 4x4 2-D torus,
# one host per switch, written below), irr (fixtures/opensm/irr/fabric.net).
# Per fabric and engine, fixtures/opensm-vl/FABRIC/ENGINE/ holds:
#   ibnetdiscover.txt, opensm-lfts.dump, opensm-subnet.lst, opensm.fdbs,
#   opensm.mcfdbs, opensm-sl2vl.dump   what OpenSM and ibnetdiscover produced
#   saquery-paths.txt   `saquery -p --src-to-dst S:D` for every CA pair (under
#                       ibsim a bare `saquery -p` returns only the first segment
#                       of a multi-packet reply, so pairs are queried one by one);
#                       for irr only the slid/dlid/sl lines of each record, to
#                       keep the file small
#   engine.txt          the engine OpenSM used and the VLs it reports needing
# Every ibsim run gets its own IBSIM_SOCKNAME; only processes started here are
# stopped, by PID.
set -euo pipefail
peer=${1:-$(dirname "$0")/../../shared/peers/opensm}
peer=$(cd "$peer" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
dst_root=$root/fixtures/opensm-vl
work=$(mktemp -d)
SO=$(dpkg -L libumad2sim0 | grep 'libumad2sim\.so$' | head -1)
sim_pid="" osm_pid=""
cleanup() {
	[ -n "$osm_pid" ] && kill "$osm_pid" 2>/dev/null || true
	[ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

torus() { # NX NY OUT: 2-D torus of 8-port switches, one host on port 5 each
	python3 - "$1" "$2" "$3" <<'PY'
import sys
nx, ny, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
sw = lambda x, y: "S%d_%d" % (x % nx, y % ny)
lines = []
for y in range(ny):
    for x in range(nx):
        lines.append("switchguid=0x%016x" % (0x2c90100000000 + y * nx + x + 1))
        lines.append('Switch 8 "%s"' % sw(x, y))
        # ports 1/2: -x/+x, 3/4: -y/+y, 5: host
        lines.append('[1] "%s"[2]' % sw(x - 1, y))
        lines.append('[2] "%s"[1]' % sw(x + 1, y))
        lines.append('[3] "%s"[4]' % sw(x, y - 1))
        lines.append('[4] "%s"[3]' % sw(x, y + 1))
        lines.append('[5] "H%d_%d"[1]' % (x, y))
        lines.append("")
for y in range(ny):
    for x in range(nx):
        lines.append("caguid=0x%016x" % (0x2c90200000000 + (y * nx + x + 1) * 0x100))
        lines.append('Hca 1 "H%d_%d"' % (x, y))
        lines.append('[1] "%s"[5]' % sw(x, y))
        lines.append("")
open(out, "w").write("\n".join(lines))
PY
}

# CA LIDs of an ibnetdiscover output, one per line.
ca_lids() {
	awk '/^Ca/ { ca = 1; next } /^(Switch|$)/ { ca = 0 } ca && /# lid/ { match($0, /# lid [0-9]+/); print substr($0, RSTART + 6, RLENGTH - 6) }' "$1"
}

run() { # FABRIC NET ENGINE
	local fab=$1 net=$2 engine=$3 out=$work/$1-$3 dst=$dst_root/$1/$3
	mkdir -p "$out/dump" "$out/cache"
	export IBSIM_SOCKNAME="vlfix$$$fab$engine"
	SIM_HOST=$(awk -F'"' '/^(Switch|Hca|Ca)/ { print $2; exit }' "$net")
	export SIM_HOST
	ibsim -s -n "$net" >"$out/ibsim.out" 2>&1 &
	sim_pid=$!
	for _ in $(seq 1 100); do grep -q "Network simulator ready" "$out/ibsim.out" && break; sleep 0.1; done
	LD_PRELOAD=$SO OSM_TMP_DIR=$out/dump OSM_CACHE_DIR=$out/cache \
		opensm -e -s 0 -F /dev/null -f "$out/osm.log" -D 0x43 --dump_files_dir "$out/dump" \
		-R "$engine" -Q >"$out/opensm.out" 2>&1 &
	osm_pid=$!
	for _ in $(seq 1 300); do grep -q "SUBNET UP" "$out/osm.log" 2>/dev/null && break; sleep 0.1; done
	mkdir -p "$dst"
	LD_PRELOAD=$SO ibnetdiscover >"$dst/ibnetdiscover.txt" 2>/dev/null
	local lids
	lids=$(ca_lids "$dst/ibnetdiscover.txt")
	: >"$dst/saquery-paths.txt"
	for s in $lids; do
		for d in $lids; do
			[ "$s" = "$d" ] && continue
			if [ "$fab" = irr ]; then
				LD_PRELOAD=$SO saquery -p --src-to-dst "$s:$d" | grep -E "PathRecord dump|dlid|slid|^[[:space:]]+sl\." >>"$dst/saquery-paths.txt"
			else
				LD_PRELOAD=$SO saquery -p --src-to-dst "$s:$d" >>"$dst/saquery-paths.txt"
			fi
		done
	done
	kill "$osm_pid" 2>/dev/null || true; wait "$osm_pid" 2>/dev/null || true; osm_pid=""
	kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; sim_pid=""
	cp "$out/dump/opensm-lfts.dump" "$out/dump/opensm-subnet.lst" "$out/dump/opensm.fdbs" \
		"$out/dump/opensm.mcfdbs" "$out/dump/opensm-sl2vl.dump" "$dst/"
	{
		echo "opensm $(dpkg-query -W -f '${Version}' opensm) -R $engine -Q"
		grep -o "[a-z0-9]* tables configured on all switches" "$out/osm.log" | head -1
		grep -o -E "Virtual Lanes needed: [0-9]+|Lanes needed: [0-9]+|[0-9]+ layers|num_vl[s]? *[:=] *[0-9]+|using [0-9]+ (VLs|layers)" "$out/osm.log" | head -3
	} >"$dst/engine.txt"
	echo "$fab/$engine: $(wc -l <"$dst/saquery-paths.txt") saquery lines; $(tr '\n' ' ' <"$dst/engine.txt")"
}

mkdir -p "$dst_root/ring6" "$dst_root/torus4x4" "$dst_root/irr"
cp "$peer/examples/ring6.net" "$dst_root/ring6/fabric.net"
torus 4 4 "$dst_root/torus4x4/fabric.net"
cp "$root/fixtures/opensm/irr/fabric.net" "$dst_root/irr/fabric.net"
for fab in ring6 torus4x4 irr; do
	for engine in dfsssp lash nue; do
		run "$fab" "$dst_root/$fab/fabric.net" "$engine" || echo "$fab/$engine: failed"
	done
done
