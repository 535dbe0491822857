//! Uploaded files across replicas (files kept in the database, the default on PostgreSQL): a
//! plant picture, a company logo and a firmware file uploaded through A are served
//! byte-identical by B and C, with the same validators (a copy cached from B is current for C),
//! and a firmware deleted through B is gone for C and from the database.

use store::Store;

use crate::common::{
    TestResult, http,
    portal::Portal,
    uploads::{firmware, firmware_image, png},
};

/// `url` through B and C: the uploaded bytes, as `content_type`, with the same `ETag`; a
/// request to C carrying B's tag is answered 304.
async fn same_everywhere(
    replicas: &[Portal],
    url: &str,
    bytes: Option<&[u8]>,
    content_type: &str,
) -> TestResult {
    let mut tags = Vec::new();
    for r in &replicas[1..] {
        let got = http::get(r.http_port, url, None).await?;
        assert_eq!(got.status, 200, "{url} via {}", r.name);
        if let Some(bytes) = bytes {
            assert!(got.body == bytes, "{url} via {}: other bytes", r.name);
        }
        assert_eq!(
            got.header("content-type"),
            Some(content_type),
            "{url} via {}",
            r.name
        );
        assert!(
            got.header("last-modified").is_some() && got.header("accept-ranges") == Some("bytes")
        );
        tags.push(got.header("etag").ok_or("no etag")?.to_string());
    }
    assert_eq!(tags[0], tags[1], "{url}: B and C tag it differently");
    let cached = http::get_with(replicas[2].http_port, url, &[("If-None-Match", &tags[0])]).await?;
    assert_eq!(cached.status, 304, "{url}: B's copy is not current for C");
    Ok(())
}

pub async fn uploads_are_served_by_every_replica(
    replicas: &[Portal],
    store: &Store,
    token: &str,
) -> TestResult {
    let a = replicas[0].http_port;
    let picture = png(400, 300, 7)?;
    let urls = http::post_form(
        a,
        "/api/v1/plant/thumbnail",
        token,
        &[],
        Some(("file", "roof.png", &picture)),
    )
    .await?
    .data()?;
    let url = urls["url"].as_str().ok_or("no url")?;
    same_everywhere(replicas, url, Some(&picture), "image/png").await?;
    let thumb = urls["thumbUrl"].as_str().ok_or("no thumbUrl")?;
    same_everywhere(replicas, thumb, None, "image/jpeg").await?;

    let company = store
        .create_company("Replica Solar", chrono::Utc::now().timestamp_millis())
        .await?;
    let logo = png(120, 40, 11)?;
    let company = company.to_string();
    let uploaded = http::post_form(
        a,
        "/api/v1/company/uploadLogo",
        token,
        &[("companyId", &company)],
        Some(("file", "logo.png", &logo)),
    )
    .await?
    .data()?;
    let logo_url = uploaded["url"].as_str().ok_or("no logo url")?;
    same_everywhere(replicas, logo_url, Some(&logo), "image/png").await?;

    // A firmware of a few hundred kilobytes (compressed or stored out of line by the database).
    let image = firmware_image(300 * 1024);
    let id = firmware(a, token, "replica.bin", &image).await?;
    let download = format!("/api/v1/firmware/{id}/download");
    for r in &replicas[1..] {
        let got = http::get(r.http_port, &download, Some(token)).await?;
        assert!(
            got.status == 200 && got.body == image,
            "firmware via {}: {}",
            r.name,
            got.status
        );
        let disposition = got.header("content-disposition").unwrap_or_default();
        assert!(disposition.contains("replica.bin"), "{disposition}");
    }

    let deleted = http::get(
        replicas[1].http_port,
        &format!("/api/v1/firmware/{id}/delete"),
        Some(token),
    )
    .await?;
    deleted.data()?;
    let gone = http::get(replicas[2].http_port, &download, Some(token)).await?;
    assert!(gone.data().is_err(), "C still serves a firmware B deleted");
    assert!(
        store.files_under("firmware/").await?.is_empty(),
        "the file outlived its row"
    );
    Ok(())
}
