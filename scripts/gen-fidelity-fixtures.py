#!/usr/bin/env python3
"""Writes the converter-fidelity fixtures of tests/data/fidelity/ (issue 16): one small
file per structure that real documents carry and converters lose, built from the rules
of ECMA-376 Part 1 (cited per fixture) and of the encodings, never from a reporter's
file. tests/fidelity.rs (native) and tests/node/fidelity.test.mjs (the wasm package)
assert the same expectations, from tests/data/fidelity/expected.json.

The zip members carry a fixed timestamp, so a rerun writes identical bytes (the test
`fixtures_match_their_generator` reruns it into DOCRAG_FIDELITY_OUT and compares)."""
import os
import pathlib
import zipfile

OUT = pathlib.Path(
    os.environ.get("DOCRAG_FIDELITY_OUT")
    or pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "fidelity"
)
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = (
    f'xmlns:w="{W}" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"'
)
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
    "</Types>"
)


def write_docx(name, body, parts=None, rels=()):
    """A package with `body` as the content of w:body, extra `parts` (path -> XML) and
    document relationships `(id, type, target)`."""
    doc = f'<?xml version="1.0" encoding="UTF-8"?><w:document {NS}><w:body>{body}</w:body></w:document>'
    pkg_rels = (
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/></Relationships>'
    )
    doc_rels = (
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        + "".join(f'<Relationship Id="{i}" Type="{REL}/{t}" Target="{target}"/>' for i, t, target in rels)
        + "</Relationships>"
    )
    members = {
        "[Content_Types].xml": CONTENT_TYPES,
        "_rels/.rels": pkg_rels,
        "word/document.xml": doc,
        "word/_rels/document.xml.rels": doc_rels,
    }
    members.update(parts or {})
    with zipfile.ZipFile(OUT / name, "w", zipfile.ZIP_DEFLATED) as z:
        for path, text in members.items():
            info = zipfile.ZipInfo(path, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, text.encode("utf-8"))


def p(text, ppr=""):
    return f'<w:p>{ppr}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def tc(text, tcpr=""):
    return f"<w:tc>{tcpr}<w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>"


def list_restart():
    # 17.9.27: a w:num whose w:lvlOverride/w:startOverride restarts a list that
    # shares its w:abstractNum; Word keeps one count per abstract list and applies
    # the override once, so the items after it continue 2, 3 whichever numId they use.
    numbering = (
        f'<?xml version="1.0"?><w:numbering xmlns:w="{W}">'
        '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
        '<w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
        '<w:num w:numId="2"><w:abstractNumId w:val="0"/>'
        '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'
        "</w:numbering>"
    )

    def item(text, num):
        return p(text, f'<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num}"/></w:numPr></w:pPr>')

    body = (
        p("Steps to install:")
        + item("Unpack the archive", 1)
        + item("Run the installer", 1)
        + item("Restart the machine", 1)
        + p("Steps to remove:")
        + item("Stop the service", 2)
        + item("Delete the folder", 1)
        + item("Empty the cache", 1)
    )
    write_docx("list-restart.docx", body, {"word/numbering.xml": numbering}, [("rIdN", "numbering", "numbering.xml")])


def deleted_paragraph_mark():
    # 17.13.5.15: w:pPr/w:rPr/w:del deletes the paragraph mark; accepted, the
    # paragraph runs on into the next one.
    body = (
        '<w:p><w:pPr><w:rPr><w:del w:id="1" w:author="Ann Lee" w:date="2024-05-02T09:00:00Z"/></w:rPr></w:pPr>'
        '<w:r><w:t>The lease ends on 31 March</w:t></w:r></w:p>'
        + p(" and renews for one year.")
        + p("Both parties signed.")
    )
    write_docx("deleted-paragraph-mark.docx", body)


def grid_before():
    # 17.4.15 w:gridBefore, 17.4.14 w:gridAfter: grid columns a row leaves without
    # a w:tc; 17.4.85 w:vMerge merges a column down across rows.
    plain = (
        "<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>"
        + "<w:tr>" + tc("Item") + tc("Q1") + tc("Q2") + "</w:tr>"
        + '<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>' + tc("10") + tc("20") + "</w:tr>"
        + '<w:tr><w:trPr><w:gridAfter w:val="1"/></w:trPr>' + tc("Total") + tc("30") + "</w:tr>"
        + "</w:tbl>"
    )
    restart = '<w:tcPr><w:vMerge w:val="restart"/></w:tcPr>'
    merged = (
        "<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>"
        + "<w:tr>" + tc("Region") + tc("Site") + tc("Count") + "</w:tr>"
        + "<w:tr>" + tc("East", restart) + tc("Dock") + tc("4") + "</w:tr>"
        + "<w:tr>" + tc("", "<w:tcPr><w:vMerge/></w:tcPr>") + tc("Yard") + tc("6") + "</w:tr>"
        + '<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>' + tc("Depot") + tc("2") + "</w:tr>"
        + "</w:tbl>"
    )
    write_docx("grid-before.docx", plain + p("Sites:") + merged)


