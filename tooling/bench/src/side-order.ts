/**
 * The order the sides of a comparison run in, round by round: a Williams design. Over one cycle
 * ({@link sideOrderCycle} rounds) every side runs first equally often and every side directly
 * follows every other side equally often.
 *
 * Why: a plain rotation (round `s` starts at side `s mod n`) keeps one cyclic order, so the side
 * after the heaviest allocator always inherited its garbage — with a floor comparison, ours
 * followed the JSON baseline in two rounds of three and the floor in one, and the collections
 * the baseline left behind landed on ours (the wire 4 KiB row read 0.6 of its floor, not 0.85).
 *
 * @example
 * sideOrder(1, 4); // [1, 2, 0, 3]
 */
export function sideOrder(round: number, sides: number): number[] {
  const row = round % sides;
  const first = williamsFirstRow(sides).map((k) => (k + row) % sides);
  // Why: for an odd count the n rows balance who follows whom only together with their mirrors.
  const mirrored = sides % 2 === 1 && Math.floor(round / sides) % 2 === 1;
  return mirrored ? first.reverse() : first;
}

/** Rounds after which {@link sideOrder} repeats: `n` for an even count of sides, `2n` for odd. */
export function sideOrderCycle(sides: number): number {
  return sides % 2 === 0 ? sides : 2 * sides;
}

/** 0, 1, n−1, 2, n−2, 3, … */
function williamsFirstRow(n: number): number[] {
  const row = [0];
  for (let j = 1; j < n; j++) row.push(j % 2 === 1 ? (j + 1) / 2 : n - j / 2);
  return row;
}
