/** ISPB (8 digits) → the BCB's short name, from the text of the BCB's list of Pix participants. */
export function parseParticipants(text: string): Record<string, string>;
