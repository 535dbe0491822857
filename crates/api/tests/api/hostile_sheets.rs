//! Spreadsheets built to stop the server, sent to both imports (predicted generation and the
//! gateway check): a cell at XFD1048576, millions of identical rows in a small file, parts
//! that unpack to hundreds of megabytes or more than they declare, a shared strings count of
//! billions. Each is refused quickly with its code and the server keeps answering; normal
//! sheets still import, and predicted import takes the documented 2 MB.

use crate::common;

use std::time::{Duration, Instant};

use common::{App, Resp, spawn};
use domain::user::BuiltinRole;
use rust_xlsxwriter::Workbook;
use serde_json::json;

#[path = "hostile_sheets/zipper.rs"]
mod zipper;

use zipper::{Body, archive, entry, frame, plain, repeated_rows};

const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/// Generous for a debug build sharing its binary with the rest of the API tests on a busy
/// two-core machine (5 s was seen to run out there); before the bounds these took minutes or
/// ended the process.
const QUICK: Duration = Duration::from_secs(15);

struct CompanyAndOwner {
    owner: String,
    boss: String,
    plant: i64,
    other_plant: i64,
}

async fn company_and_owner(app: &App) -> CompanyAndOwner {
    let acme = app.company("Acme").await;
    let (_, boss) = app
        .signed_in("boss@example.com", BuiltinRole::CompanyAdmin, Some(acme))
        .await;
    let (_, owner) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let plant = |token: String, name: &'static str| async move {
        let r = app
            .post(
                "/api/v1/plant",
                json!({"name": name, "type": 1, "currency": "EUR", "timezone": "Europe/Madrid",
                    "lon": -3.7, "lat": 40.4, "totalPower": 5}),
                Some(&token),
            )
            .await;
        r.expect_code(0);
        r.data().as_i64().expect("plant id")
    };
    CompanyAndOwner {
        plant: plant(owner.clone(), "Ann home plant").await,
        other_plant: plant(bob, "Bob home plant").await,
        owner,
        boss,
    }
}

const PREDICTED: &str = "/api/v1/predicted/import?dryRun=true&lan=en";
const GATEWAYS: &str = "/api/v1/gateway/import/check?lan=en";

/// Sends `file` to both imports: each must answer `code` (and a message naming `detail`)
/// within [`QUICK`].
async fn refused_by_both(
    app: &App,
    c: &CompanyAndOwner,
    what: &str,
    file: &[u8],
    code: i64,
    detail: &str,
) {
    for (uri, token) in [(PREDICTED, &c.owner), (GATEWAYS, &c.boss)] {
        let started = Instant::now();
        let r = app
            .upload(uri, "hostile.xlsx", XLSX, file, Some(token))
            .await;
        let took = started.elapsed();
        assert_eq!(r.code(), code, "{what} at {uri}: {}", r.text());
        assert!(r.msg().contains(detail), "{what} at {uri}: {}", r.msg());
        assert!(took < QUICK, "{what} at {uri} took {took:?}");
    }
}

fn far_cells(far: &[(u32, u16)]) -> Vec<u8> {
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    ws.write_string(0, 0, "SN").expect("A1");
    for &(row, col) in far {
        ws.write_string(row, col, "x").expect("far cell");
    }
    book.save_to_buffer().expect("xlsx")
}

/// The process's peak resident memory so far, in MB (Linux).
fn peak_rss_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

