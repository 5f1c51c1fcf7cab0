//! Random jinja user-data and instance data for the differential against cloud-init (tests/oracle/jinja_differential.rs).
//!
//! Instance data: operator keys (`a-b`, `x.y`, `k(1)`, `a//b`, `a--b`, `v1.0`, non-ASCII),
//! alias collisions (`a-b`, `a//b` and `a_b`), `v1`/`v2`/`v10` dicts at several depths
//! (promotion), ints, floats (`1e16`, `1e-05`, `-0.0`, `5e-324`), strings with quotes,
//! `<>&'`, non-ASCII and non-BMP, bools, null, lists. Templates: variables at every depth
//! (attribute, item, alias, promoted), missing ones of each kind, every Jinja2 filter and
//! test (the operator-named tests through `select`), the globals, conditionals, loops,
//! macros, `set`, `do`, whitespace control, syntax errors, tojson of odd values, floats,
//! non-ASCII, Python literals and methods. Left out: `lipsum()` and the `random` filter
//! (their output is random in cloud-init too), and printing a bound method (`x.items`) or
//! a cycler/joiner object (its repr holds a memory address).

use super::rng::Rng;

const KEYS: &[&str] = &[
    "name", "region", "a-b", "x.y", "k(1)", "foo_bar", "é", "v1", "v2", "lst", "n", "f", "s",
    "items", "Upper", "zone", "a_b", "_", "1x", "b64", "a//b", "a--b", "v1.0", "a~b", "é-x",
    "ключ", "a b", "a[0]", "v10",
];

/// The names jinja's operator regex makes of KEYS' operator keys (one `_` per maximal
/// operator token: `a//b` and `a-b` both alias to `a_b`), and other spellings of them.
const ALIASES: &[&str] = &[
    "a_b", "x_y", "k_1_", "a__b", "v1_0", "é_x", "a_0_", "foo_bar", "ключ",
];

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn scalar(r: &mut Rng) -> String {
    match r.below(14) {
        0 => r.below(1000).to_string(),
        1 => format!("-{}", r.below(50)),
        2 => r
            .pick(&[
                "1.5",
                "1e16",
                "1e-5",
                "0.1",
                "-0.0",
                "2.5e300",
                "100.0",
                "3.14159",
                "1e22",
                "123456789012345678.0",
                "5e-324",
                "0.000123",
                "2.675",
                "1.7976931348623157e308",
            ])
            .to_string(),
        3 => "true".into(),
        4 => "false".into(),
        5 => "null".into(),
        6 => "123456789012345678901234567890".into(),
        7 => json_str(r.pick::<&str>(&[
            "eu-west-1",
            "Hello World",
            "ÉTÉ café",
            "<x>&'\"",
            "a b  c",
            "",
            "UPPER",
            "it's",
            "tab\there",
            "line\nbreak",
            "Straße",
            "日本語",
            "😀 x",
            "\u{a0}nbsp\u{a0}",
            "ǆemal",
            "İx",
            "<b>bold</b> &amp; http://example.com/a?b=1",
        ])),
        _ => json_str(r.pick::<&str>(&[
            "web-01",
            "i-0abc",
            "us-east-1a",
            "ubuntu",
            "x",
            "Mixed Case",
            "3",
            "7.5",
            "1e500",
            "0x1F",
        ])),
    }
}

fn json_value(r: &mut Rng, depth: usize) -> String {
    if depth >= 3 {
        return scalar(r);
    }
    match r.below(10) {
        0..=1 => json_obj(r, depth + 1),
        2 => {
            let n = r.below(4);
            let items: Vec<String> = (0..n)
                .map(|_| {
                    if r.chance(20) {
                        json_obj(r, depth + 2)
                    } else {
                        scalar(r)
                    }
                })
                .collect();
            format!("[{}]", items.join(", "))
        }
        _ => scalar(r),
    }
}

fn json_obj(r: &mut Rng, depth: usize) -> String {
    let n = 1 + r.below(5);
    let mut parts = Vec::new();
    for _ in 0..n {
        let k = *r.pick(KEYS);
        let v = if k.starts_with('v') && k.len() == 2 {
            json_obj(r, depth + 1)
        } else if k == "lst" {
            format!("[{}, {}, {}]", scalar(r), scalar(r), r.below(9))
        } else {
            json_value(r, depth)
        };
        parts.push(format!("{}: {v}", json_str(k)));
    }
    format!("{{{}}}", parts.join(", "))
}

