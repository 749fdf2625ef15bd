// npm run health:replay -- <file.ndjson> [--until <ISO>] [--names names.json] [--verbose]
// Replays observations (docs/contract.md, PIX health) through the health engine and prints one JSON line per
// incident change (the public incident object) on stdout. Invalid lines are reported on stderr and skipped.
// Exit 0.
//   --until    also close the windows up to this time (silence after the file's end is judged too)
//   --names    JSON object ISPB -> display name for partners and banks
//   --verbose  print {change, incident, evidence} instead of the bare incident
//   file `-`   read stdin
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseInstant, ReplaySession } from '../src/health/index';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run health:replay -- <file.ndjson|-> [--until <ISO time>] [--names names.json] [--verbose]

Replays observations through the PIX health engine; one JSON line per incident change on stdout.
`);

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: npm run health:replay -- <file.ndjson> [--until <ISO time>] [--names names.json] [--verbose]\n`,
  );
  process.exit(2);
}

const args = process.argv.slice(2);
let file: string | undefined;
let until: number | undefined;
let verbose = false;
let names: Record<string, string> = {};
for (let i = 0; i < args.length; i++) {
  const a = args[i] ?? '';
  if (a === '--verbose') verbose = true;
  else if (a === '--until') {
    until = parseInstant(args[++i] ?? '');
    if (!Number.isFinite(until))
      usage('--until needs an ISO 8601 time with offset, e.g. 2026-11-04T18:00:00Z');
  } else if (a === '--names') {
    try {
      names = JSON.parse(readFileSync(args[++i] ?? '', 'utf8')) as Record<string, string>;
    } catch (e) {
      usage(`--names: cannot read a JSON object ISPB -> name (${(e as Error).message})`);
    }
  } else if (a === '--help' || a === '-h')
    usage('Replays an NDJSON observation file through the PIX health engine.');
  else if (a.startsWith('--')) usage(`unknown option ${a}`);
  else if (file === undefined) file = a;
  else usage(`unexpected argument ${a}`);
}
if (file === undefined) usage('missing <file.ndjson>');
if (file !== '-' && !existsSync(file)) usage(`no such file: ${file}`);

let pending = '';
const flush = () => {
  if (pending) {
    process.stdout.write(pending);
    pending = '';
  }
};
const session = new ReplaySession({
  verbose,
  config: { names },
  onOutput: (line) => {
    pending += `${line}\n`;
    if (pending.length > 64_000) flush();
  },
  onError: (message) => process.stderr.write(`${message}\n`),
});

const input = file === '-' ? process.stdin : createReadStream(file, { encoding: 'utf8' });
const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
for await (const line of lines) session.push(line);
session.end(until);
flush();
process.exitCode = 0;
