//! Front matter keys written twice, resolved as the old generators' YAML
//! readers did: the last value wins, at any depth (Jekyll's and Hugo's keep
//! it; folio's reader refuses a repeat, naming both lines). Worked on the
//! lines, so the rest of the front matter stays as it was written.

use std::collections::HashMap;

/// Removes every earlier setting of a key that one mapping sets again (its
/// line and the lines of its value), at any depth; returns the keys, as
/// paths from the top (`header.image`). A repeat that starts a list's item
/// (`- url: a`) is left for the build to name: removing it would join two
/// items.
pub(super) fn drop_repeated_keys(front: &mut Vec<String>) -> Vec<String> {
    let keyed = keyed_lines(front);
    let mut last: HashMap<(usize, &str), usize> = HashMap::new();
    for (at, line) in keyed.iter().enumerate() {
        last.insert((line.scope, line.key.as_str()), at);
    }
    let dropped: Vec<&KeyedLine> = (keyed.iter().enumerate())
        .filter(|(at, line)| last[&(line.scope, line.key.as_str())] != *at && !line.starts_item)
        .map(|(_, line)| line)
        .collect();
    for line in dropped.iter().rev() {
        front.drain(line.line..line.end);
    }
    dropped.into_iter().map(|line| line.path.clone()).collect()
}

/// A line that sets a key of a mapping.
struct KeyedLine {
    /// Its place among the lines, and the end of its value's lines.
    line: usize,
    end: usize,
    key: String,
    /// The key with those of the mappings it is in (`header.image`).
    path: String,
    /// Which mapping it is in: a number per mapping met.
    scope: usize,
    /// Whether it is the first key of a list's item (`- url: a`).
    starts_item: bool,
}

/// A mapping being read: the column of its keys, its number, its path.
struct Open {
    column: usize,
    scope: usize,
    path: String,
}

/// Every line of `front` that sets a key, with its mapping. A key whose
/// value is on its own line (or lines) is followed by none of its value's
/// lines: a block scalar or a quoted text continued may hold `a: b`.
fn keyed_lines(front: &[String]) -> Vec<KeyedLine> {
    let mut open = vec![Open {
        column: 0,
        scope: 0,
        path: String::new(),
    }];
    let mut scopes = 0;
    // The path of the key whose value is the mapping the next deeper key
    // opens.
    let mut parent = String::new();
    let mut keyed = Vec::new();
    let mut at = 0;
    while at < front.len() {
        let line = &front[at];
        let Some(found) = key_of(line) else {
            if let Some(dash) = plain_item(line) {
                // An item without a key on its line: its keys (below) are
                // a mapping of their own.
                while open.len() > 1 && open.last().is_some_and(|o| o.column > dash) {
                    open.pop();
                }
            }
            at += 1;
            continue;
        };
        let column = found.column;
        while open.len() > 1
            && open
                .last()
                .is_some_and(|o| o.column > column || (found.starts_item && o.column == column))
        {
            open.pop();
        }
        if found.starts_item || open.last().is_some_and(|o| o.column < column) {
            scopes += 1;
            open.push(Open {
                column,
                scope: scopes,
                path: parent.clone(),
            });
        }
        let Some(mapping) = open.last() else {
            break;
        };
        let path = match mapping.path.is_empty() {
            true => found.key.to_owned(),
            false => format!("{}.{}", mapping.path, found.key),
        };
        let end = value_end(front, at, column);
        keyed.push(KeyedLine {
            line: at,
            end,
            key: found.key.to_owned(),
            path: path.clone(),
            scope: mapping.scope,
            starts_item: found.starts_item,
        });
        if opens_block(found.value) {
            parent = path;
            at += 1;
        } else {
            at = end;
        }
    }
    keyed
}

/// What a line that sets a key says.
struct Found<'l> {
    /// The column its key starts at.
    column: usize,
    starts_item: bool,
    key: &'l str,
    value: &'l str,
}

