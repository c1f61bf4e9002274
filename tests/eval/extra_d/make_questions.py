import json
ILPA="safe-docx__atomizer_redline.docx"; LOI="safe-docx__letter-of-intent.docx"; NDA="safe-docx__bonterms-mutual-nda.docx"
BYL="docx-rs__spec_vanish.docx"; CHG="docx-rs__CHANGELOG.md"; AAT="docxcompose__aatmay.docx"
PHS="phpword__reader-styles.docx"; PHC="phpword__reader-comments.docx"; CHA="docx-editor__docx-editor-demo.docx"
INV="docx-editor__comments-and-templates.docx"; SK="docx-editor__EP_ZMVZ_MULTI_v4.docx"; RU="docx-editor__Form025U.docx"
CAL="docx-editor__demo.docx"; AUD="rtf.js__HOMEAUDIOMETER.RTF"; WIKI="inscriptis__wikipedia-consequtive-tables.html"
AVA="inscriptis__avantec-team.html"; LGPL="docxtpl__LICENSE.txt"
Q=[]
def q(kind, question, docs, answer, evidence, notes, aliases=None, source=None):
    r={"id":"D%02d"%(len(Q)+1),"collection":"blind_d","kind":kind,"question":question,"doc_files":docs,
       "answer":answer,"evidence":evidence,"notes":notes}
    if aliases: r["answer_aliases"]=aliases
    if source: r["evidence_source"]=source
    Q.append(r)

# ---- table-cell (6)
q("table-cell","According to the Chur climate table for 1981-2010, on how many days does it typically rain in May?",[WIKI],
  "9.9 rain days (9,9)",["Monatliche Durchschnittstemperaturen und -niederschläge für Chur","Jan | Feb | Mär | Apr | Mai | Jun | Jul | Aug | Sep | Okt | Nov | Dez","Regentage (d) | 7,3 | 6,6 | 8,1 | 7,5 | 9,9 | 11,2 | 11,0 | 11,2 | 8,4 | 7,0 | 8,5 | 7,9"],
  "German Wikipedia climate table; month header row is the second row; 'Regentage' is the rain-days row, one of the last rows.",["9,9","9.9"])
q("table-cell","In the calibre DOCX demonstration document, how many graduating students did Elm College have, and what was its change figure?",[CAL],
  "53 graduating students, a change of -10",["College | New students | Graduating students | Change","Elm College | 43 | 53 | -10"],
  "Table with Undergraduate/Graduate sub-header rows; Elm College is in the Graduate block near the bottom.",["53"])
q("table-cell","In the distance matrix of the calibre demo file, what is the value between Point D and Point B?",[CAL],
  "32",["City or Town | Point A | Point B | Point C | Point D | Point E","Point D | 37 | 32 | 91 | —"],
  "Triangular matrix; the value sits in row 'Point D', column 'Point B'.",["32"])
q("table-cell","How long does the confidentiality obligation last under the key terms of the Bonterms mutual NDA cover page?",[NDA],
  "3 years (the NDA term itself is 2 years)",["Key Terms","Confidentiality Period | 3 years"],
  "Key Terms table; do not confuse with 'Term of NDA' (2 years).",["3 years"])
q("table-cell","In the docx-editor project charter, what is the default value of the prop that controls whether the formatting toolbar is shown?",[CHA],
  "true (showToolbar, boolean)",["Prop | Type | Default | Description","showToolbar | boolean | true | Show formatting toolbar"],
  "Props table; the row is named by its description, not by the prop name.",["true"])
q("table-cell","In the Home Audiometer help, what does the test-procedure option for repeating a measurement at 1 kHz actually do?",[AUD],
  "The left ear is tested twice at 1 kHz, giving a clue to the reliability of the subject's replies; the difference is reported in the results",
  ["The Test procedure can be customised by changing a range of parameters","Repeat @ 1kHz | Left ear is tested twice at 1 kHz."],
  "RTF table of test-procedure parameters without a header row; the caption sentence precedes it.",["tested twice at 1 kHz"])
# ---- table-whole (4)
q("table-whole","List every item and the quantity needed from the small supplies table in the calibre DOCX demo.",[CAL],
  "Books 1; Pens 3; Pencils 2; Highlighter 2 colors; Scissors 1 pair",
  ["ITEM | NEEDED","Books | 1","Pencils | 2","Highlighter | 2 colors","Scissors | 1 pair"],
  "Two-column floating table with five rows.",["Scissors"])