/// Instance data: a JSON object (sometimes with `base64-encoded-keys`).
pub(crate) fn instance_data(r: &mut Rng) -> String {
    let mut top = vec![
        format!("\"v1\": {}", json_obj(r, 1)),
        format!(
            "\"ds\": {{\"meta_data\": {}, \"meta-data\": {}}}",
            json_obj(r, 1),
            json_obj(r, 2)
        ),
    ];
    for _ in 0..r.below(5) {
        let k = *r.pick(KEYS);
        top.push(format!("{}: {}", json_str(k), json_value(r, 0)));
    }
    if r.chance(5) {
        top.push("\"base64-encoded-keys\": [\"b64\"]".into());
        top.push("\"b64\": \"aGVsbG8=\"".into());
    }
    format!("{{{}}}", top.join(", "))
}

/// A key of KEYS to look up, never `items`: on a dict without that key, `x.items` and
/// `x['items']` are the bound method, which Python prints with its memory address.
fn lookup_key(r: &mut Rng) -> &'static str {
    match *r.pick(KEYS) {
        "items" => "name",
        k => k,
    }
}

fn var(r: &mut Rng) -> String {
    let roots = [
        "v1",
        "ds",
        "ds.meta_data",
        "ds['meta-data']",
        "ds.meta_data",
        "v1.v2",
        "ds.meta_data.v2",
    ];
    match r.below(14) {
        0 => r.pick(KEYS).replace(['-', '.', '(', ')'], "_"),
        12 => format!("{}.{}", r.pick(&roots), r.pick(ALIASES)),
        13 => r
            .pick(&[
                "v1.v2.v1",
                "v1.v2.name",
                "ds.meta_data.v2.v1",
                "ds.meta_data.v1.n",
                "v1.v1.v1",
                "v10",
                "v1.lst[0]",
                "v1.lst[-1]",
                "ds['meta-data'].v1",
                "v1.name[0]",
                "v1.n.missing",
                "v1.s.missing",
                "v1.lst.missing",
                "v1['missing']",
                "missing[0]",
                "ds.meta_data['a-b']",
            ])
            .to_string(),
        1 => format!(
            "{}.{}",
            r.pick(&roots),
            lookup_key(r).replace(['-', '.', '(', ')'], "_")
        ),
        2 => format!("{}[{}]", r.pick(&roots), json_str(lookup_key(r))),
        3 => format!("{}.lst[{}]", r.pick(&roots), r.below(5)),
        4 => r
            .pick(&[
                "missing",
                "v1.missing",
                "v1.lst[7]",
                "ds.meta_data.nope",
                "ds['nope']",
                "region",
                "name",
                "cloud_name",
            ])
            .to_string(),
        5 => r
            .pick(&["v1", "ds.meta_data", "v1.lst", "lst", "n", "f", "s"])
            .to_string(),
        6 => r
            .pick(&["missing.attr", "missing['x']", "v1.missing.deeper"])
            .to_string(),
        _ => r
            .pick(&[
                "name",
                "region",
                "zone",
                "n",
                "f",
                "s",
                "v1.name",
                "v1.n",
                "v1.f",
                "v1.s",
                "ds.meta_data.region",
                "foo_bar",
                "a_b",
                "x_y",
                "k_1_",
            ])
            .to_string(),
    }
}

