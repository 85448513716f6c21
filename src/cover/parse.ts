// The text format of `bitpuzzle cover`:
//
//   # a comment runs to the end of its line; blank lines are skipped
//   primary: A B C D E F G        the primary columns (covered exactly once), first
//   secondary: x y                optional secondary columns (covered at most once)
//   CEF: C E F                    a row: an optional name and a colon, then its columns
//   A D G                         an unnamed row
//
// Names are words without white space, ':' or '#'. Header lines may repeat (their columns
// add up) but come before the first row. Errors name the line and column, both from 1.
import { badInput, describeValue } from '../errors.js';
import { runSteps, type Steps } from '../wasm/protocol.js';
import { MatrixBuilder, markPrepared, type PreparedCover } from './problem.js';

interface Token {
  text: string;
  column: number; // 1-based
}

function words(text: string, offset: number): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/\S+/g)) tokens.push({ text: match[0], column: offset + match.index + 1 });
  return tokens;
}

/** Reads the text format above into a checked problem; BAD_INPUT names the line and column of a mistake. */
export function parseCover(text: string): PreparedCover {
  return runSteps(parseCoverSteps(text));
}

/** parseCover as steps of 1,024 lines (a text of many thousand rows takes a while). */
export function* parseCoverSteps(text: string): Steps<PreparedCover> {
  if (typeof text !== 'string') throw badInput(`expected the text of an exact cover problem, got ${describeValue(text)}`);
  const builder = new MatrixBuilder();
  const declaredOn: number[] = []; // the line of each column's declaration
  const lines: number[] = [];
  let primaryDeclared = false;
  const sourceLines = text.split(/\r?\n/);
  for (const [index, raw] of sourceLines.entries()) {
    if ((index & 1023) === 0) yield;
    const line = index + 1;
    const at = (column: number): string => `line ${line}, column ${column}`;
    const hash = raw.indexOf('#');
    const content = hash >= 0 ? raw.slice(0, hash) : raw;
    if (content.trim() === '') continue;
    const colon = content.indexOf(':');
    let name: Token | null = null;
    let body = content;
    let bodyOffset = 0;
    if (colon >= 0) {
      const label = words(content.slice(0, colon), 0);
      if (label.length === 0) throw badInput(`${at(colon + 1)}: a name is missing before ":"`);
      if (label.length > 1) throw badInput(`${at(label[1].column)}: a name is one word, but "${label.map((t) => t.text).join(' ')}" has ${label.length}`);
      name = label[0];
      body = content.slice(colon + 1);
      bodyOffset = colon + 1;
      const second = body.indexOf(':');
      if (second >= 0) throw badInput(`${at(bodyOffset + second + 1)}: unexpected ":" (a line has at most one name)`);
    }
    const tokens = words(body, bodyOffset);
    if (name && (name.text === 'primary' || name.text === 'secondary')) {
      if (builder.rowCount > 0) throw badInput(`${at(name.column)}: the "${name.text}:" header must come before the first row`);
      if (tokens.length === 0) throw badInput(`${at(name.column)}: "${name.text}:" names no columns`);
      builder.declare(
        tokens.map((t) => t.text),
        name.text,
        (i) => at(tokens[i].column),
        (column) => `on line ${declaredOn[column]}`,
      );
      while (declaredOn.length < builder.columnNames.length) declaredOn.push(line);
      if (name.text === 'primary') primaryDeclared = true;
      continue;
    }
    if (!primaryDeclared) {
      throw badInput(`${at(name?.column ?? tokens[0].column)}: declare the primary columns ("primary: a b c") before the first row`);
    }
    const whole = name ? `${at(name.column)}: row "${name.text}"` : `${at(tokens[0].column)}: the row`;
    builder.addRow(
      tokens.map((t) => t.text),
      name?.text ?? null,
      (i) => at(tokens[i].column),
      whole,
    );
    lines.push(line);
  }
  if (!primaryDeclared) throw badInput('no "primary:" header: the text must declare its primary columns, as in "primary: a b c"');
  const prepared = builder.build([], (row) => `line ${lines[row]}`);
  return markPrepared({ ...prepared, lines });
}
