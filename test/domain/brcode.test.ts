import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import { parseEmv } from 'pix-utils/dist/module/emvHandler';
import { describe, expect, it } from 'vitest';
import {
  buildDynamicBrCode,
  buildRecurrenceBrCode,
  decodeTlv,
  encodeTlv,
  parseBrCode,
  pspBrCode,
} from '../../src/domain/brcode';
import { crc16 } from '../../src/domain/crc16';

const charge = {
  location: 'pix.connectpsp.test/v2/cobv/3c1f5e0a9b7d4e2f8a6c0b1d',
  amountCents: 12345,
  merchantName: 'ConnectPSP Pagamentos',
  merchantCity: 'Brasília',
};

/** Field 54 as read by pix-utils' own EMV reader (its dynamic Pix object does not expose the amount). */
function pixUtilsAmount(payload: string): string | undefined {
  const tags = parseEmv({ emvCode: payload });
  return tags.isValid ? tags.getTag(54) : undefined;
}

function fieldsOf(payload: string) {
  const parsed = parseBrCode(payload);
  if (!parsed.ok) throw new Error(`parseBrCode rejected ${payload}: ${parsed.error}`);
  return parsed.fields;
}

describe('crc16', () => {
  it('matches the CRC16/CCITT-FALSE check values', () => {
    expect(crc16('123456789')).toBe('29B1');
    expect(crc16('')).toBe('FFFF');
  });

  it('runs over UTF-8 bytes', () => {
    expect(crc16('Pão')).toBe('5B38');
  });

  it('reproduces the CRC of the BCB manual static example', () => {
    const body =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR' +
      '5913Fulano de Tal6008BRASILIA62070503***6304';
    expect(crc16(body)).toBe('1D3D');
  });
});

describe('TLV helpers', () => {
  it('round-trips data objects with two-digit lengths', () => {
    const data = encodeTlv('05', '***') + encodeTlv('25', 'x'.repeat(77));
    expect(data.startsWith('0503***2577')).toBe(true);
    expect(decodeTlv(data)).toEqual([
      { id: '05', value: '***' },
      { id: '25', value: 'x'.repeat(77) },
    ]);
  });

  it('rejects values that do not fit and broken structures', () => {
    expect(() => encodeTlv('26', 'x'.repeat(100))).toThrow();
    expect(() => encodeTlv('26', '')).toThrow();
    expect(decodeTlv('0505abc')).toBeUndefined();
    expect(decodeTlv('05x3abc')).toBeUndefined();
  });
});

