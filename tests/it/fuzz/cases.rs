//! The command lines of the mutation campaign (`campaign.rs`): every
//! reader and every subcommand, each a template. In a template `{in}` is
//! the mutated input (a copy of one seed of the case's corpus, mutated by
//! `mutate.rs`), `{out}` a fresh directory of the run, `{w}` the work
//! directory the campaign prepared once (outputs of real runs), and
//! `{n:D}` a number option: its valid default `D` half the time, else a
//! boundary value (0, -1, 255, 65535, 2^32, 2^64, a fraction, junk).

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Where a case's seeds come from.
pub enum Corpus {
    /// Every file of `fixtures/fuzz/NAME/`.
    Fuzz(&'static str),
    /// These files (`{w}/…` for a prepared one).
    Files(&'static [&'static str]),
    /// No input file: only the `{n:D}` numbers are mutated.
    Args,
}

/// One command line of the campaign.
pub struct Case {
    /// The name the summary counts runs under (the subcommand and what
    /// varies).
    pub label: &'static str,
    pub corpus: Corpus,
    pub args: &'static str,
    /// For a directory case: the prepared output directory copied to
    /// `{out}/d`, and the file of it that `{in}` replaces.
    pub dir: Option<(&'static str, &'static str)>,
}

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

/// The prepared work directory: what `campaign::prepare` runs (each line a
/// `routec` command run from the crate root).
pub const PREPARE: &[&str] = &[
    "gen pgft --h 2 --m 4,4 --w 1,4 -o {w}/pgft.topo",
    "gen torus --dims 3,3 --hosts 1 -o {w}/torus.topo",
    "gen ft2d --nx 3 --ny 3 --hosts 1 --fail-leaves 1 -o {w}/ft2d.topo",
    "compile fixtures/yaml/two-level.yaml --engine minhop -o {w}/two",
    "compile fixtures/yaml/two-level.yaml --faults fixtures/faults/two-level.faults --engine minhop -o {w}/two-f",
    "compile fixtures/mcast/fig2.ibnetdiscover --engine minhop --mcast fixtures/mcast/fig2.groups --emit image,report,fdbs -o {w}/mcc",
];

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

/// Values a number option is tried with besides its default.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "8",
    "15",
    "16",
    "64",
    "255",
    "256",
    "65535",
    "65536",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "99999999999",
    "0.5",
    "1e9",
    "",
    "x",
];

/// `args` with `{n:D}` filled in and `{in}`, `{out}`, `{w}` replaced; the
/// arguments, split on spaces. With no `rng`, every number keeps its
/// default (the control run).
pub fn fill(
    args: &str,
    input: &str,
    out: &str,
    w: &str,
    rng: Option<&mut ChaCha8Rng>,
) -> Vec<String> {
    let mut rng = rng;
    let mut s = args
        .replace("{in}", input)
        .replace("{out}", out)
        .replace("{w}", w);
    while let Some(i) = s.find("{n:") {
        let end = i + s[i..].find('}').expect("a closed {n:D}");
        let default = s[i + 3..end].to_string();
        let v = match rng.as_deref_mut() {
            None => default,
            Some(rng) => {
                if rng.random_bool(0.5) {
                    default
                } else if rng.random_bool(0.3) {
                    rng.random_range(0..40u32).to_string()
                } else {
                    NUMBERS[rng.random_range(0..NUMBERS.len())].to_string()
                }
            }
        };
        s.replace_range(i..=end, &v);
    }
    s.split(' ').map(str::to_string).collect()
}
