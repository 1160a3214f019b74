/** The colour palette of the font and highlighting colour pickers: message key and CSS hex colour. */
export const PALETTE: ReadonlyArray<{ key: string; hex: string }> = [
  { key: 'color.black', hex: '#000000' },
  { key: 'color.darkGrey', hex: '#595959' },
  { key: 'color.red', hex: '#c9211e' },
  { key: 'color.orange', hex: '#ff8000' },
  { key: 'color.yellow', hex: '#ffff00' },
  { key: 'color.green', hex: '#3faf46' },
  { key: 'color.teal', hex: '#00a0a0' },
  { key: 'color.blue', hex: '#2a6099' },
  { key: 'color.purple', hex: '#780373' },
  { key: 'color.white', hex: '#ffffff' },
];

/** `#rrggbb` as the long LibreOffice takes for a colour (0xRRGGBB); -1 (automatic / none) for anything else. */
export function colorLong(hex: string): number {
  return /^#[0-9a-f]{6}$/i.test(hex) ? parseInt(hex.slice(1), 16) : -1;
}
