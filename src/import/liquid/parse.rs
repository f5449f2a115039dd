//! Liquid text read into a tree: text, `{{ output }}`, and the tags with
//! their bodies (`if`…`endif`), whitespace control (`{%-`, `-%}`) applied.

/// One piece of a Liquid text.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::import) enum Node {
    Text(String),
    /// `{{ expression | filter: argument }}`, as written inside.
    Output(String),
    /// A tag without a body: `assign`, `include`, `post_url`… (`alone`:
    /// it is the only thing on its line).
    Tag {
        name: String,
        markup: String,
        alone: bool,
    },
    /// A tag with a body, up to its `end…`: `branches` are the body and
    /// each `elsif`/`else`/`when` after it, with their markup.
    Block {
        name: String,
        markup: String,
        branches: Vec<(String, String, Vec<Node>)>,
        alone: bool,
    },
    /// `{% raw %}…{% endraw %}`: text Liquid does not read.
    Raw(String),
}

/// Tags whose body runs to an `end<tag>`, with the tags that split it.
const BLOCKS: &[(&str, &[&str])] = &[
    ("if", &["elsif", "else"]),
    ("unless", &["elsif", "else"]),
    ("case", &["when", "else"]),
    ("for", &["else"]),
    ("capture", &[]),
    ("comment", &[]),
    ("highlight", &[]),
];

/// Tags without a body, in Liquid and Jekyll.
const SIMPLE_TAGS: &[&str] = &[
    "assign",
    "include",
    "include_relative",
    "post_url",
    "link",
    "break",
    "continue",
    "cycle",
    "increment",
    "decrement",
    "echo",
    "render",
];

impl Node {
    /// Whether it stands alone on its lines, with nothing else on them.
    pub(in crate::import) fn alone_on_its_lines(&self) -> bool {
        matches!(
            self,
            Node::Tag { alone: true, .. } | Node::Block { alone: true, .. }
        )
    }

    /// What the report calls it when it was evaluated: `{% include gallery %}`.
    pub(in crate::import) fn kind(&self) -> Option<String> {
        match self {
            Node::Text(_) => None,
            Node::Output(_) => Some("{{ … }}".to_owned()),
            Node::Raw(_) => Some("{% raw %}".to_owned()),
            Node::Tag { name, markup, .. } if name == "include" => {
                let file = markup.split_whitespace().next().unwrap_or_default();
                Some(format!("{{% include {file} %}}"))
            }
            Node::Tag { name, .. } | Node::Block { name, .. } => Some(format!("{{% {name} %}}")),
        }
    }
}

