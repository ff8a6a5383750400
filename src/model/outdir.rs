//! The files of an output directory, named once. `compile` and `mcast`
//! write them (`emit`), `check`, `diff` and `report` find them again
//! (`parse`), so both sides take the names from here.

/// The first line of `routec.manifest` while a compile replaces its
/// outputs (`emit::commit`): a directory whose manifest starts with it holds
/// a mix of an old and a new set, and readers refuse it.
pub const MANIFEST_REPLACING: &str =
    "# routec: replacing outputs (a compile stopped here: run it again)";

/// A file routec writes into an output directory.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum OutFile {
    /// The route image (`formats/route-image.md`).
    Image,
    /// The route image, zstd-compressed.
    ImageZst,
    /// OpenSM's `opensm-lfts.dump` (`formats/opensm-lfts-dump.md`).
    OpensmLfts,
    /// `opensm.fdbs` for ibdmchk (`formats/fdbs.md`).
    Fdbs,
    /// `opensm-subnet.lst` for ibdmchk.
    SubnetLst,
    /// Multicast forwarding tables in OpenSM's dump format.
    Mcfdbs,
    /// The multicast colour table (`formats/mcast-colors.md`).
    McastColours,
    /// The multicast run's figures and check.
    McastJson,
    /// `report.json` (`formats/report-json.md`).
    Report,
    /// `routec.manifest`: the names of the outputs of the last run, so that
    /// the next one removes those it no longer writes (and nothing else).
    Manifest,
    /// `run.json`, where routec before report schema 2 logged each run's
    /// timings; a compile removes it (timings now go to `--timings FILE`).
    RunLog,
    /// OpenSM's `opensm-sl2vl.dump` (`formats/opensm-sl2vl-dump.md`).
    Sl2VlDump,
    /// ibdmchk's `-d` SL2VL file (`formats/ibdmchk-vl.md`).
    IbdmchkSl2Vl,
    /// ibdmchk's `-c` path-SL file.
    IbdmchkPsl,
    /// The compile state for `compile --previous` (`formats/state.md`).
    State,
}

impl OutFile {
    /// The file name inside the output directory.
    pub const fn name(self) -> &'static str {
        match self {
            OutFile::Image => "routes.lft",
            OutFile::ImageZst => "routes.lft.zst",
            OutFile::OpensmLfts => "opensm-lfts.dump",
            OutFile::Fdbs => "opensm.fdbs",
            OutFile::SubnetLst => "opensm-subnet.lst",
            OutFile::Mcfdbs => "opensm.mcfdbs",
            OutFile::McastColours => "mcast-colors.txt",
            OutFile::McastJson => "mcast.json",
            OutFile::Report => "report.json",
            OutFile::RunLog => "run.json",
            OutFile::Manifest => "routec.manifest",
            OutFile::Sl2VlDump => "opensm-sl2vl.dump",
            OutFile::IbdmchkSl2Vl => "ibdmchk.sl2vl",
            OutFile::IbdmchkPsl => "ibdmchk.psl",
            OutFile::State => "routec-state.json.zst",
        }
    }

    /// Every output a run may write (the manifest aside).
    pub const ALL: [OutFile; 14] = [
        OutFile::Image,
        OutFile::ImageZst,
        OutFile::OpensmLfts,
        OutFile::Fdbs,
        OutFile::SubnetLst,
        OutFile::Mcfdbs,
        OutFile::McastColours,
        OutFile::McastJson,
        OutFile::Report,
        OutFile::RunLog,
        OutFile::Sl2VlDump,
        OutFile::IbdmchkSl2Vl,
        OutFile::IbdmchkPsl,
        OutFile::State,
    ];

    /// Table files a reader of an output directory takes, in order of
    /// preference.
    pub const TABLES: [OutFile; 3] = [OutFile::Image, OutFile::ImageZst, OutFile::OpensmLfts];
}
