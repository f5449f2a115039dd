//! What a build starts from: the sources, static files, templates and words
//! as they are on disk, and which outputs are no longer as folio left them.
//!
//! Two ways to get there, ending in the same [`Scan`]: walk and stat
//! everything ([`everything`], what `folio build` does), or take the last
//! build's scan and look only at the paths a caller says changed
//! ([`after_changes`], what a kept session does between saves).

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use sha2::{Digest, Sha256};

use crate::build::options::BuildOptions;
use crate::model::doc::{Source, Stat};
use crate::model::error::{Error, Problem};
use crate::model::report::Inputs;
use crate::plugin::Plugins;
use crate::render::i18n::{I18N_DIR, I18n};
use crate::render::{TEMPLATES_DIR, Theme};
use crate::source::bundle::{self, Bundle, ContentFile};
use crate::source::config::{CONFIG_FILE, Config, THEMES_DIR};
use crate::source::discover::{
    self, CONTENT_DIR, FilesAt, PUBLISHED_HIDDEN, STATIC_DIR, StaticFile, is_markdown, walk_order,
};
use crate::source::sass::{self, SASS_DIR, SassFile};
use crate::source::section::is_section_file;
use crate::store::index::Index;

/// Everything a build reads before it reads a source's bytes.
pub(crate) struct Scan {
    /// In walk order (folders before their later siblings, by name).
    pub sources: Vec<Source>,
    /// The sections' `_index.md` files, in walk order: not documents.
    pub sections: Vec<Source>,
    /// Sources whose place or name is wrong: reported with the parse's.
    pub problems: Vec<Problem>,
    /// The files of `content/` that are no source, in walk order.
    pub files: Vec<ContentFile>,
    /// Those of them that bundles hold: [`bundle::bundles`] of the two
    /// above.
    pub bundles: Vec<Bundle>,
    pub statics: Vec<StaticFile>,
    /// Every file of `sass/`: the stylesheets and what they use.
    pub sass: Vec<SassFile>,
    pub theme: Theme,
    pub i18n: I18n,
    pub damaged: Damaged,
    /// The last [`Scan::inputs`], with the templates it was listed for:
    /// the same files give the same list (15,000 paths sorted again was a
    /// sixth of a one-post rebuild). Dropped when a file comes or goes.
    pub(crate) listed: Mutex<Option<(Vec<String>, Arc<Inputs>)>>,
}

impl Scan {
    /// The files the bundles hold, each once.
    fn bundle_files(&self) -> impl Iterator<Item = &ContentFile> {
        self.bundles.iter().flat_map(|bundle| &bundle.files)
    }

    /// What the outputs are made from, for the report: `templates` are the
    /// names of those the pages use (with what they reach), `root` the
    /// site root, absolute.
    pub(crate) fn inputs(&self, root: &Path, templates: &[String]) -> Arc<Inputs> {
        let mut listed = self.listed.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((listed_for, inputs)) = &*listed
            && listed_for == templates
        {
            return Arc::clone(inputs);
        }
        let inputs = Arc::new(self.list_inputs(root, templates));
        *listed = Some((templates.to_vec(), Arc::clone(&inputs)));
        inputs
    }

    fn list_inputs(&self, root: &Path, templates: &[String]) -> Inputs {
        let mut files: Vec<String> = [CONFIG_FILE.to_owned()]
            .into_iter()
            .chain(self.sources.iter().map(|source| source.path.clone()))
            .chain(self.sections.iter().map(|source| source.path.clone()))
            .chain(
                templates
                    .iter()
                    .filter_map(|name| self.theme.site_file(name))
                    .filter_map(|path| path.to_str().map(|p| p.replace('\\', "/"))),
            )
            .chain(self.i18n.files.iter().cloned())
            .chain(self.statics.iter().map(StaticFile::source_path))
            .chain(self.sass.iter().map(|file| file.path.clone()))
            .chain(self.bundle_files().map(|file| file.path.clone()))
            .collect();
        files.sort();
        files.dedup();
        // A file added to one of these is an input of the next build.
        let theme_tops = self.theme.theme_dir().into_iter().flat_map(|theme| {
            [STATIC_DIR, SASS_DIR, TEMPLATES_DIR, I18N_DIR].map(|top| format!("{theme}/{top}"))
        });
        let tops: Vec<String> = [CONTENT_DIR, STATIC_DIR, SASS_DIR, TEMPLATES_DIR, I18N_DIR]
            .map(str::to_owned)
            .into_iter()
            .chain(theme_tops)
            .filter(|top| root.join(top).is_dir())
            .collect();
        let mut folders: FxHashSet<&str> = tops.iter().map(String::as_str).collect();
        for file in &files {
            let mut folder = file.as_str();
            // A folder seen before brought its parents with it.
            while let Some((parent, _)) = folder.rsplit_once('/')
                && folders.insert(parent)
            {
                folder = parent;
            }
        }
        let mut folders: Vec<String> = folders.into_iter().map(str::to_owned).collect();
        folders.sort_unstable();
        Inputs {
            root: root.to_owned(),
            files,
            folders,
        }
    }
}

