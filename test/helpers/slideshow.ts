import type { FrameLocator, Page } from 'playwright-core';

/**
 * Escape in the editor's slideshow player, returning once the Slideshow layer is gone (up to 30 s; throws otherwise).
 * `page` takes the key; `editor` is where the editor is: the page itself, or the host page's frame of the editor.
 * The player leaves on the key's keydown and the editor removes its frame at once, while the key's CDP events
 * (Input.dispatchKeyEvent, key down then key up) may still wait for that frame's answer, which then never comes
 * (measured in a loop of F5, ArrowRight, Escape under two busy loops: 1 press in 7-40 hung, on the key up, or on the
 * key down when it came right after ArrowRight), and keyboard.press waits without a limit: slides.test.ts's keyboard
 * test hung until its 120 s time-out on both CI tries of stop 28. So the press is not awaited beyond the layer's
 * going (what callers assert) and 5 s; a press left unanswered does not hold up later input.
 */
export async function escapeSlideshow(page: Page, editor: Page | FrameLocator = page): Promise<void> {
  const pressed = page.keyboard.press('Escape').catch(() => undefined);
  await editor.getByRole('dialog', { name: 'Slideshow' }).waitFor({ state: 'detached', timeout: 30_000 });
  await Promise.race([pressed, new Promise((r) => setTimeout(r, 5000))]);
}
