//! Zip archives written by hand, so a test can make an entry as large, as repetitive or
//! as untruthful as an attacker would, in a few milliseconds.

/// What an entry holds.
pub enum Body {
    /// Stored as is.
    Plain(Vec<u8>),
    /// `head`, then `row` `times` times, then `tail`, deflated with back-references (a
    /// 258-byte copy costs 2 bytes, so hundreds of megabytes fit in a small upload). The
    /// checksum is not computed: a reader that honours the bounds never reaches the end.
    Repeated {
        head: Vec<u8>,
        row: Vec<u8>,
        times: u64,
        tail: Vec<u8>,
    },
}

pub struct Entry {
    pub name: String,
    pub body: Body,
    /// The unpacked size the archive declares, when it should lie.
    pub declared: Option<u64>,
}

pub fn entry(name: &str, body: Body) -> Entry {
    Entry {
        name: name.into(),
        body,
        declared: None,
    }
}

pub fn plain(name: &str, text: &str) -> Entry {
    entry(name, Body::Plain(text.as_bytes().to_vec()))
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Bits in deflate order: values LSB first, Huffman codes MSB first.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    fn put(&mut self, value: u32, len: u32) {
        self.acc |= u64::from(value) << self.n;
        self.n += len;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    fn code(&mut self, code: u32, len: u32) {
        let reversed = code.reverse_bits() >> (32 - len);
        self.put(reversed, len);
    }

    /// A literal byte in the fixed Huffman code.
    fn literal(&mut self, b: u8) {
        if b < 144 {
            self.code(0x30 + u32::from(b), 8);
        } else {
            self.code(0x190 + u32::from(b) - 144, 9);
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// One fixed-Huffman block: the head, the first row and the tail as literals, the other
/// rows as copies of 258 bytes at the row's distance.
fn deflate_repeated(head: &[u8], row: &[u8], times: u64, tail: &[u8]) -> Vec<u8> {
    const BASES: [u32; 30] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
        2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ];
    let mut bits = Bits::default();
    bits.put(1, 1); // the last block
    bits.put(1, 2); // fixed codes
    head.iter().for_each(|&b| bits.literal(b));
    if times > 0 {
        row.iter().for_each(|&b| bits.literal(b));
        let distance = row.len() as u32;
        let code = BASES.iter().rposition(|&b| b <= distance).unwrap_or(0);
        let extra = if code < 4 { 0 } else { (code as u32 - 2) / 2 };
        let mut left = (times - 1) * row.len() as u64;
        while left >= 258 {
            bits.code(0xC5, 8); // length symbol 285: 258 bytes
            bits.code(code as u32, 5);
            bits.put(distance - BASES[code], extra);
            left -= 258;
        }
        // The rest, as literals continuing the rows.
        let copied = (times - 1) * row.len() as u64 - left;
        for i in 0..left {
            bits.literal(row[((copied + i) % row.len() as u64) as usize]);
        }
    }
    tail.iter().for_each(|&b| bits.literal(b));
    bits.code(0, 7); // end of block
    bits.finish()
}

pub fn archive(entries: &[Entry]) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    let u16le = |v: usize| (v as u16).to_le_bytes();
    for e in entries {
        let (method, crc, size, data): (u16, u32, u64, Vec<u8>) = match &e.body {
            Body::Plain(bytes) => (0, crc32(bytes), bytes.len() as u64, bytes.clone()),
            Body::Repeated {
                head,
                row,
                times,
                tail,
            } => (
                8,
                0,
                (head.len() + tail.len()) as u64 + times * row.len() as u64,
                deflate_repeated(head, row, *times, tail),
            ),
        };
        let size = e.declared.unwrap_or(size);
        let size32 = u32::try_from(size).expect("under 4 GB");
        let offset = out.len() as u32;
        let fields = |sig: u32, central: bool| {
            let mut h = sig.to_le_bytes().to_vec();
            if central {
                h.extend(u16le(20));
            }
            h.extend(u16le(20));
            h.extend(u16le(0)); // flags
            h.extend(method.to_le_bytes());
            h.extend(u16le(0)); // time
            h.extend(u16le(0x21)); // 1980-01-01
            h.extend(crc.to_le_bytes());
            h.extend((data.len() as u32).to_le_bytes());
            h.extend(size32.to_le_bytes());
            h.extend(u16le(e.name.len()));
            h.extend(u16le(0)); // extra
            h
        };
        out.extend(fields(0x0403_4b50, false));
        out.extend(e.name.as_bytes());
        out.extend(&data);
        let mut c = fields(0x0201_4b50, true);
        c.extend(u16le(0)); // comment
        c.extend(u16le(0)); // disk
        c.extend(u16le(0)); // internal attributes
        c.extend(0u32.to_le_bytes()); // external attributes
        c.extend(offset.to_le_bytes());
        c.extend(e.name.as_bytes());
        central.extend(c);
    }
    let (cd_offset, cd_len) = (out.len() as u32, central.len() as u32);
    out.extend(central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend(u16le(0));
    out.extend(u16le(0));
    out.extend(u16le(entries.len()));
    out.extend(u16le(entries.len()));
    out.extend(cd_len.to_le_bytes());
    out.extend(cd_offset.to_le_bytes());
    out.extend(u16le(0));
    out
}

/// The parts of a one-sheet workbook besides the sheet.
pub fn frame() -> Vec<Entry> {
    vec![
        plain(
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#,
        ),
        plain(
            "_rels/.rels",
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#,
        ),
        plain(
            "xl/workbook.xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>"#,
        ),
        plain(
            "xl/_rels/workbook.xml.rels",
            r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#,
        ),
    ]
}

pub const SHEET_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:XFD1048576"/><sheetData>"#;
pub const SHEET_TAIL: &str = "</sheetData></worksheet>";

/// A workbook whose sheet is `head_rows`, then `row` `times` times.
pub fn repeated_rows(head_rows: &str, row: &str, times: u64) -> Vec<Entry> {
    let mut parts = frame();
    parts.push(entry(
        "xl/worksheets/sheet1.xml",
        Body::Repeated {
            head: format!("{SHEET_HEAD}{head_rows}").into_bytes(),
            row: row.as_bytes().to_vec(),
            times,
            tail: SHEET_TAIL.as_bytes().to_vec(),
        },
    ));
    parts
}