/// Walks `content/` and `static/`, loads the theme and the words, and stats
/// every output the index knows in `out_key` (the output folder `out_dir`).
/// A build that may write adopts the output rows of an index that predates
/// the record of their folder.
pub(crate) fn everything(
    root: &Path,
    (config, plugins): (&Config, &Plugins),
    index: &mut Index,
    (out_dir, out_key): (&Path, &str),
    may_write: bool,
) -> Result<Scan, Error> {
    // Both are a system call per file; the outputs' rows are read while the
    // content folder is listed.
    let (discovered, damaged) = rayon::join(
        || discover::discover(root, config),
        || {
            let mut stored = index.output_stats(out_key)?;
            // Only a folder with no rows can be the one unfiled rows belong
            // to; a build of a folder it knows does no write here.
            if stored.is_empty() && may_write && index.adopt_unfiled_outputs(out_key)? {
                stored = index.output_stats(out_key)?;
            }
            Ok::<_, Error>(Damaged::find(out_dir, stored))
        },
    );
    let mut discovered = discovered?;
    discover::check_theme(root, config)?;
    let sections = take_sections(&mut discovered.sources);
    Ok(Scan {
        bundles: bundle::bundles(&discovered.sources, &discovered.files),
        sources: discovered.sources,
        sections,
        problems: discovered.problems,
        files: discovered.files,
        statics: discover::discover_static(root, config.theme_dir.as_deref())?,
        sass: sass::discover(root, config.theme_dir.as_deref())?,
        theme: Theme::load(root, config.theme_dir.as_deref(), plugins)?,
        i18n: I18n::load(root, config)?,
        damaged: damaged?,
        listed: Mutex::default(),
    })
}

/// The last build's scan, brought up to date with the files at `changed`
/// (relative to the root, or absolute under it): only those are stat'ed,
/// and the templates or the words are loaded again when one of theirs is
/// among them. `None` when only a full scan can tell (a folder, or
/// `site.toml`, changed). The outputs are taken to be as the last build
/// left them.
pub(crate) fn after_changes(
    root: &Path,
    (config, plugins): (&Config, &Plugins),
    mut last: Scan,
    changed: &[String],
) -> Result<Option<Scan>, Error> {
    let files = FilesAt::new(root);
    let (mut theme_changed, mut words_changed) = (false, false);
    let mut files_came_or_went = false;
    for rel in changed {
        let Some((top, rest)) = rel.split_once('/') else {
            // site.toml, or a whole input folder appearing or going.
            if [
                CONFIG_FILE,
                CONTENT_DIR,
                STATIC_DIR,
                SASS_DIR,
                TEMPLATES_DIR,
                I18N_DIR,
                THEMES_DIR,
            ]
            .contains(&rel.as_str())
            {
                return Ok(None);
            }
            continue;
        };
        let theme = config.theme_dir.as_deref();
        let updated = match top {
            THEMES_DIR => match in_theme(theme, rel) {
                InTheme::Folder => return Ok(None),
                InTheme::Templates => {
                    theme_changed = true;
                    Ok(false)
                }
                InTheme::Words => {
                    words_changed = true;
                    Ok(false)
                }
                InTheme::Static(rest) => update_statics(&files, &mut last.statics, rest, theme),
                InTheme::Sass(rest) => update_sass(&files, &mut last.sass, rel, rest),
                InTheme::Nothing => Ok(false),
            },
            CONTENT_DIR => update_sources(&files, config, &mut last, rel, rest),
            STATIC_DIR => update_statics(&files, &mut last.statics, rest, theme),
            SASS_DIR => update_sass(&files, &mut last.sass, rel, rest),
            TEMPLATES_DIR => {
                theme_changed = true;
                Ok(false)
            }
            I18N_DIR => {
                words_changed = true;
                Ok(false)
            }
            _ => Ok(false),
        };
        match updated {
            Err(NeedsWalk) => return Ok(None),
            Ok(came_or_went) => files_came_or_went |= came_or_went,
        }
    }
    // Which template or table a name reads from may change with them.
    if files_came_or_went || theme_changed || words_changed {
        last.listed = Mutex::default();
    }
    if theme_changed {
        last.theme = Theme::load(root, config.theme_dir.as_deref(), plugins)?;
    }
    if words_changed {
        last.i18n = I18n::load(root, config)?;
    }
    last.bundles = bundle::bundles(&last.sources, &last.files);
    last.damaged = Damaged::default();
    Ok(Some(last))
}

