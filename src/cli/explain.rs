//! `folio explain`: the templates, sources, config keys and words an
//! output file is made from, as text or JSON.

use std::path::PathBuf;

use folio::{BuildOptions, Site};

use super::now_ms;

pub(crate) fn explain(
    root: PathBuf,
    out: Option<PathBuf>,
    path: &str,
    json: bool,
) -> Result<(), folio::Error> {
    let site = Site::open(root)?;
    let mut options = BuildOptions::new(now_ms()?);
    options.out_dir = out;
    let explanation = site.explain(path, &options)?;
    if json {
        out!(
            "{}",
            serde_json::to_string_pretty(&explanation).expect("an explanation always serializes")
        );
        return Ok(());
    }
    out!("{}", explanation.output);
    out!("  made for:  {}", explanation.made_for);
    if !explanation.templates.is_empty() {
        out!("  templates: {}", explanation.templates.join(", "));
    }
    out!("  sources:   {}", explanation.sources.join(", "));
    if !explanation.config_keys.is_empty() {
        out!("  site.toml: {}", explanation.config_keys.join(", "));
    }
    if let Some(lang) = &explanation.language {
        out!(
            "  words:     i18n/{lang}.toml, [languages.{lang}.i18n] (over folio's built-in `{lang}` table)"
        );
    }
    Ok(())
}
