//! The LIDs a compile routes with: the topology's, completed when asked
//! (`--assign-lids`), or assigned anew for `--lmc N`
//! (`formats/lid-assignment.md`).

use crate::cli::common::Global;
use crate::error::{Error, Result};
use crate::model::Fabric;
use crate::model::lids::{self, LidState};

/// `--lmc N`: keeps the topology's LIDs when every end port already has
/// LMC N, else assigns them all anew (note R010). `report --lmc N` calls it
/// too, to read tables a `compile --lmc N` wrote against the same LIDs.
pub(in crate::cli) fn relid_for_lmc(fabric: &mut Fabric, lmc: u8, g: &Global) -> Result<()> {
    let differs = lids::lid_ports(fabric)
        .filter(|&(n, _)| fabric.is_endpoint(n))
        .any(|(n, p)| fabric.port(n, p).lmc != lmc);
    if differs {
        let fresh = lids::assign_with_lmc(fabric, lmc)?;
        lids::apply_port_lids(fabric, &fresh);
        if !g.quiet {
            eprintln!(
                "note[R010]: LIDs assigned anew for LMC {lmc}: {} ports, base LIDs aligned to {} \
                 (formats/lid-assignment.md); every output names the new LIDs",
                fresh.len(),
                1u16 << lmc
            );
        }
    }
    Ok(())
}

/// Makes sure every port that needs a LID has one: a fabric with none gets a
/// deterministic assignment (`formats/lid-assignment.md`); a partial one is
/// an error unless `--assign-lids`.
pub fn prepare_lids(fabric: &mut Fabric, assign: bool, g: &Global) -> Result<()> {
    match lids::lid_state(fabric) {
        LidState::Complete => Ok(()),
        LidState::Partial { missing } if !assign => Err(Error::Input(format!(
            "{missing} ports have no LID while others have one; \
             pass --assign-lids to give them LIDs"
        ))),
        _ => {
            let n = lids::assign_missing_lids(fabric)?;
            if !g.quiet {
                eprintln!("note: assigned {n} LIDs (formats/lid-assignment.md)");
            }
            Ok(())
        }
    }
}
