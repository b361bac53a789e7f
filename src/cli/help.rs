//! The EXAMPLES and EXIT CODES sections of each command's `--help` (clap `after_help`). Every
//! command ends with them, so that a person can copy a working line and a script knows what
//! each exit code means; `tests/suite/cli.rs` checks that each command has both.

/// Said by every command: a closed stdout (e.g. `| head`) ends the command quietly.
macro_rules! closed_pipe {
    () => {
        "  141  stdout was closed before everything was written (e.g. `| head`)"
    };
}

/// `rbcheck check`.
pub const CHECK: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck check --bound tiny                      # seconds; every property holds\n",
    "  rbcheck check --rules my-edit.toml              # --bound auto: the scenarios the edit changes\n",
    "  rbcheck check --rules corpus/rulebooks/double-executions.toml --bound tiny --traces out/\n",
    "  rbcheck check --rules my-edit.toml --property one-play-event --counterexamples 3\n",
    "  rbcheck check --bound default --json --quiet > report.json\n",
    "  rbcheck check --bound large --memory 8G --progress-every 10\n",
    "  rbcheck check --bound large --json --progress-json > report.json 2> progress.jsonl\n",
    "  rbcheck check --bound default --shard 1/4 --parts parts/   # then: rbcheck merge parts/*\n",
    "\nEXIT CODES:\n",
    "  0    every property holds, every witness was reached and every field the rulebook\n",
    "       changes from its base decided a step somewhere (a partial run: no violation so far)\n",
    "  1    a property is violated, or the rulebook made a witness unreachable that its base\n",
    "       reaches: a counterexample (or the witness) is printed\n",
    "  2    bad input (rulebook, bound, flag, output folder), named with file:line\n",
    "  3    NOT EXERCISED: nothing is violated, but a changed field decided no step in the bound\n",
    "       (the report names presets that exercise it), or a witness was never reached\n",
    closed_pipe!()
);

/// `rbcheck merge`.
pub const MERGE: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck merge parts/part-*-of-4.json\n",
    "  rbcheck merge --json parts/*.json > report.json\n",
    "\nEXIT CODES:\n",
    "  0    every property holds\n",
    "  1    a property fails\n",
    "  2    a part file is missing, unreadable, or from another run\n",
    closed_pipe!()
);

/// `rbcheck rules`.
pub const RULES: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck rules\n",
    "  rbcheck rules --list | less\n",
    "  rbcheck rules --json\n",
    "\nEXIT CODES:\n",
    "  0    printed\n",
    "  2    bad flag\n",
    closed_pipe!()
);

/// `rbcheck bounds`.
pub const BOUNDS: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck bounds                      # every preset: purpose, contents, scenarios\n",
    "  rbcheck bounds multi                # one preset, its parts included\n",
    "  rbcheck bounds --states             # also count each preset's states (all but large)\n",
    "  rbcheck bounds tiny --toml > my-bound.toml   # edit it, then: rbcheck check --bound my-bound.toml\n",
    "  rbcheck bounds --json\n",
    "\nEXIT CODES:\n",
    "  0    printed\n",
    "  2    an unknown preset or a bad flag\n",
    closed_pipe!()
);

/// `rbcheck graph`.
pub const GRAPH: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck graph --bound tiny --scenario 3 > s3.dot && dot -Tsvg s3.dot > s3.svg\n",
    "  rbcheck graph --rules v1.3 --bound my-bound.toml --scenario 1 --max-states 200\n",
    "\nEXIT CODES:\n",
    "  0    the DOT graph was written to stdout\n",
    "  2    bad input: rulebook, bound, a scenario the bound lacks, or more states than --max-states\n",
    closed_pipe!()
);

/// `rbcheck cases`.
pub const CASES: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck cases --bound tiny --out suite/\n",
    "  rbcheck cases --rules v1.3 --bound default --out suite-v1.3/ --quiet\n",
    "  rbcheck cases --bound tiny --out suite/ --json --quiet\n",
    "\nEXIT CODES:\n",
    "  0    the suite was written\n",
    "  2    bad input (rulebook, bound, flag) or a folder that exists and is not empty\n",
    closed_pipe!()
);

