// The README and the pages of docs/ as tests: their examples are read out and run, so that they
// cannot drift from the code. Each page runs in a scratch folder of its own. The conventions
// (also in docs/contributing.md):
//
// ```js blocks run as ES modules (one node process each, 60 s at most) in a folder where
// node_modules/bitpuzzle links to this checkout, so `import … from 'bitpuzzle'` goes through the
// package's exports to the built dist/. A block passes when it runs to the end, and:
//   code;                      // => VALUE       the value of the expression matches VALUE
//   const { a, b } = code;     // => VA, VB      the declared names, in order, match the values
//   // prints: TEXT            the block's output contains TEXT (loosely, as for commands below)
// VALUE is JavaScript up to the end of the comment or its first `:` outside brackets and quotes
// (what follows the colon is prose). Objects match when they have the keys stated (they may have
// more); a name the README does not define means "any value, the key exists" (`{ stats }`);
// `…` means "and more" (`[1, 2, …]`, `{ left: 1, … }`); numbers, BigInts (`1n` is not `1`) and
// strings match exactly; a typed array matches an array.
//
// ```sh blocks: each line `$ command` runs in sh (continued by a trailing `\`), with
// `bitpuzzle` the checkout's bin/bitpuzzle, in one scratch folder for the whole README (sh blocks
// without `$` lines, such as `npm ci && npm start`, are not run); a
// trailing `# comment` is not run, and `# … exit N …` in it is the expected exit status (else 0).
// The lines after a command, up to the next `$` line, are its output (stdout and stderr as a
// terminal shows them); none means only the exit status is checked. The output matches when,
// with the README's text as a pattern:
//   - `…` or `...` stands for any text (any number of lines, or part of a line: `{...}`);
//   - a run of white space stands for any run of white space (lines may be wrapped);
//   - a number before `ms` or `s`, after `"milliseconds":`, or before `thread(s)` or `part(s)`
//     stands for any number (timings, and the machine's core count);
//   - everything else is exact, and the whole output must match.
// Blocks in other languages are not run. An HTML comment `<!-- readme-test: … -->` just before a
// block (blank lines and other such comments may come between) says how to run it:
//   skip (reason)              the block is not run
//   skip "TEXT" (reason)       the commands (sh) or lines (js) containing TEXT are not run
//   replace "A" "B" (reason)   A is replaced by B before running (a shorter time budget, say)
//   setup: CODE                (js) CODE runs first: the names the block uses but does not define
//   file NAME                  the block (any language) is also the file NAME for the commands
// and anywhere in the README, `<!-- readme-test: file NAME` followed by lines up to `-->` makes
// those lines the file NAME. Files are written to the scratch folder before any command runs.
// Every skip and replace says why, in parentheses; a skip or replace whose text is not in its
// block, a marker that is not followed by a block, and a file no command uses are errors.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { check, matches, ANY, MORE } from './fixtures/readme-check.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Every page with examples: the README, then docs/ (paths from the root, as messages name them). */
const PAGES = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
/** The page being read, for messages (the parsers below run one page at a time). */
let page = 'README.md';

// ---------------------------------------------------------------- reading the README

interface Marker {
  line: number;
  kind: 'skip' | 'replace' | 'setup' | 'file';
  text?: string; // skip: the text of the lines or commands to skip; file: the file's name
  replacement?: string;
  code?: string;
  reason?: string;
}

interface Block {
  line: number; // the line of the opening fence
  language: string;
  lines: string[];
  markers: Marker[];
}

interface Readme {
  blocks: Block[];
  files: Map<string, string>;
}

const quoted = String.raw`"((?:[^"\\]|\\.)*)"`;
const reasonPattern = String.raw`\(([^)]+)\)`;

function parseMarker(body: string, line: number): Marker {
  const fail = (why: string): never => {
    throw new Error(`${page}:${line}: readme-test marker ${JSON.stringify(body)}: ${why}`);
  };
  const unquote = (text: string): string => JSON.parse(`"${text}"`);
  let m: RegExpExecArray | null;
  if ((m = new RegExp(`^skip\\s+${reasonPattern}$`).exec(body))) return { line, kind: 'skip', reason: m[1] };
  if ((m = new RegExp(`^skip\\s+${quoted}\\s+${reasonPattern}$`).exec(body))) {
    return { line, kind: 'skip', text: unquote(m[1]), reason: m[2] };
  }
  if ((m = new RegExp(`^replace\\s+${quoted}\\s+${quoted}\\s+${reasonPattern}$`).exec(body))) {
    return { line, kind: 'replace', text: unquote(m[1]), replacement: unquote(m[2]), reason: m[3] };
  }
  if ((m = /^setup:\s*([\s\S]+)$/.exec(body))) return { line, kind: 'setup', code: m[1] };
  if ((m = /^file\s+([\w.-]+)(?:\n([\s\S]*))?$/.exec(body))) return { line, kind: 'file', text: m[1], code: m[2] };
  return fail('unknown; expected skip (reason), skip "TEXT" (reason), replace "A" "B" (reason), setup: CODE or file NAME');
}

