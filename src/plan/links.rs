//! Links between documents, written from `content/` as Zola's are
//! (`[text](@/posts/x.md#part)`): which document each names (the one in the
//! linking document's language unless the path names another), the check
//! that it and its anchor exist, and the URLs put in their place in the
//! HTML. A target's URL is in the digest of each document linking it
//! ([`Model::digest_of`]), so a moved target renders its linkers again, and
//! nothing else.

use super::*;

use crate::model::doc::InternalLink;
use crate::source::config::Severity;
use crate::source::html::{
    Attribute, INTERNAL_LINK, attributes, internal_target, may_link, read_as_tag,
};

/// Where the documents are, for links to find them.
pub(super) struct Places {
    /// Record by source path (`content/posts/x.fr.md`).
    by_path: FxHashMap<Box<str>, usize>,
    languages: Vec<String>,
    default_language: String,
    /// Whether a missing anchor fails the build, or is a warning.
    anchors: Severity,
}

/// What follows `@/` in each menu item that links a document.
fn menu_links(config: &Config) -> impl Iterator<Item = &str> {
    let languages = config.languages.values().map(|l| &l.menus);
    std::iter::once(&config.menus)
        .chain(languages)
        .flat_map(|menus| menus.values().flatten())
        .filter_map(|item| item.url.strip_prefix(INTERNAL_LINK))
}

/// Whether a menu links a document, or a document or a section's
/// `_index.md` has a link that is `such`.
fn any_link(
    config: &Config,
    (records, sections): (&[Record], &[SectionFile]),
    such: impl Fn(&InternalLink) -> bool,
) -> bool {
    let has = |links: &[InternalLink]| links.iter().any(&such);
    records.iter().any(|r| has(&r.links))
        || sections.iter().any(|f| has(&f.links))
        || menu_links(config).next().is_some()
}

/// Whether a link reads more of a document it leads to than its
/// [stub](Record::stub) holds, wherever it is: one naming a part of it
/// (`@/posts/x.md#part`) reads its headings, and a menu's, in every page,
/// its URL. Another link reads the URL of its document only where a page
/// shows the linking one ([`Model::targets_of_links_in`]).
pub fn links_read_whole_rows(
    config: &Config,
    records: &[Record],
    sections: &[SectionFile],
) -> bool {
    any_link(config, (records, sections), |link| {
        link.target.contains('#')
    })
}

/// Why a link does not lead anywhere.
enum Broken {
    NoDocument,
    Hidden(usize),
    NoAnchor(usize, String),
}

impl Places {
    /// `None` when no document or section links a document and no menu
    /// does: most sites pay nothing.
    pub(super) fn of(
        config: &Config,
        records: &[Record],
        sections: &[SectionFile],
    ) -> Option<Places> {
        // Only a link reads the URL and headings of a document other than
        // those a page shows.
        any_link(config, (records, sections), |_| true).then(|| Places::every(config, records))
    }

    /// Where every document of `records` is.
    fn every(config: &Config, records: &[Record]) -> Places {
        Places {
            by_path: records
                .iter()
                .enumerate()
                .map(|(i, r)| (r.source.path.as_str().into(), i))
                .collect(),
            languages: config.language_codes(),
            default_language: config.default_language.clone(),
            anchors: config.links.anchors,
        }
    }

    /// The document `target` (a path under `content/`, without `#anchor`)
    /// names from a document in `lang`: the version in `lang` unless the
    /// path names a language (`fr/posts/x.md`, `posts/x.fr.md`); else the
    /// file as written, else the version in the default language.
    fn find(&self, lang: &str, target: &str) -> Option<usize> {
        let exact = || {
            self.by_path
                .get(format!("content/{target}").as_str())
                .copied()
        };
        let (dir, file) = match target.rsplit_once('/') {
            Some((dir, file)) => (format!("{dir}/"), file),
            None => (String::new(), target),
        };
        let (stem, ext) = file.rsplit_once('.').unwrap_or((file, "md"));
        let is_language = |code: &str| self.languages.iter().any(|l| l == code);
        let names_language = target
            .split_once('/')
            .is_some_and(|(first, _)| is_language(first))
            || stem
                .rsplit_once('.')
                .is_some_and(|(_, suffix)| is_language(suffix));
        if names_language {
            return exact();
        }
        let in_lang = |lang: &str| {
            let mut candidates = vec![
                format!("content/{lang}/{target}"),
                format!("content/{dir}{stem}.{lang}.{ext}"),
            ];
            if lang == self.default_language {
                candidates.push(format!("content/{target}"));
            }
            candidates
                .iter()
                .find_map(|path| self.by_path.get(path.as_str()).copied())
        };
        in_lang(lang)
            .or_else(exact)
            .or_else(|| in_lang(&self.default_language))
    }

