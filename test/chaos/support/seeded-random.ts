/** mulberry32: a small seeded generator, so a failing chaos run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** VIGIL_CHAOS_SEED when set (to replay a run), a fresh seed otherwise. */
export function chaosSeed(): number {
  const given = process.env.VIGIL_CHAOS_SEED;
  return given ? Number(given) : Math.floor(Math.random() * 2 ** 31);
}