/// What a changed path under `themes/` is to a site of the theme at
/// `theme_dir`.
enum InTheme<'a> {
    /// The theme's folder, or one of its input folders, appearing or going.
    Folder,
    Templates,
    Words,
    /// A file of its `static/`, at this path under it.
    Static(&'a str),
    /// A file of its `sass/`, at this path under it.
    Sass(&'a str),
    /// Another theme's file, or one of the theme's that no build reads (its
    /// README, its licence).
    Nothing,
}

fn in_theme<'a>(theme_dir: Option<&str>, rel: &'a str) -> InTheme<'a> {
    let Some(within) = theme_dir.and_then(|theme| rel.strip_prefix(theme)) else {
        return InTheme::Nothing;
    };
    if within.is_empty() {
        return InTheme::Folder;
    }
    // `themes/plainer/…` is not under `themes/plain`.
    let Some(within) = within.strip_prefix('/') else {
        return InTheme::Nothing;
    };
    match within.split_once('/') {
        None if [TEMPLATES_DIR, STATIC_DIR, SASS_DIR, I18N_DIR].contains(&within) => {
            InTheme::Folder
        }
        Some((TEMPLATES_DIR, _)) => InTheme::Templates,
        Some((I18N_DIR, _)) => InTheme::Words,
        Some((STATIC_DIR, rest)) => InTheme::Static(rest),
        Some((SASS_DIR, rest)) => InTheme::Sass(rest),
        _ => InTheme::Nothing,
    }
}

/// A changed path that only a walk can account for: a folder.
struct NeedsWalk;

/// What a changed path is now: a file with its stat, nothing, or a folder.
fn now_at(files: &FilesAt, rel: &str) -> Result<Option<Stat>, NeedsWalk> {
    match files.stat(Path::new(rel), false) {
        Ok((stat, true)) => Ok(Some(stat)),
        Ok((_, false)) => match std::fs::symlink_metadata(files.dir().join(rel)) {
            // A folder, or a link: the walk's rules say what becomes of it
            // (a link in content/ is an error, one in static/ is skipped).
            Ok(meta) if meta.is_dir() || meta.is_symlink() => Err(NeedsWalk),
            // A special file: a walk skips it, and so do we.
            _ => Ok(None),
        },
        Err(_) => Ok(None),
    }
}

/// The sections' `_index.md` files among `sources`, taken out.
fn take_sections(sources: &mut Vec<Source>) -> Vec<Source> {
    let (sections, documents) = std::mem::take(sources)
        .into_iter()
        .partition(is_section_file);
    *sources = documents;
    sections
}

