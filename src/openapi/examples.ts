/**
 * What every operation's examples share (src/api/<resource>/*.ts): the `example()`
 * wrapper, the typing helpers, and the sample accounts they name.
 */
import type * as v from 'valibot';

export type Out<S extends v.GenericSchema> = v.InferOutput<S>;
export type In<S extends v.GenericSchema> = v.InferInput<S>;

export const SETTLEMENT = {
  ispb: '31880826',
  bank: 'Banco Alfa Liquidações S.A.',
  branch: '0001',
  account: '10000001-5',
};
export const PAYER_BANK = {
  ispb: '60701190',
  bank: 'Itaú Unibanco S.A.',
  branch: '0001',
  account: '123456-7',
};

export const example = (summary: string, value: unknown) => ({ summary, value });
