//! Member selection: none and flowlet.

use reference::config::LoadBalancing;
use reference::ecmp_hash::member_index;
use reference::flowlet::{FlowletParams, LoadBalancer, PortState, MAX_TABLES, SLOTS_PER_TABLE};

#[derive(Default)]
struct Ports {
    bytes: Vec<u64>,
    paused: Vec<bool>,
}

impl PortState for Ports {
    fn egress_bytes(&self, port: usize) -> u64 {
        self.bytes[port]
    }
    fn is_paused(&self, port: usize, _tc: usize, _now: u64) -> bool {
        self.paused[port]
    }
}

fn ports(bytes: &[u64]) -> Ports {
    Ports { bytes: bytes.to_vec(), paused: vec![false; bytes.len()] }
}

fn flowlet(gap_ns: u64, pfc_aware: bool) -> LoadBalancer {
    LoadBalancer::new(FlowletParams { method: LoadBalancing::Flowlet, gap_ns, pfc_aware, seed: 42 })
}

#[test]
fn none_is_hash_mod_size() {
    let mut lb = LoadBalancer::new(FlowletParams { method: LoadBalancing::None, gap_ns: 0, pfc_aware: true, seed: 1 });
    let g = lb.register(&[5, 6, 7]);
    let p = ports(&[0; 8]);
    for h in [0u16, 1, 2, 3, 1000, 65535] {
        let s = lb.select(0, g, h, 0, &p);
        assert_eq!(s.member, member_index(h, 3));
        assert_eq!(s.egress_port, [5, 6, 7][h as usize % 3]);
    }
    assert!(lb.groups()[g].table.is_none(), "none keeps no flow table");
}

#[test]
fn flowlet_picks_least_occupied_and_keeps_it_within_the_gap() {
    let mut lb = flowlet(100, true);
    let g = lb.register(&[0, 1, 2]);
    let mut p = ports(&[500, 100, 300]);
    let s = lb.select(0, g, 7, 0, &p);
    assert_eq!(s.egress_port, 1);
    lb.commit(0, &s, 1000);
    p.bytes = vec![0, 900, 0];
    let kept = lb.select(99, g, 7, 0, &p);
    assert_eq!((kept.egress_port, kept.selected), (1, false), "inside the gap: keep");
    lb.commit(99, &kept, 1000);
    let moved = lb.select(199, g, 7, 0, &p);
    assert!(moved.selected && moved.egress_port != 1, "gap reached: move to a least-occupied member");
    assert_eq!(moved.moved_from, Some(1));
    lb.commit(199, &moved, 1000);
    let stats = &lb.groups()[g].stats;
    assert_eq!(stats[1].movements_out, 1);
    assert_eq!(stats[moved.member].movements_in, 1);
}

#[test]
fn stays_when_current_member_is_tied_at_the_minimum() {
    let mut lb = flowlet(0, true);
    let g = lb.register(&[0, 1, 2, 3]);
    let p = ports(&[0, 0, 0, 0]);
    let first = lb.select(0, g, 9, 0, &p);
    lb.commit(0, &first, 100);
    for t in 1..50 {
        let s = lb.select(t, g, 9, 0, &p);
        assert_eq!(s.member, first.member, "gap 0 re-selects every packet but stays at a tie");
        lb.commit(t, &s, 100);
    }
}

#[test]
fn ties_spread_over_members() {
    let mut lb = flowlet(0, true);
    let g = lb.register(&[0, 1, 2, 3]);
    let p = ports(&[0, 0, 0, 0]);
    let mut count = [0u32; 4];
    for h in 0..SLOTS_PER_TABLE as u16 {
        count[lb.select(0, g, h, 0, &p).member] += 1;
    }
    assert!(count.iter().all(|&c| c > 80), "{count:?}");
}

#[test]
fn pfc_aware_avoids_paused_members_unless_all_are_paused() {
    let mut lb = flowlet(0, true);
    let g = lb.register(&[0, 1, 2]);
    let mut p = ports(&[100, 0, 50]);
    p.paused = vec![false, true, false];
    let s = lb.select(0, g, 1, 3, &p);
    assert_eq!(s.egress_port, 2, "member 1 is the emptiest but paused");
    lb.commit(0, &s, 10);
    assert_eq!(lb.groups()[g].stats[1].paused_skips, 1);
    p.paused = vec![true, true, true];
    let s = lb.select(1, g, 2, 3, &p);
    assert_eq!(s.egress_port, 1, "all paused: all are candidates");
    assert!(s.paused_selection);
    let mut blind = flowlet(0, false);
    let g2 = blind.register(&[0, 1, 2]);
    p.paused = vec![false, true, false];
    assert_eq!(blind.select(0, g2, 1, 3, &p).egress_port, 1, "without PFCAware pauses do not matter");
}

#[test]
fn an_egress_drop_leaves_the_slot_untouched() {
    let mut lb = flowlet(1000, true);
    let g = lb.register(&[0, 1]);
    let s = lb.select(0, g, 5, 0, &ports(&[10, 0]));
    lb.commit(0, &s, 1);
    let before = lb.slot(g, 5).unwrap();
    let _dropped = lb.select(5000, g, 5, 0, &ports(&[0, 10]));
    assert_eq!(lb.slot(g, 5).unwrap(), before);
}

#[test]
fn only_the_first_128_sets_get_tables() {
    let mut lb = flowlet(100, true);
    let p = ports(&[0; 200]);
    for i in 0..(MAX_TABLES as u16 + 2) {
        let g = lb.register(&[i, i + 1]);
        lb.select(0, g, 3, 0, &p);
    }
    let groups = lb.groups();
    assert!(groups[..MAX_TABLES].iter().all(|g| g.table.is_some()));
    assert!(groups[MAX_TABLES..].iter().all(|g| g.table.is_none()));
    let late = MAX_TABLES + 1;
    let mut lb2 = lb.clone();
    let s = lb2.select(0, late, 3, 0, &p);
    assert_eq!(s.member, member_index(3, 2), "later sets: hash mod size");
}
