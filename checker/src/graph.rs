//! The explicit state graph of a small model, for inspection and DOT (Graphviz) output.
//!
//! The search itself never stores edges; this module does, so it is meant for models (or
//! bounded slices of them) small enough to draw. States are deduplicated with
//! `Model::fingerprint`, as in the search.

use crate::error::CheckError;
use crate::fingerprint::FpBuildHasher;
use crate::model::Model;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::HashMap;
use std::fmt::Write as _;

/// A state graph: nodes are states, edges are `(action index, action)`.
pub struct StateGraph<M: Model> {
    /// The graph, nodes in breadth-first discovery order.
    pub graph: DiGraph<M::State, (usize, M::Action)>,
    /// The distinct initial states' nodes.
    pub initial: Vec<NodeIndex>,
}

impl<M: Model> std::fmt::Debug for StateGraph<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StateGraph")
            .field("states", &self.graph.node_count())
            .field("edges", &self.graph.edge_count())
            .finish()
    }
}

/// Explores every reachable state breadth-first; fails if there are more than `max_states`.
pub fn explore<M: Model>(model: &M, max_states: usize) -> Result<StateGraph<M>, CheckError> {
    let mut graph = DiGraph::new();
    let mut index: HashMap<u64, NodeIndex, FpBuildHasher> = HashMap::default();
    let mut initial = Vec::new();
    let mut add =
        |graph: &mut DiGraph<M::State, _>, s: M::State| -> Result<(NodeIndex, bool), CheckError> {
            let fp = model.fingerprint(&s);
            if let Some(&n) = index.get(&fp) {
                return Ok((n, false));
            }
            if graph.node_count() >= max_states {
                return Err(CheckError::GraphTooLarge { limit: max_states });
            }
            let n = graph.add_node(s);
            index.insert(fp, n);
            Ok((n, true))
        };
    let inits = model.init_states();
    if inits.is_empty() {
        return Err(CheckError::NoInitialStates);
    }
    for s in inits {
        let (n, new) = add(&mut graph, s)?;
        if new {
            initial.push(n);
        }
    }
    // Nodes are appended in discovery order, so the node list is the BFS queue.
    let mut actions = Vec::new();
    let mut next = 0;
    while next < graph.node_count() {
        let from = NodeIndex::new(next);
        next += 1;
        actions.clear();
        model.actions(&graph[from], &mut actions);
        for (i, action) in actions.drain(..).enumerate() {
            let Some(succ) = model.next_state(&graph[from], &action) else {
                continue;
            };
            let (to, _) = add(&mut graph, succ)?;
            graph.add_edge(from, to, (i, action));
        }
    }
    Ok(StateGraph { graph, initial })
}

/// Escapes a string for a double-quoted DOT ID or label: the one escape of every DOT written.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out
}

/// A double-quoted DOT ID, for graph names that are not plain identifiers.
pub fn quoted(s: &str) -> String {
    format!("\"{}\"", escape(s))
}

/// A directed graph being written in DOT syntax, one statement a line; nodes are `s<n>`.
///
/// Hand-written rather than petgraph's `Dot`: that one lays out node ids and attributes its own
/// way (every DOT file rbcheck writes would change) and draws only petgraph graphs, while a
/// counterexample trace is written as a plain path.
#[derive(Debug)]
pub struct DotWriter {
    out: String,
}

impl DotWriter {
    /// Opens `digraph <id> {` (`id` written as given: see [`quoted`]) with graph-wide statements
    /// such as `rankdir=TB` or `node [shape=box]`.
    pub fn new(id: &str, statements: &[&str]) -> DotWriter {
        let mut out = format!("digraph {id} {{\n");
        for s in statements {
            let _ = writeln!(out, "  {s};");
        }
        DotWriter { out }
    }

    /// Node `s<n>` with a label and further attributes (e.g. `peripheries=2`).
    pub fn node(&mut self, n: usize, label: &str, attrs: &[&str]) {
        let _ = write!(self.out, "  s{n} [label=\"{}\"", escape(label));
        for a in attrs {
            let _ = write!(self.out, ", {a}");
        }
        self.out.push_str("];\n");
    }

    /// An edge from `s<from>` to `s<to>` with a label.
    pub fn edge(&mut self, from: usize, to: usize, label: &str) {
        self.edge_with(from, to, label, &[]);
    }

    /// An edge from `s<from>` to `s<to>` with a label and further attributes (e.g.
    /// `style=dashed`).
    pub fn edge_with(&mut self, from: usize, to: usize, label: &str, attrs: &[&str]) {
        let _ = write!(self.out, "  s{from} -> s{to} [label=\"{}\"", escape(label));
        for a in attrs {
            let _ = write!(self.out, ", {a}");
        }
        self.out.push_str("];\n");
    }

    /// Closes the graph and returns the text.
    pub fn finish(mut self) -> String {
        self.out.push_str("}\n");
        self.out
    }
}

impl<M: Model> StateGraph<M> {
    /// Number of states.
    pub fn state_count(&self) -> usize {
        self.graph.node_count()
    }

    /// Number of transitions.
    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// The graph in DOT syntax; nodes labelled by `node_label`, edges by `Model::format_action`,
    /// initial states drawn with a double border.
    pub fn to_dot(&self, model: &M, node_label: impl Fn(&M::State) -> String) -> String {
        let mut dot = DotWriter::new("states", &["node [shape=box]"]);
        for n in self.graph.node_indices() {
            let initial: &[&str] = if self.initial.contains(&n) {
                &["peripheries=2"]
            } else {
                &[]
            };
            dot.node(n.index(), &node_label(&self.graph[n]), initial);
        }
        for e in self.graph.edge_references() {
            let label = model.format_action(&self.graph[e.source()], &e.weight().1);
            dot.edge(e.source().index(), e.target().index(), &label);
        }
        dot.finish()
    }

    /// [`StateGraph::to_dot`] with nodes labelled by their `Debug` form.
    pub fn to_dot_debug(&self, model: &M) -> String {
        self.to_dot(model, |s| format!("{s:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_escape_for_names_labels_and_edges() {
        let mut dot = DotWriter::new(&quoted("a \"b\""), &["rankdir=TB"]);
        dot.node(0, "x\\y\nz", &["peripheries=2"]);
        dot.edge(0, 1, "say \"hi\"");
        assert_eq!(
            dot.finish(),
            "digraph \"a \\\"b\\\"\" {\n  rankdir=TB;\n  s0 [label=\"x\\\\y\\nz\", peripheries=2];\n  s0 -> s1 [label=\"say \\\"hi\\\"\"];\n}\n"
        );
    }
}
