//! Every `rbcheck` command line shown in a shell block of the README or docs/ names a command
//! and options that exist: each is parsed by the real binary (with `--help` appended, so that
//! nothing runs). A renamed flag or subcommand fails here instead of in a user's terminal.

use crate::shared::root;

/// The words of a shell command line: spaces split, quotes group (no escapes, no expansions).
fn words(line: &str) -> Vec<String> {
    let mut out = vec![];
    let mut word = String::new();
    let mut quote = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (_, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(word);
    }
    out
}

/// The `rbcheck` command lines of the shell blocks of one Markdown file, with their line
/// numbers: a trailing comment, a pipe and a redirection are cut off.
fn command_lines(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = vec![];
    let mut in_shell = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(lang) = t.strip_prefix("```") {
            in_shell = !in_shell && matches!(lang, "sh" | "bash" | "shell");
            continue;
        }
        if !in_shell || !t.starts_with("rbcheck ") {
            continue;
        }
        let mut cmd = t;
        for cut in [" #", " |", " >", " &&"] {
            if let Some(at) = cmd.find(cut) {
                cmd = &cmd[..at];
            }
        }
        out.push((i + 1, words(cmd)));
    }
    out
}

#[test]
fn every_documented_rbcheck_command_parses() {
    let mut files = vec![root().join("README.md")];
    for e in std::fs::read_dir(root().join("docs")).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "md") {
            files.push(e.path());
        }
    }
    let mut seen = 0;
    let mut bad = vec![];
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (line, args) in command_lines(&text) {
            // A synopsis (`[--seed N]`) and a line of shell variables (a cluster job's
            // `${SLURM_ARRAY_TASK_ID}`) are not command lines to run as written.
            if args
                .iter()
                .any(|a| a.starts_with('[') || a.contains('|') || a.contains('$'))
            {
                continue;
            }
            seen += 1;
            let o = crate::shared::command()
                .args(&args[1..])
                .arg("--help")
                .current_dir(root())
                .output()
                .unwrap();
            if o.status.code() != Some(0) {
                bad.push(format!(
                    "{}:{line}: {}: {}",
                    f.strip_prefix(root()).unwrap().display(),
                    args.join(" "),
                    String::from_utf8_lossy(&o.stderr)
                        .lines()
                        .next()
                        .unwrap_or("")
                ));
            }
        }
    }
    assert!(seen >= 10, "only {seen} command lines found");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn command_lines_are_read_as_a_shell_reads_them() {
    let text = "```sh\nrbcheck fuzz --engine \"python3 e.py --mutant x\" --cases 3   # note\nrbcheck bounds | head\n```\n```\nrbcheck not-shell\n```\n";
    let lines = command_lines(text);
    assert_eq!(
        lines,
        vec![
            (
                2,
                vec![
                    "rbcheck",
                    "fuzz",
                    "--engine",
                    "python3 e.py --mutant x",
                    "--cases",
                    "3"
                ]
                .into_iter()
                .map(String::from)
                .collect()
            ),
            (3, vec!["rbcheck".to_string(), "bounds".to_string()]),
        ]
    );
}
