// Preloaded by bench/scaling.js (node --require): the process's peak resident set, threads
// included, written to stderr as it exits, where the bench reads it.
process.on('exit', () => process.stderr.write(`\npeak-rss-kib ${process.resourceUsage().maxRSS}\n`));