#[tokio::test]
async fn hostile_sheets_are_refused_quickly_and_the_server_keeps_answering() {
    for app in spawn().await {
        let c = company_and_owner(&app).await;

        // A1 and XFD1048576: 17 billion cells for a reader that builds the rectangle.
        let corner = far_cells(&[(1_048_575, 16_383)]);
        refused_by_both(&app, &c, "A1 + XFD1048576", &corner, 4, "columns").await;
        let bottom = far_cells(&[(1_048_575, 1)]);
        refused_by_both(&app, &c, "A1 + B1048576", &bottom, 4, "rows").await;

        // 5 million identical rows: 130 MB of XML in a file of about 1 MB, refused by its
        // declared size before any of it is unpacked.
        let rows = archive(&repeated_rows("", "<row><c><v>1</v></c></row>", 5_000_000));
        assert!(rows.len() < 2 * 1024 * 1024, "{}", rows.len());
        refused_by_both(&app, &c, "5M rows", &rows, 12, "File too large").await;

        // 30,000 rows within the size bounds: the reader stops at row 1002 (a header and
        // 1000 data rows), it does not read the rest.
        let many = archive(&repeated_rows(
            "",
            r#"<row><c t="inlineStr"><is><t>GW-0001</t></is></c><c t="inlineStr"><is><t>KEY001</t></is></c></row>"#,
            30_000,
        ));
        refused_by_both(&app, &c, "30k rows", &many, 4, "rows (at most 1000)").await;

        // The same cell over and over: the cell count stops it.
        let same = archive(&repeated_rows(
            "",
            r#"<row r="1"><c r="A1"><v>1</v></c></row>"#,
            100_000,
        ));
        refused_by_both(&app, &c, "one cell repeated", &same, 4, "cells").await;

        // A zip bomb: an unrelated part of 200 MB of zeros (about 1.3 MB packed).
        let mut bomb = frame();
        bomb.push(plain(
            "xl/worksheets/sheet1.xml",
            &format!(
                "{}<row><c><v>1</v></c></row>{}",
                zipper::SHEET_HEAD,
                zipper::SHEET_TAIL
            ),
        ));
        bomb.push(entry(
            "xl/media/image1.bin",
            Body::Repeated {
                head: Vec::new(),
                row: vec![0],
                times: 200_000_000,
                tail: Vec::new(),
            },
        ));
        let bomb = archive(&bomb);
        assert!(bomb.len() < 2 * 1024 * 1024, "{}", bomb.len());
        refused_by_both(&app, &c, "zip bomb", &bomb, 12, "File too large").await;

        // A sheet that unpacks to far more than it declares: the unpacking stops at the
        // declared size and the file is unreadable.
        let mut lying = repeated_rows("", "<row><c><v>1</v></c></row>", 2_000_000);
        lying[4].declared = Some(4096);
        refused_by_both(&app, &c, "lying size", &archive(&lying), 11, "Unsupported").await;

        // Shared strings declaring four billion entries (the reader reserves room for them).
        let mut sst = frame();
        sst.push(plain(
            "xl/sharedStrings.xml",
            r#"<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="4000000000"><si><t>GW-0001</t></si></sst>"#,
        ));
        sst.push(plain(
            "xl/worksheets/sheet1.xml",
            &format!(
                r#"{}<row r="1"><c r="A1" t="s"><v>0</v></c></row>{}"#,
                zipper::SHEET_HEAD,
                zipper::SHEET_TAIL
            ),
        ));
        refused_by_both(&app, &c, "sst count", &archive(&sst), 12, "File too large").await;

        // Styles that copy a 1 MB font name into 5000 cell formats (5 GB for a reader that
        // builds them): styles are not read, the sheet is (its one row answered on its own).
        let mut styled = frame();
        styled.push(plain(
            "xl/worksheets/sheet1.xml",
            &format!(
                r#"{}<row r="1"><c r="A1" t="inlineStr"><is><t>SN</t></is></c><c r="B1" t="inlineStr"><is><t>Key</t></is></c></row><row r="2"><c r="A2"><v>{}</v></c><c r="B2"><v>2026</v></c></row>{}"#,
                zipper::SHEET_HEAD,
                c.plant,
                zipper::SHEET_TAIL
            ),
        ));
        styled.push(entry(
            "xl/styles.xml",
            Body::Repeated {
                head: br#"<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><name val=""#.to_vec(),
                row: b"a".to_vec(),
                times: 1_000_000,
                tail: format!(
                    r#""/></font></fonts><cellXfs count="5000">{}</cellXfs></styleSheet>"#,
                    r#"<xf fontId="0" applyFont="1"/>"#.repeat(5000)
                )
                .into_bytes(),
            },
        ));
        let styled = archive(&styled);
        for (uri, token) in [(PREDICTED, &c.owner), (GATEWAYS, &c.boss)] {
            let started = Instant::now();
            let r = app.upload(uri, "s.xlsx", XLSX, &styled, Some(token)).await;
            r.expect_code(0);
            assert_eq!(r.data()["total"], 1, "{}", r.text());
            assert!(started.elapsed() < QUICK, "{:?}", started.elapsed());
        }

        // A sheet of nothing but empty rows (1.8 MB of XML, half the bound): read through,
        // the slowest kind of sheet within the bounds, and no data.
        let empty = archive(&repeated_rows("", "<row/>", 300_000));
        refused_by_both(&app, &c, "empty rows", &empty, 4, "rows").await;

        // A cell too long to be a value of either import.
        let mut book = Workbook::new();
        book.add_worksheet()
            .write_string(0, 0, "x".repeat(5000))
            .expect("cell");
        let long_cell = book.save_to_buffer().expect("xlsx");
        refused_by_both(&app, &c, "long cell", &long_cell, 4, "characters").await;

        // The legacy binary format is not read (its reader cannot be bounded).
        let mut xls = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
        xls.resize(4096, 0);
        refused_by_both(&app, &c, ".xls", &xls, 11, "Unsupported").await;

        // Without the import permission the file is not read at all.
        app.upload(GATEWAYS, "g.xlsx", XLSX, &corner, Some(&c.owner))
            .await
            .expect_code(2);

        // The server still answers, and a normal sheet (just a header) reaches the row
        // checks.
        assert_eq!(
            refused_rows(&app, PREDICTED, &c.owner, &far_cells(&[])).await,
            "Parameter validation error: rows"
        );
        let peak = peak_rss_mb();
        assert!(peak.is_none_or(|mb| mb < 1024), "peak memory {peak:?} MB");
    }
}

