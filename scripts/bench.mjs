// npm run bench: the benchmarks that exist so far. The HTTP harness against a plain baseline
// (DESIGN §8) is not built yet; today this measures the wiki-text engine on a large realistic page.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { runRenderBench } = require('../dist/src/wikitext/bench/render-bench.js');

const sizes = (process.env.BENCH_SIZES ?? '262144,1048576').split(',').map(Number);
console.log('wiki text -> sanitized HTML');
console.log('| input bytes | ms | MB/s |\n|---:|---:|---:|');
for (const bytes of sizes) {
  const result = await runRenderBench(bytes);
  console.log(`| ${result.bytes} | ${result.ms.toFixed(0)} | ${result.mbPerSecond.toFixed(2)} |`);
}
