//! Which templates a template depends on: those it names in `extends`,
//! `include`, `import` and `from` tags, read from its text, and the closure
//! of them, which is what a page's fingerprint covers.

use std::collections::{BTreeMap, BTreeSet};

/// The templates a template names in `extends`, `include`, `import` and
/// `from` tags. A tag whose target is not a string literal could be any
/// template, so it makes the whole theme a dependency.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Dependencies {
    pub(super) named: BTreeSet<String>,
    pub(super) dynamic: bool,
}

pub(super) fn dependencies(text: &str) -> Dependencies {
    let mut deps = Dependencies::default();
    let mut rest = text;
    while let Some(start) = rest.find("{%") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("%}") else { break };
        let tag = after[..end].trim_matches(|c: char| c == '-' || c == '+' || c.is_whitespace());
        rest = &after[end + 2..];
        let keyword = tag.split_whitespace().next().unwrap_or("");
        if !matches!(keyword, "extends" | "include" | "import" | "from") {
            continue;
        }
        let argument = &tag[keyword.len()..];
        let literals = string_literals(argument);
        if literals.is_empty() || !only_literals(argument) {
            deps.dynamic = true;
        }
        deps.named.extend(literals);
    }
    deps
}

/// The target is one string literal or a list of them, followed only by the
/// tag's own keywords: nothing computed (`"a" ~ lang`, `x if y else z`).
fn only_literals(argument: &str) -> bool {
    let mut rest = String::new();
    let mut chars = argument.chars();
    while let Some(c) = chars.next() {
        if c == '"' || c == '\'' {
            for d in chars.by_ref() {
                if d == c {
                    break;
                }
            }
            rest.push(' ');
        } else {
            rest.push(c);
        }
    }
    // What follows `as` or `import` names things, it chooses no template.
    let head = [" as ", " import "]
        .iter()
        .filter_map(|k| rest.find(k))
        .min()
        .map_or(rest.as_str(), |at| &rest[..at]);
    head.replace(['[', ']', ','], " ")
        .split_whitespace()
        .all(|word| matches!(word, "ignore" | "missing" | "with" | "without" | "context"))
}

fn string_literals(text: &str) -> Vec<String> {
    let mut literals = Vec::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '"' || c == '\'' {
            let body = &text[i + 1..];
            if let Some(close) = body.find(c) {
                literals.push(body[..close].to_owned());
                for _ in 0..body[..close].chars().count() + 1 {
                    chars.next();
                }
            }
        }
    }
    literals
}

/// Every template `name` reaches through `direct` (the dependencies of each
/// template), itself included; the whole theme when one it reaches names a
/// template it computes.
pub(super) fn closure(name: &str, direct: &BTreeMap<&str, Dependencies>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![name.to_owned()];
    while let Some(current) = stack.pop() {
        if !seen.insert(current.clone()) {
            continue;
        }
        if let Some(deps) = direct.get(current.as_str()) {
            if deps.dynamic {
                return direct.keys().map(|k| (*k).to_owned()).collect();
            }
            stack.extend(deps.named.iter().cloned());
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_are_read_from_tags() {
        let deps = dependencies(
            "{% extends \"base.html\" %}{%- include 'nav.html' -%}{% import \"m.html\" as m %}{% from 'f.html' import x %}{% include ['a.html', 'b.html'] %}{% if x %}{% endif %}",
        );
        let named: Vec<&str> = deps.named.iter().map(String::as_str).collect();
        assert_eq!(
            named,
            [
                "a.html",
                "b.html",
                "base.html",
                "f.html",
                "m.html",
                "nav.html"
            ]
        );
        assert!(!deps.dynamic);
        assert!(dependencies("{% include template_name %}").dynamic);
        assert!(dependencies("{% include \"footer.\" ~ lang.code ~ \".html\" %}").dynamic);
        assert!(dependencies("{% include [\"a.html\", other] %}").dynamic);
        assert!(dependencies("{% include \"a.html\" if x else \"b.html\" %}").dynamic);
        assert!(!dependencies("{% include \"a.html\" ignore missing without context %}").dynamic);
        assert!(!dependencies("{% from \"m.html\" import a, b as c %}").dynamic);
    }
}
