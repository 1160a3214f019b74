import { formFactorOf, type DeviceTraits, type FormFactor } from './form-factor.ts';

/**
 * This browser's traits: a coarse primary pointer (or touch points without any hovering pointer) and the viewport
 * size.
 */
export function deviceTraits(): DeviceTraits {
  const coarse = matchMedia('(pointer: coarse)').matches || (navigator.maxTouchPoints > 0 && !matchMedia('(any-hover: hover)').matches);
  return { coarse, width: innerWidth, height: innerHeight };
}

/** This browser's form factor (`mobile`, `tablet`, `desktop`): what the load message tells LibreOffice. */
export function deviceFormFactor(): FormFactor {
  return formFactorOf(deviceTraits());
}
