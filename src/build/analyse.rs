//! From a scan and the rows as the index (or the kept session) has them to
//! the documents of this build, checked: which sources must be read, their
//! parse in parallel, and the invariants that guard their ids.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::model::doc::{Record, Source, SourceState, Stat};
use crate::model::error::{Error, Problem};
use crate::model::hash::source_hash;
use crate::model::report::{BuildReport, Event, Reporter, Stage};
use crate::plugin::Plugins;
use crate::source::config::Config;
use crate::source::discover::{FilesAt, walk_order};
use crate::source::identify::{self, TimezoneChange, Verdict};
use crate::source::parse::{self, BodyAt, Parsed};
use crate::source::section::{SectionFile, parse_section};
use crate::source::shortcodes::Shortcodes;
use crate::store::index::{Index, Snapshot};

/// The most sources one worker parses, or pages it renders, in a row
/// before the rest can be shared out again: small enough that the last run
/// takes a few milliseconds.
pub(crate) const RUN_LEN: usize = 32;

/// The documents of a build, checked, with the rows they replace.
pub(crate) struct Analysis {
    /// The rows a changed, new or removed source may conflict with, and the
    /// outputs and settings the last build left.
    pub snapshot: Snapshot,
    /// The documents read by this build, by their place in `current`.
    pub fresh: Vec<usize>,
    /// Where their bodies are, by the same place.
    pub bodies: HashMap<usize, BodyAt>,
    /// Every current document, by source path.
    pub current: Vec<Record>,
    pub verdict: Verdict,
    /// The content settings the rows are derived with.
    pub settings: String,
    /// What each section's `_index.md` says, in walk order.
    pub sections: Vec<SectionFile>,
}

/// What reading the sources of one build needs.
pub(crate) struct Reading<'a> {
    pub root: &'a Path,
    pub config: &'a Config,
    pub files: &'a FilesAt,
    /// Sources to read even when their stat says they did not change.
    pub force_read: &'a HashSet<String>,
    /// The only paths that may have changed since the rows were made (a
    /// kept session told what changed), or `None` when any may have.
    pub changed: Option<&'a [String]>,
    pub started_ns: i64,
    pub accept_id_changes: bool,
    pub plugins: &'a Plugins,
    pub shortcodes: &'a Shortcodes,
    pub progress: &'a Reporter,
}

/// The settings that change what parsing a source yields: the config's,
/// and the Markdown transforms (a new version of one re-parses every
/// source, and the pages of those it then touches differently render
/// again).
pub(crate) fn content_settings(
    config: &Config,
    plugins: &Plugins,
    shortcodes: &Shortcodes,
) -> String {
    let transforms = plugins.transforms_stamp();
    let mut settings = config.content_settings();
    if !transforms.is_empty() {
        settings.push_str(&format!("; markdown plugins {transforms}"));
    }
    // A summary holds what the shortcodes it calls wrote when its source
    // was parsed.
    settings.push_str(&format!("; shortcodes {}", shortcodes.settings()));
    settings
}

/// Reads what changed, parses it and checks the invariants; writes nothing.
/// When the snapshot holds [stubs](Record::stub), `stubs_of` is the index
/// to read whole rows from: those of the sources read again, before the
/// documents are checked against them, and every other one a check reads.
pub(crate) fn analyse(
    reading: &Reading<'_>,
    (mut snapshot, stubs_of): (Snapshot, Option<&Index>),
    (sources, sections): (&[Source], &[Source]),
    mut problems: Vec<Problem>,
    report: &mut BuildReport,
) -> Result<Analysis, Error> {
    let settings = content_settings(reading.config, reading.plugins, reading.shortcodes);
    let reparse_all = snapshot.meta.content_settings.as_deref() != Some(settings.as_str());
    let mut split = match reading.changed {
        Some(changed) if !reparse_all => in_place(reading, &mut snapshot, sources, changed),
        _ => None,
    }
    .map_or_else(
        || split_trusted((reading, stubs_of), &mut snapshot, sources, reparse_all),
        Ok,
    )?;
    report.parsed = split.to_read.len();
    report.unchanged = sources.len() - report.parsed;

    let events = reading.progress;
    events.finish(report, Stage::Discover);
    events.start(Stage::Parse, split.to_read.len());
    let mut fresh = parse_all(reading, &split.to_read, &mut problems)?;
    let sections = read_sections(reading, sections, &mut problems)?;
    if !problems.is_empty() {
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        return Err(Error::Content(problems));
    }

    events.finish(report, Stage::Parse);
    events.start(Stage::Identify, 0);
    let config = reading.config;
    let timezone_change = match &snapshot.meta.timezone {
        Some(old) if reparse_all && *old != config.timezone_name => Some(TimezoneChange {
            old,
            new: &config.timezone_name,
        }),
        _ => None,
    };
    if let Some(index) = stubs_of
        && !identify::keeps_every_claim(&fresh, &snapshot.records)
    {
        // What a new claim may clash with is any other document's.
        index.load_every(&mut split.kept)?;
    }
    let verdict = identify::check(
        &fresh,
        split.unchanged(),
        &snapshot.records,
        timezone_change,
        reading.accept_id_changes,
    )?;

    events.finish(report, Stage::Identify);
    inherit_publication(&mut fresh, &snapshot.records);
    // Both are sorted by path: the stored rows as the snapshot sorted
    // them, the fresh ones here.
    fresh.sort_by(|a, b| a.record.source.path.cmp(&b.record.source.path));
    let (current, fresh, bodies) = split.with(fresh);
    Ok(Analysis {
        snapshot,
        fresh,
        bodies,
        current,
        verdict,
        settings,
        sections,
    })
}

