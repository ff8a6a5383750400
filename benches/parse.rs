//! Parsing the 27,648-host PGFT(3;24,24,48;1,24,24;1,1,1) in ibnetdiscover
//! form (issue 2: under 150 ms on one core). The text is generated once by
//! `routec gen pgft`'s library calls. `cargo bench --bench parse`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::parse::{LoadOptions, parse_topology};

mod common;

fn parse_rlft(c: &mut Criterion) {
    let fabric = pgft(&PgftSpec::new(3, &[24, 24, 48], &[1, 24, 24], None)).expect("pgft");
    let mut text = Vec::new();
    routec::emit::ibnetdiscover::write(&fabric, &mut text).expect("write");
    let text = String::from_utf8(text).expect("utf8");
    // best of 3 as a ratio to the machine reference (issue 17)
    let took = common::best(3, || {
        parse_topology("rlft48.ibnetdiscover", &text, &LoadOptions::default()).expect("parse")
    });
    common::report("parse ibnetdiscover 27648 hosts", took, common::reference());
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(20);
    group.bench_function("ibnetdiscover 27648 hosts", |b| {
        b.iter(|| {
            parse_topology("rlft48.ibnetdiscover", &text, &LoadOptions::default())
                .expect("parse")
                .fabric
                .num_nodes()
        })
    });
    group.finish();
}

criterion_group!(benches, parse_rlft);
criterion_main!(benches);
