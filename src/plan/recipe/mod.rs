//! The kinds of page a site has, one file each: which pages of the kind
//! there are, what one is computed from (its inputs, hence its
//! fingerprint) and what its template is handed (its context), side by
//! side, so that a field added to a context is added to its inputs in the
//! same place. The `drift` test checks each kind: whatever its context
//! shows is in its fingerprint, and nothing else is.

use super::*;

mod archive;
mod document;
mod extra;
mod feed;
mod home;
mod redirect;
mod section;
mod site_file;
mod sitemap;
mod taxonomy;

#[cfg(test)]
mod drift;

pub(super) use archive::{Archive, archive_recipe};
pub(super) use document::{Document, document_recipe, document_recipes, missing_template};
pub(super) use extra::{Extra, extra_recipes};
pub(super) use feed::{Feed, FeedOf, feed_recipes, home_feed_recipes};
pub(super) use home::{Home, home_recipes};
pub(super) use redirect::{Redirect, drop_aliases_in_the_way};
pub(super) use section::{Section, section_recipes, section_title_inputs};
pub use site_file::site_file_urls;
pub(super) use site_file::{SITE_FILES, SiteFile, site_file_recipes};
pub(super) use sitemap::{Sitemap, sitemap_recipe};
pub(super) use taxonomy::{TaxonomyIndex, Term, taxonomy_recipes};

/// How a page's context is built, once it must be.
#[derive(Debug, Clone)]
pub(super) enum Recipe {
    Document(Document),
    Home(Home),
    Archive(Archive),
    TaxonomyIndex(TaxonomyIndex),
    Term(Term),
    Section(Section),
    Feed(Feed),
    Sitemap(Sitemap),
    SiteFile(SiteFile),
    Redirect(Redirect),
    Extra(Extra),
}

/// What a page is computed from ([`Recipe::inputs`]).
pub(super) struct Inputs<'m> {
    pub(super) parts: Vec<Input<'m>>,
    /// The site.toml keys it reads beyond those every page reads.
    pub(super) config_keys: &'static [&'static str],
}

