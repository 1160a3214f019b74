/** A small typed event emitter: `on` returns the function that unsubscribes. */
export class Emitter<Events extends { [K in keyof Events]: (...args: never[]) => void }> {
  private readonly listeners = new Map<keyof Events, Set<Events[keyof Events]>>();

  /** Calls `fn` on every `event`; returns the unsubscribe function. */
  on<K extends keyof Events>(event: K, fn: Events[K]): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  /** Calls `fn` on the next `event` only. */
  once<K extends keyof Events>(event: K, fn: Events[K]): () => void {
    const off = this.on(event, ((...args: Parameters<Events[K]>) => {
      off();
      (fn as (...a: Parameters<Events[K]>) => void)(...args);
    }) as unknown as Events[K]);
    return off;
  }

  /** Calls the listeners of `event` in subscription order; a throwing listener is reported and skipped. */
  emit<K extends keyof Events>(event: K, ...args: Parameters<Events[K]>): void {
    for (const fn of [...(this.listeners.get(event) ?? [])]) {
      try {
        (fn as (...a: Parameters<Events[K]>) => void)(...args);
      } catch (e) {
        console.error(`[ode] listener of ${String(event)} failed`, e);
      }
    }
  }
}
