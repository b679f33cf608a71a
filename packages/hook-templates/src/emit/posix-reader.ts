import { BOUNDED_READER_FIRST_BYTE_S, BOUNDED_READER_IDLE_S } from '../constants.ts';

/**
 * Flags every Python that runs {@link BOUNDED_READER_PY} gets: isolated mode without `site` (`-IS`,
 * one argument). Why `-S`: the reader imports only built-in and standard modules, and `site` (the
 * `.pth` files of every installed package) was about a quarter of the Python's start, paid on every
 * hook event. Why `-I`: a plain
 * `python3 -c` puts the working directory (the agent's project, whose files anyone with a commit
 * can write) first on `sys.path`, and an empty `PYTHONPATH` entry (`PYTHONPATH=$PYTHONPATH:/x`
 * with it unset) adds it again; on a Python that loads `select` from a file (pyenv's does; Debian
 * builds it in) a `select.py` there ran as the hook. `-I` keeps both off the path. A Python 2
 * `python` rejects `-I` before reading a byte, so the shell's `cat` fallback gets the whole stream
 * (the reader, Python 3 source, had read it all and then failed there).
 */
export const BOUNDED_READER_PY_FLAGS = '-IS';

/**
 * The bounded first-JSON-value reader (spec §4), Python 3 source without `'` so it fits in one
 * single-quoted shell word. Waits ≤ first-byte seconds, then ≤ idle seconds between chunks;
 * decodes UTF-8 incrementally, skips leading whitespace and returns as soon as one top-level
 * object or array completes; anything else (or invalid UTF-8) is read to EOF. Bytes are written
 * unchanged. The scan jumps (\`str.find\`, each character's next place kept until passed) to the
 * next character that matters — a quote or a backslash in a string, a quote or a bracket outside
 * one — so a large value costs no Python loop per character (and no \`re\` import, ~18 ms here). Exits 3 only when it read nothing, so the shell fallback gets the whole stream.
 */
export const BOUNDED_READER_PY = `import os, sys, select, codecs
IN_STRING = "\\\\\\""
OUTSIDE = "\\"{}[]"
def find_next(text, chars, i, seen):
    best = -1
    for c in chars:
        at = seen.get(c, -2)
        if at != -1 and at < i:
            at = text.find(c, i)
            seen[c] = at
        if at >= 0 and (best < 0 or at < best):
            best = at
    return best
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
        i = 0
        n = len(text)
        seen = {}
        while i < n:
            if not started:
                ch = text[i]
                i += 1
                if ch in " \\t\\r\\n":
                    continue
                if ch in "{[":
                    started = True
                    depth = 1
                    continue
                full = True
                break
            if esc:
                esc = False
                i += 1
                continue
            at = find_next(text, IN_STRING if instr else OUTSIDE, i, seen)
            if at < 0:
                break
            ch = text[at]
            i = at + 1
            if instr:
                if ch == "\\\\":
                    esc = True
                else:
                    instr = False
            elif ch == "\\"":
                instr = True
            elif ch in "{[":
                depth += 1
            else:
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
