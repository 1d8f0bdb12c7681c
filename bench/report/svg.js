'use strict';
/** A bar chart of each scenario's ratio against its target, as a standalone SVG (no scripts, no fonts to load). */

const ROW = 34;
const LEFT = 290;
const WIDTH = 760;
const CHART = WIDTH - LEFT - 80;

function escape(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function barChart(results, caption) {
  const rows = results.filter((r) => !r.error);
  const max = Math.max(1.5, ...rows.map((r) => Math.max(r.ratio, r.target.stretch ?? r.target.value)));
  const x = (value) => LEFT + (Math.min(value, max) / max) * CHART;
  const height = 70 + rows.length * ROW + 40;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="16" y="26" font-size="16" font-weight="bold">Benchmark ratios against references measured in the same run</text>`,
    `<text x="16" y="46" fill="#555">${escape(caption)}</text>`,
  ];
  rows.forEach((r, i) => {
    const y = 64 + i * ROW;
    const colour = r.met ? '#2e7d32' : '#c62828';
    const sense = r.target.comparison === '<=' ? 'lower is better' : 'higher is better';
    parts.push(
      `<text x="16" y="${y + 18}">${escape(r.title)}</text>`,
      `<text x="16" y="${y + 30}" font-size="10" fill="#777">${escape(`${r.unit}; ${sense}`)}</text>`,
      `<rect x="${LEFT}" y="${y + 6}" width="${Math.max(1, x(r.ratio) - LEFT).toFixed(1)}" height="18" fill="${colour}" opacity="0.85"/>`,
      `<line x1="${x(r.target.value).toFixed(1)}" y1="${y + 2}" x2="${x(r.target.value).toFixed(1)}" y2="${y + 28}" stroke="#000" stroke-width="2"/>`,
      `<text x="${(Math.max(x(r.ratio), x(r.target.value)) + 6).toFixed(1)}" y="${y + 20}" font-weight="bold">${r.ratio}</text>`,
      `<text x="${(x(r.target.value) + 3).toFixed(1)}" y="${y + 4}" font-size="10" fill="#000">${escape(`${r.target.comparison} ${r.target.value}`)}</text>`,
    );
  });
  const axisY = 64 + rows.length * ROW + 8;
  parts.push(`<line x1="${LEFT}" y1="${axisY}" x2="${LEFT + CHART}" y2="${axisY}" stroke="#999"/>`);
  for (let tick = 0; tick <= max + 1e-9; tick += 0.5) {
    parts.push(
      `<line x1="${x(tick).toFixed(1)}" y1="${axisY}" x2="${x(tick).toFixed(1)}" y2="${axisY + 5}" stroke="#999"/>`,
      `<text x="${x(tick).toFixed(1)}" y="${axisY + 18}" text-anchor="middle" fill="#555">${tick}</text>`,
    );
  }
  parts.push(`<text x="16" y="${axisY + 18}" font-size="11" fill="#555">ratio ours / reference; black line: target</text>`, '</svg>');
  return `${parts.join('\n')}\n`;
}

module.exports = { barChart };
