// The package as a new user gets it: what `npm pack` ships, its source maps, its licence, the
// types of `bitpuzzle/browser`, and the command line run from an unpacked tarball.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function npm(args: string[], cwd = root): string {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/** The paths `npm pack` would put in the tarball (scripts off: `prepare` would rebuild). */
let shipped: Set<string>;
beforeAll(() => {
  const [pack] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts']));
  shipped = new Set(pack.files.map((file: { path: string }) => file.path));
});

/** Every string leaf of an `exports` or `bin` value. */
function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(targets);
  return [];
}

const normal = (path: string): string => posix.normalize(path);

describe('npm pack', () => {
  it('ships every file package.json points at, the licence and the browser types', () => {
    const pointed = [manifest.main, manifest.types, ...targets(manifest.exports), ...targets(manifest.bin)];
    for (const path of pointed) {
      if (!path.includes('*')) expect(shipped, path).toContain(normal(path));
      else {
        // A subpath pattern ("./schemas/*") must match at least one shipped file.
        const [before, after] = normal(path).split('*');
        expect([...shipped].some((file) => file.startsWith(before) && file.endsWith(after)), path).toBe(true);
      }
    }
    for (const path of ['LICENSE', 'README.md', 'package.json', 'dist/bitpuzzle.wasm', 'dist/browser/bitpuzzle.wasm', 'dist/browser/bitpuzzle.d.ts']) {
      expect(shipped, path).toContain(path);
    }
  });

  it('ships only what package.json `files` names, and no sources or tests', () => {
    // npm adds these three to every package.
    const allowed = [...manifest.files.map((entry: string) => normal(entry).replace(/\/$/, '')), 'package.json', 'README.md', 'LICENSE'];
    for (const path of shipped) {
      expect(allowed.some((entry) => path === entry || path.startsWith(`${entry}/`)), path).toBe(true);
      expect(path).not.toMatch(/(^|\/)(src|test|tests|__tests__|assembly|bench)\/|\.test\.|\.spec\.|\.tsbuildinfo$|(?<!\.d)\.ts$/);
    }
  });

  it('ships compiled files only for sources that exist (no stale outputs)', () => {
    // dist/ is removed before tsc runs, and the browser build removes dist/browser/ first.
    for (const path of shipped) {
      const compiled = /^dist\/(?!browser\/)(.+?)(\.d\.ts|\.js\.map|\.js)$/.exec(path);
      if (compiled) expect(existsSync(join(root, 'src', `${compiled[1]}.ts`)), `${path} has no source`).toBe(true);
    }
  });

  it('ships source maps whose sources travel with them', () => {
    const maps = [...shipped].filter((path) => path.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(10);
    for (const path of maps) {
      const map = JSON.parse(readFileSync(join(root, path), 'utf8'));
      expect(map.sources.length, path).toBeGreaterThan(0);
      map.sources.forEach((source: string, i: number) => {
        const inline = typeof map.sourcesContent?.[i] === 'string';
        const resolved = normal(posix.join(posix.dirname(path), map.sourceRoot ?? '', source));
        expect(inline || shipped.has(resolved), `${path}: ${source} is neither inline nor shipped`).toBe(true);
      });
    }
  });

  it('the browser build: minified ES modules, source maps in files of their own, the API within 200 KB', () => {
    const browser = join(root, 'dist', 'browser');
    const api = readFileSync(join(browser, 'bitpuzzle.js'), 'utf8');
    // The budget (the Wasm apart): what a page loads for the API. The twins and workerpool are
    // chunks beside it, fetched when used; worker scripts are loaded by the threads they start.
    expect(Buffer.byteLength(api), 'dist/browser/bitpuzzle.js grew past 200 KB').toBeLessThanOrEqual(200_000);
    const scripts = readdirSync(browser, { recursive: true }).map(String).filter((file) => file.endsWith('.js'));
    expect(scripts.filter((file) => file.startsWith('chunk-')).length).toBeGreaterThan(3);
    for (const file of scripts) {
      const code = readFileSync(join(browser, file), 'utf8');
      // Minified: long lines, no indentation; never an inline map.
      expect(code.split('\n').length, file).toBeLessThan(Math.max(20, code.length / 500));
      expect(code, file).not.toContain('sourceMappingURL=data:');
      const comment = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code);
      if (comment) expect(existsSync(join(browser, dirname(file), comment[1])), `${file}: its map`).toBe(true);
      else expect(code.length, `${file} has no map`).toBeLessThan(2000); // a chunk of esbuild's own helpers
    }
  });

  it('the API reference builds with TypeDoc without a warning: every public export documented', () => {
    const out = tempDir('bitpuzzle-docs-');
    // typedoc.json treats warnings as errors and requires documentation of every export.
    const run = spawnSync(process.execPath, [join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--out', out], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/warning/i);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(existsSync(join(out, 'modules', 'sudoku.html'))).toBe(true);
  }, 120_000);

  it('declares the MIT licence and ships its text', () => {
    expect(manifest.license).toBe('MIT');
    const text = readFileSync(join(root, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the bitpuzzle authors\n/);
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS"');
  });
});

describe('types of bitpuzzle/browser', () => {
  const fixture = join(root, 'test', 'fixtures', 'browser-types', 'uses.ts');

  /** A user's project: `"type": "module"`, node_modules/bitpuzzle linking here, and the sources. */
  function project(sources: Record<string, string>): string[] {
    const dir = tempDir('bitpuzzle-types-');
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'bitpuzzle'), 'dir');
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    return Object.entries(sources).map(([name, source]) => {
      writeFileSync(join(dir, name), source);
      return join(dir, name);
    });
  }

  /** The errors of compiling `files` together, as file and line. */
  function diagnostics(files: string[], options: ts.CompilerOptions): Array<{ file: string; line: number; text: string }> {
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      ...options,
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ({
      file: d.file?.fileName ?? '',
      line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
      text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    }));
  }

  const resolutions: Array<[string, ts.CompilerOptions]> = [
    ['nodenext', { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }],
    ['bundler', { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, customConditions: ['browser'] }],
  ];

  it.each(resolutions)('compile with moduleResolution %s: right calls pass, wrong calls are errors', (_, options) => {
    const source = readFileSync(fixture, 'utf8');
    // The line after each `@ts-expect-error` comment.
    const marked = source.split('\n').flatMap((line, i) => (line.trim().startsWith('// @ts-expect-error') ? [i + 2] : []));
    expect(marked.length).toBe(4);
    // The same file without those comments: each marked line is an error, and nothing else is.
    const bare = source.replace(/^(\s*)\/\/ @ts-expect-error/gm, '$1//');
    const [uses, wrong] = project({ 'uses.ts': source, 'wrong.ts': bare });
    const errors = diagnostics([uses, wrong], options);
    const report = errors.map((e) => `${e.file}:${e.line}: ${e.text}`).join('\n');
    expect(errors.filter((e) => e.file !== wrong), report).toEqual([]);
    expect([...new Set(errors.map((e) => e.line))], report).toEqual(marked);
  });
});

