// "This server's settings changed": told by a settings save and by a mirror pass that adopted
// or merged another server's settings.json (admin/travel/). The event stream passes it on, so
// an open Settings form shows the values in effect rather than the ones it loaded.
export class SettingsEvents {
  private readonly listeners = new Set<() => void>();

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
