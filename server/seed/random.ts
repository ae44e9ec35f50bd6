/** mulberry32: tiny, fast and the same sequence on every machine, so every first start seeds the same data. */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  /** `count` different items, in random order. */
  const sample = <T>(items: readonly T[], count: number): T[] => {
    const pool = [...items];
    for (let i = 0; i < Math.min(count, pool.length); i++) {
      const j = i + Math.floor(next() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, count);
  };
  /** One of `weighted`'s items, each as likely as its weight. */
  const weighted = <T>(weighted: readonly (readonly [T, number])[]): T => {
    let r = next() * weighted.reduce((sum, [, w]) => sum + w, 0);
    for (const [item, w] of weighted) if ((r -= w) < 0) return item;
    return weighted[weighted.length - 1]![0];
  };
  return { next, int, pick, sample, weighted, chance: (p: number) => next() < p };
}
export type Random = ReturnType<typeof random>;