/// The key a line sets (`key: value`, `- key: value`), if it sets one.
fn key_of(line: &str) -> Option<Found<'_>> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let (starts_item, rest) = match rest.strip_prefix("- ") {
        Some(item) => (true, item.trim_start_matches(' ')),
        None => (false, rest),
    };
    let column = line.len() - rest.len();
    if rest.is_empty() || rest.starts_with(['#', '-', '[', '{', '|', '>']) {
        return None;
    }
    let colon = match rest.chars().next() {
        Some(quote @ ('"' | '\'')) => rest[1..].find(quote).map(|close| close + 2)?,
        _ => rest
            .find(": ")
            .or_else(|| rest.ends_with(':').then(|| rest.len() - 1))?,
    };
    let key = &rest[..colon];
    let value = rest[colon..].strip_prefix(':')?;
    if !(value.is_empty() || value.starts_with(' ')) || key.is_empty() || key.contains(" #") {
        return None;
    }
    Some(Found {
        column,
        starts_item,
        key,
        value: value.trim(),
    })
}

/// The column of the dash of a list's item that sets no key on its line.
fn plain_item(line: &str) -> Option<usize> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    (rest == "-" || rest.starts_with("- ")).then_some(indent)
}

/// Whether a key's value, as its line gives it, is the mapping or list on
/// the lines below: nothing, a comment, or only an anchor or a tag.
fn opens_block(value: &str) -> bool {
    let token = value.split_whitespace().next().unwrap_or("");
    let rest = value[token.len()..].trim_start();
    value.is_empty()
        || value.starts_with('#')
        || (token.starts_with(['&', '!']) && (rest.is_empty() || rest.starts_with('#')))
}

/// The end of the lines of the value of the key on line `at` (at
/// `column`): those below it, blank or deeper.
fn value_end(front: &[String], at: usize, column: usize) -> usize {
    let deeper = |line: &String| {
        line.trim().is_empty() || line.len() - line.trim_start_matches(' ').len() > column
    };
    at + 1
        + front[at + 1..]
            .iter()
            .take_while(|line| deeper(line))
            .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dropped(front: &str) -> (Vec<String>, String) {
        let mut lines: Vec<String> = front.lines().map(str::to_owned).collect();
        let keys = drop_repeated_keys(&mut lines);
        (keys, lines.join("\n"))
    }

    #[test]
    fn the_last_setting_of_a_key_wins_at_any_depth() {
        let (keys, left) = dropped("title: x\ntype: a\ntags:\n  - t\ntype: b");
        assert_eq!(
            (keys, left.as_str()),
            (vec!["type".to_owned()], "title: x\ntags:\n  - t\ntype: b")
        );
        let front = "header:\n  image: a.png\n  caption: c\n  image: b.png\ntitle: t";
        let (keys, left) = dropped(front);
        assert_eq!(keys, ["header.image"]);
        assert_eq!(left, "header:\n  caption: c\n  image: b.png\ntitle: t");
        // The earlier value's own lines go with it.
        let front = "sidebar:\n  nav: docs\nsidebar:\n  nav: other\n  title: s";
        let (keys, left) = dropped(front);
        assert_eq!(
            (keys, left.as_str()),
            (
                vec!["sidebar".to_owned()],
                "sidebar:\n  nav: other\n  title: s"
            )
        );
    }

    #[test]
    fn keys_of_other_mappings_and_text_that_looks_like_keys_are_left_alone() {
        // The same key in two mappings, in two items of a list.
        let front =
            "a:\n  x: 1\nb:\n  x: 2\ngallery:\n  - url: u\n    alt: one\n  - url: v\n    alt: two";
        assert_eq!(dropped(front), (Vec::new(), front.to_owned()));
        // Inside a block scalar and a quoted text continued.
        let front = "excerpt: |\n  note: a\n  note: b\ntitle: \"a\n  note: c\"\nnote: d";
        assert_eq!(dropped(front), (Vec::new(), front.to_owned()));
        // Items without a key on their line, then their keys below.
        let front = "list:\n  -\n    url: a\n  -\n    url: b";
        assert_eq!(dropped(front), (Vec::new(), front.to_owned()));
        // A repeat that starts an item is left for the build to name.
        let front = "list:\n  - url: a\n    url: b";
        assert_eq!(dropped(front), (Vec::new(), front.to_owned()));
    }
}
