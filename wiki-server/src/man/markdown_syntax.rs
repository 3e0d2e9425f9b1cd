//! The "markdown-syntax" reference page: the content syntax agents write.

/// The page text.
pub(super) const PAGE: &str = r#"NAME
    markdown-syntax - the content syntax: CommonMark + GFM with wiki links

DESCRIPTION
    Page content is CommonMark with the GitHub extensions (tables, task lists,
    strikethrough, autolinks, footnotes). A link whose destination is a wiki
    reference is a wiki link: it is tracked (get_links shows it, and the target's
    backlinks count it), and it may point to a page that does not exist yet.

REFERENCES
    Space.Page            the page "Page" in the space "Space"
    Space.Sub.Page        nested spaces: every segment but the last is a space
    Space                 a space alone means its home page, Space.WebHome
    wiki:Space.Page       a page in another wiki (needs cross-wiki reach; see list_wikis)
    A dot, colon or backslash inside a name is escaped with a backslash:
    the page "v1.0" in "Releases" is Releases.v1\.0

WIKI LINKS
    [label](Space.Page)               link to a page of this wiki
    [label](wiki:Space.Page)          link to a page of another wiki
    [label](Space.Page#Heading)       the fragment is ignored when tracking
    ![alt](attach:diagram.png)        image attached to this page
    [report](attach:Space.Page@q3.pdf)  attachment of another page
    https://example.com, [x](https://example.com), [x](/path)  ordinary links, not tracked

ESCAPING PITFALLS
    - Markdown applies its own backslash escapes BEFORE the reference is read, so a
      destination needs the backslash doubled: [notes](Releases.v1\\.0) links to
      Releases.v1\.0. Or use angle brackets with a title-free destination:
      [notes](<Releases.v1\\.0>).
    - A destination with spaces must be in angle brackets: [plan](<Sales.Q3 Plan>).
    - Parentheses in a destination are balanced or escaped: [x](Space.Page\(draft\)).
    - A destination with a scheme (http:, mailto:, ...) or a "/" is a URL, never a
      wiki reference; a wiki id before ":" is a wiki prefix.
    - Literal *, _, `, [, ], #, | and < are Markdown syntax: escape them with a
      backslash when they are text (\*not emphasis\*).

BLOCKS
    # Heading 1 ... ###### Heading 6      headings (get_document outlines them)
    - item / 1. item / - [ ] task         lists and task lists
    > quote                               block quote
    ```lang ... ```                       fenced code (content is kept verbatim)
    | a | b |  then |---|---|  then rows  tables (GFM)
    ---                                   thematic break

SEE ALSO
    get_document, write_document, edit_document, get_links
"#;
