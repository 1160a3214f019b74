/**
 * The slideshow export (editor.md `download` with purpose `slideshow`): LibreOffice's SVG export of a presentation
 * carries its own JavaScript player. The editor shows it in a sandboxed frame (an opaque origin: no access to the
 * editor page), so the download is served inline with a policy that lets only its own inline scripts and styles
 * run. The player's exit (Escape, Q, or the end of the show) calls `window.webkit.messageHandlers.cool`, the hook
 * LibreOffice gives its mobile apps; a small script added to the SVG turns that into a PostMessage to the parent
 * page, which closes the slideshow.
 */

/** The response headers' CSP of a slideshow: a sandbox with scripts, nothing loaded from anywhere. */
export const SLIDESHOW_CSP =
  "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:";

/**
 * The script added to the SVG: the player's exit hook, and Escape, post `{type: 'ode-slideshow', action: 'exit'}` to the
 * parent; Enter and Backspace go to the next and previous step (the player's own globals: keyCodeDictionary, currentMode).
 */
const EXIT_HOOK = `<script type="text/ecmascript"><![CDATA[
(function () {
  function exit() { try { parent.postMessage({ type: 'ode-slideshow', action: 'exit' }, '*'); } catch (e) {} }
  window.webkit = { messageHandlers: { cool: { postMessage: function (m) { if (m === 'EXITSLIDESHOW') exit(); } } } };
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape' || e.keyCode === 27) exit(); }, true);
  // Enter and Backspace as in LibreOffice's own slideshow (and presenter clickers that send Enter): the player maps
  // neither in slide mode, so they run what its Right and Left arrows do.
  window.addEventListener('keydown', function (e) {
    var as = e.key === 'Enter' ? 39 : e.key === 'Backspace' ? 37 : 0;
    if (!as || e.altKey || e.ctrlKey || e.metaKey || typeof keyCodeDictionary === 'undefined' || currentMode !== SLIDE_MODE) return;
    e.preventDefault();
    e.stopPropagation();
    var run = keyCodeDictionary[SLIDE_MODE][as];
    if (run && !processingEffect) run();
  }, true);
})();
]]></script>`;

/** The exported SVG with the exit hook before its closing tag (unchanged when it has none). */
export function withExitHook(svg: Uint8Array): Uint8Array {
  const text = new TextDecoder().decode(svg);
  const end = text.lastIndexOf('</svg>');
  if (end < 0) return svg;
  return new TextEncoder().encode(text.slice(0, end) + EXIT_HOOK + text.slice(end));
}
