// Every npm script answers `--help` (or `-h`) with its usage and exits 0 before doing anything:
// a newcomer can ask any script what it does without starting a multi-minute run.

/** Prints `usage` and exits 0 when the arguments ask for help; returns otherwise. */
export function exitWithUsageIfAsked(usage, argv = process.argv.slice(2)) {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  process.stdout.write(`${usage.trim()}\n`);
  process.exit(0);
}
