//! The `folio` command line: the arguments, the allocator, and which
//! subcommand of `cli/` runs (each calls the library and prints); an error
//! ends it with its report on stderr and exit code 1.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `println!` that ends the program quietly when the reader went away
/// (`folio explain … | head`): printing to a closed pipe is not an error of
/// the build, and must not panic.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(error) = writeln!(std::io::stdout().lock(), $($arg)*) {
            if error.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("error: cannot write the output: {error}");
                std::process::exit(1);
            }
            std::process::exit(0);
        }
    }};
}

// Before `mod cli`: a `macro_rules!` macro is seen only by the code after it.
mod cli;

use cli::Publish;
use cli::amend::{amend, id};
use cli::build::{Checks, build};
use cli::check::check;
use cli::explain::explain;
use cli::import::{ImportFrom, import};
use cli::publish::publish;
#[cfg(feature = "serve")]
use cli::serve::{host_name, serve};

#[derive(Parser)]
#[command(
    name = "folio",
    version,
    about = "An incremental static-site generator for multilingual blogs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the site, rewriting only the pages that changed.
    Build {
        #[command(flatten)]
        site: cli::SiteArgs,
        /// The output folder (default: `output_dir` of site.toml).
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        publish: Publish,
        /// Print the report as JSON, with the written and deleted paths.
        #[arg(long)]
        json: bool,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Accept changed publication dates and slugs of published posts:
        /// they are published anew, under new ids, with no redirect (`folio
        /// redate` and `folio move` are the ways that keep them).
        #[arg(long = "accept-id-changes", alias = "accept-date-changes")]
        accept_id_changes: bool,
        /// Print what would be written and deleted, and why; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Fail at once when another build of the site is running, instead
        /// of waiting for it.
        #[arg(long)]
        no_wait: bool,
    },
    /// Name the templates, sources and config keys an output file is built from.
    Explain {
        /// A file of the output folder (`public/fr/index.html`), relative to it, or a URL path (`/fr/`).
        path: String,
        /// The site root (the folder holding site.toml).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// The output folder (default: `output_dir` of site.toml).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print the explanation as JSON.
        #[arg(long)]
        json: bool,
    },
    #[cfg(feature = "serve")]
    /// Build the site into .folio/preview, serve it, and rebuild and reload
    /// the open pages on every save.
    Serve {
        #[command(flatten)]
        site: cli::SiteArgs,
        /// The address to listen on; loopback unless you mean to share it.
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// The port; 0 takes a free one.
        #[arg(long, default_value_t = 1111)]
        port: u16,
        /// Also answer requests naming this host (besides localhost and IP
        /// addresses), to reach the preview by a name of this machine.
        /// Repeatable.
        #[arg(long = "allow-host", value_name = "NAME", value_parser = host_name)]
        allow_host: Vec<String>,
        #[command(flatten)]
        publish: Publish,
        /// Open the site in the default browser once it is served.
        #[arg(long)]
        open: bool,
    },
    /// Turn a site made by another generator into a folio site, keeping
    /// every post's URL. The source folder is only read.
    Import {
        /// The generator that made it.
        generator: ImportFrom,
        /// The site's folder.
        source: PathBuf,
        /// A new folder for the folio site (default: SOURCE-folio beside it).
        #[arg(long)]
        into: Option<PathBuf>,
    },
    /// Check the whole site (sources, front matter, the ids' guard,
    /// templates, links between pages and to files, anchors) without
    /// writing a page or a row of the site's own; exit 1 on any error.
    Check {
        #[command(flatten)]
        site: cli::SiteArgs,
        #[command(flatten)]
        publish: Publish,
        /// Also ask for every link out of the site over HTTP: 404, 410 and
        /// a host that does not exist are errors, 429, 5xx and timeouts
        /// warnings. Links found alive are trusted for a day
        /// (.folio/links.json).
        #[arg(long)]
        external: bool,
    },
    /// Change a published post's date, the sanctioned way: its front
    /// matter gets the new date (and its old URL as an alias, when the URL
    /// changes, so the old address redirects), and its row moves to the
    /// new id. Then run `folio build`.
    Redate {
        /// A Markdown file under the site's content folder.
        file: PathBuf,
        /// The new date, as front matter writes it (2024-06-01, or
        /// 2024-06-01T10:00:00+02:00).
        date: String,
        /// The site root (the folder holding site.toml).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Change a published document's slug, the sanctioned way: its front
    /// matter gets the new slug and its old URL as an alias (the old
    /// address redirects), and its row moves to the new id. Then run
    /// `folio build`.
    Move {
        /// A Markdown file under the site's content folder.
        file: PathBuf,
        /// The new slug.
        new_slug: String,
        /// The site root (the folder holding site.toml).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Build the site if it is not up to date, then upsert every published
    /// post and page into a PostgreSQL database (schema and table made and
    /// migrated by folio), writing only the rows that changed and deleting
    /// those of documents no longer published.
    Publish {
        /// The site root (the folder holding site.toml).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// The database: a `postgres://USER@HOST:PORT/DATABASE` URL (default:
        /// DATABASE_URL, then `[publish] database` of site.toml). Keep the
        /// password in PGPASSWORD. TLS as libpq: add
        /// `?sslmode=verify-full&sslrootcert=CA.pem` to check the server.
        #[arg(long)]
        database: Option<String>,
        /// Read the database and print what would be written and deleted;
        /// write nothing, there or in the site.
        #[arg(long)]
        dry_run: bool,
        /// Print the report as JSON, with the ids written and deleted.
        #[arg(long)]
        json: bool,
        /// Let a post whose date (and so id) changed replace the database's
        /// row of the same slug and language.
        #[arg(long = "accept-id-changes", alias = "accept-date-changes")]
        accept_id_changes: bool,
    },
    /// Print the id of a source file.
    Id {
        /// A Markdown file under the site's content folder.
        file: PathBuf,
        /// The site root (the folder holding site.toml).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Start a site that builds at once: site.toml, a first post, .gitignore.
    Init {
        /// The folder to start it in (made if missing).
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
    /// Start a document with its front matter written.
    New {
        #[command(subcommand)]
        what: New,
    },
}

#[derive(Subcommand)]
enum New {
    /// A post, as a draft: its slug from the title, its date now.
    Post {
        /// Its title.
        title: String,
        /// Its language (default: the site's default language).
        #[arg(long)]
        lang: Option<String>,
        /// Its folder of posts (default: the first of post_sections).
        #[arg(long)]
        section: Option<String>,
        /// A post it translates: it takes that post's date and translation key.
        #[arg(long, value_name = "FILE")]
        translation_of: Option<PathBuf>,
        /// The site root (the folder holding site.toml).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

// A build allocates many short-lived strings on every core at once; glibc's
// allocator spent a fifth of a cold build's CPU time on them, mimalloc a
// fraction of that. Its 2.x series (the `v2` feature) holds less memory at
// the peak of a cold build than 3.x (285 MB against 300 MB at 15,000 pages).
// The library leaves the choice to whoever embeds it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay`, which its Rust bindings leave
/// unnamed: the option after `eager_commit_delay` in `mimalloc.h`. The
/// test below checks that it still reads as the purge delay's default.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = libmimalloc_sys::mi_option_eager_commit_delay + 1;

/// By default mimalloc hands memory a thread freed back to the kernel 10 ms
/// later, and a build frees and allocates again all the time: a cold build
/// of 15,000 pages took twice the page faults (3,900 against 1,800), each
/// a fresh page to zero, and 8% more CPU time. Keeping freed memory costs
/// ~10 MB at the peak; a long-running `serve` keeps its largest build's
/// memory for the next.
fn keep_freed_memory() {
    // SAFETY: called first thing in `main`, before any other thread exists,
    // as mimalloc asks of option writes; the option takes any integer.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) };
}

fn main() -> ExitCode {
    keep_freed_memory();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build {
            site,
            out,
            publish,
            json,
            threads,
            accept_id_changes,
            dry_run,
            no_wait,
        } => build(
            &site,
            out,
            publish,
            json,
            threads,
            Checks {
                accept_id_changes,
                dry_run,
                no_wait,
            },
        ),
        Command::Explain {
            path,
            root,
            out,
            json,
        } => explain(root, out, &path, json),
        #[cfg(feature = "serve")]
        Command::Serve {
            site,
            bind,
            port,
            allow_host,
            publish,
            open,
        } => serve(
            site,
            std::net::SocketAddr::new(bind, port),
            &allow_host,
            publish,
            open,
        ),
        Command::Publish {
            root,
            database,
            dry_run,
            json,
            accept_id_changes,
        } => publish(root, database, json, (dry_run, accept_id_changes)),
        Command::Id { file, root } => id(root, file),
        Command::Init { dir } => cli::scaffold::init(&dir),
        Command::New {
            what:
                New::Post {
                    title,
                    lang,
                    section,
                    translation_of,
                    root,
                },
        } => {
            let mut post = folio::NewPost::new(&title);
            post.lang = lang.as_deref();
            post.section = section.as_deref();
            post.translation_of = translation_of.as_deref();
            cli::scaffold::new_post(root, &post)
        }
        Command::Check {
            site,
            publish,
            external,
        } => check(&site, publish, external),
        Command::Redate { file, date, root } => amend(root, &file, folio::Change::Date(&date)),
        Command::Move {
            file,
            new_slug,
            root,
        } => amend(root, &file, folio::Change::Slug(&new_slug)),
        Command::Import {
            generator,
            source,
            into,
        } => import(generator, source, into),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purge_delay_is_mimallocs_purge_delay() {
        // 10 ms is the purge delay's default; the options next to it in
        // mimalloc.h default to 1 (eager_commit_delay) and 0 (use_numa_nodes).
        // SAFETY: a read of an option, which `main` alone ever writes.
        assert_eq!(unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) }, 10);
    }
}