    /// The document path nearest to `target`, as a link from `lang` would
    /// write it (without its language when that is `lang`'s or the
    /// default's), for "did you mean".
    fn nearest(&self, lang: &str, target: &str) -> Option<String> {
        self.by_path
            .keys()
            .filter_map(|path| path.strip_prefix("content/"))
            .map(|path| {
                let written = self.as_written_from(lang, path);
                (strsim::levenshtein(&written, target), written)
            })
            .min()
            .map(|(_, written)| written)
    }

    /// `path` (under `content/`) without its language folder or suffix
    /// when the link written so from `lang` finds it.
    fn as_written_from(&self, lang: &str, path: &str) -> String {
        let mut plain = path.to_owned();
        for code in &self.languages {
            if let Some(rest) = path.strip_prefix(&format!("{code}/")) {
                plain = rest.to_owned();
            } else if let Some((stem, ext)) = path.rsplit_once('.')
                && let Some(bare) = stem.strip_suffix(&format!(".{code}"))
            {
                plain = format!("{bare}.{ext}");
            }
        }
        match self.find(lang, &plain) {
            Some(at) if self.by_path.get(format!("content/{path}").as_str()) == Some(&at) => plain,
            _ => path.to_owned(),
        }
    }
}

impl Model {
    /// The documents of `records` seen from a build with `visibility`, for
    /// the links between them and the images they show (`shown`): `None`
    /// when none links another or shows an image. What `folio publish`
    /// renders the bodies of the rows it sends with, as their pages show
    /// them.
    #[cfg(feature = "publish")]
    pub fn for_links(
        config: &Config,
        (records, shown): (&[Record], &Shown),
        visibility: Visibility,
    ) -> Option<Model> {
        let images = ShownImages::new(config, records, shown);
        let linked = records.iter().any(|r| !r.links.is_empty());
        (linked || images.is_some()).then(|| {
            let shows_images = images.is_some();
            let documents = (records.to_vec(), Vec::new(), images);
            let mut model = Model::new(config, documents, (visibility, None), &|_| String::new());
            // The documents are found by path for their images too.
            if shows_images && model.places.is_none() {
                model.places = Some(Places::every(config, &model.records));
            }
            model
        })
    }

