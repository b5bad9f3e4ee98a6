import { Injectable } from '@nestjs/common';

/**
 * A machine-translation backend (e.g. a hosted translation API). None ships with the service: plug one
 * in with `MachineTranslation.use(provider)` (e.g. from a deployment-specific module's onModuleInit).
 */
export interface MachineTranslationProvider {
  /** Returns one translation per input text, in order. */
  translate(texts: string[], from: string, to: string): Promise<string[]>;
}

/**
 * Holds the configured provider. Without one, `translate` returns the texts unchanged, so
 * `machineTranslateLangid` leaves display titles in their source language.
 */
@Injectable()
export class MachineTranslation {
  private provider: MachineTranslationProvider | undefined;

  use(provider: MachineTranslationProvider | undefined): void {
    this.provider = provider;
  }

  get configured(): boolean {
    return this.provider !== undefined;
  }

  async translate(texts: string[], from: string, to: string): Promise<string[]> {
    if (!this.provider || !texts.length || from === to) return texts;
    const translated = await this.provider.translate(texts, from, to);
    return texts.map((text, index) =>
      typeof translated[index] === 'string' && translated[index] ? translated[index] : text,
    );
  }
}
