// Issue 11: Node's bare JSON.parse(readFileSync(doc)) — the reference the
// targets are stated against — and the same walk as src/main.rs (every
// operation, `$ref`s followed transitively; targets once per document, or
// once per operation with `closure`), printing the same JSON line.
//   node node.js DOC [parse|walk|closure] [EVERY]
'use strict';
const fs = require('fs');
const [doc, mode = 'parse', everyArg = '1'] = process.argv.slice(2);
const every = Math.max(1, Number(everyArg) || 1);
const t0 = process.hrtime.bigint();
const text = fs.readFileSync(doc);
const t1 = process.hrtime.bigint();
const root = JSON.parse(text);
const t2 = process.hrtime.bigint();
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const cache = new Map();
function resolve(ref) {
  if (cache.has(ref)) return cache.get(ref);
  let cur;
  if (ref.startsWith('#')) {
    cur = root;
    const frag = ref.slice(1).replace(/%7B/g, '{').replace(/%7D/g, '}');
    if (frag !== '') {
      for (const tok of frag.slice(1).split('/')) {
        const t = tok.replace(/~1/g, '/').replace(/~0/g, '~');
        if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, t)) { cur = undefined; break; }
        cur = cur[t];
      }
    }
  }
  cache.set(ref, cur);
  return cur;
}
let ops = 0, nodes = 0, refs = 0, unresolved = 0;
let seen = new Set();
function visit(v) {
  nodes++;
  if (Array.isArray(v)) { for (const x of v) visit(x); return; }
  if (v === null || typeof v !== 'object') return;
  const r = v['$ref'];
  if (typeof r === 'string') {
    refs++;
    const t = resolve(r);
    if (t === undefined) unresolved++;
    else if (!seen.has(t)) { seen.add(t); visit(t); }
  }
  for (const k in v) visit(v[k]);
}
let walkMs = 0;
if (mode !== 'parse') {
  let n = 0;
  for (const item of Object.values(root.paths || {})) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      if (n++ % every !== 0) continue;
      ops++;
      if (mode === 'closure') seen = new Set();
      if (item.parameters) visit(item.parameters);
      visit(op);
    }
  }
  walkMs = Number(process.hrtime.bigint() - t2) / 1e6;
}
const status = fs.readFileSync('/proc/self/status', 'utf8');
const kb = (f) => Number((status.match(new RegExp(f + ':\\s+(\\d+)')) || [0, 0])[1]);
const readMs = Number(t1 - t0) / 1e6, parseMs = Number(t2 - t1) / 1e6;
console.log(JSON.stringify({
  variant: 'node', mode, every,
  read_ms: +readMs.toFixed(2), parse_ms: +parseMs.toFixed(2), walk_ms: +walkMs.toFixed(2),
  total_ms: +(readMs + parseMs + walkMs).toFixed(2),
  hwm_kb: kb('VmHWM'), rss_kb: kb('VmRSS'), ops, nodes, refs, unresolved, sum: '', order: '',
}));
