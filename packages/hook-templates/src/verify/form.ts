function decodeComponent(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(text[i] === '+' ? 0x20 : text.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

/**
 * Decodes an `application/x-www-form-urlencoded` body into ordered `[name, value bytes]` pairs,
 * byte-exact (no UTF-8 normalisation). Never throws.
 *
 * @example
 * decodeFormBody(Buffer.from('a=1&payload=%7B%7D')) // [['a', <31>], ['payload', <7b 7d>]]
 */
export function decodeFormBody(body: Buffer): [string, Buffer][] {
  const text = body.toString('latin1');
  if (text === '') return [];
  return text.split('&').map((part) => {
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : part.slice(eq + 1);
    return [decodeComponent(key).toString('utf8'), decodeComponent(value)];
  });
}

/** `buf` without trailing LF/CR bytes (`$(…)` strips trailing newlines). */
export function trimTrailingNewlines(buf: Buffer): Buffer {
  let end = buf.length;
  while (end > 0 && (buf[end - 1] === 0x0a || buf[end - 1] === 0x0d)) end--;
  return buf.subarray(0, end);
}
