// PIX BR Code ("copia e cola"): the EMV QRCPS merchant-presented payload as profiled by the BCB
// "Manual de Padrões para Iniciação do Pix". The gateway issues only the dynamic form (docs/contract.md, BR
// Code): a Cash-In TxId does not fit 62.05, so the charge is named by a location URL in 26.25.
import { crc16 } from './crc16';
import { MAX_MERCHANT_CITY, MAX_MERCHANT_NAME, merchantCityText, merchantNameText } from './merchant';
import { formatCents } from './money';

const PIX_GUI = 'br.gov.bcb.pix';
/** 26 holds at most 99 characters; GUI "0014br.gov.bcb.pix" (18) and the "25LL" header (4) leave 77. */
export const MAX_LOCATION_LENGTH = 77;
/** Field 54 holds at most 13 characters ("9999999999.99"). */
const MAX_AMOUNT_LENGTH = 13;

export interface Tlv {
  id: string;
  value: string;
}

/** One EMV data object: 2-digit id, 2-digit character count, value (1 to 99 characters). */
export function encodeTlv(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new RangeError(`TLV id must be 2 digits: ${id}`);
  if (value.length < 1 || value.length > 99)
    throw new RangeError(`TLV ${id} value must have 1-99 characters`);
  return `${id}${value.length < 10 ? '0' : ''}${value.length}${value}`;
}

/** Splits a run of EMV data objects; undefined when the structure is broken (bad header, overrun). */
export function decodeTlv(data: string): Tlv[] | undefined {
  const out: Tlv[] = [];
  let i = 0;
  while (i < data.length) {
    const header = data.slice(i, i + 4);
    if (!/^\d{4}$/.test(header)) return undefined;
    const length = Number(header.slice(2));
    if (length === 0 || i + 4 + length > data.length) return undefined;
    out.push({ id: header.slice(0, 2), value: data.slice(i + 4, i + 4 + length) });
    i += 4 + length;
  }
  return out;
}

/** Integer centavos to the field-54 decimal string, without floating point ("12345" -> "123.45"). */
export function formatAmountCents(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new RangeError('amountCents must be a positive safe integer');
  }
  const text = formatCents(amountCents);
  if (text.length > MAX_AMOUNT_LENGTH) throw new RangeError('amount does not fit BR Code field 54');
  return text;
}

function normaliseLocation(location: string): string {
  const url = location.replace(/^https:\/\//i, '');
  if (url.length === 0 || url.length > MAX_LOCATION_LENGTH) {
    throw new RangeError(`location must have 1-${MAX_LOCATION_LENGTH} characters without "https://"`);
  }
  if (!/^[\x21-\x7e]+$/.test(url) || url.includes('://')) {
    throw new RangeError('location must be a printable ASCII URL without scheme');
  }
  return url;
}

export interface DynamicBrCodeInput {
  /** Charge location URL, with or without the "https://" prefix (which is not encoded). */
  location: string;
  /** Field 54; omitted (the amount is not fixed) when undefined. */
  amountCents: number | undefined;
  merchantName: string;
  merchantCity: string;
  /** Merchant Category Code, 4 digits; "0000" when not informed. */
  mcc?: string;
}

/** Fields 52, 59 and 60 as every BR Code we build writes them; refuses what cannot be written. */
function merchantTexts(input: { merchantName: string; merchantCity: string; mcc?: string }) {
  const mcc = input.mcc ?? '0000';
  if (!/^\d{4}$/.test(mcc)) throw new RangeError('mcc must be 4 digits');
  const name = merchantNameText(input.merchantName);
  const city = merchantCityText(input.merchantCity);
  if (!name || !city)
    throw new RangeError('merchantName and merchantCity must have ASCII-representable text');
  return { mcc, name, city };
}

/** The dynamic, single-use PIX payload for a charge served at `location`. */
export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  const { mcc, name, city } = merchantTexts(input);
  const body =
    encodeTlv('00', '01') +
    encodeTlv('01', '12') +
    encodeTlv('26', encodeTlv('00', PIX_GUI) + encodeTlv('25', normaliseLocation(input.location))) +
    encodeTlv('52', mcc) +
    encodeTlv('53', '986') +
    (input.amountCents === undefined ? '' : encodeTlv('54', formatAmountCents(input.amountCents))) +
    encodeTlv('58', 'BR') +
    encodeTlv('59', name) +
    encodeTlv('60', city) +
    encodeTlv('62', encodeTlv('05', '***')) +
    '6304';
  return body + crc16(body);
}