/// Reads every section's `_index.md`: a site has few, and what one says
/// reaches pages no row records. A file's problem joins `problems`.
fn read_sections(
    reading: &Reading<'_>,
    sections: &[Source],
    problems: &mut Vec<Problem>,
) -> Result<Vec<SectionFile>, Error> {
    let mut read = Vec::with_capacity(sections.len());
    for source in sections {
        let bytes = reading
            .files
            .read(&source.path, source.stat.size)
            .map_err(|e| Error::io(reading.root.join(&source.path), e))?;
        let hash = source_hash(&bytes);
        match parse_section(source, &bytes, hash, (reading.config, reading.shortcodes)) {
            Ok(section) => read.push(section),
            Err((line, kind)) => problems.push(Problem::new(&source.path, line, kind)),
        }
    }
    Ok(read)
}

/// Which rows this build keeps as they are and which sources it reads.
struct Split<'s> {
    /// Every row kept, with those of the sources at `places` (sorted) as
    /// they were, each to be replaced by its source read again; or, when
    /// `places` is `None`, only the rows kept.
    kept: Vec<Record>,
    places: Option<Vec<usize>>,
    /// The sources to read, by path.
    to_read: Vec<&'s Source>,
}

impl Split<'_> {
    /// The rows kept as they are.
    fn unchanged(&self) -> impl Iterator<Item = &Record> {
        let places = self.places.as_deref();
        self.kept
            .iter()
            .enumerate()
            .filter(move |(i, _)| places.is_none_or(|places| places.binary_search(i).is_err()))
            .map(|(_, record)| record)
    }

    /// Every document of this build, by source path, with the places of
    /// `fresh` (read, sorted by path) among them and where each one's body
    /// is, by the same place. The records move: a copy of 15,000 of them
    /// was 20 ms of a cold build with one core idle.
    fn with(self, fresh: Vec<Parsed>) -> (Vec<Record>, Vec<usize>, HashMap<usize, BodyAt>) {
        let mut bodies = Vec::with_capacity(fresh.len());
        let fresh_records = fresh.into_iter().map(|parsed| {
            bodies.push(parsed.body);
            parsed.record
        });
        let (current, places) = match self.places {
            Some(places) => {
                debug_assert_eq!(places.len(), fresh_records.len());
                let mut current = self.kept;
                for (&at, record) in places.iter().zip(fresh_records) {
                    current[at] = record;
                }
                (current, places)
            }
            None => merge_by_path(self.kept, fresh_records),
        };
        let bodies = places.iter().copied().zip(bodies).collect();
        (current, places, bodies)
    }
}

