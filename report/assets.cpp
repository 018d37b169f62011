// The report page's stylesheet and script, inline in every report (no network access needed).
#include "report/html.h"

namespace report {

const char* const kStyle = R"CSS(
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 0 1em 3em; color: #222; }
h1 { font-size: 1.6em; margin: .6em 0 .2em; }
h2 { border-bottom: 2px solid #ddd; margin-top: 1.6em; }
h3 { margin: 0 0 .3em; font-size: 1.15em; }
table.summary { border-collapse: collapse; margin: .5em 0; }
table.summary th, table.summary td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
table.summary th:first-child, table.summary td:first-child { text-align: left; }
.badge { display: inline-block; border-radius: 3px; padding: 0 .45em; font-size: .85em; color: #fff; background: #777; vertical-align: middle; }
.v-ok, .v-Never, .v-Sometimes, .v-Always { background: #2e7d32; }
.v-violation, .v-error, .v-fail { background: #c62828; }
.v-hung, .v-inconclusive, .v-timeout, .v-unknown { background: #ef6c00; }
.v-refused { background: #616161; }
section.test { border: 1px solid #ddd; border-radius: 4px; padding: .7em 1em; margin: .8em 0; }
section.test.bad { border-color: #c62828; box-shadow: 0 0 0 1px #c62828; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: 0 1em; margin: .3em 0; font-size: .92em; }
dl.meta dt { color: #666; } dl.meta dd { margin: 0; overflow-wrap: anywhere; }
.hist { margin: .4em 0; }
.bar-row { display: grid; grid-template-columns: 17em 1fr 9em; gap: .6em; align-items: center; font-family: monospace; font-size: .9em; }
.bar { background: #f1f1f1; height: 1em; position: relative; }
.fill { height: 100%; }
.allowed .fill { background: #43a047; }
.forbidden .fill { background: #e53935; }
.forbidden .state { color: #c62828; font-weight: bold; }
.cond .state::before { content: "\2605 "; color: #f9a825; }
.count { text-align: right; }
.legend { font-size: .85em; color: #555; }
.legend span { margin-right: 1.2em; }
.sw { display: inline-block; width: .9em; height: .9em; vertical-align: middle; margin-right: .3em; }
ul.states, ul.never, ul.races { font-family: monospace; font-size: .9em; margin: .2em 0; }
.graph { overflow-x: auto; margin: .5em 0; border: 1px dashed #ccc; padding: .3em; }
.graph svg { max-width: 100%; height: auto; }
.note, .warn { color: #8d6e00; background: #fff8e1; padding: .2em .5em; }
#filters { position: sticky; top: 0; background: #fff; padding: .4em 0; border-bottom: 1px solid #eee; z-index: 1; }
#filters input[type=search] { width: 20em; }
.families li { margin: .15em 0; }
.families a, .siblings a, #bad-list a { margin-right: .6em; }
a.bad { color: #c62828; font-weight: bold; }
details { margin: .6em 0; }
)CSS";

const char* const kScript = R"JS(
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('data').textContent);
  const tests = data.tests;
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }
  const stateText = s => Object.entries(s || {}).map(([k, v]) => k + '=' + (v === null ? '?' : v)).join('; ');
  const num = n => (typeof n === 'number' ? n.toLocaleString('en-US') : String(n ?? ''));
  const verdictOf = t => (t.kind === 'run' ? t.verdict : t.status === 'done' ? t.observation : 'unknown');
  const idOf = i => 't' + i;
  const bad = t => t.kind === 'run' ? (t.verdict === 'violation' || t.verdict === 'error')
                                    : (t.failures || []).length > 0 || t.decision === 'FAIL' || t.decision === 'ERROR';

  const main = document.getElementById('report');
  main.textContent = '';
  document.getElementById('sources').textContent = 'From ' + data.sources.join(', ') + ': ' + tests.length + ' results.';

  // ---- summary ----
  main.append(el('h2', {text: 'Summary'}));
  const runs = tests.filter(t => t.kind === 'run'), checks = tests.filter(t => t.kind === 'check');
  const count = (list, f) => list.filter(f).length;
  function table(id, head, row) {
    const tr = el('tr', {}, ...head.map(h => el('th', {text: h[0]})));
    const body = el('tr', {}, ...row.map((v, i) => el('td', {id: id + '-' + head[i][1], text: num(v)})));
    return el('table', {class: 'summary', id: id}, el('thead', {}, tr), el('tbody', {}, body));
  }
  if (runs.length) {
    const verdicts = ['ok', 'violation', 'inconclusive', 'hung', 'timeout', 'refused', 'error'];
    const instances = runs.reduce((a, t) => a + (t.violations || 0), 0);
    const head = [['GPU runs', 'tests']].concat(verdicts.map(v => [v, v]), [['forbidden instances', 'instances']]);
    const row = [runs.length].concat(verdicts.map(v => count(runs, t => t.verdict === v)), [instances]);
    const devices = [...new Set(runs.map(t => t.device).filter(d => d))];
    main.append(table('sum-run', head, row));
    if (devices.length) main.append(el('p', {id: 'devices', text: 'Device: ' + devices.join(', ')}));
  }
  if (checks.length) {
    const head = [['model checks', 'tests'], ['Never', 'never'], ['Sometimes', 'sometimes'], ['Always', 'always'],
                  ['unknown', 'unknown'], ['with races', 'racy'], ['may hang', 'mayhang'], ['failed', 'failed']];
    const row = [checks.length, count(checks, t => t.observation === 'Never'),
                 count(checks, t => t.observation === 'Sometimes'), count(checks, t => t.observation === 'Always'),
                 count(checks, t => t.status !== 'done'), count(checks, t => (t.races || []).length > 0),
                 count(checks, t => t.liveness === 'may-hang'), count(checks, bad)];
    main.append(table('sum-check', head, row));
  }
  if (!data.graphviz)
    main.append(el('p', {class: 'warn', id: 'graphviz-note',
      text: 'Graphviz (dot) was not installed where this report was made: no execution graphs are drawn.'}));

  // ---- families ----
  const families = new Map();
  tests.forEach((t, i) => {
    if (!families.has(t.familyKey)) families.set(t.familyKey, []);
    families.get(t.familyKey).push(i);
  });
  const badOnes = tests.map((t, i) => i).filter(i => bad(tests[i]));
  main.append(el('p', {id: 'bad-list'}, el('b', {text: 'Violations and failures (' + badOnes.length + '): '}),
    ...(badOnes.length ? badOnes.map(i => el('a', {href: '#' + idOf(i), class: 'bad'}, tests[i].test)) : ['none'])));
  const fl = el('ul', {class: 'families', id: 'families'});
  for (const [name, members] of [...families.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const links = members.map(i => el('a', {href: '#' + idOf(i), class: bad(tests[i]) ? 'bad' : ''}, tests[i].test));
    fl.append(el('li', {}, el('b', {text: name + ' (' + members.length + '): '}), ...links));
  }
  main.append(el('details', {}, el('summary', {}, el('b', {text: 'Families (' + families.size + ')'})), fl));

  // ---- tests ----
  main.append(el('h2', {text: 'Tests'}));
  const filter = el('input', {id: 'filter', type: 'search', placeholder: 'filter by name or family'});
  const only = el('input', {id: 'only-bad', type: 'checkbox'});
  const shown = el('span', {id: 'shown'});
  main.append(el('div', {id: 'filters'}, filter, ' ', el('label', {}, only, ' only violations and failures'), ' ', shown));
  // The sections grouped under their family (the tests' `family:` key, else their directory),
  // named once in the group's heading rather than linked from every section.
  const sections = tests.map((t, i) => testSection(t, i));
  const groups = [...families.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([name, members]) =>
    ({members, div: el('div', {class: 'family-group', 'data-family': name},
      el('h3', {class: 'family', text: 'Family ' + name + ' (' + members.length + ')'}), ...members.map(i => sections[i]))}));
  const list = el('div', {id: 'tests'}, ...groups.map(g => g.div));
  main.append(list);
  function applyFilter() {
    const q = filter.value.toLowerCase();
    let n = 0;
    sections.forEach((s, i) => {
      const t = tests[i];
      const show = (!q || t.test.toLowerCase().includes(q) || t.familyKey.toLowerCase().includes(q)) && (!only.checked || bad(t));
      s.hidden = !show;
      n += show ? 1 : 0;
    });
    groups.forEach(g => { g.div.hidden = g.members.every(i => sections[i].hidden); });
    shown.textContent = n + ' of ' + tests.length + ' shown';
  }
  filter.addEventListener('input', applyFilter);
  only.addEventListener('change', applyFilter);
  applyFilter();

  function testSection(t, i) {
    const v = verdictOf(t);
    const s = el('section', {class: 'test' + (bad(t) ? ' bad' : ''), id: idOf(i), 'data-kind': t.kind, 'data-verdict': v},
                 el('h3', {}, t.test + ' ', el('span', {class: 'badge v-' + v, text: v})));
    const meta = el('dl', {class: 'meta'});
    const add = (k, val) => { if (val !== undefined && val !== null && val !== '') meta.append(el('dt', {text: k}), el('dd', {}, val)); };
    add('file', t.file);
    add('result', t.kind === 'run' ? 'GPU run (' + t.source + ')' : 'model check (' + t.source + ')');
    add(t.kind === 'run' ? 'reason' : 'condition', t.kind === 'run' ? t.reason : t.quantifier + ' ' + t.condition);
    if (t.kind === 'run') {
      add('message', t.message);
      if (t.instances !== undefined) add('instances', num(t.instances) + ' in ' + num(t.launches) + ' launches, ' + (t.seconds || 0).toFixed(3) + ' s GPU');
      add('model', t.model + (t.modelNote ? ': ' + t.modelNote : '') + (t.conditionAllowed === false ? '; condition forbidden' : t.conditionAllowed ? '; condition allowed' : ''));
    } else {
      add('engine', t.engine);
      add('liveness', t.hang ? t.liveness + ': ' + t.hang : t.liveness);
      if (t.expect && t.expect.verdict) add('expected', t.expect.verdict + (t.decision ? ' (' + t.decision + ')' : ''));
      if ((t.failures || []).length) add('failures', t.failures.join('; '));
      add('detail', t.detail);
    }
    s.append(meta);
    if (t.kind === 'run') runBody(s, t); else checkBody(s, t);
    if (t.graphSvg) {
      const g = el('div', {class: 'graph'});
      g.innerHTML = t.graphSvg;
      s.append(el('p', {text: 'Execution graph of the forbidden outcome ' + t.graphState + ' (a candidate execution and the axiom it violates, the deciding edges bold):'}), g);
    } else if (t.graphNote) {
      s.append(el('p', {class: 'note', text: t.graphNote}));
    }
    return s;
  }

  function runBody(s, t) {
    const hist = t.histogram || [];
    if (!hist.length) return;
    const max = Math.max(...hist.map(h => h.count));
    const box = el('div', {class: 'hist'});
    for (const h of hist) {
      const w = max > 0 ? 100 * Math.log10(h.count + 1) / Math.log10(max + 1) : 0;
      const cls = 'bar-row ' + (h.allowed ? 'allowed' : 'forbidden') + (h.condition ? ' cond' : '');
      box.append(el('div', {class: cls, title: h.allowed ? 'allowed by the model' : 'forbidden by the model'},
        el('span', {class: 'state', text: stateText(h.state)}),
        el('div', {class: 'bar'}, el('div', {class: 'fill', style: 'width:' + w.toFixed(1) + '%'})),
        el('span', {class: 'count', text: num(h.count)})));
    }
    s.append(box, el('div', {class: 'legend'},
      el('span', {}, el('i', {class: 'sw', style: 'background:#43a047'}), 'allowed'),
      el('span', {}, el('i', {class: 'sw', style: 'background:#e53935'}), 'forbidden'),
      el('span', {text: '\u2605 satisfies the condition'}), el('span', {text: 'bar length: log scale'})));
    if ((t.notRecordedStates || []).length)
      s.append(el('p', {text: 'Not recorded:'}), el('ul', {class: 'states'},
        ...t.notRecordedStates.map(n => el('li', {text: stateText(n.state) + ' \u00d7 ' + num(n.count)}))));
    const never = t.neverObserved || [];
    s.append(el('p', {text: never.length ? 'Allowed by the model, never observed (' + never.length + '):'
                                         : 'Every state the model allows was observed.'}));
    if (never.length) s.append(el('ul', {class: 'never'}, ...never.map(n => el('li', {text: stateText(n)}))));
  }

  function checkBody(s, t) {
    const states = t.states || [];
    s.append(el('p', {text: 'States the model allows (' + states.length + '):'}),
             el('ul', {class: 'states'}, ...states.map(st => el('li', {text: stateText(st)}))));
    const races = t.races || [];
    s.append(el('p', {text: races.length ? 'Data races (' + races.length + '):' : 'No data race.'}));
    if (races.length) s.append(el('ul', {class: 'races'}, ...races.map(r => el('li', {text: r.first + '  /  ' + r.second + ': ' + r.why}))));
    for (const r of t.reliesOn || []) s.append(el('p', {class: 'note', text: 'Relies on ' + r.decision + ': ' + r.text}));
  }
  document.body.setAttribute('data-rendered', tests.length);
  // The sections did not exist when the browser looked for the URL's #fragment.
  if (location.hash) { const target = document.getElementById(location.hash.slice(1)); if (target) target.scrollIntoView(); }
})();
)JS";

}  // namespace report
