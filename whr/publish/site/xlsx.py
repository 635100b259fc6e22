"""A table as an XLSX workbook of one sheet (Office Open XML, ECMA-376), written column by
column with Arrow's string kernels: the cells of a column are made in one call each, the rows
joined in one more, and the sheet's XML is the bytes of that last array. No Python call per
cell, so a sheet of a million cells takes a fraction of a second (XlsxWriter's cell by cell
writing took 5 to 6 s for the two tables of a RIF-sized list).

The package holds the parts a spreadsheet needs and no more, as XlsxWriter writes them: the
content types, the relationships, the workbook (one sheet, its filter range as the hidden name
``_xlnm._FilterDatabase``), the styles (bold for the header, ``yyyy-mm-dd`` for dates), the
document's core properties (its creation time) and the sheet: its header row frozen with a
filter; the texts of the cells, each once, in the shared strings (``t="s"``): never read as a
number, a date or a formula. Characters XML cannot hold (control characters) are written as ``_xHHHH_``, and an
underscore that would begin such an escape as ``_x005F_``, as spreadsheets read them back.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["workbook"]

_PACKAGE = "http://schemas.openxmlformats.org/package/2006"
_OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006"
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
_TYPE = "application/vnd.openxmlformats-officedocument."

CONTENT_TYPES = (
    f'{_HEAD}<Types xmlns="{_PACKAGE}/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/docProps/core.xml" '
    'ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
    f'<Override PartName="/xl/styles.xml" ContentType="{_TYPE}spreadsheetml.styles+xml"/>'
    f'<Override PartName="/xl/workbook.xml" ContentType="{_TYPE}spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    f'ContentType="{_TYPE}spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" '
    f'ContentType="{_TYPE}spreadsheetml.sharedStrings+xml"/></Types>'
)
RELS = (
    f'{_HEAD}<Relationships xmlns="{_PACKAGE}/relationships">'
    f'<Relationship Id="rId1" Type="{_OFFICE}/relationships/officeDocument" '
    'Target="xl/workbook.xml"/>'
    f'<Relationship Id="rId2" Type="{_PACKAGE}/relationships/metadata/core-properties" '
    'Target="docProps/core.xml"/></Relationships>'
)
WORKBOOK_RELS = (
    f'{_HEAD}<Relationships xmlns="{_PACKAGE}/relationships">'
    f'<Relationship Id="rId1" Type="{_OFFICE}/relationships/worksheet" '
    'Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{_OFFICE}/relationships/styles" Target="styles.xml"/>'
    f'<Relationship Id="rId3" Type="{_OFFICE}/relationships/sharedStrings" '
    'Target="sharedStrings.xml"/></Relationships>'
)
# cell formats: 0 plain, 1 bold (the header), 2 a date
STYLES = (
    f'{_HEAD}<styleSheet xmlns="{_MAIN}">'
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>'
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
    '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/>'
    "</cellStyles></styleSheet>"
)

_EXCEL_EPOCH = 25569  # days from Excel's day 0 (1899-12-30) to 1970-01-01
_FIRST_TRUE_SERIAL = 61  # 1900-03-01: before it, Excel counts a 29 February 1900 that was not
# characters XML 1.0 cannot hold (and U+FFFE, U+FFFF), and an underscore that would read as an
# escape: written as _xHHHH_
_UNSAFE_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)")
_UNSAFE = r"[\x00-\x08\x0b\x0c\x0e-\x1f\x{FFFE}\x{FFFF}]|_x[0-9A-Fa-f]{4}_"  # (RE2's syntax)


def _column_name(index: int) -> str:
    """``A``, ``B``, ..., ``Z``, ``AA``, ... for the 0-based column ``index``."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


# Arrow arrays are typed Any here: pyarrow-stubs' overloads of the string kernels do not
# cover an array and a scalar text together
Array = Any
_EMPTY = pa.scalar("", pa.string())
_FALSE = pa.scalar(False)
_ZERO = pa.scalar(0, pa.int32())


def _join(*parts: Array) -> Array:
    """Arrow's element-wise join of ``parts`` (arrays of one length): null where one is."""
    return pc.binary_join_element_wise(*parts, _EMPTY)


def _escape_unsafe(text: str) -> str:
    return _UNSAFE_RE.sub(lambda m: f"_x{ord(m.group()):04X}_", text)