function parseReadme(text: string): Readme {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  const files = new Map<string, string>();
  let pending: Marker[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const marker = /^<!--\s*readme-test:\s*([\s\S]*)$/.exec(line);
    if (marker) {
      let body = marker[1];
      const start = i + 1;
      while (!body.includes('-->')) {
        if (++i >= lines.length) throw new Error(`${page}:${start}: readme-test marker without -->`);
        body += `\n${lines[i]}`;
      }
      const parsed = parseMarker(body.slice(0, body.indexOf('-->')).trimEnd(), start);
      if (parsed.kind === 'file' && parsed.code !== undefined) files.set(parsed.text!, parsed.code.replace(/\s*$/, '\n'));
      else pending.push(parsed);
      continue;
    }
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence) {
      const block: Block = { line: i + 1, language: fence[1], lines: [], markers: pending };
      pending = [];
      for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) block.lines.push(lines[i]);
      if (i >= lines.length) throw new Error(`${page}:${block.line}: the code block is not closed`);
      blocks.push(block);
      for (const m of block.markers) if (m.kind === 'file') files.set(m.text!, `${block.lines.join('\n')}\n`);
      continue;
    }
    if (pending.length && line.trim() !== '') {
      throw new Error(`${page}:${pending[0].line}: a readme-test marker must come just before a code block`);
    }
  }
  if (pending.length) throw new Error(`${page}:${pending[0].line}: a readme-test marker after the last code block`);
  return { blocks, files };
}

/** The block's text with its `replace` markers applied (each must find its text). */
function replaced(block: Block): string[] {
  let text = block.lines.join('\n');
  for (const m of block.markers.filter((m) => m.kind === 'replace')) {
    if (!text.includes(m.text!)) throw new Error(`${page}:${m.line}: replace: ${JSON.stringify(m.text)} is not in the block`);
    text = text.replaceAll(m.text!, m.replacement!);
  }
  return text.split('\n');
}

/** The skip markers with a text, each checked to match something in the block. */
function skippedTexts(block: Block): Marker[] {
  const skips = block.markers.filter((m) => m.kind === 'skip' && m.text !== undefined);
  for (const m of skips) {
    if (!block.lines.some((line) => line.includes(m.text!))) {
      throw new Error(`${page}:${m.line}: skip: ${JSON.stringify(m.text)} is not in the block`);
    }
  }
  return skips;
}

const wholeBlockSkip = (block: Block): Marker | undefined => block.markers.find((m) => m.kind === 'skip' && m.text === undefined);

// ---------------------------------------------------------------- loose output matching

/** The README's expected output as a regular expression over the whole actual output. */
function outputPattern(expected: string): RegExp {
  const pieces: string[] = [];
  const token = /(…|\.\.\.)|(\s+)|("milliseconds":)-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|\d+(?:\.\d+)?(\s*)(ms|s)\b|\d+(\s+)(thread\(s\)|part\(s\))/y;
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const number = String.raw`-?\d+(?:\.\d+)?(?:e[-+]?\d+)?`;
  let literal = '';
  for (let at = 0; at < expected.length; ) {
    token.lastIndex = at;
    const m = token.exec(expected);
    if (!m) {
      literal += expected[at++];
      continue;
    }
    pieces.push(escape(literal));
    literal = '';
    if (m[1]) pieces.push(String.raw`[\s\S]*?`);
    else if (m[2]) pieces.push(String.raw`\s+`);
    else if (m[3]) pieces.push(escape(m[3]) + number);
    else if (m[5]) pieces.push(number + (m[4] ? String.raw`\s+` : '') + m[5] + String.raw`\b`);
    else pieces.push(String.raw`\d+\s+` + escape(m[7]));
    at = token.lastIndex;
  }
  pieces.push(escape(literal));
  return new RegExp(`^\\s*${pieces.join('')}\\s*$`);
}