/// `content/<rest>` changed: its source, section's `_index.md` or file is
/// added, moved on or removed, as a walk would find it; a removed folder
/// takes the sources and files under it. Says whether a file came or went
/// (rather than changed in place).
fn update_sources(
    files: &FilesAt,
    config: &Config,
    scan: &mut Scan,
    rel: &str,
    rest: &str,
) -> Result<bool, NeedsWalk> {
    if discover::is_hidden(rest, &[]) {
        return Ok(false);
    }
    let Some(stat) = now_at(files, rel)? else {
        let inside = format!("{rel}/");
        for sources in [&mut scan.sources, &mut scan.sections] {
            sources.retain(|s| s.path != rel && !s.path.starts_with(&inside));
        }
        scan.files
            .retain(|f| f.path != rel && !f.path.starts_with(&inside));
        scan.problems.retain(|p| p.path != Path::new(rel));
        return Ok(true);
    };
    if !is_markdown(Path::new(rest)) {
        let file = ContentFile {
            path: rel.to_owned(),
            stat,
        };
        return Ok(
            match scan.files.binary_search_by(|f| walk_order(&f.path, rel)) {
                Ok(i) => {
                    scan.files[i] = file;
                    false
                }
                Err(i) => {
                    scan.files.insert(i, file);
                    true
                }
            },
        );
    }
    match discover::classify(rest, config) {
        Ok(mut source) => {
            source.path = rel.to_owned();
            source.stat = stat;
            let sources = match is_section_file(&source) {
                true => &mut scan.sections,
                false => &mut scan.sources,
            };
            let at = sources.binary_search_by(|s| walk_order(&s.path, rel));
            Ok(match at {
                Ok(i) => {
                    sources[i] = source;
                    false
                }
                Err(i) => {
                    sources.insert(i, source);
                    true
                }
            })
        }
        Err(kind) => {
            for sources in [&mut scan.sources, &mut scan.sections] {
                sources.retain(|s| s.path != rel);
            }
            scan.problems.push(Problem::new(rel, None, kind));
            Ok(true)
        }
    }
}

/// `static/<rest>` changed: its copy is added, moved on or removed. Says
/// whether a file came or went (the theme's in place of the site's is
/// another file).
fn update_statics(
    files: &FilesAt,
    statics: &mut Vec<StaticFile>,
    rest: &str,
    theme_dir: Option<&str>,
) -> Result<bool, NeedsWalk> {
    if discover::is_hidden(rest, PUBLISHED_HIDDEN) {
        return Ok(false);
    }
    let at = statics.binary_search_by(|s| walk_order(&s.rel, rest));
    // The site's file at that path, else its theme's.
    let own = now_at(files, &format!("{STATIC_DIR}/{rest}"))?.map(|stat| (stat, None));
    let now = match (own, theme_dir) {
        (Some(own), _) => Some(own),
        (None, Some(theme)) => now_at(files, &format!("{theme}/{STATIC_DIR}/{rest}"))?
            .map(|stat| (stat, Some(theme.to_owned()))),
        (None, None) => None,
    };
    match now {
        Some((stat, theme_dir)) => {
            let file = StaticFile {
                rel: rest.to_owned(),
                stat,
                theme_dir,
            };
            match at {
                Ok(i) => {
                    let moved = statics[i].theme_dir != file.theme_dir;
                    statics[i] = file;
                    Ok(moved)
                }
                Err(i) => {
                    statics.insert(i, file);
                    Ok(true)
                }
            }
        }
        None => {
            let inside = format!("{rest}/");
            // A folder gone from one layer may leave the other's files.
            if theme_dir.is_some() && statics.iter().any(|s| s.rel.starts_with(&inside)) {
                return Err(NeedsWalk);
            }
            statics.retain(|s| s.rel != rest && !s.rel.starts_with(&inside));
            Ok(true)
        }
    }
}

/// `<folder>/<rest>` changed, `rel` from the root, where `<folder>` is the
/// site's `sass/` or its theme's: the file is added, moved on or removed; a
/// removed folder takes the files under it. Says whether a file came or
/// went.
fn update_sass(
    files: &FilesAt,
    sass: &mut Vec<SassFile>,
    rel: &str,
    rest: &str,
) -> Result<bool, NeedsWalk> {
    if discover::is_hidden(rest, &[]) {
        return Ok(false);
    }
    let at = sass.binary_search_by(|f| walk_order(&f.path, rel));
    match (now_at(files, rel)?, at) {
        (Some(stat), Ok(i)) => {
            sass[i].stat = stat;
            Ok(false)
        }
        (Some(stat), Err(i)) => {
            let (path, rel) = (rel.to_owned(), rest.to_owned());
            sass.insert(i, SassFile { path, rel, stat });
            Ok(true)
        }
        (None, _) => {
            let inside = format!("{rel}/");
            sass.retain(|f| f.path != rel && !f.path.starts_with(&inside));
            Ok(true)
        }
    }
}