export interface RecurrenceBrCodeInput {
  /** The recurrence's location URL (GET /pix/rec), with or without "https://". */
  location: string;
  merchantName: string;
  merchantCity: string;
  mcc?: string;
}

/**
 * A Pix Automático QR that carries only the recurrence (the QR journey without a charge): field 26
 * holds the GUI alone and field 80 the GUI and the recurrence's location, with no amount. The
 * layout follows the JORNADA_2 example that docs/contract.md cites (Pix Automático, BR Code).
 */
export function buildRecurrenceBrCode(input: RecurrenceBrCodeInput): string {
  const { mcc, name, city } = merchantTexts(input);
  const body =
    encodeTlv('00', '01') +
    encodeTlv('26', encodeTlv('00', PIX_GUI)) +
    encodeTlv('52', mcc) +
    encodeTlv('53', '986') +
    encodeTlv('58', 'BR') +
    encodeTlv('59', name) +
    encodeTlv('60', city) +
    encodeTlv('62', encodeTlv('05', '***')) +
    encodeTlv('80', encodeTlv('00', PIX_GUI) + encodeTlv('25', normaliseLocation(input.location))) +
    '6304';
  return body + crc16(body);
}

export interface BrCodeFields {
  payloadFormatIndicator: string;
  /** "11" reusable, "12" single use; absent means reusable. */
  pointOfInitiationMethod?: string;
  merchantAccount: { gui: string; key?: string; url?: string };
  /** Field 80: a Pix Automático recurrence's location, when the QR carries one. */
  recurrence?: { gui: string; url: string };
  merchantCategoryCode: string;
  transactionCurrency: string;
  /** Field 54 as written. */
  amount?: string;
  amountCents?: number;
  countryCode: string;
  merchantName: string;
  merchantCity: string;
  postalCode?: string;
  /** 62.05: the TxId of a static code, "***" in a dynamic one. */
  txid: string;
  crc: string;
}

export type BrCodeParseResult = { ok: true; fields: BrCodeFields } | { ok: false; error: string };

const fail = (error: string): BrCodeParseResult => ({ ok: false, error });

function toMap(tlvs: Tlv[]): Map<string, string> | undefined {
  const map = new Map<string, string>();
  for (const { id, value } of tlvs) {
    if (map.has(id)) return undefined;
    map.set(id, value);
  }
  return map;
}