describe('buildDynamicBrCode', () => {
  it('lays out the dynamic single-use payload field by field', () => {
    const payload = buildDynamicBrCode(charge);
    expect(charge.location).toHaveLength(52);
    const body =
      '000201' +
      '010212' +
      '2674' +
      '0014br.gov.bcb.pix' +
      '2552pix.connectpsp.test/v2/cobv/3c1f5e0a9b7d4e2f8a6c0b1d' +
      '52040000' +
      '5303986' +
      '5406123.45' +
      '5802BR' +
      '5921CONNECTPSP PAGAMENTOS' +
      '6008BRASILIA' +
      '62070503***' +
      '6304';
    expect(payload).toBe(body + crc16(body));
  });

  it('is accepted by our parser with every field readable', () => {
    const fields = fieldsOf(buildDynamicBrCode({ ...charge, mcc: '5812' }));
    expect(fields).toMatchObject({
      payloadFormatIndicator: '01',
      pointOfInitiationMethod: '12',
      merchantAccount: { gui: 'br.gov.bcb.pix', url: charge.location },
      merchantCategoryCode: '5812',
      transactionCurrency: '986',
      amount: '123.45',
      amountCents: 12345,
      countryCode: 'BR',
      merchantName: 'CONNECTPSP PAGAMENTOS',
      merchantCity: 'BRASILIA',
      txid: '***',
    });
    expect(fields.merchantAccount.key).toBeUndefined();
  });

  it('is accepted by pix-utils as a dynamic Pix with our URL and amount', () => {
    const payload = buildDynamicBrCode(charge);
    const pix = parsePix(payload);
    if (hasError(pix)) throw new Error(`pix-utils rejected the payload: ${pix.message}`);
    expect(isDynamicPix(pix)).toBe(true);
    if (!isDynamicPix(pix)) return;
    expect(pix.url).toBe(charge.location);
    expect(pix.merchantName).toBe('CONNECTPSP PAGAMENTOS');
    expect(pix.merchantCity).toBe('BRASILIA');
    expect(pix.transactionCurrency).toBe('986');
    expect(pixUtilsAmount(payload)).toBe('123.45');
  });

  it.each([
    [1, '0.01'],
    [10, '0.10'],
    [100, '1.00'],
    [12345, '123.45'],
    [9_999_999_999, '99999999.99'],
    [999_999_999_999, '9999999999.99'],
  ])('writes %i centavos as %s', (amountCents, text) => {
    const payload = buildDynamicBrCode({ ...charge, amountCents });
    expect(fieldsOf(payload)).toMatchObject({ amount: text, amountCents });
    expect(pixUtilsAmount(payload)).toBe(text);
  });

  it.each([0, -1, 1.5, Number.NaN, 1_000_000_000_000, 2 ** 53])(
    'rejects an amount of %s centavos',
    (amountCents) => {
      expect(() => buildDynamicBrCode({ ...charge, amountCents })).toThrow(RangeError);
    },
  );

  it.each([
    ['São Paulo', 'SAO PAULO'],
    ['  Ribeirão   Preto SP', 'RIBEIRAO PRETO'],
    ['São José dos Campos', 'SAO JOSE DOS CA'],
  ])('normalises the city %j to %j', (merchantCity, expected) => {
    expect(fieldsOf(buildDynamicBrCode({ ...charge, merchantCity })).merchantCity).toBe(expected);
  });

  it('normalises and truncates the merchant name to 25 ASCII characters', () => {
    const payload = buildDynamicBrCode({ ...charge, merchantName: 'Padaria Pão de Açúcar Ltda. ME' });
    expect(fieldsOf(payload).merchantName).toBe('PADARIA PAO DE ACUCAR LTD');
    expect(payload).toMatch(/^[\x20-\x7e]+$/);
  });

  it('rejects a name or city with nothing left after normalisation', () => {
    expect(() => buildDynamicBrCode({ ...charge, merchantName: '   ' })).toThrow(RangeError);
    expect(() => buildDynamicBrCode({ ...charge, merchantCity: '東京' })).toThrow(RangeError);
  });

  it('accepts a 77-character location, with or without https://, and rejects 78', () => {
    const location = `pix.connectpsp.test/${'a'.repeat(57)}`;
    expect(location).toHaveLength(77);
    const pix = parsePix(buildDynamicBrCode({ ...charge, location: `https://${location}` }));
    expect(!hasError(pix) && isDynamicPix(pix) && pix.url).toBe(location);
    expect(fieldsOf(buildDynamicBrCode({ ...charge, location })).merchantAccount.url).toBe(location);
    expect(() => buildDynamicBrCode({ ...charge, location: `${location}a` })).toThrow(RangeError);
  });

  it('rejects an empty location, another scheme or a bad MCC', () => {
    expect(() => buildDynamicBrCode({ ...charge, location: 'https://' })).toThrow(RangeError);
    expect(() => buildDynamicBrCode({ ...charge, location: 'http://pix.test/x' })).toThrow(RangeError);
    expect(() => buildDynamicBrCode({ ...charge, location: 'pix.test/a b' })).toThrow(RangeError);
    expect(() => buildDynamicBrCode({ ...charge, mcc: '58' })).toThrow(RangeError);
  });
});

describe('parseBrCode', () => {
  const payload = buildDynamicBrCode(charge);

  it('accepts the BCB manual static example', () => {
    const example =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR' +
      '5913Fulano de Tal6008BRASILIA62070503***63041D3D';
    expect(fieldsOf(example)).toMatchObject({
      merchantAccount: { key: '123e4567-e12b-12d1-a456-426655440000' },
      merchantName: 'Fulano de Tal',
      txid: '***',
    });
    expect(fieldsOf(example).amount).toBeUndefined();
  });

  it('rejects a payload with one character changed', () => {
    const corrupted = payload.replace('123.45', '923.45');
    expect(corrupted).not.toBe(payload);
    const result = parseBrCode(corrupted);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/CRC/);
  });

  it('rejects a wrong or missing CRC', () => {
    const wrongCrc = payload.slice(0, -4) + (payload.endsWith('0000') ? '0001' : '0000');
    expect(parseBrCode(wrongCrc).ok).toBe(false);
    expect(parseBrCode(payload.slice(0, -8)).ok).toBe(false);
    expect(parseBrCode('').ok).toBe(false);
  });

  it('accepts a lowercase CRC but rejects broken structure even with a matching CRC', () => {
    expect(parseBrCode(payload.slice(0, -4) + payload.slice(-4).toLowerCase()).ok).toBe(true);
    const withCrc = (body: string) => `${body}6304${crc16(`${body}6304`)}`;
    const valid = payload.slice(0, -8);
    expect(parseBrCode(withCrc(valid)).ok).toBe(true);
    // Field 59 claims 30 characters: the TLV chain no longer lines up.
    expect(parseBrCode(withCrc(valid.replace('5921CONNECT', '5930CONNECT'))).ok).toBe(false);
    // Without field 62.
    expect(parseBrCode(withCrc(valid.replace('62070503***', ''))).ok).toBe(false);
    // Not a Pix GUI.
    expect(parseBrCode(withCrc(valid.replace('br.gov.bcb.pix', 'br.gov.bcb.xxx'))).ok).toBe(false);
    // Another currency.
    expect(parseBrCode(withCrc(valid.replace('5303986', '5303840'))).ok).toBe(false);
  });
});