async fn refused_rows(app: &App, uri: &str, token: &str, file: &[u8]) -> String {
    let r: Resp = app.upload(uri, "p.xlsx", XLSX, file, Some(token)).await;
    r.expect_code(4);
    r.msg().to_string()
}

/// Predicted rows of `plant`: a header, then `n` whole months from January 2026.
fn predictions(plant: i64, n: usize, extra: &[[String; 5]]) -> Vec<u8> {
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    for (col, h) in ["Plant ID", "Year", "Month", "Day", "Expected kWh"]
        .iter()
        .enumerate()
    {
        ws.write_string(0, col as u16, *h).expect("header");
    }
    let mut r = 1u32;
    for i in 0..n {
        // Day rows: (year, month, day) distinct for up to 1000 rows.
        let (year, month, day) = (2026 + i / 336, 1 + (i % 336) / 28, 1 + i % 28);
        for (col, v) in [plant, year as i64, month as i64, day as i64, 10]
            .iter()
            .enumerate()
        {
            ws.write_number(r, col as u16, *v as f64).expect("cell");
        }
        r += 1;
    }
    for row in extra {
        for (col, v) in row.iter().enumerate() {
            ws.write_string(r, col as u16, v).expect("cell");
        }
        r += 1;
    }
    book.save_to_buffer().expect("xlsx")
}

