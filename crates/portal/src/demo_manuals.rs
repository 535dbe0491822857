//! The demo's manuals: an installation guide for two simulated inverter models, and a
//! Chinese user manual for one, each a small PDF written here (no binary is committed), so the
//! Manuals screen has something to list and download. Idempotent: a model that has a manual
//! gets no other.

use domain::{
    ids::UserId,
    manual::{FileKind, ManualFields},
    policy::PlantVisibility,
};
use store::{
    Store,
    manuals::{ManualFile, ManualFilter},
};

/// (part number, title, language, lines of the document).
const MANUALS: [(&str, &str, &str, &[&str]); 3] = [
    (
        "SIM-2-5K",
        "SIM-2-5K installation guide",
        "en",
        &[
            "1. Mount the inverter on a wall that carries 30 kg, out of direct sun.",
            "2. Connect the PV strings with the DC switch open; check polarity.",
            "3. Connect the battery, then the grid, then close the DC switch.",
            "4. Plug in the data logger and bind it to the plant in the portal.",
        ],
    ),
    (
        "SIM-94-30K",
        "SIM-94-30K installation guide",
        "en",
        &[
            "1. Three-phase HV hybrid, 30 kW: two MPPT inputs, up to 1000 V DC.",
            "2. Use a DC combiner box with string fuses for more than two strings.",
            "3. Connect the HV battery stack before the grid; set the battery type.",
            "4. Commission every inverter of the roof from the portal in one batch.",
        ],
    ),
    (
        "SIM-94-30K",
        "SIM-94-30K user manual (Chinese)",
        "zh",
        &[
            "SIM-94-30K user manual: operation, alarms and maintenance.",
            "Chinese edition (the demo PDF is written in Latin script).",
        ],
    ),
];

/// Escapes text for a PDF string literal.
fn pdf_text(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii() && !c.is_ascii_control())
        .flat_map(|c| match c {
            '(' | ')' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// A one-page PDF with a title and lines of text (Helvetica, A4).
pub fn pdf(title: &str, lines: &[&str]) -> Vec<u8> {
    let mut content = format!("BT /F1 18 Tf 56 780 Td ({}) Tj ET\n", pdf_text(title));
    for (i, line) in lines.iter().enumerate() {
        let y = 740 - 22 * i as i64;
        content.push_str(&format!(
            "BT /F1 11 Tf 56 {y} Td ({}) Tj ET\n",
            pdf_text(line)
        ));
    }
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_string(),
        format!(
            "<< /Length {} >>\nstream\n{content}endstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

pub async fn prepare(store: &Store, files: api::FileStore<'_>) -> anyhow::Result<()> {
    for (part, title, language, lines) in MANUALS {
        let Some(product) = store.product_by_part_number(part).await? else {
            continue;
        };
        let filter = ManualFilter {
            product: Some(product.id),
            limit: 10,
            ..ManualFilter::default()
        };
        let (existing, _) = store
            .manuals(PlantVisibility::All, UserId(0), true, &filter)
            .await?;
        if existing.iter().any(|m| m.title == title) {
            continue;
        }
        let bytes = pdf(title, lines);
        let stored_name = format!("demo-{}-{language}.pdf", part.to_lowercase());
        files
            .put(&api::manual_file_key(&stored_name), &bytes)
            .await?;
        let fields = ManualFields {
            product_id: product.id,
            title: title.to_string(),
            language: language.to_string(),
            version: "V1.0".into(),
            issued: "2026-01-15".into(),
        };
        let file = ManualFile {
            file_name: format!("{}.pdf", title.replace(' ', "-")),
            stored_name,
            content_type: FileKind::Pdf.content_type().into(),
            size: i64::try_from(bytes.len())?,
        };
        store
            .insert_manual(&fields, &file, domain::time::now_ms())
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_pdf_is_a_pdf_whose_xref_points_at_its_objects() {
        let bytes = pdf("Guide (v1)", &["Line one", "Line two"]);
        assert_eq!(FileKind::sniff(&bytes), Some(FileKind::Pdf));
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.contains("(Guide \\(v1\\)) Tj"));
        let start: usize = text
            .rsplit("startxref\n")
            .next()
            .and_then(|t| t.lines().next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!(text[start..].starts_with("xref"));
        let first = text[start..].lines().nth(3).unwrap();
        let offset: usize = first[..10].parse().unwrap();
        assert!(text[offset..].starts_with("1 0 obj"));
    }
}
