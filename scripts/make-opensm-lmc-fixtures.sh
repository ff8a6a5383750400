#!/usr/bin/env bash
# Adds LMC runs to fixtures/opensm/: the fabrics of make-opensm-fixtures.sh
# (and a 4x4 torus made by `routec gen torus`) routed by the real OpenSM
# 3.3.23 with `-l 2` (every CA port owns 4 LIDs), over ibsim, with the peer
# harness of ../shared/peers/opensm (run_osm.sh).
#
#   scripts/make-opensm-lmc-fixtures.sh [PEER_DIR]   (default ../shared/peers/opensm beside the repository)
#
# Every run directory (<case>/minhop-lmc2, <case>/updn-lmc2, ...) holds what
# make-opensm-fixtures.sh keeps: ibnetdiscover.txt (OpenSM's LIDs and LMC),
# opensm-lfts.dump, opensm-subnet.lst and engine.txt.
# Needs a built routec (target/debug/routec or ROUTEC=...) for the torus.
set -euo pipefail
peer=${1:-$(dirname "$0")/../../shared/peers/opensm}
repo=$(cd "$(dirname "$0")/.." && pwd)
root=$repo/fixtures/opensm
routec=${ROUTEC:-$repo/target/debug/routec}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run CASE RUN ENGINE [opensm args]: one OpenSM run, keeping the small outputs.
run() {
	local case=$1 name=$2 engine=$3; shift 3
	local dst=$root/$case/$name
	"$peer/run_osm.sh" "$root/$case/fabric.net" "$work/$case-$name" "$engine" "$@" >/dev/null
	mkdir -p "$dst"
	cp "$work/$case-$name/ibnetdiscover.txt" "$dst/"
	cp "$work/$case-$name/dump/opensm-lfts.dump" "$work/$case-$name/dump/opensm-subnet.lst" "$dst/"
	grep -o "[a-z0-9]* tables configured on all switches" "$work/$case-$name/osm.log" |
		head -1 | cut -d' ' -f1 >"$dst/engine.txt"
	echo "$case/$name: $(wc -c <"$dst/opensm-lfts.dump") bytes, engine $(cat "$dst/engine.txt")"
}

# PGFT(2;4,8;1,4), 32 hosts: leaves with 4 spines, every spine its own node.
run ft2 minhop-lmc2 minhop -l 2
run ft2 updn-lmc2 updn -l 2
# PGFT(3;2,2,4;1,2,2) with doubled top cables: two ports to the same node.
run ft3 minhop-lmc2 minhop -l 2
run ft3 updn-lmc2 updn -l 2
# Irregular graph with parallel cables and random GUIDs.
run irr minhop-lmc2 minhop -l 2
run irr updn-roots-lmc2 updn -l 2 -a "$root/irr/roots.guids"

# 4x4 torus, 2 hosts per switch (the SM sits on a host).
mkdir -p "$root/torus"
"$routec" gen torus --dims 4,4 --hosts 2 -q -o "$root/torus/fabric.net"
host=$(awk -F'"' '/^Ca/ { print $2; exit }' "$root/torus/fabric.net")
SIM_HOST=$host run torus minhop-lmc2 minhop -l 2
SIM_HOST=$host run torus minhop-lmc1 minhop -l 1
