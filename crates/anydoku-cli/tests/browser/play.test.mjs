// End-to-end tests of `anydoku play` in a real browser: Debian's Chromium, headless, driven by
// playwright-core. Run by .ci/run (`npm test` here) after `cargo build --release`; the binary is
// $ANYDOKU_BIN or target/release/anydoku. Screenshots go to $SCREENSHOTS (default ./screenshots).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../../..');
const BIN = process.env.ANYDOKU_BIN || join(root, 'target/release/anydoku');
const SHOTS = process.env.SCREENSHOTS || join(here, 'screenshots');
mkdirSync(SHOTS, { recursive: true });

/** Starts `anydoku play ARGS`; resolves to {url, port, stop}. */
function serve(args, port = 0) {
  const proc = spawn(BIN, ['play', ...args, '--port', String(port)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok, fail) => {
    const lines = createInterface({ input: proc.stdout });
    lines.once('line', (line) => {
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(line);
      if (!m) return fail(new Error(`no address in ${line}`));
      ok({
        url: m[0],
        port: Number(m[1]),
        stop: () => new Promise((done) => { proc.once('exit', done); proc.kill('SIGINT'); }),
      });
    });
    proc.once('exit', (code) => fail(new Error(`anydoku play exited ${code}`)));
  });
}

/** A fresh headless Chromium with its own profile. */
async function browser() {
  const profile = mkdtempSync(join(tmpdir(), 'anydoku-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return {
    page,
    errors,
    close: async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); },
  };
}

