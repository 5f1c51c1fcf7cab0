//! `DumpOptions`: how a value is written (PyYAML `yaml.dump` keyword arguments plus our fixes).

/// Options for [`super::dump`].
///
/// The fields mirror `yaml.dump(..., Dumper=yaml.SafeDumper)` keyword
/// arguments; `escape_next_line` and `tuples_as_pairs` are our own
/// round-trip fixes (PyYAML has no such switches).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpOptions {
    /// Indentation step, 2..=9 (PyYAML ignores other values and uses 2).
    pub indent: usize,
    /// Preferred line width for folding scalars (PyYAML's `width`; values
    /// not above `2 * indent` mean 80).
    pub width: usize,
    /// Sort mapping keys with Python's `sorted` (insertion order when Python
    /// would raise `TypeError`).
    pub sort_keys: bool,
    /// Write printable non-ASCII characters as they are instead of escaping
    /// them in double quotes.
    pub allow_unicode: bool,
    /// Start the document with `---`.
    pub explicit_start: bool,
    /// End the document with `...`.
    pub explicit_end: bool,
    /// Escape U+0085 (NEL) as `\N` even with `allow_unicode`. PyYAML writes it
    /// raw in single quotes, and its own loader then reads it back as a line
    /// break (a space or `\n`), so the value changes.
    pub escape_next_line: bool,
    /// Write a non-empty list whose items are all 2-tuples (what `!!omap` and
    /// `!!pairs` load to) as `!!pairs`, so it loads back as tuples. PyYAML
    /// writes tuples as plain lists, which load back as lists.
    pub tuples_as_pairs: bool,
    /// Deepest nesting of collections accepted (a clean error beyond).
    pub max_depth: usize,
    /// Largest output accepted, in bytes (a clean error beyond).
    pub max_output_bytes: usize,
}

impl DumpOptions {
    /// What cloud-init's `safeyaml.dumps(obj)` writes: `yaml.dump(obj,
    /// line_break="\n", indent=4, explicit_start=True, explicit_end=True,
    /// default_flow_style=False, Dumper=yaml.SafeDumper)`, byte for byte.
    pub fn cloud_init() -> DumpOptions {
        DumpOptions {
            indent: 4,
            width: 80,
            sort_keys: true,
            allow_unicode: false,
            explicit_start: true,
            explicit_end: true,
            escape_next_line: false,
            tuples_as_pairs: false,
            ..DumpOptions::limits()
        }
    }

    /// Our readable style: `yaml.dump(obj, indent=2, sort_keys=False,
    /// allow_unicode=True, default_flow_style=False, Dumper=yaml.SafeDumper)`
    /// plus the two round-trip fixes, so that `yaml.safe_load` of the output
    /// equals the input for every value the loader produces.
    pub fn readable() -> DumpOptions {
        DumpOptions {
            indent: 2,
            width: 80,
            sort_keys: false,
            allow_unicode: true,
            explicit_start: false,
            explicit_end: false,
            escape_next_line: true,
            tuples_as_pairs: true,
            ..DumpOptions::limits()
        }
    }

    fn limits() -> DumpOptions {
        DumpOptions {
            indent: 2,
            width: 80,
            sort_keys: false,
            allow_unicode: false,
            explicit_start: false,
            explicit_end: false,
            escape_next_line: false,
            tuples_as_pairs: false,
            max_depth: 10_000,
            max_output_bytes: 1 << 30,
        }
    }

    /// The indentation step PyYAML actually uses.
    pub(super) fn best_indent(&self) -> usize {
        if (2..10).contains(&self.indent) {
            self.indent
        } else {
            2
        }
    }

    /// The folding width PyYAML actually uses.
    pub(super) fn best_width(&self) -> usize {
        if self.width > self.best_indent() * 2 {
            self.width
        } else {
            80
        }
    }
}

impl Default for DumpOptions {
    /// [`DumpOptions::readable`].
    fn default() -> Self {
        DumpOptions::readable()
    }
}
