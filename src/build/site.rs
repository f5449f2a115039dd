//! A site: its root folder and its configuration, read and checked once.
//! Builds of it run in a [`crate::Session`].

use std::fs;
use std::path::{Path, PathBuf};

use crate::build::options::BuildOptions;
use crate::build::session::Session;
use crate::model::doc::Source;
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::hash::source_hash;
use crate::model::id::PostId;
use crate::model::report::{BuildReport, Explanation};
use crate::plugin::Plugins;
use crate::render::TEMPLATES_DIR;
use crate::source::config::{Config, Overrides};
use crate::source::discover::{self, CONTENT_DIR};
use crate::source::parse::{self, Parsed};
use crate::source::shortcodes::Shortcodes;
use crate::store::state::StateDir;

/// Where folio keeps its state (the index, the build lock), under the root.
pub(crate) const STATE_DIR: &str = ".folio";

/// The preview's output folder, under [`STATE_DIR`].
const PREVIEW_DIR: &str = "preview";

/// A folio site: a root folder with `site.toml`, `content/` and optionally
/// `templates/`.
#[derive(Debug, Clone)]
pub struct Site {
    root: PathBuf,
    config: Config,
    /// What was laid over its site.toml, laid again each time it is read.
    overrides: Overrides,
}

impl Site {
    /// Opens the site at `root`, reading and validating its `site.toml`.
    pub fn open(root: impl Into<PathBuf>) -> Result<Site, Error> {
        Site::open_with(root, Overrides::new())
    }

    /// Opens the site at `root` for another place: its `site.toml` with
    /// `overrides` laid over it (`--config FILE`, `--base-url URL`).
    pub fn open_with(root: impl Into<PathBuf>, overrides: Overrides) -> Result<Site, Error> {
        let root = root.into();
        let config = Config::load_with(&root, &overrides)?;
        discover::check_theme(&root, &config)?;
        Ok(Site {
            root,
            config,
            overrides,
        })
    }

    /// The site opened again, as it is on disk now, with the same
    /// overrides.
    pub(crate) fn reopen(&self) -> Result<Site, Error> {
        Site::open_with(&self.root, self.overrides.clone())
    }

    /// The folder holding `site.toml`.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Its `site.toml`, read and checked.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Builds the site once, as `folio build` does: a [`Session`] for one
    /// build.
    pub fn build(&self, options: &BuildOptions) -> Result<BuildReport, Error> {
        Session::open_once(self.clone(), options.clone())?.build_as_opened()
    }

    /// [`Session::explain`] in a session of its own.
    pub fn explain(&self, output: &str, options: &BuildOptions) -> Result<Explanation, Error> {
        Session::open(self.clone(), options.clone())?.explain(output)
    }

    /// The output folder a build with `options` writes to.
    pub fn output_dir(&self, options: &BuildOptions) -> PathBuf {
        let dir = options.out_dir.as_ref().unwrap_or(&self.config.output_dir);
        self.root.join(dir)
    }

    /// The id of the source at `file` (relative to the current folder or
    /// absolute), as `folio build` would derive it.
    pub fn id_of(&self, file: &Path) -> Result<PostId, Error> {
        let (source, bytes) = self.read_source(file)?;
        self.parse_source(&source, &bytes, file)
            .map(|parsed| parsed.record.id)
    }

    /// The source at `file` (relative to the current folder or absolute),
    /// placed in the site's layout, and its bytes.
    pub(crate) fn read_source(&self, file: &Path) -> Result<(Source, Vec<u8>), Error> {
        let content = absolute(&self.root.join(CONTENT_DIR))?;
        let file_abs = absolute(file)?;
        let rel = file_abs
            .strip_prefix(&content)
            .ok()
            .and_then(|p| p.to_str())
            .map(|p| p.replace('\\', "/"))
            .ok_or_else(|| {
                Error::Content(vec![Problem::new(
                    file,
                    None,
                    ProblemKind::Layout {
                        message: format!("not under {}", content.display()),
                        help: "pass a Markdown file from the site's content folder".into(),
                    },
                )])
            })?;
        let mut source = discover::classify(&rel, &self.config)
            .map_err(|kind| Error::Content(vec![Problem::new(file, None, kind)]))?;
        source.path = format!("{CONTENT_DIR}/{rel}");
        let bytes = fs::read(file).map_err(|e| Error::io(file, e))?;
        Ok((source, bytes))
    }

    /// `bytes` read as the source `source` is, as a build reads it; errors
    /// name `file`.
    pub(crate) fn parse_source(
        &self,
        source: &Source,
        bytes: &[u8],
        file: &Path,
    ) -> Result<Parsed, Error> {
        let hash = source_hash(bytes);
        // Neither an id nor a front matter depends on a body: no plugin and
        // no shortcode is needed to read them.
        let none = (&self.config, &Plugins::new(), &Shortcodes::unexpanded());
        parse::parse(source, bytes, hash, none)
            .map_err(|(line, kind)| Error::Content(vec![Problem::new(file, line, kind)]))
    }

    /// Where `folio serve` builds the preview: a folder of folio's own state,
    /// so that a draft shown in preview can never be deployed by accident.
    pub fn preview_dir(&self) -> PathBuf {
        self.root.join(STATE_DIR).join(PREVIEW_DIR)
    }

    /// Makes the preview's folder ([`Site::preview_dir`]) in the state
    /// folder, refusing a state folder or preview folder that is a
    /// symbolic link: the preview is folio's own, never written elsewhere.
    pub fn make_preview_dir(&self) -> Result<PathBuf, Error> {
        StateDir::open(&self.root.join(STATE_DIR))?.folder(PREVIEW_DIR)
    }

    /// The output folder of a build with `options`, absolute; an error when
    /// it would hold or overwrite the site's own files.
    pub(crate) fn checked_output_dir(&self, options: &BuildOptions) -> Result<PathBuf, Error> {
        let out = lexical(&absolute(&self.output_dir(options))?);
        let root = lexical(&absolute(&self.root)?);
        let reserved = [CONTENT_DIR, TEMPLATES_DIR, STATE_DIR].map(|d| root.join(d));
        let preview = out == lexical(&absolute(&self.preview_dir())?);
        if root.starts_with(&out) || (!preview && reserved.iter().any(|r| out.starts_with(r))) {
            return Err(Error::Config {
                path: self.root.join(crate::source::config::CONFIG_FILE),
                line: None,
                message: format!(
                    "the output folder {} would hold or overwrite the site's own files",
                    out.display()
                ),
                help: "choose an output folder of its own, such as `public`".into(),
            });
        }
        if preview {
            // Unlike an output folder of the user's, which may well be a
            // link, the preview is folio's state.
            self.make_preview_dir()?;
        }
        Ok(out)
    }
}

fn absolute(path: &Path) -> Result<PathBuf, Error> {
    std::path::absolute(path).map_err(|e| Error::io(path, e))
}

/// `..` and `.` resolved on the text of the path, so `public/..` is seen as
/// the root it names.
pub(crate) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
