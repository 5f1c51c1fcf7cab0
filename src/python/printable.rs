//! `py_is_printable`: Python's `str.isprintable()` for one code point (what `repr` leaves unescaped).

use super::code_point_ranges::range_of;
use super::printable_table::NON_PRINTABLE;

/// CPython 3.11's `_PyUnicode_IsPrintable`: every code point but categories
/// Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other than the space (so unassigned ones
/// such as U+0378 are not printable). Surrogates are allowed as `u32`.
pub(crate) fn py_is_printable(cp: u32) -> bool {
    if cp < 0x80 {
        return (0x20..0x7F).contains(&cp);
    }
    range_of(NON_PRINTABLE, cp).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_follows_cpython_3_11() {
        assert!(py_is_printable(u32::from('é')));
        assert!(py_is_printable(0x20));
        for cp in [
            0x0, 0x7F, 0xA0, 0xAD, 0x378, 0x2028, 0xD800, 0xE000, 0xFFFF, 0x10_FFFF,
        ] {
            assert!(!py_is_printable(cp), "U+{cp:04X}");
        }
    }
}
