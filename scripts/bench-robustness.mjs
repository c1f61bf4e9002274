// The ROBUSTNESS section of `make bench` (issue 12): the native CLI over generated
// hostile inputs, one process each, with wall time, peak memory (GNU time's maximum
// resident set) and output bytes against the input. Targets: output <= 4x input + a
// constant on the amplification inputs; memory <= 50x input or a typed `too-large`
// error on the bombs; 50 MB of one paragraph in <= 5 s.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** name -> [file name, generator of its text]. */
const INPUTS = {
  'link target 8 kB': ['link.md', () => `[${'word '.repeat(1500)}](http://example.com/${'a'.repeat(8000)})\n`],
  'ins attributes 10 kB': ['ins.html', () => `<p><ins data-author="${'x'.repeat(7000)}" datetime="${'2'.repeat(3000)}">${'word '.repeat(1400)}</ins></p>`],
  'heading 24 kB': ['heading.md', () => `# ${'heading '.repeat(3000)}\n\nbody text\n`],
  'quotes 250 deep': ['quote.md', () => `${'>'.repeat(250)} ${'a  \n'.repeat(3000)}`],
  'md table 4 MB': ['table.md', () => {
    const row = `|${Array(10).fill('1').join('|')}|\n`;
    return `|${Array(10).fill('a').join('|')}|\n|${Array(10).fill('-').join('|')}|\n` + row.repeat(Math.floor(4e6 / row.length));
  }],
  'headings 1 MB': ['heads.md', () => '# h\n'.repeat(1 << 18)],
  'form feeds 1 MB': ['ff.txt', () => '\f'.repeat(1 << 20)],
  'form feeds 50 MB': ['ff50.txt', () => '\f'.repeat(50 << 20)],
  'authors 100k': ['authors.html', () => `<p>${Array.from({ length: 100000 }, (_, i) => `<ins data-author="author${i}">w </ins>`).join('')}</p>`],
  'paragraph 50 MB': ['para50.txt', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
    let x = 1;
    const parts = [];
    for (let i = 0; i < (50 << 20) / 6; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      parts.push(words[x >>> 29]);
    }
    return parts.join(' ');
  }],
};

export function benchRobustness(root) {
  const cli = join(root, 'target', 'release', 'docrag');
  const dir = join(root, 'target', 'robustness');
  mkdirSync(dir, { recursive: true });
  const gnuTime = existsSync('/usr/bin/time');
  console.log(`\nROBUSTNESS: native CLI over generated hostile inputs (${gnuTime ? 'peak memory from /usr/bin/time' : 'no /usr/bin/time: memory not measured'})`);
  console.log(`${'input'.padEnd(22)} ${'bytes'.padStart(10)} ${'seconds'.padStart(8)} ${'peak MB'.padStart(8)} ${'net/in'.padStart(7)} ${'out/in'.padStart(7)}  result`);
  // What the CLI holds for any input (the o200k tables): subtracted before the ratio.
  let baseMb = 0;
  for (const [name, [file, make]] of [['baseline (tiny text)', ['tiny.txt', () => 'tiny\n']], ...Object.entries(INPUTS)]) {
    const path = join(dir, file);
    if (!existsSync(path)) writeFileSync(path, make());
    const size = statSync(path).size;
    const out = join(dir, `${file}.out`);
    const cmd = gnuTime ? '/usr/bin/time' : cli;
    const args = gnuTime ? ['-f', '%e %M', cli, 'convert', path] : ['convert', path];
    const t0 = process.hrtime.bigint();
    const r = spawnSync('bash', ['-c', `"$0" "$@" > '${out}'`, cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const lines = r.stderr.trim().split('\n');
    const stats = gnuTime ? lines.pop().split(' ') : [];
    const seconds = gnuTime ? Number(stats[0]) : wall;
    const peakMb = gnuTime ? Number(stats[1]) / 1024 : NaN;
    if (file === 'tiny.txt') baseMb = peakMb;
    const netMb = Math.max(0, peakMb - baseMb);
    const outBytes = existsSync(out) ? statSync(out).size : 0;
    const err = lines.find((l) => l.includes('error ['));
    const result = err ? err.replace(/^docrag: /, '').slice(0, 60) : `ok, ${outBytes} bytes out`;
    console.log(
      `${name.padEnd(22)} ${String(size).padStart(10)} ${seconds.toFixed(2).padStart(8)} ${(Number.isNaN(peakMb) ? '-' : peakMb.toFixed(0)).padStart(8)} ${(Number.isNaN(peakMb) ? '-' : ((netMb * 1048576) / size).toFixed(1)).padStart(7)} ${(outBytes / size).toFixed(2).padStart(7)}  ${result}`,
    );
  }
}
