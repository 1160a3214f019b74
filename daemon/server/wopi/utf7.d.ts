/** Types of the `utf7` package (RFC 2152 UTF-7), which ships none. */
declare module 'utf7' {
  /** Encodes a string as RFC 2152 UTF-7; characters outside set D (and `mask`) become `+<modified base64>-`. */
  export function encode(text: string, mask?: string): string;
  /** Decodes RFC 2152 UTF-7. */
  export function decode(text: string): string;
}
