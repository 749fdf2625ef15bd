/**
 * BR Code merchant text (docs/contract.md, BR Code): field 59 is the client's merchantName (default its
 * name), field 60 its merchantCity (default SAO PAULO), transliterated to the BR Code character set (accents
 * removed, upper-cased, other characters dropped) and cut to 25 and 15 characters.
 */

export const MAX_MERCHANT_NAME = 25;
export const MAX_MERCHANT_CITY = 15;
export const DEFAULT_MERCHANT_CITY = 'SAO PAULO';
/**
 * What field 59 says for a client onboarded before merchant text was checked, whose name has
 * nothing left after transliteration: a Cash-In never fails for its merchant text.
 */
export const FALLBACK_MERCHANT_NAME = 'RECEBEDOR';

/** The BR Code form of a text: EMV's printable ASCII only, upper-cased, spaces collapsed. */
export function brCodeText(text: string, max: number): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/ +/g, ' ')
    .trim()
    .slice(0, max)
    .trimEnd();
}

export const merchantNameText = (text: string) => brCodeText(text, MAX_MERCHANT_NAME);
export const merchantCityText = (text: string) => brCodeText(text, MAX_MERCHANT_CITY);

/** Fields 59 and 60 for a client's profile; never empty. */
export function merchantFields(profile: { name: string; merchantName?: string; merchantCity?: string }) {
  return {
    merchantName: merchantNameText(profile.merchantName ?? profile.name) || FALLBACK_MERCHANT_NAME,
    merchantCity: merchantCityText(profile.merchantCity ?? DEFAULT_MERCHANT_CITY) || DEFAULT_MERCHANT_CITY,
  };
}