q("table-whole","Give me all the key terms filled in on the Bonterms Mutual NDA cover page.",[NDA],
  "Purpose: evaluating a potential integration partnership; Effective Date 2026-02-25; Term of NDA 2 years; Confidentiality Period 3 years; Governing Law California; Courts: courts located in San Francisco, California",
  ["Key Terms","Purpose | Evaluating a potential integration partnership","Effective Date | 2026-02-25","Term of NDA | 2 years","Courts | courts located in San Francisco, California"],
  "Six-row key-terms table after the merged-cell cover-page table.",["integration partnership"])
q("table-whole","What are all the audiogram display settings described in the Home Audiometer manual, and what does each one do?",[AUD],
  "Show level traces (level traces on/off); Show thresholds (calculated thresholds on/off); Highlight inaccurate results; Ignore first reversal (per ISO 8253-1:1989); Update Audiometer during test (real-time display, compulsory for type 4 audiometers); Graph colours",
  ["Graph display","Show level traces | Switches the display of the level traces on and off.","Highlight inaccurate results","Ignore first reversal | According to ISO 8253-1: 1989 the first reversal should be ignored","Graph colours | Changes the colours of the audiogram."],
  "Six-row two-column table under 'Graph display'.",["Ignore first reversal"])
q("table-whole","Which details does each side have to fill in on the signature block of the Common Paper letter of intent?",[LOI],
  "For both Provider and Customer: Signature, Print Name, Title, Legal Notice Address and Date",
  ["By signing this LOI, each party acknowledges their intent","PROVIDER:","CUSTOMER:","Print Name","Legal Notice Address"],
  "Signature table with a Provider and a Customer column; row labels are single fields.",["Legal Notice Address"])
# ---- revision (5)
q("revision","In the ILPA model partnership agreement redline, how was the waterfall named in the title changed, and who made the change?",[ILPA],
  "AtomizerTest replaced '(Whole-of-Fund' with '(Deal-by-Deal' so the title reads 'The ILPA Model Limited Partnership Agreement (Deal-by-Deal Waterfall)'",
  ["The ILPA Model Limited Partnership Agreement","(Whole-of-Fund","(Deal-by-Deal","Waterfall)","AtomizerTest"],
  "First paragraph of a 150 KB redline; deletion and insertion side by side.",["Deal-by-Deal"])
q("revision","Which new definitions about realized and unrealized investments were inserted as tracked changes in the ILPA limited partnership agreement, and what do they say?",[ILPA],
  "AtomizerTest inserted 'Realized Investment' (a Portfolio Investment, other than Temporary Investments, that has been the subject of a Disposition), 'Unrealized Investment' (each Portfolio Investment other than Temporary Investments and Realized Investments) and 'Unrealized Loss' (excess of capital contributions used to fund the investment over value times sharing percentage)",
  ["“Realized Investment” means, as of any date of determination","that has been the subject of a Disposition","“Unrealized Investment” means each Portfolio Investment other than Temporary Investments","“Unrealized Loss” shall mean","AtomizerTest"],
  "Inserted paragraphs in the alphabetical definitions list, about 30 definitions apart.",["Unrealized Loss"])
q("revision","In the docx-editor project charter, what wording did sara.k change in the opening 'What this is' section?",[CHA],
  "sara.k replaced 'zero backend required' with 'no backend required'",
  ["your users can open, edit, and save Word","zero backend required","no backend required","sara.k"],
  "Deletion + insertion pair in section 1.",["no backend required"])
q("revision","Who softened the ground rule about HTML serialisation in the charter's contributing section, and what did the rule say before and after?",[CHA],
  "anon-contributor changed 'Do not introduce intermediate HTML serialisation. This is a hard constraint.' to 'Avoid intermediate HTML serialisation where possible.'",
  ["Ground rules","Do not introduce intermediate HTML","This is a hard constraint.","Avoid intermediate HTML serialisation","anon-contributor"],
  "Tracked change inside a bulleted list item of section 4.",["anon-contributor"])
q("revision","What content was added as tracked insertions at the end of PHPWord's styles sample document, and under which author name?",[PHS],
  "A 'Paragraphs' heading and two bordered paragraphs ('This is a paragraph with border' and 'This is a paragraph with border differents'), inserted by 'Auteur inconnu' (French for unknown author)",
  ["Paragraphs","This is a paragraph with border differents","Auteur inconnu"],
  "Insertions after the Objects section; the author name is French.",["Auteur inconnu"])
