// npm run bench:wikitext: the wiki-text engine alone on large realistic pages, and how its time scales
// with the input (the HTTP benchmarks against a baseline are `npm run bench`, scripts/bench/run.mjs).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { runRenderBench } = require('../dist/src/wikitext/bench/render-bench.js');

const sizes = (process.env.BENCH_SIZES ?? '262144,1048576,4194304').split(',').map(Number);
console.log('wiki text -> sanitized HTML');
console.log('| input bytes | ms | MB/s |\n|---:|---:|---:|');
const results = [];
for (const bytes of sizes) {
  const result = await runRenderBench(bytes);
  results.push(result);
  console.log(`| ${result.bytes} | ${result.ms.toFixed(0)} | ${result.mbPerSecond.toFixed(2)} |`);
}
// Linear work gives a time ratio close to the size ratio; a quadratic path would give its square.
for (let i = 1; i < results.length; i++) {
  const [a, b] = [results[i - 1], results[i]];
  console.log(
    `scaling ${a.bytes} -> ${b.bytes} bytes: ${(b.bytes / a.bytes).toFixed(1)}x input, ${(b.ms / a.ms).toFixed(1)}x time`,
  );
}
