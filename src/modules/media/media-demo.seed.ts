import { Injectable } from '@nestjs/common';
import { DemoSeed } from '../../database/seed/demo-seed.decorator';
import sharp from 'sharp';
import { DemoSeedRegistry } from '../../database/seed/demo-seed.registry';
import { JobRunner } from '../../platform/jobs/job-runner';
import { ImagesService } from './images.service';

/** Gradient pictures, 1200×900 (4:3), in the colours of a workbench. */
const DEMO_IMAGES: { name: string; from: string; to: string }[] = [
  { name: 'battery-bay.png', from: '#1f6feb', to: '#7ee787' },
  { name: 'logic-board.png', from: '#0b3d2e', to: '#2ea043' },
  { name: 'screen-removal.png', from: '#8957e5', to: '#f778ba' },
  { name: 'rear-case.png', from: '#d29922', to: '#f85149' },
  { name: 'screws-tray.png', from: '#484f58', to: '#c9d1d9' },
  { name: 'fan-assembly.png', from: '#0550ae', to: '#54aeff' },
];

export function gradientPng(from: string, to: string, width = 1200, height = 900): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/>` +
    `<stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>` +
    `<circle cx="${width * 0.7}" cy="${height * 0.4}" r="${height * 0.18}" fill="#ffffff" fill-opacity="0.25"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Demo content, order 20: a few generated pictures in the media managers of the demo users (the first
 * demo accounts, which the accounts step seeded at order 10 and shared as `demo.userids`).
 */
@Injectable()
export class MediaDemoSeed {
  constructor(
    private readonly seeds: DemoSeedRegistry,
    private readonly jobs: JobRunner,
    private readonly images: ImagesService,
  ) {}

  @DemoSeed({ name: 'media', order: 20 })
  async run(): Promise<void> {
    const owners = (this.seeds.get<number[]>('demo.userids') ?? []).slice(0, 3);
    if (!owners.length) return;
    for (const [index, demo] of DEMO_IMAGES.entries()) {
      await this.images.upload(owners[index % owners.length], await gradientPng(demo.from, demo.to), {
        filename: demo.name,
      });
    }
    await this.jobs.drain();
  }
}