# ---- comment (4)
q("comment","In the invoice template, what did Bob note, and which part of the template is his note attached to?",[INV],
  "'This section needs to loop over all invoice items from the data source.' — attached to the {#items} loop tag under Line Items",
  ["This section needs to loop over all invoice items from the data source.","Bob","Line Items","{#items}"],
  "Comment anchored on a template loop tag.",["loop over all invoice items"])
q("comment","What questions or checks did Alice raise in her comments on the invoice template, and on which fields?",[INV],
  "On {client.name} (Bill To): 'Should we use the client's legal name here?'; on the Total Due value ${grand_total}: 'The total should auto-calculate. Verify the template formula works.'",
  ["Should we use the client's legal name here?","{client.name}","The total should auto-calculate. Verify the template formula works.","Total Due:","Alice"],
  "Two comments by the same author in different sections.",["legal name"])
q("comment","In the project charter for the React .docx editor, what does the comment say and what text is it anchored to?",[CHA],
  "'Just like that!' by User, anchored to 'add a comment anchored to that selection'",
  ["Just like that!","add a comment anchored to that selection","User"],
  "Single comment in the Comments subsection; author 'User' (the editor's default author).",["Just like that"])
q("comment","What did the reviewer remark in PHPWord's comment test file, and who was it?",[PHC],
  "shaedrich commented 'But this should be uppercase' (on the lower-cased 'test')",
  ["But this should be uppercase","shaedrich"],
  "Tiny document; the comment sits inside the word 'test' amid tracked changes by the same author.",["uppercase"])
# ---- footnote (3)
q("footnote","What guidance does the footnote on the preferred return definition in the ILPA model agreement give?",[ILPA],
  "If the Fund uses a subscription line of credit, the preferred return should be calculated from the date the line was drawn; it refers to ILPA's Subscription Lines of Credit guidance",
  ["an annual rate of return of","compounded annually and calculated daily on the Capital Contributions","If the Fund utilizes a subscription line of credit","calculated from the date on which the subscription line"],
  "Footnote 5; anchor is in the 'Preferred Return' definition, which is also a tracked change.",["subscription line of credit"])
q("footnote","Aatmay's Clause says the Environment Bill was due to become law in 2021. What does the note attached to that remark say?",[AAT],
  "The Environment Act was adopted on 9 November 2021; TCLP asks to be contacted to update the section",
  ["(due to become law in 2021)","The Environment Act was adopted on 9 November 2021.","Contact TCLP to help us update this section"],
  "Footnote 1, inside the 'How to use this clause' table (rendered as an HTML table with an end-of-table footnote section).",["9 November 2021"])
q("footnote","In the calibre DOCX demo, what does the endnote say about how endnotes are handled when converting to an ebook?",[CAL],
  "Endnotes are typically used for longer notes and remain endnotes in the ebook, with an additional backlink to return to the current position",
  ["are automatically recognized and both are converted to endnotes","Endnotes are typically used for longer notes","an additional backlink to make it easy to return"],
  "Document has one footnote and one endnote anchored in the same sentence.",["backlink"])
# ---- header-footer (4)
q("header-footer","What do the page header and footer of the docx-editor project charter read?",[CHA],
  "Header: 'Docx Editor: Project Charter & Contributor Agreement'; footer: 'Page 1 of 1 · eigenpal.com'",
  ["Docx Editor: Project Charter & Contributor Agreement","Page 1 of 1 · eigenpal.com"],
  "word/header1.xml and footer1.xml; footer has PAGE/NUMPAGES fields.",["eigenpal.com"],"header-footer-part")
q("header-footer","PHPWord's styles test document has different headers for the first page, odd pages and even pages. What does each say, and what does the default footer show?",[PHS],
  "First page: 'First page header'; odd pages: 'Odd header'; even pages: 'Even page'; default footer: 'Page 3 of 4'",
  ["First page header","Odd header","Even page","Page 3 of 4"],
  "Three header parts (first/default/even); field results cached.",["Odd header"],"header-footer-part")
q("header-footer","What licensing notice is printed in the footer of the letter of intent template?",[LOI],
  "'Common Paper Letter of Intent free to use under CC BY 4.0.'",["Common Paper Letter of Intent free to use under CC BY 4.0."],
  "word/footer1.xml; the body has no licence statement.",["CC BY 4.0"],"header-footer-part")
