//! RTF reader tests over the shared corpus and synthetic inputs.

use docrag::ConvertOptions;
use docrag::model::Document;

fn corpus(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(bytes: &[u8]) -> Document {
    docrag::read::rtf::read(bytes, &ConvertOptions::new()).expect("RTF reads")
}

#[test]
#[ignore]
fn dump() {
    for f in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus")).unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "rtf") {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let d = read(&corpus(&name));
            let o = ConvertOptions::new();
            let chunks = docrag::chunk::chunk_document(
                &d,
                "x",
                "t",
                &o,
                &docrag::SimpleNameFinder::new(vec![], vec![]),
            )
            .unwrap();
            let md: Vec<String> = chunks.iter().map(|c| c.text.clone()).collect();
            std::fs::write(format!("/tmp/rtfdump/{name}.md"), md.join("\n-----\n")).unwrap();
            std::fs::write(format!("/tmp/rtfdump/{name}.txt"), format!("{:#?}", d)).unwrap();
        }
    }
}
