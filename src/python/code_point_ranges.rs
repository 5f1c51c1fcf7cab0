//! `range_of`: the lookup every generated code-point table uses (sorted, inclusive, disjoint ranges).

/// The range of `ranges` (sorted, inclusive, disjoint) that holds `cp`.
pub(crate) fn range_of(ranges: &[(u32, u32)], cp: u32) -> Option<(u32, u32)> {
    let i = ranges.partition_point(|r| r.0 <= cp).checked_sub(1)?;
    ranges.get(i).copied().filter(|&(_, hi)| cp <= hi)
}

#[cfg(test)]
mod tests {
    use super::range_of;

    #[test]
    fn finds_the_holding_range_or_none() {
        let r = [(2, 4), (10, 10), (20, 30)];
        let got: Vec<_> = [0, 2, 4, 5, 10, 11, 20, 30, 31]
            .iter()
            .map(|&cp| range_of(&r, cp))
            .collect();
        assert_eq!(
            got,
            [
                None,
                Some((2, 4)),
                Some((2, 4)),
                None,
                Some((10, 10)),
                None,
                Some((20, 30)),
                Some((20, 30)),
                None
            ]
        );
        assert_eq!(range_of(&[], 7), None);
    }
}