q("header-footer","What 'last updated' date appears in the running header or footer of the ILPA model limited partnership agreement?",[ILPA],
  "'Last Updated: July 2020'",["Last Updated: July 2020"],
  "Repeated in several header/footer parts; the body only shows 'July 2020' in the tracked title change.",["July 2020"],"header-footer-part")
# ---- section (5)
q("section","What do the company bylaws say about the quorum needed at a stockholders' meeting, and what happens if it is not met?",[BYL],
  "Holders of a majority of the votes that could be cast, present in person or by proxy, form a quorum; for a separate class vote a majority of that class's outstanding shares; if no quorum, the chair or the stockholders present may adjourn the meeting until a quorum is present",
  ["Quorum","having a majority of the votes which could be cast","a majority of the outstanding shares of such class or series","shall have the power to adjourn the meeting"],
  "Section 1.5 of the bylaws (two paragraphs).",["majority"])
q("section","Explain the step-by-step procedure in the Home Audiometer manual for calibrating the audiometer by ear.",[AUD],
  "Ideally by someone with recent professional results or normal hearing, under 30; wear headphones in a quiet environment; for each frequency and side type the known hearing level into the yellow box (zero if unknown), switch the pulsing tone on and move the volume sliders to the midpoint between clearly audible and inaudible, then click next; at the end add information and save",
  ["How to Calibrate the Home Audiometer by Ear","preferably under 30 years old","Type the known hearing level into the yellow box","in the middle between definetely hearable and definetely unhearable","Click next to jump to the next frequency"],
  "Section with a step list and hints; note the original spelling 'definetely'.",["yellow box"])
q("section","Under Aatmay's Clause, when is a tenant excused from reinstating its alterations at the end of the lease?",[AAT],
  "Under the Yielding Up covenant, the tenant need not reinstate alterations where both (1) reinstatement is not reasonably required by the landlord given its plans for use or re-letting and the landlord has notified the tenant (e.g. no later than three months before expiry), and (2) reinstatement would materially adversely affect the Environmental Performance or EPC rating",
  ["Tenant Covenants - Yielding Up","The Tenant shall not be required to reinstate any alterations","intention in respect of the use or re-letting","adversely affect the [Environmental Performance]"],
  "Lease clause 4 (nested numbered list); a similar Reinstatement clause exists in the Licence for Alterations part.",["Yielding Up"])
q("section","What does the LGPL 2.1 text shipped with docxtpl say about revised or new versions of the licence?",[LGPL],
  "The FSF may publish revised/new versions similar in spirit; if the Library specifies a version 'or any later version' you may follow that version or any later one; if no version is specified you may choose any version ever published by the FSF",
  ["The Free Software Foundation may publish revised and/or new versions","similar in spirit to the present version","either of that version or of any later version","you may choose any version ever published by the Free Software Foundation"],
  "Section 13 of the plain-text licence.",["any later version"])
q("section","In the Slovak template for minutes of an extraordinary general meeting, what happens under the agenda item on electing the meeting's officers? (Voľba orgánov valného zhromaždenia)",[SK],
  "The executive reads the shareholders' proposal of candidates: a chairman and a recorder; after the vote (100 % for, 0 % against, 0 % abstaining) Resolution No. 1 declares who is chairman and who is recorder",
  ["Voľba orgánov valného zhromaždenia","Spoločníci navrhli za","predsedu valného zhromaždenia","Za návrh: 100 % hlasov spoločníkov","Uznesenie č. 1 valného zhromaždenia"],
  "Item 2 of a Slovak template; the voting block repeats in later items.",["Uznesenie č. 1"])
# ---- fact (6)
q("fact","How far in advance must notice of a stockholders' meeting be given under the bylaws?",[BYL],
  "Not less than 10 nor more than 60 days before the meeting",["not less than 10 nor more than 60 days before the"],
  "Section 1.4; the Record Dates section uses a similar 10/60-day window.",["10","60 days"])
q("fact","For how long can a stockholder proxy be used under the bylaws?",[BYL],
  "No proxy may be voted or acted on after three years from its date unless it provides for a longer period",
  ["no such proxy shall be voted or acted upon after three","years from its date, unless the proxy provides for a longer period"],
  "Section 1.11 (Proxies).",["three years"])
q("fact","On AVANTEC's team page, who are the co-CEOs, and what share of staff have been with the company for more than ten years?",[AVA],
  "Mark Stäheli and Christian Schwarzer are Co-CEOs; 40% of staff have been at AVANTEC for over 10 years",
  ["40% sind schon über 10","Mark Stäheli","Christian Schwarzer","Co-CEO, Geschäftsleitung"],
  "German web page with heavy navigation boilerplate.",["Mark Stäheli","40%"])