def _text(values: Array) -> Array:
    """Text as the content of an XML element: ``&``, ``<``, ``>`` escaped, unsafe characters
    as ``_xHHHH_`` (a Python pass over the few values that have one)."""
    values = pc.cast(values, pa.string())
    for old, new in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")):
        values = pc.replace_substring(values, old, new)
    unsafe: Array = pc.fill_null(pc.match_substring_regex(values, _UNSAFE), _FALSE)
    if pc.any(unsafe).as_py():
        texts = values.to_pylist()
        for i in np.flatnonzero(unsafe.to_numpy(zero_copy_only=False)).tolist():
            texts[i] = _escape_unsafe(texts[i])
        values = pa.array(texts, pa.string())
    return values


class _Repeated(dict[str, Array]):
    """A text repeated once per row, as an array, made once (Arrow's element-wise join is
    many times slower with a scalar among its arguments than with an array)."""

    def __init__(self, rows: int) -> None:
        super().__init__()
        self.zeros: Array = pa.array(np.zeros(rows, np.int32))

    def __missing__(self, text: str) -> Array:
        value = pa.array([text], pa.string()).take(self.zeros)
        self[text] = value
        return value


def _cells(column: Array, letter: str, rows: Array, repeated: _Repeated) -> Array:
    """The ``<c>`` elements of one column (an empty string for a missing value); a text
    column is given as its indices into the shared strings."""
    kind = column.type
    if pa.types.is_dictionary(kind):
        style, value = '" t="s"><v>', pc.cast(column.indices, pa.string())
    elif pa.types.is_boolean(kind):
        style, value = '" t="b"><v>', pc.cast(pc.cast(column, pa.int8()), pa.string())
    elif pa.types.is_integer(kind):
        style, value = '"><v>', pc.cast(column, pa.string())
    elif pa.types.is_floating(kind):  # NaN and infinities: an empty cell, as in the CSV
        finite = pc.if_else(pc.is_finite(column), column, pa.scalar(None, kind))
        style, value = '"><v>', pc.cast(finite, pa.string())
    elif pa.types.is_date(kind):
        valid = pc.is_valid(column)
        days: Array = pc.fill_null(pc.cast(pc.cast(column, pa.date32()), pa.int32()), _ZERO)
        serial = days.to_numpy(zero_copy_only=False).astype(np.int64) + _EXCEL_EPOCH
        serial = np.where(serial < _FIRST_TRUE_SERIAL, serial - 1, serial)
        if pc.any(pc.and_(valid, pa.array(serial < 1))).as_py():
            raise ValueError(f"a date before 1900 cannot be an XLSX date: {pc.min(column)}")
        text = pc.cast(pa.array(serial), pa.string())
        style, value = '" s="2"><v>', pc.if_else(valid, text, pa.scalar(None, pa.string()))
    else:
        raise TypeError(f"no XLSX cell for the type {kind}")
    cells = _join(repeated[f'<c r="{letter}'], rows, repeated[style], value, repeated["</v></c>"])
    return pc.fill_null(cells, _EMPTY)


def _shared(table: pa.Table) -> tuple[list[Array], bytes]:
    """The columns of ``table``, each text column as indices into one table of shared strings
    (its distinct texts, in order of first appearance, column by column; an empty text is an
    empty cell), and that table's XML."""
    columns = [_array(c) for c in table.columns]
    texts = [
        i
        for i, c in enumerate(columns)
        if pa.types.is_string(c.type) or pa.types.is_large_string(c.type)
    ]
    every: Array = pa.concat_arrays(
        [pc.cast(columns[i], pa.string()) for i in texts] or [pa.array([], pa.string())]
    )
    every = pc.if_else(pc.equal(every, _EMPTY), pa.scalar(None, pa.string()), every)
    coded: Array = pc.dictionary_encode(every)
    at = 0
    for i in texts:
        n = len(columns[i])
        columns[i] = coded.slice(at, n)
        at += n
    unique = coded.dictionary
    repeated = _Repeated(len(unique))
    items = _join(repeated['<si><t xml:space="preserve">'], _text(unique), repeated["</t></si>"])
    xml = (
        f'{_HEAD}<sst xmlns="{_MAIN}" count="{len(every) - every.null_count}" '
        f'uniqueCount="{len(unique)}">'
    )
    return columns, xml.encode() + _data(items) + b"</sst>"


