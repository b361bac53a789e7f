#!/usr/bin/env bash
# Rewrites every folder of corpus/diffs with the current release build, each from the command its
# README.md names on its first line. A test (tests/suite/diff.rs) fails while a folder is stale.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
for d in corpus/diffs/*/; do
  [ -f "$d/README.md" ] || continue
  n=$(basename "$d")
  read -r a b <<<"$(head -1 "$d/README.md" | sed -E 's/^# `rbcheck diff ([^ ]+) ([^ ]+) --bound versions`$/\1 \2/')"
  # Written at the folder's own path (its README names the cases by it, and a case names its
  # rulebook by a path relative to itself); the old folder waits aside until the new one is
  # complete. Exit 1 means "the rulebooks differ", which is what these folders show.
  old="corpus/diffs/.$n.old"
  rm -rf "$old" && mv "$d" "$old"
  if "${CARGO_TARGET_DIR:-target}"/release/rbcheck diff "$a" "$b" --bound corpus/diffs/versions.toml --out "corpus/diffs/$n" --quiet >/dev/null || [ $? -eq 1 ]; then
    rm -rf "$old"
  else
    rm -rf "corpus/diffs/$n" && mv "$old" "corpus/diffs/$n"
    echo "rbcheck diff $a $b failed; corpus/diffs/$n left as it was" >&2
    exit 2
  fi
  echo "rewrote corpus/diffs/$n ($a -> $b)"
done
