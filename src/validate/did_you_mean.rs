//! `did_you_mean`: the closest known word to a misspelt one (edit distance).

/// The candidate closest to `word`, if it is close enough to be a typo
/// (distance at most 1 for short words, 2 for six characters or more, 3 from ten).
pub fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let max = match word.chars().count() {
        0..=5 => 1,
        6..=9 => 2,
        _ => 3,
    };
    candidates
        .iter()
        .map(|c| (distance(word, c), *c))
        .filter(|(d, _)| *d <= max)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over characters, with adjacent transpositions counting one
/// (`rplace` and `repalce` are both one edit from `replace`). Inputs are short option
/// names; longer inputs are cut at 64 characters so the cost stays bounded.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().take(64).collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (i, row) in d.chunks_mut(w).enumerate() {
        if let Some(first) = row.first_mut() {
            *first = i;
        }
    }
    for (j, cell) in d.iter_mut().take(w).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a.get(i - 1) != b.get(j - 1));
            let at = |d: &[usize], i: usize, j: usize| {
                d.get(i * w + j).copied().unwrap_or(usize::MAX / 2)
            };
            let mut best = (at(&d, i - 1, j) + 1)
                .min(at(&d, i, j - 1) + 1)
                .min(at(&d, i - 1, j - 1) + cost);
            if i > 1 && j > 1 && a.get(i - 1) == b.get(j - 2) && a.get(i - 2) == b.get(j - 1) {
                best = best.min(at(&d, i - 2, j - 2) + 1);
            }
            if let Some(c) = d.get_mut(i * w + j) {
                *c = best;
            }
        }
    }
    d.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn typos() {
        let opts = ["append", "prepend", "replace", "no_replace", "recurse_list"];
        assert_eq!(did_you_mean("apend", &opts), Some("append"));
        assert_eq!(did_you_mean("repalce", &opts), Some("replace"));
        assert_eq!(did_you_mean("recurse_lists", &opts), Some("recurse_list"));
        assert_eq!(did_you_mean("noreplace", &opts), Some("no_replace"));
        assert_eq!(did_you_mean("zzz", &opts), None);
        assert_eq!(
            did_you_mean("lists", &["dict", "list", "str"]),
            Some("list")
        );
    }
}