const FILTERS: &[&str] = &[
    "default('d')",
    "d('x', true)",
    "upper",
    "lower",
    "length",
    "count",
    "tojson",
    "int",
    "float",
    "string",
    "first",
    "last",
    "join(',')",
    "list",
    "sort",
    "unique|list",
    "replace('e','E')",
    "trim",
    "title",
    "capitalize",
    "center(9)",
    "abs",
    "round(1)",
    "round",
    "dictsort",
    "items|list",
    "map('upper')|list",
    "select('odd')|list",
    "reject('none')|list",
    "batch(2)|list",
    "slice(2)|list",
    "sum",
    "min",
    "max",
    "reverse|list",
    "wordcount",
    "truncate(6, true)",
    "indent(2)",
    "e",
    "escape",
    "forceescape",
    "safe",
    "int(7)",
    "float(1.5)",
    "default",
    "list|length",
    "sort(reverse=true)",
    "map(attribute='name')|list",
    "selectattr('n')|list",
    "rejectattr('n', 'none')|list",
    "xmlattr",
    "filesizeformat",
    "filesizeformat(true)",
    "urlencode",
    "attr('name')",
    "pprint",
    "format",
    "trim('x')",
    "tojson|length",
    "string|upper",
    "dictsort(true, 'value')",
    "unique(attribute='n')|list",
    "first|default('e')",
    "join('-', attribute='n')",
    "groupby('n')|list",
    "striptags",
    "urlize",
    "wordwrap(5)",
    "wordwrap(10, true, '|')",
    "select('==', 3)|list",
    "select('!=', 'x')|list",
    "select('>', 1)|list",
    "reject('<=', 2)|list",
    "select('<', 5)|list",
    "select('>=', 0)|list",
    "select('sameas', none)|list",
    "select('in', [1, 'x'])|list",
    "selectattr('n', 'gt', 1)|list",
    "indent(2, true)",
    "indent(first=true, blank=true)",
    "replace('a', 'b', 1)",
    "round(2, 'floor')",
    "round(1, 'ceil')",
    "sum(start=1)",
    "sum(attribute='n')",
    "min(attribute='n')",
    "dictsort(by='value')",
    "tojson(indent=2)",
    "map('int')|list",
    "map('default', 'x')|list",
    "batch(2, 'fill')|list",
    "slice(3, 0)|list",
    "unique(case_sensitive=true)|list",
    "sort(attribute='n')",
    "truncate(5)",
    "center",
    "int(base=16)",
];

const TESTS: &[&str] = &[
    "defined",
    "undefined",
    "none",
    "string",
    "number",
    "mapping",
    "iterable",
    "sequence",
    "boolean",
    "integer",
    "float",
    "true",
    "false",
    "odd",
    "even",
    "divisibleby(3)",
    "lower",
    "upper",
    "escaped",
    "callable",
    "in ['a', 'web-01', 1]",
    "eq 3",
    "ne 'x'",
    "gt 2",
    "lt 5",
    "ge 1",
    "le 0",
    "sameas none",
    "filter",
    "test",
    "greaterthan 1",
    "lessthan 9",
    "equalto 'x'",
    "eq(none)",
    "in v1",
    "sameas true",
];

