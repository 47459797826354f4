// anydoku play: the page. It draws the server's SVG of the layout, writes entries and pencil
// marks over it, and asks the JSON API (docs/PLAY.md) for conflicts, checks, hints, solutions,
// exports and new puzzles. The game state is saved in localStorage under the puzzle's id.

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const SCALE = 40; // pixels per cell unit in the server's SVG

let view = null; // the puzzle from the server: {id, name, symbols, cells, givens, svg, model}
let game = null; // {entries: [symbol|null], marks: [[symbol]], elapsed, done, undo: [], redo: []}
let cells = []; // per cell: {el, x, y, fit}
let selected = -1;
let pencil = false;
let checkSeq = 0;
let highlight = { hint: [], shape: [], wrong: [], conflict: [] };

// ---- the API ----

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  };
  let r = await fetch(path, init);
  let data = await r.json();
  if (r.status === 404 && data.code === 'unknown-puzzle' && view) {
    // the server restarted: send the model itself, then ask again
    await fetch('/api/load', { method: 'POST', body: JSON.stringify({ puzzle: view.model }) });
    r = await fetch(path, init);
    data = await r.json();
  }
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function entriesMap() {
  const m = {};
  game.entries.forEach((v, i) => { if (v !== null) m[view.cells[i]] = v; });
  return m;
}

// ---- saving ----

const keyOf = (id) => `anydoku:game:${id}`;

function save() {
  if (!view) return;
  const { entries, marks, elapsed, done, undo, redo } = game;
  try {
    localStorage.setItem(keyOf(view.id), JSON.stringify({ entries, marks, elapsed, done, undo, redo }));
  } catch (e) { /* storage full or off: play on */ }
}

function restore(v) {
  const n = v.cells.length;
  const fresh = { entries: Array(n).fill(null), marks: Array.from({ length: n }, () => []), elapsed: 0, done: null, undo: [], redo: [] };
  try {
    const s = JSON.parse(localStorage.getItem(keyOf(v.id)) || 'null');
    if (s && Array.isArray(s.entries) && s.entries.length === n && Array.isArray(s.marks)) {
      return { ...fresh, ...s };
    }
  } catch (e) { /* a broken save: start afresh */ }
  return fresh;
}

// ---- drawing ----

function show(v, remember = true) {
  view = v;
  game = restore(v);
  $('title').textContent = v.name + (v.seed !== undefined ? ` (seed ${v.seed})` : '');
  const board = $('board');
  board.innerHTML = v.svg;
  const svg = board.querySelector('svg');
  // small grids are not blown up past about 64 pixels a cell
  svg.style.maxWidth = `${Math.round(1.6 * Number(svg.getAttribute('width')))}px`;
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  const overlay = document.createElementNS(SVGNS, 'g');
  overlay.id = 'overlay';
  svg.appendChild(overlay);
  cells = [];
  svg.querySelectorAll('.cell[data-cell]').forEach((el) => {
    const i = Number(el.dataset.cell);
    cells[i] = { el, x: Number(el.dataset.cx), y: Number(el.dataset.cy), fit: Number(el.dataset.fit) };
    el.addEventListener('pointerdown', (e) => { e.preventDefault(); select(i); board.focus(); });
  });
  // a cage's sum sits in a corner of its first cell: pencil marks there keep below it
  svg.querySelectorAll('text.cage-sum').forEach((t) => {
    const [x, y] = [Number(t.getAttribute('x')), Number(t.getAttribute('y'))];
    let nearest = null;
    let best = Infinity;
    for (const c of cells) {
      const d = (c.x - x) ** 2 + (c.y - y) ** 2;
      if (d < best) [best, nearest] = [d, c];
    }
    if (nearest) nearest.label = true;
  });
  const palette = $('palette');
  palette.innerHTML = '';
  v.symbols.forEach((s) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = s;
    b.dataset.symbol = s;
    b.addEventListener('click', () => { input(s, pencil); board.focus(); });
    palette.appendChild(b);
  });
  if (remember) {
    localStorage.setItem('anydoku:current', JSON.stringify({ served: servedId, id: v.id, model: v.model, seed: v.seed }));
  }
  selected = -1;
  highlight = { hint: [], shape: [], wrong: [], conflict: [] };
  $('congrats').hidden = true;
  message(v.status === 'unique' ? '' : `Note: this puzzle's solution is ${v.status === 'multiple' ? 'not unique' : v.status}.`);
  redraw();
  refreshConflicts();
  board.focus();
}

