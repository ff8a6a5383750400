//! The campaign's command lines, one case each, grouped by subcommand:
//! every reader and every option that reads a file or a number.

use super::{Case, Corpus};

const RING6: &str = "fixtures/verify/ring6/ibnetdiscover.txt";
const FIG2: &str = "fixtures/mcast/fig2.ibnetdiscover";
const FT3F: &str = "fixtures/opensm/ft3f/minhop/ibnetdiscover.txt";
const RING6_ROOTS: &str = "fixtures/fuzz/guids/ring6.roots";
const FT2: &str = "fixtures/opensm/ft2/minhop/ibnetdiscover.txt";

const fn case(label: &'static str, corpus: Corpus, args: &'static str) -> Case {
    Case {
        label,
        corpus,
        args,
        dir: None,
    }
}

pub static CASES: &[Case] = &[
    // topology readers, through every command that reads a topology
    case("info", Corpus::Fuzz("topology"), "info {in}"),
    case(
        "info --json",
        Corpus::Fuzz("topology"),
        "info {in} --json --lenient",
    ),
    case(
        "info --service-nodes",
        Corpus::Files(&["fixtures/fuzz/guids/ring6.service-nodes"]),
        "info fixtures/verify/ring6/ibnetdiscover.txt --service-nodes {in}",
    ),
    case(
        "info --faults",
        Corpus::Fuzz("faults"),
        "info fixtures/yaml/two-level.yaml --faults {in}",
    ),
    case(
        "convert --to yaml",
        Corpus::Fuzz("topology"),
        "convert {in} --to yaml -o {out}/x.yaml",
    ),
    case(
        "convert --to ibnetdiscover",
        Corpus::Fuzz("topology"),
        "convert {in} --to ibnetdiscover",
    ),
    // check: tables, VL files, plans, faults, roots, multicast
    case(
        "check --lfts",
        Corpus::Fuzz("tables"),
        "check fixtures/verify/ring6/ibnetdiscover.txt --lfts {in}",
    ),
    case(
        "check --lfts --json",
        Corpus::Fuzz("tables"),
        "check fixtures/verify/ring6/ibnetdiscover.txt --lfts {in} --json --all-paths",
    ),
    case(
        "check TOPO",
        Corpus::Files(&[RING6, "fixtures/verify/ring6/recabled.ibnetdiscover"]),
        "check {in} --lfts fixtures/fuzz/tables/ring6.lft --hop-limit {n:64}",
    ),
    case(
        "check --sl2vl",
        Corpus::Fuzz("sl2vl"),
        "check fixtures/verify/ring6/ibnetdiscover.txt --lfts fixtures/fuzz/tables/ring6-vl.lft --sl2vl {in} --vls {n:4}",
    ),
    case(
        "check --psl",
        Corpus::Fuzz("psl"),
        "check fixtures/verify/ring6/ibnetdiscover.txt --lfts fixtures/fuzz/tables/ring6-vl.lft --psl {in}",
    ),
    case(
        "check --expect",
        Corpus::Files(&[RING6, "fixtures/verify/ring6/recabled.ibnetdiscover"]),
        "check fixtures/verify/ring6/ibnetdiscover.txt --expect {in}",
    ),
    case(
        "check --faults",
        Corpus::Fuzz("faults"),
        "check fixtures/yaml/two-level.yaml --lfts {w}/two-f --faults {in}",
    ),
    case(
        "check --roots",
        Corpus::Files(&[RING6_ROOTS]),
        "check fixtures/verify/ring6/ibnetdiscover.txt --lfts fixtures/fuzz/tables/ring6.lft --roots {in}",
    ),
    case(
        "check --mcfdbs",
        Corpus::Fuzz("mcfdbs"),
        "check fixtures/mcast/fig2.ibnetdiscover --mcfdbs {in} --mcast fixtures/mcast/fig2.groups",
    ),
    case(
        "check --mcast",
        Corpus::Fuzz("groups"),
        "check fixtures/mcast/fig2.ibnetdiscover --mcfdbs {w}/mcc/opensm.mcfdbs --mcast {in}",
    ),
    Case {
        label: "check --mcfdbs (colours)",
        corpus: Corpus::Fuzz("colours"),
        args: "check fixtures/mcast/fig2.ibnetdiscover --mcfdbs {out}/d/opensm.mcfdbs --mcast fixtures/mcast/fig2.groups",
        dir: Some(("mcc", "mcast-colors.txt")),
    },
    Case {
        label: "check --mcfdbs (report.json)",
        corpus: Corpus::Fuzz("report"),
        args: "check fixtures/mcast/fig2.ibnetdiscover --mcfdbs {out}/d/opensm.mcfdbs",
        dir: Some(("mcc", "report.json")),
    },
    // report
    case(
        "report",
        Corpus::Files(&[RING6]),
        "report {in} --lfts fixtures/fuzz/tables/ring6.lft --pattern shift --samples 3",
    ),
    case(
        "report --lfts",
        Corpus::Fuzz("tables"),
        "report fixtures/verify/ring6/ibnetdiscover.txt --lfts {in} --samples 3 --json",
    ),
    case(
        "report numbers",
        Corpus::Args,
        "report fixtures/verify/ring6/ibnetdiscover.txt --lfts fixtures/fuzz/tables/ring6.lft --pattern random --samples {n:5} --seed {n:1} --hop-limit {n:64} --lmc {n:0}",
    ),
    // compile, every engine and option that reads a file or a number
    case(
        "compile minhop",
        Corpus::Fuzz("topology"),
        "compile {in} --engine minhop --emit image,report,opensm,fdbs -o {out}/o",
    ),
    case(
        "compile updn",
        Corpus::Fuzz("topology"),
        "compile {in} --engine updn --roots top -o {out}/o --allow-invalid",
    ),
    case(
        "compile updn --roots",
        Corpus::Files(&[RING6_ROOTS]),
        "compile fixtures/verify/ring6/ibnetdiscover.txt --engine updn --roots {in} -o {out}/o",
    ),
    case(
        "compile minhop --node-order",
        Corpus::Files(&["fixtures/fuzz/guids/order.guids"]),
        "compile fixtures/opensm/ft2/minhop/ibnetdiscover.txt --engine minhop --node-order {in} -o {out}/o",
    ),
    case(
        "compile dmodc",
        Corpus::Files(&[FT3F, "{w}/pgft.topo"]),
        "compile {in} --engine dmodc --emit image,report,opensm,fdbs -o {out}/o",
    ),
    case(
        "compile dmodc --service-nodes",
        Corpus::Files(&["fixtures/fuzz/guids/ft3f.service-nodes"]),
        "compile fixtures/opensm/ft3f/minhop/ibnetdiscover.txt --engine dmodc --service-nodes {in} -o {out}/o",
    ),
    case(
        "compile sssp",
        Corpus::Files(&["{w}/torus.topo", RING6, FIG2]),
        "compile {in} --engine sssp --vls {n:2} --lmc {n:1} -o {out}/o --compress",
    ),
    case(
        "compile vtftr",
        Corpus::Files(&["{w}/ft2d.topo"]),
        "compile {in} --engine vtftr -o {out}/o --emit image,opensm,fdbs",
    ),
    case(
        "compile --faults",
        Corpus::Fuzz("faults"),
        "compile fixtures/yaml/two-level.yaml --engine minhop --faults {in} -o {out}/o",
    ),
    case(
        "compile --vls",
        Corpus::Fuzz("topology"),
        "compile {in} --engine minhop --vls {n:3} --max-hops {n:64} -o {out}/o",
    ),
    case(
        "compile numbers",
        Corpus::Args,
        "compile {w}/pgft.topo --engine dmodc --vls {n:1} --lmc {n:0} --max-hops {n:64} -j {n:1} -o {out}/o --stamp {out}/s --depfile {out}/d",
    ),
    case(
        "compile --mcast",
        Corpus::Fuzz("groups"),
        "compile fixtures/mcast/fig2.ibnetdiscover --engine minhop --mcast {in} --mft-size {n:16} -o {out}/o",
    ),
    // diff
    case(
        "diff",
        Corpus::Fuzz("tables"),
        "diff {in} fixtures/fuzz/tables/ring6-opensm-lfts.dump",
    ),
    case(
        "diff --json",
        Corpus::Fuzz("tables"),
        "diff fixtures/fuzz/tables/ring6.lft {in} --json --exit-code",
    ),
    case(
        "diff --plan",
        Corpus::Fuzz("tables"),
        "diff fixtures/verify/ring6/minhop.lfts.dump {in} --plan --topology fixtures/verify/ring6/ibnetdiscover.txt",
    ),
    case(
        "diff --plan TOPO",
        Corpus::Files(&[RING6]),
        "diff fixtures/verify/ring6/minhop.lfts.dump fixtures/verify/ring6/updn.lfts.dump --plan --all-paths --topology {in}",
    ),
    case(
        "diff --plan --faults",
        Corpus::Fuzz("faults"),
        "diff {w}/two {w}/two --plan --topology fixtures/yaml/two-level.yaml --faults {in}",
    ),
    // mcast
    case(
        "mcast",
        Corpus::Fuzz("groups"),
        "mcast fixtures/mcast/fig2.ibnetdiscover --mcast {in} -o {out}/m --mft-size {n:16}",
    ),
    case(
        "mcast TOPO",
        Corpus::Files(&[FIG2, FT2]),
        "mcast {in} --mcast fixtures/mcast/fig2.groups -o {out}/m --rebuild-merged",
    ),
    // gen, every number
    case(
        "gen pgft",
        Corpus::Args,
        "gen pgft --h {n:3} --m {n:4},{n:4},{n:4} --w {n:1},{n:4},{n:2} --p {n:1},{n:1},{n:1} --faults {n:2} --fail-switches {n:1} --seed {n:7} -o {out}/p.topo",
    ),
    case(
        "gen pgft features",
        Corpus::Args,
        "gen pgft --h 3 --m 4,4,8 --w 1,4,4 --aggregation-nodes --empty-host-ports {n:0.25} --drop-top {n:2} --mgmt-pod {n:1}:{n:2}:{n:1} --isolated-pods {n:1} --cross-cables {n:3} -o {out}/p.topo",
    ),
    case(
        "gen torus",
        Corpus::Args,
        "gen torus --dims {n:4},{n:4} --hosts {n:1} -o {out}/t.topo",
    ),
    case(
        "gen dragonfly",
        Corpus::Args,
        "gen dragonfly --a {n:4} --p {n:2} --h {n:2} --groups {n:9} -o {out}/d.topo",
    ),
    case(
        "gen ft2d",
        Corpus::Args,
        "gen ft2d --nx {n:4} --ny {n:4} --hosts {n:2} --rsw {n:1} --csw {n:1} --fail-leaves {n:2} --seed {n:1} -o {out}/f.topo",
    ),
    case(
        "gen mcast",
        Corpus::Args,
        "gen mcast --topology fixtures/mcast/fig2.ibnetdiscover --pattern grid2d --dims {n:2}x{n:2} --procs-per-node {n:1} --seed {n:1} -o {out}/g.groups",
    ),
];
