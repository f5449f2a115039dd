//! The images the published documents show, measured (part of analyse:
//! like a source, an image is opened only when its size or mtime moved
//! since the build that measured it, or that build could not trust its
//! mtime). A file that is no image folio reads fails the build, naming the
//! file and each page that shows it.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::build::scan::Damaged;
use crate::model::doc::{Record, Stat};
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::hash::source_hash as source_hash_of;
use crate::plan::Visibility;
use crate::plan::{Copy, Making};
use crate::plan::{Plan, drawn_copy};
use crate::source::config::Config;
use crate::source::discover::FilesAt;
use crate::source::image::Drawn;
use crate::source::image::Variant;
use crate::source::image::{ImageFiles, Measured, Shown, make, measure};
use crate::store::image_cache::ImageCache;
use crate::store::index::{ImageRows, OutputRow};

/// What a build knows of the images its documents show.
#[derive(Debug, Default)]
pub(crate) struct Survey {
    /// Which file each image of a published document names, and what
    /// folio measured of each.
    pub shown: Shown,
    /// Those this build measured: the index records them.
    fresh: Vec<String>,
    /// What the index knew of images no published document shows now.
    forgotten: Vec<String>,
}

impl Survey {
    /// Whether this build measured an image again: one changed, or came.
    pub(crate) fn measured_any(&self) -> bool {
        !self.fresh.is_empty()
    }

    /// The changes of the `images` table.
    pub(crate) fn rows(&self) -> ImageRows<'_> {
        ImageRows {
            measured: (self.fresh.iter())
                .filter_map(|path| Some((path.as_str(), self.shown.measured.get(path)?)))
                .collect(),
            forgotten: self.forgotten.iter().map(String::as_str).collect(),
        }
    }
}

/// Measures the images `records` published by `visibility` show, when the
/// site has `[images]`, and those the pages' templates asked for when they
/// last rendered (`drawn`): those `known` at their current stat are taken
/// as they were, unless the build must read them (`force_read`: their
/// bytes changed under the last attempt); the others are read, in
/// parallel.
pub(crate) fn survey(
    (config, files, images): (&Config, &FilesAt, &ImageFiles<'_>),
    (records, visibility, drawn): (&[Record], Visibility, &Drawn),
    (known, force_read): (&FxHashMap<String, Measured>, &HashSet<String>),
    started_ns: i64,
) -> Result<Survey, Error> {
    let mut survey = Survey::default();
    // Per image, its stat and the pages that show it.
    let mut shown: BTreeMap<String, (Stat, Vec<&str>)> = BTreeMap::new();
    if config.images.is_some() {
        let published = records.iter().filter(|r| visibility.shows(r));
        for record in published.filter(|r| !r.images.is_empty()) {
            let mut files = Vec::new();
            for (src, path, stat) in images.measured_of(record) {
                let entry = shown
                    .entry(path.clone())
                    .or_insert_with(|| (stat, Vec::new()));
                entry.1.push(&record.source.path);
                files.push((src.clone(), path));
            }
            if !files.is_empty() {
                let by_document = &mut survey.shown.by_document;
                by_document.insert(record.source.path.clone(), files);
            }
        }
    }
    for (page, uses) in drawn {
        for (image, _) in uses {
            if let Some(stat) = images.stat_of(image) {
                let entry = shown
                    .entry(image.clone())
                    .or_insert_with(|| (stat, Vec::new()));
                entry.1.push(page);
            }
        }
    }
    let found: Vec<(String, Found)> = shown
        .into_par_iter()
        .map(|(path, (stat, pages))| {
            let stat = stat.settled(started_ns);
            let trusted = known.get(&path).filter(|m| {
                m.stat == stat && stat.mtime_ns != Stat::RACY && !force_read.contains(&path)
            });
            let found = match trusted {
                Some(measured) => Found::Known(measured.clone()),
                None => match measure(files, &path, stat) {
                    Ok(measured) => Found::Measured(measured),
                    Err(why) => Found::Broken(broken(&path, &pages, why)),
                },
            };
            (path, found)
        })
        .collect();
    let mut problems = Vec::new();
    for (path, found) in found {
        let measured = match found {
            Found::Known(measured) => measured,
            Found::Measured(measured) => {
                survey.fresh.push(path.clone());
                measured
            }
            Found::Broken(problem) => {
                problems.push(problem);
                continue;
            }
        };
        survey.shown.measured.insert(path, measured);
    }
    if !problems.is_empty() {
        return Err(Error::Content(problems));
    }
    survey.forgotten = (known.keys())
        .filter(|path| !survey.shown.measured.contains_key(*path))
        .cloned()
        .collect();
    survey.forgotten.sort_unstable();
    Ok(survey)
}

/// An image as a survey found it.
enum Found {
    /// Taken from the index, its stat unchanged.
    Known(Measured),
    /// Measured by this build.
    Measured(Measured),
    Broken(Problem),
}

/// The problem of an image that cannot be measured: named with the first
/// page that shows it, the others counted.
fn broken(path: &str, pages: &[&str], why: String) -> Problem {
    let others = match pages.len() {
        0 | 1 => String::new(),
        n => format!(" (and {} other pages)", n - 1),
    };
    Problem::new(
        pages.first().copied().unwrap_or(path),
        None,
        ProblemKind::Image {
            image: path.to_owned(),
            message: format!("{why}{others}"),
        },
    )
}

/// The making of a build's image variants: each image decoded at most once
/// per build, for all of its variants the cache lacks, and each variant
/// kept in the cache once made.
pub(crate) struct ImageWork<'p> {
    /// Opened by the first variant made: a site without images has none.
    cache: OnceLock<ImageCache>,
    state_dir: PathBuf,
    /// A dry run makes what it must compare, but keeps nothing.
    dry_run: bool,
    /// Per image (by the hash of its bytes: two files of the same bytes
    /// make the same variants), a lock held while its variants are made,
    /// and those variants.
    images: FxHashMap<&'p str, (Mutex<()>, Vec<&'p Variant>)>,
    decoded: AtomicUsize,
    encoded: AtomicUsize,
}

