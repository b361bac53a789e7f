//! The human report of `rbcheck diff`: the rulebooks, the bound, each class of difference with
//! its example cases and the fields that explain it.

use super::*;

impl DiffReport {
    /// The human report.
    pub fn human(&self) -> String {
        let (a, b) = (&self.a, &self.b);
        let mut o = format!(
            "rbcheck diff: {a} -> {b} | bound {} ({} scenarios)\n",
            self.bound, self.scenarios
        );
        if self.fields.is_empty() {
            o.push_str("the rulebooks have the same fields\n");
        } else {
            o.push_str(&format!(
                "fields that differ: {}\n",
                explain_fields(&self.fields)
            ));
        }
        if let Some(a) = &self.auto {
            let chosen: Vec<String> = a
                .chosen
                .iter()
                .map(|c| format!("{} from {}", c.scenarios, c.preset))
                .collect();
            o.push_str(&format!(
                "bound auto: {}; chosen: {}\n",
                a.why,
                if chosen.is_empty() {
                    "none".to_string()
                } else {
                    chosen.join(", ")
                }
            ));
        }
        for line in self.exercised.lines(self.scenarios) {
            o.push_str(&format!("  {line}\n"));
        }
        if self.classes.is_empty() {
            match self.verdict {
                "not_exercised" => {
                    let names: Vec<&str> = self
                        .exercised
                        .unexercised()
                        .iter()
                        .map(|f| f.field.as_str())
                        .collect();
                    o.push_str(&format!(
                        "NOT EXERCISED: no observable difference seen, but {} decide{} no step in this bound\n",
                        names.join(", "),
                        if names.len() == 1 { "s" } else { "" }
                    ));
                }
                _ => o.push_str("no observable difference in this bound\n"),
            }
            return o;
        }
        o.push_str(&format!(
            "{} class(es) of observable difference:\n",
            self.classes.len()
        ));
        for (n, c) in self.classes.iter().enumerate() {
            o.push_str(&format!(
                "{:>3}. {}\n     {} scenario(s), {}{} decision sequence(s); explained by {}\n",
                n + 1,
                c.what,
                c.scenarios,
                if c.sequences_at_least {
                    "at least "
                } else {
                    ""
                },
                c.sequences,
                explain_fields(&c.explained_by)
            ));
            if !c.cases.is_empty() {
                let dir = self
                    .out
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                o.push_str(&format!(
                    "     smallest example: {dir}/{} and {dir}/{}\n",
                    c.cases[0], c.cases[1]
                ));
            }
        }
        o
    }
}