function text(x, y, size, cls, s) {
  const t = document.createElementNS(SVGNS, 'text');
  t.setAttribute('x', x.toFixed(2));
  t.setAttribute('y', y.toFixed(2));
  t.setAttribute('font-size', size.toFixed(2));
  t.setAttribute('text-anchor', 'middle');
  t.setAttribute('class', cls);
  t.textContent = s;
  return t;
}

function redraw() {
  const overlay = document.getElementById('overlay');
  overlay.replaceChildren();
  const sel = selected >= 0 ? (game.entries[selected] ?? view.givens[selected]) : null;
  const k = Math.ceil(Math.sqrt(view.symbols.length));
  const wrong = new Set(highlight.wrong);
  cells.forEach((c, i) => {
    const v = view.givens[i] ?? game.entries[i];
    const cl = c.el.classList;
    cl.toggle('sel', i === selected);
    cl.toggle('same', sel !== null && v === sel && i !== selected);
    cl.toggle('hint-cell', highlight.hint.includes(i));
    cl.toggle('hint-shape', highlight.shape.includes(i));
    cl.toggle('wrong', wrong.has(i));
    cl.toggle('conflict', highlight.conflict.includes(i));
    if (view.givens[i] !== null) return;
    if (game.entries[i] !== null) {
      const s = game.entries[i];
      const size = 0.62 * c.fit * SCALE / Math.sqrt(Math.max(1, [...s].length));
      const cls = 'entry' + (wrong.has(i) || highlight.conflict.includes(i) ? ' bad' : '');
      overlay.appendChild(text(c.x, c.y + size * 0.36, size, cls, s));
    } else if (game.marks[i].length) {
      const box = 0.84 * c.fit * SCALE;
      const top = c.label ? 0.24 * c.fit * SCALE : 0; // the room a cage's sum takes
      const size = (box - top) / k * 0.92;
      for (const s of game.marks[i]) {
        const j = view.symbols.indexOf(s);
        if (j < 0) continue;
        const x = c.x - box / 2 + (j % k + 0.5) * box / k;
        const y = c.y - box / 2 + top + (Math.floor(j / k) + 0.5) * (box - top) / k + size * 0.36;
        overlay.appendChild(text(x, y, size, 'mark', s));
      }
    }
  });
  $('board').dataset.selected = String(selected);
  $('undo').disabled = game.undo.length === 0;
  $('redo').disabled = game.redo.length === 0;
  $('mode').textContent = `✎ Pencil: ${pencil ? 'on' : 'off'}`;
  $('mode').setAttribute('aria-pressed', String(pencil));
  showTimer();
}

let messageOfConflicts = false; // whether the message shown lists conflicts (cleared with them)

function message(s, kind = '') {
  messageOfConflicts = false;
  const m = $('message');
  m.textContent = s;
  m.className = 'message' + (kind ? ' ' + kind : '');
}

// ---- playing ----

function select(i) {
  selected = i;
  redraw();
}

/** Applies a change {cell: [value, marks]} as one undoable action. */
function change(next) {
  const before = {};
  for (const i of Object.keys(next)) before[i] = [game.entries[i], [...game.marks[i]]];
  game.undo.push({ before, after: next });
  if (game.undo.length > 500) game.undo.shift();
  game.redo = [];
  apply(next);
}

