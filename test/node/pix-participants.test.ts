/**
 * Banks by name: the BCB's list of Pix participants is bundled (src/partners/pix-participants.json)
 * and scripts/pix-participants.mjs rebuilds it from the BCB's CSV, whose shape is a title line and
 * `;`-separated columns with "ISPB" and "Nome Reduzido" (the stored copy is checked the same way).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { parseParticipants } from '../../scripts/pix-participants.mjs';
import { institutionName, PIX_PARTICIPANTS } from '../../src/partners/catalog';

const SAMPLE = [
  'Lista de participantes do Pix - 28/11/2026',
  ';ISPB;Nome Reduzido;Modalidade de Participação no Pix;Tipo de Participação no SPI',
  '1;00000000;BCO DO BRASIL S.A.;Provedor de Conta Transacional;Direta',
  '2;18236120;NU PAGAMENTOS - IP;Provedor de Conta Transacional;Direta',
  '3;360305;CAIXA ECONOMICA FEDERAL;Provedor de Conta Transacional;Direta',
  '',
].join('\r\n');

it('parses the BCB CSV: ISPB padded to 8 digits, the short name', () => {
  expect(parseParticipants(SAMPLE)).toEqual({
    '00000000': 'BCO DO BRASIL S.A.',
    '18236120': 'NU PAGAMENTOS - IP',
    '00360305': 'CAIXA ECONOMICA FEDERAL',
  });
  expect(() => parseParticipants('Nome;Outro\n1;2')).toThrow(/ISPB/);
});

it('the bundled list names its source and the Pix participants the sandbox does not know', () => {
  const doc = JSON.parse(readFileSync(path.join(ROOT, 'src/partners/pix-participants.json'), 'utf8'));
  expect(doc.source).toMatch(/BCB/);
  expect(Object.keys(PIX_PARTICIPANTS).length).toBeGreaterThan(800);
  for (const ispb of Object.keys(PIX_PARTICIPANTS)) expect(ispb).toMatch(/^\d{8}$/);
  // Sicredi, Stone, PagSeguro: names no sandbox table carries.
  expect(institutionName('01181521')).toBe(PIX_PARTICIPANTS['01181521']);
  expect(institutionName('16501555')).toMatch(/STONE/);
  expect(institutionName('99999999')).toBe('ISPB 99999999');
});

it('the refresh script rewrites the list from a saved BCB CSV and refuses a truncated one', async () => {
  const { spawnSync } = await import('node:child_process');
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-participants-'));
  const tiny = path.join(dir, 'tiny.csv');
  writeFileSync(tiny, SAMPLE);
  const run = spawnSync('node', ['scripts/pix-participants.mjs', '--csv', tiny], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/only 3 participants/);
});