/// A row whose source kept its stat is this build's record as it is: it
/// moves out of the snapshot, which keeps only the rows a changed, new or
/// removed source may conflict with; or, when no source came or went and
/// few changed, every row stays in its place and the snapshot keeps a copy
/// of those of the changed sources.
/// Stubs are read whole where a row is compared with its source read
/// again, and all of them when rows move.
fn split_trusted<'s>(
    (reading, stubs_of): (&Reading<'_>, Option<&Index>),
    snapshot: &mut Snapshot,
    sources: &'s [Source],
    reparse_all: bool,
) -> Result<Split<'s>, Error> {
    let mut trusted = vec![false; snapshot.records.len()];
    let mut with_rows = 0;
    let to_read: Vec<&Source> = {
        let records = &snapshot.records;
        // The rows are in the order of their paths' bytes, the sources in
        // the walk's, which agree but where a name sorts before its
        // folder's `/` (`2024-recap.md`, `2024/`): each source's row is
        // most often the one after the last one's, and the rows are put
        // in a map only at the first that is not (hashing 60,000 paths was
        // most of analyse's time in a one-post edit).
        let mut by_path: Option<FxHashMap<&str, usize>> = None;
        let mut next = 0;
        sources
            .iter()
            .filter(|s| {
                let at = match records.get(next) {
                    Some(row) if row.source.path == s.path => Some(next),
                    _ => (by_path.get_or_insert_with(|| {
                        (records.iter().enumerate())
                            .map(|(i, r)| (r.source.path.as_str(), i))
                            .collect()
                    }))
                    .get(s.path.as_str())
                    .copied(),
                };
                let Some(i) = at else {
                    return true;
                };
                next = i + 1;
                with_rows += 1;
                let unchanged = !reparse_all && trusts(reading, &snapshot.records[i], s);
                trusted[i] = unchanged;
                !unchanged
            })
            .collect()
    };
    // No source came or went and few changed: every row keeps its place,
    // as in a kept session's rebuild. Moving them all out and merging them
    // back was a tenth of a one-off one-post edit of 60,000 posts. Stubs
    // stay in their places however many changed: moved, each would be
    // read whole.
    if with_rows == sources.len()
        && with_rows == snapshot.records.len()
        && (stubs_of.is_some() || to_read.len() <= sources.len() / IN_PLACE_SHARE)
    {
        let places: Vec<usize> = (trusted.iter().enumerate())
            .filter(|(_, trusted)| !**trusted)
            .map(|(at, _)| at)
            .collect();
        let mut stored: Vec<Record> = places
            .iter()
            .map(|&at| snapshot.records[at].clone())
            .collect();
        if let Some(index) = stubs_of {
            index.load_every(&mut stored)?;
        }
        return Ok(Split {
            kept: std::mem::replace(&mut snapshot.records, stored),
            places: Some(places),
            to_read,
        });
    }
    if let Some(index) = stubs_of {
        index.load_every(&mut snapshot.records)?;
    }
    let mut unchanged_records = Vec::with_capacity(sources.len() - to_read.len());
    let mut others = Vec::new();
    for (record, trusted) in std::mem::take(&mut snapshot.records)
        .into_iter()
        .zip(trusted)
    {
        if trusted {
            unchanged_records.push(record);
        } else {
            others.push(record);
        }
    }
    snapshot.records = others;
    Ok(Split {
        kept: unchanged_records,
        places: None,
        to_read,
    })
}

/// At most one source in this many read again keeps the rows in their
/// places; past it, cloning the rows of the sources read costs more than
/// moving every row.
const IN_PLACE_SHARE: usize = 8;

/// Whether `record` is what `source` reads as: its stat is the row's, and
/// settled before this build began.
fn trusts(reading: &Reading<'_>, record: &Record, source: &Source) -> bool {
    !reading.force_read.contains(&source.path)
        && source.stat.mtime_ns < reading.started_ns
        && record.source.stat == source.stat
        && record.source.stat.mtime_ns != Stat::RACY
}

/// [`split_trusted`] for a kept session told which paths changed, where
/// each of them that is a source was one before and still is, so that
/// every row keeps its place: only those paths, and the rows whose stat
/// was not settled, are looked at, and no row moves (at 15,000 posts,
/// finding and moving them all was a third of a one-post rebuild). `None`
/// when a source came or went: then every source must be looked at.
fn in_place<'s>(
    reading: &Reading<'_>,
    snapshot: &mut Snapshot,
    sources: &'s [Source],
    changed: &[String],
) -> Option<Split<'s>> {
    let records = &snapshot.records;
    if records.len() != sources.len() {
        return None;
    }
    let unsettled = records
        .iter()
        .filter(|r| r.source.stat.mtime_ns == Stat::RACY)
        .map(|r| &r.source.path);
    let mut places = Vec::new();
    for path in changed.iter().chain(reading.force_read).chain(unsettled) {
        let record = records.binary_search_by(|r| r.source.path.as_str().cmp(path));
        let source = sources.binary_search_by(|s| walk_order(&s.path, path));
        match (record, source) {
            (Ok(at), Ok(s)) if !trusts(reading, &records[at], &sources[s]) => {
                places.push((at, &sources[s]))
            }
            (Ok(_), Ok(_)) | (Err(_), Err(_)) => {}
            (Ok(_), Err(_)) | (Err(_), Ok(_)) => return None,
        }
    }
    places.sort_unstable_by_key(|&(at, _)| at);
    places.dedup_by_key(|&mut (at, _)| at);
    let (places, to_read): (Vec<usize>, Vec<&Source>) = places.into_iter().unzip();
    let stored = places.iter().map(|&at| records[at].clone()).collect();
    Some(Split {
        kept: std::mem::replace(&mut snapshot.records, stored),
        places: Some(places),
        to_read,
    })
}

