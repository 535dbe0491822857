//! The store contract for files kept in the database (`PORTAL_FILES=database`), on every
//! backend: bytes come back exactly as stored (every byte value, a file of several hundred
//! kilobytes), a key is never written twice, a staged file is renamed to its final key, and a
//! deleted file is gone.

use store::files::is_taken;
use store::testing::{TestResult, each_backend};

/// Every byte value, then a pattern long enough to be compressed or moved out of line by the
/// database (PostgreSQL TOAST), so the test covers more than short inline values.
fn firmware_like(len: usize) -> Vec<u8> {
    (0..=255u8)
        .chain((0..len).map(|i| ((i * 31) ^ (i >> 7)) as u8))
        .collect()
}

#[tokio::test]
async fn a_file_comes_back_byte_for_byte_with_its_size_and_age() -> TestResult {
    each_backend(|s| async move {
        let bytes = firmware_like(400 * 1024);
        s.put_file("firmware/a.bin", &bytes, 1_000).await?;
        let got = s.file("firmware/a.bin").await?.ok_or("stored")?;
        assert_eq!(got.bytes, bytes);
        assert_eq!(got.size, bytes.len() as i64);
        assert_eq!(got.created_at, 1_000);
        let info = s.file_info("firmware/a.bin").await?.ok_or("info")?;
        assert_eq!((info.size, info.created_at), (got.size, 1_000));
        assert!(s.file("firmware/b.bin").await?.is_none());
        s.put_file("uploads/plants/empty.png", b"", 2_000).await?;
        let empty = s.file("uploads/plants/empty.png").await?.ok_or("empty")?;
        assert!(empty.bytes.is_empty() && empty.size == 0);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_key_is_written_once() -> TestResult {
    each_backend(|s| async move {
        s.put_file("uploads/logos/x.png", b"first", 1_000).await?;
        let again = s.put_file("uploads/logos/x.png", b"second", 2_000).await;
        assert!(again.as_ref().is_err_and(is_taken), "{again:?}");
        let kept = s.file("uploads/logos/x.png").await?.ok_or("kept")?;
        assert_eq!(kept.bytes, b"first");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_staged_file_takes_its_final_key_and_a_deleted_one_is_gone() -> TestResult {
    each_backend(|s| async move {
        s.put_file("firmware/.f.bin.part", b"image", 1_000).await?;
        assert!(
            s.rename_file("firmware/.f.bin.part", "firmware/f.bin")
                .await?
        );
        assert!(s.file("firmware/.f.bin.part").await?.is_none());
        assert_eq!(
            s.file("firmware/f.bin").await?.map(|f| f.bytes),
            Some(b"image".to_vec())
        );
        assert!(
            !s.rename_file("firmware/.nothing.part", "firmware/n.bin")
                .await?
        );
        s.put_file("firmware/.g.bin.part", b"other", 1_000).await?;
        let onto = s
            .rename_file("firmware/.g.bin.part", "firmware/f.bin")
            .await;
        assert!(onto.as_ref().is_err_and(is_taken), "{onto:?}");

        assert!(s.delete_file("firmware/f.bin").await?);
        assert!(s.file("firmware/f.bin").await?.is_none());
        assert!(!s.delete_file("firmware/f.bin").await?, "already gone");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn files_are_listed_by_prefix_without_their_bytes() -> TestResult {
    each_backend(|s| async move {
        for key in [
            "uploads/plants/a_1.jpg",
            "uploads/plants/b%2.jpg",
            "uploads/logos/c.png",
            "firmware/d.bin",
        ] {
            s.put_file(key, key.as_bytes(), 1_000).await?;
        }
        let keys = |list: Vec<store::files::FileInfo>| -> Vec<String> {
            list.into_iter().map(|f| f.key).collect()
        };
        assert_eq!(
            keys(s.files_under("uploads/plants/").await?),
            ["uploads/plants/a_1.jpg", "uploads/plants/b%2.jpg"]
        );
        assert_eq!(keys(s.files_under("uploads/").await?).len(), 3);
        assert_eq!(keys(s.files_under("firmware/").await?), ["firmware/d.bin"]);
        assert!(s.files_under("uploads/plants_").await?.is_empty());
        Ok(())
    })
    .await
}
