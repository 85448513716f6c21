// The package and the demo page in a real browser (Debian's headless Chromium, driven by
// playwright-core): the plain <script type="module"> path with Web Worker pools, and the
// demo page built by Vite, solving one instance per family on both engines.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { BROWSER_REQUIRED, CHROMIUM, chromiumAvailable, launchChromium, serve } from './browser/harness.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const shots = `${root}test-output/browser`;

it.runIf(BROWSER_REQUIRED && !chromiumAvailable)('finds Chromium', () => {
  expect.fail(`no browser at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
});

describe.runIf(chromiumAvailable)('in Chromium', () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    await build({ configFile: `${root}web/vite.config.js`, logLevel: 'warn' });
    mkdirSync(shots, { recursive: true });
    server = await serve(root);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}${path}`);
    (page as Page & { errors: string[] }).errors = errors;
    return page;
  }

  it('loads from a plain module script: engine fetched beside the module, Web Worker pools, a clear error for a bad URL', async () => {
    const page = await open('/test/browser/plain.html');
    const results = await page.evaluate(() => (window as unknown as { results: Promise<unknown> }).results);
    expect(results).toEqual({
      missing: {
        code: 'ENGINE_FAILURE',
        message: `could not load the WebAssembly engine from ${server.url}/no-such-dir/bitpuzzle.wasm: HTTP 404 Not Found`,
      },
      inline: { total: '92', distinct: '12' },
      pooled: { total: '2279184', distinct: '285053', threads: 2, parts: expect.any(Number) },
      tiling: { total: '9356', distinct: '2339', threads: expect.any(Number) },
      twin: { total: '92' },
      joined: { total: '365596', distinct: '45752', method: 'join' },
      joinedTwin: { total: '724', distinct: '92' },
    });
    expect((results as { pooled: { parts: number } }).pooled.parts).toBeGreaterThan(1);
    await page.close();
  });

  it('on a cross-origin-isolated page the Web Workers share one copy of the sliding-tile tables, and a peg count\'s levels', async () => {
    const isolated = await serve(root, { isolated: true });
    const page = await browser.newPage();
    try {
      await page.goto(`${isolated.url}/test/browser/isolated.html`);
      const results = await page.evaluate(() => (window as unknown as { results: Promise<unknown> }).results);
      expect(results).toEqual({ isolated: true, pegs: { total: '586763671862', threads: 2 }, optimal: true, same: true });
    } finally {
      await page.close();
      await isolated.close();
    }
  });

  describe('the demo page', () => {
    let page: Page;

    beforeAll(async () => {
      page = await open('/build/web/index.html');
      await page.waitForSelector('body[data-ready=true]');
    });

    afterAll(() => page.close());

    /** Solves the shown problem on one engine; returns the summary line and the drawing's markup. */
    async function solveOn(engine: 'wasm' | 'js'): Promise<{ summary: string; drawing: string }> {
      await page.check(`input[name=engine][value=${engine}]`);
      await page.click('#solve');
      await page.waitForSelector('body[data-state=idle]');
      const status = await page.textContent('#status');
      expect(status).toMatch(/^done in \d+ ms$/);
      return { summary: (await page.textContent('#summary'))!, drawing: await page.innerHTML('#drawing') };
    }

    async function solveFamily(family: string): Promise<string> {
      await page.click(`nav button[data-family=${family}]`);
      const wasm = await solveOn('wasm');
      await page.screenshot({ path: `${shots}/${family}.png` });
      const js = await solveOn('js');
      // The TypeScript twin runs the same search: the same answer, drawn the same.
      expect(js).toEqual(wasm);
      const runs = await page.$$eval(`#runs tr[data-family=${family}]`, (rows) =>
        rows.map((row) => [(row as HTMLElement).dataset.engine, row.children[2].textContent]),
      );
      expect(runs.slice(0, 2)).toEqual([
        ['js', wasm.summary],
        ['wasm', wasm.summary],
      ]);
      return wasm.summary;
    }

    it('N-Queens: counts 8 queens and draws a valid board', async () => {
      expect(await solveFamily('queens')).toBe('92 solutions, 12 distinct');
      const queens = await page.$$eval('#drawing .queen', (cells) =>
        cells.map((c) => [Number((c as HTMLElement).dataset.x), Number((c as HTMLElement).dataset.y)]),
      );
      expect(queens).toHaveLength(8);
      expect(new Set(queens.map(([x]) => x)).size).toBe(8);
      expect(new Set(queens.map(([, y]) => y)).size).toBe(8);
      expect(new Set(queens.map(([x, y]) => x + y)).size).toBe(8);
      expect(new Set(queens.map(([x, y]) => x - y)).size).toBe(8);
    });

    it('polyomino: counts the 6×10 pentomino tilings and draws twelve pieces of five cells', async () => {
      expect(await solveFamily('polyomino')).toBe('9356 tilings, 2339 distinct');
      const fills = await page.$$eval('#drawing svg g rect', (rects) => rects.map((r) => r.getAttribute('fill')));
      expect(fills).toHaveLength(60);
      const sizes = new Map<string | null, number>();
      for (const fill of fills) sizes.set(fill, (sizes.get(fill) ?? 0) + 1);
      expect([...sizes.values()]).toEqual(new Array(12).fill(5));
    });

    it('polyomino in space: counts the Soma cube and draws its three layers', async () => {
      await page.click('nav button[data-family=polyomino]');
      await page.selectOption('#preset', { label: 'Soma cube, 3×3×3' });
      const { summary } = await solveOn('wasm');
      expect(summary).toBe('11520 tilings, 240 distinct');
      expect(await page.$$eval('#drawing svg g', (groups) => groups.length)).toBe(3);
      expect(await page.$$eval('#drawing svg g rect', (rects) => rects.length)).toBe(27);
      await page.selectOption('#preset', { index: 0 });
    });

    it('Sudoku: solves the 17-clue puzzle and draws a valid grid that keeps the givens', async () => {
      expect(await solveFamily('sudoku')).toBe('1 solution');
      const cells = await page.$$eval('#drawing .cell', (els) =>
        els.map((c) => [Number((c as HTMLElement).dataset.x), Number((c as HTMLElement).dataset.y), Number(c.textContent)]),
      );
      expect(cells).toHaveLength(81);
      const givens = (await page.inputValue('#editor textarea')).trim().split('\n');
      const groups = new Map<string, Set<number>>();
      for (const [x, y, digit] of cells) {
        for (const key of [`r${y}`, `c${x}`, `b${Math.floor(y / 3)}${Math.floor(x / 3)}`]) {
          groups.set(key, (groups.get(key) ?? new Set()).add(digit));
        }
        if (givens[y][x] !== '.') expect(digit).toBe(Number(givens[y][x]));
      }
      expect([...groups.values()].every((digits) => digits.size === 9)).toBe(true);
    });

    /** Steps the playback to its last frame and returns the drawn frame's cells with a class. */
    async function lastFrame(selector: string): Promise<{ frames: number; marked: number; caption: string }> {
      await page.click('#drawing .playback button[title=last]');
      return {
        frames: Number(await page.getAttribute('#drawing', 'data-frames')),
        marked: (await page.$$(`#drawing .frame ${selector}`)).length,
        caption: (await page.textContent('#drawing .caption'))!,
      };
    }

    it('peg solitaire: solves the English centre game and plays the 31 jumps back to one peg in d4', async () => {
      const summary = await solveFamily('pegs');
      expect(summary).toMatch(/^\d+ moves \(31 jumps\)$/);
      expect(await page.$$('#drawing .frame circle.peg')).toHaveLength(32);
      expect(await page.$$('#drawing .frame circle.hole')).toHaveLength(1);
      const last = await lastFrame('circle.peg');
      expect(last).toEqual({ frames: 32, marked: 1, caption: 'after 31 jumps: 1 peg left' });
      expect(await page.textContent('#drawing .frame circle.peg title')).toBe('d4');
    });

    it('sliding tiles: solves a hardest 8-puzzle in 31 moves and plays them back to the goal', async () => {
      expect(await solveFamily('sliding')).toBe('31 moves, optimal');
      const tiles = async (): Promise<string[]> => page.$$eval('#drawing .frame .cell', (cells) => cells.map((c) => c.textContent ?? ''));
      expect(await tiles()).toEqual(['8', '6', '7', '2', '5', '4', '3', '', '1']);
      const last = await lastFrame('.blank');
      expect(last).toMatchObject({ frames: 32, marked: 1 });
      expect(await tiles()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '']);
    });

    it('SameGame: clears the 5×5 board and plays the clicks back to an empty board', async () => {
      const summary = await solveFamily('samegame');
      const clicks = Number(/^cleared in (\d+) clicks$/.exec(summary)?.[1]);
      expect(clicks).toBeGreaterThan(0);
      expect(await page.$$('#drawing .frame .block')).toHaveLength(25);
      const last = await lastFrame('.block');
      expect(last).toEqual({ frames: clicks + 1, marked: 0, caption: `after ${clicks} clicks: 0 blocks left` });
    });

    it('the region editor draws its cells and toggles them by click and by keyboard; a hole changes the count', async () => {
      await page.click('nav button[data-family=polyomino]');
      await page.selectOption('#preset', { label: 'pentominoes, 8×8 minus the centre' });
      const cells = page.locator('#editor .board.region [role=gridcell]');
      expect(await cells.count()).toBe(64);
      // Each cell is drawn: a box of its own with a visible border, holes dark.
      const box = await cells.first().boundingBox();
      expect(box!.width).toBeGreaterThanOrEqual(20);
      expect(await cells.first().evaluate((c) => getComputedStyle(c).borderTopStyle)).toBe('solid');
      const holes = () => page.$$eval('#editor [role=gridcell].hole', (els) => els.map((e) => `${(e as HTMLElement).dataset.x},${(e as HTMLElement).dataset.y}`));
      expect(await holes()).toEqual(['3,3', '4,3', '3,4', '4,4']);
      // A click fills the centre back in (cell 3,3), the keyboard does the same to 4,3: Tab
      // reaches the grid's first cell, the arrows move, Space toggles.
      await page.click('#editor [role=gridcell][data-x="3"][data-y="3"]');
      await page.focus('#editor [role=gridcell][data-x="0"][data-y="0"]');
      for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', ' ']) await page.keyboard.press(key);
      expect(await holes()).toEqual(['3,4', '4,4']);
      expect(await page.getAttribute('#editor [role=gridcell][data-x="4"][data-y="3"]', 'aria-pressed')).toBe('false');
      expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.x)).toBe('4');
      // Two holes side by side leave 62 cells: no pentomino tiling (62 is not a multiple of 5).
      await page.check('input[name=engine][value=wasm]');
      await page.click('#solve');
      await page.waitForSelector('body[data-state=idle]');
      expect(await page.textContent('#status')).toMatch(/^UNSOLVABLE: the pieces cover 60 cells; the region has 62/);
      await page.focus('#editor [role=gridcell][data-x="4"][data-y="3"]');
      await page.keyboard.press('Enter'); // Enter toggles too: 4,3 is a hole again
      await page.click('#editor [role=gridcell][data-x="3"][data-y="3"]');
      expect(await holes()).toEqual(['3,3', '4,3', '3,4', '4,4']);
      const { summary } = await solveOn('wasm');
      expect(summary).toBe('520 tilings, 65 distinct');
      await page.selectOption('#preset', { index: 0 });
    });

    it('reports bad input with its line and column', async () => {
      await page.click('nav button[data-family=sudoku]');
      await page.fill('#editor textarea', '12..\n..x.\n....\n....');
      await page.click('#solve');
      await page.waitForSelector('body[data-state=idle]');
      expect(await page.textContent('#status')).toMatch(/^BAD_INPUT: .*line 2.*column 3/);
    });

    it('every family reads on a phone-width screen: no sideways scrolling, boards and drawings within the screen', async () => {
      const phone = await browser.newPage({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2 });
      await phone.goto(`${server.url}/build/web/index.html`);
      await phone.waitForSelector('body[data-ready=true]');
      for (const family of ['queens', 'polyomino', 'sudoku', 'pegs', 'sliding', 'samegame']) {
        await phone.click(`nav button[data-family=${family}]`);
        await phone.click('#solve');
        await phone.waitForSelector('body[data-state=idle]');
        expect(await phone.textContent('#status'), family).toMatch(/^done in/);
        await phone.screenshot({ path: `${shots}/phone-${family}.png`, fullPage: true });
        const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${family}: the page scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
        // The editor's board and the drawing lie within the screen's width.
        const boxes = await phone.$$eval('#editor .board, #drawing .board, #drawing svg', (els) =>
          els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right, r.width]),
        );
        expect(boxes.length, family).toBeGreaterThan(0);
        for (const [left, right, width] of boxes) {
          expect(left, family).toBeGreaterThanOrEqual(0);
          expect(right, family).toBeLessThanOrEqual(375);
          expect(width, family).toBeGreaterThan(100);
        }
      }
      await phone.close();
    });

    it('stays responsive while solving and cancels a long search', async () => {
      await page.click('nav button[data-family=queens]');
      await page.fill('#editor input[type=number]', '16');
      await page.dispatchEvent('#editor input[type=number]', 'change');
      await page.check('input[name=engine][value=js]');
      await page.click('#solve');
      await page.waitForSelector('body[data-state=solving]');
      // The click is handled while the search runs in the worker: the page is not frozen.
      await page.click('#cancel');
      await page.waitForSelector('body[data-state=idle]');
      expect(await page.textContent('#status')).toMatch(/^ABORTED/);
      expect((page as Page & { errors: string[] }).errors).toEqual([]);
    });
  });
});
