import { runSeed } from './test/support/health/bench/run';
const r = runSeed(Number(process.argv[2]), { cleanDays: 1, cases: [process.argv[3]!] });
console.log(JSON.stringify(r.outcomes.map((o) => [o.label.name, o.detected, o.delayWindows])), r.falses.length);