function apply(state) {
  for (const [i, [v, marks]] of Object.entries(state)) {
    game.entries[i] = v;
    game.marks[i] = [...marks];
    highlight.wrong = highlight.wrong.filter((c) => c !== Number(i));
  }
  highlight.hint = [];
  highlight.shape = [];
  save();
  redraw();
  refreshConflicts();
}

function input(s, asMark) {
  const i = selected;
  if (i < 0 || view.givens[i] !== null || game.done) return;
  if (asMark) {
    if (game.entries[i] !== null) return;
    const marks = game.marks[i].includes(s) ? game.marks[i].filter((m) => m !== s) : [...game.marks[i], s];
    change({ [i]: [null, marks] });
  } else if (game.entries[i] !== s) {
    change({ [i]: [s, game.marks[i]] });
  }
}

function erase() {
  const i = selected;
  if (i < 0 || view.givens[i] !== null || game.done) return;
  if (game.entries[i] !== null || game.marks[i].length) change({ [i]: [null, []] });
}

function undo() {
  const a = game.undo.pop();
  if (!a) return;
  game.redo.push(a);
  apply(a.before);
}

function redo() {
  const a = game.redo.pop();
  if (!a) return;
  game.undo.push(a);
  apply(a.after);
}

/** The nearest cell from the selected one in direction (dx, dy), by drawing position. */
function move(dx, dy) {
  if (selected < 0) { select(0); return; }
  const a = cells[selected];
  let best = -1;
  let bestScore = Infinity;
  cells.forEach((c, i) => {
    const ex = c.x - a.x;
    const ey = c.y - a.y;
    const along = ex * dx + ey * dy;
    const across = Math.abs(ex * dy - ey * dx);
    if (i === selected || along < 0.3 * SCALE || across > along * 1.05) return;
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = i; }
  });
  if (best >= 0) select(best);
}

// keys typed one after another on one cell, so that symbols of several characters (`10`, `16`)
// can be typed: `1` then `6` within a moment makes `16` when `16` is a symbol
let typed = { cell: -1, text: '', at: 0, entered: null };

/** The symbol a run of keys ends in: {symbol, replaces, pending} where `replaces` is the symbol
 * the previous key of the run entered (to take back) and `pending` says the keys so far begin a
 * longer symbol. Keys that are no character (Shift) leave the run alone. */
function symbolTyped(e) {
  if (e.key.length !== 1) return { symbol: symbolOf(e), replaces: null, pending: false };
  const now = performance.now();
  const recent = typed.cell === selected && now - typed.at < 1500;
  const digit = /^(?:Digit|Numpad)(\d)$/.exec(e.code); // the digit under Shift too
  const key = digit ? digit[1] : e.key;
  const run = (recent ? typed.text : '') + key;
  const longer = (t) => view.symbols.some((s) => s.length > t.length && s.startsWith(t));
  if (recent && run.length > 1 && (view.symbols.includes(run) || longer(run))) {
    const symbol = view.symbols.includes(run) ? run : null;
    const replaces = typed.entered;
    typed = { cell: selected, text: run, at: now, entered: symbol ?? replaces };
    return { symbol, replaces: symbol === null ? null : replaces, pending: symbol === null };
  }
  const symbol = symbolOf(e);
  typed = { cell: selected, text: key, at: now, entered: symbol };
  return { symbol, replaces: null, pending: symbol === null && longer(key) };
}

/** The symbol a key stands for (digits and letters through Shift too), or null. */
function symbolOf(e) {
  const syms = view.symbols;
  const key = e.key;
  if (syms.includes(key)) return key;
  const lower = syms.find((s) => s.toLowerCase() === key.toLowerCase());
  if (lower) return lower;
  const m = /^(?:Digit|Numpad)(\d)$|^Key([A-Z])$/.exec(e.code);
  if (m) {
    const c = m[1] ?? m[2];
    return syms.find((s) => s.toLowerCase() === c.toLowerCase()) ?? null;
  }
  return null;
}