impl<'p> ImageWork<'p> {
    /// The work of making `copies`' variants, kept in the cache of the
    /// state folder at `state_dir`.
    pub(crate) fn new(
        copies: impl IntoIterator<Item = &'p Copy>,
        state_dir: &Path,
        dry_run: bool,
    ) -> Self {
        let mut images: FxHashMap<&str, (Mutex<()>, Vec<&Variant>)> = FxHashMap::default();
        for copy in copies {
            if let Making::Image {
                variant,
                source_hash,
                ..
            } = &copy.making
            {
                let entry = images.entry(source_hash.as_str()).or_default();
                if !entry.1.contains(&variant) {
                    entry.1.push(variant);
                }
            }
        }
        ImageWork {
            cache: OnceLock::new(),
            state_dir: state_dir.to_owned(),
            dry_run,
            images,
            decoded: AtomicUsize::new(0),
            encoded: AtomicUsize::new(0),
        }
    }

    fn cache(&self) -> Result<&ImageCache, Error> {
        if let Some(cache) = self.cache.get() {
            return Ok(cache);
        }
        // Two workers may open it at once: one keeps its own.
        let opened = ImageCache::open(&self.state_dir)?;
        Ok(self.cache.get_or_init(|| opened))
    }

    /// Deletes from the cache the variants made before `before_ns` that
    /// this build's plan does not name, once this build encoded some: the
    /// cache only grows then.
    pub(crate) fn prune_cache(&self, before_ns: i64) -> Result<(), Error> {
        let Some(cache) = self.cache.get() else {
            return Ok(());
        };
        if self.dry_run || self.encoded.load(Ordering::Relaxed) == 0 {
            return Ok(());
        }
        let kept = (self.images.iter())
            .flat_map(|(hash, (_, variants))| variants.iter().map(|v| cached_name(hash, v)))
            .collect();
        cache.prune(&kept, before_ns).map(|_| ())
    }

    /// How many images this build decoded, and variants it encoded.
    pub(crate) fn counts(&self) -> (usize, usize) {
        (
            self.decoded.load(Ordering::Relaxed),
            self.encoded.load(Ordering::Relaxed),
        )
    }