/// Literal snippets, one family per entry: globals, loops, `do`, whitespace control,
/// missing values of each kind, tojson of odd values, floats, non-ASCII, syntax errors.
const SNIPPETS: &[&[&str]] = &[
    // globals (cycler and joiner printed through their results: their repr holds an address)
    &[
        "{% set c = cycler('a', 'b') %}{{ c.next() }}{{ c.next() }}{{ c.next() }}{{ c.current }}",
        "{% set j = joiner(', ') %}{% for x in [1, 2, 3] %}{{ j() }}{{ x }}{% endfor %}",
        "{% set j = joiner() %}{{ j() }}|{{ j() }}",
        "{{ dict(a=1, b=none) }} {{ namespace(a=1).a }} {{ range(10, 0, -3)|list }}",
        "{{ range(0)|list }} {{ range(2)|sum }} {{ range(5)[1:3]|list }}",
    ],
    // conditionals and loops
    &[
        "{% if v1.n is number and v1.n > 3 %}big{% elif v1.n %}small{% else %}none{% endif %}",
        "{% for x in range(4) if x is odd %}{{ loop.index }}/{{ loop.length }}{{ loop.cycle('a','b') }}{% else %}empty{% endfor %}",
        "{% for k, v in v1|dictsort %}{{ k }}={{ v }}{% if not loop.last %};{% endif %}{% endfor %}",
        "{% for k, v in v1.items() %}{{ loop.revindex }}{{ k }}{% endfor %}",
        "{% for x in [] %}x{% else %}none{% endfor %}",
        "{% for x in [1, 2, 3] %}{{ loop.previtem|default('-') }}{{ loop.nextitem|default('-') }}{{ loop.first }}{% endfor %}",
        "{% for a in [[1, 2], [3]] %}{% for b in a %}{{ loop.depth }}{{ b }}{% endfor %}{% endfor %}",
        "{% for x in v1.missing %}x{% else %}none{% endfor %}",
        "{% for x in v1.n %}x{% endfor %}",
        "{{ 'y' if v1.name else 'n' }} {{ 'y' if missing }}",
        "{% if not missing and (v1 or ds) %}ok{% endif %}",
        "{% with a = v1.n %}{{ a }}{% endwith %}",
        "{% macro m(x, y='d') %}[{{ x }}{{ y }}]{% endmacro %}{{ m(1) }}{{ m(2, y=3) }}",
        "{% filter upper %}{{ v1.name }} x{% endfilter %}",
    ],
    // do
    &[
        "{% set l = [] %}{% do l.append(v1.name) %}{% do l.extend([1, 2]) %}{{ l }}",
        "{% set d = {} %}{% do d.update({'a': v1.n}) %}{{ d }}",
        "{% set l = [3, 1] %}{% do l.sort() %}{% do l.pop() %}{{ l }}",
        "{% do v1.update({'added': 1}) %}{{ v1.added }}",
        "{% set l = [v1.n] %}{% set m = l %}{% do m.append(2) %}{{ l }}{{ l.insert(0, v1.name) }}{{ l + m }}",
        "{% for i in range(2) %}{% set l = [] %}{% do l.append(i) %}{{ l }}{% endfor %}",
        "{% set d = {'a': v1.n} %}{{ d.pop('a') }}{{ d.setdefault('b', v1.name) }}{{ d.pop('z', 0) }}{{ d }}",
        "{% set d = {'a': 1} %}{{ d.pop(v1.name) }}",
        "{% set l = [v1.n, v1.name] %}{% do l.sort(reverse=true) %}{{ l }}",
        "{% set l = [1] %}{{ l.remove(v1.n) }}{{ l.pop() }}{{ l.pop() }}",
        "{{ v1.lst in v1 }} {{ v1 in ds }}",
        "{{ v1.b|reverse|list }}",
        "{% do missing %}ok",
        "{% do missing.x %}ok",
    ],
    // whitespace control
    &[
        "a  {%- if true -%}  b  {%- endif -%}  c",
        "a {{- ' b ' -}} c",
        "{#- c -#}  x",
        "x\n    {%- for i in range(2) %}\n  - {{ i }}\n    {%- endfor %}",
        "{%+ if true %}y{% endif %}",
        "  {% if true %}\n  indented\n  {% endif %}\n",
    ],
    // missing values of each kind
    &[
        "{{ missing.attr|default('z') }}",
        "{{ missing() }}",
        "{{ missing|length }} {{ missing|list }}",
        "{{ missing|tojson }}",
        "{{ missing + 1 }}",
        "{{ missing * 2 }}",
        "{{ missing|int }}",
        "{{ missing.upper() }}",
        "{{ missing[0] }}",
        "{{ missing is none }} {{ missing is undefined }}",
        "{{ v1.missing|default(v1.name) }}",
        "{{ missing }},{{ v1.missing }}.{{ v1.lst[9] }}",
        "{{ missing|string }} {{ missing|upper }} {{ missing ~ 'x' }}",
    ],
    // tojson of odd values
    &[
        "{{ {'b': 1, 1: 2}|tojson }}",
        "{{ (1, 2)|tojson }} {{ none|tojson }} {{ true|tojson }}",
        "{{ 'nan'|float|tojson }} {{ 'inf'|float|tojson }} {{ '-inf'|float|tojson }}",
        "{{ (2**70)|tojson }} {{ -0.0|tojson }} {{ 1e300|tojson }}",
        "{{ 'é\\u2028<>&\\''|tojson }} {{ '😀'|tojson }}",
        "{{ {'a': [1, {'z': none}], 'b': 1.5}|tojson }}",
        "{{ range(3)|tojson }}",
        "{{ v1.keys()|tojson }}",
        "{{ {true: 1, none: 2, 1.5: 3}|tojson }}",
        "{{ {'a': 1}|tojson(2) }}",
        "{{ ds|tojson }}",
    ],
    // floats
    &[
        "{{ 1/3 }} {{ 2.0**0.5 }} {{ 1e22 }} {{ 1e21 }} {{ 123456789012345678.0 }}",
        "{{ 0.000123 }} {{ 1.0e-4 }} {{ 5e-324 }} {{ 1.7976931348623157e308 }}",
        "{{ 1e400 }} {{ -1e400 }} {{ 1e400 - 1e400 }}",
        "{{ 2.5|round }} {{ 0.5|round }} {{ 1.005|round(2) }} {{ 2.675|round(2) }}",
        "{{ 7 / 2 }} {{ 7 % 2.5 }} {{ -7.5 // 2 }} {{ 1e16 + 1 }} {{ 10**20 / 3 }}",
        "{{ 3.0|int }} {{ '3.14'|int }} {{ '1e3'|int }} {{ '1e3'|float }} {{ 'x'|float }}",
        "{{ '%.3f'|format(1/3) }} {{ '%e'|format(12345.678) }} {{ '%g'|format(0.00001) }}",
        "{{ 1.5|string }} {{ 1e16|int }} {{ 3.14|int }} {{ -0.0 }} {{ 0.0 == -0.0 }}",
        "{{ [0.1, 0.2]|sum }} {{ [1, 2.5]|max }} {{ 10 / 5 }} {{ 2 ** -1 }}",
    ],
    // non-ASCII
    &[
        "{{ 'ß'|upper }} {{ 'ÉTÉ'|lower }} {{ 'éa bé'|title }} {{ 'ǆemal'|capitalize }}",
        "{{ 'İ'|lower|length }} {{ 'ﬁ'|upper }} {{ '日本語'|length }} {{ '😀'|length }}",
        "{{ 'naïve café'|urlencode }} {{ 'é'.center(5, '*') }} {{ 'é'|reverse }}",
        "{{ 'a\\u0301'|length }} {{ 'Straße'|wordcount }} {{ '\\u00a0x\\u00a0'|trim }}",
        "{{ 'x\\u2003y'.split() }} {{ ['é', 'e', 'z']|sort }} {{ 'é' < 'z' }}",
        "{{ 'ключ'|upper }} {{ v1['é']|default('é') }} {{ 'ǅ'|lower }} {{ 'ⅷ'|upper }}",
    ],
    // text filters and formatting: textwrap, striptags, printf floats, Python float text
    &[
        "{{ 'The quick brown fox jumps over the lazy dog'|wordwrap(10) }}",
        "{{ 'well-known long-winded hyphen-ated words--and dashes'|wordwrap(8) }}",
        "{{ 'supercalifragilistic a bb'|wordwrap(5, false) }}|{{ 'a-b-c-d-e-f-g'|wordwrap(3) }}",
        "{{ 'well-known  tab\tsep words'|wordwrap(6, break_on_hyphens=false) }}",
        "{{ 'line one\nline two is longer\r\n\n  x'|wordwrap(6, wrapstring='<br>') }}",
        "{{ v1.name|wordwrap(3) }} {{ ''|wordwrap(0) }}",
        "{{ 'x'|wordwrap(0) }}",
        "{{ '<p>Hello <b>World</b></p>  &amp; &lt;x&gt; &copy; &#169; &#x41;&#128;'|striptags }}",
        "{{ '<!-- c <b> -->x <i>y</i>\t z <!-->w'|striptags }} {{ 'a &notit b &ampx &#0;'|striptags }}",
        "{{ v1.name|striptags }} {{ 1.5|striptags }} {{ 'a < b > c'|striptags }}",
        "{{ '%e %E'|format(0.000123, 1e300) }} {{ '%g %G %.3g'|format(123456789, 1e-10, 2.5) }}",
        "{{ '%10.2e|%-10g|%+.0e|%05g'|format(-1.5, 100000, 2.5, 0.5) }} {{ '%g'|format(1e16) }}",
        "{{ '%.0e %e %g'|format(2.5, 'inf'|float, -0.0) }}",
        "{{ 'x' ~ 2.5e300 ~ 1e16 ~ 1e-5 }} {{ 1e22|string }} {{ 1e400|string }} {{ 1e16 ~ '' }}",
        "{{ {'b': 1, 'a': [1, 2]}|pprint }} {{ 1e16|pprint }}",
        "{{ ds|pprint }}",
        "{{ 'see http://example.com/a?b=1&c=2, (www.example.org) <https://x.io/p>. me@example.com mailto:a@b.co @a@b.cc x.com foo.net. http://1.2.3.4:80/x'|urlize }}",
        "{{ 'go to example.com now'|urlize(10, true, target='_blank', rel='me x') }} {{ v1.name|urlize }} {{ ds.meta_data.zone|urlize }}",
        "{{ [v1, 'word ' * 20 ~ '\\nnext line', ('x' * 90,)]|pprint }}",
        "{% for g in [{'n': 2, 'k': 'B'}, {'n': 1, 'k': 'a'}, {'n': 2, 'k': 'b'}]|groupby('n') %}{{ g.grouper }}:{{ g.list|length }};{% endfor %} {{ [{'k': 'B'}, {'k': 'b'}]|groupby('k') }}",
        "{{ ds.meta_data.lst|groupby(0, default='x') }} {% for k, v in v1|dictsort|groupby(1) %}{{ k }}{% endfor %}",
        "{{ '\\U0001F600'|length }} {{ '\\x41\\101\\a\\v\\d'|tojson }} {{ 'é\\\\é' }} {{ 'a' ~ true ~ none ~ 1.0 }}",
    ],
    // syntax errors (each release words and places them its own way)
    &[
        "{% endif %}",
        "{{ }}",
        "{% for %}",
        "{{ x | }}",
        "{% set %}",
        "{% elif %}",
        "{% continue %}",
        "{% extends 'x' %}",
        "{% include 'x' %}",
        "{% import 'x' as y %}",
        "{% call %}",
        "{{ (1 }}",
        "{% trans %}x{% endtrans %}",
        "{{ x.1 }}",
        "{% block a %}b{% endblock %}",
        "{% autoescape true %}<{% endautoescape %}",
        "{{ 'a' 'b' }}",
        "{% if true %}{% else %}{% else %}{% endif %}",
    ],
];