describe('pspBrCode (a real partner issues the BR Code)', () => {
  const location = 'qrcodes.psp.example/v2/3c1f5e0a9b7d4e2f8a6c0b1d9e8f7a6b';
  const charge = { amountCents: 2500, merchantName: 'Loja', merchantCity: 'Recife' };
  const issued = buildDynamicBrCode({
    location,
    amountCents: 2500,
    merchantName: 'PSP Recebedor',
    merchantCity: 'Sao Paulo',
  });

  it("answers the PSP's pixCopiaECola exactly as sent, with or without https:// on its location", () => {
    expect(pspBrCode({ copyAndPaste: issued, location: `https://${location}` }, charge)).toEqual({
      copyAndPaste: issued,
      location,
    });
    expect(pspBrCode({ copyAndPaste: issued, location: '' }, charge)).toEqual({
      copyAndPaste: issued,
      location,
    });
  });

  it("builds on the PSP's location when its code is unusable, and gives up without a location", () => {
    const broken = `${issued.slice(0, -4)}0000`; // wrong CRC
    const otherAmount = buildDynamicBrCode({
      location,
      amountCents: 1,
      merchantName: 'X',
      merchantCity: 'Y',
    });
    const elsewhere = buildDynamicBrCode({ ...charge, location: 'evil.example/qr/1' });
    for (const copyAndPaste of [broken, otherAmount, elsewhere, '']) {
      const built = pspBrCode({ copyAndPaste, location }, charge);
      expect(built?.location).toBe(location);
      const parsed = parseBrCode(built!.copyAndPaste);
      expect(parsed.ok && [parsed.fields.merchantAccount.url, parsed.fields.amountCents]).toEqual([
        location,
        2500,
      ]);
    }
    expect(pspBrCode({ copyAndPaste: broken, location: '' }, charge)).toBeUndefined();
    expect(
      pspBrCode({ copyAndPaste: '', location: `psp.example/${'x'.repeat(80)}` }, charge),
    ).toBeUndefined();
  });
});

describe('buildRecurrenceBrCode (Pix Automático, the QR journey without a charge)', () => {
  // bacen/pix-api 2.9.0's own JORNADA_2 example (test/fixtures/bcb-pix-api/openapi.yaml,
  // dadosQR.pixCopiaECola), CRC included: the layout docs/contract.md cites.
  const bcb =
    '00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***' +
    '80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002630462C9';

  it("reads bacen/pix-api's JORNADA_2 example: CRC valid, the recurrence's location in field 80", () => {
    const parsed = parseBrCode(bcb);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(crc16(bcb.slice(0, -4))).toBe(bcb.slice(-4));
    expect(parsed.fields.recurrence).toEqual({
      gui: 'br.gov.bcb.pix',
      url: 'pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002',
    });
  });

  // The same layout as published by FitBank's developer documentation, CRC included.
  const published =
    '00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***' +
    '80740014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac1200026304F2DA';

  it('writes the published layout, fields in its order: GUI alone in 26, the location in 80, no amount', () => {
    const code = buildRecurrenceBrCode({
      location: 'https://pix.example.com/rec/2353c790eefb11eaadc10242ac120002',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
    });
    // Our names are written in upper case (as in every BR Code we issue), so the CRC differs.
    const body = published.slice(0, -4).replace('Fulano de Tal', 'FULANO DE TAL');
    expect(code).toBe(body + crc16(body));
    expect(parseBrCode(published).ok).toBe(true);
  });

  it('reads field 80 back and refuses one without a location', () => {
    const parsed = parseBrCode(published);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.fields.recurrence).toEqual({
      gui: 'br.gov.bcb.pix',
      url: 'pix.example.com/rec/2353c790eefb11eaadc10242ac120002',
    });
    expect(parsed.fields.amount).toBeUndefined();
    const body =
      published.slice(0, published.indexOf('8074')) +
      encodeTlv('80', encodeTlv('00', 'br.gov.bcb.pix')) +
      '6304';
    const parsedBad = parseBrCode(body + crc16(body));
    expect(parsedBad).toEqual({ ok: false, error: expect.stringContaining('field 80') });
  });
});
