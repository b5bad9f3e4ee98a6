/** A small round SVG icon with one letter: served for flags, badges and the default avatar. */
export function iconSvg(letter: string, color: string): string {
  const safeColor = /^#[0-9a-f]{6}$/i.test(color) ? color : '#777777';
  const safeLetter = letter.replace(/[^A-Za-z0-9?]/g, '').slice(0, 1) || '?';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="${safeColor}"/><text x="32" y="42" font-family="sans-serif" font-size="28" text-anchor="middle" fill="#ffffff">${safeLetter}</text></svg>`;
}
