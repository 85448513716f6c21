// The `bitpuzzle` command.
//
// Exit status, one table for every command:
//   0  answered: a solution, a count (0 included), a proved optimum, or the best found in a
//      time or node budget the user asked for (samegame --score, --min-left with a limit)
//   1  no solution: UNSOLVABLE (proved before any search), or a search that found none
//   2  bad input: BAD_INPUT, usage errors, unreadable input files, output paths that cannot be written
//   3  stopped before an answer: ABORTED, OUT_OF_MEMORY, OUT_OF_DISK, a node or time limit reached with no answer
//   4  any other failure: ENGINE_FAILURE, QUEUE_UNAVAILABLE, an unexpected error
// With --json, standard output holds exactly one JSON object: the answer (with exit 0, 1 for a
// search that found none, or 3 for a limit), or {"error":{"code","message"}} for statuses 1-4
// that end in an error; the message also goes to standard error. Never a stack trace.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { BitpuzzleError } from '../errors.js';
import { EXIT, outcome, toJson } from './io.js';

/** The exit status of each error code. */
export const EXIT_OF_CODE: Readonly<Record<string, number>> = {
  UNSOLVABLE: EXIT.NO_SOLUTION,
  BAD_INPUT: EXIT.BAD_INPUT,
  ABORTED: EXIT.STOPPED,
  OUT_OF_MEMORY: EXIT.STOPPED,
  OUT_OF_DISK: EXIT.STOPPED,
  ENGINE_FAILURE: EXIT.FAILURE,
  QUEUE_UNAVAILABLE: EXIT.FAILURE,
};

/** The code of an error that is not a BitpuzzleError (a bug): status 4. */
export const UNEXPECTED = 'UNEXPECTED';

const version: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/**
 * The commands, in the order help lists them, each imported when needed: a run of one command
 * loads one family, not seven (about a third of the start-up of `bitpuzzle sliding …`).
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  queens: async () => (await import('./queens.js')).queensCommand(),
  polyomino: async () => (await import('./polyomino.js')).polyominoCommand(),
  cover: async () => (await import('./cover.js')).coverCommand(),
  sudoku: async () => (await import('./sudoku.js')).sudokuCommand(),
  samegame: async () => (await import('./samegame.js')).samegameCommand(),
  pegs: async () => (await import('./pegs.js')).pegsCommand(),
  sliding: async () => (await import('./sliding.js')).slidingCommand(),
  worker: async () => (await import('./worker.js')).workerCommand(),
  queue: async () => (await import('./queue.js')).queueCommand(),
  tour: async () =>
    new Command('tour')
      .description('solve one headline instance of each puzzle family')
      .action(async () => (await import('./tour.js')).tour()),
};

/** The program with the command `argv` names, none for the version, else every command (help, an unknown name). */
async function program(argv: readonly string[]): Promise<Command> {
  const first = argv[0] ?? '';
  const named = Object.hasOwn(COMMANDS, first) ? [first] : first === '-V' || first === '--version' ? [] : Object.keys(COMMANDS);
  const command = new Command('bitpuzzle')
    .description('Exact, fast solvers for classic puzzles (WebAssembly engines).')
    .version(version, '-V, --version', 'print the version')
    .showHelpAfterError('(add --help for additional information)');
  for (const sub of await Promise.all(named.map((name) => COMMANDS[name]()))) command.addCommand(sub);
  return command.addHelpText(
    'after',
    '\nExit status: 0 answered (a solution, a count, 0 included, a best within a limit asked for), 1 no solution,\n' +
      '2 bad input or a file that cannot be read or written, 3 stopped (a limit with no answer, an interrupt,\n' +
      'out of memory), 4 any other failure. With --json, standard output holds one object: the answer,\n' +
      'or {"error":{"code","message"}}. Schemas of every command\'s output: bitpuzzle/schemas/<command>.schema.json',
  );
}

function exitOverrides(command: Command): void {
  command.exitOverride();
  command.commands.forEach(exitOverrides);
}

let streamsGuarded = false;

/**
 * A reader that goes away (`bitpuzzle … | head`) breaks the pipe: stop quietly. Any other
 * failure of the standard streams ends with status 4 and one line, not a stack trace.
 */
function guardStreams(): void {
  if (streamsGuarded) return;
  streamsGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(outcome.status);
      if (stream !== process.stderr) process.stderr.write(`bitpuzzle: cannot write to standard output: ${error.message}\n`);
      process.exit(EXIT.FAILURE);
    });
  }
}

/** --json anywhere before a lone `--`. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/** Reports a failure on stderr (and as the JSON error object with --json); its exit status. */
function fail(error: unknown, json: boolean): number {
  let code: string;
  let message: string;
  let status: number;
  if (error instanceof CommanderError) {
    // Commander has already printed the usage error on stderr.
    code = 'BAD_INPUT';
    message = error.message.replace(/^error: /, '');
    status = EXIT.BAD_INPUT;
  } else if (error instanceof BitpuzzleError) {
    code = error.code;
    message = error.message;
    status = EXIT_OF_CODE[code] ?? EXIT.FAILURE;
    console.error(`bitpuzzle: ${code}: ${message}`);
  } else {
    code = UNEXPECTED;
    message = error instanceof Error ? error.message : String(error);
    status = EXIT.FAILURE;
    console.error(`bitpuzzle: unexpected error (please report it): ${message}`);
    if (process.env.BITPUZZLE_DEBUG && error instanceof Error) console.error(error.stack);
  }
  if (json) console.log(toJson({ error: { code, message } }));
  return status;
}

export async function main(argv: string[]): Promise<number> {
  guardStreams();
  outcome.status = EXIT.ANSWERED;
  try {
    const cli = await program(argv);
    exitOverrides(cli);
    await cli.parseAsync(argv, { from: 'user' });
    return outcome.status;
  } catch (error) {
    // Help and version end in a CommanderError of status 0.
    if (error instanceof CommanderError && error.exitCode === 0) return EXIT.ANSWERED;
    return fail(error, wantsJson(argv));
  }
}
