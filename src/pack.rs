//! zstd for what quire keeps compressed (stored pages, revisions' texts, the
//! page cache), with one context per thread.

/// zstd's level for pages (the revisions' too).
const LEVEL: i32 = 3;

thread_local! {
    /// Making a zstd context costs more than (de)compressing a page with it
    /// (a fresh one per page view took ~70 µs of CPU, measured with
    /// `benches/http.sh`).
    static COMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
        const { std::cell::RefCell::new(None) };
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// `bytes` compressed as a page is (zstd), by this thread's context.
pub fn pack_bytes(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut packed = COMPRESSOR.with_borrow_mut(|slot| {
        if slot.is_none() {
            *slot = Some(zstd::bulk::Compressor::new(LEVEL)?);
        }
        match slot {
            Some(c) => c.compress(bytes),
            None => zstd::bulk::compress(bytes, LEVEL),
        }
    })?;
    // zstd leaves room for the worst case (more than the input): what is kept
    // (a stored page, the page cache) keeps only the bytes.
    packed.shrink_to_fit();
    Ok(packed)
}

/// What `pack_bytes` made of `size` bytes, by this thread's context.
pub fn unpack_bytes(bytes: &[u8], size: usize) -> std::io::Result<Vec<u8>> {
    DECOMPRESSOR.with_borrow_mut(|slot| {
        if slot.is_none() {
            *slot = Some(zstd::bulk::Decompressor::new()?);
        }
        match slot {
            Some(d) => d.decompress(bytes, size),
            None => zstd::bulk::decompress(bytes, size),
        }
    })
}
