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
const NON_ASCII = /[^\x00-\x7f]/;

/** CRC16/CCITT-FALSE of the UTF-8 bytes of `text`, as 4 uppercase hex characters. */
export function crc16(text: string): string {
  let crc = 0xffff;
  // BR Codes are almost always ASCII: read char codes directly instead of allocating UTF-8 bytes.
  if (NON_ASCII.test(text)) {
    for (const byte of encoder.encode(text)) crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ byte) & 0xff]!) & 0xffff;
  } else {
    for (let i = 0; i < text.length; i++) {
      crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ text.charCodeAt(i)) & 0xff]!) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
