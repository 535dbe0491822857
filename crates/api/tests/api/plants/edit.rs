//! Edits change only what they name.

use super::*;

#[tokio::test]
async fn edits_change_only_what_they_name_and_income_accepts_numbers_as_strings() {
    for app in spawn().await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let id = create(&app, &ann, plant("Ann home plant")).await;
        app.post(
            &format!("/api/v1/plant/{id}/info"),
            json!({"name": "Renamed plant", "totalPower": 8}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/plant/{id}/contacts"),
            json!({"principal": "Bea", "phone": ""}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/plant/{id}/income"),
            json!({"id": id, "currency": "2", "invest": "1000.5", "charges": [{"price": "0.2", "type": "1"}]}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        let p = app.get(&format!("/api/v1/plant/{id}"), Some(&ann)).await;
        let p = p.data();
        assert_eq!(
            (p["name"].as_str(), p["totalPower"].as_f64()),
            (Some("Renamed plant"), Some(8.0))
        );
        assert_eq!(
            (
                p["principal"].as_str(),
                p["phone"].as_str(),
                p["installer"].as_str()
            ),
            (Some("Bea"), Some(""), Some("Acme"))
        );
        assert_eq!(
            (p["currency"]["code"].as_str(), p["invest"].as_f64()),
            (Some("EUR"), Some(1000.5))
        );
        assert_eq!(p["charges"].as_array().map(Vec::len), Some(1));
        assert_eq!(p["charges"][0]["endRange"], "24:00");
        app.post(
            &format!("/api/v1/plant/{id}/income"),
            json!({"charges": [{"price": -1, "type": 1}]}),
            Some(&ann),
        )
        .await
        .expect_code(4);
        let after = app.get(&format!("/api/v1/plant/{id}"), Some(&ann)).await;
        assert_eq!(
            after.data()["charges"][0]["price"].as_f64(),
            Some(0.2),
            "a refused edit changes nothing"
        );
    }
}
