//! The explicit state graph of a small model, for inspection and DOT (Graphviz) output.
//!
//! The search itself never stores edges; this module does, so it is meant for models (or
//! bounded slices of them) small enough to draw. States are deduplicated with
//! `Model::fingerprint`, as in the search.

use crate::error::CheckError;
use crate::fingerprint::FpBuildHasher;
use crate::model::Model;
use std::collections::HashMap;
use std::fmt::Write as _;

/// One transition of a [`StateGraph`]: from state `from` to state `to` (indices into
/// [`StateGraph::states`]) by the `index`-th enabled action of `from`.
#[derive(Clone, Debug)]
pub struct Edge<A> {
    /// The source state's index.
    pub from: usize,
    /// The target state's index.
    pub to: usize,
    /// The action's index among the source state's enabled actions.
    pub index: usize,
    /// The action.
    pub action: A,
}

/// A state graph: every reachable state once, and every transition between them.
pub struct StateGraph<M: Model> {
    /// The states, in breadth-first discovery order.
    pub states: Vec<M::State>,
    /// The transitions, grouped by source state in discovery order.
    pub edges: Vec<Edge<M::Action>>,
    /// The distinct initial states' indices.
    pub initial: Vec<usize>,
}

impl<M: Model> std::fmt::Debug for StateGraph<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StateGraph")
            .field("states", &self.states.len())
            .field("edges", &self.edges.len())
            .finish()
    }
}

/// Explores every reachable state breadth-first; fails if there are more than `max_states`.
pub fn explore<M: Model>(model: &M, max_states: usize) -> Result<StateGraph<M>, CheckError> {
    let mut states: Vec<M::State> = Vec::new();
    let mut edges = Vec::new();
    let mut index: HashMap<u64, usize, FpBuildHasher> = HashMap::default();
    let mut initial = Vec::new();
    let mut add = |states: &mut Vec<M::State>, s: M::State| -> Result<(usize, bool), CheckError> {
        let fp = model.fingerprint(&s);
        if let Some(&n) = index.get(&fp) {
            return Ok((n, false));
        }
        if states.len() >= max_states {
            return Err(CheckError::GraphTooLarge { limit: max_states });
        }
        states.push(s);
        index.insert(fp, states.len() - 1);
        Ok((states.len() - 1, true))
    };
    let inits = model.init_states();
    if inits.is_empty() {
        return Err(CheckError::NoInitialStates);
    }
    for s in inits {
        let (n, new) = add(&mut states, s)?;
        if new {
            initial.push(n);
        }
    }
    // States are appended in discovery order, so the state list is the BFS queue.
    let mut actions = Vec::new();
    let mut from = 0;
    while from < states.len() {
        actions.clear();
        model.actions(&states[from], &mut actions);
        for (i, action) in actions.drain(..).enumerate() {
            let Some(succ) = model.next_state(&states[from], &action) else {
                continue;
            };
            let (to, _) = add(&mut states, succ)?;
            edges.push(Edge {
                from,
                to,
                index: i,
                action,
            });
        }
        from += 1;
    }
    Ok(StateGraph {
        states,
        edges,
        initial,
    })
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
/// One writer for every DOT file: the state graph and a counterexample trace (a plain path) are
/// laid out and escaped alike.
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
        self.states.len()
    }

    /// Number of transitions.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// The graph in DOT syntax; nodes labelled by `node_label`, edges by `Model::format_action`,
    /// initial states drawn with a double border.
    pub fn to_dot(&self, model: &M, node_label: impl Fn(&M::State) -> String) -> String {
        let mut dot = DotWriter::new("states", &["node [shape=box]"]);
        for (n, s) in self.states.iter().enumerate() {
            let initial: &[&str] = if self.initial.contains(&n) {
                &["peripheries=2"]
            } else {
                &[]
            };
            dot.node(n, &node_label(s), initial);
        }
        for e in &self.edges {
            let label = model.format_action(&self.states[e.from], &e.action);
            dot.edge(e.from, e.to, &label);
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
