//! Arrow columns in and out of `sudoku_bulk._native`, through the Arrow C
//! data interface (the PyCapsule protocol): a Python object exporting
//! `__arrow_c_array__` (a pyarrow `Array`, pyarrow 14 and later), a list of
//! them (a `ChunkedArray`'s chunks) or one exporting `__arrow_c_stream__`
//! (other Arrow libraries) is
//! imported by arrow-rs's `ffi` module as string arrays, read as the
//! library's [`Values`], and the answers go back as [`Exported`] arrays
//! that Python reads with `pa.array(...)`. No buffer is read by hand here.

use std::sync::Arc;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{make_array, Array, ArrayRef, GenericStringArray, OffsetSizeTrait};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::DataType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyList, PyTuple};

use sudoku_bulk::batch::{Packed, Values};

/// One imported string array.
enum Text {
    /// Arrow `string` (int32 offsets).
    Utf8(GenericStringArray<i32>),
    /// Arrow `large_string` (int64 offsets).
    Large(GenericStringArray<i64>),
}

/// A row's bytes from a string array, `None` when null. The offsets were
/// checked against the data by [`imported`]; a pair out of order reads as
/// null rather than panicking.
fn value<O: OffsetSizeTrait>(a: &GenericStringArray<O>, i: usize) -> Option<&[u8]> {
    if a.is_null(i) {
        return None;
    }
    let o = a.value_offsets();
    a.value_data().get(o[i].as_usize()..o[i + 1].as_usize())
}

/// The string column of a Python Arrow object: its chunks in order, read
/// row by row across them.
pub struct Column {
    chunks: Vec<Text>,
    /// Row where each chunk starts.
    starts: Vec<usize>,
    rows: usize,
}

impl Column {
    /// Rows of each chunk, in order.
    pub fn chunk_rows(&self) -> Vec<usize> {
        let mut ends: Vec<usize> = self.starts[1..].to_vec();
        ends.push(self.rows);
        ends.iter().zip(&self.starts).map(|(e, s)| e - s).collect()
    }

    /// True when the chunks are `large_string` (answers keep the width).
    pub fn large(&self) -> bool {
        self.chunks
            .first()
            .is_some_and(|c| matches!(c, Text::Large(_)))
    }
}

impl Values for Column {
    fn rows(&self) -> usize {
        self.rows
    }

    fn get(&self, row: usize) -> Option<&[u8]> {
        let k = self.starts.partition_point(|&s| s <= row) - 1;
        let i = row - self.starts[k];
        match &self.chunks[k] {
            Text::Utf8(a) => value(a, i),
            Text::Large(a) => value(a, i),
        }
    }
}

/// An imported array checked (buffer sizes, first and last offsets: O(1),
/// not a pass over the data) and typed as a string array.
fn imported(array: ArrayRef, what: &str) -> PyResult<Text> {
    array
        .to_data()
        .validate()
        .map_err(|e| PyValueError::new_err(format!("{what}: not a valid Arrow array: {e}")))?;
    match array.data_type() {
        DataType::Utf8 => Ok(Text::Utf8(
            array
                .as_any()
                .downcast_ref::<GenericStringArray<i32>>()
                .expect("Utf8")
                .clone(),
        )),
        DataType::LargeUtf8 => Ok(Text::Large(
            array
                .as_any()
                .downcast_ref::<GenericStringArray<i64>>()
                .expect("LargeUtf8")
                .clone(),
        )),
        other => Err(PyTypeError::new_err(format!(
            "{what}: expected an Arrow string or large_string array, not one of type {other}"
        ))),
    }
}

