//! What the subcommands of `folio` share: the moment a build is at, what a
//! build waiting for another one's lock says, which unpublished posts to
//! show. Each subcommand is in the file of its name, but for `id`, `redate`
//! and `move`, which read or change a document's id: `amend.rs`. Their
//! arguments are main.rs's.

pub(crate) mod amend;
pub(crate) mod build;
pub(crate) mod check;
pub(crate) mod explain;
pub(crate) mod import;
pub(crate) mod publish;
pub(crate) mod scaffold;
#[cfg(feature = "serve")]
pub(crate) mod serve;

/// Which site, and for which place: what `build`, `serve` and `check`
/// open.
#[derive(clap::Args)]
pub(crate) struct SiteArgs {
    /// The site root (the folder holding site.toml).
    #[arg(long, default_value = ".")]
    pub(crate) root: std::path::PathBuf,
    /// A toml file laid over site.toml, table by table: a production or
    /// preview environment's settings.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<std::path::PathBuf>,
    /// The base_url to build for, over site.toml's (and --config's).
    #[arg(long, value_name = "URL")]
    pub(crate) base_url: Option<String>,
    /// Minify the HTML pages, stylesheets and scripts, as `minify = true`
    /// does.
    #[arg(long)]
    pub(crate) minify: bool,
}

impl SiteArgs {
    /// The site, with what the arguments lay over its site.toml.
    pub(crate) fn open(&self) -> Result<folio::Site, folio::Error> {
        let mut overrides = folio::Overrides::new();
        overrides.config_file = self.config.clone();
        overrides.base_url = self.base_url.clone();
        overrides.minify = self.minify;
        folio::Site::open_with(&self.root, overrides)
    }
}

/// The moment a build decides which posts are in the future:
/// `SOURCE_DATE_EPOCH` (seconds; the reproducible-builds convention) when it
/// is set, else the clock. The library reads neither; this is its one source.
fn now_ms() -> Result<i64, folio::Error> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(text) => text
            .trim()
            .parse::<i64>()
            .map(|seconds| seconds.saturating_mul(1000))
            .map_err(|_| folio::Error::Environment {
                variable: "SOURCE_DATE_EPOCH",
                message: format!("`{text}` is not a number of seconds since 1970"),
                help: "set it to an integer (e.g. `git log -1 --format=%ct`), or unset it".into(),
            }),
        Err(_) => Ok(jiff::Timestamp::now().as_millisecond()),
    }
}

/// An observer that says only that the build waits for another one's
/// lock: what every subcommand without a progress bar shows.
fn says_waits() -> folio::Observer {
    std::sync::Arc::new(|event: &folio::Event| {
        if let folio::Event::WaitingForLock { lock } = event {
            say_waiting(lock);
        }
    })
}

/// What a build that waits for another one's lock says, once.
fn say_waiting(lock: &str) {
    eprintln!(
        "waiting for another folio build of this site to finish (it holds {lock}; --no-wait fails instead)"
    );
}

/// Which unpublished documents to build, show or check anyway.
#[derive(clap::Args)]
pub(crate) struct Publish {
    /// Drafts too.
    #[arg(long)]
    pub(crate) drafts: bool,
    /// Posts dated in the future too.
    #[arg(long)]
    pub(crate) future: bool,
    /// Documents past their `expires` moment too.
    #[arg(long)]
    pub(crate) expired: bool,
}