    /// `html` of `record` (its body or its summary) as its page shows it
    /// (its images, each `@/` link's URL in its place), and those URLs in
    /// the order written.
    #[cfg(feature = "publish")]
    pub fn links_of<'h>(&self, record: &Record, html: &'h str) -> (Cow<'h, str>, Vec<String>) {
        let at = self
            .places
            .as_ref()
            .and_then(|places| places.by_path.get(record.source.path.as_str()).copied());
        match at {
            Some(i) => (
                self.as_shown(i, html),
                record
                    .links
                    .iter()
                    .map(|link| self.resolve(i, &link.target).unwrap_or_default())
                    .collect(),
            ),
            None => (Cow::Borrowed(html), Vec::new()),
        }
    }

    /// The URL `link` (what follows `@/`) leads to from a page in `lang`,
    /// or what is wrong with it and how to fix it.
    pub(super) fn url_from(&self, lang: &str, link: &str) -> Result<String, (String, String)> {
        let (to, anchor) = self
            .target_in(lang, link)
            .map_err(|broken| self.broken(self.places.as_ref(), lang, link, broken))?;
        let url = &self.records[to].url;
        Ok(anchor.map_or_else(|| url.clone(), |anchor| format!("{url}#{anchor}")))
    }

    /// Where a link of document `from` leads, when it leads somewhere.
    pub(super) fn link_url(&self, from: usize, link: &str) -> Option<String> {
        self.resolve(from, link).ok()
    }

    /// The URL a link of document `from` leads to, its `#anchor` kept; a
    /// missing anchor too, when the site only warns of those.
    fn resolve(&self, from: usize, link: &str) -> Result<String, Broken> {
        self.resolve_in(&self.records[from].lang, link)
    }

    /// [`Model::resolve`] of a link from a page in `lang`.
    fn resolve_in(&self, lang: &str, link: &str) -> Result<String, Broken> {
        let url_of = |to: usize, anchor: Option<&str>| {
            let url = &self.records[to].url;
            match anchor {
                Some(anchor) => format!("{url}#{anchor}"),
                None => url.clone(),
            }
        };
        match self.target_in(lang, link) {
            Ok((to, anchor)) => Ok(url_of(to, anchor)),
            Err(Broken::NoAnchor(to, _))
                if self
                    .places
                    .as_ref()
                    .is_some_and(|p| p.anchors == Severity::Warn) =>
            {
                Ok(url_of(to, link.split_once('#').map(|(_, anchor)| anchor)))
            }
            Err(broken) => Err(broken),
        }
    }

    /// The document a link from a page in `lang` names, and its anchor,
    /// which that document's headings have.
    fn target_in<'l>(&self, lang: &str, link: &'l str) -> Result<(usize, Option<&'l str>), Broken> {
        let places = self.places.as_ref().ok_or(Broken::NoDocument)?;
        let (path, anchor) = match link.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (link, None),
        };
        let to = places.find(lang, path).ok_or(Broken::NoDocument)?;
        if self.group_of[to].is_none() {
            return Err(Broken::Hidden(to));
        }
        let Some(anchor) = anchor else {
            return Ok((to, None));
        };
        let headings = self.records[to].heading_list();
        if headings.iter().any(|h| h.id == anchor) {
            return Ok((to, Some(anchor)));
        }
        let nearest = headings
            .into_iter()
            .map(|h| (strsim::levenshtein(&h.id, anchor), h.id))
            .min()
            .map(|(_, id)| id);
        Err(Broken::NoAnchor(to, nearest.unwrap_or_default()))
    }

    /// `html` of document `from` (its body or its summary) as its page
    /// shows it: its images as `[images]` says, then each `@/` link's URL
    /// in its place.
    pub(super) fn as_shown<'h>(&self, from: usize, html: &'h str) -> Cow<'h, str> {
        let html = match &self.images {
            Some(images) => images.shown(from, html),
            None => Cow::Borrowed(html),
        };
        if self.records[from].links.is_empty() {
            return html;
        }
        let resolve = |target: &str| self.resolve(from, target).ok();
        match html {
            Cow::Borrowed(html) => replace_links(html, resolve),
            Cow::Owned(html) => Cow::Owned(replace_links(&html, resolve).into_owned()),
        }
    }

    /// `html` of document `i` as a page other than its own shows it (a
    /// list, a feed): [`Model::as_shown`], then [`Model::led_to_its_page`].
    pub(super) fn shown_elsewhere<'h>(&self, i: usize, html: &'h str) -> Cow<'h, str> {
        match self.as_shown(i, html) {
            Cow::Borrowed(html) => self.led_to_its_page(i, html),
            Cow::Owned(html) => Cow::Owned(self.led_to_its_page(i, &html).into_owned()),
        }
    }

    /// `html` of document `i`, its links resolved, with the links that
    /// lead somewhere from its page alone leading there from anywhere:
    /// [`Model::rooted`], and a link within its page (`#part`, a
    /// footnote's `#1`) made a link to that part of its page.
    pub(super) fn led_to_its_page<'h>(&self, i: usize, html: &'h str) -> Cow<'h, str> {
        let url = &self.records[i].url;
        match self.rooted(i, html) {
            Cow::Borrowed(html) => links_into_page(html, url),
            Cow::Owned(html) => Cow::Owned(links_into_page(&html, url).into_owned()),
        }
    }

    /// `html` of document `i` with, when it is a bundle's, each relative
    /// link (`photo.jpg`, `../x/`) made a path from the site's root to where
    /// it leads from the document's page: the files beside that page are
    /// found from a list or a feed too. Other documents' HTML is left as it
    /// always was.
    pub(super) fn rooted<'h>(&self, i: usize, html: &'h str) -> Cow<'h, str> {
        if !self.bundled.contains(&i) {
            return Cow::Borrowed(html);
        }
        let url = &self.records[i].url;
        let folder = &url[..url.rfind('/').map_or(0, |at| at + 1)];
        root_relative_links(html, folder)
    }

    /// `html` of a section's `_index.md` in `lang` with each `@/` link's
    /// URL in its place.
    pub(super) fn with_links_in<'h>(&self, lang: &str, html: &'h str) -> Cow<'h, str> {
        match self.places {
            None => Cow::Borrowed(html),
            Some(_) => replace_links(html, |target| self.resolve_in(lang, target).ok()),
        }
    }

    /// The documents the links of the documents at `which` lead to, each
    /// once, sorted: their URLs are in the HTML of what shows those.
    pub(super) fn targets_of_links_in(&self, which: &[usize]) -> Vec<usize> {
        let mut targets: Vec<usize> = (which.iter())
            .flat_map(|&i| {
                let lang = self.records[i].lang.as_str();
                self.link_targets(lang, &self.records[i].links)
            })
            .collect();
        targets.sort_unstable();
        targets.dedup();
        targets
    }

    /// The documents the links of a section's `_index.md` in `lang` lead
    /// to: their URLs are in the HTML of its page.
    pub(super) fn link_targets<'s>(
        &'s self,
        lang: &'s str,
        links: &'s [InternalLink],
    ) -> impl Iterator<Item = usize> + 's {
        links
            .iter()
            .filter_map(move |link| match self.target_in(lang, &link.target) {
                Ok((to, _)) | Err(Broken::NoAnchor(to, _)) => Some(to),
                Err(Broken::NoDocument | Broken::Hidden(_)) => None,
            })
    }

    /// A problem for each link of a visible document, or of a section's
    /// `_index.md`, that leads nowhere: no such document, one this build
    /// does not publish, or no such heading in it; the last is a warning
    /// instead when the site says so.
    pub(super) fn link_problems(&self) -> (Vec<Problem>, Vec<String>) {
        let (mut problems, mut warnings) = (Vec::new(), Vec::new());
        let Some(places) = &self.places else {
            return (problems, warnings);
        };
        let documents = self.visible.iter().map(|&i| {
            let record = &self.records[i];
            (
                record.source.path.as_str(),
                record.lang.as_str(),
                &record.links,
            )
        });
        let sections = (0..self.sections.lists.len())
            .filter_map(|at| self.sections.file_of(at))
            .map(|file| (file.path.as_str(), file.lang.as_str(), &file.links));
        for (path, lang, links) in documents.chain(sections) {
            for link in links {
                match self.target_in(lang, &link.target) {
                    Ok(_) => {}
                    Err(broken @ Broken::NoAnchor(..)) if places.anchors == Severity::Warn => {
                        let problem = self.link_problem((path, lang), link, broken);
                        warnings.push(problem.to_string());
                    }
                    Err(broken) => problems.push(self.link_problem((path, lang), link, broken)),
                }
            }
        }
        (problems, warnings)
    }

    fn link_problem(
        &self,
        (path, lang): (&str, &str),
        link: &InternalLink,
        broken: Broken,
    ) -> Problem {
        let (message, help) = self.broken(self.places.as_ref(), lang, &link.target, broken);
        Problem::new(
            path,
            Some(link.line as usize),
            ProblemKind::BrokenLink {
                link: format!("{INTERNAL_LINK}{}", link.target),
                message,
                help,
            },
        )
    }

    /// What is wrong with `link` (what follows `@/`) from a page in `lang`,
    /// and how to fix it, with the nearest path among `places` when known.
    fn broken(
        &self,
        places: Option<&Places>,
        lang: &str,
        link: &str,
        broken: Broken,
    ) -> (String, String) {
        let path = link.split('#').next().unwrap_or_default();
        match broken {
            Broken::NoDocument => (
                format!("no document is at content/{path}"),
                match places.and_then(|places| places.nearest(lang, path)) {
                    Some(near) => format!("did you mean `{INTERNAL_LINK}{near}`?"),
                    None => "write the path of a file under content/".into(),
                },
            ),
            Broken::Hidden(to) => (
                format!(
                    "{} is not published by this build (a draft, or dated later)",
                    self.records[to].source.path
                ),
                "publish it, or link it once it is".into(),
            ),
            Broken::NoAnchor(to, near) => (
                format!(
                    "{} has no heading with the id `{}`",
                    self.records[to].source.path,
                    link.split_once('#').map_or("", |(_, anchor)| anchor)
                ),
                if near.is_empty() {
                    "it has no heading: remove the `#…` part".into()
                } else {
                    format!("did you mean `#{near}`?")
                },
            ),
        }
    }
}