const outputMatches = (actual: string, expected: string): boolean => outputPattern(expected.trim()).test(actual);
const outputContains = (actual: string, expected: string): boolean => {
  const pattern = outputPattern(expected.trim()).source.replace(/^\^\\s\*/, '').replace(/\\s\*\$$/, '');
  return new RegExp(pattern).test(actual);
};

// ---------------------------------------------------------------- js blocks

/** `text` up to its first `:` outside brackets and quotes (the value; prose may follow). */
function valueBeforeColon(text: string): string {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ':' && depth === 0) return text.slice(0, i);
  }
  return text;
}

/** The names a `const`/`let` pattern declares: `x`, `{ a, b: c }` (a, c) or `[a, b]`. */
function declaredNames(pattern: string, line: number): string[] {
  const p = pattern.trim();
  if (/^[\w$]+$/.test(p)) return [p];
  const inner = /^[{[]([\s\S]*)[}\]]$/.exec(p);
  if (!inner || /[{[]/.test(inner[1])) throw new Error(`${page}:${line}: "// =>" after a declaration it cannot read: ${p}`);
  return inner[1]
    .split(',')
    .map((part) => part.split('=')[0].split(':').pop()!.trim())
    .filter((name) => name !== '');
}

/** The module a ```js block runs as: line k of the block stays on line k + offset. */
function jsModule(block: Block, lines: string[]): { source: string; offset: number } {
  const skips = skippedTexts(block);
  const header = [`import { check as __readmeCheck } from ${JSON.stringify(join(root, 'test', 'fixtures', 'readme-check.mjs'))};`];
  for (const m of block.markers.filter((m) => m.kind === 'setup')) header.push(...m.code!.split('\n'));
  const body = lines.map((line, i) => {
    const readmeLine = block.line + 1 + i;
    const skip = skips.find((m) => line.includes(m.text!));
    if (skip) return `// skipped (${skip.reason}): ${line}`;
    const arrow = line.indexOf('// =>');
    if (arrow === -1) return line;
    const code = line.slice(0, arrow).trimEnd();
    const value = JSON.stringify(valueBeforeColon(line.slice(arrow + 5)));
    if (!code.endsWith(';')) throw new Error(`${page}:${readmeLine}: "// =>" must follow a statement ending with ";"`);
    const declaration = /^(\s*)(?:const|let|var)\s+([\s\S]+?)\s*=(?![=>])/.exec(code);
    const at = JSON.stringify(`${page}:${readmeLine}`);
    if (declaration) return `${code} __readmeCheck([${declaredNames(declaration[2], readmeLine).join(', ')}], ${value}, ${at});`;
    const indent = /^\s*/.exec(code)![0];
    return `${indent}__readmeCheck([await (${code.trim().slice(0, -1)})], ${value}, ${at});`;
  });
  return { source: [...header, ...body].join('\n'), offset: header.length - block.line };
}

// ---------------------------------------------------------------- sh blocks

interface Command {
  line: number;
  command: string;
  exit: number;
  output: string | null;
}

/** The `$` commands of a block, each with its expected exit status and output. */
function commandsOf(block: Block, lines: string[]): Command[] {
  const commands: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('$ ')) continue;
    const line = block.line + 1 + i;
    let text = lines[i].slice(2);
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text}\n${lines[++i]}`;
    // A comment starts at a `#` after white space, outside quotes.
    let quote = '';
    let comment = '';
    for (let j = 0; j < text.length; j++) {
      const c = text[j];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === "'" || c === '"') quote = c;
      else if (c === '#' && /\s/.test(text[j - 1] ?? ' ')) {
        comment = text.slice(j + 1);
        text = text.slice(0, j);
        break;
      }
    }
    const output: string[] = [];
    while (i + 1 < lines.length && !lines[i + 1].startsWith('$ ')) output.push(lines[++i]);
    while (output.length && output[output.length - 1].trim() === '') output.pop();
    const exit = /\bexit (\d+)\b/.exec(comment);
    commands.push({ line, command: text.trim(), exit: exit ? Number(exit[1]) : 0, output: output.length ? output.join('\n') : null });
  }
  return commands;
}

// ---------------------------------------------------------------- the tests

