import { buildBenchPage, runRenderBench } from './render-bench';

describe('runRenderBench', () => {
  it('reports throughput for a small page', async () => {
    const result = await runRenderBench(50_000);
    expect(result.bytes).toBe(50_000);
    expect(result.ms).toBeGreaterThan(0);
    expect(result.mbPerSecond).toBeGreaterThan(0);
  });

  it('builds a page of the requested size', () => {
    expect(buildBenchPage(12_345)).toHaveLength(12_345);
  });
});
