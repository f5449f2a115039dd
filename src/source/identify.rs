//! The invariants that guard each document's id ([`crate::model::id`]), checked
//! before anything is written: one document per (slug, lang), one document
//! per translation key and language, and the immutability of a post's date.

use std::collections::HashSet;
use std::path::PathBuf;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::model::doc::{Kind, Record};
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::id::{PostId, format_ms};
use crate::source::parse::Parsed;

/// A time-zone change the index has not seen yet: (old, new) names.
pub struct TimezoneChange<'a> {
    pub old: &'a str,
    pub new: &'a str,
}

/// What the checks decided about the stored rows.
#[derive(Debug, Default)]
pub struct Verdict {
    /// Stored rows that no current source claims any more, to delete.
    pub retired: Vec<PostId>,
}

/// Checks the invariants over the documents of this build: `unchanged` are the
/// stored rows whose sources were not read, `fresh` the sources parsed now,
/// `stored` every other row of the index before this build (an unchanged row
/// keeps its slot and its id, so it can neither be re-dated nor retired; a
/// fresh document that claims its slot is a duplicate of it).
pub fn check<'r>(
    fresh: &'r [Parsed],
    unchanged: impl IntoIterator<Item = &'r Record>,
    stored: &[Record],
    timezone_change: Option<TimezoneChange<'_>>,
    accept_id_changes: bool,
) -> Result<Verdict, Error> {
    if keeps_every_claim(fresh, stored) {
        return Ok(Verdict {
            retired: Vec::new(),
        });
    }
    let current: Vec<&Record> = unchanged
        .into_iter()
        .chain(fresh.iter().map(|p| &p.record))
        .collect();
    let mut problems = duplicates(&current);
    if !problems.is_empty() {
        on_slug_lines(&mut problems, fresh);
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        return Err(Error::Content(problems));
    }

    let by_path: FxHashMap<&str, &Record> = current
        .iter()
        .map(|r| (r.source.path.as_str(), *r))
        .collect();
    let stored_by_slot: FxHashMap<(&str, &str), &Record> = stored
        .iter()
        .map(|r| ((r.slug.as_str(), r.lang.as_str()), r))
        .collect();

    let mut retired: HashSet<PostId> = HashSet::new();
    let mut moved_by_timezone: Vec<PathBuf> = Vec::new();
    for parsed in fresh {
        let new = &parsed.record;
        let Some(old) = stored_by_slot.get(&(new.slug.as_str(), new.lang.as_str())) else {
            continue;
        };
        if old.id == new.id {
            continue;
        }
        // The slot's previous owner is another file that now claims something
        // else: the slug was handed over, not re-dated.
        let handed_over = old.source.path != new.source.path
            && by_path
                .get(old.source.path.as_str())
                .is_some_and(|owner| owner.slug != new.slug || owner.lang != new.lang);
        // A page became a post or a post a page (its section now holds, or
        // no longer holds, posts): a page has no date to change, and the
        // document is published anew under its new kind.
        // A draft never published: its date changes freely.
        if handed_over || old.kind != new.kind || !old.ever_published {
            continue;
        }
        if timezone_change.is_some() && parsed.date_is_local {
            moved_by_timezone.push(PathBuf::from(&new.source.path));
        } else if accept_id_changes {
            retired.insert(old.id);
        } else {
            problems.push(Problem::new(
                &new.source.path,
                parsed.date_line,
                ProblemKind::DateChanged {
                    file: new.source.path.clone(),
                    lang: new.lang.clone(),
                    old: format_ms(old.published_at),
                    new: format_ms(new.published_at),
                },
            ));
        }
    }
    problems.extend(renamed(fresh, stored, accept_id_changes));
    if let Some(change) = timezone_change
        && !moved_by_timezone.is_empty()
    {
        moved_by_timezone.sort();
        return Err(Error::TimezoneMovedDates {
            old: change.old.to_owned(),
            new: change.new.to_owned(),
            files: moved_by_timezone,
        });
    }
    if !problems.is_empty() {
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        return Err(Error::Content(problems));
    }

    for row in stored {
        let claimed = by_path
            .get(row.source.path.as_str())
            .is_some_and(|current| current.id == row.id);
        if !claimed {
            retired.insert(row.id);
        }
    }
    let mut retired: Vec<PostId> = retired.into_iter().collect();
    retired.sort();
    Ok(Verdict { retired })
}

