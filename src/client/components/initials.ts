/**
 * The avatar's letters for a name: the first character of its first two words, or the first two
 * of a single word, as Mantine's Avatar makes them, but counted in code points: its own cut
 * halves an emoji ('Ada 🚀' gave 'A' and half of the rocket, drawn as �).
 */
export function initials(name: string): string {
  const words = name.split(' ').filter(Boolean);
  const letters = words.length === 1 ? [...words[0]!] : words.map((word) => [...word][0]);
  return letters.slice(0, 2).join('').toUpperCase();
}
