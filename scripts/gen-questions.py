#!/usr/bin/env python3
"""Writes a question set from the structure of the corpus documents, with gold answers
read from the files by this script alone (Python's zipfile, ElementTree and
html.parser), never from docrag's output.

Usage: gen-questions.py [--corpus DIR] [--collections FILE] [--out DIR] [--sample N]

For every DOCX (WordprocessingML, ECMA-376 Part 1) of the corpus:
  table-cell     each simple table (a header row of distinct labels, a first column
                 of distinct keys, no merged cells in the rows used): the cell of a
                 data row and a column, asked by the row's key (a name, a year, a
                 number) and the column's label, and by row ordinal
  revision       each w:ins / w:del of four words or more: who made it, and, for an
                 author with a single change of that kind, what it was
  comment        each w:comment: who wrote it, and (one comment per author) what it says
  footnote       each w:footnote / w:endnote: its text, asked by the words before its
                 reference mark
  header-footer  the text of the page header and footer parts the main part references
and for every HTML file the cells of its simple <table>s, as above.

A document is named in a question by its file name, by its title (docProps/core.xml
dc:title, or the HTML <title>) or by its first heading, in turn. The questions go to
OUT/questions.jsonl in the eval's format (../shared/eval/README.md), each in the
eval collection that holds its document; OUT/sample.jsonl is a fixed, evenly spread
sample of N of them (default 200) for `make eval`. Deterministic: the same corpus
gives the same files.
"""
import argparse
import html.parser
import json
import os
import posixpath
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

W_NS = (
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "http://purl.oclc.org/ooxml/wordprocessingml/main",
)
MAX_PER_TABLE = 80
MAX_PER_DOC = 400
# Sections asked of one document.
MAX_SECTIONS = 25
# Phrasings of each fact (a phrasing repeated word for word is asked once).
PHRASINGS = 4
# Gold answers of notes, comments and parts: their first words (the scorer wants 75%
# of a gold answer's content words in the answer, and an answer quotes a long note cut).
MAX_GOLD_WORDS = 30


def local(tag):
    return tag.rsplit("}", 1)[-1]


def wattr(el, name):
    for ns in W_NS:
        v = el.get("{%s}%s" % (ns, name))
        if v is not None:
            return v
    return None


def norm(s):
    return re.sub(r"\s+", " ", s or "").strip()


def text_of(el, deleted=False):
    """The visible text under `el`: w:t (w:delText too when `deleted`), w:tab as a space."""
    out = []
    for e in el.iter():
        n = local(e.tag)
        if n == "t" or (deleted and n == "delText"):
            out.append(e.text or "")
        elif n in ("tab", "br", "cr"):
            out.append(" ")
        elif n == "p" and out:
            out.append(" ")
    return norm("".join(out))


def words(s):
    return re.findall(r"\w+", s)


# ---------------------------------------------------------------- DOCX


class Docx:
    def __init__(self, path):
        self.z = zipfile.ZipFile(path)
        self.names = set(self.z.namelist())
        self.main = self._main_part()
        self.root = self._xml(self.main) if self.main else None

    def _xml(self, name):
        if name not in self.names:
            return None
        try:
            return ET.fromstring(self.z.read(name))
        except ET.ParseError:
            return None

    def _main_part(self):
        rels = self._xml("_rels/.rels")
        if rels is not None:
            for r in rels:
                if r.get("Type", "").endswith("/officeDocument"):
                    return r.get("Target", "").lstrip("/")
        return "word/document.xml" if "word/document.xml" in self.names else None

    def rels(self):
        d, f = posixpath.split(self.main)
        root = self._xml(posixpath.join(d, "_rels", f + ".rels"))
        out = []
        if root is not None:
            for r in root:
                if r.get("TargetMode") == "External":
                    continue
                out.append((r.get("Type", "").rsplit("/", 1)[-1], posixpath.normpath(posixpath.join(d, r.get("Target", "")))))
        return out

    def title(self):
        core = self._xml("docProps/core.xml")
        if core is not None:
            for e in core.iter():
                if local(e.tag) == "title" and norm(e.text):
                    return norm(e.text)
        return None

    def first_heading(self):
        if self.root is None:
            return None
        for p in self.root.iter():
            if local(p.tag) != "p":
                continue
            style = None
            for e in p.iter():
                if local(e.tag) == "pStyle":
                    style = (wattr(e, "val") or "").lower()
                    break
            if style and (style.startswith("heading") or style == "title"):
                t = text_of(p)
                if 2 <= len(words(t)) <= 12:
                    return t
        return None


