/** A document-shaped icon in the app's colour (24x24 SVG). */
function icon(color: string, mark: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><path d="M5 2h10l5 5v15H5z" fill="${color}"/><path d="M15 2v5h5" fill="#fff" opacity=".5"/>${mark}</svg>`;
}

/** The app icons discovery's `favIconUrl`s point at (writer, calc, impress, draw). */
export const APP_ICONS: Readonly<Record<string, string>> = {
  'x-office-document.svg': icon('#2a6fdb', '<path d="M8 11h8M8 14h8M8 17h5" stroke="#fff" stroke-width="1.5"/>'),
  'x-office-spreadsheet.svg': icon('#1f9d55', '<path d="M8 11h8v7H8zM12 11v7M8 14.5h8" stroke="#fff" stroke-width="1.2" fill="none"/>'),
  'x-office-presentation.svg': icon('#d9822b', '<path d="M8 11h8v5H8z" stroke="#fff" stroke-width="1.2" fill="none"/>'),
  'x-office-drawing.svg': icon('#c53f8f', '<circle cx="12" cy="14.5" r="3" stroke="#fff" stroke-width="1.2" fill="none"/>'),
};