/// A clash over a slug the front matter writes is on that line.
fn on_slug_lines(problems: &mut [Problem], fresh: &[Parsed]) {
    for problem in problems {
        if let ProblemKind::DuplicateSlug { .. } = problem.kind
            && let Some(parsed) = fresh
                .iter()
                .find(|p| problem.path.as_os_str() == p.record.source.path.as_str())
        {
            problem.line = parsed.slug_line;
        }
    }
}

/// The published posts whose file now gives another slug: the slug feeds
/// the id as much as the date does, so a renamed post would fork (a new
/// page, and a new entry in every feed reader) just as a re-dated one. A
/// draft was never published and renames freely; `accept` lets every
/// rename through.
fn renamed(fresh: &[Parsed], stored: &[Record], accept: bool) -> Vec<Problem> {
    if accept {
        return Vec::new();
    }
    let stored_by_path: FxHashMap<&str, &Record> =
        stored.iter().map(|r| (r.source.path.as_str(), r)).collect();
    fresh
        .iter()
        .filter_map(|parsed| {
            let new = &parsed.record;
            let old = stored_by_path.get(new.source.path.as_str())?;
            let published_post =
                old.kind == Kind::Post && new.kind == Kind::Post && old.ever_published;
            (published_post && old.lang == new.lang && old.slug != new.slug).then(|| {
                Problem::new(
                    &new.source.path,
                    parsed.slug_line,
                    ProblemKind::SlugChanged {
                        file: new.source.path.clone(),
                        lang: new.lang.clone(),
                        old: old.slug.clone(),
                        new: new.slug.clone(),
                    },
                )
            })
        })
        .collect()
}

/// One document per (slug, lang) and per (kind, translation key, lang).
/// Whether the documents read make exactly the claims the rows they
/// replace made (the same sources, each with the same id, slug, language,
/// kind and translation key): the rows passed these checks when they were
/// committed, so nothing is left to check, and a one-post edit does not
/// pay for looking at every other post.
/// Whether each document of `fresh` claims what its row in `stored` did:
/// then no invariant can be broken, and the other rows are not looked at.
pub fn keeps_every_claim(fresh: &[Parsed], stored: &[Record]) -> bool {
    if fresh.len() != stored.len() {
        return false;
    }
    let mut fresh: Vec<&Record> = fresh.iter().map(|p| &p.record).collect();
    fresh.sort_unstable_by(|a, b| a.source.path.cmp(&b.source.path));
    // `stored` is sorted by path, as the index reads it.
    fresh
        .iter()
        .zip(stored)
        .all(|(new, old)| new.same_claims(old))
}

fn duplicates(current: &[&Record]) -> Vec<Problem> {
    let mut problems = Vec::new();
    // Sorting and scanning runs of equal keys finds every clash without a
    // map entry per document; the first of each run (by path) is the one
    // the others are reported against.
    let mut by_slot = current.to_vec();
    by_slot.par_sort_unstable_by(|a, b| {
        (&a.slug, &a.lang, &a.source.path).cmp(&(&b.slug, &b.lang, &b.source.path))
    });
    for claimants in by_slot
        .chunk_by(|a, b| a.slug == b.slug && a.lang == b.lang)
        .filter(|c| c.len() > 1)
    {
        let first = claimants[0];
        for later in &claimants[1..] {
            problems.push(Problem::new(
                &later.source.path,
                None,
                ProblemKind::DuplicateSlug {
                    slug: later.slug.clone(),
                    lang: later.lang.clone(),
                    other: PathBuf::from(&first.source.path),
                },
            ));
        }
    }
    let mut by_key = by_slot;
    by_key.par_sort_unstable_by(|a, b| {
        (a.kind, &a.translation_key, &a.lang, &a.source.path).cmp(&(
            b.kind,
            &b.translation_key,
            &b.lang,
            &b.source.path,
        ))
    });
    for claimants in by_key
        .chunk_by(|a, b| {
            a.kind == b.kind && a.translation_key == b.translation_key && a.lang == b.lang
        })
        .filter(|c| c.len() > 1)
    {
        let first = claimants[0];
        // Two claimants of one slot are already reported above.
        for later in claimants[1..].iter().filter(|r| r.slug != first.slug) {
            problems.push(Problem::new(
                &later.source.path,
                None,
                ProblemKind::DuplicateTranslation {
                    key: later.translation_key.clone(),
                    lang: later.lang.clone(),
                    other: PathBuf::from(&first.source.path),
                },
            ));
        }
    }
    problems
}