/// `html` with each `href="@/…"` and `src="@/…"` replaced by what
/// `resolve` gives for the part after `@/`; one it has nothing for is left
/// as written, and so is one in a comment or a script, which is no link
/// ([`internal_links`](crate::source::html::internal_links)): what a
/// document's row lists is what its pages lead to. The Markdown renderer
/// wrote these attributes: `&` as `&amp;`, other bytes outside a URL
/// percent-encoded.
fn replace_links(html: &str, resolve: impl Fn(&str) -> Option<String>) -> Cow<'_, str> {
    if !may_link(html) {
        return Cow::Borrowed(html);
    }
    let read = read_as_tag(html);
    rewritten(
        html,
        |a| a.is_link() && read(a),
        |written| resolve(&internal_target(written)?).map(|url| in_attribute(&url)),
    )
}

/// `url` as a double-quoted attribute's value.
fn in_attribute(url: &str) -> String {
    url.replace('&', "&amp;").replace('"', "%22")
}

/// `html` with each value of an attribute `attribute` accepts replaced by
/// what `rewrite` makes of it (`None`: left as written).
fn rewritten<'h>(
    html: &'h str,
    accept: impl Fn(&Attribute<'_>) -> bool,
    rewrite: impl Fn(&str) -> Option<String>,
) -> Cow<'h, str> {
    let mut out = String::new();
    let mut copied = 0;
    for attribute in attributes(html).filter(|a| accept(a)) {
        let Some(new) = rewrite(&html[attribute.value.clone()]) else {
            continue;
        };
        out.push_str(&html[copied..attribute.value.start]);
        out.push_str(&new);
        copied = attribute.value.end;
    }
    if copied == 0 {
        return Cow::Borrowed(html);
    }
    out.push_str(&html[copied..]);
    Cow::Owned(out)
}

