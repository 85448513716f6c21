// What the bench scripts share: benchmark.js settings, a suite runner, the C repeat loop and
// the markdown output. Progress goes to stderr, tables to stdout.
import Benchmark from 'benchmark';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

// Long calls dominate the run time, so one sample is enough once a call outlasts maxTime;
// short ones still get ~1 s of samples. minTime 0 means benchmark.js's own floor (≥ 50 ms
// per sample); initCount stays 1, as 0 calls per sample would divide by zero. Every contender
// is deferred, even a synchronous one: a plain benchmark.js test runs an untimed pretest call
// before each sample, doubling the cost.
export const OPTIONS = { defer: true, minSamples: 1, maxTime: 1, minTime: 0, delay: 0 };

export function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

/**
 * The command line of the bench script at `scriptUrl` (its import.meta.url), by node:util's
 * parseArgs with `options`, positionals allowed when `positionals` is true. --help (-h) prints
 * the script's opening comment, which says what it runs and takes; an option it does not know,
 * or one without its value, stops it with that error on one line rather than a stack trace.
 */
export function benchArgs(scriptUrl, options, positionals = false) {
  let parsed;
  try {
    parsed = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: positionals });
  } catch (error) {
    fail(`${error.message.replace(/\. .*$/s, '')} (--help tells what this script takes)`);
  }
  if (parsed.values.help) {
    const lines = readFileSync(fileURLToPath(scriptUrl), 'utf8').split('\n');
    const header = [];
    for (const line of lines) {
      if (!line.startsWith('//')) break;
      header.push(line.replace(/^\/\/ ?/, ''));
    }
    console.log(header.join('\n'));
    process.exit(0);
  }
  return parsed;
}

/**
 * Mean milliseconds per call of each contender, timed by benchmark.js in one suite.
 * `contenders`: [{ name, run: () => Promise }] (run checks its own answer);
 * `progress(name, ms, calls)` is told after each contender.
 */
export function timeSuite(title, contenders, progress) {
  const suite = new Benchmark.Suite(title);
  for (const { name, run } of contenders) {
    const fn = (deferred) => {
      Promise.resolve()
        .then(run)
        .then(() => deferred.resolve(), (error) => fail(`${name} failed for ${title}: ${error.stack ?? error}`));
    };
    suite.add(name, fn, OPTIONS);
  }
  return new Promise((resolve) => {
    suite
      .on('cycle', ({ target: b }) => progress(b.name, b.stats.mean * 1e3, b.stats.sample.length * b.count))
      .on('error', ({ target: b }) => fail(`${b.name} failed for ${title}: ${b.error?.stack ?? b.error}`))
      // The suite is array-like, not iterable.
      .on('complete', () => resolve(suite.map((b) => b.stats.mean * 1e3)))
      .run({ async: true });
  });
}

/**
 * Mean of the milliseconds a C program reports over runs filling about maxTime (at most 50).
 * `runOnce()` → { ms, ... } checks its own answer.
 */
export function timeNative(runOnce) {
  let spent = 0;
  let runs = 0;
  while (runs < 1 || (spent < OPTIONS.maxTime * 1e3 && runs < 50)) {
    spent += runOnce().ms;
    runs++;
  }
  return { ms: spent / runs, runs };
}

export const time = (ms) => (ms < 1e3 ? `${ms.toFixed(1)} ms` : `${(ms / 1e3).toFixed(2)} s`);
export const ratio = (slow, fast) => `${(slow / fast).toFixed(2)}×`;

/** A markdown table: the first column left-aligned, the others right-aligned. */
export function markdown(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((cell, i) => (i ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}