/// A digest of everything a build reads: the config, templates, words,
/// options, and the stat of every source, static file and bundle's file,
/// but for the sources at `earlier`, whose stat is given (what the last
/// build read): the digest that build would have had, had only those
/// sources changed since. `None` when a stat cannot be trusted (racy), so
/// that no later build skips on it.
pub(crate) fn inputs_digest(
    (config, options): (&Config, &BuildOptions),
    scan: &Scan,
    earlier: &FxHashMap<&str, Stat>,
    out_key: &str,
    started_ns: i64,
) -> Option<String> {
    // Each file by its path from the root: the site's static file and its
    // theme's at one output path are two files, which may share a stat
    // (`cp -p`).
    let stats = scan
        .sources
        .iter()
        .chain(&scan.sections)
        .map(|s| {
            let stat = earlier.get(s.path.as_str()).copied().unwrap_or(s.stat);
            (std::borrow::Cow::Borrowed(s.path.as_str()), stat)
        })
        .chain(
            scan.statics
                .iter()
                .map(|s| (s.source_path().into(), s.stat)),
        )
        .chain(scan.sass.iter().map(|f| (f.path.as_str().into(), f.stat)))
        .chain(
            scan.bundle_files()
                .map(|f| (std::borrow::Cow::Borrowed(f.path.as_str()), f.stat)),
        );
    let mut hasher = Sha256::new();
    for (path, stat) in stats {
        if stat.mtime_ns == Stat::RACY || stat.mtime_ns >= started_ns {
            return None;
        }
        hasher.update(path.as_bytes());
        hasher.update(b"\0");
        hasher.update(stat.size.to_le_bytes());
        hasher.update(stat.mtime_ns.to_le_bytes());
    }
    let header = format!(
        "{}\0{}\0{}\0{:?}\0{}\0drafts {} future {} expired {}\0{}\0{:?}",
        config.content_settings(),
        config.digest,
        scan.i18n.digest,
        scan.theme.own_hashes(),
        out_key,
        options.drafts,
        options.future,
        options.expired,
        scan.sources.len(),
        options.plugins,
    );
    hasher.update(header.as_bytes());
    Some(crate::model::hash::hex(&hasher.finalize()))
}

/// The outputs whose file is not as the index left it (changed, removed, or
/// never finished).
#[derive(Default)]
pub(crate) struct Damaged(FxHashSet<String>);

impl Damaged {
    /// Stats every output in `stored` against the stat its row holds.
    fn find(out_dir: &Path, stored: Vec<(String, Stat)>) -> Damaged {
        let at = FilesAt::new(out_dir);
        Damaged(
            stored
                .into_par_iter()
                .filter(|(path, stat)| match at.stat(Path::new(path), true) {
                    Ok((on_disk, true)) => on_disk != *stat,
                    _ => true,
                })
                .map(|(path, _)| path)
                .collect(),
        )
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the file of `output`, whose row is `row`, is as folio wrote it.
    pub(crate) fn intact(&self, output: &str, row: &crate::store::index::OutputRow) -> bool {
        row.hash.is_some() && row.stat.is_some() && !self.0.contains(output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_order_puts_a_folder_s_files_where_its_name_sorts() {
        let mut paths = vec!["a-b", "a/b", "a/a/z", "a", "b", "a.md"];
        paths.sort_by(|a, b| walk_order(a, b));
        assert_eq!(paths, ["a", "a/a/z", "a/b", "a-b", "a.md", "b"]);
    }

    #[test]
    fn walk_order_is_the_order_discover_walks_in() {
        let dir = tempfile::tempdir().unwrap();
        for rel in ["a-b.md", "a/b.md", "a/a/z.md", "a.md", "b.md", "a-/x.md"] {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        let walked: Vec<String> = discover::walk(dir.path(), &[])
            .unwrap()
            .into_iter()
            .map(|w| w.rel.unwrap())
            .collect();
        let mut sorted = walked.clone();
        sorted.sort_by(|a, b| walk_order(a, b));
        assert_eq!(walked, sorted);
    }
}
