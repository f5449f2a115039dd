use super::*;

fn shortcodes(templates: &[(&str, &str)]) -> Shortcodes {
    Shortcodes::new(
        templates
            .iter()
            .map(|(name, text)| (format!("{SHORTCODES_DIR}{name}.html"), (*text).to_owned())),
        "digest".into(),
    )
}

/// `markdown` expanded, its text rendered as a paragraph-per-line stand-in
/// for Markdown, and filled.
fn html(shortcodes: &Shortcodes, markdown: &str) -> Result<String, CallError> {
    let nested = |inner: &str, _line: usize| {
        Ok((
            format!("<i>{}</i>", inner.trim()),
            BTreeSet::new(),
            Vec::new(),
        ))
    };
    let expanded = shortcodes.expand(markdown, ("en", 1), &nested)?;
    let Some(expanded) = expanded else {
        return Ok(markdown.to_owned());
    };
    let rendered: String = expanded
        .text
        .split("\n\n")
        .map(|paragraph| format!("<p>{paragraph}</p>"))
        .collect();
    Ok(expanded.fill(&rendered))
}

#[test]
fn arguments_body_nth_and_lang_reach_the_template_escaped() {
    let codes = shortcodes(&[
        ("say", "<b>{{ what }}</b>#{{ nth }}/{{ lang }}"),
        ("box", "<div title=\"{{ title }}\">{{ body }}</div>"),
    ]);
    assert_eq!(
        html(&codes, "a {{ say(what=\"<x>\") }} b {{ say(what=1) }}").unwrap(),
        "<p>a <b>&lt;x&gt;</b>#1/en b <b>1</b>#2/en</p>"
    );
    // A call alone in its paragraph replaces the paragraph.
    assert_eq!(
        html(
            &codes,
            "x\n\n{% box(title='\"t\"') %}\n*in*\n{% end %}\n\ny"
        )
        .unwrap(),
        "<p>x</p><div title=\"&quot;t&quot;\"><i>*in*</i></div><p>y</p>"
    );
}

#[test]
fn an_unknown_shortcode_or_argument_is_named_with_its_line_and_the_nearest() {
    let codes = shortcodes(&[("figure", "{{ src }}{{ caption if caption }}")]);
    let (line, kind) = html(&codes, "a\n\n{{ figur(src=\"x\") }}").unwrap_err();
    assert_eq!(line, 3);
    let said = kind.to_string();
    assert!(
        said.contains("shortcode `figur`: there is no such shortcode"),
        "{said}"
    );
    assert!(said.contains("did you mean `figure`?"), "{said}");
    let (_, kind) = html(&codes, "{{ figure(scr=\"x\") }}").unwrap_err();
    let said = kind.to_string();
    assert!(said.contains("it has no argument `scr`"), "{said}");
    assert!(
        said.contains("did you mean `src`? It takes: caption, src"),
        "{said}"
    );
}

#[test]
fn a_template_that_fails_is_named_with_its_line() {
    let codes = shortcodes(&[("bad", "line one\n{{ missing.attr }}")]);
    let (line, kind) = html(&codes, "x\n{{ bad() }}").unwrap_err();
    assert_eq!(line, 2);
    let said = kind.to_string();
    assert!(said.contains("templates/shortcodes/bad.html:2"), "{said}");
}

#[test]
fn a_body_without_calls_is_not_expanded_and_unexpanded_shortcodes_expand_nothing() {
    let codes = shortcodes(&[("say", "{{ what }}")]);
    let none = |_: &str, _: usize| Ok((String::new(), BTreeSet::new(), Vec::new()));
    assert!(
        codes
            .expand("plain {{ var }} text", ("en", 1), &none)
            .unwrap()
            .is_none()
    );
    let call = "{{ say(what=\"x\") }}";
    assert!(
        Shortcodes::unexpanded()
            .expand(call, ("en", 1), &none)
            .unwrap()
            .is_none()
    );
}

#[test]
fn the_calls_of_a_body_and_of_those_it_encloses_are_named() {
    let codes = shortcodes(&[("a", "{{ body }}"), ("b", "b")]);
    let nested =
        |_: &str, _: usize| Ok((String::new(), BTreeSet::from(["b".to_owned()]), Vec::new()));
    let expanded = codes
        .expand("{% a() %}{{ b() }}{% end %}", ("en", 1), &nested)
        .unwrap()
        .unwrap();
    assert_eq!(
        expanded.called,
        BTreeSet::from(["a".to_owned(), "b".to_owned()])
    );
}
