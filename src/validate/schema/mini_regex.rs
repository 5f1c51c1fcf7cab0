//! `MiniRegex`: the small regular-expression subset cloud-init's schema patterns use, searched the way Python's `re.search` does.

/// One parsed pattern: literals, `.`, classes (`[a-z_]`, `[^,]`, `\d\w\s`), groups
/// with `|`, the quantifiers `* + ? {n} {n,} {n,m}` and the anchors `^ $`.
///
/// Matching backtracks with a step budget (100,000 steps per search) and recursion
/// that grows with the subject, so subjects over 512 characters are not checked: a
/// pathological or long subject counts as a match. A check can be wrong in the lenient
/// direction but never slow, and never deep.
#[derive(Clone, Debug)]
pub struct MiniRegex {
    alt: Alt,
}

type Alt = Vec<Vec<Piece>>;

#[derive(Clone, Debug)]
struct Piece {
    atom: Atom,
    min: usize,
    max: usize,
}

#[derive(Clone, Debug)]
enum Atom {
    Char(char),
    Any,
    Class(Vec<(char, char)>, bool),
    Group(Alt),
    Start,
    End,
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
}

fn escape_class(c: char) -> Option<Vec<(char, char)>> {
    Some(match c {
        'd' => vec![('0', '9')],
        'w' => vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')],
        's' => vec![(' ', ' '), ('\t', '\r')],
        _ => return None,
    })
}

