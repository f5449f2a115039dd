//! Evaluating the tree: variables (`page`, `site`, `include`, assigned and
//! captured ones, a loop's), conditions, loops, includes and Jekyll's own
//! tags.

use serde_json::{Map, Value};

use super::filters::apply;
use super::parse::{Node, parse};
use super::{RAW_END, RAW_START, Site, Unresolved};

/// What Jekyll computes from the whole site, which a document alone does
/// not tell: reading one is left out, not read as nil.
const SITE_WIDE: &[&str] = &[
    "posts",
    "pages",
    "collections",
    "categories",
    "tags",
    "related_posts",
    "static_files",
    "html_pages",
    "html_files",
    "documents",
    "time",
];
const PAGE_WIDE: &[&str] = &["next", "previous", "content", "excerpt"];

/// Includes within includes go no deeper than this.
const MAX_DEPTH: usize = 16;

/// The most includes one document runs, and the most items a range
/// holds: an include that includes another ten times over, ten deep,
/// would not end otherwise.
const MAX_RUNS: usize = 10_000;

pub(super) struct Run<'s> {
    site: &'s dyn Site,
    page: &'s Value,
    /// Assigned and captured variables, and each loop's and include's.
    scopes: Vec<Map<String, Value>>,
    depth: usize,
    /// The includes running, innermost last, and how many have run.
    including: Vec<String>,
    includes_run: usize,
    /// Block tags of plugins, whose text was kept without them.
    pub(super) unwrapped: Vec<String>,
}

type Result<T> = std::result::Result<T, Unresolved>;

fn unresolved<T>(why: impl Into<String>) -> Result<T> {
    Err(Unresolved(why.into()))
}

