import { readFileSync } from 'node:fs';
import { parseCsv, MARKET_DATA_DIR } from './csv.js';
import { loadReferenceData } from './instruments.js';
const text = readFileSync(new URL('stocks.csv', MARKET_DATA_DIR), 'utf8');
for (let r = 0; r < 3; r++) { const t = performance.now(); parseCsv(text); console.log('parse stocks', (performance.now() - t).toFixed(2)); }
for (let r = 0; r < 3; r++) { const t = performance.now(); loadReferenceData(); console.log('load', (performance.now() - t).toFixed(2)); }
