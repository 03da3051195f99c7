//! A small Apache Parquet writer for the output tables (format 2: <https://parquet.apache.org/docs/file-format/>).
//!
//! One row group, flat columns, no compression: plain encoding for numbers, booleans and
//! strings, dictionary encoding (RLE/bit-packed hybrid indices) for the name columns of long
//! tables (`entity`, `variable`), definition levels for nullable numbers. The footer is
//! Thrift's compact protocol. Writing it here keeps `ccsim run` free of pyarrow (whose import
//! alone takes longer than a small run) and makes writing a table of millions of rows a
//! matter of copying bytes.
//!
//! CHOICE: no compression. The tables are numbers and names; snappy would save perhaps a
//! third and need a codec here; a reader that wants smaller files can rewrite them.

use std::io::{self, Write};
use std::path::Path;

/// Values of one column.
pub enum ColumnData<'a> {
    /// 64-bit floats (DOUBLE).
    F64(&'a [f64]),
    /// Nullable 64-bit floats.
    OptF64(&'a [Option<f64>]),
    /// Unsigned counts, stored as INT64 (every count fits 63 bits).
    U64(&'a [u64]),
    /// Unsigned 32-bit integers (INT32 annotated UINT_32).
    U32(&'a [u32]),
    /// Booleans.
    Bool(&'a [bool]),
    /// UTF-8 strings, plain.
    Str(&'a [String]),
    /// UTF-8 strings as indices into a dictionary.
    Dict {
        /// The distinct values.
        values: &'a [String],
        /// One index per row.
        keys: &'a [u32],
    },
}

impl ColumnData<'_> {
    fn len(&self) -> usize {
        match self {
            ColumnData::F64(v) => v.len(),
            ColumnData::OptF64(v) => v.len(),
            ColumnData::U64(v) => v.len(),
            ColumnData::U32(v) => v.len(),
            ColumnData::Bool(v) => v.len(),
            ColumnData::Str(v) => v.len(),
            ColumnData::Dict { keys, .. } => keys.len(),
        }
    }

    fn physical_type(&self) -> i32 {
        match self {
            ColumnData::Bool(_) => 0,
            ColumnData::U32(_) => 1,
            ColumnData::U64(_) => 2,
            ColumnData::F64(_) | ColumnData::OptF64(_) => 5,
            ColumnData::Str(_) | ColumnData::Dict { .. } => 6,
        }
    }

    fn converted_type(&self) -> Option<i32> {
        match self {
            ColumnData::Str(_) | ColumnData::Dict { .. } => Some(0), // UTF8
            ColumnData::U32(_) => Some(13),                          // UINT_32
            _ => None,
        }
    }
}

/// A named column.
pub struct Column<'a> {
    /// Column name.
    pub name: &'a str,
    /// Its values.
    pub data: ColumnData<'a>,
}

/// Rows per data page.
const PAGE_ROWS: usize = 1 << 16;

const PAGE_DATA: i32 = 0;
const PAGE_DICTIONARY: i32 = 2;
const ENC_PLAIN: i32 = 0;
const ENC_RLE: i32 = 3;
const ENC_RLE_DICTIONARY: i32 = 8;

/// Thrift compact protocol, just what the Parquet footer and page headers need.
#[derive(Default)]
struct Thrift {
    buf: Vec<u8>,
    last: Vec<i16>,
    current: i16,
}

const T_I32: u8 = 5;
const T_I64: u8 = 6;
const T_BINARY: u8 = 8;
const T_LIST: u8 = 9;
const T_STRUCT: u8 = 12;

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

impl Thrift {
    fn field(&mut self, id: i16, ty: u8) {
        let delta = id - self.current;
        if (1..=15).contains(&delta) {
            self.buf.push(((delta as u8) << 4) | ty);
        } else {
            self.buf.push(ty);
            varint(&mut self.buf, zigzag(i64::from(id)));
        }
        self.current = id;
    }
    fn i32(&mut self, id: i16, v: i32) {
        self.field(id, T_I32);
        varint(&mut self.buf, zigzag(i64::from(v)));
    }
    fn i64(&mut self, id: i16, v: i64) {
        self.field(id, T_I64);
        varint(&mut self.buf, zigzag(v));
    }
    fn binary(&mut self, id: i16, v: &[u8]) {
        self.field(id, T_BINARY);
        self.raw_binary(v);
    }
    fn raw_binary(&mut self, v: &[u8]) {
        varint(&mut self.buf, v.len() as u64);
        self.buf.extend_from_slice(v);
    }
    fn list(&mut self, id: i16, elem: u8, len: usize) {
        self.field(id, T_LIST);
        if len < 15 {
            self.buf.push(((len as u8) << 4) | elem);
        } else {
            self.buf.push(0xf0 | elem);
            varint(&mut self.buf, len as u64);
        }
    }
    /// Open a struct, as field `id` or (with `None`) as a list element.
    fn begin(&mut self, id: Option<i16>) {
        if let Some(id) = id {
            self.field(id, T_STRUCT);
        }
        self.last.push(self.current);
        self.current = 0;
    }
    fn end(&mut self) {
        self.buf.push(0);
        self.current = self.last.pop().unwrap_or(0);
    }
}

/// RLE/bit-packed hybrid: one bit-packed run of `values`, each `width` bits.
fn bit_packed(out: &mut Vec<u8>, values: &[u32], width: u32) {
    let groups = values.len().div_ceil(8);
    varint(out, ((groups as u64) << 1) | 1);
    let (mut acc, mut bits) = (0u64, 0u32);
    for i in 0..groups * 8 {
        acc |= u64::from(values.get(i).copied().unwrap_or(0)) << bits;
        bits += width;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
}

/// RLE/bit-packed hybrid of 0/1 definition levels as runs, with the 4-byte length prefix
/// data pages v1 put before them.
fn definition_levels(out: &mut Vec<u8>, present: impl Iterator<Item = bool>) {
    let mut body = Vec::new();
    let mut run: Option<(bool, u64)> = None;
    let flush = |body: &mut Vec<u8>, (value, n): (bool, u64)| {
        varint(body, n << 1);
        body.push(u8::from(value));
    };
    for p in present {
        run = match run {
            Some((v, n)) if v == p => Some((v, n + 1)),
            Some(r) => {
                flush(&mut body, r);
                Some((p, 1))
            }
            None => Some((p, 1)),
        };
    }
    if let Some(r) = run {
        flush(&mut body, r);
    }
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(&body);
}

fn plain_strings<'s>(out: &mut Vec<u8>, values: impl Iterator<Item = &'s String>) {
    for s in values {
        out.extend_from_slice(&(s.len() as u32).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    }
}

fn to_i32(n: usize) -> io::Result<i32> {
    i32::try_from(n).map_err(|_| io::Error::other("a Parquet page exceeds 2 GiB"))
}

/// Where a written column chunk sits, for the footer.
struct ChunkMeta {
    offset: u64,
    dictionary_offset: Option<u64>,
    data_offset: u64,
    bytes: u64,
    encodings: Vec<i32>,
}

struct Sink<W: Write> {
    out: W,
    pos: u64,
}

impl<W: Write> Sink<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.pos += bytes.len() as u64;
        Ok(())
    }

    fn page(&mut self, kind: i32, rows: usize, encoding: i32, body: &[u8]) -> io::Result<()> {
        let mut h = Thrift::default();
        h.i32(1, kind);
        h.i32(2, to_i32(body.len())?);
        h.i32(3, to_i32(body.len())?);
        if kind == PAGE_DICTIONARY {
            h.begin(Some(7));
            h.i32(1, to_i32(rows)?);
            h.i32(2, encoding);
            h.end();
        } else {
            h.begin(Some(5));
            h.i32(1, to_i32(rows)?);
            h.i32(2, encoding);
            h.i32(3, ENC_RLE);
            h.i32(4, ENC_RLE);
            h.end();
        }
        h.buf.push(0);
        self.write(&h.buf)?;
        self.write(body)
    }

    fn column(&mut self, data: &ColumnData<'_>) -> io::Result<ChunkMeta> {
        let offset = self.pos;
        let mut dictionary_offset = None;
        let mut encodings = vec![ENC_PLAIN, ENC_RLE];
        let rows = data.len();
        let width = if let ColumnData::Dict { values, .. } = data {
            dictionary_offset = Some(self.pos);
            let mut body = Vec::new();
            plain_strings(&mut body, values.iter());
            self.page(PAGE_DICTIONARY, values.len(), ENC_PLAIN, &body)?;
            encodings.push(ENC_RLE_DICTIONARY);
            (usize::BITS - values.len().saturating_sub(1).leading_zeros()).max(1)
        } else {
            0
        };
        let data_offset = self.pos;
        let mut start = 0;
        loop {
            let end = (start + PAGE_ROWS).min(rows);
            let mut body = Vec::new();
            let mut encoding = ENC_PLAIN;
            match data {
                ColumnData::F64(v) => v[start..end]
                    .iter()
                    .for_each(|x| body.extend_from_slice(&x.to_le_bytes())),
                ColumnData::OptF64(v) => {
                    let page = &v[start..end];
                    definition_levels(&mut body, page.iter().map(Option::is_some));
                    page.iter()
                        .flatten()
                        .for_each(|x| body.extend_from_slice(&x.to_le_bytes()));
                }
                ColumnData::U64(v) => v[start..end]
                    .iter()
                    .for_each(|&x| body.extend_from_slice(&(x as i64).to_le_bytes())),
                ColumnData::U32(v) => v[start..end]
                    .iter()
                    .for_each(|x| body.extend_from_slice(&x.to_le_bytes())),
                ColumnData::Bool(v) => {
                    for byte in v[start..end].chunks(8) {
                        body.push(
                            byte.iter()
                                .enumerate()
                                .fold(0u8, |acc, (i, &b)| acc | (u8::from(b) << i)),
                        );
                    }
                }
                ColumnData::Str(v) => plain_strings(&mut body, v[start..end].iter()),
                ColumnData::Dict { keys, .. } => {
                    encoding = ENC_RLE_DICTIONARY;
                    body.push(width as u8);
                    bit_packed(&mut body, &keys[start..end], width);
                }
            }
            self.page(PAGE_DATA, end - start, encoding, &body)?;
            start = end;
            if start >= rows {
                break;
            }
        }
        Ok(ChunkMeta {
            offset,
            dictionary_offset,
            data_offset,
            bytes: self.pos - offset,
            encodings,
        })
    }
}

/// Write `columns` (all of one length) as a Parquet file at `path`, with string key-value
/// metadata in the footer.
///
/// # Errors
/// I/O errors, or columns of different lengths.
pub fn write_parquet(
    path: &Path,
    columns: &[Column<'_>],
    metadata: &[(&str, &str)],
) -> io::Result<()> {
    let file = std::fs::File::create(path)?;
    let mut sink = Sink {
        out: io::BufWriter::with_capacity(1 << 20, file),
        pos: 0,
    };
    write_to(&mut sink, columns, metadata)?;
    sink.out.flush()
}

fn write_to<W: Write>(
    sink: &mut Sink<W>,
    columns: &[Column<'_>],
    metadata: &[(&str, &str)],
) -> io::Result<()> {
    let rows = columns.first().map_or(0, |c| c.data.len());
    if columns.iter().any(|c| c.data.len() != rows) {
        return Err(io::Error::other("columns of different lengths"));
    }
    sink.write(b"PAR1")?;
    let mut chunks = Vec::with_capacity(columns.len());
    for c in columns {
        chunks.push(sink.column(&c.data)?);
    }
    let mut f = Thrift::default();
    f.i32(1, 1);
    f.list(2, T_STRUCT, columns.len() + 1);
    f.begin(None);
    f.binary(4, b"schema");
    f.i32(5, to_i32(columns.len())?);
    f.end();
    for c in columns {
        f.begin(None);
        f.i32(1, c.data.physical_type());
        let optional = matches!(c.data, ColumnData::OptF64(_));
        f.i32(3, i32::from(optional));
        f.binary(4, c.name.as_bytes());
        if let Some(t) = c.data.converted_type() {
            f.i32(6, t);
        }
        f.end();
    }
    f.i64(3, rows as i64);
    f.list(4, T_STRUCT, 1);
    f.begin(None);
    f.list(1, T_STRUCT, columns.len());
    for (c, m) in columns.iter().zip(&chunks) {
        f.begin(None);
        f.i64(2, m.offset as i64);
        f.begin(Some(3));
        f.i32(1, c.data.physical_type());
        f.list(2, T_I32, m.encodings.len());
        for &e in &m.encodings {
            varint(&mut f.buf, zigzag(i64::from(e)));
        }
        f.list(3, T_BINARY, 1);
        f.raw_binary(c.name.as_bytes());
        f.i32(4, 0);
        f.i64(5, rows as i64);
        f.i64(6, m.bytes as i64);
        f.i64(7, m.bytes as i64);
        f.i64(9, m.data_offset as i64);
        if let Some(d) = m.dictionary_offset {
            f.i64(11, d as i64);
        }
        f.end();
        f.end();
    }
    f.i64(2, chunks.iter().map(|m| m.bytes as i64).sum());
    f.i64(3, rows as i64);
    f.end();
    if !metadata.is_empty() {
        f.list(5, T_STRUCT, metadata.len());
        for (k, v) in metadata {
            f.begin(None);
            f.binary(1, k.as_bytes());
            f.binary(2, v.as_bytes());
            f.end();
        }
    }
    f.binary(6, concat!("ccsim ", env!("CARGO_PKG_VERSION")).as_bytes());
    f.buf.push(0);
    sink.write(&f.buf)?;
    sink.write(&(f.buf.len() as u32).to_le_bytes())?;
    sink.write(b"PAR1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thrift_compact_field_headers_follow_the_spec() {
        // Field 1 (delta 1) of type i32 holding 1: header 0x15, zigzag(1) = 2.
        let mut t = Thrift::default();
        t.i32(1, 1);
        assert_eq!(t.buf, [0x15, 0x02]);
        // A jump of 16 ids needs the long form: type byte, then the zigzag id.
        t.i64(17, -1);
        assert_eq!(t.buf[2..], [0x06, 34, 0x01]);
    }

    #[test]
    fn bit_packing_is_lsb_first_in_groups_of_eight() {
        // The Parquet spec's example: 0..7 at width 3 packs to 0x88 0xC6 0xFA.
        let mut out = Vec::new();
        bit_packed(&mut out, &[0, 1, 2, 3, 4, 5, 6, 7], 3);
        assert_eq!(out, [0x03, 0x88, 0xc6, 0xfa]);
    }
}
