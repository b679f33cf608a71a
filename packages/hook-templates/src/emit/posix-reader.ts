import { BOUNDED_READER_FIRST_BYTE_S, BOUNDED_READER_IDLE_S } from '../constants.ts';

/**
 * The bounded first-JSON-value reader (spec §4), Python 3 source without `'` so it fits in one
 * single-quoted shell word. Waits ≤ first-byte seconds, then ≤ idle seconds between chunks;
 * decodes UTF-8 incrementally, skips leading whitespace and returns as soon as one top-level
 * object or array completes; anything else (or invalid UTF-8) is read to EOF. Bytes are written
 * unchanged. Exits 3 only when it read nothing, so the shell fallback gets the whole stream.
 */
export const BOUNDED_READER_PY = `import os, sys, select, codecs
def main():
    out = bytearray()
    dec = codecs.getincrementaldecoder("utf-8")()
    started = False
    full = False
    depth = 0
    instr = False
    esc = False
    wait = ${BOUNDED_READER_FIRST_BYTE_S}
    while True:
        if not full:
            ready = select.select([0], [], [], wait)[0]
            if not ready:
                break
        chunk = os.read(0, 65536)
        if not chunk:
            break
        out += chunk
        if full:
            continue
        wait = ${BOUNDED_READER_IDLE_S}
        try:
            text = dec.decode(chunk)
        except UnicodeDecodeError:
            full = True
            continue
        done = False
        for ch in text:
            if not started:
                if ch in " \\t\\r\\n":
                    continue
                if ch in "{[":
                    started = True
                    depth = 1
                    continue
                full = True
                break
            if instr:
                if esc:
                    esc = False
                elif ch == "\\\\":
                    esc = True
                elif ch == "\\"":
                    instr = False
            elif ch == "\\"":
                instr = True
            elif ch in "{[":
                depth += 1
            elif ch in "}]":
                depth -= 1
                if depth == 0:
                    done = True
                    break
        if done:
            break
    if not out:
        sys.exit(3)
    sys.stdout.buffer.write(bytes(out))
    sys.stdout.flush()
main()
`;