/// A token of the text: text, an output's inside, or a tag's name and
/// markup, with whether it trims the white space before and after it.
#[derive(Debug)]
enum Token<'t> {
    Text(&'t str),
    Output(&'t str),
    Tag(&'t str, &'t str),
}

/// `text` as a tree; `Err` with the tag that is left open or closes
/// nothing.
pub(in crate::import) fn parse(text: &str) -> Result<Vec<Node>, String> {
    let tokens = tokens(text);
    let mut at = 0;
    let (nodes, end) = nodes(&tokens, &mut at, (&[], 0))?;
    match end {
        None => Ok(nodes),
        Some((tag, _)) => Err(format!("{{% {tag} %}} closes nothing")),
    }
}

/// The tokens of `text`, the white space that `-` trims taken out of the
/// text beside it. A `{%` or `{{` without its end is text.
fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut raw: Vec<(Token<'_>, bool, bool)> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(['{']) {
        let tail = &rest[open..];
        let close = match tail.get(..2) {
            Some("{{") => "}}",
            Some("{%") => "%}",
            _ => {
                let skip = open + 1;
                raw.push((Token::Text(&rest[..skip]), false, false));
                rest = &rest[skip..];
                continue;
            }
        };
        let Some(end) = tail[2..].find(close) else {
            break;
        };
        raw.push((Token::Text(&rest[..open]), false, false));
        let inner = &tail[2..2 + end];
        let trim_before = inner.starts_with('-');
        let trim_after = inner.ends_with('-');
        let inner = inner.trim_start_matches('-').trim_end_matches('-').trim();
        let token = if close == "}}" {
            Token::Output(inner)
        } else {
            let (name, markup) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
            Token::Tag(name, markup.trim())
        };
        raw.push((token, trim_before, trim_after));
        rest = &tail[2 + end + 2..];
        // `{% raw %}` reads nothing up to `{% endraw %}`.
        if matches!(raw.last(), Some((Token::Tag("raw", _), _, _)))
            && let Some(end) = find_endraw(rest)
        {
            raw.push((Token::Text(&rest[..end.0]), false, false));
            raw.push((Token::Tag("endraw", ""), false, end.2));
            rest = &rest[end.1..];
        }
    }
    raw.push((Token::Text(rest), false, false));
    // Whitespace control: a `-` trims the text on its side.
    let mut out = Vec::with_capacity(raw.len());
    for at in 0..raw.len() {
        let (token, _, _) = &raw[at];
        if let Token::Text(text) = token {
            let mut text: &str = text;
            if at > 0 && raw[at - 1].2 {
                text = text.trim_start();
            }
            if raw.get(at + 1).is_some_and(|next| next.1) {
                text = text.trim_end();
            }
            out.push(Token::Text(text));
        } else {
            out.push(match token {
                Token::Output(inner) => Token::Output(inner),
                Token::Tag(name, markup) => Token::Tag(name, markup),
                Token::Text(_) => unreachable!("matched above"),
            });
        }
    }
    out
}

/// Where `{% endraw %}` starts and ends in `text`, and whether it trims
/// after it.
fn find_endraw(text: &str) -> Option<(usize, usize, bool)> {
    let mut from = 0;
    while let Some(open) = text[from..].find("{%") {
        let start = from + open;
        let close = start + 2 + text[start + 2..].find("%}")?;
        let inner = &text[start + 2..close];
        if inner.trim_matches('-').trim() == "endraw" {
            return Some((start, close + 2, inner.ends_with('-')));
        }
        from = start + 2;
    }
    None
}

type Branches = Vec<(String, String, Vec<Node>)>;

/// The tag that ended a run of nodes, with its markup.
type Stop = Option<(String, String)>;

/// Blocks inside blocks go no deeper than this, as in Shopify's Liquid:
/// deeper is no template anyone wrote, and reading it would take the stack.
const MAX_NESTING: usize = 100;

/// The nodes from `tokens[*at]` up to a tag of `stops` (returned with its
/// markup), or the end; `depth` blocks deep.
fn nodes(
    tokens: &[Token<'_>],
    at: &mut usize,
    (stops, depth): (&[&str], usize),
) -> Result<(Vec<Node>, Stop), String> {
    if depth > MAX_NESTING {
        return Err(format!("blocks nested more than {MAX_NESTING} deep"));
    }
    let mut nodes = Vec::new();
    while let Some(token) = tokens.get(*at) {
        *at += 1;
        match token {
            Token::Text(text) => nodes.push(Node::Text((*text).to_owned())),
            Token::Output(inner) => nodes.push(Node::Output((*inner).to_owned())),
            Token::Tag(name, markup) if stops.contains(name) || name.starts_with("end") => {
                return Ok((nodes, Some(((*name).to_owned(), (*markup).to_owned()))));
            }
            Token::Tag("raw", _) => {
                let text = match tokens.get(*at) {
                    Some(Token::Text(text)) => (*text).to_owned(),
                    _ => String::new(),
                };
                if !matches!(tokens.get(*at + 1), Some(Token::Tag("endraw", _))) {
                    return Err("{% raw %} is not closed".into());
                }
                *at += 2;
                nodes.push(Node::Raw(text));
            }
            Token::Tag(name, markup) => {
                let alone = alone(tokens, *at - 1);
                // A tag of a plugin with an `end` of its own is a block too.
                // (Liquid's own tags are none: they are not looked for.)
                let end = format!("end{name}");
                let closed = !SIMPLE_TAGS.contains(name)
                    && tokens[*at..]
                        .iter()
                        .any(|t| matches!(t, Token::Tag(tag, _) if *tag == end));
                let known = BLOCKS
                    .iter()
                    .find(|(block, _)| block == name)
                    .map(|(_, splits)| *splits);
                match known.or(closed.then_some(&[][..])) {
                    Some(splits) => {
                        let branches = block(tokens, at, (name, markup), (splits, depth + 1))?;
                        nodes.push(Node::Block {
                            name: (*name).to_owned(),
                            markup: (*markup).to_owned(),
                            branches,
                            alone,
                        });
                    }
                    None => nodes.push(Node::Tag {
                        name: (*name).to_owned(),
                        markup: (*markup).to_owned(),
                        alone,
                    }),
                }
            }
        }
    }
    Ok((nodes, None))
}

/// The branches of the block `name` opened before `tokens[*at]`, up to its
/// `end<name>`.
fn block(
    tokens: &[Token<'_>],
    at: &mut usize,
    (name, markup): (&str, &str),
    (splits, depth): (&[&str], usize),
) -> Result<Branches, String> {
    let end = format!("end{name}");
    let mut stops: Vec<&str> = splits.to_vec();
    stops.push(&end);
    let mut branches = Vec::new();
    let mut opened_by = (name.to_owned(), markup.to_owned());
    loop {
        let (body, closed_by) = nodes(tokens, at, (&stops, depth))?;
        branches.push((opened_by.0, opened_by.1, body));
        match closed_by {
            Some((tag, _)) if tag == end => return Ok(branches),
            Some((tag, markup)) if splits.contains(&tag.as_str()) => opened_by = (tag, markup),
            Some((tag, _)) => return Err(format!("{{% {tag} %}} inside {{% {name} %}}")),
            None => return Err(format!("{{% {name} %}} is not closed")),
        }
    }
}

/// Whether the tag at `tokens[at]` is the only thing on its line: the text
/// before it ends a line (or starts the text) and the text after it starts
/// one; for a block, the text after its end tag.
fn alone(tokens: &[Token<'_>], at: usize) -> bool {
    let before = match at.checked_sub(1).map(|b| &tokens[b]) {
        None => true,
        Some(Token::Text(text)) => {
            let line = text.rsplit('\n').next().unwrap_or(text);
            line.trim().is_empty() && (text.contains('\n') || at == 1)
        }
        Some(_) => false,
    };
    let after = match tokens.get(at + 1) {
        None => true,
        Some(Token::Text(text)) => {
            let line = text.split('\n').next().unwrap_or(text);
            line.trim().is_empty() && (text.contains('\n') || at + 2 == tokens.len())
        }
        Some(_) => false,
    };
    before && after
}
