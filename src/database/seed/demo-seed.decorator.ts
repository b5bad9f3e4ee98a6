import { appendMethodMetadata } from '../../common/discovery/decorated-methods';

export const DEMO_SEED_STEP = 'demoSeedStep';

export interface DemoSeedOptions {
  /** Shown in the log. */
  name: string;
  /** Lower runs first: accounts 10, media 20, wikis 30, teams 35, guides 40, later modules 50+. */
  order: number;
}

/**
 * The method adds this module's demo content to a new site (SEED_DEMO on, no demo seeded yet); DemoSeedRegistry
 * runs every such method in `order` at start-up.
 */
export const DemoSeed = (options: DemoSeedOptions): MethodDecorator =>
  appendMethodMetadata<DemoSeedOptions>(DEMO_SEED_STEP, options);
