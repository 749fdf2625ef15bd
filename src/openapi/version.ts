/** The API contract version this gateway implements (docs/contract.md, Versioning). */
export const API_VERSION = '2.2.0';
