import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { decoratedMethods } from '../../common/discovery/decorated-methods';
import { DEMO_SEED_STEP, type DemoSeedOptions } from './demo-seed.decorator';
import { whileSeedingDemo } from './seeding-demo';

/** Shared by the accounts' demo step: who to log in as, for the start-up summary (main.ts). */
export const DEMO_LOGIN = 'demo.login';
/** Shared after seeding: true when no account holds Admin (main.ts then says how to create one). */
export const NO_ADMIN = 'accounts.no-admin';
export interface DemoLogin {
  accounts: { email: string; privilege: string }[];
  password: string;
}

interface DemoSeedStep extends DemoSeedOptions {
  run(): Promise<void>;
}

export interface StartupTask {
  name: string;
  order: number;
  run(): Promise<void>;
}

/**
 * What modules add to a new site: startup tasks run on every start (e.g. ensuring the ADMIN_EMAIL account), demo
 * steps (methods marked @DemoSeed, found through Nest's discovery) only when SEED_DEMO is on and the accounts
 * module finds the database new. All run through the modules' own services.
 */
@Injectable()
export class DemoSeedRegistry implements OnApplicationBootstrap {
  private readonly logger = new Logger('Seed');
  private readonly startupTasks: StartupTask[] = [];
  private emptinessCheck: () => Promise<boolean> = async () => false;
  private readonly readyChecks: (() => Promise<void>)[] = [];
  private readonly shared = new Map<string, unknown>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  /** Every @DemoSeed method, in order. */
  private steps(): DemoSeedStep[] {
    return decoratedMethods<DemoSeedOptions>(this.discovery, this.scanner, DEMO_SEED_STEP)
      .flatMap(({ options, handler }) => options.map((step) => ({ ...step, run: handler as () => Promise<void> })))
      .sort((a, b) => a.order - b.order);
  }

  /** Lets a demo step hand what it made to later steps (e.g. the demo users' ids) without them importing it. */
  share<T>(key: string, value: T): void {
    this.shared.set(key, value);
  }

  /** What an earlier demo step shared under `key` (undefined when it did not run). */
  get<T>(key: string): T | undefined {
    return this.shared.get(key) as T | undefined;
  }

  onStartup(task: StartupTask): void {
    this.startupTasks.push(task);
  }

  /** Runs after the start-up tasks and any demo seeding. */
  onReady(check: () => Promise<void>): void {
    this.readyChecks.push(check);
  }

  /** The accounts module answers whether the database is new (it has no users). */
  setEmptinessCheck(check: () => Promise<boolean>): void {
    this.emptinessCheck = check;
  }

  async onApplicationBootstrap(): Promise<void> {
    const seedDemo = this.config.seedDemo && (await this.emptinessCheck());
    for (const task of [...this.startupTasks].sort((a, b) => a.order - b.order)) await task.run();
    if (seedDemo) {
      await whileSeedingDemo(async () => {
        for (const step of this.steps()) {
          this.logger.log(`seeding demo content: ${step.name}`);
          await step.run();
        }
      });
    }
    for (const check of this.readyChecks) await check();
  }
}
