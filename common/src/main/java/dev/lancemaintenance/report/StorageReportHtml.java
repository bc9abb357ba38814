package dev.lancemaintenance.report;

/**
 * The storage report as one self-contained HTML page (the command line's {@code --html FILE}): the
 * report's JSON inline, and a small inline script that draws two SVG charts (bytes a cleanup would
 * free against the window; bytes freed with each version over time) and fills the tables from it.
 * No external script, font or style sheet, so the page opens offline and from a mail attachment.
 * The script writes text only through {@code textContent}: table names never become markup.
 */
public final class StorageReportHtml {
  private StorageReportHtml() {}

  /** The page for {@code report}. */
  public static String render(StorageReport report) {
    // "</" inside the JSON would end the script element early; "<\/" is the same JSON string.
    String data = report.toJson().replace("</", "<\\/");
    return PAGE.replace("@DATA@", data);
  }

  private static final String PAGE = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>Lance storage report</title>
      <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2330; max-width: 1100px; }
        h1 { font-size: 20px; margin: 0 0 4px; }
        h2 { font-size: 16px; margin: 28px 0 8px; }
        .sub { color: #5b6475; margin: 0 0 16px; }
        .cards { display: flex; gap: 16px; flex-wrap: wrap; }
        .card { border: 1px solid #d9dde5; border-radius: 6px; padding: 10px 14px; min-width: 180px; }
        .card .n { font-size: 22px; font-weight: 600; }
        table { border-collapse: collapse; margin: 4px 0; }
        th, td { border-bottom: 1px solid #e4e7ed; padding: 4px 12px; text-align: left; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        .refused { color: #a33; }
        svg { border: 1px solid #e4e7ed; border-radius: 6px; background: #fbfcfd; }
        svg text { font: 11px system-ui, sans-serif; fill: #333; }
        .bar { fill: #3f7fd1; }
        .bar.refused { fill: #d9a0a0; }
        .point { fill: #e07b39; }
        .axis { stroke: #999; }
      </style>
      </head>
      <body>
      <h1>Storage of <span id="table"></span></h1>
      <p class="sub">dataset <span id="dataset"></span> &middot; at <span id="now"></span> &middot; policy <span id="policy"></span></p>
      <div class="cards">
        <div class="card">versions<div class="n" id="versions-count"></div></div>
        <div class="card">bytes listed<div class="n" id="listed-bytes"></div></div>
        <div class="card">reclaimable now (bytes)<div class="n" id="reclaimable-now-bytes"></div></div>
        <div class="card">reclaimable now (files)<div class="n" id="reclaimable-now-files"></div></div>
      </div>
      <h2>What a cleanup would free, by window (older_than)</h2>
      <svg id="chart-windows" width="720" height="260" role="img" aria-label="bytes freed by window"></svg>
      <table id="what-if"><thead><tr><th>window</th><th class="num">versions removed</th><th class="num">files</th>
        <th class="num">bytes</th><th>note</th></tr></thead><tbody></tbody></table>
      <h2>Bytes freed with each version, over time</h2>
      <svg id="chart-versions" width="720" height="260" role="img" aria-label="bytes freed with each version"></svg>
      <h2>Files by kind and category</h2>
      <table id="files"><thead><tr><th>kind</th><th>category</th><th class="num">files</th><th class="num">bytes</th></tr></thead>
        <tbody></tbody></table>
      <h2>Tags and branches</h2>
      <table id="pins"><thead><tr><th>type</th><th>name</th><th class="num">version</th><th class="num">files</th>
        <th class="num">bytes</th></tr></thead><tbody></tbody></table>
      <h2>Versions by age</h2>
      <table id="versions-by-age"><thead><tr><th>age</th><th class="num">versions</th></tr></thead><tbody></tbody></table>
      <h2>Unreferenced files by age</h2>
      <table id="unverified-by-age"><thead><tr><th>age</th><th class="num">files</th><th class="num">bytes</th></tr></thead>
        <tbody></tbody></table>
      <script type="application/json" id="report-data">@DATA@</script>
      <script>
      (function () {
        const report = JSON.parse(document.getElementById('report-data').textContent);
        const fmt = n => Number(n).toLocaleString('en-US');
        const SVG = 'http://www.w3.org/2000/svg';
        const text = (id, value) => { document.getElementById(id).textContent = value; };
        function row(tableId, cells, attrs) {
          const tr = document.createElement('tr');
          for (const [value, numeric] of cells) {
            const td = document.createElement('td');
            if (numeric) { td.className = 'num'; }
            td.textContent = numeric ? fmt(value) : value;
            tr.appendChild(td);
          }
          for (const [k, v] of Object.entries(attrs || {})) { tr.setAttribute(k, v); }
          document.querySelector('#' + tableId + ' tbody').appendChild(tr);
          return tr;
        }
        function svgEl(parent, name, attrs, content) {
          const el = document.createElementNS(SVG, name);
          for (const [k, v] of Object.entries(attrs)) { el.setAttribute(k, v); }
          if (content !== undefined) { el.textContent = content; }
          parent.appendChild(el);
          return el;
        }
        text('table', report.table);
        text('dataset', report.dataset);
        text('now', report.now);
        text('policy', report.policy);
        text('versions-count', fmt(report.versions.count));
        text('listed-bytes', fmt(report.files.reduce((sum, f) => sum + f.bytes, 0)));
        text('reclaimable-now-bytes', fmt(report.reclaimable_now.bytes));
        text('reclaimable-now-files', fmt(report.reclaimable_now.files));
        for (const w of report.what_if) {
          row('what-if', [[w.window, false], [w.versions_removed, true], [w.files, true], [w.bytes, true],
            [w.refusal ? 'refused: ' + w.refusal : '', false]], {'data-window': w.window});
        }
        for (const f of report.files) {
          row('files', [[f.kind, false], [f.category, false], [f.files, true], [f.bytes, true]]);
        }
        for (const p of report.pins) {
          row('pins', [[p.type, false], [p.name, false], [p.version, true], [p.files, true], [p.bytes, true]]);
        }
        for (const [age, count] of Object.entries(report.versions.by_age)) {
          row('versions-by-age', [[age, false], [count, true]]);
        }
        for (const [age, c] of Object.entries(report.unverified_by_age)) {
          row('unverified-by-age', [[age, false], [c.files, true], [c.bytes, true]]);
        }

        // Chart 1: one bar per window, its height the bytes freed, its value written above it.
        const windows = document.getElementById('chart-windows');
        const W = 720, H = 260, left = 60, bottom = 40, top = 24;
        const maxFreed = Math.max(1, ...report.what_if.map(w => w.bytes));
        const slot = (W - left - 20) / Math.max(1, report.what_if.length);
        svgEl(windows, 'line', {x1: left, y1: H - bottom, x2: W - 10, y2: H - bottom, class: 'axis'});
        report.what_if.forEach((w, i) => {
          const h = (H - bottom - top) * w.bytes / maxFreed;
          const x = left + i * slot + slot * 0.2;
          svgEl(windows, 'rect', {x: x, y: H - bottom - h, width: slot * 0.6, height: h,
            class: 'bar' + (w.refusal ? ' refused' : '')}).appendChild(document.createElementNS(SVG, 'title'))
            .textContent = w.window + ': ' + fmt(w.bytes) + ' bytes, ' + fmt(w.files) + ' files';
          svgEl(windows, 'text', {x: x + slot * 0.3, y: H - bottom - h - 6, 'text-anchor': 'middle',
            class: 'window-value', 'data-window': w.window}, fmt(w.bytes));
          svgEl(windows, 'text', {x: x + slot * 0.3, y: H - bottom + 16, 'text-anchor': 'middle'}, w.window);
        });
        svgEl(windows, 'text', {x: 8, y: 14}, 'bytes freed');

        // Chart 2: a point per version at its time, its height the bytes that go with it.
        const versions = document.getElementById('chart-versions');
        const points = report.timeline;
        const t0 = Math.min(...points.map(p => p.timestamp_millis));
        const t1 = Math.max(...points.map(p => p.timestamp_millis));
        const maxBytes = Math.max(1, ...points.map(p => p.bytes));
        const xOf = t => left + (W - left - 20) * (t1 > t0 ? (t - t0) / (t1 - t0) : 0.5);
        const yOf = b => H - bottom - (H - bottom - top) * b / maxBytes;
        svgEl(versions, 'line', {x1: left, y1: H - bottom, x2: W - 10, y2: H - bottom, class: 'axis'});
        svgEl(versions, 'polyline', {points: points.map(p => xOf(p.timestamp_millis) + ',' + yOf(p.bytes)).join(' '),
          fill: 'none', stroke: '#e07b39', 'stroke-width': 1});
        for (const p of points) {
          svgEl(versions, 'circle', {cx: xOf(p.timestamp_millis), cy: yOf(p.bytes), r: 4, class: 'point',
            'data-version': p.version, 'data-bytes': p.bytes}).appendChild(document.createElementNS(SVG, 'title'))
            .textContent = 'version ' + p.version + ' at ' + p.timestamp + ': ' + fmt(p.bytes) + ' bytes';
        }
        if (points.length) {
          svgEl(versions, 'text', {x: left, y: H - bottom + 16}, points[0].timestamp);
          svgEl(versions, 'text', {x: W - 10, y: H - bottom + 16, 'text-anchor': 'end'}, points[points.length - 1].timestamp);
        }
        svgEl(versions, 'text', {x: 8, y: 14}, 'bytes that go with the version');
        document.body.setAttribute('data-rendered', 'true');
      })();
      </script>
      </body>
      </html>
      """;
}
