// Adds a generated migration class to its dialect's index.ts list (keeps the explicit, ordered list).
import { readFileSync, writeFileSync } from 'node:fs';

const [indexPath, fileBase, className] = process.argv.slice(2);
let source = readFileSync(indexPath, 'utf8');
if (!source.includes(`'./${fileBase}'`)) {
  source = `import { ${className} } from './${fileBase}';\n` + source;
  source = source.replace(/= \[([\s\S]*?)\];/, (_match, items) => {
    const list = items
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    list.push(className);
    return `= [${list.join(', ')}];`;
  });
  writeFileSync(indexPath, source);
}