function onKey(e) {
  if (!view || e.target.closest('select, input, fieldset')) return;
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && (e.key === 'z' || e.key === 'Z')) { e.preventDefault(); if (e.shiftKey) redo(); else undo(); return; }
  if (ctrl && (e.key === 'y' || e.key === 'Y')) { e.preventDefault(); redo(); return; }
  if (ctrl || e.altKey) return;
  const dirs = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (dirs[e.key]) { e.preventDefault(); move(...dirs[e.key]); return; }
  if (e.key === 'Backspace' || e.key === 'Delete') { e.preventDefault(); erase(); return; }
  const { symbol: s, replaces, pending } = symbolTyped(e);
  if (s !== null) {
    e.preventDefault();
    const asMark = pencil !== e.shiftKey;
    if (replaces !== null && asMark) input(replaces, true); // `1` then `6`: the mark 1 goes
    input(s, asMark);
    return;
  }
  if (pending) { e.preventDefault(); return; } // the start of a longer symbol
  if (e.key === '.' || (e.key === '0' && !view.symbols.includes('0'))) { e.preventDefault(); erase(); }
}

// ---- asking the server ----

async function refreshConflicts() {
  const seq = ++checkSeq;
  const puzzleId = view.id;
  try {
    const r = await api('/api/check', { puzzle: view.id, entries: entriesMap() });
    if (seq !== checkSeq || puzzleId !== view.id) return;
    highlight.conflict = [...new Set(r.conflicts.flatMap((c) => c.cells))];
    if (r.conflicts.length) {
      message(r.conflicts.map((c) => c.text).join('; '), 'error');
      messageOfConflicts = true;
    } else if (messageOfConflicts) message('');
    if (r.solved && !game.done) finish('you');
    redraw();
  } catch (e) { message(e.message, 'error'); }
}

function finish(by) {
  game.done = { by, elapsed: game.elapsed };
  save();
  congratulate();
}

function congratulate() {
  const c = $('congrats');
  if (!game.done) { c.hidden = true; return; }
  c.hidden = false;
  c.textContent = game.done.by === 'you'
    ? `🎉 Congratulations! You solved ${view.name} in ${clock(game.done.elapsed)}.`
    : `Solved by the computer after ${clock(game.done.elapsed)}.`;
}

async function check() {
  try {
    const r = await api('/api/check', { puzzle: view.id, entries: entriesMap(), solution: true });
    highlight.wrong = r.wrong ?? [];
    if (r.wrong === null) message(`Cannot check against the solution: it is ${r.status === 'multiple' ? 'not unique' : r.status}.`, 'error');
    else if (r.wrong.length) message(`${r.wrong.length} entr${r.wrong.length === 1 ? 'y differs' : 'ies differ'} from the solution: ${r.wrong.map((i) => view.cells[i]).join(', ')}.`, 'error');
    else message(`No mistakes: ${r.filled} of ${view.cells.length} cells filled.`);
    redraw();
  } catch (e) { message(e.message, 'error'); }
}

async function hint() {
  message('thinking…');
  try {
    const r = await api('/api/hint', { puzzle: view.id, entries: entriesMap() });
    if (r.wrong) {
      highlight.wrong = r.wrong.filter((i) => view.givens[i] === null);
      message(r.message, 'error');
    } else if (r.complete) {
      message('The grid is complete.');
    } else if (r.step) {
      highlight.hint = r.cells;
      highlight.shape = r.shape_cells.flat();
      message(r.step.text, 'hint');
    } else {
      message(r.message, 'hint');
    }
    redraw();
  } catch (e) { message(e.message, 'error'); }
}

