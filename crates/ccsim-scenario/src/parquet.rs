//! The output tables as Apache Parquet files, written with the Apache Arrow project's
//! `parquet` crate (its low-level column writers, without Arrow). Writing them natively keeps
//! `ccsim run` free of pyarrow, whose import alone takes longer than a small run.
//!
//! One row group, flat columns; name columns of long tables (`entity`, `variable`) are
//! dictionary-encoded by the writer, nullable numbers carry definition levels.
//! CHOICE: no compression and no column statistics. The tables are numbers and names; a
//! codec would add build time to every install for perhaps a third of the bytes, and a
//! reader that wants smaller files can rewrite them.

use std::io;
use std::path::Path;
use std::sync::Arc;

use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

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
}

/// A named column.
pub struct Column<'a> {
    /// Column name.
    pub name: &'a str,
    /// Its values.
    pub data: ColumnData<'a>,
}

impl Column<'_> {
    fn schema(&self) -> parquet::errors::Result<Type> {
        let (physical, logical) = match self.data {
            ColumnData::F64(_) | ColumnData::OptF64(_) => (PhysicalType::DOUBLE, None),
            ColumnData::U64(_) => (PhysicalType::INT64, None),
            ColumnData::U32(_) => (
                PhysicalType::INT32,
                Some(LogicalType::Integer {
                    bit_width: 32,
                    is_signed: false,
                }),
            ),
            ColumnData::Bool(_) => (PhysicalType::BOOLEAN, None),
            ColumnData::Str(_) | ColumnData::Dict { .. } => {
                (PhysicalType::BYTE_ARRAY, Some(LogicalType::String))
            }
        };
        let repetition = if matches!(self.data, ColumnData::OptF64(_)) {
            Repetition::OPTIONAL
        } else {
            Repetition::REQUIRED
        };
        Type::primitive_type_builder(self.name, physical)
            .with_repetition(repetition)
            .with_logical_type(logical)
            .build()
    }
}

/// Rows per data page.
const PAGE_ROWS: usize = 1 << 16;

fn to_io(e: parquet::errors::ParquetError) -> io::Error {
    io::Error::other(e.to_string())
}

fn byte_array(s: &str) -> ByteArray {
    ByteArray::from(s.as_bytes().to_vec())
}

fn write_column(writer: &mut ColumnWriter<'_>, data: &ColumnData<'_>) -> io::Result<()> {
    let written = match (writer, data) {
        (ColumnWriter::DoubleColumnWriter(w), ColumnData::F64(v)) => w.write_batch(v, None, None),
        (ColumnWriter::DoubleColumnWriter(w), ColumnData::OptF64(v)) => {
            let levels: Vec<i16> = v.iter().map(|x| i16::from(x.is_some())).collect();
            let present: Vec<f64> = v.iter().flatten().copied().collect();
            w.write_batch(&present, Some(&levels), None)
        }
        (ColumnWriter::Int64ColumnWriter(w), ColumnData::U64(v)) => {
            let signed: Vec<i64> = v
                .iter()
                .map(|&x| i64::try_from(x).unwrap_or(i64::MAX))
                .collect();
            w.write_batch(&signed, None, None)
        }
        (ColumnWriter::Int32ColumnWriter(w), ColumnData::U32(v)) => {
            // UINT_32 is stored in INT32's bits (the Parquet logical-type rules).
            let bits: Vec<i32> = v.iter().map(|&x| x as i32).collect();
            w.write_batch(&bits, None, None)
        }
        (ColumnWriter::BoolColumnWriter(w), ColumnData::Bool(v)) => w.write_batch(v, None, None),
        (ColumnWriter::ByteArrayColumnWriter(w), ColumnData::Str(v)) => {
            let values: Vec<ByteArray> = v.iter().map(|s| byte_array(s)).collect();
            w.write_batch(&values, None, None)
        }
        (ColumnWriter::ByteArrayColumnWriter(w), ColumnData::Dict { values, keys }) => {
            let dictionary: Vec<ByteArray> = values.iter().map(|s| byte_array(s)).collect();
            let mut written = Ok(0);
            for chunk in keys.chunks(PAGE_ROWS) {
                let rows: Vec<ByteArray> = chunk
                    .iter()
                    .map(|&k| dictionary[k as usize].clone())
                    .collect();
                written = w.write_batch(&rows, None, None);
                if written.is_err() {
                    break;
                }
            }
            written
        }
        _ => return Err(io::Error::other("column writer of another type")),
    };
    written.map(|_| ()).map_err(to_io)
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
    let rows = columns.first().map_or(0, |c| c.data.len());
    if columns.iter().any(|c| c.data.len() != rows) {
        return Err(io::Error::other("columns of different lengths"));
    }
    let fields = columns
        .iter()
        .map(|c| c.schema().map(Arc::new))
        .collect::<Result<Vec<_>, _>>()
        .map_err(to_io)?;
    let schema = Type::group_type_builder("schema")
        .with_fields(fields)
        .build()
        .map_err(to_io)?;
    let key_values = (!metadata.is_empty()).then(|| {
        metadata
            .iter()
            .map(|(k, v)| KeyValue::new((*k).to_string(), (*v).to_string()))
            .collect()
    });
    let properties = WriterProperties::builder()
        .set_created_by(concat!("ccsim ", env!("CARGO_PKG_VERSION")).to_string())
        .set_key_value_metadata(key_values)
        .set_statistics_enabled(EnabledStatistics::None)
        .set_data_page_row_count_limit(PAGE_ROWS)
        .set_max_row_group_size(rows.max(1))
        .build();
    let file = io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    let mut writer =
        SerializedFileWriter::new(file, Arc::new(schema), Arc::new(properties)).map_err(to_io)?;
    let mut group = writer.next_row_group().map_err(to_io)?;
    for c in columns {
        let mut column = group
            .next_column()
            .map_err(to_io)?
            .ok_or_else(|| io::Error::other("fewer columns in the schema"))?;
        write_column(column.untyped(), &c.data)?;
        column.close().map_err(to_io)?;
    }
    group.close().map_err(to_io)?;
    writer.close().map_err(to_io)?;
    Ok(())
}
