// Durations as people write them in a command line or an environment variable: "90s", "15m", "6h", "1d",
// "1h30m", "2w". A bare number is refused (seconds or minutes? the unit is always written).

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Milliseconds of a duration such as "6h" or "1h30m"; throws naming `what` and the accepted forms otherwise. */
export function parseDuration(text: string, what: string): number {
  const trimmed = text.trim().toLowerCase();
  const part = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)/gy;
  let total = 0;
  let matched = 0;
  let match: RegExpExecArray | null;
  while ((match = part.exec(trimmed)) !== null) {
    total += Number(match[1]) * UNIT_MS[match[2]];
    matched = part.lastIndex;
    while (trimmed[part.lastIndex] === ' ') part.lastIndex++;
  }
  if (trimmed === '' || matched !== trimmed.length || !Number.isFinite(total) || total <= 0) {
    throw new Error(`${what} must be a duration such as 90s, 15m, 6h, 1d or 1h30m, got "${text}"`);
  }
  return Math.round(total);
}

/** "1d 6h", "15m", "42s": for messages and status answers. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  let seconds = Math.round(ms / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (seconds >= size) {
      parts.push(`${Math.floor(seconds / size)}${unit}`);
      seconds %= size;
    }
  }
  return parts.slice(0, 2).join(' ');
}
