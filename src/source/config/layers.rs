//! A site.toml with more laid over it, for a build for another place: a
//! second file of settings (`--config FILE`), then a `base_url`
//! (`--base-url URL`) and `minify` (`--minify`).

use std::path::{Path, PathBuf};

use super::{Config, RawConfig, read_site_toml, toml_error};
use crate::Error;

/// What a build for another place lays over `site.toml`: a second file of
/// settings (a production or a preview environment's), then a `base_url`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Overrides {
    /// A toml file whose settings win over site.toml's, table by table
    /// (`--config FILE`).
    pub config_file: Option<PathBuf>,
    /// The `base_url` to build for, over both (`--base-url URL`).
    pub base_url: Option<String>,
    /// Minified outputs whatever the files say (`--minify`).
    pub minify: bool,
}

impl Overrides {
    /// No overrides: site.toml as it is.
    pub fn new() -> Overrides {
        Overrides::default()
    }
}

impl Config {
    /// Reads and validates `<root>/site.toml` with `overrides` laid over
    /// it. Each file's mistakes are named with its own lines; a value that
    /// only the two together make wrong names both files.
    pub fn load_with(root: &Path, overrides: &Overrides) -> Result<Config, Error> {
        if overrides == &Overrides::default() {
            return Config::load(root);
        }
        let (path, text) = read_site_toml(root)?;
        let mut merged = read_table(&path, &text)?;
        let mut shown = path.display().to_string();
        if let Some(file) = &overrides.config_file {
            let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
            let over = read_table(file, &text)?;
            deep_merge(&mut merged, over);
            shown = format!("{shown} with {}", file.display());
        }
        if let Some(base_url) = &overrides.base_url {
            merged.insert("base_url".into(), toml::Value::String(base_url.clone()));
            shown = format!("{shown} and --base-url {base_url}");
        }
        if overrides.minify {
            merged.insert("minify".into(), toml::Value::Boolean(true));
            shown = format!("{shown} and --minify");
        }
        Config::parse(&merged.to_string(), Path::new(&shown))
    }
}

/// The settings of `text`, the toml file at `path`, each key checked as
/// site.toml's are (known, of the right type), so that a mistake is named
/// with the file's own line before the files are laid over each other.
fn read_table(path: &Path, text: &str) -> Result<toml::Table, Error> {
    let at_line = |e: toml::de::Error| toml_error(path, text, &e);
    toml::from_str::<RawConfig>(text).map_err(at_line)?;
    toml::from_str::<toml::Table>(text).map_err(at_line)
}

/// `over`'s settings laid over `base`'s: a table merges key by key, any
/// other value (a list included) replaces.
pub(super) fn deep_merge(base: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(mine)), toml::Value::Table(theirs)) => {
                deep_merge(mine, theirs)
            }
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}
