//! The cell–shape graph: a bipartite petgraph graph with one node per cell and per shape, and an
//! edge for each membership.
//!
//! It is built once per geometry for validation (cells in no shape, disconnected parts) and for
//! analysis (which shapes intersect). The engine never walks it; it uses flat arrays instead.

use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::unionfind::UnionFind;
use petgraph::visit::EdgeRef;

use super::{CellId, Geometry, ShapeId};

/// A node of the cell–shape graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    Cell(CellId),
    Shape(ShapeId),
}

/// The bipartite cell–shape graph of a geometry.
pub struct CellShapeGraph {
    pub graph: UnGraph<Node, ()>,
    cells: usize,
}

impl CellShapeGraph {
    /// Builds the graph: cells are nodes `0..cells`, shapes follow.
    pub fn new(g: &Geometry) -> Self {
        let mut graph = UnGraph::with_capacity(
            g.cells.len() + g.shapes.len(),
            g.shapes.iter().map(|s| s.cells.len()).sum(),
        );
        for i in 0..g.cells.len() {
            graph.add_node(Node::Cell(CellId(i as u32)));
        }
        for (i, s) in g.shapes.iter().enumerate() {
            let node = graph.add_node(Node::Shape(ShapeId(i as u32)));
            for c in &s.cells {
                graph.add_edge(NodeIndex::new(c.index()), node, ());
            }
        }
        CellShapeGraph {
            graph,
            cells: g.cells.len(),
        }
    }

    /// Connected parts of the geometry, each as a sorted list of cells.
    pub fn components(&self) -> Vec<Vec<CellId>> {
        let mut uf = UnionFind::<usize>::new(self.graph.node_count());
        for e in self.graph.edge_references() {
            uf.union(e.source().index(), e.target().index());
        }
        let mut groups: std::collections::BTreeMap<usize, Vec<CellId>> = Default::default();
        for c in 0..self.cells {
            groups.entry(uf.find(c)).or_default().push(CellId(c as u32));
        }
        let mut out: Vec<Vec<CellId>> = groups.into_values().collect();
        out.sort();
        out
    }

    /// Warnings about the structure: cells in no shape and disconnected parts.
    pub fn warnings(&self, g: &Geometry) -> Vec<String> {
        let mut out = Vec::new();
        let lonely: Vec<&str> = (0..self.cells)
            .filter(|&c| self.graph.neighbors(NodeIndex::new(c)).next().is_none())
            .map(|c| g.cells[c].name.as_str())
            .collect();
        if !lonely.is_empty() {
            let shown: Vec<&str> = lonely.iter().take(5).copied().collect();
            out.push(format!(
                "{} cell(s) belong to no shape and can take any symbol: {}{}",
                lonely.len(),
                shown.join(" "),
                if lonely.len() > 5 { " ..." } else { "" }
            ));
        }
        let parts = self.components();
        if parts.len() > 1 {
            // the sizes of the first few parts: a warning stays one short line
            const SHOWN: usize = 8;
            let sizes: Vec<String> = parts
                .iter()
                .take(SHOWN)
                .map(|p| p.len().to_string())
                .collect();
            out.push(format!(
                "the layout falls apart into {} unconnected parts (sizes {}{})",
                parts.len(),
                sizes.join(", "),
                if parts.len() > SHOWN { ", ..." } else { "" }
            ));
        }
        out
    }
}
