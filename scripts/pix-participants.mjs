// npm run pix:participants — refreshes src/partners/pix-participants.json (ISPB → the BCB's short
// name) from the Banco Central do Brasil's list of Pix participants, which the BCB publishes as a
// dated CSV: a title line, then `;`-separated columns that include "ISPB" and "Nome Reduzido".
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run pix:participants -- [--csv <file>] [--days <n>]

Rewrites src/partners/pix-participants.json from the BCB's list of Pix participants:
  https://www.bcb.gov.br/content/estabilidadefinanceira/participantes_pix/lista-participantes-instituicoes-em-adesao-pix-YYYYMMDD.csv
trying today and the days before (the BCB publishes on business days).
  --csv <file>  read a copy of that CSV saved by hand instead of downloading it
  --days <n>    how many days back to try (default 10)
`);

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'src', 'partners', 'pix-participants.json');
const BCB =
  'https://www.bcb.gov.br/content/estabilidadefinanceira/participantes_pix/lista-participantes-instituicoes-em-adesao-pix-';

/** The BCB has served this file in UTF-8 and in Latin-1: take UTF-8 unless it does not decode. */
function decode(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}

const unquote = (cell) =>
  cell
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();

/** ISPB → short name from the CSV's text; throws when the columns are not where the BCB puts them. */
export function parseParticipants(text) {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const headerAt = lines.findIndex((l) => /(^|;)"?ISPB"?(;|$)/.test(l));
  if (headerAt < 0) throw new Error('no header line with an ISPB column');
  const header = lines[headerAt].split(';').map(unquote);
  const ispbAt = header.indexOf('ISPB');
  const nameAt = header.findIndex((h) => /^nome.reduzido$/i.test(h));
  if (nameAt < 0) throw new Error(`no "Nome Reduzido" column in ${JSON.stringify(header)}`);
  const participants = {};
  for (const line of lines.slice(headerAt + 1)) {
    const cells = line.split(';').map(unquote);
    const ispb = cells[ispbAt] ?? '';
    if (!/^\d{1,8}$/.test(ispb) || !cells[nameAt]) continue;
    participants[ispb.padStart(8, '0')] = cells[nameAt];
  }
  return participants;
}

async function download(days) {
  for (let back = 0; back < days; back++) {
    const date = new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
    const url = `${BCB}${date}.csv`;
    const res = await fetch(url).catch((e) => ({ ok: false, status: e.message }));
    if (res.ok) return { url, text: decode(new Uint8Array(await res.arrayBuffer())) };
    console.log(`${url}: ${res.status}`);
  }
  throw new Error(`no list found in the last ${days} days`);
}

async function main() {
  const { values } = parseArgs({
    options: { csv: { type: 'string' }, days: { type: 'string', default: '10' } },
  });
  const { url, text } = values.csv
    ? { url: path.basename(values.csv), text: decode(readFileSync(values.csv)) }
    : await download(Number(values.days));
  const participants = parseParticipants(text);
  const count = Object.keys(participants).length;
  if (count < 100)
    throw new Error(`only ${count} participants parsed from ${url}: refusing to replace the list`);
  const sorted = Object.fromEntries(Object.entries(participants).sort(([a], [b]) => a.localeCompare(b)));
  const doc = {
    source:
      'BCB, Lista de participantes do Pix (lista-participantes-instituicoes-em-adesao-pix-YYYYMMDD.csv), column Nome Reduzido',
    copiedFrom: `${url}, ${new Date().toISOString().slice(0, 10)}`,
    refresh: 'npm run pix:participants (scripts/pix-participants.mjs) downloads the BCB list again',
    participants: sorted,
  };
  writeFileSync(OUT, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`${count} participants written to ${path.relative(ROOT, OUT)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