def looks_header(tr):
    """Whether a reader sees row `tr` as a header: marked as one (w:tblHeader), or all
    its text bold (w:b), or its cells shaded (w:shd with a fill colour)."""
    runs = [r for r in tr.iter() if local(r.tag) == "r" and text_of(r)]
    flags = [e for e in tr.iter() if local(e.tag) == "tblHeader"]
    if flags and (wattr(flags[0], "val") or "true") not in ("0", "false", "off"):
        return True
    def bold(r):
        b = [e for e in r.iter() if local(e.tag) == "b"]
        return bool(b) and (wattr(b[0], "val") or "true") not in ("0", "false", "off")
    if runs and all(bold(r) for r in runs):
        return True
    shd = [e for e in tr.iter() if local(e.tag) == "shd"]
    return bool(shd) and all((wattr(e, "fill") or "auto").lower() not in ("auto", "ffffff") for e in shd)


def styled_header_styles(d):
    """Table styles whose first-row formatting (w:tblStylePr w:type="firstRow",
    ECMA-376 17.7.6) sets bold or shading: a first row drawn with them reads as a header."""
    root = d._xml("word/styles.xml")
    out = set()
    if root is None:
        return out
    for st in root:
        if local(st.tag) != "style" or wattr(st, "type") != "table":
            continue
        for tp in st:
            if local(tp.tag) == "tblStylePr" and wattr(tp, "type") == "firstRow":
                if any(local(e.tag) in ("b", "shd") for e in tp.iter()):
                    out.add(wattr(st, "styleId"))
    return out


def first_row_styled(tbl, styles):
    """Whether the table applies its style's first-row formatting (w:tblLook firstRow,
    17.4.56: the attribute, or bit 0x0020 of w:val) with a style in `styles`."""
    style = look = None
    for e in tbl.iter():
        n = local(e.tag)
        if n == "tblStyle" and style is None:
            style = wattr(e, "val")
        elif n == "tblLook" and look is None:
            look = e
        elif n == "tr":
            break
    if style not in styles or look is None:
        return False
    fr = wattr(look, "firstRow")
    if fr is not None:
        return fr in ("1", "true", "on")
    try:
        return bool(int(wattr(look, "val") or "0", 16) & 0x0020)
    except ValueError:
        return False


def grid(tbl):
    """Rows of (text, merged) per grid column, and whether the first row is a header;
    None when the table nests another."""
    rows, header = [], False
    for tr in tbl:
        if local(tr.tag) != "tr":
            continue
        if not rows:
            header = looks_header(tr)
        row = []
        for tc in tr:
            if local(tc.tag) != "tc":
                continue
            if any(local(e.tag) == "tbl" for e in tc.iter()):
                return None
            span, merged = 1, False
            for e in tc.iter():
                n = local(e.tag)
                if n == "gridSpan":
                    span = int(wattr(e, "val") or 1)
                elif n == "vMerge":
                    merged = True
            merged = merged or span > 1
            row.extend([(text_of(tc), merged)] * span)
        rows.append(row)
    return rows, header


def body_blocks(root):
    """Top-level paragraphs and tables of the body, in order (content controls opened)."""
    body = next((e for e in root.iter() if local(e.tag) == "body"), None)
    out = []

    def walk(el):
        for c in el:
            n = local(c.tag)
            if n in ("p", "tbl"):
                out.append(c)
            elif n in ("sdt", "sdtContent", "customXml"):
                walk(c)

    if body is not None:
        walk(body)
    return out