def symbol_fonts():
    # 17.3.3.30 w:sym (font + code), and runs whose w:rFonts is a symbol-encoded
    # font holding the code as a Private Use Area character (U+F0xx) or as the byte.
    def sym(font, code):
        return f'<w:r><w:sym w:font="{font}" w:char="{code}"/></w:r>'

    def t(text):
        return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'

    def in_font(font, text):
        return f'<w:r><w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}"/></w:rPr><w:t>{text}</w:t></w:r>'

    body = (
        "<w:p>" + t("Load ") + sym("Symbol", "F0B3") + t(" 5 kN ") + sym("Symbol", "F0AE") + t(" pass") + "</w:p>"
        + "<w:p>" + t("Checked: ") + sym("Wingdings", "F0FC") + t(" Approved: ") + sym("Wingdings 2", "F052") + "</w:p>"
        + "<w:p>" + t("Box: ") + in_font("Wingdings", "\uf0fe") + t(" angle ") + in_font("Symbol", "a") + t(" limit ") + in_font("Symbol", "\u00b3") + t(" 3") + "</w:p>"
    )
    write_docx("symbol-fonts.docx", body)


def header_text_box():
    # A header whose text sits in a text box: mc:AlternateContent with a DrawingML
    # wps:txbx choice and the same box as a VML v:textbox fallback (only one is
    # read), and a footer with a VML text box.
    def box(text):
        return f"<w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent>"

    header = (
        f'<?xml version="1.0"?><w:hdr {NS} mc:Ignorable="wps"><w:p><w:r><w:t>Acme Ltd</w:t></w:r><w:r>'
        "<mc:AlternateContent><mc:Choice Requires=\"wps\"><w:drawing><wp:anchor><wp:extent cx=\"1\" cy=\"1\"/>"
        '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        f"<wps:wsp><wps:txbx>{box('Internal use only')}</wps:txbx></wps:wsp></a:graphicData></a:graphic>"
        "</wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape>"
        f"<v:textbox>{box('Internal use only')}</v:textbox></v:shape></w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r></w:p></w:hdr>"
    )
    footer = (
        f'<?xml version="1.0"?><w:ftr {NS}><w:p><w:r><w:pict><v:shape>'
        f"<v:textbox>{box('Form 12-B rev 3')}</v:textbox></v:shape></w:pict></w:r></w:p></w:ftr>"
    )
    body = p("The body text.") + (
        '<w:sectPr><w:headerReference w:type="default" r:id="rIdH"/>'
        '<w:footerReference w:type="default" r:id="rIdF"/></w:sectPr>'
    )
    write_docx(
        "header-text-box.docx",
        body,
        {"word/header1.xml": header, "word/footer1.xml": footer},
        [("rIdH", "header", "header1.xml"), ("rIdF", "footer", "footer1.xml")],
    )


def comment_between_rows():
    # 17.13.4.4 w:commentRangeStart / 17.13.4.3 w:commentRangeEnd as children of
    # w:tbl and w:tr (CT_Tbl and CT_Row allow range markup between rows and cells).
    comments = (
        f'<?xml version="1.0"?><w:comments xmlns:w="{W}"><w:comment w:id="7" w:author="Raj Patel" '
        'w:date="2024-05-03T10:00:00Z"><w:p><w:r><w:t>These two rows are estimates.</w:t></w:r></w:p>'
        "</w:comment></w:comments>"
    )
    body = (
        "<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>"
        + "<w:tr>" + tc("Month") + tc("Sales") + "</w:tr>"
        + '<w:commentRangeStart w:id="7"/>'
        + "<w:tr>" + tc("April") + tc("120") + "</w:tr>"
        + "<w:tr>" + tc("May") + tc("135") + '<w:commentRangeEnd w:id="7"/></w:tr>'
        + "<w:tr>" + tc("June") + tc("150") + "</w:tr>"
        + "</w:tbl>"
        + '<w:p><w:r><w:commentReference w:id="7"/></w:r></w:p>'
        + p("Sales rose each month.")
    )
    write_docx("comment-between-rows.docx", body, {"word/comments.xml": comments}, [("rIdC", "comments", "comments.xml")])


def malformed_main_part():
    # Not a fidelity case: a main part whose XML breaks (a w:p left open at the end of
    # w:body), for the error's location fields (tests/node/conventions.test.mjs).
    write_docx("malformed-main-part.docx", p("hi") + "<w:p>")


def legacy_encodings():
    # EBCDIC code page 037 with the mainframe line end NL (0x15), and undeclared
    # Shift_JIS and GBK text.
    report = (
        "QUARTERLY REPORT\n"
        "Revenue grew by 12 percent in the third quarter, while costs fell slightly.\n"
        "The board approved the budget for the coming year and the new office lease.\n"
    ) * 12
    (OUT / "ebcdic-037.txt").write_bytes(report.replace("\n", "\x85").encode("cp037"))
    japanese = "議事録\n新しい事務所の賃貸契約が承認されました。来年度の予算も決まりました。\n" * 8
    (OUT / "undeclared-shift-jis.txt").write_bytes(japanese.encode("shift_jis"))
    chinese = "会议记录\n董事会批准了新办公室的租约。明年的预算也已确定。\n" * 8
    (OUT / "undeclared-gbk.txt").write_bytes(chinese.encode("gbk"))


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    list_restart()
    deleted_paragraph_mark()
    grid_before()
    symbol_fonts()
    header_text_box()
    comment_between_rows()
    legacy_encodings()
    malformed_main_part()
    print(f"wrote the fixtures in {OUT}")


if __name__ == "__main__":
    main()