q("fact","In which docx-rs release was the ability to stream XML package parts straight into a DOCX archive added, and when was it released?",[CHG],
  "@0.4.22, dated 21 Jul 2026 (Docx::pack)",["@0.4.22 (21. Jul, 2026)","to stream XML package parts directly into a DOCX archive"],
  "First release entry of the changelog.",["0.4.22"])
q("fact","Which ministerial order introduced the outpatient medical record form 025/u in the Russian template, and of what date? (Учетная форма № 025/у)",[RU],
  "Appendix No. 1 to the order of the Ministry of Health of the Russian Federation of 13 May 2025 No. 274n",
  ["Приложение № 1","к приказу Министерства здравоохранения","от 13 мая 2025 г. № 274н","Учетная форма № 025/у"],
  "Russian form; the order reference is in the first lines above the merged-cell header table.",["274н","274n"])
q("fact","How large is the drop cap used in the calibre demo, and how many lines does it span?",[CAL],
  "A 'D' drop cap spanning three lines with a font size of 58.5 pts",["occupy three lines of text with a font size of 58.5 pts"],
  "Dropcaps section.",["58.5"])
# ---- broad (3)
q("broad","Which documents in this collection carry reviewer comments, and who wrote them?",[INV,CHA,PHC],
  "The invoice template (Alice, Bob, Charlie), the docx-editor project charter (User: 'Just like that!') and PHPWord's comment test (shaedrich: 'But this should be uppercase')",
  ["Alice","Bob","Charlie","Make sure the date format matches the client's locale preference.","Just like that!","But this should be uppercase","shaedrich"],
  "Three documents; Word documents with tracked changes but no comments (ILPA redline, PHPWord styles) should not be listed.",["shaedrich"])
q("broad","Where does the Swiss town of Chur come up across these documents, and in what context?",[WIKI,AVA],
  "In the German Wikipedia climate table (monthly temperatures and precipitation for Chur 1981-2010) and on AVANTEC's team page as one of its '12 virtuelle Standorte' (virtual locations)",
  ["Monatliche Durchschnittstemperaturen und -niederschläge für Chur","12 virtuelle Standorte","Chur"],
  "Two HTML pages; the AVANTEC mention is only a navigation link.",["12 virtuelle Standorte"])
q("broad","Which of the agreements and corporate documents here tie themselves to a particular state's law, and which state is it in each case?",[NDA,ILPA,BYL],
  "Bonterms Mutual NDA: California law, courts in San Francisco; ILPA model LPA: governed by Delaware law; Bylaws: Delaware (meetings under the Delaware General Corporation Law)",
  ["Governing Law | California","governed by and construed under the laws of the State of Delaware","Delaware General Corporation Law"],
  "Three documents; the letter of intent and Aatmay's Clause name no governing law.",["Delaware"])
# ---- negative (5)
q("negative","What average snowfall does the Chur climate table give for January?",[WIKI],
  "Not stated: the table gives temperatures, precipitation, sunshine hours and rain days, but no snowfall.",[],
  "Near miss: right table, a row it does not have.")
q("negative","How long is the non-solicitation period on the Bonterms mutual NDA cover page?",[NDA],
  "Not stated: the cover page lists purpose, dates, term, confidentiality period, governing law and courts; there is no non-solicitation term.",[],
  "Near miss: the key-terms table has two durations (2 and 3 years).")
q("negative","What tax rate does the invoice template apply?",[INV],
  "Not stated: the template only has a {tax_rate} placeholder; no rate is given.",[],
  "Near miss: Tax line exists with a placeholder.")
q("negative","Who left a comment on the dev setup instructions in the docx-editor project charter?",[CHA],
  "Nobody: the charter's only comment ('Just like that!') is in the Comments subsection; the dev setup block has none.",[],
  "Near miss: the document has one comment and several tracked changes elsewhere.")
q("negative","How much does a Home Audiometer licence key cost?",[AUD],
  "Not stated: the manual explains ordering via ShareIt (program ID 156633) but gives no price; the only price mentioned is about $10 for a game pad.",[],
  "Near miss: registration/ordering section and a $10 figure for a game pad.")

assert len(Q)==45, len(Q)
with open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'questions.jsonl'),'w') as f:
    for r in Q: f.write(json.dumps(r,ensure_ascii=False)+'\n')
from collections import Counter; print(Counter(r['kind'] for r in Q))
