/**
 * Keeps LibreOffice away from print servers (issue 15, "a document can stall for 20 seconds"). A kit never prints,
 * but LibreOffice looks printers up while it loads and lays out documents: the printer a document names (ODF
 * settings.xml PrinterName/PrinterSetup, OOXML printerSettings parts) and the system's default printer, through
 * CUPS. With a print server that does not answer (CUPS_SERVER or localhost:631 dropping packets, a network
 * printer), each lookup waits for CUPS' time-out: measured on LibreOffice 25.2 with a CUPS_SERVER that accepts
 * and never answers, the first docx load of a kit took 122 s; 7.4 showed 20.5 s per document against an absent one.
 *
 * LibreOffice reads three switches from its environment when it first needs printers (so they must be set before
 * lok_init_2): SAL_DISABLE_CUPS (vcl/unx/generic/printer/cupsmgr.cxx: no CUPSManager, the generic PSP printer list
 * instead), SAL_DISABLE_PRINTERLIST and SAL_DISABLE_DEFAULTPRINTER (vcl/source/gdi/print.cxx: no queue list, no
 * default printer name from the system). Measured with that CUPS_SERVER: SAL_DISABLE_CUPS alone, or the two print.cxx
 * switches together, make no connection; either print.cxx switch alone still connects. All three are set.
 * Documents then lay out on LibreOffice's generic printer metrics, as they do on a machine without printers.
 */

/** The environment variables set in every kit, and their value. */
export const PRINT_SERVER_GUARD: Readonly<Record<string, string>> = {
  SAL_DISABLE_CUPS: '1',
  SAL_DISABLE_PRINTERLIST: '1',
  SAL_DISABLE_DEFAULTPRINTER: '1',
};

/** Sets PRINT_SERVER_GUARD in `env` (the kit's process.env, before LibreOffice starts). */
export function applyPrintServerGuard(env: NodeJS.ProcessEnv): void {
  Object.assign(env, PRINT_SERVER_GUARD);
}