describe('an installed tarball', () => {
  it('runs bin/bitpuzzle and imports bitpuzzle from node_modules', () => {
    const dir = tempDir('bitpuzzle-install-');
    const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir]));
    // What `npm install <tarball>` does, offline: unpack into node_modules/bitpuzzle and link
    // the dependencies this checkout already has.
    const installed = join(dir, 'node_modules', 'bitpuzzle');
    mkdirSync(installed, { recursive: true });
    const untar = spawnSync('tar', ['-xzf', join(dir, packed.filename), '-C', installed, '--strip-components=1']);
    expect(untar.status, String(untar.stderr)).toBe(0);
    for (const dependency of Object.keys(manifest.dependencies)) {
      const link = join(dir, 'node_modules', dependency);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(join(root, 'node_modules', dependency)), link, 'dir');
    }
    expect(readdirSync(installed)).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'bin', 'dist', 'package.json']));

    const cli = spawnSync(process.execPath, [join(installed, 'bin', 'bitpuzzle'), 'queens', '6', '--count', '--json'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(cli.stderr).toBe('');
    expect(cli.status).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ total: 4, distinct: 1 });

    cpSync(join(root, 'test', 'fixtures', 'installed.mjs'), join(dir, 'installed.mjs'));
    const api = spawnSync(process.execPath, ['installed.mjs'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(api.stderr).toBe('');
    expect(api.stdout.trim()).toBe(`92 12 ${join(installed, 'dist', 'index.js')}`);
  });
});
