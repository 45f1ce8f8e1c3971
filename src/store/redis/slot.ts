/**
 * Redis Cluster's key → hash slot function: CRC16 (XMODEM: polynomial 0x1021, initial value 0) of the key's hash
 * tag, modulo 16384. The hash tag is what lies between the first `{` and the first `}` after it, when that is not
 * empty; otherwise the whole key is hashed. Computed on the key's UTF-8 bytes, as Redis does.
 */

/** How many hash slots a Redis Cluster has. */
export const SLOT_COUNT = 16384;

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[byte] = crc;
  }
  return table;
})();

function crc16(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ (bytes[i] ?? 0)) & 0xff] ?? 0);
  return crc;
}

/** The hash slot of `key`, the same number `CLUSTER KEYSLOT key` answers. */
export function keySlot(key: string): number {
  const bytes = Buffer.from(key, 'utf8');
  const open = bytes.indexOf(0x7b); // {
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1); // }
    if (close > open + 1) return crc16(bytes, open + 1, close) % SLOT_COUNT;
  }
  return crc16(bytes, 0, bytes.length) % SLOT_COUNT;
}