fn expr(r: &mut Rng) -> String {
    match r.below(36) {
        0..=5 => format!("{{{{ {} }}}}", var(r)),
        6..=12 => format!("{{{{ {}|{} }}}}", var(r), r.pick(FILTERS)),
        13..=15 => format!("{{{{ {} is {} }}}}", var(r), r.pick(TESTS)),
        16 => format!("{{% if {} %}}yes{{% else %}}no{{% endif %}}", var(r)),
        17 => format!("{{% for k in {} %}}{{{{ k }}}}{{{{ ',' if not loop.last }}}}{{% endfor %}}", var(r)),
        18 => format!("{{% set t = {} %}}{{{{ t }}}}", var(r)),
        19 => format!("{{% do {}.get('n') %}}done", r.pick(&["v1", "ds", "ds.meta_data"])),
        20 => r.pick(&[
            "{{ 1e16 }} {{ 1e-5 }} {{ 0.1+0.2 }} {{ 10/4 }} {{ 7//2 }} {{ -7//2 }} {{ -7 % 3 }} {{ 2**70 }}",
            "{{ [1,'a',None,True,1.0] }}", "{{ {'b':2,'a':\"<x>&'\"} }}", "{{ (1,) }} {{ (1,2) }}",
            "{{ 'a' ~ 1 ~ none }}", "{{ 'x' * 3 }}", "{{ [1,2]|tojson }} {{ {'é':1.5e20}|tojson }}",
            "{{ range(3)|list }} {{ range(1, 9, 3)|list }}", "{{ dict(a=1)|tojson }}",
            "{{ '1e500'|int }}", "{{ 'abc'|int(5) }} {{ '0x1A'|int(0, 16) }} {{ '12'|int }}",
            "{% set ns = namespace(c=0) %}{% for i in range(3) %}{% set ns.c = ns.c + i %}{% endfor %}{{ ns.c }}",
            "{{ 'a,b'.split(',') }} {{ ' x '.strip() }} {{ 'Ab'.startswith('A') }}",
            "{{ v1.keys()|list }}", "{{ v1.items()|list|length }}", "{{ v1.get('name', 'dflt') }}",
            "{%- if true -%}  trimmed  {%- endif %}", "{{ 'q' if none else 'r' }}", "{# comment #}",
            "{% raw %}{{ raw }}{% endraw %}", "{{ [3,1,2]|sort|first }}",
        ]).to_string(),
        21 => r.pick(&[
            "{{ a b }}", "{% if %}x{% endif %}", "{% endfor %}", "{{ x|to_json }}", "{{ x|to_yaml }}",
            "{% for x in y %}{% break %}{% endfor %}", "{{ 1 + }}", "{{ x|b64encode }}",
            "{% if true %}", "{{ 'unterminated }}", "{% macro %}", "{{ x is foo }}",
        ]).to_string(),
        22 => r.pick(&["{{ foo-bar }}", "{{ v1.a-b }}", "{{ ds.meta_data.x-y }}", "{{ missing - 1 }}", "{{ 1 - missing }}"]).to_string(),
        23 => format!("{{{{ {}.upper() }}}}", var(r)),
        24 => format!("{{{{ {} ~ '-' ~ {} }}}}", var(r), var(r)),
        25 => format!("{{{{ ({}|string)[:3] }}}}", var(r)),
        30..=33 => {
            let family = *r.pick(SNIPPETS);
            r.pick(family).to_string()
        }
        34 => format!("{{{{ {}|{}|{} }}}}", var(r), r.pick(FILTERS), r.pick(FILTERS)),
        35 => format!(
            "{{% for k in {} %}}{{{{ k|{} }}}}{{% endfor %}}",
            var(r),
            r.pick(FILTERS)
        ),
        26 => format!("{{{{ {} == {} }}}}", var(r), var(r)),
        27 => format!("{{% if {} is defined %}}{{{{ {} }}}}{{% endif %}}", var(r), var(r)),
        _ => format!("{{{{ {}|default({})|string }}}}", var(r), var(r)),
    }
}

