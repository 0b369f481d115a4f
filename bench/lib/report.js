// Printing: a plain-text results table (fixed-width columns) and number formatting.
'use strict';

function fmtRate(value) {
  if (value === null || value === undefined) return '-';
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
}

function fmtMs(value) {
  if (value === null || value === undefined) return '-';
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(value >= 10 ? 1 : 2)} ms`;
}

function fmtPct(value) {
  return value === null || value === undefined || !Number.isFinite(value)
    ? '-'
    : `${Math.round(value * 100)}%`;
}

/**
 * Prints `rows` (arrays of cells) under `headers`, columns padded to their widest cell; the
 * first column left-aligned, the others right-aligned.
 */
function printTable(headers, rows, out = process.stdout) {
  const widths = headers.map((h, i) =>
    Math.max(String(h).length, ...rows.map((r) => String(r[i] ?? '').length)),
  );
  const line = (cells) =>
    cells
      .map((c, i) =>
        i === 0 ? String(c ?? '').padEnd(widths[i]) : String(c ?? '').padStart(widths[i]),
      )
      .join('  ')
      .trimEnd();
  out.write(`${line(headers)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows) out.write(`${line(row)}\n`);
}

/** Progress lines go to stderr so stdout holds only results. */
function progress(message) {
  process.stderr.write(`${message}\n`);
}

module.exports = { fmtRate, fmtMs, fmtPct, printTable, progress };
