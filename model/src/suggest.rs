//! "Did you mean": the known word closest to one that is not known, for error messages about
//! a misspelt field, card, label or statement.

/// ` (did you mean `X`?)` for the known word most like `word` (Jaro-Winkler similarity above
/// 0.8, case ignored; the first of equals in `known`'s order), or nothing when none is close.
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let word = word.to_lowercase();
    let mut best: Option<(f64, &str)> = None;
    for k in known {
        let score = strsim::jaro_winkler(&word, &k.to_lowercase());
        if score > 0.8 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, k));
        }
    }
    match best {
        Some((_, k)) => format!(" (did you mean `{k}`?)"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn the_closest_known_word_is_suggested_and_a_far_one_is_not() {
        let known = ["payments_per_instance", "deflect", "new_choices"];
        assert_eq!(
            did_you_mean("payment_per_instance", known),
            " (did you mean `payments_per_instance`?)"
        );
        assert_eq!(did_you_mean("Deflct", known), " (did you mean `deflect`?)");
        assert_eq!(did_you_mean("zzz", known), "");
        assert_eq!(did_you_mean("anything", []), "");
    }
}