impl<'s> Run<'s> {
    pub(super) fn new(site: &'s dyn Site, page: &'s Value) -> Run<'s> {
        Run {
            site,
            page,
            scopes: vec![Map::new()],
            depth: 0,
            including: Vec::new(),
            includes_run: 0,
            unwrapped: Vec::new(),
        }
    }

    pub(super) fn node(&mut self, node: &Node, out: &mut String) -> Result<()> {
        match node {
            Node::Text(text) => out.push_str(text),
            Node::Raw(text) => {
                out.push(RAW_START);
                out.push_str(text);
                out.push(RAW_END);
            }
            Node::Output(inner) => out.push_str(&text_of(&self.expression(inner)?)),
            Node::Tag { name, markup, .. } => self.tag(name, markup, out)?,
            Node::Block {
                name,
                markup,
                branches,
                ..
            } => self.block(name, markup, branches, out)?,
        }
        Ok(())
    }

    fn nodes(&mut self, nodes: &[Node], out: &mut String) -> Result<()> {
        nodes.iter().try_for_each(|node| self.node(node, out))
    }

    fn tag(&mut self, name: &str, markup: &str, out: &mut String) -> Result<()> {
        match name {
            "assign" => {
                let Some((variable, expression)) = markup.split_once('=') else {
                    return unresolved("{% assign %} without `=`");
                };
                let value = self.expression(expression)?;
                self.set(variable.trim(), value);
            }
            "include" => out.push_str(&self.include(markup)?),
            "post_url" | "link" => match self.site.document_link(name, markup.trim()) {
                Some(link) => {
                    super::without_base_before(out, self.site);
                    out.push_str(&link);
                }
                None => {
                    return unresolved(format!(
                        "{{% {name} {} %}}: no such document",
                        markup.trim()
                    ));
                }
            },
            "break" | "continue" => return unresolved(format!("{{% {name} %}}")),
            other => return unresolved(format!("{{% {other} %}}")),
        }
        Ok(())
    }

    fn block(
        &mut self,
        name: &str,
        markup: &str,
        branches: &[(String, String, Vec<Node>)],
        out: &mut String,
    ) -> Result<()> {
        match name {
            "comment" => Ok(()),
            "capture" => {
                let mut captured = String::new();
                self.nodes(&branches[0].2, &mut captured)?;
                self.set(markup.trim(), Value::String(captured));
                Ok(())
            }
            "highlight" => {
                let mut words = markup.split_whitespace();
                let language = words.next().unwrap_or("text");
                let options: Vec<&str> = words.filter(|w| *w == "linenos").collect();
                let mut code = String::new();
                self.nodes(&branches[0].2, &mut code)?;
                let info = std::iter::once(language)
                    .chain(options)
                    .collect::<Vec<_>>()
                    .join(",");
                let code = code.trim_matches('\n');
                // Longer than any run of backticks in the code, which would
                // end it.
                let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
                let fence = "`".repeat(longest.max(2) + 1);
                out.push_str(&format!("{fence}{info}\n{code}\n{fence}"));
                Ok(())
            }
            "if" | "unless" => {
                for (at, (tag, condition, body)) in branches.iter().enumerate() {
                    let taken = match tag.as_str() {
                        "else" => true,
                        _ => self.condition(condition)? != (at == 0 && name == "unless"),
                    };
                    if taken {
                        return self.nodes(body, out);
                    }
                }
                Ok(())
            }
            "case" => {
                let value = self.expression(markup)?;
                for (tag, whens, body) in &branches[1..] {
                    let taken = match tag.as_str() {
                        "else" => true,
                        _ => self.any_equal(&value, whens)?,
                    };
                    if taken {
                        return self.nodes(body, out);
                    }
                }
                Ok(())
            }
            "for" => self.for_loop(markup, branches, out),
            // A plugin's block (`{% githubify %}…`): what it did to its text
            // is not known, the text is kept.
            other => {
                self.unwrapped.push(format!("{{% {other} %}}"));
                self.nodes(&branches[0].2, out)
            }
        }
    }

    /// Whether `value` equals one of `whens` (`"a", "b"` or `"a" or "b"`).
    fn any_equal(&self, value: &Value, whens: &str) -> Result<bool> {
        for when in split_outside_quotes(whens, &[",", " or "]) {
            if self.expression(&when)? == *value {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn for_loop(
        &mut self,
        markup: &str,
        branches: &[(String, String, Vec<Node>)],
        out: &mut String,
    ) -> Result<()> {
        let Some((variable, rest)) = markup.split_once(" in ") else {
            return unresolved("{% for %} without `in`");
        };
        // `limit: 3` is `limit:3`.
        let rest = rest.replace(": ", ":");
        let mut words = split_outside_quotes(rest.trim(), &[" "]).into_iter();
        let collection = words.next().unwrap_or_default();
        let mut items = match self.expression(&collection)? {
            Value::Array(items) => items,
            Value::Null => Vec::new(),
            Value::Object(map) => map
                .into_iter()
                .map(|(k, v)| Value::Array(vec![Value::String(k), v]))
                .collect(),
            other => vec![other],
        };
        for word in words {
            match word.split_once(':') {
                Some(("limit", n)) => items.truncate(self.number(n)?),
                Some(("offset", n)) => {
                    let n = self.number(n)?.min(items.len());
                    items.drain(..n);
                }
                None if word == "reversed" => items.reverse(),
                _ => return unresolved(format!("{{% for %}} with `{word}`")),
            }
        }
        if items.is_empty() {
            if let Some((_, _, otherwise)) = branches.get(1) {
                return self.nodes(otherwise, out);
            }
            return Ok(());
        }
        let length = items.len();
        for (index, item) in items.into_iter().enumerate() {
            let mut scope = Map::new();
            scope.insert(variable.trim().to_owned(), item);
            let forloop = serde_json::json!({
                "index": index + 1, "index0": index, "first": index == 0,
                "last": index + 1 == length, "length": length,
                "rindex": length - index, "rindex0": length - index - 1,
            });
            scope.insert("forloop".to_owned(), forloop);
            self.scopes.push(scope);
            let done = self.nodes(&branches[0].2, out);
            self.scopes.pop();
            done?;
        }
        Ok(())
    }

    fn number(&self, text: &str) -> Result<usize> {
        match self.expression(text)? {
            Value::Number(n) => Ok(n.as_u64().unwrap_or(0) as usize),
            Value::String(s) => s
                .trim()
                .parse()
                .or_else(|_| unresolved(format!("`{s}` as a number"))),
            _ => Ok(0),
        }
    }

    /// `{% include name key=value … %}`: a folio shortcode when one does
    /// what it did, else its file run with `include` set to its parameters.
    fn include(&mut self, markup: &str) -> Result<String> {
        let markup = markup.trim();
        // The file's name may be a variable's: `{{ page.include }}`.
        let (name, params) = match markup
            .strip_prefix("{{")
            .and_then(|rest| rest.split_once("}}"))
        {
            Some((expression, params)) => (text_of(&self.expression(expression)?), params),
            None => {
                let (name, params) = markup
                    .split_once(char::is_whitespace)
                    .unwrap_or((markup, ""));
                (name.to_owned(), params)
            }
        };
        let params = self.params(params)?;
        if let Some(shortcode) = self.site.shortcode(&name, &params) {
            return Ok(shortcode);
        }
        let Some(text) = self.site.include(&name) else {
            return unresolved(format!("{{% include {name} %}}: not in _includes/"));
        };
        if self.including.contains(&name) {
            return unresolved(format!("{{% include {name} %}}: includes itself"));
        }
        self.includes_run += 1;
        if self.depth >= MAX_DEPTH || self.includes_run > MAX_RUNS {
            let why = format!(
                "{{% include {name} %}}: more than {MAX_RUNS} includes, or {MAX_DEPTH} deep"
            );
            return unresolved(why);
        }
        let nodes =
            parse(&text).or_else(|why| unresolved(format!("{{% include {name} %}}: {why}")))?;
        let mut scope = Map::new();
        scope.insert("include".to_owned(), Value::Object(params));
        self.scopes.push(scope);
        self.depth += 1;
        self.including.push(name);
        let mut out = String::new();
        let done = self.nodes(&nodes, &mut out);
        self.including.pop();
        self.depth -= 1;
        self.scopes.pop();
        done.map(|()| out)
    }

    /// `key="value" other=variable`: Jekyll's include parameters.
    fn params(&self, text: &str) -> Result<Map<String, Value>> {
        let mut params = Map::new();
        for pair in split_outside_quotes(&tight_equals(text), &[" ", "\n", "\t"]) {
            let Some((key, value)) = pair.split_once('=') else {
                return unresolved(format!("the include parameter `{pair}`"));
            };
            let value = self.expression(value)?;
            params.insert(key.trim().to_owned(), value);
        }
        Ok(params)
    }

    fn set(&mut self, name: &str, value: Value) {
        // Assigned variables are the document's, whatever the scope.
        self.scopes[0].insert(name.to_owned(), value);
    }

    /// `a.b[0] | filter: x, y | other`.
    pub(super) fn expression(&self, text: &str) -> Result<Value> {
        let mut parts = split_outside_quotes(text, &["|"]).into_iter();
        let mut value = self.value(parts.next().unwrap_or_default().trim())?;
        for filter in parts {
            let (name, arguments) = filter.split_once(':').unwrap_or((&filter, ""));
            let arguments = split_outside_quotes(arguments, &[","])
                .iter()
                .filter(|a| !a.trim().is_empty())
                .map(|a| self.value(a.trim()))
                .collect::<Result<Vec<Value>>>()?;
            value = apply(name.trim(), value, &arguments, self.site.site())?;
        }
        Ok(value)
    }

    /// A literal or a variable's value (nil where Jekyll has none).
    fn value(&self, text: &str) -> Result<Value> {
        if let Some(quoted) = text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .or_else(|| text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')))
        {
            return Ok(Value::String(quoted.to_owned()));
        }
        if let Ok(n) = text.parse::<i64>() {
            return Ok(Value::from(n));
        }
        if let Ok(n) = text.parse::<f64>() {
            return Ok(Value::from(n));
        }
        match text {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            "nil" | "null" | "" => return Ok(Value::Null),
            "empty" | "blank" => return Ok(Value::String(String::new())),
            _ => {}
        }
        if let Some(range) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')'))
            && let Some((from, to)) = range.split_once("..")
        {
            let (from, to) = (self.number(from)?, self.number(to)?);
            if to.saturating_sub(from) >= MAX_RUNS {
                return unresolved(format!("the range `{text}`, over {MAX_RUNS} items"));
            }
            return Ok(Value::Array((from..=to).map(Value::from).collect()));
        }
        self.variable(text)
    }

    fn variable(&self, path: &str) -> Result<Value> {
        let keys = path_keys(path).ok_or_else(|| Unresolved(format!("the expression `{path}`")))?;
        let mut keys = keys.into_iter();
        let first = keys.next().unwrap_or_default();
        let found = self.scopes.iter().rev().find_map(|scope| scope.get(&first));
        // Walked by reference: `site` holds every data file, which a
        // lookup does not copy.
        let root = match (found, first.as_str()) {
            (Some(value), _) => value,
            (None, "site") => self.site.site(),
            (None, "page") => self.page,
            (None, "paginator" | "layout" | "content") => return unresolved(first),
            (None, _) => &Value::Null,
        };
        let mut value = Step::Found(root);
        let mut walked = first.clone();
        for key in keys {
            let key = match key.strip_prefix('[').and_then(|k| k.strip_suffix(']')) {
                Some(inner) => text_of(&self.value(inner)?),
                None => key,
            };
            let wide = (walked == "site" && SITE_WIDE.contains(&key.as_str()))
                || (walked == "page" && PAGE_WIDE.contains(&key.as_str()));
            // What Jekyll computes wins over a setting of the same name
            // (`collections` in `_config.yml`).
            if wide {
                return unresolved(format!("{walked}.{key}"));
            }
            value = match value {
                Step::Found(found) => step(found, &key),
                Step::Made(made) => Step::Made(match step(&made, &key) {
                    Step::Found(found) => found.clone(),
                    Step::Made(new) => new,
                }),
            };
            walked = format!("{walked}.{key}");
        }
        Ok(match value {
            Step::Found(found) => found.clone(),
            Step::Made(made) => made,
        })
    }

    /// `a == b and c contains "x" or d`: Liquid reads `and`/`or` from the
    /// right.
    fn condition(&self, text: &str) -> Result<bool> {
        let words = split_outside_quotes(text, &[" and ", " or "]);
        let joins: Vec<&str> = joins_of(text);
        let mut result = self.comparison(words.last().map_or("", String::as_str))?;
        for (word, join) in words.iter().rev().skip(1).zip(joins.iter().rev()) {
            let left = self.comparison(word)?;
            result = if *join == "and" {
                left && result
            } else {
                left || result
            };
        }
        Ok(result)
    }

    fn comparison(&self, text: &str) -> Result<bool> {
        for operator in ["==", "!=", "<>", ">=", "<=", ">", "<", " contains "] {
            if let Some((left, right)) = split_once_outside_quotes(text, operator) {
                let (left, right) = (self.expression(&left)?, self.expression(&right)?);
                return Ok(compare(&left, operator.trim(), &right));
            }
        }
        Ok(truthy(&self.expression(text)?))
    }
}

/// A value a variable's keys lead to: found in what the variables hold,
/// or made (an array's `size`).
enum Step<'v> {
    Found(&'v Value),
    Made(Value),
}

/// Where `key` leads from `value`: a key of an object, an index of an
/// array, its `first` or `last`, the `size` of an array or a string; nil
/// anywhere else.
fn step<'v>(value: &'v Value, key: &str) -> Step<'v> {
    static NIL: Value = Value::Null;
    match (value, key) {
        (Value::Object(map), _) if map.contains_key(key) => Step::Found(&map[key]),
        (Value::Array(items), "size" | "length") => Step::Made(Value::from(items.len())),
        (Value::String(s), "size") => Step::Made(Value::from(s.chars().count())),
        (Value::Array(items), "first") => Step::Found(items.first().unwrap_or(&NIL)),
        (Value::Array(items), "last") => Step::Found(items.last().unwrap_or(&NIL)),
        (Value::Array(items), index) => Step::Found(
            index
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get(i))
                .unwrap_or(&NIL),
        ),
        _ => Step::Found(&NIL),
    }
}

