/** The colour palette of the font and highlighting colour pickers: message key and CSS hex colour. */
export const PALETTE: ReadonlyArray<{ key: string; hex: string }> = [
  { key: 'colour.black', hex: '#000000' },
  { key: 'colour.darkGrey', hex: '#595959' },
  { key: 'colour.red', hex: '#c9211e' },
  { key: 'colour.orange', hex: '#ff8000' },
  { key: 'colour.yellow', hex: '#ffff00' },
  { key: 'colour.green', hex: '#3faf46' },
  { key: 'colour.teal', hex: '#00a0a0' },
  { key: 'colour.blue', hex: '#2a6099' },
  { key: 'colour.purple', hex: '#780373' },
  { key: 'colour.white', hex: '#ffffff' },
];

/** `#rrggbb` as the long LibreOffice takes for a colour (0xRRGGBB); -1 (automatic / none) for anything else. */
export function colourLong(hex: string): number {
  return /^#[0-9a-f]{6}$/i.test(hex) ? parseInt(hex.slice(1), 16) : -1;
}