function parseAmountCents(amount: string): number | undefined {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!match || amount.length > MAX_AMOUNT_LENGTH) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Validates structure, CRC and the PIX mandatory fields of a BR Code (static or dynamic). */
export function parseBrCode(payload: string): BrCodeParseResult {
  if (!/6304[0-9A-Fa-f]{4}$/.test(payload)) return fail('missing CRC field 63 at the end');
  const crc = payload.slice(-4).toUpperCase();
  const expected = crc16(payload.slice(0, -4));
  if (crc !== expected) return fail(`CRC mismatch: payload says ${crc}, computed ${expected}`);

  const tlvs = decodeTlv(payload);
  if (!tlvs) return fail('malformed TLV structure');
  const top = toMap(tlvs);
  if (!top) return fail('duplicated field');
  if (tlvs[0]?.id !== '00' || tlvs[0].value !== '01') return fail('field 00 must come first and be "01"');
  if (tlvs[tlvs.length - 1]?.id !== '63') return fail('field 63 must be the last');

  const poi = top.get('01');
  if (poi !== undefined && poi !== '11' && poi !== '12') return fail('field 01 must be "11" or "12"');

  const maiTlvs = decodeTlv(top.get('26') ?? '');
  const mai = maiTlvs && toMap(maiTlvs);
  if (!mai || mai.get('00')?.toLowerCase() !== PIX_GUI) return fail('field 26 must carry GUI br.gov.bcb.pix');
  const key = mai.get('01');
  const url = mai.get('25');
  const recTlvs = top.has('80') ? decodeTlv(top.get('80') ?? '') : undefined;
  const rec = recTlvs && toMap(recTlvs);
  if (top.has('80') && (!rec || rec.get('00')?.toLowerCase() !== PIX_GUI || !rec.get('25')))
    return fail('field 80 must carry GUI br.gov.bcb.pix and a recurrence location (25)');
  const recUrl = rec?.get('25');
  if (key === undefined && url === undefined && recUrl === undefined)
    return fail('field 26 needs a key (01) or a location (25), or field 80 a recurrence location');

  const additionalTlvs = decodeTlv(top.get('62') ?? '');
  const txid = additionalTlvs && toMap(additionalTlvs)?.get('05');
  if (!txid) return fail('field 62 must carry a TxId (05)');

  const mcc = top.get('52');
  const currency = top.get('53');
  const country = top.get('58');
  const name = top.get('59');
  const city = top.get('60');
  if (!mcc || !/^\d{4}$/.test(mcc)) return fail('field 52 must be 4 digits');
  if (currency !== '986') return fail('field 53 must be "986"');
  if (country !== 'BR') return fail('field 58 must be "BR"');
  if (!name || name.length > MAX_MERCHANT_NAME) return fail('field 59 must have 1-25 characters');
  if (!city || city.length > MAX_MERCHANT_CITY) return fail('field 60 must have 1-15 characters');

  const amount = top.get('54');
  const amountCents = amount === undefined ? undefined : parseAmountCents(amount);
  if (amount !== undefined && amountCents === undefined) return fail('field 54 must be a decimal amount');

  const fields: BrCodeFields = {
    payloadFormatIndicator: '01',
    merchantAccount: { gui: PIX_GUI },
    merchantCategoryCode: mcc,
    transactionCurrency: currency,
    countryCode: country,
    merchantName: name,
    merchantCity: city,
    txid,
    crc,
  };
  if (poi !== undefined) fields.pointOfInitiationMethod = poi;
  if (key !== undefined) fields.merchantAccount.key = key;
  if (url !== undefined) fields.merchantAccount.url = url;
  if (recUrl !== undefined) fields.recurrence = { gui: PIX_GUI, url: recUrl };
  if (amount !== undefined) fields.amount = amount;
  if (amountCents !== undefined) fields.amountCents = amountCents;
  const postalCode = top.get('61');
  if (postalCode !== undefined) fields.postalCode = postalCode;
  return { ok: true, fields };
}

/**
 * The BR Code of a charge a PSP registered, and the location it names: the PSP's own
 * `pixCopiaECola`, exactly as it sent it, when that is a well-formed BR Code naming the PSP's
 * location and (if it states one) the charge's amount. The API Pix document makes `pixCopiaECola`
 * optional, so without a usable one the code is built on the PSP's location, which is what a
 * payer's bank reads. Undefined when the PSP gave no location either: nobody could pay such a charge.
 */
export function pspBrCode(
  issued: { copyAndPaste: string; location: string },
  charge: { amountCents: number; merchantName: string; merchantCity: string },
): { copyAndPaste: string; location: string } | undefined {
  const location = issued.location.replace(/^https:\/\//i, '');
  const parsed = parseBrCode(issued.copyAndPaste);
  const url = parsed.ok ? parsed.fields.merchantAccount.url : undefined;
  if (
    parsed.ok &&
    url !== undefined &&
    issued.copyAndPaste.length <= 512 &&
    (location === '' || url === location) &&
    (parsed.fields.amountCents === undefined || parsed.fields.amountCents === charge.amountCents)
  )
    return { copyAndPaste: issued.copyAndPaste, location: url };
  if (location === '') return undefined;
  try {
    return { copyAndPaste: buildDynamicBrCode({ location, ...charge }), location };
  } catch {
    return undefined; // a location that does not fit field 26.25
  }
}