impl Parser<'_> {
    fn alt(&mut self, depth: usize) -> Option<Alt> {
        if depth > 50 {
            return None;
        }
        let mut alt = vec![Vec::new()];
        while let Some(&c) = self.chars.peek() {
            match c {
                ')' => break,
                '|' => {
                    self.chars.next();
                    alt.push(Vec::new());
                }
                _ => {
                    let atom = self.atom(depth)?;
                    let (min, max) = self.quantifier()?;
                    alt.last_mut()?.push(Piece { atom, min, max });
                }
            }
        }
        Some(alt)
    }

    fn atom(&mut self, depth: usize) -> Option<Atom> {
        Some(match self.chars.next()? {
            '.' => Atom::Any,
            '^' => Atom::Start,
            '$' => Atom::End,
            '(' => {
                if self.chars.peek() == Some(&'?') {
                    // Only `(?:` is supported.
                    self.chars.next();
                    if self.chars.next()? != ':' {
                        return None;
                    }
                }
                let inner = self.alt(depth + 1)?;
                if self.chars.next()? != ')' {
                    return None;
                }
                Atom::Group(inner)
            }
            '[' => self.class()?,
            '\\' => {
                let c = self.chars.next()?;
                match escape_class(c) {
                    Some(ranges) => Atom::Class(ranges, false),
                    None => Atom::Char(match c {
                        'n' => '\n',
                        't' => '\t',
                        c => c,
                    }),
                }
            }
            c => Atom::Char(c),
        })
    }

    fn class(&mut self) -> Option<Atom> {
        let mut ranges = Vec::new();
        let negated = self.chars.peek() == Some(&'^');
        if negated {
            self.chars.next();
        }
        let mut first = true;
        loop {
            let c = self.chars.next()?;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' {
                let e = self.chars.next()?;
                if let Some(r) = escape_class(e) {
                    ranges.extend(r);
                    continue;
                }
                e
            } else {
                c
            };
            let mut look = self.chars.clone();
            if look.next() == Some('-') && look.peek().is_some_and(|n| *n != ']') {
                self.chars.next();
                let mut hi = self.chars.next()?;
                if hi == '\\' {
                    hi = self.chars.next()?;
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Some(Atom::Class(ranges, negated))
    }

    fn number(&mut self) -> Option<usize> {
        let mut n: Option<usize> = None;
        while let Some(d) = self.chars.peek().and_then(|c| c.to_digit(10)) {
            self.chars.next();
            n = Some(
                n.unwrap_or(0)
                    .checked_mul(10)?
                    .checked_add(d as usize)?
                    .min(1000),
            );
        }
        n
    }

    fn quantifier(&mut self) -> Option<(usize, usize)> {
        let q = match self.chars.peek() {
            Some('*') => (0, usize::MAX),
            Some('+') => (1, usize::MAX),
            Some('?') => (0, 1),
            Some('{') => {
                self.chars.next();
                let min = self.number()?;
                let max = if self.chars.peek() == Some(&',') {
                    self.chars.next();
                    self.number().unwrap_or(usize::MAX)
                } else {
                    min
                };
                if self.chars.next()? != '}' {
                    return None;
                }
                return Some((min, max));
            }
            _ => return Some((1, 1)),
        };
        self.chars.next();
        Some(q)
    }
}

impl MiniRegex {
    /// Parse `pattern`; `None` if it uses syntax outside the subset.
    pub fn new(pattern: &str) -> Option<MiniRegex> {
        let mut p = Parser {
            chars: pattern.chars().peekable(),
        };
        let alt = p.alt(0)?;
        if p.chars.next().is_some() {
            return None;
        }
        Some(MiniRegex { alt })
    }

    /// Python's `re.search(pattern, subject) is not None`.
    pub fn is_match(&self, subject: &str) -> bool {
        let s: Vec<char> = subject.chars().take(513).collect();
        if s.len() > 512 {
            return true;
        }
        let mut budget = 100_000usize;
        for start in 0..=s.len() {
            match m_alt(&self.alt, &s, start, &mut budget, &mut |_, _| true) {
                Some(true) => return true,
                Some(false) => {}
                None => return true,
            }
        }
        false
    }
}

type Cont<'c> = dyn FnMut(usize, &mut usize) -> bool + 'c;

/// `Some(matched)`, or `None` when the budget ran out.
fn m_alt(alt: &Alt, s: &[char], at: usize, budget: &mut usize, k: &mut Cont<'_>) -> Option<bool> {
    for seq in alt {
        if m_seq(seq, s, at, budget, k)? {
            return Some(true);
        }
    }
    Some(false)
}

fn m_seq(
    seq: &[Piece],
    s: &[char],
    at: usize,
    budget: &mut usize,
    k: &mut Cont<'_>,
) -> Option<bool> {
    *budget = budget.checked_sub(1)?;
    let Some((first, rest)) = seq.split_first() else {
        return Some(k(at, budget));
    };
    m_piece(first, 0, s, at, budget, &mut |pos, b| {
        m_seq(rest, s, pos, b, k).unwrap_or(true)
    })
}

/// Greedy repetition of `p`, having matched it `count` times already.
fn m_piece(
    p: &Piece,
    count: usize,
    s: &[char],
    at: usize,
    budget: &mut usize,
    k: &mut Cont<'_>,
) -> Option<bool> {
    *budget = budget.checked_sub(1)?;
    if count < p.max {
        let r = m_atom(&p.atom, s, at, budget, &mut |pos, b| {
            // An optional zero-width repetition would loop forever: stop repeating
            // (required ones — anchors, empty groups — are bounded by `min`).
            (pos != at || count < p.min) && m_piece(p, count + 1, s, pos, b, k).unwrap_or(true)
        })?;
        if r {
            return Some(true);
        }
    }
    if count >= p.min {
        return Some(k(at, budget));
    }
    Some(false)
}

fn m_atom(a: &Atom, s: &[char], at: usize, budget: &mut usize, k: &mut Cont<'_>) -> Option<bool> {
    let one = |ok: bool| ok.then_some(at + 1);
    let next = match a {
        Atom::Char(c) => one(s.get(at) == Some(c)),
        Atom::Any => one(s.get(at).is_some_and(|c| *c != '\n')),
        Atom::Class(ranges, neg) => one(s
            .get(at)
            .is_some_and(|c| ranges.iter().any(|(lo, hi)| lo <= c && c <= hi) != *neg)),
        Atom::Start => return Some(at == 0 && k(at, budget)),
        Atom::End => {
            // Python's `$` also matches before a final newline.
            let end = at == s.len() || (at + 1 == s.len() && s.get(at) == Some(&'\n'));
            return Some(end && k(at, budget));
        }
        Atom::Group(alt) => return m_alt(alt, s, at, budget, k),
    };
    Some(next.is_some_and(|n| k(n, budget)))
}

#[cfg(test)]
mod tests {
    use super::MiniRegex;

    fn m(p: &str, s: &str) -> bool {
        MiniRegex::new(p).unwrap().is_match(s)
    }

    #[test]
    fn cloud_init_patterns() {
        assert!(m(r"^\+?[0-9]+$", "+42"));
        assert!(!m(r"^\+?[0-9]+$", "4x"));
        assert!(m(r"^.+:.+$", "a:b"));
        assert!(!m(r"^.+:.+$", ":b"));
        assert!(m(
            r"^(ecdsa|ed25519|rsa)_(public|private|certificate)$",
            "rsa_private"
        ));
        assert!(!m(
            r"^(ecdsa|ed25519|rsa)_(public|private|certificate)$",
            "dsa_private"
        ));
        assert!(m(r"^[0-9a-zA-Z -_]+$", "ab ,9"));
        assert!(m(r"^[-_0-9a-zA-Z]+(,[-_0-9a-zA-Z]+)*$", "a,b-c,d_e"));
        assert!(!m(r"^[-_0-9a-zA-Z]+(,[-_0-9a-zA-Z]+)*$", "a,,b"));
        assert!(m(r"^([0-9]+)?\.?[0-9]+[BKMGT]$", "1.5G"));
        assert!(m(r"^([0-9]+)?\.?[0-9]+[BKMGT]$", "512M"));
        assert!(!m(r"^([0-9]+)?\.?[0-9]+[BKMGT]$", "1.5"));
        assert!(m(r"^.*$", ""));
        assert!(m(r"^[0-9a-zA-Z_]+$", "abc\n"));
        assert!(m("b", "abc"));
        assert!(!m("^(a|b)+$", &"ab".repeat(10).replace('b', "c")));
        assert!(m("^(a|b)+$", &"ab".repeat(10)));
        assert!(m("x{2,3}", "axxb"));
        assert!(!m("^x{2,3}$", "xxxx"));
        assert!(m("[^,]+", "a"));
        // Hostile subjects stay fast.
        let long = "a".repeat(5000);
        let _ = m("^(a+)+$", &(long + "!"));
    }
}
