//! Adding colleagues, and bad input that adds nobody.

use super::*;

/// Form fields, an avatar, and the code they get.
type Case<'a> = (Vec<(&'a str, &'a str)>, Option<&'a [u8]>, i64);

#[tokio::test]
async fn an_admin_adds_a_colleague_who_signs_in_with_the_role_given() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = w.admin.as_str();
        app.get(
            "/api/v1/company/user/check?account=new@sun.example",
            Some(t),
        )
        .await
        .expect_code(0);
        app.get(
            "/api/v1/company/user/check?account=staff@moon.example",
            Some(t),
        )
        .await
        .expect_code(104);
        app.get("/api/v1/company/user/check?account=what", Some(t))
            .await
            .expect_code(4);
        let role = w.staff_role.to_string();
        let r = add(
            &app,
            t,
            &[
                ("account", "new@sun.example"),
                ("password", "Fresh-pass1"),
                ("nickname", "Newt"),
                ("name", "New Person"),
                ("mobile", "+44 700"),
                ("roleId", &role),
            ],
            None,
        )
        .await;
        r.expect_code(0);
        let id = r.data().as_i64().unwrap();
        let page = staff_list(&app, t).await;
        let new = page["infos"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"].as_i64() == Some(id))
            .expect("listed");
        assert_eq!(new["roleName"], "Staff", "[{b}]");
        assert_eq!(new["nickname"], "Newt", "[{b}]");
        assert_eq!(new["email"], "new@sun.example", "[{b}]");
        let admin_row = page["infos"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["account"] == "admin@sun.example")
            .unwrap();
        assert_eq!(admin_row["roleName"], "Administrator", "[{b}]");
        let zh = app.get("/api/v1/company/user/list?lan=zh", Some(t)).await;
        assert!(zh.text().contains("管理员"), "[{b}]");

        let tokens = app.login("new@sun.example", "Fresh-pass1").await;
        let me = app.get("/api/v1/user", Some(&tokens.access)).await;
        assert_eq!(me.data()["company"]["id"].as_i64(), Some(w.sun.0), "[{b}]");
        let audit = app.get("/api/v1/audit?action=staff.add", Some(t)).await;
        audit.expect_code(0);
    }
}

#[tokio::test]
async fn bad_staff_input_gets_its_code_and_adds_nobody() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let t = w.admin.as_str();
        let role = w.staff_role.to_string();
        let foreign = app
            .store
            .create_role(
                app.company("Star Co").await,
                "Ops",
                &["station.view"],
                domain::time::now_ms(),
                None,
            )
            .await
            .unwrap()
            .0
            .to_string();
        let internal = app.role(BuiltinRole::InternalAdmin).await.0.to_string();
        let before = staff_list(&app, t).await["total"].clone();
        let cases: Vec<Case> = vec![
            (
                vec![
                    ("account", "staff@moon.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &role),
                ],
                None,
                104,
            ),
            (
                vec![
                    ("account", "nope"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &role),
                ],
                None,
                4,
            ),
            (
                vec![
                    ("account", "x@sun.example"),
                    ("password", "123"),
                    ("roleId", &role),
                ],
                None,
                4,
            ),
            (
                vec![("account", "x@sun.example"), ("password", "Fresh-pass1")],
                None,
                4,
            ),
            (
                vec![
                    ("account", "x@sun.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &foreign),
                ],
                None,
                4,
            ),
            (
                vec![
                    ("account", "x@sun.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &internal),
                ],
                None,
                4,
            ),
            (
                vec![
                    ("account", "x@sun.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &role),
                    ("email", "bad"),
                ],
                None,
                4,
            ),
            (
                vec![
                    ("account", "x@sun.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &role),
                ],
                Some(b"GIF89a\x01\x00\x01\x00"),
                11,
            ),
        ];
        for (fields, avatar, code) in cases {
            add(&app, t, &fields, avatar).await.expect_code(code);
        }
        assert_eq!(staff_list(&app, t).await["total"], before, "[{b}]");
        assert!(
            app.store
                .user_by_account("x@sun.example")
                .await
                .unwrap()
                .is_none(),
            "[{b}]"
        );
        // Staff without company.user.edit, and owners, may not add anyone.
        for token in [&w.staff, &w.owner] {
            add(
                &app,
                token,
                &[
                    ("account", "y@sun.example"),
                    ("password", "Fresh-pass1"),
                    ("roleId", &role),
                ],
                None,
            )
            .await
            .expect_code(2);
            app.get(
                "/api/v1/company/user/check?account=y@sun.example",
                Some(token),
            )
            .await
            .expect_code(2);
        }
    }
}
