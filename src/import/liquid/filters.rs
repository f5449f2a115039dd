//! The Liquid filters Jekyll sites use most, as Jekyll applies them; any
//! other is left for a hand ([`Unresolved`]).

use serde_json::Value;

use super::Unresolved;
use super::eval::{text_of, truthy};
use crate::source::markdown::MARKDOWN;

/// `value | name: arguments`; `site` gives `url` and `baseurl`.
pub(super) fn apply(
    name: &str,
    value: Value,
    arguments: &[Value],
    site: &Value,
) -> Result<Value, Unresolved> {
    let text = || text_of(&value);
    let argument = |at: usize| arguments.get(at).map(text_of).unwrap_or_default();
    let string = |s: String| Ok(Value::String(s));
    match name {
        "relative_url" => string(relative_url(&text(), site)),
        "absolute_url" => {
            let origin = site.get("url").map(text_of).unwrap_or_default();
            string(format!(
                "{}{}",
                origin.trim_end_matches('/'),
                relative_url(&text(), site)
            ))
        }
        "markdownify" => string(markdown_html(&text())),
        "escape" | "xml_escape" | "escape_once" => string(escape(&text())),
        "default" => match &value {
            v if !truthy(v)
                || v.as_str() == Some("")
                || v.as_array().is_some_and(Vec::is_empty) =>
            {
                Ok(arguments.first().cloned().unwrap_or(Value::Null))
            }
            _ => Ok(value),
        },
        "downcase" => string(text().to_lowercase()),
        "upcase" => string(text().to_uppercase()),
        "capitalize" => {
            let text = text();
            let mut chars = text.chars();
            let first: String = chars
                .next()
                .map(|c| c.to_uppercase().collect())
                .unwrap_or_default();
            string(first + chars.as_str())
        }
        "strip" => string(text().trim().to_owned()),
        "lstrip" => string(text().trim_start().to_owned()),
        "rstrip" => string(text().trim_end().to_owned()),
        "strip_newlines" => string(text().replace(['\n', '\r'], "")),
        "strip_html" => string(strip_html(&text())),
        "remove" => string(text().replace(&argument(0), "")),
        "remove_first" => string(text().replacen(&argument(0), "", 1)),
        "replace" => string(text().replace(&argument(0), &argument(1))),
        "replace_first" => string(text().replacen(&argument(0), &argument(1), 1)),
        "append" => string(text() + &argument(0)),
        "prepend" => string(argument(0) + &text()),
        "date"
        | "date_to_string"
        | "date_to_long_string"
        | "date_to_xmlschema"
        | "date_to_rfc822" => dated(name, &text(), &argument(0)).map(Value::String),
        _ => of_lists(name, value, arguments),
    }
}

/// The date filters, as Jekyll formats them (Ruby's `strftime` patterns,
/// which jiff reads): `date: "%B %-d, %Y"`, `date_to_string` (`05 Feb
/// 2024`) and the others. A date is written as front matter holds one
/// (`2024-02-05`, with a time and an offset or not); `now` and
/// `today` need the clock, which an import does not read.
fn dated(filter: &str, date: &str, format: &str) -> Result<String, Unresolved> {
    let date = date.trim();
    let unread = || Unresolved(format!("the date `{date}` in the filter `{filter}`"));
    let utc = jiff::tz::TimeZone::UTC;
    let zoned = match date.parse::<jiff::Timestamp>() {
        Ok(at) => at.to_zoned_datetime(utc),
        Err(_) => match date.parse::<jiff::civil::DateTime>() {
            Ok(at) => at.to_zoned_datetime(utc).map_err(|_| unread())?,
            Err(_) => {
                let day = date.get(..10).unwrap_or(date);
                let day = day.parse::<jiff::civil::Date>().map_err(|_| unread())?;
                day.to_zoned_datetime(utc).map_err(|_| unread())?
            }
        },
    };
    let pattern = match filter {
        "date_to_string" => "%d %b %Y",
        "date_to_long_string" => "%d %B %Y",
        "date_to_xmlschema" => "%Y-%m-%dT%H:%M:%S%:z",
        "date_to_rfc822" => "%a, %d %b %Y %H:%M:%S %z",
        _ => format,
    };
    jiff::fmt::strtime::format(pattern, &zoned)
        .map_err(|_| Unresolved(format!("the date format `{pattern}`")))
}

/// The filters of lists, and of what counts its items.
fn of_lists(name: &str, value: Value, arguments: &[Value]) -> Result<Value, Unresolved> {
    let argument = |at: usize| arguments.get(at).map(text_of).unwrap_or_default();
    let text = || text_of(&value);
    let string = |s: String| Ok(Value::String(s));
    match name {
        "size" => Ok(Value::from(match &value {
            Value::Array(items) => items.len(),
            other => text_of(other).chars().count(),
        })),
        "join" => match &value {
            Value::Array(items) => {
                let separator = if arguments.is_empty() {
                    " ".to_owned()
                } else {
                    argument(0)
                };
                string(
                    items
                        .iter()
                        .map(text_of)
                        .collect::<Vec<_>>()
                        .join(&separator),
                )
            }
            _ => Ok(value),
        },
        "first" => Ok(value
            .as_array()
            .and_then(|a| a.first().cloned())
            .unwrap_or(Value::Null)),
        "last" => Ok(value
            .as_array()
            .and_then(|a| a.last().cloned())
            .unwrap_or(Value::Null)),
        "split" => Ok(Value::Array(
            text()
                .split(&argument(0))
                .map(|s| Value::String(s.to_owned()))
                .collect(),
        )),
        "reverse" => match value {
            Value::Array(mut items) => {
                items.reverse();
                Ok(Value::Array(items))
            }
            other => Ok(other),
        },
        "slugify" => string(crate::model::url::heading_id(&text())),
        "url_encode" | "uri_escape" | "cgi_escape" => {
            let set = percent_encoding::NON_ALPHANUMERIC;
            string(percent_encoding::utf8_percent_encode(&text(), set).to_string())
        }
        "jsonify" => string(value.to_string()),
        "where" => match &value {
            Value::Array(items) => {
                let (key, wanted) = (
                    argument(0),
                    arguments.get(1).cloned().unwrap_or(Value::Null),
                );
                let kept = items
                    .iter()
                    .filter(|item| item.get(&key).map(text_of) == Some(text_of(&wanted)));
                Ok(Value::Array(kept.cloned().collect()))
            }
            _ => Ok(Value::Array(Vec::new())),
        },
        other => Err(Unresolved(format!("the filter `{other}`"))),
    }
}

/// A path under the site's `baseurl`, as `relative_url` gives it; a URL
/// with a scheme stays as it is.
pub(in crate::import) fn relative_url(path: &str, site: &Value) -> String {
    if path.contains("://") || path.starts_with("//") {
        return path.to_owned();
    }
    let base = site.get("baseurl").map(text_of).unwrap_or_default();
    let base = base.trim_end_matches('/');
    match path.strip_prefix('/') {
        Some(rest) => format!("{base}/{rest}"),
        None if path.is_empty() => format!("{base}/"),
        None => format!("{base}/{path}"),
    }
}

/// Markdown as HTML, as `markdownify` gives it.
pub(super) fn markdown_html(text: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(text, MARKDOWN);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    html
}

/// `text` with `&<>"'` escaped, as HTML text or an attribute's value.
pub(in crate::import) fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    // Writing to a String cannot fail.
    let _ = pulldown_cmark_escape::escape_html(&mut escaped, text);
    escaped
}

fn strip_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}