def table_cells(rows, name_of_table):
    """(key, label, value, row ordinal, evidence) for the simple cells of a grid."""
    if not rows or len(rows) < 3:
        return []
    width = len(rows[0])
    if width < 2 or any(len(r) != width for r in rows):
        return []
    head = [t for t, _ in rows[0]]
    if any(m for _, m in rows[0]) or any(not h for h in head) or len(set(h.lower() for h in head)) < width:
        return []
    if any(len(h) > 60 for h in head):
        return []
    data = rows[1:]
    keys = [r[0][0] for r in data]
    out = []
    # An ordinal counts the rows a reader sees: none after an empty row.
    blank = next((i for i, r in enumerate(data) if not any(t for t, _ in r)), len(data))
    for ri, r in enumerate(data):
        key = r[0][0]
        if not key or any(m for _, m in r) or keys.count(key) != 1 or len(key) > 60:
            continue
        if key.lower() in (h.lower() for h in head):
            continue
        # A row of 1, 2, 3 ... numbers the columns (a common layout in forms): no data.
        if [t for t, _ in r] == [str(i) for i in range(1, width + 1)]:
            continue
        for ci in range(1, width):
            v = r[ci][0]
            if not v or len(v) > 120 or v == key or not re.search(r"\w", v):
                continue
            # The value must tell this cell apart from the rest of its row.
            if sum(1 for t, _ in r if t == v) > 1:
                continue
            out.append({
                "key": key, "label": head[ci], "value": v, "row": ri + 1 if ri < blank else 0,
                "evidence": [head[ci], key, v], "table": name_of_table,
            })
    return out