async function solve() {
  try {
    const r = await api('/api/solve', { puzzle: view.id });
    if (!r.solution) { message(`No unique solution to show (${r.status}).`, 'error'); return; }
    const next = {};
    r.solution.forEach((s, i) => {
      if (view.givens[i] === null && game.entries[i] !== s) next[i] = [s, []];
    });
    if (!game.done) game.done = { by: 'computer', elapsed: game.elapsed };
    change(next);
    congratulate();
  } catch (e) { message(e.message, 'error'); }
}

async function exportFile() {
  try {
    const model = await api('/api/export', { puzzle: view.id, entries: entriesMap() });
    const blob = new Blob([JSON.stringify(model, null, 1)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${view.name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}-${view.id}.json`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    message(`Saved ${a.download}: the puzzle with your entries in "source.entries" (anydoku hint FILE --entries TEXT reads them).`);
  } catch (e) { message(e.message, 'error'); }
}

function restart() {
  if (!confirm('Clear all your entries and marks?')) return;
  const next = {};
  game.entries.forEach((v, i) => { if (v !== null || game.marks[i].length) next[i] = [null, []]; });
  game.done = null;
  game.elapsed = 0;
  change(next);
  congratulate();
}

async function generate() {
  const button = $('new');
  button.disabled = true;
  const progress = $('progress');
  progress.textContent = 'generating…';
  const body = { geometry: $('layout').value, difficulty: $('difficulty').value || null, killer: $('killer').checked };
  try {
    const r = await fetch('/api/generate', { method: 'POST', body: JSON.stringify(body) });
    if (!r.ok) throw new Error((await r.json()).error);
    const reader = r.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    let result = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (msg.progress) {
          const p = msg.progress;
          progress.textContent = p.building
            ? `building upward: ${p.givens} givens so far`
            : `settling givens: ${p.tested} of ${p.orbits} settled, ${p.givens} left`;
        } else result = msg;
      }
    }
    if (!result || result.error) throw new Error(result ? result.error : 'the server sent no puzzle');
    progress.textContent = '';
    show(result.puzzle);
  } catch (e) {
    progress.textContent = '';
    message(`No new puzzle: ${e.message}`, 'error');
  } finally {
    button.disabled = false;
  }
}

// ---- the timer ----

const clock = (t) => {
  const s = Math.floor(t);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor(s / 60) % 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
};

function showTimer() {
  $('timer').textContent = clock(game.done ? game.done.elapsed : game.elapsed);
}

setInterval(() => {
  if (!game || game.done || document.hidden) return;
  game.elapsed += 1;
  showTimer();
  if (game.elapsed % 5 === 0) save();
}, 1000);

// ---- start ----

let servedId = null;

async function start() {
  document.addEventListener('keydown', onKey);
  $('mode').addEventListener('click', () => { pencil = !pencil; redraw(); });
  $('erase').addEventListener('click', erase);
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('check').addEventListener('click', check);
  $('hint').addEventListener('click', hint);
  $('solve').addEventListener('click', solve);
  $('export').addEventListener('click', exportFile);
  $('restart').addEventListener('click', restart);
  $('new').addEventListener('click', generate);
  try {
    const served = await api('/api/served');
    servedId = served.id;
    const layouts = await api('/api/geometries');
    const sel = $('layout');
    const opt = (value, label) => { const o = document.createElement('option'); o.value = value; o.textContent = label; sel.appendChild(o); };
    opt('served', `${layouts.served} (served)`);
    layouts.builtin.forEach((n) => opt(n, n));
    // back to the puzzle played last on this server's puzzle, when it was another one
    const current = JSON.parse(localStorage.getItem('anydoku:current') || 'null');
    if (current && current.served === servedId && current.id !== servedId && current.model) {
      try {
        const v = await api('/api/load', { puzzle: current.model });
        if (current.seed !== undefined) v.seed = current.seed;
        show(v);
        congratulate();
        return;
      } catch (e) { /* fall back to the served puzzle */ }
    }
    show(served);
    congratulate();
  } catch (e) {
    message(`Cannot reach the server: ${e.message}`, 'error');
  }
}

start();
