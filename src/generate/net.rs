//! What every topology generator shares: switches and hosts added with
//! regular GUIDs and descriptions, cables with a width and speed, and LIDs
//! assigned at the end (`formats/lid-assignment.md`), so that the
//! generators only say what is cabled to what.

use crate::model::lids::{self, MAX_UNICAST_LID};
use crate::model::{
    BuildError, Fabric, FabricBuilder, Guid, NodeIdx, NodeKind, NodeSpec, Speed, Width,
};

/// A fabric being generated.
#[derive(Default)]
pub struct Net {
    pub b: FabricBuilder,
}

impl Net {
    /// A switch with `ports` ports.
    pub fn switch(&mut self, guid: u64, ports: u32, desc: String) -> Result<NodeIdx, String> {
        if ports > 254 {
            return Err(format!(
                "switch {desc} would need {ports} ports (at most 254)"
            ));
        }
        self.b
            .add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(guid),
                ports as u8,
                desc,
            ))
            .map_err(err)
    }

    /// A single-port CA whose port GUID is its node GUID + 1.
    pub fn host(&mut self, guid: u64, desc: String) -> Result<NodeIdx, String> {
        let n = self
            .b
            .add_node(NodeSpec::new(NodeKind::Ca, Guid(guid), 1, desc))
            .map_err(err)?;
        self.b.port_mut(n, 1).map_err(err)?.guid = Guid(guid + 1);
        Ok(n)
    }

    /// A 4x QDR cable between port `pa` of `a` and port `pb` of `b`.
    pub fn cable(&mut self, a: NodeIdx, pa: u32, b: NodeIdx, pb: u32) -> Result<(), String> {
        for (n, p) in [(a, pa), (b, pb)] {
            let port = self.b.port_mut(n, p as u8).map_err(err)?;
            port.width = Width::X4;
            port.speed = Speed::Qdr;
        }
        self.b.connect(a, pa as u8, b, pb as u8).map_err(err)?;
        Ok(())
    }

    /// The fabric, every port that needs one given a LID.
    pub fn finish(self) -> Result<Fabric, String> {
        let mut f = self.b.build();
        lids::assign_missing_lids(&mut f).map_err(|e| e.to_string())?;
        Ok(f)
    }
}

fn err(e: BuildError) -> String {
    e.to_string()
}

/// Refuses a fabric of `switches` switches and `hosts` single-port hosts
/// beyond one subnet's unicast LIDs, with the arithmetic.
pub fn check_lids(what: &str, switches: u64, hosts: u64) -> Result<(), String> {
    let need = switches + hosts;
    if need > MAX_UNICAST_LID as u64 {
        return Err(format!(
            "{what}: {switches} switches + {hosts} hosts = {need} LIDs, more than the \
             {MAX_UNICAST_LID} unicast LIDs of one InfiniBand subnet (it would need several \
             subnets joined by routers)"
        ));
    }
    Ok(())
}