def table_questions(tables):
    """Cell questions of a document's tables: [(rows or None, caption)] in document order.
    A question that does not name the table by caption names it by ordinal, and one that
    names neither asks by a row key no other table of the document holds."""
    keys = {}
    for rows, _ in tables:
        for r in (rows or [])[1:]:
            if r:
                keys[r[0][0]] = keys.get(r[0][0], 0) + 1
    qs = []
    for ti, (rows, caption) in enumerate(tables):
        if rows is None:
            continue
        cells = table_cells(rows, caption)
        for c in cells:
            c["unique"] = keys.get(c["key"], 0) == 1
            c["nth"] = ti if len(tables) > 1 else None
        # Spread the table's questions over rows and columns.
        step = max(1, len(cells) // MAX_PER_TABLE)
        qs.extend(("table-cell", c) for c in cells[::step][:MAX_PER_TABLE])
    return qs


def first_sentence(text):
    """The text up to its first sentence end (. ! ? followed by a space), if long enough."""
    m = re.search(r"^(.{20,}?[.!?])\s", text + " ")
    return m.group(1) if m else text


def section_questions(heads):
    """Section questions of [heading, first body paragraph] pairs: headings of two to
    eight words that no other heading repeats; the gold is the opening sentence."""
    names = [h for h, _ in heads]
    qs = []
    for h, body in heads:
        if len(qs) >= MAX_SECTIONS:
            break
        if body and 1 <= len(words(h)) <= 8 and names.count(h) == 1 and not re.fullmatch(r"[\d. ]+", h):
            qs.append(("section", {"heading": h, "text": first_sentence(body)}))
    return qs


def comment_anchors(root):
    """Comment id -> the text between its w:commentRangeStart and w:commentRangeEnd
    (ECMA-376 17.13.4.4), read in document order."""
    open_, text = set(), {}
    for e in root.iter():
        n = local(e.tag)
        if n == "commentRangeStart":
            open_.add(wattr(e, "id"))
        elif n == "commentRangeEnd":
            open_.discard(wattr(e, "id"))
        elif n == "t" and open_:
            for i in open_:
                text[i] = text.get(i, "") + (e.text or "")
        elif n == "p" and open_:
            for i in open_:
                text[i] = text.get(i, "") + " "
    return {k: norm(v) for k, v in text.items()}


def docx_questions(name, d, namer):
    qs = []
    if d.root is None:
        return qs
    # Tables: each named by the short paragraph just above it.
    tables = []
    prev_text = ""
    header_styles = styled_header_styles(d)
    for b in body_blocks(d.root):
        if local(b.tag) == "p":
            t = text_of(b)
            if t:
                prev_text = t
            continue
        g = grid(b)
        caption = prev_text if 0 < len(words(prev_text)) <= 10 else None
        prev_text = ""
        header = g is not None and (g[1] or first_row_styled(b, header_styles))
        tables.append((g[0] if header else None, caption))
    qs.extend(table_questions(tables))
    # Sections: a heading (w:pStyle Heading1-9 or Title) and the first sentence of
    # the body paragraph after it.
    heads, cur = [], None
    for b in body_blocks(d.root):
        if local(b.tag) != "p":
            cur = None
            continue
        style = next((wattr(e, "val") or "" for e in b.iter() if local(e.tag) == "pStyle"), "").lower()
        t = text_of(b)
        if style.startswith("heading") and t:
            cur = t
            heads.append([t, None])
        elif cur and t and heads[-1][1] is None and len(words(t)) >= 6:
            heads[-1][1] = t
    qs.extend(section_questions(heads))
    # Lists: runs of numbered paragraphs (w:numPr, 17.9), introduced by the paragraph
    # above them.
    intro, items = "", []

    def flush():
        if len(items) >= 2 and 0 < len(words(intro)) <= 20:
            qs.append(("list-all", {"intro": intro, "items": list(items)}))
            for k, it in enumerate(items[:len(ORD)]):
                if len(words(it)) >= 2 and items.count(it) == 1:
                    qs.append(("list-item", {"intro": intro, "item": it, "nth": k}))

    for b in body_blocks(d.root):
        t = text_of(b) if local(b.tag) == "p" else ""
        numbered = local(b.tag) == "p" and any(local(e.tag) == "numPr" for e in b.iter())
        if numbered and t:
            items.append(t)
            continue
        flush()
        items = []
        intro = t
    flush()
    # Links to other places (w:hyperlink r:id with an external target, 17.16.22).
    external = {}
    d_, f_ = posixpath.split(d.main)
    rels_root = d._xml(posixpath.join(d_, "_rels", f_ + ".rels"))
    if rels_root is not None:
        for r in rels_root:
            if r.get("TargetMode") == "External" and r.get("Type", "").endswith("/hyperlink"):
                external[r.get("Id")] = r.get("Target", "")
    links = []
    for e in d.root.iter():
        if local(e.tag) == "hyperlink":
            rid = next((v for k, v in e.attrib.items() if k.endswith("}id")), None)
            t = text_of(e)
            url = external.get(rid, "")
            if url.startswith("http") and len(words(t)) >= 2 and t != url:
                links.append((t, url))
    for t, url in links:
        if [x[0] for x in links].count(t) == 1:
            qs.append(("link", {"text": t, "url": url}))
    # Tracked changes.
    changes = []
    for e in d.root.iter():
        n = local(e.tag)
        if n in ("ins", "del"):
            t = text_of(e, deleted=(n == "del"))
            a = norm(wattr(e, "author"))
            if t:
                changes.append(("inserted" if n == "ins" else "deleted", a, t))
    texts = [c[2] for c in changes]
    for kind, author, t in changes:
        if len(words(t)) >= 4 and texts.count(t) == 1 and author:
            qs.append(("revision-who", {"kind": kind, "author": author, "text": t}))
        same = [c for c in changes if c[0] == kind and c[1] == author and len(words(c[2])) >= 2]
        if author and len(same) == 1 and len(words(t)) >= 2:
            qs.append(("revision-what", {"kind": kind, "author": author, "text": t}))
    # Comments.
    rels = d.rels()
    comments = []
    for typ, target in rels:
        if typ == "comments":
            root = d._xml(target)
            if root is None:
                continue
            for c in root:
                if local(c.tag) == "comment":
                    t = text_of(c)
                    if t:
                        comments.append((norm(wattr(c, "author")), t, wattr(c, "id")))
    anchors = comment_anchors(d.root)
    for author, t, cid in comments:
        unique = [c[1] for c in comments].count(t) == 1
        if author and len(words(t)) >= 2 and unique:
            qs.append(("comment-who", {"author": author, "text": t}))
        if author and [c[0] for c in comments].count(author) == 1:
            qs.append(("comment-what", {"author": author, "text": t}))
        anchor = anchors.get(cid, "")
        if unique and len(words(t)) >= 2 and len(words(anchor)) >= 2:
            qs.append(("comment-where", {"author": author, "text": t, "anchor": anchor}))
    # Notes: asked by the words just before their reference mark.
    for typ, ref in (("footnotes", "footnoteReference"), ("endnotes", "endnoteReference")):
        part = next((t for k, t in rels if k == typ), None)
        root = d._xml(part) if part else None
        if root is None:
            continue
        notes = {}
        for n in root:
            if local(n.tag) in ("footnote", "endnote") and not wattr(n, "type"):
                t = text_of(n)
                if len(words(t)) >= 3:
                    notes[wattr(n, "id")] = t
        seq = 0
        for p in d.root.iter():
            if local(p.tag) != "p":
                continue
            before = []
            for e in p.iter():
                nm = local(e.tag)
                if nm == "t":
                    before.append(e.text or "")
                elif nm == ref:
                    seq += 1  # notes are numbered in the order of their references
                    if wattr(e, "id") not in notes:
                        continue
                    lead = words("".join(before))[-6:]
                    if len(lead) >= 3:
                        qs.append(("footnote", {"lead": " ".join(lead), "text": notes[wattr(e, "id")],
                                                "note": typ[:-1], "seq": seq}))
    # Page headers and footers.
    seen = set()
    for typ, target in rels:
        if typ in ("header", "footer"):
            root = d._xml(target)
            t = text_of(root) if root is not None else ""
            # A lone page number field is no text to ask about.
            if len(re.findall(r"[^\W\d_]+", t)) >= 2 and t not in seen:
                seen.add(t)
                qs.append(("header-footer", {"part": typ, "text": quoted(t, MAX_GOLD_WORDS, "")}))
    return qs


# ---------------------------------------------------------------- HTML


class HtmlTables(html.parser.HTMLParser):
    """Tables of an HTML page as grids (cells with colspan/rowspan marked merged), the
    text just before each table, and the page's <title>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.stack, self.title, self._in_title = [], [], None, False
        self.last_text = ""
        # [heading, first paragraph after it]; the open <hN> or <p> being read.
        self.heads, self._h, self._p = [], None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "title":
            self._in_title = True
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._h = []
        elif tag == "p" and not self.stack:
            self._p = []
        elif tag == "table":
            self.stack.append({"rows": [], "caption": self.last_text, "nested": False, "cell": None,
                               "header": False})
            if len(self.stack) > 1:
                for t in self.stack[:-1]:
                    t["nested"] = True
        elif self.stack and tag == "tr":
            self.stack[-1]["rows"].append([])
        elif self.stack and tag in ("td", "th"):
            merged = a.get("colspan", "1") != "1" or a.get("rowspan", "1") != "1"
            t = self.stack[-1]
            t["cell"] = [[], merged]
            # The first row is a header when its cells are <th>.
            if tag == "th" and len(t["rows"]) == 1:
                t["header"] = True
        elif self.stack and tag == "caption":
            self.stack[-1]["cell"] = [[], "caption"]

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self._h is not None:
            t = norm("".join(self._h))
            t = re.sub(r"\[\s*edit\s*\]$", "", t).strip()  # a wiki's edit link
            if t:
                self.heads.append([t, None])
            self._h = None
        elif tag == "p" and self._p is not None:
            t = norm("".join(self._p))
            if self.heads and self.heads[-1][1] is None and len(words(t)) >= 6:
                self.heads[-1][1] = t
            self._p = None
        elif tag == "table" and self.stack:
            t = self.stack.pop()
            if not t["nested"]:
                self.tables.append(t)
            self.last_text = ""
        elif self.stack and tag in ("td", "th", "caption"):
            t = self.stack[-1]
            c = t["cell"]
            if c is None:
                return
            text = norm("".join(c[0]))
            if c[1] == "caption":
                t["caption"] = text
            elif t["rows"]:
                t["rows"][-1].append((text, c[1]))
            t["cell"] = None

    def handle_data(self, data):
        if self._h is not None:
            self._h.append(data)
        if self._p is not None:
            self._p.append(data)
        if self._in_title:
            self.title = norm((self.title or "") + data)
        if self.stack and self.stack[-1]["cell"] is not None:
            self.stack[-1]["cell"][0].append(data)
        elif not self.stack and norm(data):
            self.last_text = norm(data)


def html_questions(name, raw):
    p = HtmlTables()
    try:
        p.feed(raw)
    except Exception:  # a page the parser cannot read gives no question
        return [], None
    tables = []
    for t in p.tables:
        rows = [r for r in t["rows"] if r]
        cap = t["caption"] if 0 < len(words(t["caption"] or "")) <= 10 else None
        tables.append((rows if t["header"] else None, cap))
    return table_questions(tables) + section_questions(p.heads), p.title


def pipe_questions(text):
    """Cell questions of the GFM pipe tables of a Markdown text: a header line, a
    delimiter line of dashes, body lines; the line above names the table."""
    lines = text.splitlines()
    tables, i = [], 0
    rule = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")

    def cells(line):
        t = line.strip()
        t = t[1:] if t.startswith("|") else t
        t = t[:-1] if t.endswith("|") else t
        return [(norm(re.sub(r"[*_`]", "", c)), False) for c in t.split("|")]

    while i + 1 < len(lines):
        if "|" in lines[i] and rule.match(lines[i + 1]) and "|" in lines[i + 1]:
            above = next((norm(l) for l in reversed(lines[max(0, i - 3):i]) if norm(l)), "")
            rows = [cells(lines[i])]
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                rows.append(cells(lines[j]))
                j += 1
            cap = above if 0 < len(words(above)) <= 10 and "|" not in above else None
            tables.append((rows, cap))
            i = j
        else:
            i += 1
    return table_questions(tables)


def read_html(path):
    raw = open(path, "rb").read()
    m = re.search(rb"charset=[\"']?([A-Za-z0-9_-]+)", raw[:4096])
    enc = m.group(1).decode() if m else "utf-8"
    try:
        return raw.decode(enc, errors="replace")
    except LookupError:
        return raw.decode("utf-8", errors="replace")


# ---------------------------------------------------------------- phrasing

ORD = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]


def quoted(s, n=12, more=" ..."):
    """At most `n` words of `s`, as a user quoting a passage would."""
    w = s.split()
    return " ".join(w[:n]) + (more if len(w) > n else "")


def phrase(kind, f, doc, n):
    """The question and gold answer of one fact; `n` picks the phrasing."""
    if kind == "table-cell":
        if f["table"]:
            where = "in the table under '%s'" % f["table"]
        elif f["nth"] is not None and f["nth"] < len(ORD):
            where = "in its %s table" % ORD[f["nth"]]
        else:
            where = "in its table" if f["nth"] is None else None
        forms = []
        if f["unique"]:
            forms += ["In %s, what is the %s for %s?" % (doc, f["label"], f["key"]),
                      "What %s is given for %s in %s?" % (f["label"], f["key"], doc)]
        if where:
            forms.append("%s: %s, which %s does the row '%s' have?" % (doc, where, f["label"], f["key"]))
            if 0 < f["row"] <= len(ORD):
                forms.append("In %s, %s, what is the %s of the %s data row?" % (doc, where, f["label"], ORD[f["row"] - 1]))
        if not forms:
            return None
        return forms[n % len(forms)], f["value"], "table-cell"
    if kind == "revision-who":
        verb = f["kind"]
        forms = ["Who %s the text \"%s\" in %s?" % (verb, quoted(f["text"]), doc),
                 "In %s, which author %s \"%s\"?" % (doc, verb, quoted(f["text"]))]
        return forms[n % 2], f["author"], "revision"
    if kind == "revision-what":
        verb = {"inserted": "insert", "deleted": "delete"}[f["kind"]]
        forms = ["What did %s %s in %s?" % (f["author"], verb, doc),
                 "In %s, which text was %s by %s?" % (doc, f["kind"], f["author"])]
        return forms[n % 2], quoted(f["text"], MAX_GOLD_WORDS, ""), "revision"
    if kind == "comment-who":
        forms = ["Who wrote the comment \"%s\" in %s?" % (quoted(f["text"]), doc),
                 "In %s, who commented \"%s\"?" % (doc, quoted(f["text"]))]
        return forms[n % 2], f["author"], "comment"
    if kind == "comment-what":
        forms = ["What does %s's comment in %s say?" % (f["author"], doc),
                 "In %s, what did %s write in a comment?" % (doc, f["author"])]
        return forms[n % 2], quoted(f["text"], MAX_GOLD_WORDS, ""), "comment"
    if kind == "section":
        forms = ["What does %s say about '%s'?" % (doc, f["heading"]),
                 "Summarize the section '%s' of %s." % (f["heading"], doc),
                 "In %s, what is covered under the heading '%s'?" % (doc, f["heading"])]
        return forms[n % 3], quoted(f["text"], MAX_GOLD_WORDS, ""), "section"
    if kind == "list-all":
        forms = ["In %s, list the items that follow \"%s\"." % (doc, quoted(f["intro"])),
                 "What are all the points listed under \"%s\" in %s?" % (quoted(f["intro"]), doc)]
        return forms[n % 2], "; ".join(f["items"])[:400], "table-whole"
    if kind == "list-item":
        forms = ["In %s, what is the %s item of the list after \"%s\"?" % (doc, ORD[f["nth"]], quoted(f["intro"]))]
        return forms[n % 1], quoted(f["item"], MAX_GOLD_WORDS, ""), "fact"
    if kind == "link":
        forms = ["In %s, which web address does the link \"%s\" point to?" % (doc, f["text"]),
                 "What URL is behind \"%s\" in %s?" % (f["text"], doc)]
        return forms[n % 2], f["url"], "fact"
    if kind == "comment-where":
        forms = ["In %s, which text is the comment \"%s\" attached to?" % (doc, quoted(f["text"])),
                 "What passage did %s comment on with \"%s\" in %s?" % (f["author"] or "the reviewer", quoted(f["text"]), doc)]
        return forms[n % 2], quoted(f["anchor"], MAX_GOLD_WORDS, ""), "comment"
    if kind == "footnote":
        forms = ["In %s, what does the %s after \"%s\" say?" % (doc, f["note"], f["lead"]),
                 "What does the %s attached to \"%s\" in %s say?" % (f["note"], f["lead"], doc),
                 "What does %s %d of %s say?" % (f["note"], f["seq"], doc)]
        return forms[n % 3], quoted(f["text"], MAX_GOLD_WORDS, ""), "footnote"
    if kind == "header-footer":
        forms = ["What does the page %s of %s say?" % (f["part"], doc),
                 "What text is in the %s of %s?" % (f["part"], doc)]
        return forms[n % 2], f["text"], "header-footer"
    raise ValueError(kind)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.path.normpath(os.path.join(here, "..", "..", "shared"))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=os.path.join(shared, "corpus"))
    ap.add_argument("--collections", default=os.path.join(shared, "eval", "collections.json"))
    ap.add_argument("--out", default=os.path.join("target", "eval", "generated"))
    ap.add_argument("--sample", type=int, default=200)
    a = ap.parse_args()
    with open(a.collections, encoding="utf-8") as f:
        colls = json.load(f)
    home = {}
    for cname in ("all", "small"):  # the smallest collection that holds the file wins
        for fn in colls.get(cname, []):
            home[fn] = cname
    out, counter, asked = [], 0, set()
    for fn in sorted(os.listdir(a.corpus)):
        if fn not in home:
            continue
        path = os.path.join(a.corpus, fn)
        ext = fn.rsplit(".", 1)[-1].lower()
        names = [fn]
        if ext == "docx":
            try:
                d = Docx(path)
            except (zipfile.BadZipFile, OSError):
                continue
            facts = docx_questions(fn, d, None)
            for t in (d.title(), d.first_heading()):
                if t and len(words(t)) >= 2:
                    names.append("the document titled '%s'" % t if t == d.title() else "the document headed '%s'" % t)
        elif ext in ("html", "htm"):
            facts, title = html_questions(fn, read_html(path))
            if title and len(words(title)) >= 2:
                names.append("the page titled '%s'" % title)
        elif ext in ("md", "txt"):
            # Markdown written as text keeps its pipe tables readable as tables.
            facts = pipe_questions(open(path, encoding="utf-8", errors="replace").read())
        else:
            continue
        facts = facts[:MAX_PER_DOC]
        # Each fact asked several times: other namings of the document, other phrasings.
        for i, (kind, f) in enumerate(facts):
            for j in range(PHRASINGS):
                doc = names[(i + j) % len(names)]
                got = phrase(kind, f, doc, i + j)
                if got is None:
                    continue
                q, gold, k = got
                if q in asked:
                    continue
                asked.add(q)
                counter += 1
                rec = {"id": "G%04d" % counter, "collection": home[fn], "kind": k, "question": q,
                       "doc_files": [fn], "answer": gold, "evidence": [gold],
                       "notes": "generated: %s" % kind}
                out.append(rec)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "questions.jsonl"), "w", encoding="utf-8") as f:
        for r in out:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    step = max(1, len(out) / max(1, a.sample))
    sample = [out[int(i * step)] for i in range(min(a.sample, len(out)))]
    with open(os.path.join(a.out, "sample.jsonl"), "w", encoding="utf-8") as f:
        for r in sample:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    by = {}
    for r in out:
        by[r["kind"]] = by.get(r["kind"], 0) + 1
    sys.stderr.write("gen-questions: %d questions (%s), sample %d -> %s\n" % (
        len(out), ", ".join("%s %d" % kv for kv in sorted(by.items())), len(sample), a.out))


if __name__ == "__main__":
    main()
