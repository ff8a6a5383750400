#!/bin/bash
# The VTFTR evaluation of README "VTFTR on 2-D fat trees" (issue 15):
# 16x16 leaves, 16 hosts/leaf, a=b=1; 0, 1, 5, 10 faulty leaves (spread,
# row, column, random; seed 1); vtftr, dmodc, updn (one root: RSW_0_0),
# minhop; compile on 1 VL (--allow-invalid, to see findings and loads) and
# with --vls 8 (VLs layering needs); routec report --pattern all.
# Usage: benches/vtftr_eval.sh [ROUTEC] [DIR]; then read DIR/*.log and
# DIR/*.quality.json (all_to_all.efi_switch, shift, hops).
set -u
B=${1:-target/release/routec}
D=${2:-/tmp/vtftr-eval}
mkdir -p "$D"
echo 0x0002c90600000000 > "$D/roots1.txt"
cases="f0:0:spread f1:1:random"
for p in spread row column random; do cases="$cases f5$p:5:$p f10$p:10:$p"; done
for c in $cases; do
  IFS=: read -r name k pat <<<"$c"
  t="$D/$name.topo"; F=()
  if [ "$k" = 0 ]; then
    "$B" -q gen ft2d --nx 16 --ny 16 --hosts 16 -o "$t"
  else
    "$B" -q gen ft2d --nx 16 --ny 16 --hosts 16 --fail-leaves "$k" --fail-pattern "$pat" --seed 1 -o "$t"
    F=(--faults "$t.faults")
  fi
  for e in vtftr dmodc updn minhop; do
    out="$D/$name-$e"; R=(); [ $e = updn ] && R=(--roots "$D/roots1.txt")
    "$B" compile "$t" "${F[@]}" --engine $e "${R[@]}" -o "$out" --emit image,report --allow-invalid >"$out.log" 2>&1
    echo "rc=$?" >>"$out.log"
    if [ $e != vtftr ]; then
      "$B" compile "$t" "${F[@]}" --engine $e "${R[@]}" --vls 8 -o "$out-l8" --emit report >"$out-l8.log" 2>&1
      echo "rc=$?" >>"$out-l8.log"
    fi
    [ -e "$out/routes.lft" ] && "$B" report "$t" "${F[@]}" --lfts "$out" --pattern all --samples 20 --json >"$out.quality.json"
  done
done
