// The `bitpuzzle` command. Exit status: 0 success, 2 bad input, 1 any other failure.
import { Command, CommanderError } from 'commander';
import { BitpuzzleError } from '../index.js';
import { polyominoCommand } from './polyomino.js';
import { coverCommand, sudokuCommand } from './cover.js';
import { queensCommand } from './queens.js';
import { samegameCommand } from './samegame.js';
import { slidingCommand } from './sliding.js';
import { tour } from './tour.js';
import { pegsCommand } from './pegs.js';
import { queueCommand } from './queue.js';
import { workerCommand } from './worker.js';

function program(): Command {
  return new Command('bitpuzzle')
    .description('Exact, fast solvers for classic puzzles (WebAssembly engines).')
    .showHelpAfterError('(add --help for additional information)')
    .addCommand(queensCommand())
    .addCommand(polyominoCommand())
    .addCommand(coverCommand())
    .addCommand(sudokuCommand())
    .addCommand(samegameCommand())
    .addCommand(pegsCommand())
    .addCommand(slidingCommand())
    .addCommand(workerCommand())
    .addCommand(queueCommand())
    .addCommand(new Command('tour').description('solve one headline instance of each puzzle family').action(tour));
}

function exitOverrides(command: Command): void {
  command.exitOverride();
  command.commands.forEach(exitOverrides);
}

export async function main(argv: string[]): Promise<number> {
  const cli = program();
  exitOverrides(cli);
  try {
    await cli.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed and are bad input.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof BitpuzzleError) {
      console.error(`bitpuzzle: ${error.code}: ${error.message}`);
      return error.code === 'BAD_INPUT' ? 2 : 1;
    }
    console.error(`bitpuzzle: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}
