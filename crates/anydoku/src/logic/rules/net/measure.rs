//! Reading a finished propagation: the size of what lies behind some potentials (SE's
//! complexity), the main line to a potential, a potential written out, and the set of
//! potentials reached. A new measure of a propagation goes here.

use super::Net;

impl Net<'_> {
    /// The number of distinct potentials behind `targets` (themselves included), plus the
    /// sizes of the nested chains among them: SE's complexity.
    pub fn size(&mut self, targets: &[u32]) -> usize {
        self.mark_gen += 1;
        let g = self.mark_gen;
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.extend_from_slice(targets);
        let mut count = 0;
        while let Some(p) = stack.pop() {
            if self.mark[p as usize] == g {
                continue;
            }
            self.mark[p as usize] = g;
            count += 1 + self.slot[p as usize].extra as usize;
            stack.extend_from_slice(self.parents(p));
        }
        self.stack = stack;
        count
    }

    /// The main line from an assumption to `p`, following first parents.
    pub fn path(&self, mut p: u32) -> Vec<u32> {
        let mut out = vec![p];
        while let Some(&q) = self.parents(p).first() {
            if out.len() > self.order.len() {
                break;
            }
            out.push(q);
            p = q;
        }
        out.reverse();
        out
    }

    /// A potential written for a reason ("r1c2=7", "r1c2≠7").
    pub fn text(&self, p: u32) -> String {
        let (c, v) = self.cand(p);
        let sign = if p % 2 == 1 { "=" } else { "≠" };
        match self.slot[p as usize].via {
            u32::MAX => format!("{}{sign}{}", self.b.cell(c), self.b.sym(v)),
            s => format!(
                "{}{sign}{} ({})",
                self.b.cell(c),
                self.b.sym(v),
                self.b.shapes[s as usize].name
            ),
        }
    }

    /// The reached potentials as a bitset.
    pub fn reached(&self) -> Vec<u64> {
        let mut out = vec![0u64; self.potentials().div_ceil(64)];
        for &p in &self.order {
            out[p as usize / 64] |= 1 << (p % 64);
        }
        out
    }
}
