// Generated test cases need numbers that are the same every run and vary in every bit a test
// reads. A linear congruential generator's low bits repeat in short cycles (its last bit
// alternates), so `next() % 2` drawn at every other step is always the same: the raw-islands
// test's 400 "mixes" of HTML and Markdown were each all one or the other. This one answers
// from the high bits.

/** A deterministic source of whole numbers in [0, n), from `seed`. */
export function seeded(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
}