/// Reads and parses `to_read` in parallel; a source's problem joins
/// `problems`, an I/O error stops the build.
fn parse_all(
    reading: &Reading<'_>,
    to_read: &[&Source],
    problems: &mut Vec<Problem>,
) -> Result<Vec<Parsed>, Error> {
    let results: Vec<Result<Parsed, Problem>> = to_read
        .par_iter()
        .with_max_len(RUN_LEN)
        .map(|source| {
            let result = read_and_parse(reading, source);
            reading.progress.emit(|| Event::SourceParsed {
                source: source.path.clone(),
            });
            result
        })
        .collect::<Result<_, Error>>()?;
    let mut fresh = Vec::with_capacity(results.len());
    for result in results {
        match result {
            Ok(parsed) => fresh.push(parsed),
            Err(problem) => problems.push(problem),
        }
    }
    Ok(fresh)
}

fn read_and_parse(
    reading: &Reading<'_>,
    source: &Source,
) -> Result<Result<Parsed, Problem>, Error> {
    let bytes = reading
        .files
        .read(&source.path, source.stat.size)
        .map_err(|e| Error::io(reading.root.join(&source.path), e))?;
    let hash = source_hash(&bytes);
    Ok(parse::parse(
        source,
        &bytes,
        hash,
        (reading.config, reading.plugins, reading.shortcodes),
    )
    .map(|mut parsed| {
        parsed.record.source.stat = source.stat.settled(reading.started_ns);
        parsed
    })
    .map_err(|(line, kind)| Problem::new(&source.path, line, kind)))
}

/// Merges two lists of records sorted by source path into one, and says
/// where `b`'s records went.
fn merge_by_path(
    a: Vec<Record>,
    b: impl ExactSizeIterator<Item = Record>,
) -> (Vec<Record>, Vec<usize>) {
    let mut merged = Vec::with_capacity(a.len() + b.len());
    let mut from_b = Vec::with_capacity(b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.peekable());
    loop {
        let take_a = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => x.source.path <= y.source.path,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return (merged, from_b),
        };
        if !take_a {
            from_b.push(merged.len());
        }
        merged.extend(if take_a { a.next() } else { b.next() });
    }
}

/// A document read again keeps what its row knew: once published, always
/// published (its id went out with its page and feed entry), even when it
/// is a draft now.
fn inherit_publication(fresh: &mut [Parsed], stored: &[Record]) {
    if !fresh.iter().any(|p| !p.record.ever_published) {
        return;
    }
    let published: std::collections::HashSet<crate::model::id::PostId> = stored
        .iter()
        .filter(|r| r.ever_published)
        .map(|r| r.id)
        .collect();
    for parsed in fresh {
        parsed.record.ever_published |= published.contains(&parsed.record.id);
    }
}

/// The content columns are equal: only the source's stat may differ.
pub(crate) fn same_content(stored: &Record, fresh: &Record) -> bool {
    // Destructured, so that a field added to `Record` cannot be left out.
    let Record {
        id,
        kind,
        slug,
        lang,
        published_at,
        updated_at,
        expires_at,
        source: SourceState {
            path,
            hash,
            stat: _,
        },
        title,
        url,
        summary,
        description,
        tags,
        terms,
        draft,
        ever_published,
        translation_key,
        plugins,
        extra,
        aliases,
        template,
        word_count,
        reading_time,
        headings,
        links,
        shortcodes,
        images,
        weight,
    } = fresh;
    *id == stored.id
        && *kind == stored.kind
        && *slug == stored.slug
        && *lang == stored.lang
        && *published_at == stored.published_at
        && *updated_at == stored.updated_at
        && *expires_at == stored.expires_at
        && *path == stored.source.path
        && *hash == stored.source.hash
        && *title == stored.title
        && *url == stored.url
        && *summary == stored.summary
        && *description == stored.description
        && *tags == stored.tags
        && *terms == stored.terms
        && *draft == stored.draft
        && *ever_published == stored.ever_published
        && *translation_key == stored.translation_key
        && *plugins == stored.plugins
        && *extra == stored.extra
        && *aliases == stored.aliases
        && *template == stored.template
        && *word_count == stored.word_count
        && *reading_time == stored.reading_time
        && *headings == stored.headings
        && *links == stored.links
        && *shortcodes == stored.shortcodes
        && *images == stored.images
        && *weight == stored.weight
}