/// `rbcheck diff`.
pub const DIFF: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck diff v1.3 rup4                           # --bound auto: where the two decide otherwise\n",
    "  rbcheck diff rup4 guide --bound default --out diffs/rup4-to-guide/\n",
    "  rbcheck diff rup4 corpus/rulebooks/replicate.toml --json --quiet\n",
    "\nEXIT CODES:\n",
    "  0    no observable difference, and every differing field decided a step in the bound\n",
    "  1    the rulebooks differ: one class per difference is printed\n",
    "  2    bad input (rulebook, bound, flag, output folder)\n",
    "  3    NOT EXERCISED: no difference seen, but a differing field decided no step in the\n",
    "       bound (the report names presets that exercise it)\n",
    closed_pipe!()
);

/// `rbcheck replay`.
pub const REPLAY: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck replay corpus/\n",
    "  rbcheck replay corpus/cases/academy-and-portal-grant-two-instances.case suite/\n",
    "  rbcheck replay --engine 'python3 tests/engines/reference_engine.py' corpus/cases\n",
    "\nEXIT CODES:\n",
    "  0    every case passed (with --engine: the engine agreed on every case compared)\n",
    "  1    some case's expectation does not hold (FAIL file:line); with --engine, the engine\n",
    "       differs from the model or faults on some case\n",
    "  2    some case file is invalid, or no .case file was found; with --engine, nothing\n",
    "       was compared\n",
    closed_pipe!()
);

/// `rbcheck fmt`.
pub const FMT: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck fmt my.case\n",
    "  rbcheck fmt --write corpus/cases/*.case\n",
    "\nEXIT CODES:\n",
    "  0    formatted (printed, or every file rewritten)\n",
    "  2    a file cannot be read or parsed (nothing is rewritten then)\n",
    closed_pipe!()
);

/// `rbcheck serve`.
pub const SERVE: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck fuzz --engine 'rbcheck serve' --cases 50   # the model against itself\n",
    "  rbcheck fuzz --engine 'rbcheck serve' --corpus corpus/cases\n",
    "\nEXIT CODES:\n",
    "  0    stdin ended\n",
    "  2    stdin or stdout failed\n",
    closed_pipe!()
);

/// `rbcheck fuzz`.
pub const FUZZ: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck fuzz --engine 'python3 tests/engines/reference_engine.py' --cases 1000 --out findings/\n",
    "  rbcheck fuzz --engine ./my-engine --time 600 --seed 7\n",
    "  rbcheck fuzz --engine ./my-engine --corpus corpus/cases\n",
    "  rbcheck fuzz --engine ./my-engine --score\n",
    "\nEXIT CODES:\n",
    "  0    no finding (score mode: every mutant caught, the engine clean)\n",
    "  1    findings: each one's minimal case is in --out\n",
    "  2    the engine could not be run, nothing was compared, or --out/--keep failed\n",
    closed_pipe!()
);

/// `rbcheck completions`.
pub const COMPLETIONS: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck completions bash > ~/.local/share/bash-completion/completions/rbcheck\n",
    "  rbcheck completions zsh > ~/.zfunc/_rbcheck\n",
    "  rbcheck completions fish > ~/.config/fish/completions/rbcheck.fish\n",
    "\nEXIT CODES:\n",
    "  0    the script was printed\n",
    "  2    an unknown shell\n",
    closed_pipe!()
);

/// `rbcheck man`.
pub const MAN: &str = concat!(
    "EXAMPLES:\n",
    "  rbcheck man | man -l -\n",
    "  rbcheck man fuzz | man -l -\n",
    "  rbcheck man > ~/.local/share/man/man1/rbcheck.1\n",
    "\nEXIT CODES:\n",
    "  0    the page was printed\n",
    "  2    no such command\n",
    closed_pipe!()
);