async function api(server, path, body) {
  const r = await fetch(server.url + path.slice(1), body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  return r.json();
}

/** Opens the page and waits for the board. */
async function open(page, server) {
  await page.goto(server.url);
  await page.waitForSelector('#board svg .cell[data-cell]');
}

const selected = (page) => page.$eval('#board', (b) => Number(b.dataset.selected));

/** Moves the selection to cell `target` with the arrow keys (grid layouts: by column, then row). */
async function goTo(page, view, positions, target) {
  for (let guard = 0; guard < 4 * view.cells.length; guard++) {
    const at = await selected(page);
    if (at === target) return;
    if (at < 0) { await page.keyboard.press('ArrowRight'); continue; }
    const [ax, ay] = positions[at];
    const [tx, ty] = positions[target];
    const key = tx > ax + 1 ? 'ArrowRight' : tx < ax - 1 ? 'ArrowLeft' : ty > ay + 1 ? 'ArrowDown' : 'ArrowUp';
    await page.keyboard.press(key);
  }
  assert.fail(`could not reach cell ${target} by arrow keys`);
}

const cellPositions = (page) => page.$$eval('#board .cell[data-cell]', (els) => els.map((e) => [Number(e.dataset.cx), Number(e.dataset.cy)]));
const entryCount = (page) => page.$$eval('#overlay text.entry', (t) => t.length);

/** Plays a whole grid by keyboard: a wrong entry flagged by Check, a hint, a reload, a server
 * restart, then every right symbol and the congratulation. */
async function playToTheEnd(file, shot) {
  let server = await serve([file]);
  const b = await browser();
  const { page } = b;
  try {
    const view = await api(server, '/api/served');
    const { solution } = await api(server, '/api/solve', { puzzle: view.id });
    await open(page, server);
    const positions = await cellPositions(page);
    assert.equal(positions.length, view.cells.length);
    const empty = view.givens.map((g, i) => (g === null ? i : -1)).filter((i) => i >= 0);
    await page.focus('#board');

    // a wrong symbol, flagged by Check
    const first = empty[0];
    await goTo(page, view, positions, first);
    const wrong = view.symbols.find((s) => s !== solution[first]);
    await page.keyboard.press(wrong);
    await page.click('#check');
    await page.waitForSelector(`#board .cell.wrong[data-cell="${first}"]`);
    assert.match(await page.textContent('#message'), new RegExp(view.cells[first]));

    // a hint names the wrong entry; after erasing it, a hint shows a step and its cells
    await page.focus('#board');
    await page.keyboard.press('Backspace');
    await page.click('#hint');
    await page.waitForSelector('#message.hint');
    const hintText = await page.textContent('#message');
    assert.match(hintText, /→/);
    assert.ok(await page.$$eval('#board .cell.hint-cell', (e) => e.length) >= 1);
    assert.ok(await page.$$eval('#board .cell.hint-shape', (e) => e.length) >= 1);
    await page.screenshot({ path: join(SHOTS, `${shot}-hint.png`) });

    // half the empty cells by keyboard, then a reload and a server restart keep them
    await page.focus('#board');
    const half = empty.slice(0, Math.ceil(empty.length / 2));
    for (const i of half) {
      await goTo(page, view, positions, i);
      await page.keyboard.press(solution[i]);
    }
    await page.waitForFunction((n) => document.querySelectorAll('#overlay text.entry').length === n, half.length);
    await page.reload();
    await page.waitForSelector('#overlay text.entry');
    assert.equal(await entryCount(page), half.length, 'entries kept after a reload');
    await server.stop();
    server = await serve([file], server.port);
    await page.reload();
    await page.waitForSelector('#overlay text.entry');
    assert.equal(await entryCount(page), half.length, 'entries kept after a server restart');

    // the rest, then the congratulation
    await page.focus('#board');
    for (const i of empty.slice(half.length)) {
      await goTo(page, view, positions, i);
      await page.keyboard.press(solution[i]);
    }
    await page.waitForSelector('#congrats:not([hidden])');
    assert.match(await page.textContent('#congrats'), /Congratulations/);
    assert.equal(await entryCount(page), empty.length);
    await page.screenshot({ path: join(SHOTS, `${shot}-solved.png`) });
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
    await server.stop();
  }
}

test('a 4x4 is played to the end by keyboard', () => playToTheEnd('puzzles/classic4.toml', 'classic4'));

test('a 6x6 is played to the end by keyboard', () => playToTheEnd('puzzles/classic6.toml', 'classic6'));

/** Every layout cell is one clickable cell: hit-testing its centre finds it, and clicks select. */
async function everyCellClickable(file, shot) {
  const server = await serve([file]);
  const b = await browser();
  const { page } = b;
  try {
    const view = await api(server, '/api/served');
    await open(page, server);
    const hits = await page.evaluate(() => {
      const svg = document.querySelector('#board svg');
      const m = svg.getScreenCTM();
      return [...svg.querySelectorAll('.cell[data-cell]')].map((el) => {
        const p = new DOMPoint(Number(el.dataset.cx), Number(el.dataset.cy)).matrixTransform(m);
        const hit = document.elementFromPoint(p.x, p.y);
        return { cell: Number(el.dataset.cell), hit: hit && hit.dataset ? Number(hit.dataset.cell) : null, x: p.x, y: p.y };
      });
    });
    assert.equal(hits.length, view.cells.length, 'one cell per layout cell');
    assert.deepEqual(hits.map((h) => h.cell), view.cells.map((_, i) => i));
    const missed = hits.filter((h) => h.hit !== h.cell);
    assert.deepEqual(missed, [], 'every cell is hit at its centre');
    for (const i of [0, Math.floor(hits.length / 2), hits.length - 1]) {
      await page.mouse.click(hits[i].x, hits[i].y);
      assert.equal(await selected(page), i);
    }
    // some right entries and pencil marks, entered by clicks and keys, for the screenshot
    const { solution } = await api(server, '/api/solve', { puzzle: view.id });
    const empty = view.givens.map((g, i) => (g === null ? i : -1)).filter((i) => i >= 0);
    for (const i of empty.slice(0, 12)) {
      await page.mouse.click(hits[i].x, hits[i].y);
      await page.keyboard.press(solution[i]);
    }
    for (const i of empty.slice(12, 15)) {
      await page.mouse.click(hits[i].x, hits[i].y);
      for (const s of [solution[i], view.symbols.find((t) => t !== solution[i])]) await page.keyboard.press(`Shift+${s}`);
    }
    assert.equal(await entryCount(page), 12);
    assert.equal(await page.$$eval('#overlay text.mark', (t) => t.length), 6);
    await page.mouse.click(hits[0].x, hits[0].y);
    await page.mouse.click(hits[hits.length - 1].x, hits[hits.length - 1].y);
    assert.equal(await selected(page), hits.length - 1);
    // a symbol typed into the selected (last) cell shows up, unless it is a given
    if (view.givens[hits.length - 1] === null) {
      await page.keyboard.press(view.symbols[0]);
      assert.equal(await entryCount(page), 13);
      await page.keyboard.press('Delete');
      assert.equal(await entryCount(page), 12);
    }
    await page.click('#hint');
    await page.waitForSelector('#message.hint');
    await page.screenshot({ path: join(SHOTS, `${shot}.png`) });
    // Solve fills in the rest
    await page.click('#solve');
    await page.waitForSelector('#congrats:not([hidden])');
    assert.match(await page.textContent('#congrats'), /Solved by the computer/);
    assert.equal(await entryCount(page), empty.length);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
    await server.stop();
  }
}

test('a Samurai has one clickable cell per layout cell', () => everyCellClickable('puzzles/samurai.toml', 'samurai'));

test('a Tredoku has one clickable cell per layout cell', () => everyCellClickable('puzzles/tredoku.toml', 'tredoku'));

test('a Killer has one clickable cell per layout cell', () => everyCellClickable('puzzles/killer.toml', 'killer'));

test('pencil marks, conflicts, undo and redo, a new puzzle and an export that the CLI reads back', async () => {
  let server = await serve(['puzzles/classic4.toml']);
  const b = await browser();
  const { page } = b;
  try {
    await open(page, server);
    const view = await api(server, '/api/served');
    const i = view.givens.indexOf(null);
    await page.click(`#board .cell[data-cell="${i}"]`);
    await page.keyboard.press('Shift+1');
    await page.keyboard.press('Shift+2');
    assert.equal(await page.$$eval('#overlay text.mark', (t) => t.length), 2);
    await page.click('#mode');
    await page.keyboard.press('2');
    assert.equal(await page.$$eval('#overlay text.mark', (t) => t.length), 1, 'pencil mode toggles');
    await page.click('#mode');
    await page.focus('#board');
    const { solution } = await api(server, '/api/solve', { puzzle: view.id });
    await page.keyboard.press(solution[i]);
    assert.equal(await entryCount(page), 1);
    await page.keyboard.press('Control+z');
    assert.equal(await entryCount(page), 0, 'undo');
    await page.keyboard.press('Control+y');
    assert.equal(await entryCount(page), 1, 'redo');

    // a symbol that repeats a given is shown as a conflict at once, and undone
    const j = view.givens.findIndex((g, k) => g === null && k !== i);
    let clash = null;
    for (const s of view.symbols) {
      const r = await api(server, '/api/check', { puzzle: view.id, entries: { [view.cells[j]]: s } });
      if (r.conflicts.length) { clash = s; break; }
    }
    assert.ok(clash, 'some symbol clashes with a given');
    await page.click(`#board .cell[data-cell="${j}"]`);
    await page.keyboard.press(clash);
    await page.waitForSelector(`#board .cell.conflict[data-cell="${j}"]`);
    await page.waitForSelector('#overlay text.entry.bad');
    assert.match(await page.textContent('#message'), new RegExp(view.cells[j]));
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => !document.querySelector('#board .cell.conflict'));
    assert.equal(await entryCount(page), 1);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    const exportDir = mkdtempSync(join(tmpdir(), 'anydoku-export-'));
    const file = join(exportDir, 'game.json');
    await download.saveAs(file);
    const model = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal([...model.source.entries].filter((c) => c !== '.').length, 1);
    assert.match(execFileSync(BIN, ['solve', file], { encoding: 'utf8' }), new RegExp(solution.slice(0, 4).join(' ')));
    const hint = execFileSync(BIN, ['hint', file, '--entries', model.source.entries], { encoding: 'utf8' });
    assert.match(hint, /→/);
    assert.doesNotMatch(hint, new RegExp(`→ ${view.cells[i]} =`), 'the exported entry is taken into account');
    rmSync(exportDir, { recursive: true, force: true });

    // a new puzzle on another layout, generated on the server
    await page.selectOption('#layout', 'classic6');
    await page.click('#new');
    await page.waitForFunction(() => document.querySelectorAll('#board .cell[data-cell]').length === 36);
    assert.match(await page.textContent('#title'), /6x6/);
    await page.reload();
    await page.waitForSelector('#board svg .cell[data-cell]');
    assert.equal(await page.$$eval('#board .cell[data-cell]', (e) => e.length), 36, 'the new puzzle is reopened after a reload');
    // the server restarts and no longer knows the generated puzzle: the page sends it again
    await server.stop();
    server = await serve(['puzzles/classic4.toml'], server.port);
    await page.click('#hint');
    await page.waitForSelector('#message.hint');
    assert.match(await page.textContent('#message'), /→/);
    await page.screenshot({ path: join(SHOTS, 'new-classic6.png') });
    // the one 404 (unknown puzzle) that made the page send the model again
    assert.deepEqual(b.errors, ['Failed to load resource: the server responded with a status of 404 (Not Found)']);
  } finally {
    await b.close();
    await server.stop();
  }
});

