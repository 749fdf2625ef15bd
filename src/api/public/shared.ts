/** What the public pages share: an HTML answer, as documented. */
export const HTML = { type: 'string', description: 'An HTML page.' };
