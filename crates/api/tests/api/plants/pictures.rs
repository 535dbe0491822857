//! Plant pictures: checked by content, with a thumbnail.

use super::*;

#[tokio::test]
async fn plant_pictures_are_checked_by_content_and_get_a_thumbnail() {
    for app in spawn().await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let r = app
            .upload(
                "/api/v1/plant/thumbnail",
                "roof.png",
                "image/png",
                &fixtures::png(1200, 800),
                Some(&ann),
            )
            .await;
        r.expect_code(0);
        let (url, thumb) = (
            r.data()["url"].as_str().expect("url").to_string(),
            r.data()["thumbUrl"].as_str().expect("thumb").to_string(),
        );
        let served = app.get(&thumb, None).await;
        let decoded = image::load_from_memory(&served.body).expect("thumbnail is an image");
        assert_eq!((decoded.width(), decoded.height()), (320, 213));

        app.upload(
            "/api/v1/plant/thumbnail",
            "roof.png",
            "image/png",
            b"GIF89a fake",
            Some(&ann),
        )
        .await
        .expect_code(11);
        app.upload(
            "/api/v1/plant/thumbnail",
            "roof.jpg",
            "image/jpeg",
            b"<svg onload=alert(1)>",
            Some(&ann),
        )
        .await
        .expect_code(11);
        let mut big = vec![0xFF, 0xD8, 0xFF];
        big.resize(10 * 1024 * 1024 + 1, 0);
        app.upload(
            "/api/v1/plant/thumbnail",
            "big.jpg",
            "image/jpeg",
            &big,
            Some(&ann),
        )
        .await
        .expect_code(12);

        let mut body = plant("Ann home plant");
        body["imageUrl"] = json!(url);
        body["thumbUrl"] = json!(thumb);
        let id = create(&app, &ann, body).await;
        let p = app.get(&format!("/api/v1/plant/{id}"), Some(&ann)).await;
        assert_eq!(p.data()["thumbUrl"].as_str(), Some(thumb.as_str()));
    }
}
