/**
 * What an operator needs to know about a certificate (issue 8, "Expiry"): subject, validity, days left and
 * whether it expires within EXPIRY_WARNING_DAYS, plus serial and fingerprint (to tell a renewed certificate from
 * the old one). Read with node:crypto's X509Certificate.
 */
import { X509Certificate } from 'node:crypto';

/** Days before notAfter from which a certificate counts as expiring soon (warned about at start and daily). */
export const EXPIRY_WARNING_DAYS = 30;

const DAY_MS = 86_400_000;

/** The certificate status shown in /health, the admin API and the dashboard. */
export interface CertificateStatus {
  /** Subject DN as node prints it, e.g. `CN=localhost`. */
  subject: string;
  /** ISO 8601 end of validity. */
  notAfter: string;
  /** Whole days until notAfter (negative once expired). */
  daysLeft: number;
  /** True within EXPIRY_WARNING_DAYS of notAfter, and once expired. */
  expiresSoon: boolean;
}

/** CertificateStatus plus the details logs and tests use. */
export interface CertificateInfo extends CertificateStatus {
  issuer: string;
  /** ISO 8601 start of validity. */
  notBefore: string;
  /** Upper-case hex, as X509Certificate.serialNumber. */
  serialNumber: string;
  /** SHA-256 fingerprint, colon-separated upper-case hex. */
  fingerprint256: string;
  /** e.g. `DNS:localhost, IP Address:127.0.0.1`; empty when absent. */
  subjectAltName: string;
  /** basicConstraints CA:true. */
  ca: boolean;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The PEM certificates in `pem`, in order (leaf first in a chain file). */
export function splitPemCertificates(pem: string): string[] {
  return pem.match(PEM_CERT) ?? [];
}

/** The status part of `info` (what /health and the admin API show). */
export function certificateStatus(info: CertificateInfo): CertificateStatus {
  return { subject: info.subject, notAfter: info.notAfter, daysLeft: info.daysLeft, expiresSoon: info.expiresSoon };
}

/**
 * Reads the first certificate of `pem` (a leaf, or a chain with the leaf first).
 * @param now the clock in ms (tests); default now.
 * @throws Error when `pem` holds no PEM certificate or it cannot be parsed.
 */
export function certificateInfo(pem: string | Buffer, now = Date.now()): CertificateInfo {
  const first = splitPemCertificates(pem.toString())[0];
  if (!first) throw new Error('no PEM certificate ("-----BEGIN CERTIFICATE-----") found');
  const c = new X509Certificate(first);
  const notAfter = Date.parse(c.validTo);
  const left = notAfter - now;
  return {
    subject: c.subject.replace(/\n/g, ', '),
    issuer: c.issuer.replace(/\n/g, ', '),
    notBefore: new Date(Date.parse(c.validFrom)).toISOString(),
    notAfter: new Date(notAfter).toISOString(),
    daysLeft: Math.floor(left / DAY_MS),
    expiresSoon: left <= EXPIRY_WARNING_DAYS * DAY_MS,
    serialNumber: c.serialNumber,
    fingerprint256: c.fingerprint256,
    subjectAltName: c.subjectAltName ?? '',
    ca: c.ca,
  };
}
