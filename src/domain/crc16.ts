// CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR): the checksum of
// field 63 of a PIX BR Code (EMV QRCPS).

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
    table[n] = c;
  }
  return table;
})();

const encoder = new TextEncoder();
const NON_ASCII = /[\u0080-\uffff]/;

/** CRC16/CCITT-FALSE of the UTF-8 bytes of `text`, as 4 uppercase hex characters. */
export function crc16(text: string): string {
  let crc = 0xffff;
  // BR Codes are almost always ASCII: then char codes are the UTF-8 bytes, no need to allocate them.
  const bytes = NON_ASCII.test(text) ? encoder.encode(text) : undefined;
  const length = bytes ? bytes.length : text.length;
  for (let i = 0; i < length; i++) {
    const byte = bytes ? (bytes[i] ?? 0) : text.charCodeAt(i);
    crc = ((crc << 8) ^ (TABLE[((crc >>> 8) ^ byte) & 0xff] ?? 0)) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
