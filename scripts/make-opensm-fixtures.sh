#!/usr/bin/env bash
# Regenerates fixtures/opensm/: small fabrics routed by the real OpenSM 3.3.23
# (Debian `opensm`) over the ibsim simulator, with the peer harness of
# ../shared/peers/opensm (run_osm.sh, gen_pgft.py, replica/gen_irr.py).
#
#   scripts/make-opensm-fixtures.sh [PEER_DIR]      (default ../shared/peers/opensm beside the repository)
#
# Every case directory holds the generated ibsim net file (fabric.net), and
# one directory per OpenSM run (minhop, updn, updn-roots) holding what that
# run produced: ibnetdiscover.txt (the routed fabric, with OpenSM's LIDs),
# opensm-lfts.dump, opensm-subnet.lst, opensm-updn-roots.dump (updn),
# and engine.txt (the engine OpenSM reports it used, from osm.log).
# run_osm.sh gives every run a private IBSIM_SOCKNAME, so runs never collide.
set -euo pipefail
peer=${1:-$(dirname "$0")/../../shared/peers/opensm}
root=$(cd "$(dirname "$0")/.." && pwd)/fixtures/opensm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$root"

# Gives every node of an ibsim net file a random GUID (seeded), so that
# OpenSM's byte-swapped GUID ordering matters (algorithms.md §2.0).
randomize_guids() { # SEED IN OUT
	python3 - "$1" "$2" "$3" <<'PY'
import random, sys
rng = random.Random(int(sys.argv[1]))
out = []
for line in open(sys.argv[2]):
    if line.startswith("Switch"):
        out.append("switchguid=0x%016x\n" % rng.getrandbits(64))
    elif line.startswith("Hca"):
        out.append("caguid=0x%016x\n" % (rng.getrandbits(64) & ~0xff))
    out.append(line)
open(sys.argv[3], "w").writelines(out)
PY
}

# run CASE RUN ENGINE [opensm args]: one OpenSM run, keeping the small outputs.
run() {
	local case=$1 name=$2 engine=$3; shift 3
	local dst=$root/$case/$name
	"$peer/run_osm.sh" "$root/$case/fabric.net" "$work/$case-$name" "$engine" "$@" >/dev/null
	mkdir -p "$dst"
	cp "$work/$case-$name/ibnetdiscover.txt" "$dst/"
	cp "$work/$case-$name/dump/opensm-lfts.dump" "$work/$case-$name/dump/opensm-subnet.lst" "$dst/"
	[ -f "$work/$case-$name/dump/opensm-updn-roots.dump" ] &&
		cp "$work/$case-$name/dump/opensm-updn-roots.dump" "$dst/"
	grep -o "[a-z0-9]* tables configured on all switches" "$work/$case-$name/osm.log" |
		head -1 | cut -d' ' -f1 >"$dst/engine.txt"
	echo "$case/$name: $(wc -c <"$dst/opensm-lfts.dump") bytes, engine $(cat "$dst/engine.txt")"
}

pgft() { # CASE gen_pgft args...
	local case=$1; shift
	mkdir -p "$root/$case"
	python3 "$peer/gen_pgft.py" "$@" -o "$root/$case/fabric.net" >/dev/null
	rm -f "$root/$case/fabric.net.faults"
}

# 2-level fat tree PGFT(2;4,8;1,4): 32 hosts, 12 switches.
pgft ft2 --h 2 --m 4,8 --w 1,4
run ft2 minhop minhop
run ft2 updn updn

# 3-level fat tree PGFT(3;2,2,4;1,2,2) with doubled top cables: 16 hosts, 20 switches.
pgft ft3 --h 3 --m 2,2,4 --w 1,2,2 --p 1,1,2
run ft3 minhop minhop
run ft3 updn updn

# Degraded 3-level tree: 3 random cables and 1 upper switch removed; updn auto,
# and updn with the top-level GUIDs of the intact tree as root file (a removed
# switch would stay listed: OpenSM ignores GUIDs it does not find).
pgft ft3f --h 3 --m 2,4,4 --w 1,2,2 --fail-links 3 --fail-switches 1 --seed 7
python3 "$peer/gen_pgft.py" --h 3 --m 2,4,4 --w 1,2,2 --roots-out "$root/ft3f/roots.guids" -o "$work/full.net" >/dev/null
run ft3f minhop minhop
run ft3f updn updn
run ft3f updn-roots updn -a "$root/ft3f/roots.guids"

# Root heuristic finds the top level: PGFT(3;4,4,4;1,2,2), 64 hosts, 28 switches.
pgft heur --h 3 --m 4,4,4 --w 1,2,2
run heur minhop minhop
run heur updn updn

# Irregular random switch graph with parallel links and random GUIDs.
mkdir -p "$root/irr"
python3 "$peer/replica/gen_irr.py" 5 16 8 "$work/irr.net" >/dev/null
randomize_guids 11 "$work/irr.net" "$root/irr/fabric.net"
run irr minhop minhop
run irr updn updn
awk '/^switchguid=/ { sub("switchguid=", ""); print }' "$root/irr/fabric.net" | sed -n '3p;9p' >"$root/irr/roots.guids"
run irr updn-roots updn -a "$root/irr/roots.guids"

# minhop with a guid_routing_order_file (-X): half of the host ports in
# reverse order, a switch GUID and a GUID that matches nothing.
python3 - "$root/ft2/fabric.net" "$root/ft2/order.guids" <<'PY'
import sys, re
text = open(sys.argv[1]).read()
cas = re.findall(r"caguid=0x([0-9a-f]+)", text)
sws = re.findall(r"switchguid=0x([0-9a-f]+)", text)
ports = ["0x%016x" % (int(g, 16) + 1) for g in cas]
lines = ports[::-2] + ["0x" + sws[5], "0x00000000deadbeef"]
open(sys.argv[2], "w").write("# port GUIDs routed first (OpenSM -X)\n" + "\n".join(lines) + "\n")
PY
run ft2 minhop-order minhop -X "$root/ft2/order.guids"