#[tokio::test]
async fn normal_sheets_import_up_to_the_row_bound_on_both_endpoints() {
    for app in spawn().await {
        let c = company_and_owner(&app).await;
        // 1000 rows, the bound: every row checked.
        let r = app
            .upload(
                PREDICTED,
                "p.xlsx",
                XLSX,
                &predictions(c.plant, 1000, &[]),
                Some(&c.owner),
            )
            .await;
        r.expect_code(0);
        assert_eq!(
            (r.data()["total"].as_i64(), r.data()["imported"].as_i64()),
            (Some(1000), Some(1000)),
        );
        // 1001 rows: refused as a whole.
        let msg = refused_rows(&app, PREDICTED, &c.owner, &predictions(c.plant, 1001, &[])).await;
        assert!(msg.contains("rows (at most 1000)"), "{msg}");

        // Another owner's plant answers like a missing one, row by row.
        let theirs = [[
            c.other_plant.to_string(),
            "2026".into(),
            "1".into(),
            String::new(),
            "5".into(),
        ]];
        let r = app
            .upload(
                "/api/v1/predicted/import?lan=en",
                "p.xlsx",
                XLSX,
                &predictions(c.plant, 2, &theirs),
                Some(&c.owner),
            )
            .await;
        r.expect_code(0);
        let rows = r.data()["rows"].as_array().expect("rows");
        assert_eq!(r.data()["imported"], 2);
        assert_eq!(rows[2]["msg"], "Parameter validation error: plantId");
        assert_eq!(rows[2]["row"], 4);

        // The gateway check reads a normal sheet, its header in any column order.
        let mut book = Workbook::new();
        let ws = book.add_worksheet();
        for (col, v) in ["Key", "SN"].iter().enumerate() {
            ws.write_string(0, col as u16, *v).expect("header");
        }
        ws.write_string(2, 0, "KEY001").expect("key");
        ws.write_string(2, 1, "GW-0001").expect("sn");
        let file = book.save_to_buffer().expect("xlsx");
        let r = app
            .upload(GATEWAYS, "g.xlsx", XLSX, &file, Some(&c.boss))
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 1);
        assert_eq!(r.data()["results"][0]["row"], 3);
        assert_eq!(r.data()["results"][0]["sn"], "GW-0001");
        assert_eq!(r.data()["results"][0]["code"], 300, "not registered");

        // The templates the portal hands out read back: their example row is checked.
        for (template, uri, token) in [
            ("/api/v1/predicted/template?lan=zh", PREDICTED, &c.owner),
            (
                "/api/v1/gateway/import/template?mode=claim",
                GATEWAYS,
                &c.boss,
            ),
        ] {
            let t = app.get(template, Some(token)).await;
            assert!(t.body.starts_with(b"PK"), "{template}");
            let r = app.upload(uri, "t.xlsx", XLSX, &t.body, Some(token)).await;
            r.expect_code(0);
            assert_eq!(r.data()["total"], 1, "{uri}: {}", r.text());
        }
    }
}

/// A workbook of `size` bytes: a normal sheet and a stored part of bytes that do not
/// compress.
fn padded(plant: i64, size: usize) -> Vec<u8> {
    let mut parts = frame();
    parts.push(plain(
        "xl/worksheets/sheet1.xml",
        &format!(
            r#"{}<row r="1"><c r="A1"><v>{plant}</v></c><c r="B1"><v>2026</v></c><c r="C1"><v>3</v></c><c r="E1"><v>42.5</v></c></row>{}"#,
            zipper::SHEET_HEAD,
            zipper::SHEET_TAIL
        ),
    ));
    let mut seed = 0x2545_F491_u32;
    let noise: Vec<u8> = (0..size)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as u8
        })
        .collect();
    parts.push(entry("xl/media/image1.png", Body::Plain(noise)));
    let file = archive(&parts);
    assert!(file.len() >= size);
    file
}

#[tokio::test]
async fn predicted_import_takes_the_documented_two_megabytes() {
    for app in spawn().await {
        let c = company_and_owner(&app).await;
        let r = app
            .upload(
                PREDICTED,
                "p.xlsx",
                XLSX,
                &padded(c.plant, 1_900_000),
                Some(&c.owner),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["imported"], 1, "{}", r.text());
        assert_eq!(r.data()["rows"][0]["row"], 1);
        let r = app
            .upload(
                PREDICTED,
                "p.xlsx",
                XLSX,
                &padded(c.plant, 2 * 1024 * 1024 + 1),
                Some(&c.owner),
            )
            .await;
        r.expect_code(12);
        // Bad input: not a workbook.
        app.upload(PREDICTED, "p.xlsx", XLSX, b"plain text", Some(&c.owner))
            .await
            .expect_code(11);
    }
}