const scratch = mkdtempSync(join(tmpdir(), 'bitpuzzle-readme-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// `import … from 'bitpuzzle'` resolves through the package's exports, as for a user.
mkdirSync(join(scratch, 'node_modules'));
symlinkSync(root, join(scratch, 'node_modules', 'bitpuzzle'), 'dir');
// `bitpuzzle` on the PATH is this checkout's command.
const binDir = join(scratch, 'bin');
mkdirSync(binDir);
writeFileSync(join(binDir, 'bitpuzzle'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin', 'bitpuzzle')}" "$@"\n`);
chmodSync(join(binDir, 'bitpuzzle'), 0o755);

const env = {
  ...process.env,
  PATH: [binDir, dirname(process.execPath), process.env.PATH].join(delimiter),
  // The 15-puzzle's pattern databases, built once and shared with test/sliding.test.ts.
  BITPUZZLE_CACHE: join(tmpdir(), 'bitpuzzle-test-pdb'),
  NO_COLOR: '1',
};

/** Reads a page (setting `page` for the messages of the parsers) and gives it a scratch folder with its files. */
function readPage(path: string): { readme: Readme; work: string; jsBlocks: Block[]; shBlocks: Block[] } {
  page = path;
  const readme = parseReadme(readFileSync(join(root, path), 'utf8'));
  const work = join(scratch, path.replace(/[/.]/g, '-'));
  mkdirSync(work);
  for (const [name, content] of readme.files) writeFileSync(join(work, name), content);
  return {
    readme,
    work,
    jsBlocks: readme.blocks.filter((b) => b.language === 'js'),
    shBlocks: readme.blocks.filter((b) => b.language === 'sh' && b.lines.some((line) => line.startsWith('$ '))),
  };
}

const pages = PAGES.map((path) => ({ path, ...readPage(path) }));

it('the README and the docs have examples to run, and the pages link to each other', () => {
  expect(pages.reduce((n, p) => n + p.jsBlocks.length, 0)).toBeGreaterThanOrEqual(12);
  expect(pages.reduce((n, p) => n + p.shBlocks.length, 0)).toBeGreaterThanOrEqual(12);
  // Every relative link of a page leads to a file of this checkout.
  for (const { path } of pages) {
    const text = readFileSync(join(root, path), 'utf8');
    for (const [, target] of text.matchAll(/\]\(((?!https?:|#|mailto:)[^)#\s]+)(?:#[^)]*)?\)/g)) {
      expect(existsSync(join(root, dirname(path), target)), `${path}: a link to ${target}`).toBe(true);
    }
  }
});

describe.each(pages.map((p) => [p.path, p] as const))('%s', (path, { readme, work, jsBlocks, shBlocks }) => {
  it('names only files its commands use', () => {
    for (const name of readme.files.keys()) {
      const used = shBlocks.some((b) => b.lines.some((line) => line.startsWith('$ ') && line.includes(name)));
      expect(used, `${path}: file ${name} is used by no command`).toBe(true);
    }
  });

  describe.each(jsBlocks.map((b) => [`js example at line ${b.line}`, b] as const))('%s', (_, block) => {
    const skip = wholeBlockSkip(block);
    it.skipIf(skip)(`runs${skip ? ` (skipped: ${skip.reason})` : ''}`, () => {
      page = path;
      const { source, offset } = jsModule(block, replaced(block));
      const file = join(work, `example-${block.line}.mjs`);
      writeFileSync(file, source);
      const run = spawnSync(process.execPath, [file], { cwd: work, env, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 });
      // Errors name the page's lines, not the generated module's.
      const where = (text: string): string =>
        text.replace(/(?:file:\/\/)?[^\s(]*example-\d+\.mjs:(\d+)/g, (_, n) => `${path}:${Number(n) - offset}`);
      expect(run.error, 'the example did not finish within 60 s').toBeUndefined();
      expect(run.status, where(run.stderr)).toBe(0);
      for (const [i, line] of block.lines.entries()) {
        const prints = /\/\/ prints: (.*)$/.exec(line);
        if (prints) expect(outputContains(run.stdout, prints[1]), `${path}:${block.line + 1 + i}: prints ${prints[1]}\n${run.stdout}`).toBe(true);
      }
    });
  });

  describe.each(shBlocks.map((b) => [`sh example at line ${b.line}`, b] as const))('%s', (_, block) => {
    const skip = wholeBlockSkip(block);
    it.skipIf(skip)(`runs${skip ? ` (skipped: ${skip.reason})` : ''}`, { timeout: 180_000 }, () => {
      page = path;
      const skips = skippedTexts(block);
      const failures: string[] = [];
      for (const command of commandsOf(block, replaced(block))) {
        if (skips.some((m) => command.command.includes(m.text!))) continue;
        const run = spawnSync('sh', ['-c', `{ ${command.command}\n} 2>&1`], { cwd: work, env, encoding: 'utf8', timeout: 150_000, maxBuffer: 64 << 20 });
        const problem =
          run.error !== undefined
            ? `did not finish: ${run.error.message}`
            : run.status !== command.exit
              ? `exit status ${run.status}, the page says ${command.exit}`
              : command.output !== null && !outputMatches(run.stdout, command.output)
                ? `the output differs from the page's`
                : null;
        if (problem) {
          failures.push(`${path}:${command.line}: $ ${command.command}\n  ${problem}\n--- page:\n${command.output ?? ''}\n--- output:\n${run.stdout}`);
        }
      }
      expect(failures.join('\n\n')).toBe('');
    });
  });
});

describe('the README test rules', () => {
  it('matches output loosely only where the rules say', () => {
    expect(outputMatches('n = 8: 92 solutions\n1 solution(s) in 12.5 ms\n', 'n = 8: 92 solutions\n1 solution(s) in 3 ms')).toBe(true);
    expect(outputMatches('n = 8: 92 solutions', 'n = 8: 93 solutions')).toBe(false);
    expect(outputMatches('n = 8: 92 solutions\nmore', 'n = 8: 92 solutions')).toBe(false);
    expect(outputMatches('a\nb\nc\nd', 'a\n…\nd')).toBe(true);
    expect(outputMatches('{"total":1,"stats":{"nodes":4,"milliseconds":0.123}}', '{"total":1,"stats":{...}}')).toBe(true);
    expect(outputMatches('{"nodes":4,"milliseconds":1e-3}', '{"nodes":4,"milliseconds":7.7}')).toBe(true);
    expect(outputMatches('{"nodes":5,"milliseconds":1}', '{"nodes":4,"milliseconds":7.7}')).toBe(false);
    expect(outputMatches('a long line that was wrapped', 'a long line\nthat was  wrapped')).toBe(true);
    expect(outputMatches('in 4 ms on 4 thread(s), 120 part(s)', 'in 1.5 ms on 2 thread(s), 93 part(s)')).toBe(true);
    expect(outputMatches('0.5 s, 3 moves', '0.02 s, 2 moves')).toBe(false);
    expect(outputContains('x\nBAD_INPUT line 2, column 3: "?"\ny', 'BAD_INPUT line 2, column 3: "?"')).toBe(true);
  });

  it('checks "// =>" values: stated keys, exact numbers and BigInts, … for more', () => {
    expect(matches({ total: 1n, stats: { nodes: 4n } }, { total: 1n })).toBe(true);
    expect(matches({ total: 1 }, { total: 1n })).toBe(false);
    expect(matches({ total: 1n }, { total: 1n, reason: null })).toBe(false);
    expect(matches({ reason: undefined }, { reason: ANY })).toBe(true);
    expect(matches({}, { reason: ANY })).toBe(false);
    expect(matches(Int32Array.of(1, 2, 3), [1, 2, MORE])).toBe(true);
    expect(matches([1, 2], [1, 2, 3])).toBe(false);
    expect(() => check([2n, { nodes: 4n, milliseconds: 1 }], '2n, { nodes, milliseconds, threads }', 7)).toThrow(/README\.md:7/);
    expect(() => check([2n, { nodes: 4n, milliseconds: 1, threads: 1 }], '2n, { nodes, milliseconds, threads }', 7)).not.toThrow();
    expect(() => check([[{ column: 1, row: 1 }, { column: 2, row: 1 }]], '[{ column: 1, row: 1 }, …]', 7)).not.toThrow();
    expect(valueBeforeColon(" { a: 1, b: 'x:y' }: prose")).toBe(" { a: 1, b: 'x:y' }");
    expect(declaredNames('{ board: after, removed, points }', 1)).toEqual(['after', 'removed', 'points']);
  });

  it('reads commands, their exit status and their output', () => {
    const block: Block = {
      line: 10,
      language: 'sh',
      markers: [],
      lines: ["$ printf 'a # b\\n' \\", '  | bitpuzzle x - # exit 2: bad', 'out 1', '', 'out 2', '', '$ bitpuzzle y', ''],
    };
    expect(commandsOf(block, block.lines)).toEqual([
      { line: 11, command: "printf 'a # b\\n' \\\n  | bitpuzzle x -", exit: 2, output: 'out 1\n\nout 2' },
      { line: 17, command: 'bitpuzzle y', exit: 0, output: null },
    ]);
  });
});