fn compare(left: &Value, operator: &str, right: &Value) -> bool {
    let numbers = (left.as_f64(), right.as_f64());
    match operator {
        "==" => {
            left == right
                || (text_of(left) == text_of(right) && left.is_number() && right.is_number())
        }
        "!=" | "<>" => left != right,
        "contains" => match left {
            Value::String(s) => s.contains(&text_of(right)),
            Value::Array(items) => items.contains(right),
            _ => false,
        },
        _ => match numbers {
            (Some(l), Some(r)) => match operator {
                ">=" => l >= r,
                "<=" => l <= r,
                ">" => l > r,
                _ => l < r,
            },
            _ => false,
        },
    }
}

/// Liquid's truth: only nil and false are false.
pub(super) fn truthy(value: &Value) -> bool {
    !matches!(value, Value::Null | Value::Bool(false))
}

/// A value as Liquid prints it: arrays joined, nil nothing.
pub(super) fn text_of(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(text_of).collect(),
        other => other.to_string(),
    }
}

/// `a.b["c"][0]` as its keys: `a`, `b`, `["c"]`, `[0]`; `None` for what is
/// no variable.
fn path_keys(path: &str) -> Option<Vec<String>> {
    let mut keys = Vec::new();
    let mut rest = path.trim();
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('[') {
            let end = inner.find(']')?;
            keys.push(format!("[{}]", &inner[..end]));
            rest = &inner[end + 1..];
        } else {
            rest = rest.strip_prefix('.').unwrap_or(rest);
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            let key = &rest[..end];
            if key.is_empty()
                || !key
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '?')
            {
                return None;
            }
            keys.push(key.to_owned());
            rest = &rest[end..];
        }
    }
    (!keys.is_empty()).then_some(keys)
}

