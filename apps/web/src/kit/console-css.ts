/** The one stylesheet of the dashboard and the audit console: system fonts, no images, no external assets. */
export const CONSOLE_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4f5864; --line: #d5dbe3; --bg: #f4f6f8; --card: #fff;
  --accent: #0b6e4f; --accent-ink: #fff; --bad: #a61b12; --warn: #7a4d00; --focus: #f5b400; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; }
header.top { background: #11302a; color: #fff; }
header.top .bar { max-width: 72rem; margin: 0 auto; padding: .6rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; }
header.top .brand { font-weight: 700; color: #fff; text-decoration: none; margin-right: auto; }
header.top nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem .9rem; }
header.top nav a { color: #fff; text-decoration: none; padding: .25rem 0; border-bottom: 2px solid transparent; }
header.top nav a[aria-current="page"] { border-bottom-color: #7fd1b3; }
header.top form { margin: 0; }
header.top .who { color: #cfe3dc; font-size: .9rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
main.narrow { max-width: 28rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem; margin: 0 0 1rem; }
/* A card's heading starts the card: no band of h2 margin above it. */
.card > h2:first-child, .card > h1:first-child { margin-top: 0; }
/* A form above facts or a table leaves them room. */
form.filters { margin-bottom: 1rem; }
.muted { color: var(--muted); }
.notice { padding: .75rem 1rem; border-radius: 8px; background: #e6f4ee; border: 1px solid #9ccfb9; margin: 0 0 1rem; }
.notice.bad { background: #fdecea; border-color: #f1a9a2; color: var(--bad); }
.notice.warn { background: #fff4dc; border-color: #e8c277; color: var(--warn); }
/* The dashboard's mode, above each page: a warning-coloured banner in test mode, the switch beside it. */
.mode-bar { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; margin: 0 0 1rem; }
.mode-bar p, .mode-bar form { margin: 0; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; background: var(--card); font-size: .95rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0 .5rem; }
th, td { padding: .5rem .6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: #eef1f4; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.status { display: inline-block; padding: 0 .45rem; border-radius: 999px; border: 1px solid var(--line); background: #f0f3f6; font-size: .85rem; font-weight: 600; white-space: nowrap; }
form.inline { display: inline; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; }
.filters > div { display: flex; flex-direction: column; min-width: 10rem; flex: 1 1 10rem; }
label { font-weight: 600; margin: .5rem 0 .25rem; display: block; }
.filters label { margin-top: 0; }
/* A form's groups (the onboarding page's): a card with its legend as the heading. */
fieldset.card legend { font-weight: 700; font-size: 1.15rem; padding: 0 .25rem; }
/* A refused field: its message above it, and the field marked by more than colour. */
.field-error { color: var(--bad); font-weight: 600; margin: .25rem 0; }
input[aria-invalid="true"] { border: 2px solid var(--bad); }
input, select, textarea { font: inherit; padding: .55rem .6rem; border: 1px solid #7a838f; border-radius: 6px; background: #fff; color: var(--ink); width: 100%; }
button, .button { display: inline-block; font: inherit; font-weight: 600; padding: .55rem 1rem; border-radius: 6px; border: 1px solid var(--accent);
  background: var(--accent); color: var(--accent-ink); cursor: pointer; text-decoration: none; line-height: 1.5; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
header.top button { background: transparent; border-color: #7fd1b3; color: #fff; padding: .25rem .75rem; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9rem; }
pre { background: #0f1b17; color: #e8f3ee; padding: 1rem; border-radius: 8px; overflow-x: auto; }
.secret { display: block; padding: .6rem; background: #fff8e0; border: 1px dashed #c99a2e; border-radius: 6px; overflow-wrap: anywhere; font-size: 1rem; }
ol.timeline { list-style: none; margin: 0; padding: 0; border-left: 3px solid var(--line); }
ol.timeline li { margin: 0 0 .75rem; padding: 0 0 0 1rem; position: relative; }
ol.timeline li::before { content: ""; position: absolute; left: -.55rem; top: .45rem; width: .8rem; height: .8rem; border-radius: 50%; background: var(--accent); }
ol.timeline li.current::before { background: var(--focus); }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
/* The one figure a section is about (the money available to pay out). */
p.amount { font-size: 1.6rem; font-weight: 700; margin: 0 0 .25rem; font-variant-numeric: tabular-nums; }
details summary { cursor: pointer; }
/* The overview's bar chart (apps/web/src/dashboard/overview/activity-chart.ts): volume in the accent, payouts in blue, both past 3:1 against the card. */
.chart-figure { margin: 0 0 .5rem; }
svg.chart { display: block; width: 100%; height: auto; }
svg.chart .volume, .legend.volume { fill: var(--accent); background: var(--accent); }
svg.chart .payouts, .legend.payouts { fill: #2457a6; background: #2457a6; }
svg.chart .axis { stroke: var(--muted); }
svg.chart text { fill: var(--muted); font-size: 12px; }
ul.plain { list-style: none; margin: .25rem 0 0; padding: 0; }
.legend { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; vertical-align: middle; }
@media (max-width: 40rem) {
  h1 { font-size: 1.25rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: .4rem; }
  th, td { padding: .45rem .4rem; }
  /* Wide tables become one card per row on a phone; the header row stays for screen readers. */
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  table.cards tr { display: block; border-bottom: 2px solid var(--line); padding: .35rem 0; }
  table.cards td { display: block; border: 0; padding: .2rem .5rem; text-align: left; white-space: normal; overflow-wrap: anywhere; }
  table.cards td::before { content: attr(data-label); display: block; font-size: .8rem; font-weight: 600; color: var(--muted); }
  table.cards td:empty { display: none; }
}
/* A printed statement is the page's content alone: no navigation, forms or buttons, tables whole. */
@media print {
  body { background: #fff; font-size: 11pt; }
  /* Above the classes that lay forms out (.filters is flex): on paper, none of them shows. */
  header.top, .skip, form, .actions { display: none !important; }
  main { max-width: none; padding: 0; }
  .card { border: 0; padding: 0; }
  .table-wrap { overflow: visible; }
  a { color: inherit; text-decoration: none; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
}
`;