test('emoji symbols are played from the palette on a generated puzzle of a layout file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'anydoku-fruit-'));
  const layout = join(dir, 'fruit.toml');
  writeFileSync(layout, 'name = "Fruit 4x4"\nsymbols = "🍎🍐🍊🍋"\n[[grid]]\nsize = 4\nboxes = [2, 2]\n');
  const server = await serve(['--geometry', layout, '--seed', '3']);
  const b = await browser();
  const { page } = b;
  try {
    await open(page, server);
    const view = await api(server, '/api/served');
    assert.deepEqual(view.symbols, ['🍎', '🍐', '🍊', '🍋']);
    assert.equal(await page.$$eval('#palette button', (bs) => bs.map((x) => x.textContent).join('')), '🍎🍐🍊🍋');
    const { solution } = await api(server, '/api/solve', { puzzle: view.id });
    for (let i = 0; i < view.cells.length; i++) {
      if (view.givens[i] !== null) continue;
      await page.click(`#board .cell[data-cell="${i}"]`);
      await page.click(`#palette button[data-symbol="${solution[i]}"]`);
    }
    await page.waitForSelector('#congrats:not([hidden])');
    assert.match(await page.textContent('#congrats'), /Congratulations/);
    await page.screenshot({ path: join(SHOTS, 'fruit-solved.png') });
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('symbols of two digits are typed, pencilled and shown on a 16x16 with the numbers 1-16', async () => {
  const server = await serve(['puzzles/classic16n.toml']);
  const b = await browser();
  const { page } = b;
  try {
    await open(page, server);
    const view = await api(server, '/api/served');
    assert.equal(view.symbols[15], '16');
    assert.equal(await page.$$eval('#palette button', (bs) => bs.map((x) => x.textContent).join(' ')),
      view.symbols.join(' '));
    const { solution } = await api(server, '/api/solve', { puzzle: view.id });
    const empty = view.givens.map((g, i) => (g === null ? i : -1)).filter((i) => i >= 0);
    // a pencil mark of two digits typed under Shift: the mark 16 alone, not 1 and 16
    const first = empty[0];
    await page.click(`#board .cell[data-cell="${first}"]`);
    await page.keyboard.press('Shift+Digit1');
    await page.keyboard.press('Shift+Digit6');
    const marks = await page.$$eval('#overlay text.mark', (t) => t.map((x) => x.textContent));
    assert.deepEqual(marks, ['16']);
    await page.keyboard.press('Shift+Digit1');
    await page.keyboard.press('Shift+Digit6');
    assert.equal(await page.$$eval('#overlay text.mark', (t) => t.length), 0);
    // every empty cell typed by keyboard, one or two digits
    for (const i of empty) {
      await page.click(`#board .cell[data-cell="${i}"]`);
      for (const c of solution[i]) await page.keyboard.press(c);
    }
    await page.waitForSelector('#congrats:not([hidden])');
    const entries = await page.$$eval('#overlay text.entry', (t) => t.map((x) => x.textContent));
    assert.deepEqual(entries.sort(), empty.map((i) => solution[i]).sort());
    await page.screenshot({ path: join(SHOTS, 'classic16n-solved.png') });
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
    await server.stop();
  }
});