def _data(strings: Array) -> bytes:
    """The texts of a string array one after another (its data buffer, without copies of
    each)."""
    if not len(strings):
        return b""
    _, offsets_buffer, data = strings.buffers()
    width = np.int64 if pa.types.is_large_string(strings.type) else np.int32
    offsets = np.frombuffer(
        offsets_buffer, width, len(strings) + 1, strings.offset * np.dtype(width).itemsize
    )
    return bytes(data.to_pybytes()[offsets[0] : offsets[-1]])


def _sheet(table: pa.Table, columns: list[Array]) -> bytes:
    """The worksheet's XML: the header row, bold and frozen, a filter over it, then a row per
    row of ``table`` (its ``columns`` as :func:`_shared` gives them)."""
    n, width = table.num_rows, table.num_columns
    letters = [_column_name(i) for i in range(width)]
    last = f"{letters[-1]}{max(n, 1) + 1}"
    header = "".join(
        f'<c r="{letter}1" s="1" t="inlineStr"><is><t xml:space="preserve">'
        f"{_escape_text(name)}</t></is></c>"
        for letter, name in zip(letters, table.column_names, strict=True)
    )
    head = (
        f'{_HEAD}<worksheet xmlns="{_MAIN}" xmlns:r="{_OFFICE}/relationships">'
        f'<dimension ref="A1:{last}"/><sheetViews><sheetView tabSelected="1" workbookViewId="0">'
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
        '<selection pane="bottomLeft"/></sheetView></sheetViews>'
        f'<sheetFormatPr defaultRowHeight="15"/><sheetData><row r="1">{header}</row>'
    )
    tail = f'</sheetData><autoFilter ref="A1:{last}"/></worksheet>'
    if not n:
        return (head + tail).encode("utf-8")
    rows = pc.cast(pa.array(np.arange(2, n + 2, dtype=np.int64)), pa.string())
    repeated = _Repeated(n)
    cells = [_cells(columns[i], letters[i], rows, repeated) for i in range(width)]
    joined = _join(repeated['<row r="'], rows, repeated['">'], *cells, repeated["</row>"])
    return head.encode("utf-8") + _data(joined) + tail.encode("utf-8")


def _array(column: Array) -> Array:
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


def _escape_text(text: str) -> str:
    return _escape_unsafe(escape(text))


def workbook(table: pa.Table, sheet: str, created: dt.date) -> bytes:
    """``table`` as the bytes of an XLSX workbook of one sheet named ``sheet``.

    Columns of text, booleans, integers, floating point numbers (written in their shortest
    exact form; NaN and infinities as empty cells) and dates (``yyyy-mm-dd``, from 1900 on);
    a null is an empty cell. ``created`` is the document's creation time and every part's date
    in the archive, so the same table gives the same bytes.
    """
    if not table.num_columns:
        raise ValueError("a sheet needs at least one column")
    if not 0 < len(sheet) <= 31 or any(c in sheet for c in "[]:*?/\\'"):
        raise ValueError(f"not a sheet name: {sheet!r}")
    last = f"${_column_name(table.num_columns - 1)}${max(table.num_rows, 1) + 1}"
    book = (
        f'{_HEAD}<workbook xmlns="{_MAIN}" xmlns:r="{_OFFICE}/relationships"><bookViews>'
        f'<workbookView/></bookViews><sheets><sheet name={quoteattr(sheet)} sheetId="1" '
        'r:id="rId1"/></sheets><definedNames><definedName name="_xlnm._FilterDatabase" '
        f'localSheetId="0" hidden="1">{escape(sheet)}!$A$1:{last}</definedName></definedNames>'
        "</workbook>"
    )
    stamp = f"{created.isoformat()}T00:00:00Z"
    core = (
        f'{_HEAD}<cp:coreProperties xmlns:cp="{_PACKAGE}/metadata/core-properties" '
        'xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{stamp}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp}</dcterms:modified>'
        "</cp:coreProperties>"
    )
    parts: list[tuple[str, bytes]] = [
        ("[Content_Types].xml", CONTENT_TYPES.encode()),
        ("_rels/.rels", RELS.encode()),
        ("docProps/core.xml", core.encode()),
        ("xl/workbook.xml", book.encode()),
        ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS.encode()),
        ("xl/styles.xml", STYLES.encode()),
    ]
    columns, shared = _shared(table)
    parts.append(("xl/worksheets/sheet1.xml", _sheet(table, columns)))
    parts.append(("xl/sharedStrings.xml", shared))
    out = io.BytesIO()
    when = (max(created.year, 1980), created.month, created.day, 0, 0, 0)
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in parts:
            info = zipfile.ZipInfo(name, date_time=when)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=1)
    return out.getvalue()
