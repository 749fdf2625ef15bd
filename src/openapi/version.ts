/** The API contract version this gateway implements (spec §9). */
export const API_VERSION = '2.2.0';
