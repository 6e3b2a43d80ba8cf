//! Whole tables in and out, for the commands that move rows rather than
//! answer them: `dedupe`'s and `split`'s copy passes, `convert`, and
//! `generate -o x.parquet`. [`open`] reads a Parquet or Arrow IPC input's
//! schema and batches with what its writers need to keep (Parquet: the
//! input's codecs and writer properties; Arrow: its body compression);
//! [`Writers`] writes batches to one or more outputs of one kind and
//! finishes them. The table engine (`table.rs`) answers rows through the
//! same format modules.
//!
//! ```text
//! input bytes ──open──> schema + batches (+ props, codec)
//!                         ──(caller: filter, route, build)──> Writers ──> N outputs
//! ```

use std::io::Write;

use arrow_array::RecordBatch;
use arrow_ipc::CompressionType;
use arrow_schema::SchemaRef;
use parquet::file::properties::WriterProperties;

use super::batches::{Batches, SendWriter};
use super::{Data, Kind, TableCodec};

/// The one place a table output's codecs are settled, for every command
/// that writes a table: the Parquet writer properties and the Arrow IPC
/// body compression the caller found in its input (`props`, `ipc`), unless
/// the user chose a codec (`--compression`), which then holds for every
/// column of `schema` (the output's). A Parquet output without input
/// properties starts from [`super::parquet::default_props`]. Snappy and
/// gzip have no Arrow IPC form: asked for there, an error before any
/// output is made.
pub fn codecs(
    choice: Option<TableCodec>,
    kind: Kind,
    schema: &arrow_schema::Schema,
    props: Option<WriterProperties>,
    ipc: Option<CompressionType>,
) -> anyhow::Result<(Option<WriterProperties>, Option<CompressionType>)> {
    use parquet::basic::Compression;
    let Some(choice) = choice else {
        return Ok((props, ipc));
    };
    match kind {
        Kind::Parquet => {
            let codec = match choice {
                TableCodec::None => Compression::UNCOMPRESSED,
                TableCodec::Snappy => Compression::SNAPPY,
                TableCodec::Zstd => Compression::ZSTD(Default::default()),
                TableCodec::Gzip => Compression::GZIP(Default::default()),
                TableCodec::Lz4 => Compression::LZ4_RAW,
            };
            let base = props.unwrap_or_else(|| super::parquet::default_props(ipc));
            // Column settings copied from the input win over the default:
            // each leaf of the output gets the codec by its path.
            let mut b = base.into_builder().set_compression(codec);
            let descr = parquet::arrow::ArrowSchemaConverter::new().convert(schema)?;
            for c in descr.columns() {
                b = b.set_column_compression(c.path().clone(), codec);
            }
            Ok((Some(b.build()), ipc))
        }
        Kind::ArrowFile | Kind::ArrowStream => {
            let ipc = match choice {
                TableCodec::None => None,
                TableCodec::Zstd => Some(CompressionType::ZSTD),
                TableCodec::Lz4 => Some(CompressionType::LZ4_FRAME),
                TableCodec::Snappy | TableCodec::Gzip => anyhow::bail!(
                    "--compression {}: Arrow IPC bodies are compressed with zstd or lz4 (or none); \
                     {} is for Parquet",
                    choice.name(),
                    choice.name()
                ),
            };
            Ok((props, ipc))
        }
        Kind::Npy => anyhow::bail!(
            "--compression {} applies to Parquet and Arrow outputs, not to a .npy array",
            choice.name()
        ),
    }
}

/// An opened table input.
pub struct Table<'a> {
    /// Its Arrow schema.
    pub schema: SchemaRef,
    /// Its batches, in order, each marked when it ends a Parquet row group.
    pub batches: Batches<'a>,
    /// Parquet input: writer properties that keep its codecs and row-group
    /// size; `None` for Arrow IPC.
    pub props: Option<WriterProperties>,
    /// Arrow IPC input: the body compression of its first record batch.
    pub codec: Option<CompressionType>,
}

/// Opens a Parquet or Arrow IPC (file or stream) input.
pub fn open<'a>(name: &str, kind: Kind, data: Data<'a>) -> anyhow::Result<Table<'a>> {
    let codec = match kind {
        Kind::Parquet => None,
        _ => data.whole().and_then(super::ipc::compression),
    };
    Ok(match kind {
        Kind::Parquet => {
            let (schema, batches, props, _) = super::parquet::open(name, data)?;
            Table {
                schema,
                batches,
                props: Some(props),
                codec,
            }
        }
        _ => {
            let (schema, batches) = super::ipc::open(name, kind, data)?;
            Table {
                schema,
                batches,
                props: None,
                codec,
            }
        }
    })
}

enum W<'o> {
    Parquet(Box<parquet::arrow::ArrowWriter<SendWriter<'o>>>),
    File(arrow_ipc::writer::FileWriter<&'o mut dyn Write>),
    Stream(arrow_ipc::writer::StreamWriter<&'o mut dyn Write>),
}

/// Writers of one table kind on N outputs, all with one schema.
pub struct Writers<'o> {
    ws: Vec<W<'o>>,
}

impl<'o> Writers<'o> {
    /// A writer of `kind` on each of `outs`: Parquet with `props` (the
    /// crate's defaults when `None`), Arrow IPC with body compression
    /// `codec`, unless `choice` (`--compression`) says otherwise (see
    /// [`codecs`]). Making a writer writes its magic or schema.
    pub fn new(
        kind: Kind,
        outs: impl IntoIterator<Item = &'o mut dyn Write>,
        schema: &SchemaRef,
        props: Option<&WriterProperties>,
        codec: Option<CompressionType>,
        choice: Option<TableCodec>,
    ) -> anyhow::Result<Writers<'o>> {
        let (props, codec) = codecs(choice, kind, schema, props.cloned(), codec)?;
        let props = props.as_ref();
        let mut ws = Vec::new();
        for out in outs {
            ws.push(match kind {
                Kind::Parquet => W::Parquet(Box::new(parquet::arrow::ArrowWriter::try_new(
                    SendWriter(out),
                    schema.clone(),
                    props.cloned(),
                )?)),
                Kind::ArrowFile => W::File(super::ipc::file_writer(out, schema, codec)?),
                Kind::ArrowStream => W::Stream(super::ipc::stream_writer(out, schema, codec)?),
                Kind::Npy => anyhow::bail!("a .npy array is not written as a table"),
            });
        }
        Ok(Writers { ws })
    }

    /// Writes `batch` to output `k`.
    pub fn write(&mut self, k: usize, batch: &RecordBatch) -> anyhow::Result<()> {
        match &mut self.ws[k] {
            W::Parquet(p) => p.write(batch)?,
            W::File(f) => f.write(batch)?,
            W::Stream(s) => s.write(batch)?,
        }
        Ok(())
    }

    /// Ends the row group being written to output `k` (Parquet; a no-op
    /// for Arrow IPC), so the output keeps the input's groups.
    pub fn end_group(&mut self, k: usize) -> anyhow::Result<()> {
        if let W::Parquet(p) = &mut self.ws[k] {
            p.flush()?;
        }
        Ok(())
    }

    /// Finishes every output (footers, end-of-stream marks).
    pub fn finish(self) -> anyhow::Result<()> {
        for w in self.ws {
            match w {
                W::Parquet(p) => {
                    p.close()?;
                }
                W::File(mut f) => f.finish()?,
                W::Stream(mut s) => s.finish()?,
            }
        }
        Ok(())
    }
}