/// `key = "a b"` as `key="a b"`: Jekyll allows white space around an
/// include parameter's `=`.
fn tight_equals(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<char> = None;
    let mut after_equals = false;
    for c in text.chars() {
        match (quote, c) {
            (None, '=') => {
                out.truncate(out.trim_end().len());
                after_equals = true;
                out.push(c);
                continue;
            }
            (None, c) if after_equals && c.is_whitespace() => continue,
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            _ => {}
        }
        after_equals = false;
        out.push(c);
    }
    out
}

/// `text` split at each of `separators` outside quotes.
pub(super) fn split_outside_quotes(text: &str, separators: &[&str]) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if quote.is_none()
            && let Some(sep) = separators.iter().find(|sep| rest.starts_with(**sep))
        {
            parts.push(std::mem::take(&mut current));
            rest = &rest[sep.len()..];
            continue;
        }
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            _ => {}
        }
        current.push(c);
        rest = &rest[c.len_utf8()..];
    }
    parts.push(current);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .map(|p| p.trim().to_owned())
        .collect()
}

fn split_once_outside_quotes(text: &str, operator: &str) -> Option<(String, String)> {
    let mut parts = split_outside_quotes(text, &[operator]).into_iter();
    let left = parts.next()?;
    let right = parts.next()?;
    Some((left, right))
}

/// The `and`s and `or`s of a condition, outside quotes, in order.
fn joins_of(text: &str) -> Vec<&'static str> {
    let mut joins = Vec::new();
    let mut quote: Option<char> = None;
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            (None, ' ') if text[at..].starts_with(" and ") => joins.push("and"),
            (None, ' ') if text[at..].starts_with(" or ") => joins.push("or"),
            _ => {}
        }
    }
    joins
}
