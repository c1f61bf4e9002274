//! The split DFA as it is embedded: build.rs's `deflated` layout,
//! the inflated length (`u32` little-endian) then a raw deflate stream (RFC 1951).
//! A browser moves every raw byte of the wasm through its network stack before it
//! compiles it (about 20 ms per MB on the bench machine), while inflating runs once at
//! first use; the gzip a server applies passes a deflate stream through at its size.

/// Length in bytes of the data `stream` inflates to (`None` for a stream shorter than
/// its 4-byte header).
pub(super) fn inflated_len(stream: &[u8]) -> Option<usize> {
    Some(u32::from_le_bytes(stream.get(..4)?.try_into().ok()?) as usize)
}

/// Inflates `stream` into `out`, which must be exactly [`inflated_len`] bytes long;
/// `false` if the stream is damaged or does not end exactly there (the data is this
/// crate's own, so this only guards against a build defect).
pub(super) fn inflate(stream: &[u8], out: &mut [u8]) -> bool {
    let Some(body) = stream.get(4..) else {
        return false;
    };
    let mut inflater = flate2::Decompress::new(false);
    match inflater.decompress(body, out, flate2::FlushDecompress::Finish) {
        Ok(status) => {
            status == flate2::Status::StreamEnd && inflater.total_out() as usize == out.len()
        }
        Err(_) => false,
    }
}