    /// The bytes of `variant` of the image at `source` (a path from the
    /// root of `files`) whose bytes hash to `source_hash`, from the cache
    /// or made; `None` when the file no longer holds those bytes.
    pub(crate) fn make(
        &self,
        files: &FilesAt,
        (source, source_hash, shown_by): (&str, &str, &str),
        variant: &Variant,
    ) -> Result<Option<Vec<u8>>, Error> {
        let cache = self.cache()?;
        let name = cached_name(source_hash, variant);
        if let Some(bytes) = cache.get(&name)? {
            return Ok(Some(bytes));
        }
        // A variant a page asked for anew, of an image the plan makes
        // nothing of (`resize_image`), is made alone.
        let alone = (Mutex::new(()), Vec::new());
        let (lock, variants) = self.images.get(source_hash).unwrap_or(&alone);
        let _making = lock.lock().unwrap_or_else(PoisonError::into_inner);
        // Made by another worker while this one waited.
        if let Some(bytes) = cache.get(&name)? {
            return Ok(Some(bytes));
        }
        let bytes = files.read(source, 0).map_err(|e| Error::io(source, e))?;
        if source_hash_of(&bytes) != source_hash {
            return Ok(None);
        }
        let mut missing = vec![*variant];
        for &other in variants {
            if other != variant && cache.get(&cached_name(source_hash, other))?.is_none() {
                missing.push(*other);
            }
        }
        self.decoded.fetch_add(1, Ordering::Relaxed);
        let made = make(&bytes, &missing)
            .map_err(|why| Error::Content(vec![broken(source, &[shown_by], why)]))?;
        self.encoded.fetch_add(made.len(), Ordering::Relaxed);
        if !self.dry_run {
            for (other, made) in missing.iter().zip(&made) {
                cache.put(&cached_name(source_hash, other), made)?;
            }
        }
        // `variant` is the first of those made.
        Ok(made.into_iter().next())
    }
}

/// A variant's file in the cache.
fn cached_name(source_hash: &str, variant: &Variant) -> String {
    format!(
        "{}.{}",
        variant.key(source_hash),
        variant.format.extension()
    )
}

/// What the pages' templates ask of images once a build's pages have
/// rendered.
#[derive(Default)]
pub(crate) struct Drawing {
    /// The variants to make: asked for, and not as folio left them.
    pub late: Vec<Copy>,
    /// The variants no page asks for any more, to prune.
    pub dead: Vec<String>,
    /// What each page of the plan asks for: the rendered ones' new asks,
    /// the others' as they were.
    pub uses: Drawn,
}

/// The variants of images the pages of `plan` ask for, once those at
/// `rendered` (those of them that asked before, at least) rendered and
/// `asked` for theirs; `hashes` gives those of every image named; `stored`
/// and `damaged` what the output folder holds.
pub(crate) fn drawing(
    plan: &Plan<'_>,
    (rendered, asked): (&FxHashSet<&str>, Drawn),
    hashes: impl FnOnce() -> FxHashMap<String, String>,
    (stored, damaged): (&FxHashMap<String, OutputRow>, &Damaged),
) -> Drawing {
    // The asks of the pages that did not render, as they were; those of
    // the pages that did, as they are now.
    let mut uses: Drawn = (plan.drawn_uses().iter())
        .filter(|(page, _)| !rendered.contains(page.as_str()))
        .map(|(page, page_uses)| (page.clone(), page_uses.clone()))
        .collect();
    uses.extend(
        asked
            .into_iter()
            .filter(|(_, page_uses)| !page_uses.is_empty()),
    );
    if uses.is_empty() && plan.drawn().is_empty() {
        // No page asks for a variant, nor did: most sites.
        return Drawing::default();
    }
    let hashes = hashes();
    let copied: FxHashSet<&str> = plan.copies.iter().map(|c| c.output.as_str()).collect();
    let mut live: BTreeMap<String, Copy> = BTreeMap::new();
    for (page, page_uses) in &uses {
        for (image, variant) in page_uses {
            let Some(hash) = hashes.get(image) else {
                continue;
            };
            let Some(copy) = drawn_copy(image, hash, *variant, page) else {
                continue;
            };
            if !copied.contains(copy.output.as_str()) {
                live.entry(copy.output.to_string()).or_insert(copy);
            }
        }
    }
    let dead = (plan.drawn().iter())
        .map(|copy| copy.output.as_str())
        .filter(|output| !live.contains_key(*output) && stored.contains_key(*output))
        .map(str::to_owned)
        .collect();
    let late = (live.into_values())
        .filter(|copy| {
            let output = copy.output.as_str();
            stored.get(output).is_none_or(|row| {
                row.fingerprint.as_deref() != Some(copy.fingerprint.as_str())
                    || !damaged.intact(output, row)
            })
        })
        .collect();
    Drawing { late, dead, uses }
}