fn template(r: &mut Rng) -> String {
    let mut t = String::from(*r.pick(&[
        "## template: jinja\n",
        "## template: jinja\n",
        "## template: jinja\n",
        "## template:jinja\n",
        "## template: JINJA\r\n",
        "## template: jinja2\n",
    ]));
    let first = *r.pick(&[
        "#cloud-config\n",
        "#cloud-config\n",
        "#cloud-config\n",
        "#cloud-config\n",
        "#!/bin/sh\n",
        "#cloud-boothook\n",
        "#cloud-config-jsonp\n",
        "#include\n",
        "",
        "{{ '#cloud-config' }}\n",
        "{% if true %}\n#cloud-config\n{% endif %}\n",
    ]);
    t.push_str(first);
    for i in 0..1 + r.below(4) {
        let e = expr(r);
        let line = match r.below(4) {
            0 => format!("k{i}: \"{e}\"\n"),
            1 => format!("k{i}: |\n  {e}\n"),
            _ => format!("k{i}: {e}\n"),
        };
        t.push_str(&line);
    }
    if r.chance(10) {
        t = t.replace('\n', "\r\n");
    }
    if r.chance(15) {
        t.pop();
    }
    t
}

/// A user-data payload with jinja parts (single or MIME) and its instance data.
pub(crate) fn case(r: &mut Rng) -> (Vec<u8>, Vec<u8>) {
    let data = instance_data(r).into_bytes();
    if r.chance(40) {
        return (template(r).into_bytes(), data);
    }
    let mut p =
        String::from("Content-Type: multipart/mixed; boundary=\"BB\"\nMIME-Version: 1.0\n\n");
    for _ in 0..1 + r.below(3) {
        p.push_str("--BB\n");
        match r.below(5) {
            0 => p.push_str(
                "Content-Type: text/cloud-config\n\n#cloud-config\nk0: plain\nruncmd: [a]\n",
            ),
            1 => p.push_str(
                "Content-Type: text/jinja2\nMerge-Type: list(append)+dict(recurse_array)+str()\n\n",
            ),
            _ => p.push_str("Content-Type: text/x-shellscript\n\n"),
        }
        if !p.ends_with("[a]\n") {
            p.push_str(&template(r));
            p.push('\n');
        }
    }
    p.push_str("--BB--\n");
    (p.into_bytes(), data)
}
