// flowtune report page: Pareto scatter plots of the embedded JSON (#flowtune-data) with
// Chart.js, variant/precision filters, and a status element (#status) for tests.
(function () {
  'use strict';
  const errors = window.flowtuneErrors;
  const status = document.getElementById('status');
  // The pictures of the fronts' configs: "decoded/total" once the page has loaded (tests).
  window.addEventListener('load', () => {
    const images = [...document.querySelectorAll('img.item-image')];
    status.dataset.images =
      images.filter((i) => i.complete && i.naturalWidth > 0).length + '/' + images.length;
  });
  if (typeof Chart === 'undefined') {
    status.dataset.state = 'no-chartjs';
    status.textContent = 'Chart.js missing: no plots.';
    return;
  }
  const data = JSON.parse(document.getElementById('flowtune-data').textContent);
  // One colour per variant from the Okabe-Ito colour-blind-safe palette (Okabe and Ito 2008,
  // "Color Universal Design"), one marker per precision: a series is told apart by colour
  // and by shape, so no two variant x precision series look the same up to 7 variants. The
  // front is black, the eighth Okabe-Ito colour.
  const FRONT = '#000000';
  const PICK = '#D62728';  // the pick: a red star, a colour outside the variants' palette
  const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442'];
  const MARKERS = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'cross'];

  // Variants and precisions of all points; the filters show the checked ones.
  const kinds = { variant: new Set(), precision: new Set() };
  const order = { variant: [], precision: [] };  // first-seen: the index picks colour / marker
  for (const b of data.boards) {
    for (const d of b.datasets) {
      for (const p of d.points) {
        for (const kind of ['variant', 'precision']) {
          kinds[kind].add(p[kind]);
          if (!order[kind].includes(p[kind])) order[kind].push(p[kind]);
        }
      }
    }
  }
  const colourOf = (variant) => PALETTE[order.variant.indexOf(variant) % PALETTE.length];
  const markerOf = (precision) => MARKERS[order.precision.indexOf(precision) % MARKERS.length];
  const shown = { variant: new Set(kinds.variant), precision: new Set(kinds.precision) };
  const visible = (p) => shown.variant.has(p.variant) && shown.precision.has(p.precision);

  const num = (v) => (v === null || v === undefined ? 'n/a' : Number(v.toPrecision(5)).toString());
  // "k=v k=v" of an object, `per` entries a line (long parameter lists wrap in the tooltip).
  function pairs(o, per) {
    const items = Object.keys(o).map((k) => k + '=' + num(o[k]));
    const lines = [];
    for (let i = 0; i < items.length; i += per) lines.push(items.slice(i, i + per).join(' '));
    return lines.length ? lines : ['-'];
  }
  const axisTitle = (o) => o.name + (o.unit ? ' (' + o.unit + ')' : '');
  // Tooltip lines of point p in plot: the config, then its two plotted values.
  function describe(p, plot) {
    const clock = p.clock_mhz ? ', clock ' + p.clock_mhz + ' MHz' : '';
    const lines = [p.label, 'variant ' + p.variant + ', precision ' + p.precision + clock,
      'tunables: ' + pairs(p.tunables, 99)[0]];
    pairs(p.params, 4).forEach((line, i) => lines.push((i ? '    ' : 'params: ') + line));
    lines.push(axisTitle(plot.x) + ': ' + num(p.v[plot.x.name]),
      axisTitle(plot.y) + ': ' + num(p.v[plot.y.name]));
    if (plot.front.includes(p.id)) lines.push('on the Pareto front');
    return lines;
  }

  // Chart.js datasets of a plot: one per variant/precision group, then the front as a step line.
  function chartDatasets(d, plot) {
    const xy = (p) => ({ x: p.v[plot.x.name], y: p.v[plot.y.name], p: p });
    const finite = (pt) => Number.isFinite(pt.x) && Number.isFinite(pt.y);
    const byGroup = new Map();
    for (const p of d.points) {
      const pt = xy(p);
      if (!visible(p) || !finite(pt)) continue;
      const g = p.variant + ' ' + p.precision;
      if (!byGroup.has(g)) byGroup.set(g, { variant: p.variant, precision: p.precision, pts: [] });
      byGroup.get(g).pts.push(pt);
    }
    const sets = [...byGroup].map(([g, s]) => ({
      label: g, data: s.pts, order: 1, pointRadius: 5, pointStyle: markerOf(s.precision),
      backgroundColor: colourOf(s.variant), borderColor: colourOf(s.variant),
      colour: colourOf(s.variant), marker: markerOf(s.precision),
    }));
    const front = d.points.filter((p) => plot.front.includes(p.id) && visible(p)).map(xy)
      .filter(finite).sort((a, b) => a.x - b.x);
    sets.push({
      label: 'Pareto front', data: front, order: 0, showLine: true, stepped: 'before',  // horizontal first
      borderColor: FRONT, backgroundColor: 'rgba(0,0,0,0)', pointBorderColor: FRONT,
      pointRadius: 7, pointBorderWidth: 2, front: true,
    });
    const pick = d.points.filter((p) => p.id === d.pick && visible(p)).map(xy).filter(finite);
    if (pick.length) {
      sets.push({
        label: 'pick: ' + pick[0].p.label, data: pick, order: -1, pointStyle: 'star',
        pointRadius: 14, pointBorderWidth: 3, borderColor: PICK, backgroundColor: PICK,
        colour: PICK, marker: 'star', front: true, pick: true,
      });
    }
    return sets;
  }

  // Points Chart.js drew in a chart (the front's markers are drawn over the same points).
  const drawn = (chart) => chart.data.datasets.reduce((n, s, i) =>
    n + (s.front ? 0 : chart.getDatasetMeta(i).data.length), 0);

  const charts = [];  // { chart, figure, d, plot }
  data.boards.forEach((b, bi) => b.datasets.forEach((d, di) => {
    const box = document.getElementById('plots-' + bi + '-' + di);
    for (const plot of d.plots) {
      const figure = document.createElement('figure');
      figure.className = 'plot';
      figure.dataset.x = plot.x.name;
      figure.dataset.y = plot.y.name;
      const canvas = document.createElement('canvas');
      figure.append(canvas);
      box.append(figure);
      try {
        const chart = new Chart(canvas, {
          type: 'scatter',
          data: { datasets: chartDatasets(d, plot) },
          options: {
            animation: false, maintainAspectRatio: false,
            scales: {
              x: { title: { display: true, text: axisTitle(plot.x) } },
              y: { title: { display: true, text: axisTitle(plot.y) } },
            },
            plugins: {
              legend: { labels: { usePointStyle: true } },
              title: { display: true, text: b.board + ', ' + d.dataset + ': ' + plot.x.name +
                ' vs ' + plot.y.name },
              tooltip: { callbacks: { label: (ctx) => describe(ctx.raw.p, plot) } },
            },
          },
        });
        charts.push({ chart, figure, d, plot });
        figure.dataset.plotted = drawn(chart);
      } catch (e) {
        errors.push('chart ' + b.board + '/' + d.dataset + ': ' + e.message);
      }
    }
  }));

  function refresh() {
    for (const c of charts) {
      c.chart.data.datasets = chartDatasets(c.d, c.plot);
      c.chart.update();
      c.figure.dataset.plotted = drawn(c.chart);
    }
    report();
  }

  for (const kind of ['variant', 'precision']) {
    const box = document.getElementById('filter-' + kind);
    for (const value of [...kinds[kind]].sort()) {
      const label = document.createElement('label');
      const input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = true;
      input.value = value;
      input.addEventListener('change', () => {
        if (input.checked) shown[kind].add(value); else shown[kind].delete(value);
        refresh();
      });
      label.append(input, ' ' + value);  // text node: names from the DB stay text
      box.append(label);
    }
  }

  function report() {
    status.dataset.state = errors.length ? 'error' : 'ok';
    status.dataset.charts = charts.length;
    status.dataset.points = charts.reduce((n, c) => n + drawn(c.chart), 0);
    status.dataset.errors = errors.length;
    // "variant precision=colour/marker|..." of the first chart's series (the test checks that
    // no two series share both).
    if (charts.length) {
      status.dataset.series = charts[0].chart.data.datasets.filter((s) => !s.front)
        .map((s) => s.label + '=' + s.colour + '/' + s.marker).join('|');
    }
    // "label::legend colour/series colour|..." of every chart's legend, and the pick's drawn
    // points (the test checks that each legend entry shows its series' colour).
    status.dataset.legend = charts.map((c) => (c.chart.legend ? c.chart.legend.legendItems : [])
      .map((item) => {
        const s = c.chart.data.datasets[item.datasetIndex];
        return item.text + '::' + String(item.strokeStyle).toUpperCase() + '/' +
          String(s.borderColor).toUpperCase();
      }).join('|')).join('||');
    status.dataset.picks = charts.reduce((n, c) => n + c.chart.data.datasets
      .filter((s) => s.pick).reduce((k, s) => k + s.data.length, 0), 0);
    status.dataset.frontColour = FRONT;
    const first = charts.find((c) => c.d.points.length);
    if (first) status.dataset.tooltip = describe(first.d.points[0], first.plot).join(' | ');
    status.textContent = charts.length + ' charts, ' + status.dataset.points + ' points' +
      (errors.length ? ', errors: ' + errors.join('; ') : '');
  }
  // index.html#tooltip: the first chart shows the tooltip of its middle front point (screenshots).
  if (location.hash === '#tooltip' && charts.length) {
    const chart = charts[0].chart;
    const last = chart.data.datasets.findIndex((s) => s.front && !s.pick);  // the front
    const front = chart.getDatasetMeta(last).data;
    if (front.length) {
      const index = Math.floor(front.length / 2);
      chart.tooltip.setActiveElements([{ datasetIndex: last, index }],
        { x: front[index].x, y: front[index].y });
      chart.update();
    }
  }
  report();
  window.addEventListener('error', report);  // later errors (after flowtuneErrors records them)
})();
