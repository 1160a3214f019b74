/**
 * How LibreOffice prints a chart value in the extraction result: `OUString::number(double)`, i.e.
 * `rtl::math::doubleToUString(value, rtl_math_StringFormat_G, 17, '.', nullptr, 0, true)` (sal/rtl/math.cxx).
 *
 * - NaN (an unset cell) prints `NaN`, infinities `INF` / `-INF`, negative zero `-0`.
 * - Whole numbers below 2^53 print all their digits (`2`, `360`, `9007199254740991`).
 * - Other values are rounded to 15 significant digits (so `4.5999999999999996` prints `4.6`), trailing zeros
 *   erased; the exponent form (`1.5E-005`, `1E+020`: `E`, a sign and exactly three digits, as `%E`) is used when
 *   the decimal exponent is below -4 or at least 17, the plain form otherwise.
 */
export function formatChartNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'INF' : '-INF';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (Number.isInteger(abs) && abs < 2 ** 53) return sign + abs.toFixed(0);
  // toExponential(14) gives 15 significant digits, correctly rounded: d.dddddddddddddde±x
  const [mantissa, expText] = abs.toExponential(14).split('e');
  const exp = Number(expText);
  const digits = mantissa.replace('.', '').replace(/0+$/, '') || '0';
  if (exp < -4 || exp >= 17) {
    const frac = digits.slice(1);
    const e = Math.abs(exp);
    return `${sign}${digits[0]}${frac ? `.${frac}` : ''}E${exp < 0 ? '-' : '+'}${String(e).padStart(3, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intLen = exp + 1;
  if (digits.length <= intLen) return sign + digits + '0'.repeat(intLen - digits.length);
  return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
}

/**
 * How a value is written into OOXML caches and spreadsheet cells (`c:v`, `<v>`) and ODF `office:value`: the
 * shortest text that reads back as the same double (ECMA-376 and ODF both take xsd:double).
 */
export function xmlNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  return String(value).replace('e+', 'E').replace('e-', 'E-');
}
