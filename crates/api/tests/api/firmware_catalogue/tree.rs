//! The inverter-type tree and its rules.

use super::*;

#[tokio::test]
async fn the_tree_keeps_titles_over_labels_and_unique_codes() {
    for app in spawn().await {
        let admin = fixtures::admin(&app).await;
        let (hybrid, lv) = label(&app, &admin, "Hybrid", "LV hybrid", &[2, 93]).await;
        let (grid, _) = label(&app, &admin, "Grid", "String", &[1]).await;
        // A label under a label, a code twice, a name twice among siblings, codes on a title.
        let r = add_node(&app, &admin, json!({"name": "Deep", "parentId": lv})).await;
        r.expect_code(4);
        assert_eq!(detail_of(&r), "primaryTitle");
        let r = add_node(
            &app,
            &admin,
            json!({"name": "Other", "parentId": grid, "codes": [93]}),
        )
        .await;
        r.expect_code(4);
        assert!(r.msg().contains("codes: 93"), "{}", r.msg());
        add_node(
            &app,
            &admin,
            json!({"name": "LV hybrid", "parentId": hybrid}),
        )
        .await
        .expect_code(4);
        add_node(&app, &admin, json!({"name": "Top", "codes": [5]}))
            .await
            .expect_code(4);
        add_node(&app, &admin, json!({"name": "x".repeat(33)}))
            .await
            .expect_code(4);
        app.get(
            &format!("/api/v1/firmware/inverterType/check?name=LV%20hybrid&parentId={hybrid}"),
            Some(&admin),
        )
        .await
        .expect_code(4);
        app.get(
            &format!(
                "/api/v1/firmware/inverterType/check?name=LV%20hybrid&parentId={hybrid}&id={lv}"
            ),
            Some(&admin),
        )
        .await
        .expect_code(0);

        // Edit replaces codes; the tree shows them.
        app.post(
            "/api/v1/firmware/inverterType/edit",
            json!({"id": lv, "name": "LV hybrids", "codes": [2, 93, 94]}),
            Some(&admin),
        )
        .await
        .expect_code(0);
        let tree = app
            .get("/api/v1/firmware/inverterTypes", Some(&admin))
            .await;
        tree.expect_code(0);
        let t = &tree.data()[0];
        assert_eq!(t["name"], "Hybrid");
        assert!(t["parentId"].is_null());
        assert_eq!(t["codes"], json!([]));
        assert_eq!(t["children"][0]["name"], "LV hybrids");
        assert_eq!(t["children"][0]["codes"], json!([2, 93, 94]));
        assert_eq!(t["children"][0]["parentId"], hybrid);
        assert_eq!(t["children"][0]["children"], json!([]));

        // Moves: only a label, only to a title, not onto a sibling's name.
        let r = app
            .post(
                "/api/v1/firmware/inverterType/move",
                json!({"id": hybrid, "parentId": grid}),
                Some(&admin),
            )
            .await;
        assert_eq!(detail_of(&r), "primaryTitle");
        let r = app
            .post(
                "/api/v1/firmware/inverterType/move",
                json!({"id": lv, "parentId": lv}),
                Some(&admin),
            )
            .await;
        assert_eq!(detail_of(&r), "primaryTitle");
        let (_, _twin) = label(&app, &admin, "Grid", "LV hybrids", &[]).await;
        let r = app
            .post(
                "/api/v1/firmware/inverterType/move",
                json!({"id": lv, "parentId": grid}),
                Some(&admin),
            )
            .await;
        r.expect_code(4);
        assert_eq!(detail_of(&r), "nameAtTarget");
        let (_, mover) = label(&app, &admin, "Hybrid", "Mover", &[7]).await;
        app.post(
            "/api/v1/firmware/inverterType/move",
            json!({"id": mover, "parentId": grid}),
            Some(&admin),
        )
        .await
        .expect_code(0);

        // Deletes: not a title with labels, not a label with firmware, unknown ids answer 4 id.
        let r = app
            .get(
                &format!("/api/v1/firmware/inverterType/{hybrid}/delete"),
                Some(&admin),
            )
            .await;
        assert_eq!(detail_of(&r), "hasSubtype");
        upload(&app, &admin, lv, "lv one", "V1").await;
        let r = app
            .get(
                &format!("/api/v1/firmware/inverterType/{lv}/delete"),
                Some(&admin),
            )
            .await;
        assert_eq!(detail_of(&r), "hasFirmware");
        let r = app
            .get("/api/v1/firmware/inverterType/999999/delete", Some(&admin))
            .await;
        assert_eq!(detail_of(&r), "id");
        app.get(
            &format!("/api/v1/firmware/inverterType/{mover}/delete"),
            Some(&admin),
        )
        .await
        .expect_code(0);
        let tree = app
            .get("/api/v1/firmware/inverterTypes", Some(&admin))
            .await;
        assert_eq!(tree.data()[0]["firmwareCount"], 1);
        assert_eq!(tree.data()[0]["children"][0]["firmwareCount"], 1);
    }
}
