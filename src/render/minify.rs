//! Outputs made smaller when site.toml asks (`minify = true`, `--minify`):
//! HTML pages with minify-html (with the CSS and scripts inside them), CSS
//! files with lightningcss and scripts with oxc, each the same bytes run
//! to run. A stylesheet or script the minifier cannot read is written as
//! it is, with a warning naming it: a build does not fail over it. The
//! minifiers are the `minify` feature's; without it, a site.toml that asks
//! for them is refused.

#[cfg(feature = "minify")]
use lightningcss::stylesheet::{MinifyOptions, ParserOptions, PrinterOptions, StyleSheet};
#[cfg(feature = "minify")]
use oxc_allocator::Allocator;
#[cfg(feature = "minify")]
use oxc_codegen::{Codegen, CodegenOptions};
#[cfg(feature = "minify")]
use oxc_minifier::{CompressOptions, MangleOptions, Minifier, MinifierOptions};
#[cfg(feature = "minify")]
use oxc_parser::Parser;
#[cfg(feature = "minify")]
use oxc_span::SourceType;

/// What kind of output a path names, as far as minifying goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Minifiable {
    Html,
    Css,
    Js,
}

impl Minifiable {
    /// The kind of the output at `path`, by its extension; `None` for
    /// anything else (feeds, images, the sitemap), written as it is.
    pub fn of(path: &str) -> Option<Minifiable> {
        let extension = path.rsplit_once('.')?.1;
        match extension.to_ascii_lowercase().as_str() {
            "html" | "htm" => Some(Minifiable::Html),
            "css" => Some(Minifiable::Css),
            "js" | "mjs" => Some(Minifiable::Js),
            _ => None,
        }
    }

    /// `bytes` minified, or as they are with why not. A file that is not
    /// UTF-8 is left alone.
    #[cfg(feature = "minify")]
    pub fn minify(self, bytes: Vec<u8>) -> (Vec<u8>, Option<String>) {
        let Ok(text) = std::str::from_utf8(&bytes) else {
            return (bytes, None);
        };
        let made = match self {
            Minifiable::Html => Ok(html(text.as_bytes())),
            Minifiable::Css => css(text),
            Minifiable::Js => js(text),
        };
        match made {
            Ok(smaller) => (smaller.into_bytes(), None),
            Err(why) => (bytes, Some(why)),
        }
    }
}

/// `fingerprint` of the output at `path`, marked when the output is written
/// minified: a file written minified is made otherwise than one copied as
/// it is, so that switching `minify` writes it again.
pub fn mark(fingerprint: &mut String, path: &str, minify: bool) {
    if minify && Minifiable::of(path).is_some() {
        fingerprint.push_str(" minified");
    }
}

/// A page: whitespace between tags, comments and optional quotes go; the
/// text in `<pre>` and `<textarea>` stays as it is, and so does every tag a
/// browser would otherwise infer (closing tags, `<html>`, `<head>`), so
/// that the page reads back as the same tree.
#[cfg(feature = "minify")]
fn html(page: &[u8]) -> String {
    let cfg = minify_html::Cfg {
        keep_closing_tags: true,
        keep_html_and_head_opening_tags: true,
        minify_css: true,
        minify_js: true,
        ..minify_html::Cfg::default()
    };
    // A page folio rendered is UTF-8, and the minifier keeps it so.
    String::from_utf8_lossy(&minify_html::minify(page, &cfg)).into_owned()
}

#[cfg(feature = "minify")]
fn css(text: &str) -> Result<String, String> {
    let mut sheet = StyleSheet::parse(text, ParserOptions::default()).map_err(|e| e.to_string())?;
    sheet
        .minify(MinifyOptions::default())
        .map_err(|e| e.to_string())?;
    let printer = PrinterOptions {
        minify: true,
        ..PrinterOptions::default()
    };
    Ok(sheet.to_css(printer).map_err(|e| e.to_string())?.code)
}

/// A script as a browser reads a classic `<script src>`; a module (`.mjs`,
/// `import`) is read as one.
#[cfg(feature = "minify")]
fn js(text: &str) -> Result<String, String> {
    let allocator = Allocator::default();
    let mut parsed = Parser::new(&allocator, text, SourceType::cjs()).parse();
    if !parsed.errors.is_empty() {
        parsed = Parser::new(&allocator, text, SourceType::mjs()).parse();
    }
    if let Some(error) = parsed.errors.first() {
        return Err(error.to_string());
    }
    let mut program = parsed.program;
    let options = MinifierOptions {
        mangle: Some(MangleOptions::default()),
        // The safest compression: code a page may still reach is kept.
        compress: Some(CompressOptions::safest()),
    };
    let minified = Minifier::new(options).minify(&allocator, &mut program);
    let codegen = CodegenOptions {
        minify: true,
        ..CodegenOptions::default()
    };
    Ok(Codegen::new()
        .with_options(codegen)
        .with_scoping(minified.scoping)
        .build(&program)
        .code)
}

#[cfg(all(test, feature = "minify"))]
mod tests {
    use super::*;

    fn minified(path: &str, text: &str) -> (String, Option<String>) {
        let kind = Minifiable::of(path).unwrap();
        let (bytes, why) = kind.minify(text.as_bytes().to_vec());
        (String::from_utf8(bytes).unwrap(), why)
    }

    #[test]
    fn outputs_are_minified_by_their_kind() {
        assert_eq!(Minifiable::of("a/index.html"), Some(Minifiable::Html));
        assert_eq!(Minifiable::of("style.CSS"), Some(Minifiable::Css));
        assert_eq!(Minifiable::of("app.js"), Some(Minifiable::Js));
        for other in [
            "atom.xml",
            "feed.json",
            "sitemap.xml",
            "photo.jpg",
            "README",
        ] {
            assert_eq!(Minifiable::of(other), None, "{other}");
        }
    }

    #[test]
    fn a_page_loses_its_spaces_not_its_text_nor_its_pre() {
        let page = "<!DOCTYPE html>\n<html>\n  <head>\n    <title>A  title</title>\n    <style>\n      body { color : red ; }\n    </style>\n  </head>\n  <body>\n    <!-- a comment -->\n    <p class=\"x\">Some   text</p>\n    <pre>  kept\n    as is</pre>\n  </body>\n</html>\n";
        let (html, why) = minified("index.html", page);
        assert_eq!(why, None);
        assert!(html.len() < page.len());
        assert!(!html.contains("a comment"), "{html}");
        assert!(html.contains("<pre>  kept\n    as is</pre>"), "{html}");
        assert!(html.contains("body{color:red}"), "{html}");
        assert!(html.contains("</p>") && html.contains("<head>"), "{html}");
        assert_eq!(
            html,
            minified("index.html", page).0,
            "the same bytes each run"
        );
    }

    #[test]
    fn stylesheets_and_scripts_shrink_and_mistakes_are_kept_as_they_are() {
        let (css, why) = minified(
            "style.css",
            "body {\n  color: #ff0000;\n  margin: 0px;\n}\n",
        );
        assert_eq!((css.as_str(), why), ("body{color:red;margin:0}", None));
        let (js, why) = minified(
            "app.js",
            "function greet(name) {\n  const greeting = 'Hello, ' + name;\n  return greeting;\n}\nwindow.greet = greet;\n",
        );
        assert_eq!(why, None);
        assert!(js.len() < 60 && js.contains("window.greet"), "{js}");
        let broken = "function (";
        let (kept, why) = minified("app.js", broken);
        assert_eq!(kept, broken);
        assert!(why.is_some());
    }
}