/// One input of a page.
pub(super) enum Input<'m> {
    /// A value that shapes the page: its language, a page number, a term.
    Text(&'m str),
    Number(usize),
    /// A document it shows, stood in for by its digest.
    Document(usize),
    /// Documents it shows (a list, the translations), and how many.
    Documents(&'m [usize]),
    /// Every visible post of a language, each whole (what a template
    /// reading `all_posts` shows): hashed as [`Input::Documents`] of them.
    PostsOf(&'m str),
    /// Documents it lists by their title, URL and date alone, and how many:
    /// an edit to anything else of theirs leaves it as it is.
    Listed(&'m [usize]),
    /// The versions of a document, itself among them, by their language
    /// and URL alone (its alternates and language switcher).
    Versions(&'m [usize]),
    /// The newer or older post it links, if any, by its title and URL
    /// alone.
    Neighbour(Option<usize>),
    /// A document's title alone: a redirect names the page it leads to by
    /// it.
    Title(usize),
    /// A taxonomy's index in a language (the taxonomy by its place in the
    /// model): each term's slug, name and number of posts, which every post
    /// of the language contributes to.
    TermIndex(usize, &'m str),
    /// Every HTML page's URL and alternates, hashed once per build (the
    /// sitemap key), which every visible document contributes to.
    Sitemap,
    /// A section's `_index.md` (by place in the model's section files),
    /// all it says: its bytes' hash and the templates of the shortcodes its
    /// body calls.
    SectionFile(usize),
    /// Only the title of a section's `_index.md`, for a page that names
    /// the section without showing it.
    SectionTitle(usize),
}

/// The site.toml keys a list of posts reads: how many per page, their
/// URLs and their dates.
const LISTS: &[&str] = &["paginate", "permalink", "timezone"];

/// One page of a paginated list of documents (a language's home, a term's
/// posts, a section's documents): which page of how many, and the
/// documents on it.
#[derive(Debug, Clone)]
pub(in crate::plan) struct ListPage {
    pub(in crate::plan) page: usize,
    pub(in crate::plan) total: usize,
    pub(in crate::plan) items: Vec<usize>,
}

impl ListPage {
    /// What such a page is computed from, after what names its list.
    fn inputs(&self) -> [Input<'_>; 3] {
        [
            Input::Number(self.page),
            Input::Number(self.total),
            Input::Documents(&self.items),
        ]
    }

    /// Its posts, and the links to the pages around it; `url_of(n)` is
    /// page `n`'s URL.
    fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>, url_of: impl Fn(usize) -> String) {
        let (config, model, i18n) = (plan.config, &plan.model, plan.views.i18n);
        context.posts = Some(
            self.items
                .iter()
                .map(|&i| model.item(config, i18n, i))
                .collect(),
        );
        context.paginator = Some(paginator(self.page, self.total, url_of));
    }
}

impl Recipe {
    /// What the page is computed from, beyond its template, the config
    /// every page reads and its language's words: the one list its
    /// fingerprint, `folio explain` and a dry run's reasons read.
    pub(super) fn inputs<'s>(&'s self, model: &'s Model) -> Inputs<'s> {
        match self {
            Recipe::Document(kind) => kind.inputs(model),
            Recipe::Home(kind) => kind.inputs(),
            Recipe::Archive(kind) => kind.inputs(model),
            Recipe::TaxonomyIndex(kind) => kind.inputs(model),
            Recipe::Term(kind) => kind.inputs(model),
            Recipe::Section(kind) => kind.inputs(model),
            Recipe::Feed(kind) => kind.inputs(model),
            Recipe::Sitemap(kind) => kind.inputs(),
            Recipe::SiteFile(kind) => kind.inputs(),
            Recipe::Redirect(kind) => kind.inputs(model),
            Recipe::Extra(kind) => kind.inputs(),
        }
    }

    /// Fills what the page's template is handed beyond the common part of
    /// every context: what [`Recipe::inputs`] covers. `sitemap` is the
    /// build's sitemap, when it renders the sitemap.
    pub(super) fn fill<'s>(
        &self,
        plan: &'s Plan<'_>,
        context: &mut Context<'s>,
        sitemap: Option<&'s [SitemapEntry]>,
    ) {
        match self {
            Recipe::Document(kind) => kind.fill(plan, context),
            Recipe::Home(kind) => kind.fill(plan, context),
            Recipe::Archive(kind) => kind.fill(plan, context),
            Recipe::TaxonomyIndex(kind) => kind.fill(plan, context),
            Recipe::Term(kind) => kind.fill(plan, context),
            Recipe::Section(kind) => kind.fill(plan, context),
            Recipe::Feed(kind) => kind.fill(plan, context),
            Recipe::Sitemap(kind) => kind.fill(context, sitemap),
            Recipe::Redirect(kind) => kind.fill(plan, context),
            // Their context is the common part alone; an output plugin
            // makes its files from [`Plan::extra_documents`].
            Recipe::SiteFile(_) | Recipe::Extra(_) => {}
        }
    }

    /// Who produces the page: its source, or what the generated page is
    /// (`(home of fr, page 2)`, `(robots.txt)`).
    pub(super) fn made_by(&self, model: &Model, template: &str) -> String {
        match self {
            Recipe::Document(Document(i)) | Recipe::Redirect(Redirect(i)) => {
                model.records[*i].source.path.clone()
            }
            Recipe::Home(Home { lang, list }) => format!("(home of {lang}, page {})", list.page),
            Recipe::Archive(Archive { lang }) => format!("(archive of {lang})"),
            Recipe::TaxonomyIndex(TaxonomyIndex { taxonomy, lang }) => {
                format!("({} of {lang})", model.taxonomies[*taxonomy].name)
            }
            Recipe::Term(Term {
                taxonomy,
                lang,
                slug,
                list,
            }) => {
                let taxonomy = &model.taxonomies[*taxonomy];
                let (name, _) = taxonomy.term(lang, slug);
                format!("({} `{name}` of {lang}, page {})", taxonomy.name, list.page)
            }
            Recipe::Section(Section { at, list }) => {
                let section = &model.sections.lists[*at];
                let (folder, lang) = (&section.folder, &section.lang);
                format!("(section `{folder}` of {lang}, page {})", list.page)
            }
            Recipe::Feed(feed) => feed.made_by(model),
            Recipe::Sitemap(_) => "(sitemap)".into(),
            Recipe::SiteFile(_) => format!("({template})"),
            Recipe::Extra(Extra { stamp, lang, .. }) => format!("(plugin {stamp}, {lang})"),
        }
    }

    /// A generated list, whose place a document may take.
    pub(super) fn is_generated_list(&self) -> bool {
        matches!(
            self,
            Recipe::Home(_)
                | Recipe::Archive(_)
                | Recipe::TaxonomyIndex(_)
                | Recipe::Term(_)
                | Recipe::Section(_)
        )
    }
}