/// `html` with each relative URL of an `href` or `src` attribute put after
/// `folder` (a URL path ending in `/`, percent-encoded): a link with a
/// scheme, one from the root or the host, and one within the page (`#x`,
/// `?q`) are left.
fn root_relative_links<'h>(html: &'h str, folder: &str) -> Cow<'h, str> {
    let folder = in_attribute(folder);
    rewritten(
        html,
        |a| a.is_link(),
        |written| {
            let scheme = written
                .split(['/', '?', '#'])
                .next()
                .is_some_and(|first| first.contains(':'));
            let relative = !written.is_empty() && !scheme && !written.starts_with(['/', '#', '?']);
            relative.then(|| format!("{folder}{written}"))
        },
    )
}

/// `html` with each link within its page (`<a href="#x">`, a footnote's
/// `#1`) led to that part of the page at `url` instead.
fn links_into_page<'h>(html: &'h str, url: &str) -> Cow<'h, str> {
    if memchr::memmem::find(html.as_bytes(), b"href=\"#").is_none() {
        return Cow::Borrowed(html);
    }
    let page = in_attribute(url);
    rewritten(
        html,
        |a| a.tag == "a" && a.name == "href",
        |written| {
            (written.len() > 1 && written.starts_with('#')).then(|| format!("{page}{written}"))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_within_the_page_leads_to_the_part_of_the_document_s_page() {
        let html = "<p>See <a href=\"#setup\">setup</a>.<sup class=\"footnote-reference\"><a href=\"#1\">1</a></sup> <a href=\"/x/#y\">x</a> \
                    <code>&lt;a href=\"#top\"&gt;</code> <svg><use href=\"#icon\"/></svg> <a href=\"#\">js</a></p>";
        assert_eq!(
            links_into_page(html, "/posts/a/"),
            "<p>See <a href=\"/posts/a/#setup\">setup</a>.<sup class=\"footnote-reference\"><a href=\"/posts/a/#1\">1</a></sup> <a href=\"/x/#y\">x</a> \
             <code>&lt;a href=\"#top\"&gt;</code> <svg><use href=\"#icon\"/></svg> <a href=\"#\">js</a></p>"
        );
        assert!(matches!(
            links_into_page("<p>no</p>", "/a/"),
            Cow::Borrowed(_)
        ));
        // A quote of text holding a tag: the tag is read as one.
        assert_eq!(
            links_into_page(
                "<p>x=\"<a href=\"#n\">n</a>\" <a title=\"a>b\" href=\"#m\">m</a></p>",
                "/a/"
            ),
            "<p>x=\"<a href=\"/a/#n\">n</a>\" <a title=\"a>b\" href=\"/a/#m\">m</a></p>"
        );
    }

    #[test]
    fn relative_links_are_put_under_the_page_s_folder_and_others_left() {
        let html = "<p><img src=\"photo.jpg\" alt=\"a\"> <a href=\"maps/way.svg\">map</a> \
                    <a href=\"../b/\">b</a> <a href=\"/x/\">x</a> <a href=\"#top\">t</a> \
                    <a href=\"https://e.org/\">e</a> <a href=\"//cdn/x\">c</a> \
                    <a href=\"mailto:a@e.org\">m</a> <a href=\"?q\">q</a> <a href=\"\">empty</a> \
                    <a title=\"photo.jpg\" data-src=\"y\">no</a> <code>src=&quot;z&quot;</code></p>";
        let rooted = root_relative_links(html, "/blog/posts/trip/");
        assert_eq!(
            rooted,
            "<p><img src=\"/blog/posts/trip/photo.jpg\" alt=\"a\"> \
             <a href=\"/blog/posts/trip/maps/way.svg\">map</a> \
             <a href=\"/blog/posts/trip/../b/\">b</a> <a href=\"/x/\">x</a> <a href=\"#top\">t</a> \
             <a href=\"https://e.org/\">e</a> <a href=\"//cdn/x\">c</a> \
             <a href=\"mailto:a@e.org\">m</a> <a href=\"?q\">q</a> <a href=\"\">empty</a> \
             <a title=\"photo.jpg\" data-src=\"y\">no</a> <code>src=&quot;z&quot;</code></p>"
        );
        let untouched = "<p><a href=\"/x/\">x</a></p>";
        assert!(matches!(
            root_relative_links(untouched, "/p/"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn links_in_attributes_are_replaced_and_others_left() {
        let html = "<p><a href=\"@/posts/b.md#x\">b</a> <img src=\"@/caf%C3%A9.md\" alt=\"c\"> \
                    <code>href=\"@/posts/b.md\"</code> title=\"@/no\" <a href=\"@/q.md?a=1&amp;b=2\">q</a></p>";
        let replaced = replace_links(html, |target| match target {
            "posts/b.md#x" => Some("/b/#x".into()),
            // The code's text is no attribute, even with a target.
            "posts/b.md" => Some("/b/".into()),
            "café.md" => Some("/café/".into()),
            "q.md?a=1&b=2" => Some("/q/?a&b".into()),
            _ => None,
        });
        assert_eq!(
            replaced,
            "<p><a href=\"/b/#x\">b</a> <img src=\"/café/\" alt=\"c\"> \
             <code>href=\"@/posts/b.md\"</code> title=\"@/no\" <a href=\"/q/?a&amp;b\">q</a></p>"
        );
    }

    #[test]
    fn links_in_comments_and_scripts_are_left_as_written() {
        let html = "<!-- <a href=\"@/b.md#x\"> --><script>s = '<a href=\"@/b.md\">';</script>\
                    <a href=\"@/b.md\">b</a>";
        let replaced = replace_links(html, |_| Some("/b/".into()));
        assert_eq!(
            replaced,
            "<!-- <a href=\"@/b.md#x\"> --><script>s = '<a href=\"@/b.md\">';</script>\
             <a href=\"/b/\">b</a>"
        );
    }

    #[test]
    fn html_without_links_is_not_copied() {
        let html = "<p>@/posts/b.md</p>";
        assert!(matches!(replace_links(html, |_| None), Cow::Borrowed(_)));
    }

    fn places(paths: &[&str]) -> Places {
        Places {
            by_path: paths
                .iter()
                .enumerate()
                .map(|(i, p)| (format!("content/{p}").into(), i))
                .collect(),
            languages: vec!["en".into(), "fr".into()],
            default_language: "en".into(),
            anchors: Severity::Error,
        }
    }

    #[test]
    fn a_link_finds_the_version_in_its_language_unless_it_names_one() {
        let suffixed = places(&["posts/x.md", "posts/x.fr.md", "only.md"]);
        assert_eq!(suffixed.find("en", "posts/x.md"), Some(0));
        assert_eq!(suffixed.find("fr", "posts/x.md"), Some(1));
        assert_eq!(suffixed.find("en", "posts/x.fr.md"), Some(1));
        assert_eq!(suffixed.find("fr", "only.md"), Some(2));
        assert_eq!(suffixed.find("en", "posts/y.md"), None);
        let folders = places(&["en/posts/x.md", "fr/posts/x.md"]);
        assert_eq!(folders.find("fr", "posts/x.md"), Some(1));
        assert_eq!(folders.find("en", "posts/x.md"), Some(0));
        assert_eq!(folders.find("fr", "en/posts/x.md"), Some(0));
        assert_eq!(folders.find("ja", "posts/x.md"), Some(0));
        assert_eq!(
            folders.nearest("fr", "posts/xx.md").as_deref(),
            Some("posts/x.md")
        );
        assert_eq!(
            suffixed.nearest("en", "posts/x.frr.md").as_deref(),
            Some("posts/x.fr.md")
        );
    }
}