/// Imports one array exporting `__arrow_c_array__`.
fn import_array(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Text> {
    let (schema, array): (Bound<'_, PyCapsule>, Bound<'_, PyCapsule>) =
        obj.call_method0("__arrow_c_array__")?.extract()?;
    let schema_ptr = schema.pointer_checked(Some(c"arrow_schema"))?;
    let array_ptr = array.pointer_checked(Some(c"arrow_array"))?;
    // SAFETY: a capsule named "arrow_array" holds an ArrowArray struct (the
    // PyCapsule protocol); `from_raw` moves it out and leaves the capsule's
    // marked released, so the capsule's destructor frees nothing this array
    // still uses, and the array's own release callback runs once, when
    // arrow-rs drops its buffers.
    let ffi_array = unsafe { FFI_ArrowArray::from_raw(array_ptr.as_ptr().cast()) };
    // SAFETY: a capsule named "arrow_schema" holds an ArrowSchema struct,
    // alive as long as the capsule (`schema`, held to the end of this
    // function); it is only read.
    let ffi_schema = unsafe { &*(schema_ptr.as_ptr() as *const FFI_ArrowSchema) };
    // SAFETY: the producer promises buffers laid out as the schema says
    // (the C data interface); their sizes and offsets are checked in
    // `imported` before any row is read.
    let data = unsafe { from_ffi(ffi_array, ffi_schema) }.map_err(|e| {
        PyValueError::new_err(format!("{what}: cannot import the Arrow array: {e}"))
    })?;
    imported(make_array(data), what)
}

/// Imports `obj` as a string column: an array (`__arrow_c_array__`), a
/// list or tuple of them (the chunks of a pyarrow `ChunkedArray`, which
/// exports no stream before pyarrow 16), or a stream of them
/// (`__arrow_c_stream__`). `what` names it in messages (`puzzles`,
/// `solutions`).
pub fn import(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Column> {
    let mut chunks = Vec::new();
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        for chunk in obj.try_iter()? {
            chunks.push(import_array(&chunk?, what)?);
        }
    } else if obj.hasattr("__arrow_c_array__")? {
        chunks.push(import_array(obj, what)?);
    } else if obj.hasattr("__arrow_c_stream__")? {
        let stream = obj.call_method0("__arrow_c_stream__")?;
        let stream = stream.cast::<PyCapsule>()?;
        let ptr = stream.pointer_checked(Some(c"arrow_array_stream"))?;
        // SAFETY: a capsule named "arrow_array_stream" holds an
        // ArrowArrayStream struct; `from_raw` moves it out and leaves the
        // capsule's released, so the stream is released once, by the reader.
        let reader =
            unsafe { ArrayStreamReader::from_raw(ptr.as_ptr().cast::<FFI_ArrowArrayStream>()) }
                .map_err(|e| {
                    PyValueError::new_err(format!("{what}: cannot import the Arrow stream: {e}"))
                })?;
        for array in reader {
            let array = array.map_err(|e| {
                PyValueError::new_err(format!("{what}: cannot read the Arrow stream: {e}"))
            })?;
            chunks.push(imported(array, what)?);
        }
    } else {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected an Arrow array (an object with __arrow_c_array__ or \
             __arrow_c_stream__) or a list of them"
        )));
    }
    let mut starts = Vec::with_capacity(chunks.len());
    let mut rows = 0;
    for c in &chunks {
        starts.push(rows);
        rows += match c {
            Text::Utf8(a) => a.len(),
            Text::Large(a) => a.len(),
        };
    }
    Ok(Column {
        chunks,
        starts,
        rows,
    })
}

/// A string array for Python: exports itself through `__arrow_c_array__`,
/// so `pa.array(exported)` (or any Arrow library) takes it without a copy.
#[pyclass(frozen, module = "sudoku_bulk._native")]
pub struct Exported {
    array: ArrayRef,
}

#[pymethods]
impl Exported {
    /// The array as the capsule pair `(schema, array)` of the Arrow C data
    /// interface. `requested_schema` is ignored: the array has one type
    /// (the protocol allows that).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let (array, schema) = to_ffi(&self.array.to_data())
            .map_err(|e| PyValueError::new_err(format!("cannot export the answers: {e}")))?;
        // Each capsule owns its struct; its destructor drops it, which
        // calls the release callback unless the consumer moved it out.
        let schema = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
        let array = PyCapsule::new_with_value(py, array, c"arrow_array")?;
        Ok((schema, array))
    }

    fn __len__(&self) -> usize {
        self.array.len()
    }
}

/// One string array of `offsets` (one more than the rows) into `data`,
/// with `nulls` (true = null).
fn string_array<O: OffsetSizeTrait>(
    data: &Buffer,
    offsets: &[usize],
    nulls: Option<&[bool]>,
) -> PyResult<ArrayRef> {
    let base = offsets[0];
    let offsets: Vec<O> = offsets
        .iter()
        .map(|&e| O::from_usize(e - base))
        .collect::<Option<_>>()
        // One-line answers are no longer than the puzzles they replace (a
        // good row held at least its cells); numbers can be (a `0` blank
        // becomes `12`), hence the check.
        .ok_or_else(|| PyValueError::new_err("answers exceed 2 GiB: use large_string"))?;
    let end = offsets.last().map_or(0, |e| e.as_usize());
    let values = data.slice_with_length(base, end);
    let nulls = nulls.map(|n| NullBuffer::from(n.iter().map(|&null| !null).collect::<Vec<bool>>()));
    let array = GenericStringArray::<O>::try_new(
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        values,
        nulls,
    )
    .map_err(|e| PyValueError::new_err(format!("cannot build the answers: {e}")))?;
    Ok(Arc::new(array))
}

/// The answers as string arrays of the input's width (`large`), one per
/// input chunk (`chunk_rows` rows each), the text moved, not copied.
pub fn export(texts: Packed, large: bool, chunk_rows: &[usize]) -> PyResult<Vec<Exported>> {
    let (data, offsets, nulls) = texts.into_parts();
    let data = Buffer::from_vec(data);
    let mut out = Vec::with_capacity(chunk_rows.len());
    let mut start = 0;
    for &rows in chunk_rows {
        let o = &offsets[start..=start + rows];
        let n = nulls.as_ref().map(|n| &n[start..start + rows]);
        let array = if large {
            string_array::<i64>(&data, o, n)?
        } else {
            string_array::<i32>(&data, o, n)?
        };
        out.push(Exported { array });
        start += rows;
    }
    Ok(out)
}
