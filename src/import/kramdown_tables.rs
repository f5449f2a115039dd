//! kramdown's tables as CommonMark's (GitHub's tables, which folio reads):
//! kramdown takes a header separator of any width (`|----`), separator
//! lines between bodies (`|----`) and before a footer (`|=====`), and a
//! table without a header; GitHub's tables show the separators as rows of
//! dashes, and a table without a header as a paragraph of pipes. So the
//! header separator gets a cell per column, the others are taken out (their
//! rows stay), and a table without a header is written as HTML.

use super::kramdown::code_lines;
use crate::source::markdown::MARKDOWN;

/// `body` with its kramdown tables written as GitHub's (see the module),
/// and how many were.
pub(super) fn tables(body: &str) -> (String, usize) {
    let lines: Vec<&str> = body.split('\n').collect();
    let in_code = code_lines(body);
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut rewritten = 0;
    let mut at = 0;
    while at < lines.len() {
        if in_code[at] || !is_row(lines[at]) {
            out.push(lines[at].to_owned());
            at += 1;
            continue;
        }
        let first = at;
        while at < lines.len() && !in_code[at] && is_row(lines[at]) {
            at += 1;
        }
        let block = &lines[first..at];
        match table(block) {
            Some(table) => {
                out.extend(table);
                rewritten += 1;
            }
            None => out.extend(block.iter().map(|line| (*line).to_owned())),
        }
    }
    (out.join("\n"), rewritten)
}

/// Whether a line is a table's: it starts with `|`, indented less than
/// code.
fn is_row(line: &str) -> bool {
    let trimmed = line.trim_start();
    line.len() - trimmed.len() < 4 && trimmed.starts_with('|')
}

/// Whether a row is a separator made of `fill` (`-` or `=`), `|`, `:` and
/// `+`.
fn is_separator(line: &str, fill: char) -> bool {
    let line = line.trim();
    line.contains(fill) && line.chars().all(|c| c == fill || "|:+ ".contains(c))
}

/// The table `block` as GitHub's, or `None` when it is one already.
fn table(block: &[&str]) -> Option<Vec<String>> {
    let header = block.len() > 1 && is_separator(block[1], '-');
    let columns = cells(block[0]).len();
    let delimiter = header.then(|| delimiter(block[1], columns));
    let rules_inside = block
        .iter()
        .skip(if header { 2 } else { 0 })
        .any(|line| is_separator(line, '-') || is_separator(line, '='));
    // A separator of a cell per column GitHub reads as it is.
    if header && !rules_inside && cells(block[1]).len() == columns {
        return None;
    }
    let rows = block.iter().enumerate().filter(|(at, line)| {
        let is_header_rule = header && *at == 1;
        !is_header_rule && !is_separator(line, '-') && !is_separator(line, '=')
    });
    let rows: Vec<&str> = rows.map(|(_, line)| *line).collect();
    if let Some(delimiter) = delimiter {
        let mut table = vec![rows[0].to_owned(), delimiter];
        table.extend(rows[1..].iter().map(|row| (*row).to_owned()));
        return Some(table);
    }
    // No header: HTML, each cell's Markdown as HTML.
    let mut html = vec!["<table>".to_owned(), "<tbody>".to_owned()];
    for row in rows {
        let cells: Vec<String> = cells(row)
            .iter()
            .map(|cell| format!("<td>{}</td>", inline_html(cell)))
            .collect();
        html.push(format!("<tr>{}</tr>", cells.concat()));
    }
    html.extend(["</tbody>".to_owned(), "</table>".to_owned()]);
    Some(html)
}

/// A header separator with a cell per column, each as the separator said
/// it (`:--`, `:-:`, `--:`) where it has one, else `---`.
fn delimiter(written: &str, columns: usize) -> String {
    let said = cells(written);
    let cells: Vec<String> = (0..columns.max(1))
        .map(|at| {
            let cell = said.get(at).map_or("", |c| c.trim());
            match (cell.starts_with(':'), cell.ends_with(':') && cell.len() > 1) {
                (true, true) => ":-:".to_owned(),
                (true, false) => ":--".to_owned(),
                (false, true) => "--:".to_owned(),
                (false, false) => "---".to_owned(),
            }
        })
        .collect();
    format!("|{}|", cells.join("|"))
}

/// A row's cells: between its `|`s, a `\|` and a `|` in a code span kept.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim();
    let row = row.strip_prefix('|').unwrap_or(row);
    let mut cells = Vec::new();
    let mut cell = String::new();
    let (mut escaped, mut in_code) = (false, false);
    for c in row.chars() {
        match c {
            '|' if !escaped && !in_code => cells.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
        in_code ^= c == '`';
        escaped = c == '\\' && !escaped;
    }
    if !cell.trim().is_empty() {
        cells.push(cell);
    }
    cells.into_iter().map(|c| c.trim().to_owned()).collect()
}

/// A cell's Markdown as inline HTML.
fn inline_html(text: &str) -> String {
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new_ext(text, MARKDOWN));
    let html = html.trim();
    let html = html.strip_prefix("<p>").unwrap_or(html);
    html.strip_suffix("</p>").unwrap_or(html).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kramdown_tables_are_written_as_github_s() {
        let body = "| H1 | H2 | H3 |\n|:---|:---:|---:|\n| a | b | c |\n|----\n| d | e | f |\n|=====\n| F1 | F2 | F3\n\n\
                    | Short | header |\n|----\n| x | y |\n\n\
                    | no | header | *here* |\n| 1 | 2 | `a|b` |\n\n\
                    | Done | already |\n|---|---|\n| 1 | 2 |\n\n```\n| kept |\n|----\n```\n";
        let (out, rewritten) = tables(body);
        assert_eq!(
            out,
            "| H1 | H2 | H3 |\n|:--|:-:|--:|\n| a | b | c |\n| d | e | f |\n| F1 | F2 | F3\n\n\
             | Short | header |\n|---|---|\n| x | y |\n\n\
             <table>\n<tbody>\n<tr><td>no</td><td>header</td><td><em>here</em></td></tr>\n<tr><td>1</td><td>2</td><td><code>a|b</code></td></tr>\n</tbody>\n</table>\n\n\
             | Done | already |\n|---|---|\n| 1 | 2 |\n\n```\n| kept |\n|----\n```\n"
        );
        assert_eq!(rewritten, 3);
    }
}
